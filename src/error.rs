//! The top-level error: everything that makes a command exit with status 2
//! (bad usage or input). Each layer has its own typed error (the driver's,
//! rule proofs', replay's, rules', manifests'), kept as it is up to the
//! command layer (src/cli/), which alone returns this one; `Usage` is for
//! what the command line itself gets wrong.

use std::path::PathBuf;

/// An error that ends a command with exit status 2.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The input does not fit the request (no such entry or kernel, a
    /// bad `--arg`, a malformed rule file).
    #[error("{0}")]
    Driver(#[from] crate::driver::DriverError),
    /// A `--rules` file's rule may not be used: its proof failed.
    #[error("{0}")]
    RuleProof(#[from] crate::rule_proof::RuleProofError),
    /// `symcross replay` could not build or run what the report checked.
    #[error("{0}")]
    Replay(#[from] crate::replay::ReplayError),
    /// A rule file of `symcross rules` cannot be read or has a malformed rule.
    #[error("{0}")]
    Rule(#[from] crate::canon::RuleError),
    /// A suite manifest cannot be read or has a bad entry.
    #[error("{0}")]
    Manifest(#[from] crate::suite::manifest::ManifestError),
    /// A report given to `symcross merge` cannot be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file given to `symcross merge` is not the report it should be.
    #[error("{file}: not a `{expected}` report: {why}")]
    NotAReport {
        /// The file.
        file: String,
        /// The command that writes such reports (`symcross check --json`).
        expected: &'static str,
        /// What the JSON reader said.
        why: String,
    },
    /// The reports given to `symcross merge` are not shards of one run.
    #[error("{0}")]
    Merge(String),
    /// Bad command-line usage or configuration; the message says what.
    #[error("{0}")]
    Usage(String),
    /// An output file could not be written.
    #[error("cannot write {0}: {1}")]
    Io(PathBuf, std::io::Error),
}
