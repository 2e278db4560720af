//! `symcross suite` and `symcross merge`: many checks and kernels from a
//! manifest (`symcross.toml`), each with its expected outcome, run in
//! parallel, cached, sharded over a job scheduler, and reported as JSON,
//! SARIF and JUnit.

pub mod cache;
pub mod manifest;
pub mod merge;
pub mod outcome;
pub mod run;
pub mod shard;
