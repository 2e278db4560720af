//! AArch64 NaN rules with default-NaN off (the Linux FPCR): an operation
//! with a NaN operand returns that NaN, quieted; a signalling NaN takes
//! precedence over a quiet one, and the first operand over the second
//! (the Arm ARM's FPProcessNaNs). The same rule as `--nan exact
//! --target aarch64` (expr/nan_rules.rs's AARCH64_DN_OFF): the tests below
//! keep the two in agreement, since a NEON intrinsic modelled here and the
//! plain IR operation clang emits for another must give the same NaN.

use crate::expr::nan_rules::{quiet_bit, AARCH64_DN_OFF};
use crate::expr::{mask, BinOp, ExprId, ExprPool, FpFormat};

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
    p.constant(f.width(), crate::expr::nan_rules::default_nan(&AARCH64_DN_OFF, f))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::nan_rules::nan_result;
    use crate::expr::{evaluate, Assignment, FBinOp, NanModel};

    /// Numbers, infinities, zeros, quiet and signalling NaNs of both signs.
    const SINGLES: [u128; 10] =
        [0x3f80_0000, 0xbf80_0000, 0x0000_0000, 0x8000_0000, 0x7f80_0000, 0x7fc0_0000, 0xffc0_1234, 0x7f80_0001, 0xff80_4321, 0x7fa0_0000];

    #[test]
    fn process_nans_is_the_exact_aarch64_rule() {
        let f = FpFormat::Single;
        let mut p = ExprPool::with_nan_model(NanModel::EXACT_AARCH64);
        for a in SINGLES {
            for b in SINGLES {
                let (x, y) = (p.constant(32, a), p.constant(32, b));
                let (any, nan) = process_nans(&mut p, f, &[x, y]);
                let asg = Assignment::default();
                if evaluate(&p, any, &asg) == 0 {
                    continue;
                }
                assert_eq!(evaluate(&p, nan, &asg), nan_result(&AARCH64_DN_OFF, f, &[a, b]), "{a:#x} {b:#x}");
                // FADD of a NaN operand is a plain `fadd` in the IR.
                let sum = p.fbin(FBinOp::Add, f, x, y);
                assert_eq!(evaluate(&p, sum, &asg), evaluate(&p, nan, &asg), "{a:#x} + {b:#x}");
            }
        }
    }

    #[test]
    fn fminnm_agrees_with_exact_minnum() {
        let f = FpFormat::Single;
        let mut p = ExprPool::with_nan_model(NanModel::EXACT_AARCH64);
        for a in SINGLES {
            for b in SINGLES {
                let (x, y) = (p.constant(32, a), p.constant(32, b));
                for max in [false, true] {
                    let neon = crate::neon::fp::min_max(&mut p, f, max, true, x, y);
                    let ir = p.fbin(if max { FBinOp::Max } else { FBinOp::Min }, f, x, y);
                    let asg = Assignment::default();
                    assert_eq!(evaluate(&p, neon, &asg), evaluate(&p, ir, &asg), "max={max} {a:#x} {b:#x}");
                }
            }
        }
    }
}
