//! What the structure of an expression alone says about its range, so the
//! undefined-operation tests (undefined.rs) cost no query where the code
//! already keeps the operands in range: a sum of widened bytes cannot
//! overflow, a shift by `n & 31` is never out of range, and a float
//! clamped to [0, 255] converts to an integer in range. Each answer is a
//! sound over-approximation; an expression it does not know gives the
//! widest answer. Each question visits at most `NODE_BUDGET` nodes (a
//! chain of 16 sums is 32), so the cost is bounded whatever the expression.

use crate::expr::{BinOp, Expr, ExprId, ExprPool, FUnOp, FpFormat, Outcomes};

const NODE_BUDGET: u32 = 128;

/// How many bits `e` needs as a signed number (at most its width): a
/// sign-extended byte needs 8, a zero-extended one 9.
pub(in crate::exec) fn signed_bits(p: &ExprPool, e: ExprId) -> u32 {
    signed_bits_at(p, e, &mut { NODE_BUDGET })
}

fn signed_bits_at(p: &ExprPool, e: ExprId, budget: &mut u32) -> u32 {
    let w = p.width(e);
    if *budget == 0 {
        return w;
    }
    *budget -= 1;
    let bits = match &*p.get(e) {
        Expr::Const { value, width } => {
            let v = crate::expr::to_signed(*value, *width);
            let magnitude = if v < 0 { !v } else { v };
            129 - magnitude.leading_zeros().min(128)
        }
        Expr::SExt(x, _) => signed_bits_at(p, *x, budget),
        Expr::Ite(_, x, y) => signed_bits_at(p, *x, budget).max(signed_bits_at(p, *y, budget)),
        // Exact (no wrap) when the bound fits the width; else the width.
        Expr::Bin(BinOp::Add | BinOp::Sub, x, y) => signed_bits_at(p, *x, budget).max(signed_bits_at(p, *y, budget)) + 1,
        Expr::Bin(BinOp::Mul, x, y) => signed_bits_at(p, *x, budget) + signed_bits_at(p, *y, budget),
        _ => match unsigned_max_at(p, e, budget) {
            // A value below 2^k needs k + 1 signed bits.
            m if m >> (w - 1) & 1 == 0 => 129 - m.leading_zeros().min(128),
            _ => w,
        },
    };
    bits.clamp(1, w)
}

/// The largest value `e` can have as an unsigned number.
pub(in crate::exec) fn unsigned_max(p: &ExprPool, e: ExprId) -> u128 {
    unsigned_max_at(p, e, &mut { NODE_BUDGET })
}

fn unsigned_max_at(p: &ExprPool, e: ExprId, budget: &mut u32) -> u128 {
    let w = p.width(e);
    let all = crate::expr::mask(w);
    if *budget == 0 {
        return all;
    }
    *budget -= 1;
    match &*p.get(e) {
        Expr::Const { value, .. } => *value,
        Expr::ZExt(x, _) => unsigned_max_at(p, *x, budget),
        Expr::Bin(BinOp::And, x, y) => unsigned_max_at(p, *x, budget).min(unsigned_max_at(p, *y, budget)),
        Expr::Bin(BinOp::LShr, x, k) => match p.as_const(*k) {
            Some(k) if k < w as u128 => unsigned_max_at(p, *x, budget) >> k,
            _ => all,
        },
        Expr::Bin(BinOp::URem, _, m) => match p.as_const(*m) {
            Some(m) if m > 0 => m - 1,
            _ => all,
        },
        Expr::Ite(_, x, y) => unsigned_max_at(p, *x, budget).max(unsigned_max_at(p, *y, budget)),
        _ => all,
    }
}

/// The values a float expression can take: every number in `[lo, hi]`
/// (none when `lo > hi`), and NaN when `nan`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(in crate::exec) struct FloatRange {
    /// The smallest number it can be (-inf included).
    pub lo: f64,
    /// The largest number it can be (+inf included).
    pub hi: f64,
    /// Whether it can be NaN.
    pub nan: bool,
}

impl FloatRange {
    const ANY: FloatRange = FloatRange { lo: f64::NEG_INFINITY, hi: f64::INFINITY, nan: true };

    fn union(self, o: FloatRange) -> FloatRange {
        FloatRange { lo: self.lo.min(o.lo), hi: self.hi.max(o.hi), nan: self.nan || o.nan }
    }

    /// Narrowed to the values for which `x (outcomes) k` holds.
    fn under(self, outcomes: u8, k: f64) -> FloatRange {
        let mut r = self;
        if outcomes & Outcomes::UNO == 0 {
            r.nan = false;
        }
        let ordered = outcomes & !Outcomes::UNO;
        if ordered & Outcomes::GT == 0 && ordered != 0 {
            r.hi = r.hi.min(k);
        }
        if ordered & Outcomes::LT == 0 && ordered != 0 {
            r.lo = r.lo.max(k);
        }
        if ordered == 0 {
            // Only unordered: x is NaN.
            r.lo = f64::INFINITY;
            r.hi = f64::NEG_INFINITY;
        }
        r
    }
}

/// The range of the float `e` of format `f`.
pub(in crate::exec) fn float_range(p: &ExprPool, f: FpFormat, e: ExprId) -> FloatRange {
    float_range_at(p, f, e, &mut { NODE_BUDGET })
}

