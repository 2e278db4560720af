//! Why a solver gave no answer. The kind is what callers decide on (is it
//! a timeout, so the finding depends on the machine's speed? did the run's
//! deadline cut it short?); the detail is the text shown to the user.
//! Backends classify when they give up, from what they know (the clock,
//! the budget they set, the interrupt and memory flags), so no layer has to
//! search a message for a word.

use std::fmt;
use std::time::Duration;

/// The cause of an unknown answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnknownKind {
    /// The query's own time limit (`--query-timeout`) ran out.
    Timeout,
    /// The run's `--max-time` ran out before or during the query.
    Deadline,
    /// The query's deterministic work budget (`Query::resource_limit`) ran
    /// out: the same on every machine.
    ResourceLimit,
    /// The CPU time that stands for the deciding budget with a solver that
    /// counts no work units (Bitwuzla) ran out: hardly moved by the
    /// machine's load, but not the same on every machine (solver/budget.rs).
    CpuBudget,
    /// The run's memory ceiling (`--max-memory`) tripped during the query.
    MemoryLimit,
    /// SIGINT or SIGTERM arrived.
    Interrupted,
    /// The query holds something the backend cannot express.
    Unsupported,
    /// The solver found a model, but it cannot be trusted as a witness
    /// (it depends on an uninterpreted function, or failed the evaluation
    /// check).
    UnusableModel,
    /// The solver failed or gave up for its own reasons: it could not be
    /// started, its output made no sense, or it answered `unknown`.
    SolverError,
}

impl UnknownKind {
    /// True when the answer ran out of time, so another machine (or a less
    /// loaded one) might have answered.
    pub fn is_out_of_time(self) -> bool {
        matches!(self, UnknownKind::Timeout | UnknownKind::Deadline)
    }
}

/// An unknown answer: its kind and the text that explains it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unknown {
    /// Why the solver gave up.
    pub kind: UnknownKind,
    /// The solver's or layer's own words, for messages.
    pub detail: String,
}

impl Unknown {
    /// An unknown answer of this kind, explained by `detail`.
    pub fn new(kind: UnknownKind, detail: impl Into<String>) -> Unknown {
        Unknown { kind, detail: detail.into() }
    }

    /// The query's time limit `t` ran out.
    pub fn timeout(t: Duration) -> Unknown {
        Unknown::new(UnknownKind::Timeout, format!("timeout after {}ms", t.as_millis()))
    }

    /// A signal arrived.
    pub fn interrupted() -> Unknown {
        Unknown::new(UnknownKind::Interrupted, "interrupted by a signal")
    }

    /// The memory ceiling tripped.
    pub fn memory_limit() -> Unknown {
        Unknown::new(UnknownKind::MemoryLimit, crate::process::memory_ceiling::REASON)
    }
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail)
    }
}
