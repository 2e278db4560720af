//! Errors of the front end. Compiler diagnostics are carried verbatim so
//! the CLI can print exactly what clang said (and exit with status 2).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    #[error("input file {0} does not exist")]
    MissingInput(PathBuf),
    /// The input exists but is not a readable regular file: a directory, a
    /// FIFO, a device such as /dev/null, a symbolic-link loop, no permission.
    #[error("input file {0}: {1}")]
    UnreadableInput(PathBuf, String),
    #[error("{0}: unknown input kind (expected .c, .cc, .cpp, .cxx, .cl, .bc or .ll)")]
    UnknownInputKind(PathBuf),
    #[error("no input files")]
    NoInputs,
    #[error("cannot run {tool}: {source}")]
    Spawn { tool: PathBuf, source: std::io::Error },
    #[error("cannot create a temporary directory: {0}")]
    TempDir(std::io::Error),
    /// clang rejected a source file; `stderr` is clang's output, unchanged.
    #[error("compilation of {file} failed:\n{stderr}")]
    Compile { file: PathBuf, stderr: String },
    #[error("linking failed (llvm-link):\n{stderr}")]
    Link { stderr: String },
    /// Two inputs define the same function or global: they are linked
    /// into one program, so one of them must go.
    #[error("`{symbol}` is defined in both {} and {}: symcross links all its inputs into one program, so drop one of them from the command line (or rename `{symbol}` in one)", first.display(), second.display())]
    DuplicateSymbol { symbol: String, first: PathBuf, second: PathBuf },
    #[error("optimisation failed (opt -passes=mem2reg):\n{stderr}")]
    Opt { stderr: String },
}
