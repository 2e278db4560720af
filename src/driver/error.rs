//! What stops a run before it starts because the input does not fit the
//! request: no entry function, no such kernel, an `--arg` the kernel's
//! parameter cannot take, a buffer past the memory limit. Each ends the
//! command with exit status 2; the message names the input or option.

/// An error of the driver.
#[derive(Debug, thiserror::Error)]
pub enum DriverError {
    /// The entry function (`--entry`, `main` by default) is not in the
    /// module.
    #[error("{input}: no function `{entry}` to start from")]
    NoEntry {
        /// The input's name.
        input: String,
        /// The function asked for.
        entry: String,
    },
    /// The entry function is only declared.
    #[error("{input}: `{entry}` is declared but not defined")]
    EntryNotDefined {
        /// The input's name.
        input: String,
        /// The function asked for.
        entry: String,
    },
    /// The file defines no kernel.
    #[error("{0}: no kernel in this file (a kernel is a function declared `__kernel void name(...)`); `symcross race` checks one kernel")]
    NoKernel(String),
    /// The file defines several kernels and none was named.
    #[error("{input}: name the kernel with --kernel (found: {})", kernels.join(", "))]
    KernelNotNamed {
        /// The input's name.
        input: String,
        /// The kernels it defines.
        kernels: Vec<String>,
    },
    /// `--kernel` names no kernel of the file.
    #[error("{input}: no kernel `{wanted}`; the kernels in it are: {}", kernels.join(", "))]
    UnknownKernel {
        /// The input's name.
        input: String,
        /// The kernel asked for.
        wanted: String,
        /// The kernels it defines.
        kernels: Vec<String>,
    },
    /// `--arg NAME=...` names no parameter of the kernel.
    #[error("--arg {name}: kernel `{kernel}` has no parameter `{name}`")]
    UnknownParameter {
        /// The name given.
        name: String,
        /// The kernel.
        kernel: String,
    },
    /// `--arg` gives a parameter something it cannot take; the text says
    /// what the parameter takes.
    #[error("--arg {given}: {expected}")]
    BadArgument {
        /// What was given (`NAME` or `NAME=VALUE`).
        given: String,
        /// What the parameter takes.
        expected: String,
    },
    /// A buffer given by `--arg` does not fit in the memory limit.
    #[error("the buffer `{name}` of {bytes} bytes does not fit in the memory limit ({limit_mb} MiB; see --max-memory)")]
    BufferTooLarge {
        /// The parameter.
        name: String,
        /// Its size.
        bytes: u64,
        /// The limit.
        limit_mb: u64,
    },
    /// Compiling or linking the inputs failed.
    #[error("{0}")]
    Frontend(#[from] crate::frontend::FrontendError),
    /// Reading the LLVM module failed.
    #[error("{0}")]
    Ir(#[from] crate::ir::IrError),
    /// A `--rules` file cannot be read or has a malformed rule.
    #[error("{0}")]
    Rule(#[from] crate::canon::RuleError),
}
