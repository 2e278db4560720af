//! What stops a replay before it can say whether a finding reproduces:
//! the report cannot be read or does not allow a native run, or the
//! native build or run cannot be made. Each ends `symcross replay` with
//! exit status 2; a finding that does not reproduce is not an error but
//! an outcome (outcome.rs).

use std::path::PathBuf;

/// An error of `symcross replay`.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The report names no inputs and none were given.
    #[error(
        "the report does not record its inputs (it was written by an older symcross, or not by `check`): give the harness before the report"
    )]
    InputsNotRecorded,
    /// An input to rebuild is not a file.
    #[error("cannot find the harness {} to rebuild", .0.display())]
    HarnessMissing(PathBuf),
    /// An OpenCL kernel alone has no host program to build.
    #[error("{}: an OpenCL kernel alone cannot be replayed natively (replay builds host programs)", .0.display())]
    KernelAlone(PathBuf),
    /// The run started in another function than `main` (`--entry`).
    #[error("the report's run started in `{0}` (--entry); a native replay can only start in main")]
    NotFromMain(String),
    /// The run directory could not be made.
    #[error("cannot create a temporary directory: {0}")]
    TempDir(std::io::Error),
    /// The runtime model directory is missing.
    #[error("cannot find the runtime model directory (set SYMCROSS_RUNTIME)")]
    NoRuntime,
    /// A program (clang, the replay binary) could not be started.
    #[error("cannot run {what}: {source}")]
    CannotRun {
        /// The program.
        what: &'static str,
        /// Why.
        source: std::io::Error,
    },
    /// The replay binary's batch ended before it recorded how a run ended
    /// (it was stopped, or could not fork).
    #[error("the replay binary ended before run {index} finished{detail}")]
    BatchEnded {
        /// The run (finding number).
        index: usize,
        /// What the batch process printed, if anything (`: ...`).
        detail: String,
    },
    /// Waiting for the replay binary failed.
    #[error("waiting for the replay binary: {0}")]
    Wait(std::io::Error),
    /// The native build failed; clang's messages follow.
    #[error("building {plan} natively failed:\n{stderr}")]
    BuildFailed {
        /// What was built (inputs and flags).
        plan: String,
        /// What clang printed.
        stderr: String,
    },
    /// A file of the run could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The report could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The report.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a report of `symcross check --json`.
    #[error("{}: not a symcross JSON report{why}", path.display())]
    NotAReport {
        /// The file.
        path: PathBuf,
        /// Why not, as a clause (`: expected value at line 1`).
        why: String,
    },
    /// The recorded `--target` is not one symcross models.
    #[error("{0}")]
    Target(String),
    /// A finding's witness cannot be handed to a native run.
    #[error("{}: finding {index}: {problem}", path.display())]
    BadWitness {
        /// The report.
        path: PathBuf,
        /// The finding, counted from 0.
        index: usize,
        /// What is wrong with its witness.
        problem: String,
    },
    /// `--finding N` past the report's findings.
    #[error("there is no finding {wanted}: the report has {count}")]
    NoSuchFinding {
        /// The finding asked for.
        wanted: usize,
        /// How many the report has.
        count: usize,
    },
    /// No finding of the report can be replayed natively.
    #[error("{name}: no confirmed finding that a native run can replay{}", if *.skipped { " (see above)" } else { "" })]
    NothingToReplay {
        /// The report's name.
        name: String,
        /// Some findings were skipped, with the reason printed above.
        skipped: bool,
    },
}
