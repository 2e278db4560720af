//! The symbolic executor: states, memory, forking, and the semantics of
//! each instruction family.

mod byval;
mod calls;
mod cl_host;
mod cl_launch;
mod cl_source_map;
mod cast_ops;
mod checks;
mod compare;
mod control;
mod coverage;
mod executor;
mod fp_ops;
mod int_ops;
mod intrinsics;
mod klee_api;
mod lane_writes;
mod kernel_memory;
mod layout;
mod libc_env;
pub mod mem_ops;
mod offset_residue;
mod opencl;
mod pointer_select;
pub mod memory;
mod merge;
mod nan_bits_read;
mod nan_equality;
pub use nan_bits_read::nan_bits_read;
mod postdom;
mod printf;
mod races;
mod searcher;
mod shadow;
mod shadow_mem;
pub mod state;
mod step;
mod symbolic_size;
pub mod value;
mod vector_ops;
pub mod workitems;
mod x86;

pub use checks::CheckStats;
pub use executor::{Executor, LimitHit, Stats, Step};
pub use intrinsics::intrinsic_base;
pub use step::leaf_widths;
