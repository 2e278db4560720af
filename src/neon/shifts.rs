//! Shifts by a register (SSHL, USHL, SRSHL, URSHL, SQSHL, UQSHL, SQRSHL,
//! UQRSHL), SQSHLU, and the shift-and-insert SLI/SRI.
//!
//! A register shift amount is the signed low byte of the second operand's
//! lane: positive shifts left, negative shifts right. The Arm ARM computes
//! `(x + round) << shift` on unbounded integers; here a right shift by n
//! with rounding is `(x >> n) + bit n-1 of x`, the same value without a
//! wider word (shifts of n >= width give 0 or the sign, as in the ARM).

use super::int_arith::ones;
use super::rows::Op;
use super::Lowering;
use crate::expr::value::Value;
use crate::expr::{mask, BinOp, CmpOp, ExprId, ExprPool, Width};

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value]) -> Lowering {
    let n = a[0].len();
    let mut out = Value::new();
    for i in 0..n {
        let x = a[0][i];
        let y = *a[1].get(i).ok_or("second operand has fewer lanes")?;
        out.push(match op {
            Op::Shl { signed, saturating, rounding } => register_shift(p, signed, saturating, rounding, x, y),
            Op::SqShlU => {
                let w = p.width(x);
                let amount = p.as_const(y).ok_or("shift is not a constant")? as u32 & 0xff;
                if amount >= w {
                    return Err(format!("shift {amount} out of range for {w}-bit lanes"));
                }
                sqshlu(p, x, amount)
            }
            Op::ShiftInsert { left } => {
                let amount = p.as_const(a[2][0]).ok_or("shift is not a constant")? as u32;
                shift_insert(p, left, x, y, amount)?
            }
            _ => return Err("not a shift row".into()),
        });
    }
    Ok(out)
}

/// Right shift of `x` by `n` (same width as x; n >= width gives 0 or the
/// sign), plus bit n-1 of x when rounding.
pub fn shift_right(p: &mut ExprPool, signed: bool, rounding: bool, x: ExprId, n: ExprId) -> ExprId {
    let op = if signed { BinOp::AShr } else { BinOp::LShr };
    let shifted = p.bin(op, x, n);
    if !rounding {
        return shifted;
    }
    let w = p.width(x);
    let one = p.constant(w, 1);
    let n1 = p.sub(n, one);
    let below = p.bin(op, x, n1);
    let bit = p.and(below, one);
    // n = 0 has no rounding bit (n - 1 wraps to all ones: shifted out).
    let zero = p.constant(w, 0);
    let is_zero = p.eq(n, zero);
    let bit = p.ite(is_zero, zero, bit);
    p.add(shifted, bit)
}

fn register_shift(p: &mut ExprPool, signed: bool, saturating: bool, rounding: bool, x: ExprId, y: ExprId) -> ExprId {
    let w = p.width(x);
    let byte = p.extract(y, 0, 8);
    let zero8 = p.constant(8, 0);
    let right = p.cmp(CmpOp::Slt, byte, zero8);
    // Amounts as unsigned w-bit values: left 0..127, right 1..128.
    let left_amount = p.zext(byte, w);
    let neg = p.sub(zero8, byte);
    let right_amount = p.zext(neg, w);
    let r = shift_right(p, signed, rounding, x, right_amount);
    let shifted = p.bin(BinOp::Shl, x, left_amount);
    let l = if saturating {
        let back = p.bin(if signed { BinOp::AShr } else { BinOp::LShr }, shifted, left_amount);
        let lost = p.eq(back, x);
        let lost = p.not(lost);
        let sat = saturation_value(p, signed, x, w);
        p.ite(lost, sat, shifted)
    } else {
        shifted
    };
    p.ite(right, r, l)
}

/// The value a left shift saturates to: MAX, or MIN for a negative signed x.
fn saturation_value(p: &mut ExprPool, signed: bool, x: ExprId, w: Width) -> ExprId {
    if !signed {
        return ones(p, w);
    }
    let max = p.constant(w, mask(w - 1));
    let min = p.constant(w, 1u128 << (w - 1));
    let zero = p.constant(w, 0);
    let neg = p.cmp(CmpOp::Slt, x, zero);
    p.ite(neg, min, max)
}

/// SQSHLU: a negative input gives 0; a positive one saturates to the
/// unsigned maximum when bits are shifted out.
fn sqshlu(p: &mut ExprPool, x: ExprId, amount: u32) -> ExprId {
    let w = p.width(x);
    let n = p.constant(w, amount as u128);
    let zero = p.constant(w, 0);
    let shifted = p.bin(BinOp::Shl, x, n);
    let back = p.bin(BinOp::LShr, shifted, n);
    let same = p.eq(back, x);
    let max = ones(p, w);
    let r = p.ite(same, shifted, max);
    let neg = p.cmp(CmpOp::Slt, x, zero);
    p.ite(neg, zero, r)
}

/// SLI #n: (y << n) with the low n bits of x; SRI #n: (y >> n) with the
/// high n bits of x (n = width keeps x whole).
fn shift_insert(p: &mut ExprPool, left: bool, x: ExprId, y: ExprId, n: u32) -> Result<ExprId, String> {
    let w = p.width(x);
    let (ok, keep) = if left { (n < w, mask(n)) } else { (n >= 1 && n <= w, !(mask(w) >> n) & mask(w)) };
    if !ok {
        return Err(format!("shift {n} out of range for {w}-bit lanes"));
    }
    let amount = p.constant(w, n as u128);
    let moved = p.bin(if left { BinOp::Shl } else { BinOp::LShr }, y, amount);
    let keep = p.constant(w, keep);
    let kept = p.and(x, keep);
    Ok(p.or(moved, kept))
}
