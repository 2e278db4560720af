//! The promises the optimiser writes on casts (README, "Undefined
//! behaviour"): `trunc nuw` (no set bit is dropped), `trunc nsw` (the
//! value fits the narrower type as a signed number), `zext nneg` and
//! `uitofp nneg` (the operand is not negative). clang -O2 writes them from
//! facts it derived, and later passes lean on them (a `zext nneg` may
//! become a `sext`), so where one is broken the result is poison, as for
//! the flags of integer operations (undefined.rs): the lanes are marked,
//! and a use that they decide is a `broken-promise` finding.
//!
//! Most casts are settled without a query: the operand's structure or its
//! interval range keeps it within the promise (a clamped value truncated,
//! a loop index widened).

use crate::exec::engine::executor::Executor;
use crate::exec::ops::operand_ranges::{signed_bits, unsigned_max};
use crate::expr::value::Value;
use crate::expr::{CmpOp, ExprId, ExprPool};
use crate::ir::{CastOp, Inst, PoisonFlags};
use crate::ranges::{Range, RangeAnalysis};
use crate::report::UndefinedOperation;

impl<'m> Executor<'m> {
    /// Marks the lanes of a cast's result `r` (of operand `v`) whose
    /// operand breaks a promise of `flags`.
    pub(in crate::exec) fn cast_promise_poison(&mut self, inst: &Inst, op: CastOp, flags: PoisonFlags, v: &Value, r: &Value) {
        let w = v.first().map_or(0, |l| self.cx.pool.width(*l));
        if w == 0 {
            return;
        }
        let to = inst.ty.scalar_bits();
        let promises: [(bool, Promise); 3] = [
            (op == CastOp::Trunc && flags.nuw, Promise::NoSetBitDropped(to)),
            (op == CastOp::Trunc && flags.nsw, Promise::FitsSigned(to)),
            (matches!(op, CastOp::ZExt | CastOp::UiToFp) && flags.nneg, Promise::NotNegative),
        ];
        for (_, promise) in promises.into_iter().filter(|(on, _)| *on) {
            let (p, ranges) = (&mut self.cx.pool, &mut self.shadow.operand_ranges);
            let conds: Vec<ExprId> = v.iter().map(|x| promise.broken(p, ranges, *x)).collect();
            let what = promise.describe(op, w);
            self.record_poison(inst.loc, UndefinedOperation::BrokenPromise, what, &conds, r);
        }
    }
}

/// One promise of a cast's flags.
#[derive(Copy, Clone)]
enum Promise {
    /// `trunc nuw` to this many bits.
    NoSetBitDropped(u32),
    /// `trunc nsw` to this many bits.
    FitsSigned(u32),
    /// `zext nneg`, `uitofp nneg`.
    NotNegative,
}

impl Promise {
    /// Whether `x` breaks the promise; false without a query when its
    /// structure or range keeps it.
    fn broken(self, p: &mut ExprPool, ranges: &mut RangeAnalysis, x: ExprId) -> ExprId {
        let w = p.width(x);
        if let Some(c) = p.as_const(x) {
            return p.bool_const(!self.kept_by(c, w));
        }
        let range = Range::tracked(w).then(|| ranges.range(p, x));
        match self {
            Promise::NoSetBitDropped(to) => {
                let top = crate::expr::mask(to);
                if unsigned_max(p, x) <= top || range.is_some_and(|r| r.unsigned.hi <= top as i128) {
                    return p.bool_const(false);
                }
                let limit = p.constant(w, top);
                p.cmp(CmpOp::Ult, limit, x)
            }
            Promise::FitsSigned(to) => {
                let (lo, hi) = (-(1i128 << (to - 1)), (1i128 << (to - 1)) - 1);
                if signed_bits(p, x) <= to || range.is_some_and(|r| r.signed.lo >= lo && r.signed.hi <= hi) {
                    return p.bool_const(false);
                }
                // Comparisons with the bounds, as a C clamp writes them
                // (`s > INT32_MAX ? INT32_MAX : (int32_t)s` speculates the
                // cast): the guard then contradicts the broken promise at
                // once. Only the bounds the range can pass are tested.
                let mut out = p.bool_const(false);
                if range.is_none_or(|r| r.signed.hi > hi) {
                    let c = p.constant(w, crate::expr::mask(w) & hi as u128);
                    let above = p.cmp(CmpOp::Slt, c, x);
                    out = p.or(out, above);
                }
                if range.is_none_or(|r| r.signed.lo < lo) {
                    let c = p.constant(w, crate::expr::mask(w) & lo as u128);
                    let below = p.cmp(CmpOp::Slt, x, c);
                    out = p.or(out, below);
                }
                out
            }
            Promise::NotNegative => {
                if unsigned_max(p, x) < 1u128 << (w - 1) || range.is_some_and(|r| r.signed.lo >= 0) {
                    return p.bool_const(false);
                }
                let zero = p.constant(w, 0);
                p.cmp(CmpOp::Slt, x, zero)
            }
        }
    }

