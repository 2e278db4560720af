//! Compiling one source file to LLVM bitcode with clang, with the flags the
//! design fixes: no optimisation but optnone disabled (so mem2reg can run
//! later), debug info for source locations, no FP contraction (an fma would
//! change results), and value names kept for readable messages.

use super::error::FrontendError;
use super::CompileOptions;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The language a source file is compiled as.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Language {
    C,
    Cxx,
    OpenCl,
}

const COMMON_FLAGS: &[&str] = &[
    "-O0",
    "-Xclang",
    "-disable-O0-optnone",
    "-g",
    "-ffp-contract=off",
    "-fno-discard-value-names",
    "-emit-llvm",
    "-c",
];
const C_FLAGS: &[&str] = &[];
const OPENCL_FLAGS: &[&str] =
    &["-x", "cl", "-cl-std=CL1.2", "-target", "spir64", "-Xclang", "-finclude-default-header"];

/// The clang command line (without the program) for one source file.
pub fn clang_args(lang: Language, src: &Path, out: &Path, opts: &CompileOptions, runtime: Option<&Path>) -> Vec<String> {
    let mut args: Vec<String> = COMMON_FLAGS.iter().map(|s| s.to_string()).collect();
    match lang {
        Language::OpenCl => args.extend(OPENCL_FLAGS.iter().map(|s| s.to_string())),
        Language::C | Language::Cxx => {
            args.extend(C_FLAGS.iter().map(|s| s.to_string()));
            // OpenCL C always goes to spir64; host code to the chosen target.
            if let Some(t) = &opts.target {
                args.push(format!("--target={t}"));
            }
        }
    }
    if let Some(rt) = runtime {
        args.push("-I".into());
        args.push(rt.display().to_string());
    }
    for dir in &opts.include_dirs {
        args.push("-I".into());
        args.push(dir.display().to_string());
    }
    args.extend(opts.defines.iter().map(|d| format!("-D{d}")));
    args.extend(opts.cflags.iter().cloned());
    args.push(src.display().to_string());
    args.push("-o".into());
    args.push(out.display().to_string());
    args
}

/// Runs clang on `src`, writing bitcode to `out`.
pub fn compile(clang: &Path, lang: Language, src: &Path, out: &Path, opts: &CompileOptions, runtime: Option<&Path>) -> Result<PathBuf, FrontendError> {
    let output = Command::new(clang)
        .args(clang_args(lang, src, out, opts, runtime))
        .output()
        .map_err(|source| FrontendError::Spawn { tool: clang.to_path_buf(), source })?;
    if !output.status.success() {
        return Err(FrontendError::Compile {
            file: src.to_path_buf(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    Ok(out.to_path_buf())
}
