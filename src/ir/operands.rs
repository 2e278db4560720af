//! The operands an instruction or terminator reads, in order: what the
//! IR verifier checks for dominance and the uninitialised-bits analysis
//! propagates through.

use super::{Callee, InstKind, Operand, Terminator};
use smallvec::SmallVec;

impl InstKind {
    /// The operands this instruction reads, in order (a phi's incoming
    /// values, a call's arguments then an indirect callee).
    pub fn operands(&self) -> SmallVec<[&Operand; 3]> {
        use smallvec::smallvec;
        match self {
            InstKind::Int { lhs, rhs, .. }
            | InstKind::Float { lhs, rhs, .. }
            | InstKind::ICmp { lhs, rhs, .. }
            | InstKind::FCmp { lhs, rhs, .. } => smallvec![lhs, rhs],
            InstKind::FNeg(a) | InstKind::Cast { value: a, .. } | InstKind::Freeze(a) => smallvec![a],
            InstKind::Select { cond, then, otherwise, .. } => smallvec![cond, then, otherwise],
            InstKind::Phi { incoming } => incoming.iter().map(|(_, o)| o).collect(),
            InstKind::Alloca { count, .. } => smallvec![count],
            InstKind::Load { ptr, .. } => smallvec![ptr],
            InstKind::Store { ptr, value, .. } => smallvec![ptr, value],
            InstKind::Gep { base, terms, .. } => std::iter::once(base).chain(terms.iter().map(|(o, _)| o)).collect(),
            InstKind::Call { callee, args } => {
                let mut v: smallvec::SmallVec<[&Operand; 3]> = args.iter().collect();
                if let Callee::Indirect(f) = callee {
                    v.push(f);
                }
                v
            }
            InstKind::ExtractElement { vector, index } => smallvec![vector, index],
            InstKind::InsertElement { vector, element, index } => smallvec![vector, element, index],
            InstKind::ShuffleVector { a, b, .. } => smallvec![a, b],
            InstKind::ExtractValue { aggregate, .. } => smallvec![aggregate],
            InstKind::InsertValue { aggregate, value, .. } => smallvec![aggregate, value],
            InstKind::AtomicRmw { ptr, value, .. } => smallvec![ptr, value],
            InstKind::CmpXchg { ptr, expected, new } => smallvec![ptr, expected, new],
            InstKind::Fence | InstKind::Unsupported(_) => smallvec![],
        }
    }
}

impl InstKind {
    /// The operands whose address the result carries on (a GEP's base, a
    /// bit or address-space cast's value, a freeze's, a select's two
    /// sides, a phi's incoming values); None for any other instruction.
    /// What analyses following a pointer through a function walk.
    pub fn address_operands(&self) -> Option<SmallVec<[&Operand; 3]>> {
        use super::CastOp;
        use smallvec::smallvec;
        Some(match self {
            InstKind::Gep { base, .. } => smallvec![base],
            InstKind::Cast { op: CastOp::BitCast | CastOp::AddrSpaceCast, value, .. } | InstKind::Freeze(value) => smallvec![value],
            InstKind::Select { then, otherwise, .. } => smallvec![then, otherwise],
            InstKind::Phi { incoming } => incoming.iter().map(|(_, o)| o).collect(),
            _ => return None,
        })
    }
}

impl Terminator {
    /// The operands this terminator reads: a branch's condition, a
    /// switch's value, a returned value.
    pub fn operands(&self) -> SmallVec<[&Operand; 1]> {
        match self {
            Terminator::CondBr { cond, .. } => smallvec::smallvec![cond],
            Terminator::Switch { value, .. } => smallvec::smallvec![value],
            Terminator::Ret(Some(v)) => smallvec::smallvec![v],
            _ => SmallVec::new(),
        }
    }
}
