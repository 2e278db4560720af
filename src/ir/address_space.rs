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

/// Whether a module's target triple is CUDA's (clang's nvptx64 device
/// code): its address spaces are numbered NVPTX's way.
pub fn is_cuda_triple(triple: &str) -> bool {
    triple.starts_with("nvptx")
}

/// An NVPTX address space in OpenCL numbering, so that CUDA device code
/// runs on the OpenCL work-item model: global (1) and shared (3, OpenCL's
/// `__local`) keep their numbers, constant (4) is OpenCL's 2, and a
/// thread's local memory (5) is private. Generic pointers (0) stay 0:
/// what they point to is the object's, and every object carries its own
/// space.
pub fn from_nvptx(space: u32) -> u32 {
    match space {
        4 => CONSTANT_SPACE,
        5 => PRIVATE_SPACE,
        other => other,
    }
}
