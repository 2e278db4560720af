//! The C environment a harness runs in: libc, printf, the floating-point
//! environment and the KLEE-compatible harness API.

pub(in crate::exec) mod fenv;
pub(in crate::exec) mod klee_api;
pub(in crate::exec) mod libc_env;
pub(in crate::exec) mod printf;
