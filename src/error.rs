//! The top-level error: everything that makes a command exit with status 2
//! (bad usage or input). Each layer has its own typed error; this one adds
//! the context of which command and file.

use std::path::PathBuf;

/// An error that ends a command with exit status 2.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Compiling or linking the inputs failed.
    #[error("{0}")]
    Frontend(#[from] crate::frontend::FrontendError),
    /// Reading the LLVM module failed.
    #[error("{0}")]
    Ir(#[from] crate::ir::IrError),
    /// Bad command-line usage or configuration; the message says what.
    #[error("{0}")]
    Usage(String),
    /// An output file could not be written.
    #[error("cannot write {0}: {1}")]
    Io(PathBuf, std::io::Error),
}
