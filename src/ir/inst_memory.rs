//! Memory instructions: alloca (element size from the data layout), load,
//! store, getelementptr (folded by `gep::fold`), atomics and fences.

use super::function::FnCx;
use super::gep;
use super::llvm::{self, Value};
use super::types::{AtomicOp, InstKind};
use llvm_sys::LLVMAtomicRMWBinOp as R;
use llvm_sys::LLVMTypeKind as K;

pub fn alloca(fcx: &mut FnCx, inst: Value) -> Result<InstKind, String> {
    let ty = llvm::allocated_type(inst);
    let elem_size = fcx.cx.layout.alloc_size(ty);
    if elem_size == 0 && llvm::type_kind(ty) != K::LLVMStructTypeKind && llvm::type_kind(ty) != K::LLVMArrayTypeKind {
        return Err(format!("alloca of unsized type {}", llvm::print_type(ty)));
    }
    Ok(InstKind::Alloca {
        elem_size,
        count: fcx.operand_at(inst, 0)?,
        align: llvm::alignment(inst),
        element: super::element_of::element_of(ty),
    })
}

pub fn load(fcx: &mut FnCx, inst: Value) -> Result<InstKind, String> {
    Ok(InstKind::Load { ptr: fcx.operand_at(inst, 0)?, align: llvm::alignment(inst), volatile: llvm::is_volatile(inst) })
}

pub fn store(fcx: &mut FnCx, inst: Value) -> Result<InstKind, String> {
    let value_ty = fcx.cx.layout.convert(llvm::type_of(llvm::operand(inst, 0)));
    if let crate::ir::Type::Unsupported(why) = value_ty {
        return Err(format!("store of unsupported type: {why}"));
    }
    Ok(InstKind::Store {
        value: fcx.operand_at(inst, 0)?,
        ptr: fcx.operand_at(inst, 1)?,
        align: llvm::alignment(inst),
        volatile: llvm::is_volatile(inst),
    })
}

pub fn gep(fcx: &mut FnCx, inst: Value) -> Result<InstKind, String> {
    if llvm::type_kind(llvm::type_of(inst)) == K::LLVMVectorTypeKind {
        return Err("vector GEP (vector of pointers) is not supported".into());
    }
    let indices: Vec<Value> = (1..llvm::num_operands(inst)).map(|i| llvm::operand(inst, i)).collect();
    let folded = gep::fold(&fcx.cx.layout, llvm::gep_source_type(inst), &indices)?;
    let mut terms = Vec::with_capacity(folded.terms.len());
    for (index, scale) in folded.terms {
        terms.push((fcx.operand(index)?, scale));
    }
    let dereferenced = llvm::only_dereferenced(inst);
    let bounds = folded.bounds.into_iter().map(|(term, len)| crate::ir::ArrayBound { term, len, dereferenced }).collect();
    let (inbounds, nuw) = llvm::gep_no_wrap_flags(inst);
    let flags = crate::ir::PoisonFlags { inbounds, nuw, ..Default::default() };
    Ok(InstKind::Gep { base: fcx.operand_at(inst, 0)?, offset: folded.offset, terms, bounds, flags })
}

pub fn atomic_rmw(fcx: &mut FnCx, inst: Value) -> Result<InstKind, String> {
    let op = match llvm::rmw_op(inst) {
        R::LLVMAtomicRMWBinOpXchg => AtomicOp::Xchg,
        R::LLVMAtomicRMWBinOpAdd => AtomicOp::Add,
        R::LLVMAtomicRMWBinOpSub => AtomicOp::Sub,
        R::LLVMAtomicRMWBinOpAnd => AtomicOp::And,
        R::LLVMAtomicRMWBinOpNand => AtomicOp::Nand,
        R::LLVMAtomicRMWBinOpOr => AtomicOp::Or,
        R::LLVMAtomicRMWBinOpXor => AtomicOp::Xor,
        R::LLVMAtomicRMWBinOpMax => AtomicOp::Max,
        R::LLVMAtomicRMWBinOpMin => AtomicOp::Min,
        R::LLVMAtomicRMWBinOpUMax => AtomicOp::UMax,
        R::LLVMAtomicRMWBinOpUMin => AtomicOp::UMin,
        R::LLVMAtomicRMWBinOpFAdd => AtomicOp::FAdd,
        R::LLVMAtomicRMWBinOpFSub => AtomicOp::FSub,
        other => return Err(format!("unsupported atomicrmw operation {other:?}")),
    };
    Ok(InstKind::AtomicRmw { op, ptr: fcx.operand_at(inst, 0)?, value: fcx.operand_at(inst, 1)? })
}

pub fn cmpxchg(fcx: &mut FnCx, inst: Value) -> Result<InstKind, String> {
    Ok(InstKind::CmpXchg { ptr: fcx.operand_at(inst, 0)?, expected: fcx.operand_at(inst, 1)?, new: fcx.operand_at(inst, 2)? })
}
