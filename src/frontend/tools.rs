//! Locating the external tools (clang, llvm-link, opt) and the runtime
//! directory (cl-runtime-model/, which holds symcross.h). Each can be
//! overridden through the environment so that tests and unusual installs
//! need no code change.

use std::path::{Path, PathBuf};

/// Directory of Debian's LLVM 19 binaries, the last fallback.
const LLVM_BIN_DIR: &str = "/usr/lib/llvm-19/bin";

/// The external programs the front end runs.
#[derive(Clone, Debug)]
pub struct Tools {
    /// The C/C++/OpenCL compiler (clang 19).
    pub clang: PathBuf,
    /// The bitcode linker.
    pub llvm_link: PathBuf,
    /// The LLVM optimiser (runs mem2reg).
    pub opt: PathBuf,
}

impl Tools {
    /// clang: `$SYMCROSS_CLANG`, else `clang-19` on PATH, else LLVM's bin dir;
    /// likewise `$SYMCROSS_LLVM_LINK` / `llvm-link-19` and `$SYMCROSS_OPT` / `opt-19`.
    pub fn locate() -> Tools {
        Tools {
            clang: find_tool("SYMCROSS_CLANG", "clang-19", "clang"),
            llvm_link: find_tool("SYMCROSS_LLVM_LINK", "llvm-link-19", "llvm-link"),
            opt: find_tool("SYMCROSS_OPT", "opt-19", "opt"),
        }
    }
}

fn find_tool(env_var: &str, versioned: &str, plain: &str) -> PathBuf {
    if let Some(p) = std::env::var_os(env_var).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    if let Some(p) = search_path(versioned) {
        return p;
    }
    // If nothing is found, the spawn error will name this path.
    Path::new(LLVM_BIN_DIR).join(plain)
}

fn search_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(name)).find(|p| p.is_file())
}

/// The runtime directory: `$SYMCROSS_RUNTIME`, else the source tree's
/// cl-runtime-model/, else `cl-runtime-model` next to (or above) the executable.
pub fn runtime_dir() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SYMCROSS_RUNTIME").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let built_in = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/cl-runtime-model"));
    if built_in.is_dir() {
        return Some(built_in);
    }
    let exe = std::env::current_exe().ok()?;
    exe.ancestors().skip(1).take(4).map(|d| d.join("cl-runtime-model")).find(|d| d.is_dir())
}
