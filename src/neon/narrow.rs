//! Narrowing: SQXTN/UQXTN/SQXTUN (saturate to half width), the right
//! shifts by a constant that narrow (RSHRN, SQSHRN, SQRSHRN, UQSHRN,
//! UQRSHRN, SQSHRUN, SQRSHRUN), and RADDHN/RSUBHN.

use super::rows::{Narrowing, Op};
use super::shifts::shift_right;
use super::Lowering;
use crate::expr::value::Value;
use crate::expr::{mask, BinOp, CmpOp, ExprId, ExprPool, Width};
use crate::ir::Type;
use crate::simd::lanes::{sat_signed, sat_unsigned};

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value], ret: &Type) -> Lowering {
    let rw = ret.scalar_bits();
    let mut out = Value::new();
    for (i, &x) in a[0].iter().enumerate() {
        let w = p.width(x);
        if rw >= w {
            return Err(format!("result lanes of {rw} bits are not narrower than {w}"));
        }
        out.push(match op {
            Op::NarrowSat(k) => narrow(p, k, x, rw),
            Op::NarrowShift { signed, round, narrowing } => {
                let n = p.as_const(a[1][0]).ok_or("shift is not a constant")? as u32;
                if n < 1 || n > rw {
                    return Err(format!("shift {n} out of range 1..{rw}"));
                }
                let amount = p.constant(w, n as u128);
                let shifted = shift_right(p, signed, round, x, amount);
                narrow(p, narrowing, shifted, rw)
            }
            Op::HighNarrow { sub } => {
                let y = *a[1].get(i).ok_or("second operand has fewer lanes")?;
                let s = if sub { p.sub(x, y) } else { p.add(x, y) };
                let half = p.constant(w, 1u128 << (rw - 1));
                let s = p.add(s, half);
                let sh = p.constant(w, rw as u128);
                let high = p.bin(BinOp::LShr, s, sh);
                p.trunc(high, rw)
            }
            _ => return Err("not a narrowing row".into()),
        });
    }
    Ok(out)
}

/// Narrows `x` to `to` bits as `k` says.
fn narrow(p: &mut ExprPool, k: Narrowing, x: ExprId, to: Width) -> ExprId {
    match k {
        Narrowing::Truncate => p.trunc(x, to),
        Narrowing::SignedToSigned => sat_signed(p, x, to),
        Narrowing::SignedToUnsigned => sat_unsigned(p, x, to),
        Narrowing::UnsignedToUnsigned => {
            let w = p.width(x);
            let max = p.constant(w, mask(to));
            let above = p.cmp(CmpOp::Ult, max, x);
            let c = p.ite(above, max, x);
            p.trunc(c, to)
        }
    }
}
