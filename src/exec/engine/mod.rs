//! The engine: the run loop, execution states, forking, the searchers,
//! path merging and sharding, and call dispatch.

pub(in crate::exec) mod arity;
pub(in crate::exec) mod calls;
pub(in crate::exec) mod control;
pub(in crate::exec) mod coverage;
pub mod executor;
pub(in crate::exec) mod implied;
pub(in crate::exec) mod merge;
pub mod outcome;
pub(in crate::exec) mod path_budget;
pub(in crate::exec) mod postdom;
pub(in crate::exec) mod searcher;
pub mod shard;
pub mod state;
pub mod step;
pub mod value;
