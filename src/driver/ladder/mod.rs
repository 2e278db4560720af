//! The decision ladder a run decides its checks with, built from the
//! config alike for every command: `check/` decides each check step by
//! step and declares what it needs of the steps; the adapters here answer
//! with the e-graph (`canon_adapter`, step 2) and the solver stack
//! (`solver_adapter`, the implied query and the bit-precise step), and
//! `query_ticker` shows a long solver query on the terminal.

mod canon_adapter;
mod query_ticker;
mod solver_adapter;

use crate::check::Decider;
use crate::config::Config;
use crate::driver::DriverError;
use crate::process::memory_ceiling::MemoryCeiling;

/// Builds the decision ladder (solver stack and e-graph) for a config. A
/// malformed rule file is an error naming its file and line.
pub fn decider(config: &Config) -> Result<Decider, DriverError> {
    let ceiling = MemoryCeiling::at(config.max_memory_mb.unwrap_or_else(crate::config::physical_memory_mb));
    let backend = solver_adapter::SolverBackend::new(config, ceiling.clone());
    let canon = canon_adapter::EgraphCanonicalizer::new(config).map_err(DriverError::Rule)?;
    let canon: Option<Box<dyn crate::check::Canonicalizer>> = if config.egraph { Some(Box::new(canon)) } else { None };
    // Without step 2 (`--no-egraph`, to measure what it saves) every check
    // goes straight to the solver: no normal form, no sampling either.
    let trials = if config.egraph { config.sample_trials } else { 0 };
    let mut decider = Decider::new(Box::new(backend), canon).with_semantics(config.assumptions, trials, config.seed);
    decider.memory_ceiling = ceiling;
    Ok(decider)
}
