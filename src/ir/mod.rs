//! The internal IR and its translation from LLVM bitcode. This is the only
//! module that talks to LLVM (through inkwell and llvm-sys).

mod types;
pub use types::*;
