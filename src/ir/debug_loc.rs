//! Source locations from LLVM debug info. File names are interned into
//! `Module::files` (index 0 is `"<unknown>"`) so that a `Loc` stays three
//! integers. Debug info names a file by a directory and a name relative to
//! it, and clang shortens the name against a common ancestor of the input
//! and its working directory (`/p/checkout/x.c` compiled from `/p/wd`
//! becomes `checkout/x.c` in directory `/p`): the name alone is no path.
//! A file is kept as the path the pair gives, relative to the working
//! directory when it lies under it, so that reading it from here reads
//! the file the debug info names (the driver then names inputs as given).

use super::llvm::Value;
use super::types::Loc;
use llvm_sys::core::*;
use llvm_sys::debuginfo::*;
use llvm_sys::prelude::LLVMMetadataRef;
use std::collections::HashMap;

/// Whether `file` (as debug info names it) is one of the CUDA headers
/// shipped in the runtime model's `cuda/` folder, whose code runs on the
/// user's behalf.
pub fn is_shipped_cuda_header(file: &str) -> bool {
    const SHIPPED: [&str; 6] = [
        "cuda/symcross_cuda.h",
        "cuda/curand_kernel.h",
        "cuda/symcross_cuda_math.h",
        "cuda/symcross_cuda_faults.h",
        "cuda/symcross_cuda_rounding.h",
        "cuda/cuda_fp16.h",
    ];
    file == "symcross_cuda.h" || SHIPPED.iter().any(|h| file.ends_with(h))
}

pub struct FileTable {
    pub files: Vec<String>,
    index: HashMap<String, u32>,
    /// (directory, name) as debug info gives them, to the interned path.
    pairs: HashMap<(String, String), u32>,
    /// The working directory, as the OS and as the shell name it (clang
    /// records `$PWD` when it is the same directory).
    cwd: Vec<std::path::PathBuf>,
}

impl FileTable {
    pub fn new() -> FileTable {
        let mut cwd: Vec<std::path::PathBuf> = std::env::current_dir().into_iter().collect();
        if let Some(pwd) = std::env::var_os("PWD").map(std::path::PathBuf::from) {
            // $PWD is only the working directory when it leads there (a
            // parent that changed directory may have left it stale).
            let same =
                std::fs::canonicalize(&pwd).ok().is_some_and(|p| cwd.iter().any(|c| std::fs::canonicalize(c).ok() == Some(p.clone())));
            if pwd.is_absolute() && same && !cwd.contains(&pwd) {
                cwd.push(pwd);
            }
        }
        FileTable { files: vec!["<unknown>".to_string()], index: HashMap::new(), pairs: HashMap::new(), cwd }
    }

    /// The path debug info's (directory, name) pair gives, relative to the
    /// working directory when under it, else absolute. A relative pair
    /// (no directory) stays as recorded.
    fn path_of(&self, dir: &str, name: &str) -> String {
        let name_path = std::path::Path::new(name);
        if name_path.is_absolute() || dir.is_empty() {
            return self.relative_to_cwd(name_path).unwrap_or_else(|| name.to_string());
        }
        let dir_path = std::path::Path::new(dir);
        if self.cwd.iter().any(|c| c == dir_path) {
            return name.to_string();
        }
        let full = dir_path.join(name_path);
        if !full.is_absolute() {
            return full.strip_prefix(".").unwrap_or(&full).display().to_string();
        }
        self.relative_to_cwd(&full).unwrap_or_else(|| full.display().to_string())
    }

    fn relative_to_cwd(&self, path: &std::path::Path) -> Option<String> {
        if !path.is_absolute() {
            return None;
        }
        self.cwd.iter().find_map(|c| path.strip_prefix(c).ok()).filter(|r| !r.as_os_str().is_empty()).map(|r| r.display().to_string())
    }

    fn intern(&mut self, name: String) -> u32 {
        if name.is_empty() {
            return 0;
        }
        if let Some(&i) = self.index.get(&name) {
            return i;
        }
        let i = self.files.len() as u32;
        self.files.push(name.clone());
        self.index.insert(name, i);
        i
    }

