//! OpenCL: the host API, kernel launch, work-items and their scheduling,
//! device built-ins, `__local`/`__global` memory and race detection.

pub mod builtins;
pub(in crate::exec) mod byval;
pub(in crate::exec) mod havoc;
pub(in crate::exec) mod host;
pub(in crate::exec) mod kernel_memory;
pub(in crate::exec) mod lane_writes;
pub(in crate::exec) mod launch;
pub(in crate::exec) mod loop_summary;
pub mod ndrange_setup;
pub(in crate::exec) mod races;
pub(in crate::exec) mod source_map;
pub mod workitems;
