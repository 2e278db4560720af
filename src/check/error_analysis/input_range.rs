//! The range of a float input that a path allows, read from the path's
//! comparisons of the input with constants (`x >= 1.0f && x < 2.0f`, also
//! `fabsf(x) <= c`). Constraints of any other form are ignored, so the
//! range may hold inputs the path excludes: an over-approximation. The
//! callers evaluate or bound every input of the range, and where it
//! matters the path itself decides which inputs count.
//!
//! Ranges are kept as ordinals: the monotone integer of an IEEE value
//! (negative values' magnitudes negated, -0 and +0 both 0), so "every
//! float between a and b" is an integer interval.

use crate::check::sampling::input_word;
use crate::expr::{BinOp, Expr, ExprId, ExprPool, FpFormat, Outcomes};

/// One float input: the bytes `offset ..` of input array `array`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FloatInput {
    /// The symbolic input array.
    pub array: u32,
    /// Its first byte.
    pub offset: u32,
    /// The format of the value.
    pub format: FpFormat,
}

/// The floats an input may take: ordinals `lo ..= hi`, NaNs excluded or not.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InputRange {
    /// The smallest ordinal.
    pub lo: i128,
    /// The largest ordinal.
    pub hi: i128,
    /// Whether a constraint of the path excludes NaN (an ordered comparison).
    pub nan_excluded: bool,
    /// The least ordinal of `|x|` a constraint `fabs(x) >= c` allows (0:
    /// none): the range minus the values closer to zero than that.
    pub magnitude_at_least: i128,
}

impl InputRange {
    /// How many bit patterns the range holds (both zeros when it holds 0).
    pub fn patterns(&self) -> u128 {
        if self.hi < self.lo {
            return 0;
        }
        let n = (self.hi - self.lo + 1) as u128;
        if self.lo <= 0 && self.hi >= 0 {
            n + 1
        } else {
            n
        }
    }

    /// The bit patterns of the range, ascending by value (-0 before +0).
    pub fn bit_patterns(&self, f: FpFormat) -> impl Iterator<Item = u128> + '_ {
        (self.lo..=self.hi).flat_map(move |o| {
            let negative_zero = (o == 0).then(|| 1u128 << (f.width() - 1));
            negative_zero.into_iter().chain(std::iter::once(bits_of_ordinal(f, o)))
        })
    }

    /// The range as reals: its least and greatest value.
    pub fn bounds(&self, f: FpFormat) -> (f64, f64) {
        (value_of_ordinal(f, self.lo), value_of_ordinal(f, self.hi))
    }

    /// The range as one or two intervals of reals: two when it runs across
    /// zero and a magnitude constraint cuts the values near zero out.
    pub fn parts(&self, f: FpFormat) -> Vec<(f64, f64)> {
        let m = self.magnitude_at_least;
        if m > 0 && self.lo < 0 && self.hi > 0 {
            let mut out = Vec::new();
            if self.lo <= -m {
                out.push((value_of_ordinal(f, self.lo), value_of_ordinal(f, -m)));
            }
            if self.hi >= m {
                out.push((value_of_ordinal(f, m), value_of_ordinal(f, self.hi)));
            }
            out
        } else if m > 0 && self.lo >= 0 {
            vec![(value_of_ordinal(f, self.lo.max(m)), value_of_ordinal(f, self.hi))]
        } else if m > 0 && self.hi <= 0 {
            vec![(value_of_ordinal(f, self.lo), value_of_ordinal(f, self.hi.min(-m)))]
        } else {
            vec![self.bounds(f)]
        }
    }
}

/// The ordinal of `bits` (NaNs land beyond the infinities).
pub fn ordinal(f: FpFormat, bits: u128) -> i128 {
    let w = f.width();
    let magnitude = (bits & ((1u128 << (w - 1)) - 1)) as i128;
    if (bits >> (w - 1)) & 1 == 1 {
        -magnitude
    } else {
        magnitude
    }
}

/// The bits of the value of ordinal `o` (+0 for 0).
pub fn bits_of_ordinal(f: FpFormat, o: i128) -> u128 {
    if o < 0 {
        (1u128 << (f.width() - 1)) | o.unsigned_abs()
    } else {
        o as u128
    }
}

fn value_of_ordinal(f: FpFormat, o: i128) -> f64 {
    crate::check::close_encoding::to_f64(f, bits_of_ordinal(f, o))
}

fn infinity_ordinal(f: FpFormat) -> i128 {
    (((1u128 << f.exponent_bits()) - 1) << (f.significand_bits() - 1)) as i128
}

