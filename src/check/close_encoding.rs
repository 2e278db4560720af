//! The question "are got and want further apart than the tolerance?" as an
//! expression, and the same distance measured on concrete bits.
//!
//! The ulp distance is bit-precise: each IEEE value maps to an integer by
//! a monotone map (sign-magnitude to two's complement: a negative value's
//! magnitude bits negated, so -0 and +0 are both 0), and the distance is the
//! absolute difference of the two integers, computed two bits wider than
//! the format so it never wraps. "Distance > k" is then a pure bit-vector
//! comparison over the values' bits.
//!
//! The relative and absolute errors are defined as double arithmetic, as
//! the harness API states and the native replay computes them:
//! `fabs((double)got - (double)want) > bound * fabs((double)reference)`.
//! The query is that formula itself, so a proof is exact for it.
//!
//! Special values, whatever the kind: two NaNs are close, a NaN and a
//! number are not; an infinity is close only to the same infinity.

use crate::config::{Tolerance, ToleranceKind};
use crate::expr::{BinOp, CmpOp, ExprId, ExprPool, FBinOp, FpFormat, Outcomes};

/// One element of a tolerance check: the two values (and the magnitude a
/// `rel-to` tolerance measures against), of one IEEE format.
#[derive(Copy, Clone, Debug)]
pub struct CloseQuestion {
    /// The format of both values.
    pub format: FpFormat,
    /// The value computed by the code under test.
    pub got: ExprId,
    /// The reference value.
    pub want: ExprId,
    /// What a relative error is relative to: `want`, or the harness's
    /// magnitude for `rel-to`.
    pub reference: ExprId,
    /// How far apart they may be.
    pub tolerance: Tolerance,
}

impl CloseQuestion {
    /// The expressions the question reads.
    pub fn roots(&self) -> [ExprId; 3] {
        [self.got, self.want, self.reference]
    }
}

/// A 1-bit expression: true when `got` and `want` are further apart than
/// `bound` (in the question's own measure).
pub fn exceeds(pool: &mut ExprPool, q: &CloseQuestion, bound: f64) -> ExprId {
    let f = q.format;
    let nan_a = pool.is_nan(f, q.got);
    let nan_b = pool.is_nan(f, q.want);
    // The bits are read below only where neither value is a NaN, so the
    // question never depends on NaN bits.
    let (a, b) = (q.got, q.want);
    let one_nan = pool.xor(nan_a, nan_b);
    let inf_a = is_infinite(pool, f, a);
    let inf_b = is_infinite(pool, f, b);
    let some_inf = pool.bool_or(inf_a, inf_b);
    let same = pool.eq(a, b);
    let differ = pool.not(same);
    let inf_mismatch = pool.bool_and(some_inf, differ);
    let finite_far = match q.tolerance.kind {
        ToleranceKind::Ulp => {
            let w = f.width();
            let d = ulp_distance_expr(pool, f, a, b);
            if bound >= (1u128 << w) as f64 {
                pool.bool_const(false)
            } else {
                let k = pool.constant(w + 2, bound as u128);
                pool.cmp(CmpOp::Ult, k, d)
            }
        }
        kind => {
            let d = FpFormat::Double;
            let (ga, wb) = (widen(pool, f, a), widen(pool, f, b));
            let diff = pool.fbin(FBinOp::Sub, d, ga, wb);
            let err = pool.fabs(d, diff);
            let limit = pool.constant(64, bound.to_bits() as u128);
            let limit = match kind {
                ToleranceKind::Absolute => limit,
                _ => {
                    let r = widen(pool, f, q.reference);
                    let r = pool.fabs(d, r);
                    pool.fbin(FBinOp::Mul, d, limit, r)
                }
            };
            pool.fcmp(Outcomes(Outcomes::GT), d, err, limit)
        }
    };
    let any_nan = pool.bool_or(nan_a, nan_b);
    let numbers = pool.bool_or(inf_mismatch, finite_far);
    pool.ite(any_nan, one_nan, numbers)
}

/// `|ord(a) - ord(b)|`, two bits wider than the format.
pub fn ulp_distance_expr(pool: &mut ExprPool, f: FpFormat, a: ExprId, b: ExprId) -> ExprId {
    let w = f.width() + 2;
    let oa = ordinal_expr(pool, f, a, w);
    let ob = ordinal_expr(pool, f, b, w);
    let diff = pool.sub(oa, ob);
    let zero = pool.constant(w, 0);
    let negative = pool.cmp(CmpOp::Slt, diff, zero);
    let negated = pool.sub(zero, diff);
    pool.ite(negative, negated, diff)
}

