//! The element type of a stack slot or global, from its LLVM type with
//! arrays and vectors stripped (`[64 x float]` and `<4 x float>` hold
//! floats). Reports use it to print a symbolic input's bytes as values;
//! structs and pointers have no single element type and give `None`.

use super::llvm::{self, Ty};
use crate::expr::{ElementType, FpFormat};
use llvm_sys::LLVMTypeKind as K;

pub fn element_of(mut ty: Ty) -> Option<ElementType> {
    // Nested arrays ([4 x [4 x float]]) hold the innermost element.
    for _ in 0..16 {
        match llvm::type_kind(ty) {
            K::LLVMArrayTypeKind | K::LLVMVectorTypeKind => ty = llvm::element_type(ty),
            K::LLVMFloatTypeKind => return Some(ElementType::Float(FpFormat::Single)),
            K::LLVMDoubleTypeKind => return Some(ElementType::Float(FpFormat::Double)),
            K::LLVMHalfTypeKind => return Some(ElementType::Float(FpFormat::Half)),
            K::LLVMIntegerTypeKind => {
                return match llvm::int_width(ty) {
                    w @ (8 | 16 | 32 | 64 | 128) => Some(ElementType::Int(w / 8)),
                    _ => None,
                }
            }
            _ => return None,
        }
    }
    None
}
