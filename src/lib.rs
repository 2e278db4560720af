//! symcross: symbolic crosschecking of hand-vectorised code against scalar
//! references, and race detection for OpenCL kernels.
//!
//! Pipeline: `frontend` (clang) -> `ir` (translation from LLVM) -> `exec`
//! (symbolic execution over `expr`, deciding checks with `solver` and
//! `canon`) -> `report`.

pub mod canon;
pub mod expr;
pub mod ir;
