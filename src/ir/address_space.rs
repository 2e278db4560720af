//! OpenCL's address spaces as LLVM numbers them (`addrspace(N)` on
//! pointers and globals): what a kernel's memory is, for the memory model
//! (read-only `__constant` objects), the launch (which buffers a work-group
//! shares) and the race analysis (which fences order which accesses).

/// `__private` memory: the work-item's own (and all memory of C code).
pub const PRIVATE_SPACE: u32 = 0;
/// `__global` memory, shared by every work-item of a launch.
pub const GLOBAL_SPACE: u32 = 1;
/// `__constant` memory (read-only).
pub const CONSTANT_SPACE: u32 = 2;
/// `__local` memory, shared by the work-items of one work-group.
pub const LOCAL_SPACE: u32 = 3;
