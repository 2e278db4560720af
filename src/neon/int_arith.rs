//! Integer lane arithmetic: saturating add/subtract/abs/negate, halving
//! add/subtract (with rounding), absolute difference, wrapping ABS, min/max,
//! CLS, and the widening and doubling multiplies. Each result is computed
//! exactly in a wider bit-vector and then saturated or truncated, which is
//! how the Arm ARM states them (the operation on unbounded integers, then
//! SatQ or the low bits).

use super::rows::{Op, SatKind};
use super::Lowering;
use crate::expr::value::Value;
use crate::expr::{mask, BinOp, CmpOp, ExprId, ExprPool, Width};
use crate::ir::Type;
use crate::simd::lanes::{sat_signed, sat_unsigned};

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value]) -> Lowering {
    let n = a[0].len();
    let mut out = Value::new();
    for i in 0..n {
        let x = a[0][i];
        let y = if a.len() > 1 { a[1].get(i).copied() } else { None };
        let need_y = || y.ok_or_else(|| "second operand has fewer lanes".to_string());
        out.push(match op {
            Op::Sat(kind) => saturating(p, kind, x, y),
            Op::Halving { signed, sub, round } => halving(p, signed, sub, round, x, need_y()?),
            Op::AbsDiff { signed } => abs_diff(p, signed, x, need_y()?),
            Op::Abs => {
                let w = p.width(x);
                let zero = p.constant(w, 0);
                let neg = p.cmp(CmpOp::Slt, x, zero);
                let minus = p.sub(zero, x);
                p.ite(neg, minus, x)
            }
            Op::MinMax { signed, max } => {
                let y = need_y()?;
                let lt = p.cmp(if signed { CmpOp::Slt } else { CmpOp::Ult }, x, y);
                if max {
                    p.ite(lt, y, x)
                } else {
                    p.ite(lt, x, y)
                }
            }
            Op::Cls => cls(p, x),
            _ => return Err("not an integer arithmetic row".into()),
        });
    }
    Ok(out)
}

/// Sign- or zero-extends `x` to `w` bits.
pub fn ext(p: &mut ExprPool, signed: bool, x: ExprId, w: Width) -> ExprId {
    if signed {
        p.sext(x, w)
    } else {
        p.zext(x, w)
    }
}

fn saturating(p: &mut ExprPool, kind: SatKind, x: ExprId, y: Option<ExprId>) -> ExprId {
    let w = p.width(x);
    let wide = 2 * w;
    let y = y.unwrap_or(x);
    // (x extension, y extension, combine, result signed)
    let (sx, sy, result_signed) = match kind {
        SatKind::SqAdd | SatKind::SqSub | SatKind::SqAbs | SatKind::SqNeg => (true, true, true),
        SatKind::UqAdd | SatKind::UqSub => (false, false, false),
        SatKind::SuqAdd => (true, false, true),
        SatKind::UsqAdd => (false, true, false),
    };
    let xe = ext(p, sx, x, wide);
    let ye = ext(p, sy, y, wide);
    let zero = p.constant(wide, 0);
    let exact = match kind {
        SatKind::SqAdd | SatKind::UqAdd | SatKind::SuqAdd | SatKind::UsqAdd => p.add(xe, ye),
        SatKind::SqSub | SatKind::UqSub => p.sub(xe, ye),
        SatKind::SqNeg => p.sub(zero, xe),
        SatKind::SqAbs => {
            let neg = p.cmp(CmpOp::Slt, xe, zero);
            let minus = p.sub(zero, xe);
            p.ite(neg, minus, xe)
        }
    };
    if result_signed {
        sat_signed(p, exact, w)
    } else {
        sat_unsigned(p, exact, w)
    }
}

