//! Serialisation of a global variable's initializer into little-endian
//! bytes plus relocations (addresses of globals and functions to patch in),
//! laid out with the module's data layout. Large zero or string
//! initializers are handled without expanding them element by element.

use super::constants::constant;
use super::context::ModuleCx;
use super::llvm::{self, Ty, Value};
use super::types::{Const, Reloc};
use llvm_sys::LLVMTypeKind as K;
use llvm_sys::LLVMValueKind as V;

/// The initial image of one global.
pub struct GlobalImage {
    /// The first bytes; the ones past its end are zero (an all-zero
    /// initializer has none, so a 1 GiB zeroed array costs nothing here).
    pub bytes: Vec<u8>,
    pub relocs: Vec<(u64, Reloc)>,
}

pub fn serialize(cx: &mut ModuleCx, init: Value, ty: Ty) -> Result<GlobalImage, String> {
    let size = cx.layout.alloc_size(ty);
    if is_zero(init) {
        return Ok(GlobalImage { bytes: Vec::new(), relocs: Vec::new() });
    }
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(size as usize).map_err(|_| format!("an initializer of {size} bytes does not fit in memory"))?;
    bytes.resize(size as usize, 0);
    let mut image = GlobalImage { bytes, relocs: Vec::new() };
    write(cx, init, ty, 0, &mut image)?;
    Ok(image)
}

/// Whether a constant is all zero bytes as a whole (undef is given zero).
fn is_zero(c: Value) -> bool {
    matches!(
        llvm::value_kind(c),
        V::LLVMConstantAggregateZeroValueKind | V::LLVMConstantPointerNullValueKind | V::LLVMUndefValueValueKind | V::LLVMPoisonValueKind
    )
}

fn write(cx: &mut ModuleCx, c: Value, ty: Ty, at: u64, image: &mut GlobalImage) -> Result<(), String> {
    match llvm::value_kind(c) {
        // The image starts zeroed; undef is given the value zero.
        V::LLVMConstantAggregateZeroValueKind
        | V::LLVMConstantPointerNullValueKind
        | V::LLVMUndefValueValueKind
        | V::LLVMPoisonValueKind => Ok(()),
        V::LLVMConstantDataArrayValueKind
        | V::LLVMConstantDataVectorValueKind
        | V::LLVMConstantArrayValueKind
        | V::LLVMConstantStructValueKind
        | V::LLVMConstantVectorValueKind => write_aggregate(cx, c, ty, at, image),
        _ => {
            let value = constant(cx, c)?;
            write_scalar(&value, at, cx.layout.alloc_size(ty), image)
        }
    }
}

fn write_aggregate(cx: &mut ModuleCx, c: Value, ty: Ty, at: u64, image: &mut GlobalImage) -> Result<(), String> {
    if let Some(bytes) = llvm::const_bytes(c) {
        return put(image, at, &bytes);
    }
    let (elem_tys, offsets): (Vec<Ty>, Vec<u64>) = match llvm::type_kind(ty) {
        K::LLVMStructTypeKind => {
            let fields = llvm::struct_fields(ty);
            let offs = (0..fields.len() as u32).map(|i| cx.layout.field_offset(ty, i)).collect();
            (fields, offs)
        }
        K::LLVMArrayTypeKind | K::LLVMVectorTypeKind => {
            let elem = llvm::element_type(ty);
            let n = if llvm::type_kind(ty) == K::LLVMArrayTypeKind { llvm::array_len(ty) } else { llvm::vector_len(ty) as u64 };
            let stride = cx.layout.alloc_size(elem);
            (vec![elem; n as usize], (0..n).map(|i| i * stride).collect())
        }
        _ => return Err(format!("aggregate initializer of type {}", llvm::print_type(ty))),
    };
    for (i, (elem_ty, off)) in elem_tys.into_iter().zip(offsets).enumerate() {
        let e = llvm::aggregate_element(c, i as u32);
        if llvm::is_null(e) {
            return Err(format!("cannot read element {i} of an initializer"));
        }
        write(cx, e, elem_ty, at + off, image)?;
    }
    Ok(())
}

fn write_scalar(value: &Const, at: u64, size: u64, image: &mut GlobalImage) -> Result<(), String> {
    match value {
        Const::Int { value, .. } | Const::Float { bits: value, .. } => {
            let bytes = value.to_le_bytes();
            put(image, at, &bytes[..size.min(16) as usize])
        }
        Const::Null | Const::Undef(_) => Ok(()),
        Const::GlobalAddr { global, offset } => {
            image.relocs.push((at, Reloc::Global { global: *global, offset: *offset }));
            Ok(())
        }
        Const::FuncAddr(f) => {
            image.relocs.push((at, Reloc::Function(*f)));
            Ok(())
        }
        Const::Vector(_) | Const::Aggregate(_) => Err("nested aggregate in a scalar slot".into()),
    }
}

fn put(image: &mut GlobalImage, at: u64, bytes: &[u8]) -> Result<(), String> {
    let end = at as usize + bytes.len();
    if end > image.bytes.len() {
        return Err("initializer larger than its global".into());
    }
    image.bytes[at as usize..end].copy_from_slice(bytes);
    Ok(())
}
