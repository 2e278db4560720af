//! Compiling one source file to LLVM bitcode with clang, with the flags of
//! flags.rs: the user's code gets the defaults (-O0, -ffp-contract=off)
//! unless `--cflags` overrides them, the runtime model its own fixed flags.

use super::error::FrontendError;
use super::CompileOptions;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The language a source file is compiled as.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Language {
    /// C (`.c`).
    C,
    /// C++ (`.cc`, `.cpp`, `.cxx`).
    Cxx,
    /// OpenCL C (`.cl`, or `.c` under `--opencl`).
    OpenCl,
    /// CUDA device code (`.cu`), compiled for nvptx64 without the CUDA
    /// toolkit: cl-runtime-model/cuda/symcross_cuda.h stands for its headers.
    Cuda,
    /// The host side of a `.cu` file (`check`): the same file compiled for
    /// the host, kernels as launch stubs, `<<<...>>>` as calls into the
    /// modelled runtime (cl-runtime-model/cuda/symcross_cuda_runtime.h).
    CudaHost,
}

/// Whose code a compilation is for: it decides the defaults.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// The user's inputs: defaults that `--cflags` may override.
    User,
    /// The runtime model: fixed flags (the caller filters the user's).
    Runtime,
}

const C_FLAGS: &[&str] = &[];
const OPENCL_FLAGS: &[&str] = &["-x", "cl", "-cl-std=CL1.2", "-target", "spir64", "-Xclang", "-finclude-default-header"];
/// Device code only, for an nvptx64 GPU clang 19 knows without a CUDA
/// installation (sm_70: independent thread scheduling, the `_sync` warp
/// functions, PTX 7.0 for them); no toolkit headers or libdevice.
const CUDA_FLAGS: &[&str] = &[
    "-x",
    "cuda",
    "--cuda-device-only",
    "--cuda-gpu-arch=sm_70",
    "-nocudainc",
    "-nocudalib",
    "-Xclang",
    "-target-feature",
    "-Xclang",
    "+ptx70",
    "-Xclang",
    SDK_VERSION,
];
/// The host side: kernels become stubs that call `cudaLaunchKernel`.
const CUDA_HOST_FLAGS: &[&str] =
    &["-x", "cuda", "--cuda-host-only", "--cuda-gpu-arch=sm_70", "-nocudainc", "-nocudalib", "-Xclang", SDK_VERSION];
/// Without a toolkit clang assumes an old CUDA and lowers `<<<...>>>` to
/// `cudaConfigureCall`; a toolkit version from 9.2 on makes it the
/// `__cudaPushCallConfiguration` / `cudaLaunchKernel` pair the modelled
/// runtime implements (on both sides: the device compile parses the host
/// code too).
const SDK_VERSION: &str = "-target-sdk-version=12.0";
/// The header every `.cu` file is compiled with (in the runtime model's
/// `cuda/` folder, which is also on the include path for `cuda_runtime.h`).
pub const CUDA_HEADER: &str = "symcross_cuda.h";
/// The runtime API header every `.cu` file is compiled with too, on both
/// sides (the device compile parses the host code).
pub const CUDA_RUNTIME_HEADER: &str = "symcross_cuda_runtime.h";

/// The clang command line (without the program) for one source file.
pub fn clang_args(lang: Language, role: Role, src: &Path, out: &Path, opts: &CompileOptions, runtime: Option<&Path>) -> Vec<String> {
    let defaults = match role {
        Role::User => super::flags::USER_DEFAULTS,
        Role::Runtime => super::flags::RUNTIME,
    };
    let mut args: Vec<String> = defaults.iter().chain(super::flags::FIXED).map(|s| s.to_string()).collect();
    match lang {
        Language::OpenCl => args.extend(OPENCL_FLAGS.iter().map(|s| s.to_string())),
        Language::Cuda | Language::CudaHost => {
            let flags = if lang == Language::Cuda { CUDA_FLAGS } else { CUDA_HOST_FLAGS };
            args.extend(flags.iter().map(|s| s.to_string()));
            if lang == Language::CudaHost {
                if let Some(t) = &opts.target {
                    args.push(format!("--target={t}"));
                }
            }
            if let Some(rt) = runtime {
                args.push("-I".into());
                args.push(rt.join("cuda").display().to_string());
                for header in [CUDA_HEADER, CUDA_RUNTIME_HEADER] {
                    args.push("-include".into());
                    args.push(header.into());
                }
            }
        }
        Language::C | Language::Cxx => {
            args.extend(C_FLAGS.iter().map(|s| s.to_string()));
            if role == Role::User {
                args.extend(super::flags::C_RULE_CHECKS.iter().map(|s| s.to_string()));
            }
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
    if let Some(scratch) = &opts.scratch {
        // Files in it are named relative to it in debug info.
        args.push(format!("-fdebug-prefix-map={}/=", scratch.display()));
    }
    args.push(src.display().to_string());
    args.push("-o".into());
    args.push(out.display().to_string());
    args
}

/// Runs clang on `src`, writing bitcode to `out`.
pub fn compile(
    clang: &Path,
    lang: Language,
    role: Role,
    src: &Path,
    out: &Path,
    opts: &CompileOptions,
    runtime: Option<&Path>,
) -> Result<PathBuf, FrontendError> {
    run(clang, src, role, clang_args(lang, role, src, out, opts, runtime))?;
    Ok(out.to_path_buf())
}

/// As `compile`, also writing the list of files the compile read (the
/// source and every header, Make syntax) to `depfile`.
pub fn compile_listing_headers(
    clang: &Path,
    lang: Language,
    src: &Path,
    out: &Path,
    depfile: &Path,
    opts: &CompileOptions,
    runtime: Option<&Path>,
) -> Result<PathBuf, FrontendError> {
    let mut args = clang_args(lang, Role::User, src, out, opts, runtime);
    args.extend(["-MD".to_string(), "-MF".to_string(), depfile.display().to_string()]);
    run(clang, src, Role::User, args)?;
    Ok(out.to_path_buf())
}

fn run(clang: &Path, src: &Path, role: Role, args: Vec<String>) -> Result<(), FrontendError> {
    let started = std::time::Instant::now();
    let output = Command::new(clang).args(&args).output().map_err(|source| FrontendError::Spawn { tool: clang.to_path_buf(), source })?;
    tracing::debug!(file = %src.display(), ?role, seconds = started.elapsed().as_secs_f64(), "clang {}", args.join(" "));
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let hint = super::feature_hint::missing_feature_hint(&stderr);
        return Err(FrontendError::Compile { file: src.to_path_buf(), stderr, hint });
    }
    Ok(())
}
