//! Integer multiply and difference families: PAVG, PMADDWD, PMADDUBSW,
//! PMULH(U)W, PMULHRSW, PSADBW, MPSADBW, PSIGN.

use super::lanes::{abs_diff, imm, per_128, sat_signed};
use super::rows::Op;
use super::Lowering;
use crate::expr::value::Value;
use crate::expr::{BinOp, CmpOp, ExprId, ExprPool};

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value]) -> Lowering {
    let (x, y) = (&a[0], &a[1]);
    let w = p.width(x[0]);
    let out: Value = match op {
        // (a + b + 1) >> 1 without overflow: computed one bit wider.
        Op::Avg => (0..x.len()).map(|i| avg(p, x[i], y[i], w)).collect(),
        Op::MaddWd => (0..x.len() / 2)
            .map(|i| {
                let lo = widened_mul(p, x[2 * i], y[2 * i], true, true, 2 * w);
                let hi = widened_mul(p, x[2 * i + 1], y[2 * i + 1], true, true, 2 * w);
                // Only (-2^15)^2 * 2 overflows; it wraps like the hardware.
                p.add(lo, hi)
            })
            .collect(),
        Op::MaddUbSw => (0..x.len() / 2)
            .map(|i| {
                // First operand unsigned bytes, second signed; the 17-bit sum saturates.
                let lo = widened_mul(p, x[2 * i], y[2 * i], false, true, 32);
                let hi = widened_mul(p, x[2 * i + 1], y[2 * i + 1], false, true, 32);
                let s = p.add(lo, hi);
                sat_signed(p, s, 2 * w)
            })
            .collect(),
        Op::MulHi { signed } => (0..x.len())
            .map(|i| {
                let m = widened_mul(p, x[i], y[i], signed, signed, 2 * w);
                p.extract(m, w, w)
            })
            .collect(),
        Op::MulHrs => (0..x.len()).map(|i| mul_hrs(p, x[i], y[i])).collect(),
        Op::Sad => sad(p, x, y),
        Op::Mpsad => mpsad(p, x, y, imm(p, &a[2])),
        Op::Sign => (0..x.len()).map(|i| sign(p, x[i], y[i])).collect(),
        _ => return Err("not a multiply row".into()),
    };
    Ok(out)
}

fn avg(p: &mut ExprPool, a: ExprId, b: ExprId, w: u32) -> ExprId {
    let (a, b) = (p.zext(a, w + 1), p.zext(b, w + 1));
    let one = p.constant(w + 1, 1);
    let s = p.add(a, b);
    let s = p.add(s, one);
    p.extract(s, 1, w)
}

/// Product of two lanes extended (signed or not) to `width` bits.
fn widened_mul(p: &mut ExprPool, a: ExprId, b: ExprId, sa: bool, sb: bool, width: u32) -> ExprId {
    let a = if sa { p.sext(a, width) } else { p.zext(a, width) };
    let b = if sb { p.sext(b, width) } else { p.zext(b, width) };
    p.mul(a, b)
}

/// ((a*b >> 14) + 1) >> 1, low 16 bits.
fn mul_hrs(p: &mut ExprPool, a: ExprId, b: ExprId) -> ExprId {
    let m = widened_mul(p, a, b, true, true, 32);
    let c14 = p.constant(32, 14);
    let t = p.bin(BinOp::AShr, m, c14);
    let one = p.constant(32, 1);
    let t = p.add(t, one);
    p.extract(t, 1, 16)
}

/// Sum of |a-b| over each group of 8 bytes, zero-extended to 64 bits.
fn sad(p: &mut ExprPool, x: &[ExprId], y: &[ExprId]) -> Value {
    (0..x.len() / 8)
        .map(|g| {
            let mut acc = p.constant(16, 0);
            for i in 8 * g..8 * g + 8 {
                let d = abs_diff(p, x[i], y[i], 16);
                acc = p.add(acc, d);
            }
            p.zext(acc, 64)
        })
        .collect()
}

/// MPSADBW per 128-bit half: eight sums of |a[o+j+k] - b[q+k]|, k < 4,
/// with o = 4*imm[2] and q = 4*imm[1:0] (the upper half uses imm[5:3]).
fn mpsad(p: &mut ExprPool, x: &[ExprId], y: &[ExprId], m: u32) -> Value {
    let per = per_128(p, x);
    let mut out = Value::new();
    for (half, base) in (0..x.len()).step_by(per).enumerate() {
        let sel = m >> (3 * half);
        let (o, q) = (base + 4 * ((sel >> 2) & 1) as usize, base + 4 * (sel & 3) as usize);
        for j in 0..8 {
            let mut acc = p.constant(16, 0);
            for k in 0..4 {
                let d = abs_diff(p, x[o + j + k], y[q + k], 16);
                acc = p.add(acc, d);
            }
            out.push(acc);
        }
    }
    out
}

/// PSIGN: -a where b < 0, 0 where b == 0, a otherwise.
fn sign(p: &mut ExprPool, a: ExprId, b: ExprId) -> ExprId {
    let w = p.width(a);
    let zero = p.constant(w, 0);
    let neg = p.cmp(CmpOp::Slt, b, zero);
    let is_zero = p.eq(b, zero);
    let minus = p.sub(zero, a);
    let r = p.ite(is_zero, zero, a);
    p.ite(neg, minus, r)
}
