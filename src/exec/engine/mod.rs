//! The engine: the run loop, execution states, forking, the searchers,
//! path merging and sharding, and call dispatch.

pub mod executor;
pub mod state;
pub mod step;
pub(in crate::exec) mod control;
pub(in crate::exec) mod searcher;
pub(in crate::exec) mod merge;
pub(in crate::exec) mod postdom;
pub(in crate::exec) mod path_budget;
pub mod shard;
pub(in crate::exec) mod coverage;
pub(in crate::exec) mod implied;
pub mod value;
pub(in crate::exec) mod calls;
