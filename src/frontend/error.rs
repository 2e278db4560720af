//! Errors of the front end. Compiler diagnostics are carried verbatim so
//! the CLI can print exactly what clang said (and exit with status 2).

use std::path::PathBuf;

/// Why the inputs could not be turned into one LLVM module.
#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    /// An input path that does not exist.
    #[error("input file {0} does not exist")]
    MissingInput(PathBuf),
    /// The input exists but is not a readable regular file: a directory, a
    /// FIFO, a device such as /dev/null, a symbolic-link loop, no permission.
    #[error("input file {0}: {1}")]
    UnreadableInput(PathBuf, String),
    /// An input whose extension names no language symcross reads.
    #[error("{0}: unknown input kind (expected .c, .cc, .cpp, .cxx, .cl, .cu, .bc or .ll)")]
    UnknownInputKind(PathBuf),
    /// The command line named no input.
    #[error("no input files")]
    NoInputs,
    #[error("cannot run {tool}: {source}")]
    /// An external tool (clang, llvm-link, opt) could not be started.
    Spawn {
        /// The tool's path.
        tool: PathBuf,
        /// Why it could not be started.
        source: std::io::Error,
    },
    /// The scratch directory for intermediate files could not be made.
    #[error("cannot create a temporary directory: {0}")]
    TempDir(std::io::Error),
    /// clang rejected a source file; `stderr` is clang's output, unchanged,
    /// and `hint` the flags a missing target feature needs (or nothing).
    #[error("compilation of {file} failed:\n{stderr}{hint}")]
    Compile {
        /// The source file.
        file: PathBuf,
        /// clang's diagnostics.
        stderr: String,
        /// `hint: ...` naming the `--cflags` of the target features clang
        /// said are required, or empty.
        hint: String,
    },
    /// llvm-link failed to join the compiled inputs.
    #[error("linking failed (llvm-link):\n{stderr}")]
    Link {
        /// llvm-link's output.
        stderr: String,
    },
    /// Two inputs define the same function or global: they are linked
    /// into one program, so one of them must go.
    #[error("`{symbol}` is defined in both {} and {}: symcross links all its inputs into one program, so drop one of them from the command line (or rename `{symbol}` in one)", first.display(), second.display())]
    DuplicateSymbol {
        /// The symbol defined twice.
        symbol: String,
        /// One input defining it.
        first: PathBuf,
        /// The other input defining it.
        second: PathBuf,
    },
    /// `opt` failed on the linked module.
    #[error("optimisation failed (opt -passes=mem2reg):\n{stderr}")]
    Opt {
        /// opt's output.
        stderr: String,
    },
}