fn halving(p: &mut ExprPool, signed: bool, sub: bool, round: bool, x: ExprId, y: ExprId) -> ExprId {
    let w = p.width(x);
    let xe = ext(p, signed, x, w + 2);
    let ye = ext(p, signed, y, w + 2);
    let mut s = if sub { p.sub(xe, ye) } else { p.add(xe, ye) };
    if round {
        let one = p.constant(w + 2, 1);
        s = p.add(s, one);
    }
    // The exact value fits in w+2 bits, so an arithmetic shift halves it
    // (rounding toward minus infinity, as the Arm ARM's `>> 1` does).
    let one = p.constant(w + 2, 1);
    let h = p.bin(BinOp::AShr, s, one);
    p.trunc(h, w)
}

fn abs_diff(p: &mut ExprPool, signed: bool, x: ExprId, y: ExprId) -> ExprId {
    let w = p.width(x);
    let xe = ext(p, signed, x, w + 1);
    let ye = ext(p, signed, y, w + 1);
    let lt = p.cmp(CmpOp::Slt, xe, ye);
    let d1 = p.sub(ye, xe);
    let d2 = p.sub(xe, ye);
    let d = p.ite(lt, d1, d2);
    p.trunc(d, w)
}

/// CLS: the number of bits below the sign bit equal to it. With
/// y = x XOR (x >> 1) (arithmetic), bit k of y is set where bits k and k+1
/// of x differ, so the count is the position of the highest set bit of y
/// below the sign, counted from the top.
fn cls(p: &mut ExprPool, x: ExprId) -> ExprId {
    let w = p.width(x);
    let one = p.constant(w, 1);
    let sh = p.bin(BinOp::AShr, x, one);
    let y = p.xor(x, sh);
    let mut count = p.constant(w, (w - 1) as u128);
    for k in 0..w - 1 {
        let bit = p.extract(y, k, 1);
        let here = p.constant(w, (w - 2 - k) as u128);
        count = p.ite(bit, here, count);
    }
    count
}

/// SMULL/UMULL, SQDMULL, SQDMULH/SQRDMULH.
pub fn lower_mul(p: &mut ExprPool, op: Op, a: &[Value], ret: &Type) -> Lowering {
    let n = ret.lanes() as usize;
    let rw = ret.scalar_bits();
    let lane_of_b = match op {
        Op::SqDMulH { lane: true, .. } => Some(p.as_const(a[2][0]).ok_or("lane number is not a constant")? as usize),
        _ => None,
    };
    let mut out = Value::new();
    for i in 0..n {
        let x = *a[0].get(i).ok_or("first operand has fewer lanes than the result")?;
        let y = match lane_of_b {
            Some(l) => *a[1].get(l).ok_or("lane number out of range")?,
            None => *a[1].get(i).ok_or("second operand has fewer lanes than the result")?,
        };
        let w = p.width(x);
        out.push(match op {
            Op::MulLong { signed } => {
                let xe = ext(p, signed, x, rw);
                let ye = ext(p, signed, y, rw);
                p.mul(xe, ye)
            }
            Op::SqDMulL => {
                // 2ab fits in 2w+1 bits; only MIN * MIN saturates.
                let wide = 2 * w + 2;
                let prod = doubled_product(p, x, y, wide);
                sat_signed(p, prod, rw)
            }
            Op::SqDMulH { round, .. } => {
                let wide = 2 * w + 2;
                let mut prod = doubled_product(p, x, y, wide);
                if round {
                    let half = p.constant(wide, 1u128 << (w - 1));
                    prod = p.add(prod, half);
                }
                let sh = p.constant(wide, w as u128);
                let high = p.bin(BinOp::AShr, prod, sh);
                sat_signed(p, high, w)
            }
            _ => return Err("not a multiply row".into()),
        });
    }
    Ok(out)
}

/// 2 * x * y of two signed lanes, exactly, in `wide` bits.
fn doubled_product(p: &mut ExprPool, x: ExprId, y: ExprId, wide: Width) -> ExprId {
    let xe = p.sext(x, wide);
    let ye = p.sext(y, wide);
    let prod = p.mul(xe, ye);
    p.add(prod, prod)
}

/// The all-ones value of `w` bits.
pub fn ones(p: &mut ExprPool, w: Width) -> ExprId {
    p.constant(w, mask(w))
}
