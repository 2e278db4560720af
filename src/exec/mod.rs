//! The symbolic executor: states, memory, forking, and the semantics of
//! each instruction family.

mod calls;
mod cast_ops;
mod checks;
mod control;
mod executor;
mod fp_ops;
mod int_ops;
mod intrinsics;
mod layout;
mod mem_ops;
pub mod memory;
mod printf;
mod searcher;
pub mod state;
mod step;
pub mod value;
mod vector_ops;
mod x86;

pub use checks::CheckStats;
pub use executor::{Executor, LimitHit, Stats, Step};
pub use intrinsics::intrinsic_base;
