//! Phi nodes, calls (classified into direct, external, intrinsic, indirect
//! and inline assembly), vector lane operations and aggregate
//! extract/insert.

use super::function::FnCx;
use super::llvm::{self, Value};
use super::types::{Callee, InstKind};
use llvm_sys::LLVMOpcode as Op;
use llvm_sys::LLVMValueKind as V;

pub fn phi(fcx: &mut FnCx, inst: Value) -> Result<InstKind, String> {
    let mut incoming = Vec::new();
    for (value, bb) in llvm::incoming(inst) {
        incoming.push((fcx.block(bb)?, fcx.operand(value)?));
    }
    Ok(InstKind::Phi { incoming })
}

fn callee(fcx: &mut FnCx, target: Value) -> Result<Callee, String> {
    if llvm::is_inline_asm(target) {
        return Ok(Callee::InlineAsm);
    }
    let mut f = target;
    if llvm::value_kind(f) == V::LLVMGlobalAliasValueKind {
        f = llvm::aliasee(f);
    }
    if llvm::value_kind(f) != V::LLVMFunctionValueKind {
        return Ok(Callee::Indirect(fcx.operand(target)?));
    }
    let name = llvm::name(f);
    if name.starts_with("llvm.") {
        return Ok(Callee::Intrinsic(name));
    }
    if llvm::is_declaration(f) {
        return Ok(Callee::External(name));
    }
    match fcx.cx.functions.get(&f) {
        Some(&id) => Ok(Callee::Direct(id)),
        None => Err(format!("call to unknown function {name}")),
    }
}

pub fn call(fcx: &mut FnCx, inst: Value) -> Result<InstKind, String> {
    let callee = callee(fcx, llvm::called_value(inst))?;
    let mut args = Vec::new();
    for i in 0..llvm::num_args(inst) {
        let a = llvm::operand(inst, i);
        // Metadata arguments of intrinsics (`llvm.allow.runtime.check`,
        // scope lists) carry no value: an empty operand stands for them.
        if matches!(callee, Callee::Intrinsic(_)) && llvm::value_kind(a) == V::LLVMMetadataAsValueValueKind {
            args.push(super::types::Operand::Const(super::types::Const::Undef(super::types::Type::Void)));
            continue;
        }
        args.push(fcx.operand(a)?);
    }
    Ok(InstKind::Call { callee, args })
}

pub fn vector(fcx: &mut FnCx, inst: Value, op: Op) -> Result<InstKind, String> {
    match op {
        Op::LLVMExtractElement => Ok(InstKind::ExtractElement { vector: fcx.operand_at(inst, 0)?, index: fcx.operand_at(inst, 1)? }),
        Op::LLVMInsertElement => Ok(InstKind::InsertElement {
            vector: fcx.operand_at(inst, 0)?,
            element: fcx.operand_at(inst, 1)?,
            index: fcx.operand_at(inst, 2)?,
        }),
        Op::LLVMShuffleVector => {
            Ok(InstKind::ShuffleVector { a: fcx.operand_at(inst, 0)?, b: fcx.operand_at(inst, 1)?, mask: llvm::shuffle_mask(inst) })
        }
        other => Err(format!("not a vector operation: {other:?}")),
    }
}

pub fn aggregate(fcx: &mut FnCx, inst: Value, op: Op) -> Result<InstKind, String> {
    let indices = llvm::aggregate_indices(inst);
    match op {
        Op::LLVMExtractValue => Ok(InstKind::ExtractValue { aggregate: fcx.operand_at(inst, 0)?, indices }),
        Op::LLVMInsertValue => Ok(InstKind::InsertValue { aggregate: fcx.operand_at(inst, 0)?, value: fcx.operand_at(inst, 1)?, indices }),
        other => Err(format!("not an aggregate operation: {other:?}")),
    }
}
