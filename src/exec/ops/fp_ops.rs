//! Floating-point arithmetic and comparisons. Operations carrying `!fpmath`
//! accuracy metadata are approximate: each dynamic occurrence yields a fresh
//! unconstrained value (README, "Semantics"), so it never matches an exact
//! operation.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::exec::ops::int_ops::Exec;
use crate::expr::{FBinOp, FpFormat, Outcomes};
use crate::ir::{Function, Inst, Operand};

impl<'m> Executor<'m> {
    #[allow(clippy::too_many_arguments)]
    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec) fn exec_float(
        &mut self,
        state: &mut State,
        func: &Function,
        inst: &Inst,
        op: FBinOp,
        lhs: &Operand,
        rhs: &Operand,
        approximate: bool,
        contract: bool,
    ) -> Exec {
        let f = self.float_format(state, inst, &inst.ty)?;
        let a = self.operand(state, func, lhs);
        let b = self.operand(state, func, rhs);
        if approximate {
            return Ok(a.iter().map(|_| self.cx.pool.approximation(f.width())).collect());
        }
        if contract {
            return Ok(self.map2(&a, &b, |p, x, y| crate::exec::ops::contraction::contracted(p, op, f, x, y)));
        }
        Ok(self.map2(&a, &b, |p, x, y| p.fbin(op, f, x, y)))
    }

    pub(in crate::exec) fn exec_fneg(&mut self, state: &mut State, func: &Function, inst: &Inst, a: &Operand) -> Exec {
        let f = self.float_format(state, inst, &inst.ty)?;
        let v = self.operand(state, func, a);
        Ok(v.iter().map(|x| self.cx.pool.fneg(f, *x)).collect())
    }

    pub(in crate::exec) fn exec_fcmp(
        &mut self,
        state: &mut State,
        func: &Function,
        inst: &Inst,
        set: Outcomes,
        lhs: &Operand,
        rhs: &Operand,
    ) -> Exec {
        let t = self.operand_type(func, lhs);
        let f = self.float_format(state, inst, &t)?;
        let a = self.operand(state, func, lhs);
        let b = self.operand(state, func, rhs);
        Ok(self.map2(&a, &b, |p, x, y| p.fcmp(set, f, x, y)))
    }

    /// The FP format of a type, or an `unsupported` finding (x86_fp80...).
    pub(in crate::exec) fn float_format(
        &mut self,
        state: &State,
        inst: &Inst,
        t: &crate::ir::Type,
    ) -> Result<FpFormat, crate::exec::engine::executor::Step> {
        match t.is_float() {
            Some(f) => Ok(f),
            None => {
                Err(self.unsupported(state, inst.loc, format!("floating-point type {t:?} is not modelled (half, float and double are)")))
            }
        }
    }
}
