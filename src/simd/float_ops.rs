//! Floating-point lane operations: MINPS/MAXPS, RCP/RSQRT, ROUND, CMPSS,
//! COMISS, ADDSUB, DPPS and FMADDSUB.

use super::lanes::{imm, mask_of};
use super::rows::Op;
use super::Lowering;
use crate::expr::value::{scalar, Value};
use crate::expr::{CmpOp, Estimate, EstimateKind, ExprId, ExprPool, FBinOp, FUnOp, FpFormat, Outcomes};

/// CMPPS predicates 0..15 as outcome sets (16..31 repeat them with the
/// other signalling behaviour, which does not change the value).
const CMP_PREDICATES: [u8; 16] = [2, 1, 3, 8, 13, 14, 12, 7, 10, 9, 11, 0, 5, 6, 4, 15];

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value]) -> Lowering {
    match op {
        Op::MinMax { max, f, scalar } => Ok(lanewise(p, a, scalar, |p, i| min_max(p, max, f, a[0][i], a[1][i]))),
        Op::Approx { scalar, rsqrt } => Ok(lanewise(p, a, scalar, |p, i| approximate(p, rsqrt, a[0][i]))),
        Op::Round { f, scalar } => {
            let mode = imm(p, if scalar { &a[2] } else { &a[1] });
            let src = if scalar { 1 } else { 0 };
            Ok(lanewise(p, a, scalar, |p, i| round(p, f, mode, a[src][i])))
        }
        Op::CmpScalar { f } => {
            let set = Outcomes(CMP_PREDICATES[(imm(p, &a[2]) & 15) as usize]);
            Ok(lanewise(p, a, true, |p, i| {
                let c = p.fcmp(set, f, a[0][i], a[1][i]);
                mask_of(p, c, f.width())
            }))
        }
        Op::Comi { f, outcomes } => {
            let c = p.fcmp(Outcomes(outcomes), f, a[0][0], a[1][0]);
            Ok(scalar(p.zext(c, 32)))
        }
        Op::AddSub { f } => Ok(lanewise(p, a, false, |p, i| {
            let op = if i % 2 == 0 { FBinOp::Sub } else { FBinOp::Add };
            p.fbin(op, f, a[0][i], a[1][i])
        })),
        Op::FmAddSub { f } => Ok(lanewise(p, a, false, |p, i| {
            // Even lanes subtract: a*b - c, with one rounding.
            let c = if i % 2 == 0 { p.fneg(f, a[2][i]) } else { a[2][i] };
            p.fma(f, a[0][i], a[1][i], c)
        })),
        Op::Dp { f } => Ok(dot_product(p, f, a)),
        _ => Err("not a floating-point row".into()),
    }
}

/// Applies `g` to every lane (or only lane 0, the rest from operand 0).
fn lanewise(p: &mut ExprPool, a: &[Value], scalar: bool, mut g: impl FnMut(&mut ExprPool, usize) -> ExprId) -> Value {
    let n = if scalar { 1 } else { a[0].len() };
    let mut out: Value = a[0].clone();
    for (i, lane) in out.iter_mut().enumerate().take(n) {
        *lane = g(p, i);
    }
    out
}

