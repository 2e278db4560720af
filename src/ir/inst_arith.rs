//! Arithmetic, comparison, cast and select instructions. FP comparison
//! predicates become `Outcomes` sets (LLVM encodes a predicate as the set
//! {eq=1, gt=2, lt=4, uno=8}; ours is {lt=1, eq=2, gt=4, uno=8}), and
//! `!fpmath` metadata marks FP operations as approximate.

use super::function::FnCx;
use super::llvm::{self, Value};
use super::types::{CastOp, ICmpPred, InstKind, PoisonFlags};
use crate::expr::{BinOp, FBinOp, Outcomes};
use llvm_sys::LLVMIntPredicate as IP;
use llvm_sys::LLVMOpcode as Op;

pub fn int_binop(fcx: &mut FnCx, inst: Value, op: Op) -> Result<InstKind, String> {
    let op = match op {
        Op::LLVMAdd => BinOp::Add,
        Op::LLVMSub => BinOp::Sub,
        Op::LLVMMul => BinOp::Mul,
        Op::LLVMUDiv => BinOp::UDiv,
        Op::LLVMSDiv => BinOp::SDiv,
        Op::LLVMURem => BinOp::URem,
        Op::LLVMSRem => BinOp::SRem,
        Op::LLVMAnd => BinOp::And,
        Op::LLVMOr => BinOp::Or,
        Op::LLVMXor => BinOp::Xor,
        Op::LLVMShl => BinOp::Shl,
        Op::LLVMLShr => BinOp::LShr,
        Op::LLVMAShr => BinOp::AShr,
        other => return Err(format!("not an integer operation: {other:?}")),
    };
    let wraps = matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl);
    let divides = matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::LShr | BinOp::AShr);
    let flags = PoisonFlags {
        nsw: wraps && llvm::has_no_signed_wrap(inst),
        nuw: wraps && llvm::has_no_unsigned_wrap(inst),
        exact: divides && llvm::is_exact(inst),
        disjoint: op == BinOp::Or && llvm::is_disjoint(inst),
        ..PoisonFlags::default()
    };
    Ok(InstKind::Int { op, lhs: fcx.operand_at(inst, 0)?, rhs: fcx.operand_at(inst, 1)?, flags })
}

pub fn float_binop(fcx: &mut FnCx, inst: Value, op: Op) -> Result<InstKind, String> {
    let op = match op {
        Op::LLVMFAdd => FBinOp::Add,
        Op::LLVMFSub => FBinOp::Sub,
        Op::LLVMFMul => FBinOp::Mul,
        Op::LLVMFDiv => FBinOp::Div,
        Op::LLVMFRem => FBinOp::Rem,
        other => return Err(format!("not a floating-point operation: {other:?}")),
    };
    let approximate = llvm::has_metadata(inst, fcx.cx.fpmath_kind);
    // The back end fuses a contract-flagged sum with a contract-flagged
    // product that feeds it directly (not through memory: a volatile
    // temporary keeps them apart).
    let contract = matches!(op, FBinOp::Add | FBinOp::Sub)
        && llvm::allows_contraction(inst)
        && (0..2).any(|i| {
            let v = llvm::operand(inst, i);
            llvm::is_instruction(v) && llvm::opcode(v) == Op::LLVMFMul && llvm::allows_contraction(v)
        });
    Ok(InstKind::Float { op, lhs: fcx.operand_at(inst, 0)?, rhs: fcx.operand_at(inst, 1)?, approximate, contract })
}

pub fn icmp(fcx: &mut FnCx, inst: Value) -> Result<InstKind, String> {
    let pred = match llvm::icmp_pred(inst) {
        IP::LLVMIntEQ => ICmpPred::Eq,
        IP::LLVMIntNE => ICmpPred::Ne,
        IP::LLVMIntUGT => ICmpPred::Ugt,
        IP::LLVMIntUGE => ICmpPred::Uge,
        IP::LLVMIntULT => ICmpPred::Ult,
        IP::LLVMIntULE => ICmpPred::Ule,
        IP::LLVMIntSGT => ICmpPred::Sgt,
        IP::LLVMIntSGE => ICmpPred::Sge,
        IP::LLVMIntSLT => ICmpPred::Slt,
        IP::LLVMIntSLE => ICmpPred::Sle,
    };
    Ok(InstKind::ICmp { pred, lhs: fcx.operand_at(inst, 0)?, rhs: fcx.operand_at(inst, 1)? })
}

/// Maps LLVM's predicate bit set (eq=1, gt=2, lt=4, uno=8) to `Outcomes`.
pub fn outcomes_of_llvm_predicate(pred: u32) -> Outcomes {
    let mut bits = 0;
    if pred & 1 != 0 {
        bits |= Outcomes::EQ;
    }
    if pred & 2 != 0 {
        bits |= Outcomes::GT;
    }
    if pred & 4 != 0 {
        bits |= Outcomes::LT;
    }
    if pred & 8 != 0 {
        bits |= Outcomes::UNO;
    }
    Outcomes(bits)
}

pub fn fcmp(fcx: &mut FnCx, inst: Value) -> Result<InstKind, String> {
    let outcomes = outcomes_of_llvm_predicate(llvm::fcmp_pred(inst) as u32);
    Ok(InstKind::FCmp { outcomes, lhs: fcx.operand_at(inst, 0)?, rhs: fcx.operand_at(inst, 1)? })
}

pub fn cast(fcx: &mut FnCx, inst: Value, op: Op) -> Result<InstKind, String> {
    let op = match op {
        Op::LLVMTrunc => CastOp::Trunc,
        Op::LLVMZExt => CastOp::ZExt,
        Op::LLVMSExt => CastOp::SExt,
        Op::LLVMFPTrunc => CastOp::FpTrunc,
        Op::LLVMFPExt => CastOp::FpExt,
        Op::LLVMFPToUI => CastOp::FpToUi,
        Op::LLVMFPToSI => CastOp::FpToSi,
        Op::LLVMUIToFP => CastOp::UiToFp,
        Op::LLVMSIToFP => CastOp::SiToFp,
        Op::LLVMPtrToInt => CastOp::PtrToInt,
        Op::LLVMIntToPtr => CastOp::IntToPtr,
        Op::LLVMBitCast => CastOp::BitCast,
        Op::LLVMAddrSpaceCast => CastOp::AddrSpaceCast,
        other => return Err(format!("not a cast: {other:?}")),
    };
    // `trunc nuw`/`nsw` (no set bit, no sign change dropped) and `zext
    // nneg`/`uitofp nneg` (a non-negative operand): promises the optimiser
    // writes from facts it derived.
    let truncates = op == CastOp::Trunc;
    let widens_unsigned = matches!(op, CastOp::ZExt | CastOp::UiToFp);
    let flags = PoisonFlags {
        nuw: truncates && llvm::has_no_unsigned_wrap(inst),
        nsw: truncates && llvm::has_no_signed_wrap(inst),
        nneg: widens_unsigned && llvm::is_non_negative(inst),
        ..PoisonFlags::default()
    };
    Ok(InstKind::Cast { op, value: fcx.operand_at(inst, 0)?, flags })
}

pub fn select(fcx: &mut FnCx, inst: Value) -> Result<InstKind, String> {
    Ok(InstKind::Select {
        cond: fcx.operand_at(inst, 0)?,
        then: fcx.operand_at(inst, 1)?,
        otherwise: fcx.operand_at(inst, 2)?,
        folded: false,
    })
}
