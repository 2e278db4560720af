//! `--max-memory` while a solver runs. The executor checks the resident
//! set between steps (exec/engine/executor.rs), but one solver query can
//! grow for minutes inside Z3 (in this process) or the SMT-LIB solver for
//! floating point (cvc5 or z3, a child process): the solvers'
//! watchers ask `exceeded` while they wait, stop the query when it says
//! so, and `trip` the ceiling; the executor then ends the run with the
//! memory limit instead of reading the cut-short query as an answer.
//!
//! Process-wide, as the resident set it measures is: one run per process.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The ceiling in MiB; 0 while none is set.
static LIMIT_MB: AtomicU64 = AtomicU64::new(0);
static TRIPPED: AtomicBool = AtomicBool::new(false);

/// Sets the ceiling for the run about to start and clears an earlier trip.
pub fn set_limit(mb: u64) {
    LIMIT_MB.store(mb, Ordering::SeqCst);
    TRIPPED.store(false, Ordering::SeqCst);
}

/// Whether this process and `child` (a solver process) together hold
/// more than the ceiling.
pub fn exceeded(child: Option<u32>) -> bool {
    let limit = LIMIT_MB.load(Ordering::SeqCst);
    if limit == 0 {
        return false;
    }
    let child_mb = child.map(|pid| resident_mb_of(&format!("/proc/{pid}/statm"))).unwrap_or(0);
    resident_mb().saturating_add(child_mb) > limit
}

/// Records that a solver query was stopped at the ceiling.
pub fn trip() {
    TRIPPED.store(true, Ordering::SeqCst);
}

/// Whether a solver query was stopped at the ceiling during this run.
pub fn tripped() -> bool {
    TRIPPED.load(Ordering::SeqCst)
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
        set_limit(0);
        assert!(!exceeded(None));
        set_limit(1);
        assert!(exceeded(None), "this process holds more than 1 MiB");
        assert!(!tripped());
        trip();
        assert!(tripped());
        set_limit(0);
        assert!(!tripped(), "a new run starts untripped");
    }
}