/// RCPPS/RSQRTPS of one single-precision lane. For a normal input the
/// result is any value Intel documents (SDM, RCPPS/RSQRTPS): relative
/// error at most 1.5 * 2^-12, that is `r * x` (RCP) or `r * r * x` (RSQRT)
/// within `1 +- e` (`(1 +- e)^2`), e = 3 * 2^-13; a reciprocal that would
/// be tiny is flushed to the zero of the operand's sign: always for
/// magnitudes from 1.00000000000110000000001b * 2^126, possibly from
/// 1.11111111110100000000000b * 2^125. The estimate is a fresh value taken
/// where it meets that bound (an integer test on the significands and
/// exponents, with no division in it) and a conforming value otherwise
/// (the rounded exact result, or the flushed zero), so every choice is one
/// some conforming CPU may give, and every such value is a choice. An
/// exhaustive sweep of every float on this machine's CPU falls inside.
/// The special inputs are exact, as the hardware is (measured on the CPU):
/// a zero or a subnormal (read as zero) gives the infinity of its sign, an
/// infinity gives the zero of its sign (RSQRT of -inf: the default NaN), a
/// NaN comes out quieted, and RSQRT of a negative number is the default
/// NaN. Under `--nan equal` every NaN produced is the canonical one.
fn approximate(p: &mut ExprPool, rsqrt: bool, x: ExprId) -> ExprId {
    let f = FpFormat::Single;
    let estimate = p.approximation(32);
    let c = |p: &mut ExprPool, v: u128| p.constant(32, v);
    let (sign_mask, exp_mask, abs_mask, inf) = (c(p, 0x8000_0000), c(p, 0x7f80_0000), c(p, 0x7fff_ffff), c(p, 0x7f80_0000));
    let zero = c(p, 0);
    let sign = p.and(x, sign_mask);
    let exponent = p.and(x, exp_mask);
    let magnitude = p.and(x, abs_mask);
    let zero_or_subnormal = p.eq(exponent, zero);
    let infinite = p.eq(magnitude, inf);
    let nan = p.is_nan(f, x);
    let (quieted, default_nan) = match p.nan_model() {
        crate::expr::NanModel::Exact(rules) => {
            let q = c(p, crate::expr::nan_rules::quiet_bit(f));
            (p.or(x, q), c(p, crate::expr::nan_rules::default_nan(rules, f)))
        }
        crate::expr::NanModel::Canonical => (c(p, crate::expr::canonical_nan(f)), c(p, crate::expr::canonical_nan(f))),
    };
    let signed_inf = p.or(sign, inf);
    let one = c(p, 0x3f80_0000);
    let mut r;
    if rsqrt {
        let root = p.fun(FUnOp::Sqrt, f, x);
        let rounded = p.fbin(FBinOp::Div, f, one, root);
        let ok = rsqrt_within_bound(p, x, estimate);
        r = p.ite(ok, estimate, rounded);
        let positive = p.eq(sign, zero);
        let negative = p.not(positive);
        r = p.ite(infinite, zero, r);
        r = p.ite(negative, default_nan, r);
    } else {
        let rounded = p.fbin(FBinOp::Div, f, one, x);
        let ok = rcp_within_bound(p, x, estimate);
        // Above this magnitude the reciprocal may be tiny, and flushed.
        let may_flush = c(p, 0x7e7f_e800);
        let flushable = p.cmp(CmpOp::Ult, may_flush, magnitude);
        let fallback = p.ite(flushable, sign, rounded);
        r = p.ite(ok, estimate, fallback);
        r = p.ite(infinite, sign, r);
    }
    r = p.ite(zero_or_subnormal, signed_inf, r);
    let lane = p.ite(nan, quieted, r);
    // The record lets an analysis use the documented bound directly
    // (expr/estimate.rs); a lane that folded needs none.
    let fresh = match *p.get(estimate) {
        crate::expr::Expr::Fresh { id, .. } => Some(id),
        _ => None,
    };
    if let (None, Some(fresh)) = (p.as_const(lane), fresh) {
        let kind = if rsqrt { EstimateKind::ReciprocalSqrt } else { EstimateKind::Reciprocal };
        p.note_estimate(lane, Estimate { kind, input: x, fresh: Some(fresh) });
    }
    lane
}

/// The 8-bit biased exponent and the 24-bit significand (hidden bit set)
/// of a single-precision value, the significand widened to `width`.
fn exponent_and_significand(p: &mut ExprPool, v: ExprId, width: u32) -> (ExprId, ExprId) {
    let e = p.extract(v, 23, 8);
    let fraction = p.extract(v, 0, 23);
    let hidden = p.constant(1, 1);
    let m = p.concat(hidden, fraction);
    (e, p.zext(m, width))
}

/// Whether `r` is normal (neither a zero, a subnormal, an infinity nor a
/// NaN).
fn normal(p: &mut ExprPool, e: ExprId) -> ExprId {
    let (lo, hi) = (p.constant(8, 0), p.constant(8, 255));
    let (z, m) = (p.eq(e, lo), p.eq(e, hi));
    let special = p.or(z, m);
    p.not(special)
}