    /// Whether the constant `c` of `w` bits keeps the promise.
    fn kept_by(self, c: u128, w: u32) -> bool {
        match self {
            Promise::NoSetBitDropped(to) => c <= crate::expr::mask(to),
            Promise::FitsSigned(to) => {
                let s = crate::expr::to_signed(c, w);
                s >= -(1i128 << (to - 1)) && s < 1i128 << (to - 1)
            }
            Promise::NotNegative => crate::expr::to_signed(c, w) >= 0,
        }
    }

    /// What breaking it means, for the finding's message.
    fn describe(self, op: CastOp, w: u32) -> String {
        match self {
            Promise::NoSetBitDropped(to) => format!(
                "a truncation of a {w}-bit value to {to} bits the compiler marked `nuw` (no set bit is dropped) drops a set bit"
            ),
            Promise::FitsSigned(to) => format!(
                "a truncation of a {w}-bit value to {to} bits the compiler marked `nsw` (the value fits as a signed number) changes its signed value"
            ),
            Promise::NotNegative => {
                let cast = if op == CastOp::UiToFp { "an unsigned conversion to float" } else { "a zero extension" };
                format!("{cast} of a {w}-bit value the compiler marked `nneg` (it is never negative) gets a negative value")
            }
        }
    }
}

/// Whether a constant keeps the promises of a cast's `flags` (`to` bits
/// for a truncation): the concrete tier hands a broken one to the
/// general step, which marks the poison.
pub(crate) fn cast_flags_kept(op: CastOp, flags: PoisonFlags, w: u32, to: u32, c: u128) -> bool {
    let trunc = op == CastOp::Trunc;
    (!(trunc && flags.nuw) || Promise::NoSetBitDropped(to).kept_by(c, w))
        && (!(trunc && flags.nsw) || Promise::FitsSigned(to).kept_by(c, w))
        && (!(matches!(op, CastOp::ZExt | CastOp::UiToFp) && flags.nneg) || Promise::NotNegative.kept_by(c, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_keep_or_break_the_promises() {
        let t = PoisonFlags { nuw: true, ..PoisonFlags::default() };
        assert!(cast_flags_kept(CastOp::Trunc, t, 32, 16, 0xffff));
        assert!(!cast_flags_kept(CastOp::Trunc, t, 32, 16, 0x1_0000));
        let s = PoisonFlags { nsw: true, ..PoisonFlags::default() };
        assert!(cast_flags_kept(CastOp::Trunc, s, 32, 16, 0xffff_8000));
        assert!(!cast_flags_kept(CastOp::Trunc, s, 32, 16, 0x8000));
        assert!(!cast_flags_kept(CastOp::Trunc, s, 32, 16, 0xffff_7fff));
        let n = PoisonFlags { nneg: true, ..PoisonFlags::default() };
        assert!(cast_flags_kept(CastOp::ZExt, n, 32, 64, 0x7fff_ffff));
        assert!(!cast_flags_kept(CastOp::ZExt, n, 32, 64, 0x8000_0000));
        assert!(!cast_flags_kept(CastOp::UiToFp, n, 8, 32, 0x80));
        assert!(cast_flags_kept(CastOp::SExt, n, 8, 32, 0x80), "nneg means nothing on sext");
    }

    /// `s > INT32_MAX ? INT32_MAX : (int32_t)s` at -O2: a select over a
    /// speculated `trunc nsw`. The poison its guard leaves out folds away
    /// without a query (the broken promise is the guard itself).
    #[test]
    fn a_clamp_guards_its_speculated_truncation_without_a_query() {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 4);
        let (a, b) = (p.input_word(arr, 0, 16), p.input_word(arr, 2, 16));
        let (a, b) = (p.sext(a, 64), p.sext(b, 64));
        let product = p.mul(a, b);
        let s = p.add(product, product);
        let max = p.constant(64, i32::MAX as u128);
        let guard = p.cmp(CmpOp::Slt, max, s);
        let broken = Promise::FitsSigned(32).broken(&mut p, &mut RangeAnalysis::new(), s);
        assert_eq!(broken, guard, "only the upper bound can be passed, tested as the guard tests it");
        let mask = p.sext(broken, 32);
        let zero = p.constant(32, 0);
        let chosen = p.ite(guard, zero, mask);
        assert_eq!(p.as_const(chosen), Some(0));
    }

    #[test]
    fn narrow_operands_need_no_query() {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 4);
        let byte = p.input_word(arr, 0, 8);
        let wide = p.zext(byte, 32);
        let mut ranges = RangeAnalysis::new();
        for promise in [Promise::NoSetBitDropped(16), Promise::FitsSigned(16), Promise::NotNegative] {
            let c = promise.broken(&mut p, &mut ranges, wide);
            assert_eq!(p.as_const(c), Some(0));
        }
        let full = p.input_word(arr, 0, 32);
        for promise in [Promise::NoSetBitDropped(16), Promise::FitsSigned(16), Promise::NotNegative] {
            let c = promise.broken(&mut p, &mut ranges, full);
            assert_eq!(p.as_const(c), None, "a full-width operand can break it");
        }
    }
}
