//! The front end: turns the user's inputs (C/C++ harnesses, OpenCL C
//! kernels, ready-made .bc/.ll) into one linked, mem2reg'd bitcode file by
//! running clang, llvm-link and opt. The result lives in a temporary
//! directory owned by the returned `CompiledModule`, so it is cleaned up
//! when the caller is done with it.

mod clang;
mod error;
mod feature_hint;
mod flags;
mod tools;

mod build_cache;
mod duplicates;
mod link;
mod runtime_cache;
pub mod target;

pub use build_cache::{build_cache_off, parse_depfile, ListedCache};
pub use clang::{clang_args, Language, Role};
pub use error::FrontendError;
pub use flags::{describe as describe_flags, RUNTIME as RUNTIME_FLAGS};
pub use runtime_cache::{cache_dir, files_under, Digest};
pub use tools::{runtime_dir, Tools};

use std::path::{Path, PathBuf};

/// What is passed to clang besides the fixed flags.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// `-I` directories.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions, as `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// Extra clang flags, already split into arguments.
    pub cflags: Vec<String>,
    /// Compile `.c` inputs as OpenCL C (`.cl` inputs always are).
    pub opencl: bool,
    /// Compile `.cu` inputs for the host (`check`: the harness with its
    /// `<<<...>>>` launches) rather than as device code (`race`).
    pub cuda_host: bool,
    /// The target triple C and C++ inputs are compiled for (`None`: the
    /// host), as `target::normalize` spells it.
    pub target: Option<String>,
    /// A directory of inputs written for this run only (the OpenCL sources
    /// and headers of a host program): its name, which changes from run to
    /// run, is kept out of debug info and out of the build cache's key, so
    /// the same program built again is found in the cache.
    pub scratch: Option<PathBuf>,
}

/// The linked bitcode; the file is deleted when this value is dropped.
#[derive(Debug)]
pub struct CompiledModule {
    _dir: crate::process::tempdirs::RunDir,
    path: PathBuf,
}

impl CompiledModule {
    /// Path of the linked, mem2reg'd bitcode file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// How one input is handled.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum InputKind {
    Source(Language),
    Bitcode,
}

fn classify(path: &Path, opts: &CompileOptions) -> Result<InputKind, FrontendError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    Ok(match ext.as_str() {
        "c" if opts.opencl => InputKind::Source(Language::OpenCl),
        "c" => InputKind::Source(Language::C),
        "cc" | "cpp" | "cxx" => InputKind::Source(Language::Cxx),
        "cl" => InputKind::Source(Language::OpenCl),
        "cu" if opts.cuda_host => InputKind::Source(Language::CudaHost),
        "cu" => InputKind::Source(Language::Cuda),
        "bc" | "ll" => InputKind::Bitcode,
        _ => return Err(FrontendError::UnknownInputKind(path.to_path_buf())),
    })
}

/// An input must be a readable regular file: a directory, FIFO, device or
/// symbolic-link loop gets an error saying which it is.
fn check_input_file(path: &Path) -> Result<(), FrontendError> {
    let unreadable = |why: String| Err(FrontendError::UnreadableInput(path.to_path_buf(), why));
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A dangling symbolic link is "missing" too, but say so.
            return match std::fs::symlink_metadata(path) {
                Ok(_) => unreadable("is a symbolic link to a file that does not exist".into()),
                Err(_) => Err(FrontendError::MissingInput(path.to_path_buf())),
            };
        }
        // ELOOP: a cycle of symbolic links.
        Err(e) if e.raw_os_error() == Some(40) => return unreadable("is a symbolic link loop".into()),
        Err(e) => return unreadable(format!("cannot be read: {e}")),
    };
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        return unreadable("is a directory, not a file".into());
    }
    if t.is_fifo() {
        return unreadable("is a FIFO (named pipe), not a regular file".into());
    }
    if t.is_char_device() || t.is_block_device() {
        return unreadable("is a device, not a regular file".into());
    }
    if t.is_socket() {
        return unreadable("is a socket, not a regular file".into());
    }
    if let Err(e) = std::fs::File::open(path) {
        return unreadable(format!("cannot be read: {e}"));
    }
    Ok(())
}

/// The runtime model's files in `sub` with extension `ext`, sorted: the
/// host-side C files (cl-runtime-model/host/*.c) and the device built-ins
/// (cl-runtime-model/device/*.cl).
fn runtime_sources(runtime: Option<&Path>, sub: &str, ext: &str) -> Vec<PathBuf> {
    let Some(dir) = runtime.map(|r| r.join(sub)) else { return Vec::new() };
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> =
        entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|e| e == ext) && p.is_file()).collect();
    files.sort();
    files
}

/// Compiles and links `inputs` (plus the host runtime model when any input
/// is host code) into one bitcode module with mem2reg applied.
pub fn compile_inputs(inputs: &[PathBuf], opts: &CompileOptions) -> Result<CompiledModule, FrontendError> {
    compile_with_tools(inputs, opts, &Tools::locate())
}