/// The range of `input` on `path`.
pub fn input_range(pool: &ExprPool, path: &[ExprId], input: FloatInput) -> InputRange {
    let inf = infinity_ordinal(input.format);
    let mut range = InputRange { lo: -inf, hi: inf, nan_excluded: false, magnitude_at_least: 0 };
    // Each entry: "`e` is non-zero" holds (or does not). Assumptions reach
    // the path as `zext(ite(a, b, 0)) != 0` and the like (C's `&&` and
    // the int argument of symcross_assume), so those forms are unfolded.
    let mut stack: Vec<(ExprId, bool)> = path.iter().map(|c| (*c, true)).collect();
    let is = |e: ExprId, v: u128| pool.as_const(e) == Some(v);
    while let Some((c, holds)) = stack.pop() {
        let bit = pool.width(c) == 1;
        match &*pool.get(c) {
            Expr::Bin(BinOp::And, a, b) if holds && bit => {
                stack.push((*a, true));
                stack.push((*b, true));
            }
            Expr::Bin(BinOp::Or, a, b) if !holds && bit => {
                stack.push((*a, false));
                stack.push((*b, false));
            }
            Expr::Not(a) if bit => stack.push((*a, !holds)),
            Expr::ZExt(a, _) => stack.push((*a, holds)),
            Expr::Ite(k, t, e) if bit => match (holds, is(*t, 0), is(*e, 0), is(*t, 1), is(*e, 1)) {
                (true, _, true, _, _) => stack.extend([(*k, true), (*t, true)]),
                (true, true, _, _, _) => stack.extend([(*k, false), (*e, true)]),
                (false, _, _, true, _) => stack.extend([(*k, false), (*e, false)]),
                (false, _, _, _, true) => stack.extend([(*k, true), (*t, false)]),
                _ => {}
            },
            Expr::Cmp(crate::expr::CmpOp::Eq, a, b) if is(*b, 0) => stack.push((*a, !holds)),
            Expr::Cmp(crate::expr::CmpOp::Eq, a, b) if is(*a, 0) => stack.push((*b, !holds)),
            Expr::Cmp(crate::expr::CmpOp::Eq, a, b) if is(*b, 1) && pool.width(*a) == 1 => stack.push((*a, holds)),
            Expr::FCmp(set, f, a, b) if *f == input.format && bit => {
                let set = if holds { *set } else { set.complement() };
                if let Some(k) = pool.as_const(*b) {
                    narrow(pool, &mut range, input, *a, set, k);
                } else if let Some(k) = pool.as_const(*a) {
                    narrow(pool, &mut range, input, *b, set.swapped(), k);
                }
            }
            _ => {}
        }
    }
    range
}

/// Narrows `range` by "`e` compares with constant `k` by one of `set`",
/// when `e` is the input or its magnitude.
fn narrow(pool: &ExprPool, range: &mut InputRange, input: FloatInput, e: ExprId, set: Outcomes, k: u128) {
    let f = input.format;
    let n = f.width() / 8;
    let is_input = |x: ExprId| input_word(pool, x, n) == Some((input.array, input.offset));
    let magnitude = match &*pool.get(e) {
        Expr::Bin(BinOp::And, x, m) if pool.as_const(*m) == Some((1u128 << (f.width() - 1)) - 1) && is_input(*x) => true,
        _ if is_input(e) => false,
        _ => return,
    };
    if crate::expr::fp_is_nan(f, k) {
        return;
    }
    if !set.has(Outcomes::UNO) {
        range.nan_excluded = true;
    }
    let ok = ordinal(f, k);
    // Outcomes the input may have against k: without `<`, it is at least k.
    let (mut lo, mut hi) = (i128::MIN, i128::MAX);
    if !set.has(Outcomes::LT) {
        lo = if set.has(Outcomes::EQ) { ok } else { ok + 1 };
    }
    if !set.has(Outcomes::GT) {
        hi = if set.has(Outcomes::EQ) { ok } else { ok - 1 };
    }
    if magnitude {
        // |x| <= c bounds x on both sides; a lower bound of |x| cuts the
        // values near zero out, kept apart (the range stays one interval).
        if hi != i128::MAX {
            range.lo = range.lo.max(-hi);
            range.hi = range.hi.min(hi);
        }
        if lo != i128::MIN {
            range.magnitude_at_least = range.magnitude_at_least.max(lo);
        }
        return;
    }
    range.lo = range.lo.max(lo);
    range.hi = range.hi.min(hi);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_with_constants_bound_the_input() {
        let mut pool = ExprPool::new();
        let arr = pool.new_array("x", 4);
        let x = pool.input_word(arr, 0, 32);
        let one = pool.constant(32, 1.0f32.to_bits() as u128);
        let two = pool.constant(32, 2.0f32.to_bits() as u128);
        let at_least_one = pool.fcmp(Outcomes(Outcomes::GT | Outcomes::EQ), FpFormat::Single, x, one);
        let below_two = pool.fcmp(Outcomes(Outcomes::LT), FpFormat::Single, x, two);
        // As C's `&&` reaches symcross_assume: zext(ite(a, b, 0)) != 0.
        let zero1 = pool.bool_const(false);
        let both = pool.ite(at_least_one, below_two, zero1);
        let wide = pool.zext(both, 32);
        let zero = pool.constant(32, 0);
        let is_zero = pool.eq(wide, zero);
        let both = pool.not(is_zero);
        let input = FloatInput { array: arr, offset: 0, format: FpFormat::Single };
        let r = input_range(&pool, &[both], input);
        assert!(r.nan_excluded);
        assert_eq!(r.patterns(), 1 << 23);
        assert_eq!(r.bounds(FpFormat::Single), (1.0, 2.0 - f32::EPSILON as f64));
        let values: Vec<f32> = r.bit_patterns(FpFormat::Single).take(2).map(|b| f32::from_bits(b as u32)).collect();
        assert_eq!(values, [1.0, 1.0 + f32::EPSILON]);
        // Unconstrained: every float, NaN not excluded.
        let r = input_range(&pool, &[], input);
        assert!(!r.nan_excluded);
        assert_eq!(r.bounds(FpFormat::Single), (f64::NEG_INFINITY, f64::INFINITY));
    }

    #[test]
    fn a_range_across_zero_holds_both_zeros() {
        let r = InputRange { lo: -1, hi: 1, nan_excluded: true, magnitude_at_least: 0 };
        let bits: Vec<u128> = r.bit_patterns(FpFormat::Single).collect();
        assert_eq!(bits, [0x8000_0001, 0x8000_0000, 0, 1]);
        assert_eq!(r.patterns(), 4);
    }
}
