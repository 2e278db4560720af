//! Linking the per-file bitcode into one module with llvm-link, then
//! promoting stack slots to registers with `opt -passes=mem2reg` so the
//! executor sees SSA values and phi nodes rather than loads and stores.

use super::error::FrontendError;
use std::path::{Path, PathBuf};
use std::process::Command;

fn run(tool: &Path, args: &[&std::ffi::OsStr]) -> Result<std::process::Output, FrontendError> {
    let started = std::time::Instant::now();
    let out = Command::new(tool).args(args).output().map_err(|source| FrontendError::Spawn { tool: tool.to_path_buf(), source });
    tracing::debug!(tool = %tool.display(), seconds = started.elapsed().as_secs_f64(), "{:?}", args);
    out
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn link(llvm_link: &Path, inputs: &[PathBuf], out: &Path) -> Result<(), FrontendError> {
    let mut args: Vec<&std::ffi::OsStr> = inputs.iter().map(|p| p.as_os_str()).collect();
    args.push("-o".as_ref());
    args.push(out.as_os_str());
    let output = run(llvm_link, &args)?;
    if !output.status.success() {
        return Err(FrontendError::Link { stderr: stderr_of(&output) });
    }
    Ok(())
}

/// Links `main` with only the functions and globals of `library` that it
/// uses (the runtime model: unused model functions stay out of the module).
pub fn link_only_needed(llvm_link: &Path, main: &Path, library: &Path, out: &Path) -> Result<(), FrontendError> {
    let args: [&std::ffi::OsStr; 5] = [main.as_os_str(), "--only-needed".as_ref(), library.as_os_str(), "-o".as_ref(), out.as_os_str()];
    let output = run(llvm_link, &args)?;
    if !output.status.success() {
        return Err(FrontendError::Link { stderr: stderr_of(&output) });
    }
    Ok(())
}

pub fn mem2reg(opt: &Path, input: &Path, out: &Path) -> Result<(), FrontendError> {
    let args: [&std::ffi::OsStr; 4] = ["-passes=mem2reg".as_ref(), input.as_os_str(), "-o".as_ref(), out.as_os_str()];
    let output = run(opt, &args)?;
    if !output.status.success() {
        return Err(FrontendError::Opt { stderr: stderr_of(&output) });
    }
    Ok(())
}
