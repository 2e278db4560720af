//! Why a user rule may not be used (`check --rules DIR` without
//! `--trust-rules`): its file does not load, or its proof fails or is
//! undecided. The run is refused with exit status 2, naming the rule's
//! file and line.

use std::path::PathBuf;

/// An error of the proofs of user rules.
#[derive(Debug, thiserror::Error)]
pub enum RuleProofError {
    /// A rule file cannot be read or has a malformed rule.
    #[error("{0}")]
    Rule(#[from] crate::canon::RuleError),
    /// The rule needs `associativity`, a permission no solver proves.
    #[error(
        "{}:{line}: rule `{name}` needs `associativity`, which is a permission the solver cannot prove; pass --trust-rules to use it without proof",
        file.display()
    )]
    NeedsAssociativity {
        /// The rule file.
        file: PathBuf,
        /// The rule's line.
        line: usize,
        /// The rule's name.
        name: String,
    },
    /// The solver found inputs where the rule changes the value.
    #[error(
        "{}:{line}: rule `{name}` is unsound under [assume: {assumptions}] with --nan {nan}: it changes the value for {counterexample}; correct it or declare the assumptions it needs",
        file.display()
    )]
    Unsound {
        /// The rule file.
        file: PathBuf,
        /// The rule's line.
        line: usize,
        /// The rule's name.
        name: String,
        /// The assumptions it declares.
        assumptions: String,
        /// The `--nan` of the run.
        nan: &'static str,
        /// The inputs where it fails.
        counterexample: String,
    },
    /// The proof was not decided.
    #[error("{}:{line}: rule `{name}` could not be proved sound ({why}); pass --trust-rules to use it without proof", file.display())]
    Undecided {
        /// The rule file.
        file: PathBuf,
        /// The rule's line.
        line: usize,
        /// The rule's name.
        name: String,
        /// Why not.
        why: String,
    },
}
