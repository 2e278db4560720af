//! The decision ladder a run decides its checks with, built from the
//! config alike for every command.

use crate::check::Decider;
use crate::config::Config;
use crate::Error;

/// Builds the decision ladder (solver stack and e-graph) for a config. A
/// malformed rule file is an error naming its file and line.
pub fn decider(config: &Config) -> Result<Decider, Error> {
    let backend = crate::solver_adapter::SolverBackend::new(config);
    let canon = crate::canon_adapter::EgraphCanonicalizer::new(config).map_err(|e| Error::Usage(e.to_string()))?;
    let canon: Option<Box<dyn crate::check::Canonicalizer>> = if config.egraph { Some(Box::new(canon)) } else { None };
    // Without step 2 (`--no-egraph`, to measure what it saves) every check
    // goes straight to the solver: no normal form, no sampling either.
    let trials = if config.egraph { config.sample_trials } else { 0 };
    Ok(Decider::new(Box::new(backend), canon).with_semantics(config.assumptions, trials, config.seed))
}
