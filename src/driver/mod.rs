//! The driver: the one way a command gets from inputs to a report, for
//! `check` and `run`, `race` and `bench` alike. The command (src/cli/)
//! builds the `Config` from its arguments; the driver loads and prepares
//! the module (`load`, `Loaded::prepare`), builds the executor and its
//! decision ladder, runs it and turns the `RunOutcome` into a `Report`
//! (`check_module` from an entry function, `run_kernel` for an OpenCL
//! kernel alone). The executor is reached only through its methods.

mod buffer_spec;
mod check;
mod error;
mod group_recheck;
mod kernel;
mod kernel_args;
mod ladder;
mod load;

pub use check::check_module;
pub use error::DriverError;
pub use group_recheck::recheck_havoc_doubts;
pub use kernel::{run_kernel, KernelReport, KernelRun};
pub use ladder::decider;
pub use load::{load, Loaded};
