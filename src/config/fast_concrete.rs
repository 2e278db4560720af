//! Whether the engine's fast tier for concrete code runs
//! (exec/engine/fast_concrete/). It is on unless `--no-fast-concrete`
//! turns it off for the whole process: a flag of every command, since a
//! suite or a host program's nested kernel runs build configurations of
//! their own.

use std::sync::atomic::{AtomicBool, Ordering};

static ENABLED: AtomicBool = AtomicBool::new(true);

/// Turns the tier on or off for the runs that start from now on.
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// Whether runs starting now use the tier.
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}