/// Whether a normal `r` of the sign of `x` has `|r * x - 1| <= 3 * 2^-13`.
/// With significands mx, mr in [2^23, 2^24) and biased exponents ex, er,
/// `r * x = mx * mr * 2^(ex + er - 300)`; the product is near 1 only when
/// ex + er is 254 (then `mx * mr` is in [2^46, 2^46 + 3 * 2^33]) or 253
/// (then within 3 * 2^34 of 2^47): exact integer bounds.
fn rcp_within_bound(p: &mut ExprPool, x: ExprId, r: ExprId) -> ExprId {
    let (ex, mx) = exponent_and_significand(p, x, 48);
    let (er, mr) = exponent_and_significand(p, r, 48);
    let (sx, sr) = (p.extract(x, 31, 1), p.extract(r, 31, 1));
    let same_sign = p.eq(sx, sr);
    let is_normal = normal(p, er);
    let (ex, er) = (p.zext(ex, 10), p.zext(er, 10));
    let s = p.add(ex, er);
    let product = p.mul(mx, mr);
    let k = |p: &mut ExprPool, v: u128| p.constant(48, v);
    let at = |p: &mut ExprPool, v: u128| {
        let c = p.constant(10, v);
        p.eq(s, c)
    };
    let high = {
        let top = k(p, (1 << 46) + (3 << 33));
        let fits = p.cmp(CmpOp::Ule, product, top);
        let here = at(p, 254);
        p.and(here, fits)
    };
    let low = {
        let (bottom, top) = (k(p, (1 << 47) - (3 << 34)), k(p, (1 << 47) + (3 << 34)));
        let above = p.cmp(CmpOp::Ule, bottom, product);
        let below = p.cmp(CmpOp::Ule, product, top);
        let here = at(p, 253);
        let within = p.and(above, below);
        p.and(here, within)
    };
    let either = p.or(high, low);
    let normal_same_sign = p.and(same_sign, is_normal);
    p.and(normal_same_sign, either)
}

/// Whether a positive normal `r` has `r * r * x` within `(1 +- e)^2`,
/// e = 3 * 2^-13, for a positive normal `x`: `r * r * x = mr^2 * mx *
/// 2^(2 er + ex - 450)`, near 1 only when 2 er + ex is 381, 380 or 379;
/// then `mr^2 * mx` lies within `2^k (1 +- e)^2 = 2^k +- 3 * 2^(k-12) +
/// 9 * 2^(k-26)` for k = 69, 70, 71: exact integer bounds.
fn rsqrt_within_bound(p: &mut ExprPool, x: ExprId, r: ExprId) -> ExprId {
    let (ex, mx) = exponent_and_significand(p, x, 72);
    let (er, mr) = exponent_and_significand(p, r, 72);
    let sr = p.extract(r, 31, 1);
    let zero_bit = p.constant(1, 0);
    let positive = p.eq(sr, zero_bit);
    let is_normal = normal(p, er);
    let (ex, er) = (p.zext(ex, 11), p.zext(er, 11));
    let twice = p.add(er, er);
    let t = p.add(twice, ex);
    let square = p.mul(mr, mr);
    let q = p.mul(square, mx);
    let mut any = p.constant(1, 0);
    for (sum, k) in [(381u128, 69u32), (380, 70), (379, 71)] {
        let base: u128 = 1 << k;
        let (lo, hi) = (base - (3 << (k - 12)) + (9 << (k - 26)), base + (3 << (k - 12)) + (9 << (k - 26)));
        let (lo, hi) = (p.constant(72, lo), p.constant(72, hi));
        let above = p.cmp(CmpOp::Ule, lo, q);
        let below = p.cmp(CmpOp::Ule, q, hi);
        let s = p.constant(11, sum);
        let here = p.eq(t, s);
        let within = p.and(above, below);
        let case = p.and(here, within);
        any = p.or(any, case);
    }
    let positive_normal = p.and(positive, is_normal);
    p.and(positive_normal, any)
}

/// x86 MIN/MAX: `a < b ? a : b`, so an unordered pair or two zeros give b.
pub fn min_max(p: &mut ExprPool, max: bool, f: FpFormat, a: ExprId, b: ExprId) -> ExprId {
    let set = if max { Outcomes::GT } else { Outcomes::LT };
    let c = p.fcmp(Outcomes(set), f, a, b);
    p.ite(c, a, b)
}

/// ROUNDPS immediate: bit 2 selects MXCSR (nearest-even by default), else
/// bits 1:0 choose nearest-even/floor/ceil/trunc; bit 3 only masks the
/// precision exception.
fn round(p: &mut ExprPool, f: FpFormat, mode: u32, x: ExprId) -> ExprId {
    let op =
        if mode & 4 != 0 { FUnOp::RoundEven } else { [FUnOp::RoundEven, FUnOp::Floor, FUnOp::Ceil, FUnOp::Trunc][(mode & 3) as usize] };
    p.fun(op, f, x)
}

