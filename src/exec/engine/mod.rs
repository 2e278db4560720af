//! The engine: the run loop, execution states, forking, the searchers,
//! path merging and sharding, and call dispatch. It names no model: what
//! it needs of the C environment and OpenCL goes through the seams it
//! declares (`device::DeviceState`, `model_hooks::ModelHooks`), which the
//! composition root (exec/models.rs) fills.

pub(in crate::exec) mod arity;
pub(in crate::exec) mod byval_args;
pub(in crate::exec) mod calls;
pub(in crate::exec) mod control;
pub(in crate::exec) mod coverage;
pub mod device;
pub mod executor;
pub(in crate::exec) mod implied;
pub(in crate::exec) mod merge;
pub(in crate::exec) mod model_hooks;
pub mod outcome;
pub(in crate::exec) mod path_budget;
pub(in crate::exec) mod postdom;
pub(in crate::exec) mod searcher;
pub mod shard;
pub mod state;
pub mod step;
pub mod value;
