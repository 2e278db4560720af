//! Casts. Bit casts re-slice the lanes of a value without ever building an
//! expression wider than one lane: each destination lane is the
//! concatenation of the pieces of source lanes it covers.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::exec::engine::value::{map1, Value};
use crate::exec::ops::int_ops::Exec;
use crate::expr::{ExprId, ExprPool, IntRounding};
use crate::ir::{CastOp, Function, Inst, Operand};

impl<'m> Executor<'m> {
    pub(in crate::exec) fn exec_cast(&mut self, state: &mut State, func: &Function, inst: &Inst, op: CastOp, value: &Operand) -> Exec {
        let src_t = self.operand_type(func, value);
        let v = self.operand(state, func, value);
        let to_bits = inst.ty.scalar_bits();
        let p = &mut self.pool;
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
                v.iter().map(|x| self.pool.fp_convert(from, to, *x)).collect()
            }
            CastOp::FpToSi | CastOp::FpToUi => {
                let from = self.float_format(state, inst, &src_t)?;
                let signed = op == CastOp::FpToSi;
                v.iter().map(|x| self.pool.fp_to_int(signed, IntRounding::TowardZero, from, *x, to_bits)).collect()
            }
            CastOp::SiToFp | CastOp::UiToFp => {
                let to = self.float_format(state, inst, &inst.ty)?;
                let signed = op == CastOp::SiToFp;
                v.iter().map(|x| self.pool.int_to_fp(signed, to, *x)).collect()
            }
        };
        Ok(out)
    }
}

/// Zero-extends or truncates to `w` bits.
pub fn resize(p: &mut ExprPool, x: ExprId, w: u32) -> ExprId {
    let have = p.width(x);
    if have >= w {
        p.trunc(x, w)
    } else {
        p.zext(x, w)
    }
}

/// Re-slices `lanes` (lane 0 in the lowest bits) into lanes of `to_bits`.
pub fn relane(p: &mut ExprPool, lanes: &[ExprId], to_bits: u32) -> Value {
    let total: u32 = lanes.iter().map(|l| p.width(*l)).sum();
    if lanes.iter().all(|l| p.width(*l) == to_bits) {
        return lanes.iter().copied().collect();
    }
    let mut out = Value::new();
    let mut start = 0;
    while start + to_bits <= total {
        out.push(bit_range(p, lanes, start, to_bits));
        start += to_bits;
    }
    out
}

/// Bits `[start, start + width)` of the concatenation of `lanes`.
pub fn bit_range(p: &mut ExprPool, lanes: &[ExprId], start: u32, width: u32) -> ExprId {
    let mut pieces: Vec<ExprId> = Vec::new(); // low piece first
    let mut lane_lo = 0;
    for l in lanes {
        let w = p.width(*l);
        let lane_hi = lane_lo + w;
        let lo = start.max(lane_lo);
        let hi = (start + width).min(lane_hi);
        if lo < hi {
            pieces.push(p.extract(*l, lo - lane_lo, hi - lo));
        }
        lane_lo = lane_hi;
        if lane_lo >= start + width {
            break;
        }
    }
    let mut acc = pieces[0];
    for piece in &pieces[1..] {
        acc = p.concat(*piece, acc);
    }
    acc
}
