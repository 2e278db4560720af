//! LLVM types to `ir::Type`, and the module's data layout (sizes, alignments,
//! struct field offsets). Sizes come from LLVM's own DataLayout so that GEP
//! folding and global layout agree exactly with what clang assumed; the
//! converted types are memoised because LLVM uniques its types.

use super::llvm::{self, Ty};
use super::types::Type;
use crate::expr::FpFormat;
use llvm_sys::target::*;
use llvm_sys::LLVMTypeKind as K;
use std::collections::HashMap;

/// The target data layout of one module plus a type-conversion cache.
pub struct Layout {
    td: LLVMTargetDataRef,
    cache: HashMap<Ty, Type>,
    /// CUDA device code: address spaces are renumbered (`from_nvptx`).
    cuda: bool,
}

impl Layout {
    pub fn new(module: llvm_sys::prelude::LLVMModuleRef) -> Layout {
        // SAFETY: the data layout is owned by the module, which outlives us.
        let td = unsafe { LLVMGetModuleDataLayout(module) };
        // SAFETY: as above; the triple string is copied out at once.
        let triple = unsafe {
            let p = llvm_sys::core::LLVMGetTarget(module);
            if p.is_null() {
                String::new()
            } else {
                std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned()
            }
        };
        Layout { td, cache: HashMap::new(), cuda: super::address_space::is_cuda_triple(&triple) }
    }

    /// Whether the module is CUDA device code (nvptx64).
    pub fn is_cuda(&self) -> bool {
        self.cuda
    }

    /// The address space of pointer type `t`, in OpenCL numbering.
    pub fn addr_space(&self, t: Ty) -> u32 {
        let n = llvm::pointer_addr_space(t);
        if self.cuda {
            super::address_space::from_nvptx(n)
        } else {
            n
        }
    }

    /// Whether a type has a size LLVM can ask about (not opaque, not a label).
    fn sized(t: Ty) -> bool {
        match llvm::type_kind(t) {
            K::LLVMVoidTypeKind | K::LLVMLabelTypeKind | K::LLVMFunctionTypeKind => false,
            K::LLVMMetadataTypeKind | K::LLVMTokenTypeKind | K::LLVMScalableVectorTypeKind => false,
            // An event's layout type is a pointer (LLVM lays out `spirv.*`
            // types so), so arrays and structs of events have a size.
            K::LLVMTargetExtTypeKind => Self::is_handle(t),
            K::LLVMStructTypeKind => !llvm::struct_is_opaque(t) && llvm::struct_fields(t).into_iter().all(Self::sized),
            K::LLVMArrayTypeKind | K::LLVMVectorTypeKind => Self::sized(llvm::element_type(t)),
            _ => true,
        }
    }

    /// OpenCL's `event_t`, a target type (`target("spirv.Event")`) that
    /// symcross models as an opaque 8-byte handle.
    fn is_event(t: Ty) -> bool {
        matches!(llvm::type_kind(t), K::LLVMTargetExtTypeKind) && llvm::print_type(t).contains("spirv.Event")
    }

    /// A target type symcross models as an 8-byte handle: an event, a
    /// sampler (its flags) or an image it models (`image_dims`).
    fn is_handle(t: Ty) -> bool {
        if !matches!(llvm::type_kind(t), K::LLVMTargetExtTypeKind) {
            return false;
        }
        let printed = llvm::print_type(t);
        Self::is_event(t) || printed.contains("spirv.Sampler") || image_dims(&printed).is_some()
    }

    /// Allocation size in bytes (what a GEP steps by); 0 for unsized types.
    pub fn alloc_size(&self, t: Ty) -> u64 {
        if Self::is_handle(t) {
            return 8;
        }
        if !Self::sized(t) {
            return 0;
        }
        unsafe { LLVMABISizeOfType(self.td, t) }
    }

    pub fn abi_align(&self, t: Ty) -> u64 {
        if Self::is_handle(t) {
            return 8;
        }
        if !Self::sized(t) {
            return 1;
        }
        unsafe { LLVMABIAlignmentOfType(self.td, t) as u64 }
    }

    /// Byte offset of field `i` of a (sized) struct type.
    pub fn field_offset(&self, t: Ty, i: u32) -> u64 {
        unsafe { LLVMOffsetOfElement(self.td, t, i) }
    }

    /// Converts an LLVM type; unmodelled types become `Type::Unsupported`.
    pub fn convert(&mut self, t: Ty) -> Type {
        if let Some(ty) = self.cache.get(&t) {
            return ty.clone();
        }
        let ty = self.convert_uncached(t);
        self.cache.insert(t, ty.clone());
        ty
    }