/// The monotone integer of an IEEE value, `width` bits two's complement.
fn ordinal_expr(pool: &mut ExprPool, f: FpFormat, x: ExprId, width: u32) -> ExprId {
    // The magnitude is the value without its sign (fabs's mask), and the
    // sign matters only below zero (-0 and +0 are both 0): no other bit
    // of a float result is read.
    let magnitude = abs_bits(pool, f, x);
    let magnitude = pool.zext(magnitude, width);
    let zero = pool.constant(width, 0);
    let negated = pool.bin(BinOp::Sub, zero, magnitude);
    let fzero = pool.constant(f.width(), 0);
    let negative = pool.fcmp(Outcomes(Outcomes::LT), f, x, fzero);
    pool.ite(negative, negated, magnitude)
}

fn is_infinite(pool: &mut ExprPool, f: FpFormat, x: ExprId) -> ExprId {
    let magnitude = abs_bits(pool, f, x);
    let inf = pool.constant(f.width(), infinity_bits(f));
    pool.eq(magnitude, inf)
}

/// The bits of `|x|`.
fn abs_bits(pool: &mut ExprPool, f: FpFormat, x: ExprId) -> ExprId {
    let mask = pool.constant(f.width(), (1u128 << (f.width() - 1)) - 1);
    pool.and(x, mask)
}

fn widen(pool: &mut ExprPool, f: FpFormat, x: ExprId) -> ExprId {
    if f == FpFormat::Double {
        x
    } else {
        pool.fp_convert(f, FpFormat::Double, x)
    }
}

/// The bits of +infinity.
fn infinity_bits(f: FpFormat) -> u128 {
    ((1u128 << f.exponent_bits()) - 1) << (f.significand_bits() - 1)
}

/// The value of `bits` in format `f`, as a double (exact for every format).
pub fn to_f64(f: FpFormat, bits: u128) -> f64 {
    match f {
        FpFormat::Half => half::f16::from_bits(bits as u16).to_f64(),
        FpFormat::Single => f32::from_bits(bits as u32) as f64,
        FpFormat::Double => f64::from_bits(bits as u64),
    }
}

fn is_nan_bits(f: FpFormat, bits: u128) -> bool {
    to_f64(f, bits).is_nan()
}

/// The monotone integer of concrete bits (see the module comment).
fn ordinal(f: FpFormat, bits: u128) -> i128 {
    let w = f.width();
    let magnitude = (bits & ((1u128 << (w - 1)) - 1)) as i128;
    if (bits >> (w - 1)) & 1 == 1 {
        -magnitude
    } else {
        magnitude
    }
}

/// The distance between two concrete values by the rules above, in each
/// measure a report shows.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Distance {
    /// Units in the last place; `None` when a NaN or an infinity makes the
    /// pair not close at any distance.
    pub ulps: Option<u128>,
    /// `|got - want| / |want|` (infinite when want is 0 and got is not).
    pub relative: f64,
    /// `|got - want|`.
    pub absolute: f64,
    /// The tolerance's own measure (what its bound bounds): infinite for
    /// special values that are never close, 0 for two NaNs.
    pub measure: f64,
}

/// Measures the distance between `got` and `want` (with `reference` for a
/// relative tolerance), exactly as `exceeds` judges it.
pub fn distance(q: &CloseQuestion, got: u128, want: u128, reference: u128) -> Distance {
    let f = q.format;
    let (g, w, r) = (to_f64(f, got), to_f64(f, want), to_f64(f, reference));
    if is_nan_bits(f, got) && is_nan_bits(f, want) {
        return Distance { ulps: Some(0), relative: 0.0, absolute: 0.0, measure: 0.0 };
    }
    let special = is_nan_bits(f, got) || is_nan_bits(f, want) || ((g.is_infinite() || w.is_infinite()) && got != want);
    if special {
        return Distance { ulps: None, relative: f64::INFINITY, absolute: f64::INFINITY, measure: f64::INFINITY };
    }
    let ulps = (ordinal(f, got) - ordinal(f, want)).unsigned_abs();
    let absolute = (g - w).abs();
    let relative = if absolute == 0.0 { 0.0 } else { absolute / w.abs() };
    let measure = match q.tolerance.kind {
        ToleranceKind::Ulp => ulps as f64,
        ToleranceKind::Absolute => absolute,
        ToleranceKind::Relative => relative,
        ToleranceKind::RelativeTo => {
            if absolute == 0.0 {
                0.0
            } else {
                absolute / r.abs()
            }
        }
    };
    Distance { ulps: Some(ulps), relative, absolute, measure }
}

