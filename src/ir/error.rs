//! Errors of the LLVM front half: reading and parsing a module. Problems
//! inside a module that parsed (an instruction or type symcross does not
//! model) are not errors here: they become `Unsupported` IR nodes so that
//! the executor reports them only on paths that actually reach them.

use std::path::PathBuf;

/// Why a module could not be read.
#[derive(Debug, thiserror::Error)]
pub enum IrError {
    /// The file could not be opened or read.
    #[error("cannot read {path}: {message}")]
    Read {
        /// The module file.
        path: PathBuf,
        /// The I/O error.
        message: String,
    },
    /// LLVM could not parse the bytes as bitcode or textual IR.
    #[error("{path} is not valid LLVM IR or bitcode: {message}")]
    Parse {
        /// The module file.
        path: PathBuf,
        /// LLVM's parser message.
        message: String,
    },
    /// The module parsed but LLVM's verifier rejects it.
    #[error("{path}: malformed LLVM module: {message}")]
    Invalid {
        /// The module file.
        path: PathBuf,
        /// LLVM's verifier message.
        message: String,
    },
    /// The module's data layout is not one the executor models.
    #[error("{path}: data layout `{layout}` (target `{triple}`) is not supported: {why}; symcross models little-endian targets with 64-bit pointers (x86-64, AArch64, spir64)")]
    UnsupportedLayout {
        /// The module file.
        path: PathBuf,
        /// The module's data layout string.
        layout: String,
        /// The module's target triple.
        triple: String,
        /// What in the layout is not modelled.
        why: String,
    },
}
