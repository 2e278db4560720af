//! symcross: symbolic crosschecking of hand-vectorised code against scalar
//! references, and race detection for OpenCL kernels.
//!
//! Pipeline (README, Layout): `frontend` (clang) -> `ir` (translation
//! from LLVM) -> `passes` (if-conversion, when enabled) -> `exec` (symbolic
//! execution over `expr` and the `memory` model, lowering x86 and NEON
//! intrinsics with `simd` and `neon` as calls are reached, observing a
//! kernel's accesses with `race`, deciding checks with `check`, which uses
//! `solver` and `canon`) -> `report`. `driver` runs these stages for every
//! command, building the decision ladder (driver/ladder/); `cli` parses the
//! command line and returns the one `Error`. `process` holds what belongs
//! to the whole process (interrupts, the memory ceiling, temporary
//! directories); `rule_proof` proves rewrite rules; `replay` and `suite`
//! are commands of their own.
//!
//! Imports only point down the layers (tests/layers.rs lists them, bottom
//! first): process, assumptions and splitmix; expr; ir and config; memory, simd,
//! passes, canon, solver, frontend, report; neon, race, check, rule_proof,
//! replay, suite; exec; driver; cli and error.

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
pub mod ranges;
pub mod replay;
pub mod report;
pub mod rule_proof;
pub mod simd;
pub mod solver;
pub mod splitmix;
pub mod suite;

pub use error::Error;
