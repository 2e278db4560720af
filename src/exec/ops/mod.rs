//! Instruction semantics, one file per family, and the vector built-ins
//! of x86 and NEON.

pub(in crate::exec) mod cast_ops;
pub(in crate::exec) mod cast_promises;
pub(in crate::exec) mod contraction;
pub(in crate::exec) mod fp_ops;
pub(in crate::exec) mod gep_promises;
pub(in crate::exec) mod int_ops;
pub mod intrinsics;
pub(in crate::exec) mod masked_access;
pub(in crate::exec) mod neon;
pub(in crate::exec) mod operand_ranges;
pub(in crate::exec) mod undefined;
pub(in crate::exec) mod vector_ops;
pub(in crate::exec) mod x86;
