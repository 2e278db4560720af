//! `--max-memory` while a solver runs. The executor checks the resident
//! set between steps (exec/engine/limits.rs), but one solver query can
//! grow for minutes inside Z3 (in this process) or the SMT-LIB solver for
//! floating point (cvc5 or z3, a child process): the solvers' watchers ask
//! `exceeded` while they wait, stop the query when it says so, and `trip`
//! the ceiling; the run then ends with the memory limit instead of reading
//! the cut-short query as an answer.
//!
//! A `MemoryCeiling` is a value: the run's solver stack is built with one
//! (driver/ladder/), every solver of the stack shares it, and the executor
//! reads a trip from the decision ladder (`Decider::memory_ceiling`). Two runs in one process
//! (a test, a nested kernel run with its own limits) do not reset each
//! other's ceiling.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The memory ceiling of a run: a limit in MiB (none: never exceeded) and
/// whether a solver query was stopped at it. Clones share the trip.
#[derive(Clone, Debug, Default)]
pub struct MemoryCeiling(Arc<Ceiling>);

#[derive(Debug, Default)]
struct Ceiling {
    /// The limit in MiB; 0 for none.
    limit_mb: u64,
    tripped: AtomicBool,
}

impl MemoryCeiling {
    /// A ceiling at `limit_mb` MiB of resident memory, this process and
    /// its solver child together.
    pub fn at(limit_mb: u64) -> Self {
        MemoryCeiling(Arc::new(Ceiling { limit_mb, tripped: AtomicBool::new(false) }))
    }

    /// No ceiling: never exceeded (the default of a solver built alone).
    pub fn none() -> Self {
        Self::default()
    }

    /// Whether this process and `child` (a solver process) together hold
    /// more than the ceiling.
    pub fn exceeded(&self, child: Option<u32>) -> bool {
        let limit = self.0.limit_mb;
        if limit == 0 {
            return false;
        }
        let child_mb = child.map(|pid| resident_mb_of(&format!("/proc/{pid}/statm"))).unwrap_or(0);
        resident_mb().saturating_add(child_mb) > limit
    }

    /// Records that a solver query was stopped at the ceiling.
    pub fn trip(&self) {
        self.0.tripped.store(true, Ordering::SeqCst);
    }

    /// Whether a solver query was stopped at the ceiling.
    pub fn tripped(&self) -> bool {
        self.0.tripped.load(Ordering::SeqCst)
    }
}

/// The reason a query stopped at the ceiling gives.
pub const REASON: &str = "memory limit (--max-memory) reached during a solver query";

/// Resident set of this process, in MiB (0 where /proc is not readable).
pub fn resident_mb() -> u64 {
    resident_mb_of("/proc/self/statm")
}

fn resident_mb_of(statm: &str) -> u64 {
    std::fs::read_to_string(statm)
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|p| p.parse::<u64>().ok()))
        .map(|pages| pages * page_size() / (1024 * 1024))
        .unwrap_or(0)
}

fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if n > 0 {
        n as u64
    } else {
        4096
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_ceiling_is_never_exceeded_and_a_tiny_one_is() {
        assert!(!MemoryCeiling::none().exceeded(None));
        let tiny = MemoryCeiling::at(1);
        assert!(tiny.exceeded(None), "this process holds more than 1 MiB");
        assert!(!tiny.tripped());
        let shared = tiny.clone();
        shared.trip();
        assert!(tiny.tripped(), "clones share the trip");
        assert!(!MemoryCeiling::at(1).tripped(), "another run's ceiling starts untripped");
    }
}
