//! Casts. Bit casts re-slice the lanes of a value without ever building an
//! expression wider than one lane: each destination lane is the
//! concatenation of the pieces of source lanes it covers.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::exec::ops::int_ops::Exec;
use crate::expr::value::{map1, relane, resize, Value};
use crate::expr::IntRounding;
use crate::ir::{CastOp, Function, Inst, Operand};

impl<'m> Executor<'m> {
    pub(in crate::exec) fn exec_cast(&mut self, state: &mut State, func: &Function, inst: &Inst, op: CastOp, value: &Operand) -> Exec {
        let src_t = self.operand_type(func, value);
        let v = self.operand(state, func, value);
        let to_bits = inst.ty.scalar_bits();
        let p = &mut self.cx.pool;
        let out: Value = match op {
            CastOp::Trunc => map1(&v, |x| p.trunc(x, to_bits)),
            CastOp::ZExt => map1(&v, |x| p.zext(x, to_bits)),
            CastOp::SExt => map1(&v, |x| p.sext(x, to_bits)),
            CastOp::PtrToInt | CastOp::IntToPtr => map1(&v, |x| resize(p, x, to_bits)),
            CastOp::AddrSpaceCast => v,
            CastOp::BitCast => relane(p, &v, to_bits),
            CastOp::FpTrunc | CastOp::FpExt => {
                let from = self.float_format(state, inst, &src_t)?;
                let to = self.float_format(state, inst, &inst.ty)?;
                v.iter().map(|x| self.cx.pool.fp_convert(from, to, *x)).collect()
            }
            CastOp::FpToSi | CastOp::FpToUi => {
                let from = self.float_format(state, inst, &src_t)?;
                let signed = op == CastOp::FpToSi;
                v.iter().map(|x| self.cx.pool.fp_to_int(signed, IntRounding::TowardZero, from, *x, to_bits)).collect()
            }
            CastOp::SiToFp | CastOp::UiToFp => {
                let to = self.float_format(state, inst, &inst.ty)?;
                let signed = op == CastOp::SiToFp;
                v.iter().map(|x| self.cx.pool.int_to_fp(signed, to, *x)).collect()
            }
        };
        Ok(out)
    }
}
