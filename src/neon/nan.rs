//! AArch64 NaN rules with default-NaN off (the Linux FPCR): an operation
//! with a NaN operand returns that NaN, quieted; a signalling NaN takes
//! precedence over a quiet one, and the first operand over the second
//! (the Arm ARM's FPProcessNaNs). Kept apart from the rest of the FP layer
//! so an exact-NaN mode can take its AArch64 rules from here.

use crate::expr::{mask, BinOp, ExprId, ExprPool, FpFormat};

/// The quiet bit of `f` (the top fraction bit).
fn quiet_bit(f: FpFormat) -> u128 {
    1u128 << (f.significand_bits() - 2)
}

/// True when `x` is a signalling NaN (NaN with the quiet bit clear).
pub fn is_snan(p: &mut ExprPool, f: FpFormat, x: ExprId) -> ExprId {
    let nan = p.is_nan(f, x);
    let q = p.constant(f.width(), quiet_bit(f));
    let bit = p.bin(BinOp::And, x, q);
    let zero = p.constant(f.width(), 0);
    let clear = p.eq(bit, zero);
    p.bool_and(nan, clear)
}

/// True when `x` is a quiet NaN.
pub fn is_qnan(p: &mut ExprPool, f: FpFormat, x: ExprId) -> ExprId {
    let nan = p.is_nan(f, x);
    let s = is_snan(p, f, x);
    let not_s = p.not(s);
    p.bool_and(nan, not_s)
}

/// `x` with the quiet bit set (FPProcessNaN for one operand).
pub fn quieted(p: &mut ExprPool, f: FpFormat, x: ExprId) -> ExprId {
    let q = p.constant(f.width(), quiet_bit(f));
    p.or(x, q)
}

/// (any operand is NaN, the NaN the operation returns) for `ops` in
/// operand order: the first signalling NaN quieted, else the first quiet
/// NaN. The value is meaningful only where the condition holds.
pub fn process_nans(p: &mut ExprPool, f: FpFormat, ops: &[ExprId]) -> (ExprId, ExprId) {
    let mut any = p.bool_const(false);
    let mut value = p.constant(f.width(), mask(f.width()));
    // Built from the last operand backwards so the first one wins.
    for &x in ops.iter().rev() {
        let q = is_qnan(p, f, x);
        value = p.ite(q, x, value);
    }
    for &x in ops.iter().rev() {
        let s = is_snan(p, f, x);
        let qx = quieted(p, f, x);
        value = p.ite(s, qx, value);
    }
    for &x in ops {
        let n = p.is_nan(f, x);
        any = p.bool_or(any, n);
    }
    (any, value)
}

/// The default NaN (FPDefaultNaN): positive, quiet, zero payload.
pub fn default_nan(p: &mut ExprPool, f: FpFormat) -> ExprId {
    let exp = mask(f.exponent_bits()) << (f.significand_bits() - 1);
    p.constant(f.width(), exp | quiet_bit(f))
}