    fn file_of(&mut self, v: Value) -> u32 {
        let mut len = 0u32;
        // SAFETY: v is an instruction, function or global variable (callers).
        let p = unsafe { LLVMGetDebugLocFilename(v, &mut len) };
        let mut dir_len = 0u32;
        // SAFETY: as above; the directory of the same location.
        let d = unsafe { LLVMGetDebugLocDirectory(v, &mut dir_len) };
        // SAFETY: LLVM's strings of these lengths, or null.
        unsafe { self.file_of_strings(d, dir_len as usize, p, len as usize) }
    }

    /// The interned file of debug info's directory and name strings.
    ///
    /// # Safety
    /// Each pointer is null or points at that many bytes.
    unsafe fn file_of_strings(&mut self, d: *const libc::c_char, dir_len: usize, p: *const libc::c_char, len: usize) -> u32 {
        if p.is_null() || len == 0 {
            return 0;
        }
        let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, len) };
        let name = String::from_utf8_lossy(bytes).into_owned();
        let dir = if d.is_null() || dir_len == 0 {
            String::new()
        } else {
            String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(d as *const u8, dir_len) }).into_owned()
        };
        if let Some(&i) = self.pairs.get(&(dir.clone(), name.clone())) {
            return i;
        }
        let path = self.path_of(&dir, &name);
        let i = self.intern(path);
        self.pairs.insert((dir, name), i);
        i
    }

    /// Location of an instruction (file, line, column). Code of a shipped
    /// CUDA header inlined into the user's code (at -O2 all of it is) has
    /// the user's line it was inlined at: a finding there, a barrier's
    /// identity, name the user's call, as calls of the header do at -O0.
    pub fn inst_loc(&mut self, inst: Value) -> Loc {
        let line = unsafe { LLVMGetDebugLocLine(inst) };
        if line == 0 {
            return Loc::default();
        }
        let column = unsafe { LLVMGetDebugLocColumn(inst) };
        let loc = Loc { file: self.file_of(inst), line, column };
        if !is_shipped_cuda_header(&self.files[loc.file as usize]) {
            return loc;
        }
        // SAFETY: inst is an instruction with a debug location (line > 0).
        unsafe { self.user_inlined_at(LLVMInstructionGetDebugLoc(inst)) }.unwrap_or(loc)
    }

    /// The first place outside the shipped CUDA headers that the code at
    /// `location` (a DILocation) was inlined at, if any.
    ///
    /// # Safety
    /// `location` is a DILocation or null.
    unsafe fn user_inlined_at(&mut self, location: LLVMMetadataRef) -> Option<Loc> {
        let mut at = if location.is_null() { location } else { unsafe { LLVMDILocationGetInlinedAt(location) } };
        while !at.is_null() {
            let file = unsafe {
                let f = LLVMDIScopeGetFile(LLVMDILocationGetScope(at));
                if f.is_null() {
                    0
                } else {
                    let (mut dir_len, mut len) = (0u32, 0u32);
                    let d = LLVMDIFileGetDirectory(f, &mut dir_len);
                    let p = LLVMDIFileGetFilename(f, &mut len);
                    self.file_of_strings(d, dir_len as usize, p, len as usize)
                }
            };
            if !is_shipped_cuda_header(&self.files[file as usize]) {
                let (line, column) = unsafe { (LLVMDILocationGetLine(at), LLVMDILocationGetColumn(at)) };
                return Some(Loc { file, line, column });
            }
            at = unsafe { LLVMDILocationGetInlinedAt(at) };
        }
        None
    }

    /// Location of a function (its DISubprogram) or global variable.
    pub fn global_loc(&mut self, g: Value) -> Loc {
        let line = unsafe { LLVMGetDebugLocLine(g) };
        if line == 0 {
            return Loc::default();
        }
        Loc { file: self.file_of(g), line, column: 0 }
    }
}