/// DPPS/DPPD per 128-bit half: masked products (+0.0 where masked out),
/// summed pairwise as the hardware does, broadcast under the low mask.
fn dot_product(p: &mut ExprPool, f: FpFormat, a: &[Value]) -> Value {
    let m = imm(p, &a[2]);
    let per = (128 / f.width()) as usize;
    let zero = p.constant(f.width(), 0);
    let mut out = Value::new();
    for base in (0..a[0].len()).step_by(per) {
        let prods: Vec<ExprId> =
            (0..per).map(|i| if m & (1 << (4 + i)) != 0 { p.fbin(FBinOp::Mul, f, a[0][base + i], a[1][base + i]) } else { zero }).collect();
        let sum = if per == 4 {
            let lo = p.fbin(FBinOp::Add, f, prods[0], prods[1]);
            let hi = p.fbin(FBinOp::Add, f, prods[2], prods[3]);
            p.fbin(FBinOp::Add, f, lo, hi)
        } else {
            p.fbin(FBinOp::Add, f, prods[0], prods[1])
        };
        out.extend((0..per).map(|i| if m & (1 << i) != 0 { sum } else { zero }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{evaluate, Assignment};

    /// The lane for a constant `x` with the estimate chosen as `choice`.
    fn lane_with(rsqrt: bool, x: u32, choice: u32) -> u32 {
        let mut p = ExprPool::new();
        let xc = p.constant(32, x as u128);
        let r = approximate(&mut p, rsqrt, xc);
        let mut leaves = rustc_hash::FxHashSet::default();
        p.leaves_of(r, &mut leaves);
        let mut asg = Assignment::default();
        for leaf in leaves {
            if let crate::expr::Leaf::Fresh { id, .. } = leaf {
                asg.fresh.insert(id, choice as u128);
            }
        }
        evaluate(&p, r, &asg) as u32
    }

    /// This CPU's RCPSS / RSQRTSS, the referee of the model.
    #[cfg(target_arch = "x86_64")]
    fn cpu(rsqrt: bool, x: u32) -> u32 {
        use std::arch::x86_64::*;
        // SAFETY: SSE is part of x86_64.
        unsafe {
            let v = _mm_set_ss(f32::from_bits(x));
            _mm_cvtss_f32(if rsqrt { _mm_rsqrt_ss(v) } else { _mm_rcp_ss(v) }).to_bits()
        }
    }

    /// Every answer of this CPU on a dense sample of normal inputs (every
    /// 1021st significand at several exponents, both signs, and the flush
    /// region near 2^126) is a choice of the model: picking it as the
    /// estimate gives it back.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn this_cpus_estimates_are_admitted() {
        for biased in [1u32, 2, 60, 126, 127, 128, 200, 252, 253, 254] {
            for fraction in (0..1u32 << 23).step_by(1021).chain([0x7f_ffff, 0x7f_e800, 0xc01]) {
                for sign in [0, 1u32 << 31] {
                    let x = sign | biased << 23 | fraction;
                    for rsqrt in [false, true] {
                        if rsqrt && sign != 0 {
                            continue;
                        }
                        let want = cpu(rsqrt, x);
                        assert_eq!(lane_with(rsqrt, x, want), want, "x = {x:#010x}, rsqrt = {rsqrt}");
                    }
                }
            }
        }
    }

    /// A choice outside the bound is never the result: the lane falls back
    /// to the rounded exact value (or, where the reciprocal may be tiny,
    /// the flushed zero).
    #[test]
    fn an_estimate_outside_the_bound_is_replaced() {
        let three = 3.0f32.to_bits();
        let third = (1.0f32 / 3.0).to_bits();
        // 5000 units in the last place above 1/3 is 4.5e-4 off (the bound
        // is 3.7e-4).
        assert_eq!(lane_with(false, three, third + 5000), third);
        assert_eq!(lane_with(false, three, 0x4000_0000), third);
        // Within the bound: kept.
        assert_eq!(lane_with(false, three, third + 100), third + 100);
        // 2^126: the reciprocal 2^-126 may be flushed; a wrong choice is.
        assert_eq!(lane_with(false, 0x7e80_0000, 0x3f80_0000), 0);
        assert_eq!(lane_with(false, 0x7e80_0000, 0x0080_0000), 0x0080_0000);
        // RSQRT of 4: 0.5 exactly, and 0.5 + 2^-11 is outside.
        let half = 0.5f32.to_bits();
        assert_eq!(lane_with(true, 4.0f32.to_bits(), half + 0x1000), half);
        assert_eq!(lane_with(true, 4.0f32.to_bits(), half + 0x100), half + 0x100);
    }
}
