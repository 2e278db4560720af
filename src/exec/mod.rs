//! The symbolic executor, one folder per concern:
//!
//! - `engine/`: the run loop, states, forking, searchers, merging, sharding
//!   and call dispatch;
//! - `memory/`: objects and their bytes, loads and stores, the shadow of
//!   uninitialised and freed bytes;
//! - `ops/`: the semantics of each instruction family, `llvm.*`/libm
//!   intrinsics, x86 and NEON vector built-ins;
//! - `checks/`: `symcross_check_equal` and `memcmp`, decided with `check/`;
//! - `env/`: the C environment a harness sees (libc, printf, fenv, the
//!   KLEE-compatible API);
//! - `opencl/`: the OpenCL host API, kernel launch, work-items, device
//!   built-ins and race detection;
//! - `models.rs`: the composition root. The engine names neither `env/`
//!   nor `opencl/`; it declares the seams it needs (engine/device.rs,
//!   engine/model_hooks.rs) and this file answers them.

mod checks;
mod engine;
mod env;
mod memory;
mod models;
mod opencl;
mod ops;

pub use checks::nan_bits_read::nan_bits_read;
pub use engine::executor::Executor;
pub use engine::outcome::RunOutcome;
pub use engine::step::leaf_widths;
pub use opencl::images::PIXEL_BYTES;
pub use opencl::ndrange_setup::{NdRangeSetup, StandaloneArg};
pub use ops::intrinsics::intrinsic_base;