/// Whether concrete values exceed the tolerance: the rule `exceeds`
/// encodes, evaluated in Rust (`bound * |reference|` rounded in double as
/// the query and the C replay compute it).
pub fn exceeds_concrete(q: &CloseQuestion, got: u128, want: u128, reference: u128, bound: f64) -> bool {
    let f = q.format;
    let d = distance(q, got, want, reference);
    if d.ulps.is_none() {
        return true;
    }
    if is_nan_bits(f, got) && is_nan_bits(f, want) {
        return false;
    }
    match q.tolerance.kind {
        ToleranceKind::Ulp => d.ulps.is_some_and(|u| u as f64 > bound),
        ToleranceKind::Absolute => d.absolute > bound,
        ToleranceKind::Relative => d.absolute > bound * to_f64(f, want).abs(),
        ToleranceKind::RelativeTo => d.absolute > bound * to_f64(f, reference).abs(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{evaluate, Assignment};

    fn question(pool: &mut ExprPool, kind: ToleranceKind, bound: f64) -> (CloseQuestion, u32) {
        let arr = pool.new_array("v", 8);
        let got = pool.input_word(arr, 0, 32);
        let want = pool.input_word(arr, 4, 32);
        (CloseQuestion { format: FpFormat::Single, got, want, reference: want, tolerance: Tolerance { kind, bound } }, arr)
    }

    fn judged(pool: &mut ExprPool, q: &CloseQuestion, arr: u32, g: f32, w: f32) -> bool {
        let mut m = Assignment::default();
        let mut bytes = g.to_bits().to_le_bytes().to_vec();
        bytes.extend_from_slice(&w.to_bits().to_le_bytes());
        m.arrays.insert(arr, bytes);
        let e = exceeds(pool, q, q.tolerance.bound);
        let symbolic = evaluate(pool, e, &m) == 1;
        let concrete = exceeds_concrete(q, g.to_bits() as u128, w.to_bits() as u128, w.to_bits() as u128, q.tolerance.bound);
        assert_eq!(symbolic, concrete, "{g} vs {w}: the expression and the concrete rule disagree");
        symbolic
    }

    #[test]
    fn ulp_distance_counts_representable_values_across_zero() {
        let mut pool = ExprPool::new();
        let (q, arr) = question(&mut pool, ToleranceKind::Ulp, 2.0);
        let next = |x: f32, k: u32| f32::from_bits(x.to_bits() + k);
        assert!(!judged(&mut pool, &q, arr, 1.0, next(1.0, 2)));
        assert!(judged(&mut pool, &q, arr, 1.0, next(1.0, 3)));
        // -0 and +0 are one place; the smallest subnormals either side are 2 apart.
        assert!(!judged(&mut pool, &q, arr, -0.0, 0.0));
        assert!(!judged(&mut pool, &q, arr, -f32::from_bits(1), f32::from_bits(1)));
        assert!(judged(&mut pool, &q, arr, -f32::from_bits(2), f32::from_bits(1)));
        // The largest float is one ulp from infinity, but infinity is only close to itself.
        assert!(judged(&mut pool, &q, arr, f32::MAX, f32::INFINITY));
        assert!(!judged(&mut pool, &q, arr, f32::INFINITY, f32::INFINITY));
        assert!(judged(&mut pool, &q, arr, f32::NEG_INFINITY, f32::INFINITY));
        // Two NaNs are close, a NaN and a number are not.
        assert!(!judged(&mut pool, &q, arr, f32::NAN, -f32::NAN));
        assert!(judged(&mut pool, &q, arr, f32::NAN, 1.0));
        let d = distance(&q, 1.0f32.to_bits() as u128, next(1.0, 5).to_bits() as u128, 0);
        assert_eq!(d.ulps, Some(5));
    }

    #[test]
    fn relative_and_absolute_errors_are_double_arithmetic() {
        let mut pool = ExprPool::new();
        let (q, arr) = question(&mut pool, ToleranceKind::Relative, 1e-3);
        assert!(!judged(&mut pool, &q, arr, 1000.5, 1000.0));
        assert!(judged(&mut pool, &q, arr, 1001.5, 1000.0));
        assert!(judged(&mut pool, &q, arr, 1e-30, 0.0));
        assert!(!judged(&mut pool, &q, arr, -0.0, 0.0));
        let (q, arr) = question(&mut pool, ToleranceKind::Absolute, 0.25);
        assert!(!judged(&mut pool, &q, arr, 3.25, 3.0));
        assert!(judged(&mut pool, &q, arr, 3.5, 3.0));
        assert!(judged(&mut pool, &q, arr, f32::INFINITY, 3.0));
    }
}
