//! Integer arithmetic and comparisons, elementwise on vectors. Division by
//! a value that can be zero is a `division-by-zero` finding; the path then
//! continues with the divisor non-zero. Operations C leaves undefined
//! (overflowing signed division, shifts by the width or more, `nsw`
//! overflow) are undefined.rs's.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::{BinOp, CmpOp, ExprId};
use crate::ir::{Function, ICmpPred, Inst, Operand, PoisonFlags};
use crate::report::FindingKind;

pub type Exec = Result<Value, Step>;

impl<'m> Executor<'m> {
    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec) fn exec_int(
        &mut self,
        state: &mut State,
        func: &Function,
        inst: &Inst,
        op: BinOp,
        lhs: &Operand,
        rhs: &Operand,
        flags: PoisonFlags,
    ) -> Exec {
        let a = self.operand(state, func, lhs);
        let b = self.operand(state, func, rhs);
        if matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem) {
            for d in b.iter() {
                self.check_divisor(state, inst, *d)?;
            }
        }
        // OpenCL C leaves signed overflow undefined as C does, but defines
        // what C does not: shift counts are masked by the compiler, and
        // division overflow gives an unspecified value. So a kernel's only
        // undefined arithmetic is an `nsw` overflow (README, "Undefined
        // behaviour"). CUDA device code is C++, whose signed overflow is
        // undefined too: the same rule. The runtime model's own builtins
        // keep their results (their code may lean on wrapping, as the
        // implementation's may).
        let host = state.gpu.is_none();
        if host && matches!(op, BinOp::SDiv | BinOp::SRem) {
            for (x, d) in a.iter().zip(b.iter()) {
                self.check_division_overflow(state, inst, *x, *d)?;
            }
        }
        let r = self.map2(&a, &b, |p, x, y| p.bin(op, x, y));
        if host {
            self.int_poison(inst, op, flags, (&a, &b), &r, &state.path);
        } else if flags.nsw && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) && !self.in_runtime_model(inst.loc) {
            let nsw_only = PoisonFlags { nsw: true, ..PoisonFlags::default() };
            self.int_poison(inst, op, nsw_only, (&a, &b), &r, &state.path);
        }
        Ok(r)
    }

    /// Reports a divisor that can be zero, then assumes it is not.
    fn check_divisor(&mut self, state: &mut State, inst: &Inst, d: ExprId) -> Result<(), Step> {
        if let Some(v) = self.cx.pool.as_const(d) {
            if v != 0 {
                return Ok(());
            }
        }
        let zero = self.cx.pool.constant(self.cx.pool.width(d), 0);
        let is_zero = self.cx.pool.eq(d, zero);
        let (zero_side, nonzero_side) = self.branch(state, is_zero);
        if let Some(z) = zero_side {
            let model = z.model.clone();
            self.report(&z, FindingKind::DivisionByZero, inst.loc, "division by zero".into(), model.as_ref(), None);
        }
        match nonzero_side {
            Some(s) => {
                *state = s;
                Ok(())
            }
            None => Err(Step::Terminated),
        }
    }

    pub(in crate::exec) fn exec_icmp(&mut self, state: &mut State, func: &Function, pred: ICmpPred, lhs: &Operand, rhs: &Operand) -> Exec {
        let a = self.operand(state, func, lhs);
        let b = self.operand(state, func, rhs);
        Ok(self.map2(&a, &b, |p, x, y| icmp(p, pred, x, y)))
    }

    pub(in crate::exec) fn exec_select(
        &mut self,
        state: &mut State,
        func: &Function,
        cond: &Operand,
        then: &Operand,
        otherwise: &Operand,
    ) -> Exec {
        let c = self.operand(state, func, cond);
        let t = self.operand(state, func, then);
        let e = self.operand(state, func, otherwise);
        Ok(t.iter()
            .zip(e.iter())
            .enumerate()
            .map(|(i, (x, y))| {
                // A scalar condition selects whole vectors or aggregates.
                let ci = if c.len() == 1 { c[0] } else { c[i] };
                self.cx.pool.ite(ci, *x, *y)
            })
            .collect())
    }
}

/// Builds an LLVM icmp from the five primitive comparisons.
pub fn icmp(p: &mut crate::expr::ExprPool, pred: ICmpPred, x: ExprId, y: ExprId) -> ExprId {
    match pred {
        ICmpPred::Eq => p.cmp(CmpOp::Eq, x, y),
        ICmpPred::Ne => {
            let e = p.cmp(CmpOp::Eq, x, y);
            p.not(e)
        }
        ICmpPred::Ult => p.cmp(CmpOp::Ult, x, y),
        ICmpPred::Ule => p.cmp(CmpOp::Ule, x, y),
        ICmpPred::Ugt => p.cmp(CmpOp::Ult, y, x),
        ICmpPred::Uge => p.cmp(CmpOp::Ule, y, x),
        ICmpPred::Slt => p.cmp(CmpOp::Slt, x, y),
        ICmpPred::Sle => p.cmp(CmpOp::Sle, x, y),
        ICmpPred::Sgt => p.cmp(CmpOp::Slt, y, x),
        ICmpPred::Sge => p.cmp(CmpOp::Sle, y, x),
    }
}
