//! symcross: symbolic crosschecking of hand-vectorised code against scalar
//! references, and race detection for OpenCL kernels.
//!
//! Pipeline (README, Layout): `frontend` (clang) -> `ir` (translation
//! from LLVM) -> `passes` (if-conversion, when enabled) -> `exec` (symbolic
//! execution over `expr`, lowering x86 and NEON intrinsics with `simd` and
//! `neon` as calls are reached, deciding checks with `check`, which uses
//! `solver` and `canon`) -> `report`. `driver` runs these stages for every
//! command; `cli` parses the command line.

#![warn(missing_docs)]

pub mod assumptions;
pub mod canon;
pub mod check;
pub mod cli;
pub mod config;
pub mod driver;
mod error;
pub mod exec;
pub mod expr;
pub mod frontend;
pub mod ir;
pub mod memory;
pub mod neon;
pub mod passes;
pub mod process;
pub mod race;
pub mod replay;
pub mod report;
pub mod rule_proof;
pub mod simd;
pub mod solver;
pub mod suite;

pub use error::Error;
