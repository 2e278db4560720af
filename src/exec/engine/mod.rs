//! The engine: the executor (`executor.rs`) with its shared context
//! (`run_context.rs`: module, pool, configuration, decision ladder) and its
//! run log (`run_log.rs`: findings, counters, limits, notes); the run loop,
//! execution states, the initial state, forking, limits, the searchers,
//! path merging and sharding, call dispatch and the reporting of findings.
//! It names no model: what it and the memory instructions need of the C
//! environment, OpenCL and the race analysis goes through the seams it
//! declares (`device::DeviceState`, `model_hooks::ModelHooks`), which the
//! composition root (exec/models.rs) fills; tests/layers.rs guards it.

pub(in crate::exec) mod arity;
pub(in crate::exec) mod branching;
pub(in crate::exec) mod byval_args;
pub(in crate::exec) mod calls;
pub(in crate::exec) mod control;
pub(in crate::exec) mod coverage;
pub mod device;
pub mod executor;
pub(in crate::exec) mod fast_concrete;
pub(in crate::exec) mod findings;
pub(in crate::exec) mod implied;
pub(in crate::exec) mod initial_state;
pub(in crate::exec) mod limits;
pub(in crate::exec) mod merge;
pub(in crate::exec) mod model_hooks;
pub mod outcome;
pub(in crate::exec) mod path_budget;
pub(in crate::exec) mod postdom;
pub mod run_context;
pub mod run_log;
pub(in crate::exec) mod searcher;
pub mod shard;
pub mod state;
pub mod step;
