//! Source locations from LLVM debug info. File names are interned into
//! `Module::files` (index 0 is `"<unknown>"`) so that a `Loc` stays three
//! integers. The file name is kept as clang recorded it (the path given on
//! the command line, relative to the compile directory), which is what a
//! user recognises in a report.

use super::llvm::Value;
use super::types::Loc;
use llvm_sys::core::*;
use std::collections::HashMap;

pub struct FileTable {
    pub files: Vec<String>,
    index: HashMap<String, u32>,
}

impl FileTable {
    pub fn new() -> FileTable {
        FileTable { files: vec!["<unknown>".to_string()], index: HashMap::new() }
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
        if p.is_null() || len == 0 {
            return 0;
        }
        let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, len as usize) };
        self.intern(String::from_utf8_lossy(bytes).into_owned())
    }

    /// Location of an instruction (file, line, column).
    pub fn inst_loc(&mut self, inst: Value) -> Loc {
        let line = unsafe { LLVMGetDebugLocLine(inst) };
        if line == 0 {
            return Loc::default();
        }
        let column = unsafe { LLVMGetDebugLocColumn(inst) };
        Loc { file: self.file_of(inst), line, column }
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
