//! The internal IR and its translation from LLVM bitcode. This is the only
//! module that talks to LLVM (through inkwell and llvm-sys).

mod address_space;
mod constants;
mod context;
mod debug_loc;
pub mod debug_types;
mod element_of;
mod error;
mod function;
mod gep;
mod global_init;
mod inst_arith;
mod inst_memory;
mod inst_other;
mod insts;
mod llvm;
mod mangled_names;
mod operands;
mod translate;
mod types;
mod types_from_llvm;

pub use address_space::{from_nvptx, is_cuda_triple, CONSTANT_SPACE, GLOBAL_SPACE, LOCAL_SPACE, PRIVATE_SPACE};
pub use debug_loc::is_shipped_cuda_header;
pub use error::IrError;
pub use function::{is_no_effect_intrinsic, NO_EFFECT_INTRINSICS};
pub use inst_arith::outcomes_of_llvm_predicate;
pub use mangled_names::{demangle, local_static_name};
pub use translate::load_module;
pub use types::*;
