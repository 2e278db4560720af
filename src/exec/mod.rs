//! The symbolic executor, one folder per concern. Drivers reach it
//! through the items this file re-exports; its folders are private.
//!
//! - `engine/`: the run context and run log, the run loop, states,
//!   forking, limits, searchers, merging, sharding, call dispatch and the
//!   reporting of findings;
//! - `memory/`: the memory instructions (loads, stores, GEPs, atomics,
//!   symbolic sizes and pointers) and the shadow of uninitialised bytes,
//!   over the memory model of src/memory/;
//! - `ops/`: the semantics of each instruction family, `llvm.*`/libm
//!   intrinsics, x86 and NEON vector built-ins;
//! - `checks/`: `symcross_check_equal` and `memcmp`, decided with `check/`;
//! - `env/`: the C environment a harness sees (libc, printf, fenv, the
//!   KLEE-compatible API);
//! - `opencl/`: the OpenCL host API, kernel launch, work-items, device
//!   built-ins, and the executor's side of race detection (the analysis
//!   itself is src/race/);
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
pub use opencl::buffer_inputs::{BufferContents, ElementRange, HostAccess};
pub use opencl::cuda_grid_sync::GRID_SYNC;
pub use opencl::images::PIXEL_BYTES;
pub use opencl::ndrange_setup::{NdRangeSetup, StandaloneArg};
pub use ops::intrinsics::intrinsic_base;
