//! Dispatch of a non-terminator LLVM instruction to its family translator
//! (arithmetic, memory, calls/vectors/aggregates). An `Err` is a
//! description of what is not modelled; the caller wraps it, with the
//! instruction's LLVM text, in `InstKind::Unsupported`.

use super::function::FnCx;
use super::inst_arith as arith;
use super::inst_memory as memory;
use super::inst_other as other;
use super::llvm::{self, Value};
use super::types::InstKind;
use llvm_sys::LLVMOpcode as Op;

pub fn translate_inst(fcx: &mut FnCx, inst: Value) -> Result<InstKind, String> {
    let op = llvm::opcode(inst);
    match op {
        Op::LLVMAdd
        | Op::LLVMSub
        | Op::LLVMMul
        | Op::LLVMUDiv
        | Op::LLVMSDiv
        | Op::LLVMURem
        | Op::LLVMSRem
        | Op::LLVMAnd
        | Op::LLVMOr
        | Op::LLVMXor
        | Op::LLVMShl
        | Op::LLVMLShr
        | Op::LLVMAShr => arith::int_binop(fcx, inst, op),
        Op::LLVMFAdd | Op::LLVMFSub | Op::LLVMFMul | Op::LLVMFDiv | Op::LLVMFRem => arith::float_binop(fcx, inst, op),
        Op::LLVMFNeg => Ok(InstKind::FNeg(fcx.operand_at(inst, 0)?)),
        Op::LLVMICmp => arith::icmp(fcx, inst),
        Op::LLVMFCmp => arith::fcmp(fcx, inst),
        Op::LLVMTrunc
        | Op::LLVMZExt
        | Op::LLVMSExt
        | Op::LLVMFPTrunc
        | Op::LLVMFPExt
        | Op::LLVMFPToUI
        | Op::LLVMFPToSI
        | Op::LLVMUIToFP
        | Op::LLVMSIToFP
        | Op::LLVMPtrToInt
        | Op::LLVMIntToPtr
        | Op::LLVMBitCast
        | Op::LLVMAddrSpaceCast => arith::cast(fcx, inst, op),
        Op::LLVMSelect => arith::select(fcx, inst),
        Op::LLVMAlloca => memory::alloca(fcx, inst),
        Op::LLVMLoad => memory::load(fcx, inst),
        Op::LLVMStore => memory::store(fcx, inst),
        Op::LLVMGetElementPtr => memory::gep(fcx, inst),
        Op::LLVMAtomicRMW => memory::atomic_rmw(fcx, inst),
        Op::LLVMAtomicCmpXchg => memory::cmpxchg(fcx, inst),
        Op::LLVMFence => Ok(InstKind::Fence),
        Op::LLVMPHI => other::phi(fcx, inst),
        Op::LLVMCall => other::call(fcx, inst),
        Op::LLVMExtractElement | Op::LLVMInsertElement | Op::LLVMShuffleVector => other::vector(fcx, inst, op),
        Op::LLVMExtractValue | Op::LLVMInsertValue => other::aggregate(fcx, inst, op),
        Op::LLVMFreeze => Ok(InstKind::Freeze(fcx.operand_at(inst, 0)?)),
        op => Err(format!("unsupported instruction {}", opcode_name(op))),
    }
}

fn opcode_name(op: Op) -> String {
    format!("{op:?}").trim_start_matches("LLVM").to_lowercase()
}
