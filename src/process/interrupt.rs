//! SIGINT and SIGTERM. The first signal asks the run to stop: the executor
//! ends exploration at the next instruction and reports (the limit is
//! `interrupted`), solver processes are killed, Z3 is interrupted, and the
//! temporary directories are removed as the run unwinds normally. A second
//! signal exits at once (status 3), killing the solver processes first;
//! the temporary directory it leaves is removed by the next run
//! (`tempdirs::clean_stale`).
//!
//! A signal handler can only touch process-wide atomics, so this is the one
//! place with global state; everything else asks `requested()`.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Solver processes running now (pids, 0 when free); the handler kills them
/// on the second signal, before exiting.
const CHILD_SLOTS: usize = 32;
static CHILDREN: [AtomicI32; CHILD_SLOTS] = [const { AtomicI32::new(0) }; CHILD_SLOTS];

/// Exit status after a second signal: inconclusive, as after the first.
pub const EXIT_INTERRUPTED: i32 = 3;

extern "C" fn on_signal(sig: libc::c_int) {
    if REQUESTED.swap(true, Ordering::SeqCst) {
        for slot in &CHILDREN {
            let pid = slot.load(Ordering::SeqCst);
            if pid > 0 {
                // SAFETY: kill and _exit are async-signal-safe.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        unsafe { libc::_exit(EXIT_INTERRUPTED) };
    }
    SIGNAL.store(sig, Ordering::SeqCst);
}

/// Installs the handler for SIGINT and SIGTERM (commands that run the
/// executor call this; the others keep the default behaviour).
pub fn install() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: a plain sigaction with a handler that only touches atomics
        // and calls async-signal-safe functions.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }
}

/// Whether a signal asked the run to stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// The name of the signal that asked the run to stop, if one did.
pub fn signal_name() -> Option<&'static str> {
    match SIGNAL.load(Ordering::SeqCst) {
        libc::SIGINT => Some("SIGINT"),
        libc::SIGTERM => Some("SIGTERM"),
        _ => None,
    }
}

/// A child process registered for killing on a second signal; dropping the
/// guard (after the child was waited for) unregisters it.
pub struct ChildGuard(Option<usize>);

/// Registers `pid` (when all slots are taken the child is still killed on
/// the first signal by its waiter, just not on the second).
pub fn register_child(pid: u32) -> ChildGuard {
    let pid = pid as i32;
    for (i, slot) in CHILDREN.iter().enumerate() {
        if slot.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
            return ChildGuard(Some(i));
        }
    }
    ChildGuard(None)
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        if let Some(i) = self.0 {
            CHILDREN[i].store(0, Ordering::SeqCst);
        }
    }
}