fn float_range_at(p: &ExprPool, f: FpFormat, e: ExprId, budget: &mut u32) -> FloatRange {
    if *budget == 0 {
        return FloatRange::ANY;
    }
    *budget -= 1;
    match &*p.get(e) {
        Expr::Const { value, .. } => match float_value(f, *value) {
            Some(v) if v.is_nan() => FloatRange { lo: f64::INFINITY, hi: f64::NEG_INFINITY, nan: true },
            Some(v) => FloatRange { lo: v, hi: v, nan: false },
            None => FloatRange::ANY,
        },
        Expr::Ite(c, t, o) => {
            let rt = float_range_at(p, f, *t, budget);
            let ro = float_range_at(p, f, *o, budget);
            match comparison(p, f, *c) {
                Some((x, outcomes, k)) => {
                    let rt = if x == *t { rt.under(outcomes, k) } else { rt };
                    let ro = if x == *o { ro.under(0xf & !outcomes, k) } else { ro };
                    rt.union(ro)
                }
                None => rt.union(ro),
            }
        }
        // Rounding to an integer moves a value by less than one.
        Expr::FUn(FUnOp::RoundEven | FUnOp::RoundAway | FUnOp::Floor | FUnOp::Ceil | FUnOp::Trunc, g, x) if *g == f => {
            let r = float_range_at(p, f, *x, budget);
            FloatRange { lo: r.lo.floor(), hi: r.hi.ceil(), nan: r.nan }
        }
        // Widening is exact.
        Expr::FpConvert { from, to, value } if *to == f && from.width() < to.width() => float_range_at(p, *from, *value, budget),
        Expr::IntToFp { signed, value, .. } => {
            let w = p.width(*value) as i32;
            let (lo, hi) = if *signed { (-(2f64.powi(w - 1)), 2f64.powi(w - 1)) } else { (0.0, 2f64.powi(w)) };
            FloatRange { lo, hi, nan: false }
        }
        _ => FloatRange::ANY,
    }
}

/// `c` as `x (outcomes) k` with `k` a constant of format `f`.
fn comparison(p: &ExprPool, f: FpFormat, c: ExprId) -> Option<(ExprId, u8, f64)> {
    match &*p.get(c) {
        Expr::FCmp(set, g, a, b) if *g == f => {
            if let Some(k) = p.as_const(*b).and_then(|v| float_value(f, v)).filter(|k| !k.is_nan()) {
                return Some((*a, set.0, k));
            }
            let k = p.as_const(*a).and_then(|v| float_value(f, v)).filter(|k| !k.is_nan())?;
            // k (set) b is b (mirrored set) k.
            let s = set.0;
            let mirrored = (s & (Outcomes::EQ | Outcomes::UNO))
                | if s & Outcomes::LT != 0 { Outcomes::GT } else { 0 }
                | if s & Outcomes::GT != 0 { Outcomes::LT } else { 0 };
            Some((*b, mirrored, k))
        }
        Expr::Not(inner) => comparison(p, f, *inner).map(|(x, s, k)| (x, 0xf & !s, k)),
        _ => None,
    }
}

/// The value of float bits in format `f` (single or double).
fn float_value(f: FpFormat, bits: u128) -> Option<f64> {
    match f {
        FpFormat::Single => Some(f32::from_bits(bits as u32) as f64),
        FpFormat::Double => Some(f64::from_bits(bits as u64)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clamped_float_is_in_its_bounds_and_not_nan() {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 4);
        let x = p.input_word(arr, 0, 32);
        let f = FpFormat::Single;
        let zero = p.constant(32, 0f32.to_bits() as u128);
        let top = p.constant(32, 255f32.to_bits() as u128);
        // x > 0 ? x : 0, then v < 255 ? v : 255, then rint.
        let gt = p.fcmp(Outcomes(Outcomes::GT), f, x, zero);
        let v = p.ite(gt, x, zero);
        let lt = p.fcmp(Outcomes(Outcomes::LT), f, v, top);
        let v = p.ite(lt, v, top);
        let r = p.fun(FUnOp::RoundEven, f, v);
        assert_eq!(float_range(&p, f, r), FloatRange { lo: 0.0, hi: 255.0, nan: false });
        assert!(float_range(&p, f, x).nan, "an input can be NaN");
    }

    #[test]
    fn masks_and_widenings_bound_integers() {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 4);
        let x = p.input_word(arr, 0, 32);
        let m = p.constant(32, 31);
        let masked = p.and(x, m);
        assert_eq!(unsigned_max(&p, masked), 31);
        let byte = p.input_word(arr, 0, 8);
        let (s, z) = (p.sext(byte, 32), p.zext(byte, 32));
        assert_eq!((signed_bits(&p, s), signed_bits(&p, z), signed_bits(&p, x)), (8, 9, 32));
        // A chain of 16 sign-extended bytes summed one by one: one more
        // bit per sum, 23 in all (a bound, not the least).
        let bytes = p.new_array("b", 16);
        let first = p.input_word(bytes, 0, 8);
        let mut chain = p.sext(first, 32);
        for k in 1..16 {
            let b = p.input_word(bytes, k, 8);
            let b = p.sext(b, 32);
            chain = p.add(chain, b);
        }
        assert_eq!(signed_bits(&p, chain), 23);
        // u8 * s8 + u8 * s8 needs 18 bits; x + 1 may need all 32.
        let product = p.mul(z, s);
        let sum = p.add(product, product);
        assert_eq!(signed_bits(&p, sum), 18);
        let one = p.constant(32, 1);
        let next = p.add(x, one);
        assert_eq!(signed_bits(&p, next), 32);
    }
}