/// As `compile_inputs`, with explicit tool paths.
pub fn compile_with_tools(inputs: &[PathBuf], opts: &CompileOptions, tools: &Tools) -> Result<CompiledModule, FrontendError> {
    if inputs.is_empty() {
        return Err(FrontendError::NoInputs);
    }
    let mut kinds = Vec::with_capacity(inputs.len());
    for input in inputs {
        check_input_file(input)?;
        kinds.push(classify(input, opts)?);
    }
    let dir = crate::process::tempdirs::create("").map_err(FrontendError::TempDir)?;
    let runtime = runtime_dir();
    let sources: Vec<(PathBuf, InputKind)> = inputs.iter().cloned().zip(kinds).collect();
    let path = dir.path().join("module.bc");
    let cache = build_cache::modules_dir().map(|d| (key(&sources, opts, tools, runtime.as_deref()), d));
    if let Some((key, d)) = &cache {
        if build_cache::lookup(d, key, &path) {
            tracing::info!(entry = %d.join(key).display(), "stage: the compiled module comes from the build cache (no clang, llvm-link or opt)");
            return Ok(CompiledModule { _dir: dir, path });
        }
    }
    // Kernels run alone need no host runtime but get the device built-ins;
    // host programs (and opaque bitcode, which may be either) get the host
    // runtime. Only the runtime functions the inputs use are linked in.
    // CUDA device code is a kernel alone too; its built-ins are the header
    // compiled with it (the OpenCL ones are for spir64, not nvptx64).
    let has_host_code = sources.iter().any(|(_, k)| !matches!(k, InputKind::Source(Language::OpenCl | Language::Cuda)));
    let has_device_code = sources.iter().any(|(_, k)| *k == InputKind::Source(Language::OpenCl));
    let mut libraries = Vec::new();
    if has_host_code {
        let files = runtime_sources(runtime.as_deref(), "host", "c");
        if !files.is_empty() {
            libraries.push(runtime_cache::runtime_library(
                &files,
                Language::C,
                "host-runtime",
                dir.path(),
                opts,
                tools,
                runtime.as_deref(),
            )?);
        }
    }
    if has_device_code {
        let files = runtime_sources(runtime.as_deref(), "device", "cl");
        if !files.is_empty() {
            libraries.push(runtime_cache::runtime_library(
                &files,
                Language::OpenCl,
                "device-builtins",
                dir.path(),
                opts,
                tools,
                runtime.as_deref(),
            )?);
        }
    }
    let objects = compile_all(&sources, dir.path(), opts, tools, runtime.as_deref())?;
    let linked = dir.path().join("linked.bc");
    if let Err(e) = link::link(&tools.llvm_link, &objects, &linked) {
        return Err(explain_link_failure(e, inputs, &objects, dir.path(), tools));
    }
    if !libraries.is_empty() {
        // One library is used as it is (re-linking the device built-ins
        // alone costs more than the rest of the front end).
        let rt = if libraries.len() == 1 {
            libraries[0].clone()
        } else {
            let rt = dir.path().join("runtime.bc");
            link::link(&tools.llvm_link, &libraries, &rt)?;
            rt
        };
        let with_rt = dir.path().join("linked-runtime.bc");
        link::link_only_needed(&tools.llvm_link, &linked, &rt, &with_rt)?;
        std::fs::rename(&with_rt, &linked).map_err(FrontendError::TempDir)?;
    }
    link::mem2reg(&tools.opt, &linked, &path)?;
    if let Some((key, d)) = &cache {
        let depfiles: Vec<PathBuf> = objects.iter().filter(|o| o.starts_with(dir.path())).map(|o| o.with_extension("d")).collect();
        build_cache::store(d, key, &path, &depfiles, opts.scratch.as_deref());
    }
    Ok(CompiledModule { _dir: dir, path })
}

/// The build cache's key of `sources` compiled with `opts`: each input's
/// text and clang arguments, and whether the host runtime and the device
/// built-ins are linked in (the runtime model's files are part of every
/// key).
fn key(sources: &[(PathBuf, InputKind)], opts: &CompileOptions, tools: &Tools, runtime: Option<&Path>) -> String {
    let mut k = build_cache::KeyBuilder::new(tools, runtime, opts.scratch.as_deref());
    for (src, kind) in sources {
        let args = match kind {
            InputKind::Bitcode => vec!["bitcode".to_string()],
            // The output path is not part of the key (it is always fresh).
            InputKind::Source(lang) => clang::clang_args(*lang, Role::User, src, Path::new("out.bc"), opts, runtime),
        };
        k.input(src, &args, opts.scratch.as_deref());
    }
    // The runtime libraries are compiled with the user's flags filtered
    // (runtime_cache.rs): those are in the arguments above already, but the
    // `--opencl` choice and the target decide which libraries apply.
    k.choice(&format!("opencl={} target={:?} cuda_host={}", opts.opencl, opts.target, opts.cuda_host));
    k.finish()
}

/// A link error made readable: two inputs that define the same symbol are
/// named, with the advice to drop one; anything else stays llvm-link's.
fn explain_link_failure(e: FrontendError, inputs: &[PathBuf], objects: &[PathBuf], scratch: &Path, tools: &Tools) -> FrontendError {
    let FrontendError::Link { stderr } = &e else { return e };
    let Some(symbol) = duplicates::multiply_defined(stderr) else { return e };
    match duplicates::clashing_pair(&tools.llvm_link, inputs, objects, scratch) {
        Some((first, second)) => FrontendError::DuplicateSymbol { symbol, first, second },
        None => e,
    }
}

/// Compiles each source to bitcode in `dir` (bitcode inputs are used as
/// they are).
fn compile_all(
    sources: &[(PathBuf, InputKind)],
    dir: &Path,
    opts: &CompileOptions,
    tools: &Tools,
    runtime: Option<&Path>,
) -> Result<Vec<PathBuf>, FrontendError> {
    let mut objects = Vec::with_capacity(sources.len());
    for (i, (src, kind)) in sources.iter().enumerate() {
        match kind {
            InputKind::Bitcode => objects.push(src.clone()),
            InputKind::Source(lang) => {
                let stem = src.file_stem().and_then(|s| s.to_str()).unwrap_or("input");
                let out = dir.join(format!("{i}-{stem}.bc"));
                // The headers read are listed for the build cache.
                let depfile = out.with_extension("d");
                objects.push(clang::compile_listing_headers(&tools.clang, *lang, src, &out, &depfile, opts, runtime)?);
            }
        }
    }
    Ok(objects)
}