    fn convert_uncached(&mut self, t: Ty) -> Type {
        match llvm::type_kind(t) {
            K::LLVMVoidTypeKind => Type::Void,
            K::LLVMHalfTypeKind => Type::Float(FpFormat::Half),
            K::LLVMFloatTypeKind => Type::Float(FpFormat::Single),
            K::LLVMDoubleTypeKind => Type::Float(FpFormat::Double),
            K::LLVMIntegerTypeKind => match llvm::int_width(t) {
                w @ 1..=128 => Type::Int(w),
                w => Type::Unsupported(format!("i{w} (integers wider than 128 bits)")),
            },
            K::LLVMPointerTypeKind => Type::Ptr { addr_space: self.addr_space(t) },
            K::LLVMTargetExtTypeKind if Self::is_event(t) => Type::Ptr { addr_space: 0 },
            K::LLVMTargetExtTypeKind => {
                let printed = llvm::print_type(t);
                if image_dims(&printed).is_some() {
                    // The address of the image's pixels (exec/opencl/images.rs).
                    Type::Ptr { addr_space: 1 }
                } else if printed.contains("spirv.Sampler") {
                    // The sampler's flags, as `sampler_t` initialisers spell them.
                    Type::Int(32)
                } else {
                    Type::Unsupported(opencl_opaque_type(&printed))
                }
            }
            K::LLVMVectorTypeKind => {
                let elem = self.convert(llvm::element_type(t));
                self.wrap_elem(elem, |elem| Type::Vector { elem, len: llvm::vector_len(t) })
            }
            K::LLVMArrayTypeKind => {
                let elem = self.convert(llvm::element_type(t));
                self.wrap_elem(elem, |elem| Type::Array { elem, len: llvm::array_len(t) })
            }
            K::LLVMStructTypeKind => self.convert_struct(t),
            K::LLVMX86_FP80TypeKind => unsupported("long double (x86_fp80) is not modelled (half, float and double are)"),
            K::LLVMFP128TypeKind => unsupported("__float128 (fp128) is not modelled (half, float and double are)"),
            k => Type::Unsupported(format!("values of LLVM type kind {} are not modelled", format!("{k:?}").trim_start_matches("LLVM"))),
        }
    }

    fn wrap_elem(&self, elem: Type, make: impl FnOnce(Box<Type>) -> Type) -> Type {
        match elem {
            // The element's reason is the user's: no IR type text.
            Type::Unsupported(why) => Type::Unsupported(why),
            elem => make(Box::new(elem)),
        }
    }

    fn convert_struct(&mut self, t: Ty) -> Type {
        if !Self::sized(t) {
            return Type::Unsupported("a struct whose layout is unknown (opaque or unsized) is not modelled".to_string());
        }
        let mut fields = Vec::new();
        let mut offsets = Vec::new();
        for (i, f) in llvm::struct_fields(t).into_iter().enumerate() {
            match self.convert(f) {
                Type::Unsupported(why) => return Type::Unsupported(why),
                ft => fields.push(ft),
            }
            offsets.push(self.field_offset(t, i as u32));
        }
        Type::Struct { fields, offsets, size: self.alloc_size(t) }
    }
}

fn unsupported(why: &str) -> Type {
    Type::Unsupported(why.to_string())
}

/// The dimensions (1, 2 or 3) of an image type symcross models: a plain
/// image1d_t, image2d_t or image3d_t, spelt `target("spirv.Image", void,
/// Dim, Depth, Arrayed, MS, Sampled, Format, Access)` with Dim 0, 1 or 2
/// and no depth, array or multisampling. None for other types and for the
/// image kinds that stay unmodelled (arrays, buffers, depth images).
pub fn image_dims(printed: &str) -> Option<u8> {
    let rest = printed.strip_prefix("target(\"spirv.Image\", void, ")?;
    let fields: Vec<u32> = rest.trim_end_matches(')').split(',').map(|f| f.trim().parse().ok()).collect::<Option<_>>()?;
    match fields.as_slice() {
        [dim @ 0..=2, 0, 0, 0, ..] => Some(*dim as u8 + 1),
        _ => None,
    }
}

/// What a target extension type is, in the OpenCL terms of the source
/// (clang 19 spells image2d_t `target("spirv.Image", ...)` and sampler_t
/// `target("spirv.Sampler")`), for the `unsupported` finding that names it.
fn opencl_opaque_type(printed: &str) -> String {
    if printed.contains("spirv.Image") {
        "OpenCL image arrays, image buffers, depth and multisampled images are not modelled (image1d_t, image2d_t and image3d_t are)".into()
    } else if printed.contains("spirv.Sampler") {
        "OpenCL samplers (sampler_t) and the image reads that use them are not modelled".into()
    } else {
        format!("values of the target type {printed} are not modelled")
    }
}
