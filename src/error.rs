//! The top-level error: everything that makes a command exit with status 2
//! (bad usage or input). Each layer has its own typed error; this one adds
//! the context of which command and file.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Frontend(#[from] crate::frontend::FrontendError),
    #[error("{0}")]
    Ir(#[from] crate::ir::IrError),
    #[error("{0}")]
    Usage(String),
    #[error("cannot write {0}: {1}")]
    Io(PathBuf, std::io::Error),
}
