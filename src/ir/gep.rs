//! Folding of getelementptr index lists into `offset + sum(index * scale)`.
//! Constant indices (and every struct field index) fold into the byte
//! offset using the module's data layout; variable indices stay as terms.
//! Shared by GEP instructions and GEP constant expressions.

use super::llvm::{self, Ty, Value};
use super::types_from_llvm::Layout;
use llvm_sys::LLVMTypeKind as K;
use llvm_sys::LLVMValueKind;

/// A folded GEP: constant byte offset and the variable (index, scale) terms.
pub struct FoldedGep {
    pub offset: i64,
    pub terms: Vec<(Value, i64)>,
    /// The terms that index into an array type, each with the array's
    /// declared length (arrays of 0 or 1 elements, the trailing arrays of
    /// variable-size structs, are left out).
    pub bounds: Vec<(usize, u64)>,
}

/// A constant integer index sign-extended to 64 bits, if `v` is one.
pub fn const_index(v: Value) -> Option<Result<i64, String>> {
    if llvm::value_kind(v) != LLVMValueKind::LLVMConstantIntValueKind {
        return None;
    }
    let width = llvm::int_width(llvm::type_of(v));
    if width > 64 {
        return Some(Err(format!("GEP index of {width} bits")));
    }
    let raw = llvm::const_zext_value(v);
    let shift = 64 - width;
    Some(Ok(((raw << shift) as i64) >> shift))
}

fn add_scaled(acc: &mut FoldedGep, index: Value, scale: i64) -> Result<(), String> {
    if llvm::type_kind(llvm::type_of(index)) == K::LLVMVectorTypeKind {
        return Err("vector GEP indices are not supported".into());
    }
    match const_index(index) {
        Some(c) => acc.offset = acc.offset.wrapping_add(c?.wrapping_mul(scale)),
        None => acc.terms.push((index, scale)),
    }
    Ok(())
}

/// Folds `indices` of a GEP whose source element type is `src`.
pub fn fold(layout: &Layout, src: Ty, indices: &[Value]) -> Result<FoldedGep, String> {
    let mut acc = FoldedGep { offset: 0, terms: Vec::new(), bounds: Vec::new() };
    let Some((first, rest)) = indices.split_first() else {
        return Ok(acc);
    };
    add_scaled(&mut acc, *first, layout.alloc_size(src) as i64)?;
    let mut cur = src;
    for &index in rest {
        match llvm::type_kind(cur) {
            K::LLVMStructTypeKind => {
                let Some(Ok(field)) = const_index(index) else {
                    return Err("non-constant struct field index in GEP".into());
                };
                let fields = llvm::struct_fields(cur);
                let Some(&field_ty) = fields.get(field as usize) else {
                    return Err(format!("struct field index {field} out of range"));
                };
                acc.offset = acc.offset.wrapping_add(layout.field_offset(cur, field as u32) as i64);
                cur = field_ty;
            }
            K::LLVMArrayTypeKind | K::LLVMVectorTypeKind => {
                let len = (llvm::type_kind(cur) == K::LLVMArrayTypeKind).then(|| llvm::array_len(cur));
                cur = llvm::element_type(cur);
                let term = acc.terms.len();
                add_scaled(&mut acc, index, layout.alloc_size(cur) as i64)?;
                if let Some(len) = len.filter(|&n| n >= 2 && acc.terms.len() > term) {
                    acc.bounds.push((term, len));
                }
            }
            _ => return Err(format!("GEP index into non-aggregate type {}", llvm::print_type(cur))),
        }
    }
    Ok(acc)
}
