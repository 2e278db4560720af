//! A clamp of a signed value to `[0, 2^n - 1]` written with a mask test,
//! `(v & ~(2^n - 1)) == 0 ? v : (v < 0 ? 0 : 2^n - 1)` (a codec's
//! `clip_8b`), respelt as the two comparisons a saturating pack and most
//! scalar code use, `v < 0 ? 0 : (2^n - 1 < v ? 2^n - 1 : v)`, so that the
//! integer normal form meets both. The two agree everywhere: the mask test
//! holds exactly when `0 <= v <= 2^n - 1` (read signed), and outside that
//! both give 0 below and `2^n - 1` above. A clamp cut to its low bits
//! with the upper test outside (C's `clip_pixel`) is respelt with the
//! lower test outside, the nesting a saturating pack takes.

use crate::expr::{mask, BinOp, CmpOp, Expr, ExprId, ExprPool};

/// The two-comparison spelling of the select `c ? t : e`, when it is a
/// clamp written with a mask test.
pub(super) fn clamp_by_comparisons(pool: &mut ExprPool, c: ExprId, t: ExprId, e: ExprId) -> Option<ExprId> {
    let Expr::Cmp(CmpOp::Eq, masked, zero) = *pool.get(c) else { return None };
    if pool.as_const(zero) != Some(0) {
        return None;
    }
    let Expr::Bin(BinOp::And, x, y) = *pool.get(masked) else { return None };
    let (v, high) = match (pool.as_const(x), pool.as_const(y)) {
        (None, Some(m)) => (x, m),
        (Some(m), None) => (y, m),
        _ => return None,
    };
    let w = pool.width(v);
    // The mask is every bit from n up, 1 <= n < w.
    let top = (!high) & mask(w);
    if v != t || top == 0 || top == mask(w) || (top & (top + 1)) != 0 {
        return None;
    }
    let Expr::Ite(negative, lo, hi) = *pool.get(e) else { return None };
    let Expr::Cmp(CmpOp::Slt, v2, zero) = *pool.get(negative) else { return None };
    if v2 != v || pool.as_const(zero) != Some(0) || pool.as_const(lo) != Some(0) || pool.as_const(hi) != Some(top) {
        return None;
    }
    let above = pool.cmp(CmpOp::Slt, hi, v);
    let upper = pool.ite(above, hi, v);
    Some(pool.ite(negative, lo, upper))
}

/// A clamp whose upper test is outside, `hi < v ? X : (v < lo ? Y : Z)`
/// (C's `clip_pixel`, its byte taken afterwards), respelt with the lower
/// test outside, `v < lo ? Y : (hi < v ? X : Z)` (the nesting a saturating
/// pack and `clamp_by_comparisons` give), so that the integer normal form
/// meets both. With constant bounds `lo <= hi` (in the comparisons'
/// reading) the two tests never hold together, so the order in which they
/// are asked does not matter, whatever X, Y and Z are. Only for sides
/// narrower than `v` (a clamp whose low bits are kept): a clamp on `v`'s
/// own width is read as `min(hi, max(lo, v))`, the shape SIMD code's
/// min/max instructions take, and must stay so.
pub(super) fn clamp_lower_test_outside(pool: &mut ExprPool, c: ExprId, t: ExprId, e: ExprId) -> Option<ExprId> {
    let Expr::Cmp(op @ (CmpOp::Slt | CmpOp::Ult), hi, v) = *pool.get(c) else { return None };
    let Expr::Ite(below, y, z) = *pool.get(e) else { return None };
    let Expr::Cmp(op2, v2, lo) = *pool.get(below) else { return None };
    if op2 != op || v2 != v || pool.width(t) >= pool.width(v) {
        return None;
    }
    let (h, l) = (pool.as_const(hi)?, pool.as_const(lo)?);
    let w = pool.width(v);
    let ordered = match op {
        CmpOp::Slt => sign_extended(l, w) <= sign_extended(h, w),
        _ => l <= h,
    };
    if !ordered {
        return None;
    }
    let upper = pool.ite(c, t, z);
    Some(pool.ite(below, y, upper))
}

/// `x` of `w` bits read signed.
fn sign_extended(x: u128, w: u32) -> i128 {
    let shift = 128 - w;
    ((x << shift) as i128) >> shift
}
