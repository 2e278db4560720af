//! Bit-exact evaluation of single operations on constants.
//!
//! Used by the simplifying builders (constant folding) and by `eval.rs`
//! (evaluating a whole expression under a witness). Floating point follows
//! README, Semantics: round to nearest-even. NaN results are the canonical
//! quiet NaN of their format under `--nan equal`, and the target's own NaN
//! under `--nan exact` (`nan_rules.rs`; the `*_in` functions take the model).
//!
//! Half precision is computed in double and rounded once to half; for
//! +, -, *, /, sqrt this is exact because 53 >= 2*11 + 2 (double rounding is
//! innocuous). Where no such argument holds (half fma) folding declines and
//! the node stays symbolic for the solver.

use super::nan_rules::{convert_nan, default_nan, is_signalling, nan_result, MinMaxNan, NanModel, NanRules};
use super::{mask, to_signed, BinOp, CmpOp, FBinOp, FUnOp, FpFormat, IntRounding, Outcomes, Width};
use half::f16;

pub fn fold_bin(op: BinOp, w: Width, a: u128, b: u128) -> u128 {
    let m = mask(w);
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        // Division by zero gives all ones, as SMT-LIB's bvudiv does.
        BinOp::UDiv => a.checked_div(b).unwrap_or(m),
        BinOp::URem => {
            if b == 0 {
                a
            } else {
                a % b
            }
        }
        BinOp::SDiv => {
            let (x, y) = (to_signed(a, w), to_signed(b, w));
            if y == 0 {
                if x < 0 {
                    1
                } else {
                    m
                }
            } else {
                x.wrapping_div(y) as u128
            }
        }
        BinOp::SRem => {
            let (x, y) = (to_signed(a, w), to_signed(b, w));
            if y == 0 {
                a
            } else {
                x.wrapping_rem(y) as u128
            }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => {
            if b >= w as u128 {
                0
            } else {
                a << b
            }
        }
        BinOp::LShr => {
            if b >= w as u128 {
                0
            } else {
                a >> b
            }
        }
        BinOp::AShr => {
            let x = to_signed(a, w);
            let s = if b >= w as u128 { w - 1 } else { b as u32 };
            (x >> s) as u128
        }
    };
    r & m
}

pub fn fold_cmp(op: CmpOp, w: Width, a: u128, b: u128) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ult => a < b,
        CmpOp::Ule => a <= b,
        CmpOp::Slt => to_signed(a, w) < to_signed(b, w),
        CmpOp::Sle => to_signed(a, w) <= to_signed(b, w),
    }
}

/// The canonical quiet NaN of a format (sign clear, top significand bit set).
pub fn canonical_nan(f: FpFormat) -> u128 {
    match f {
        FpFormat::Half => 0x7e00,
        FpFormat::Single => 0x7fc0_0000,
        FpFormat::Double => 0x7ff8_0000_0000_0000,
    }
}

/// Whether `bits` encode a NaN (any payload, quiet or signalling) in format `f`.
pub fn fp_is_nan(f: FpFormat, bits: u128) -> bool {
    let e = f.exponent_bits();
    let s = f.significand_bits() - 1;
    let exp = (bits >> s) & mask(e);
    exp == mask(e) && bits & mask(s) != 0
}

/// Decodes to a double, exactly for every format symcross supports.
fn to_f64(f: FpFormat, bits: u128) -> f64 {
    match f {
        FpFormat::Half => f16::from_bits(bits as u16).to_f64(),
        FpFormat::Single => f32::from_bits(bits as u32) as f64,
        FpFormat::Double => f64::from_bits(bits as u64),
    }
}

/// Encodes a double into `f`, rounding to nearest-even once, NaN canonical.
fn from_f64(f: FpFormat, v: f64) -> u128 {
    if v.is_nan() {
        return canonical_nan(f);
    }
    match f {
        FpFormat::Half => f16::from_f64(v).to_bits() as u128,
        FpFormat::Single => (v as f32).to_bits() as u128,
        FpFormat::Double => v.to_bits() as u128,
    }
}

fn from_f32(v: f32) -> u128 {
    if v.is_nan() {
        canonical_nan(FpFormat::Single)
    } else {
        v.to_bits() as u128
    }
}

/// IEEE minNum with -0 < +0: a NaN operand yields the other operand.
fn min_num(a: f64, b: f64, is_min: bool) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        // Equal values differ only for signed zeros.
        let neg = a.is_sign_negative();
        return if neg == is_min { a } else { b };
    }
    if (a < b) == is_min {
        a
    } else {
        b
    }
}

/// `+ - * /` of two single-precision floats given by their bits, when the
/// result is no NaN: then `fold_fbin_in` gives these bits in every NaN
/// model. None for a NaN result and for the other operations.
#[inline]
pub fn fold_single_arith(op: FBinOp, a: u32, b: u32) -> Option<u32> {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    let r = match op {
        FBinOp::Add => x + y,
        FBinOp::Sub => x - y,
        FBinOp::Mul => x * y,
        FBinOp::Div => x / y,
        _ => return None,
    };
    (!r.is_nan()).then_some(r.to_bits())
}

/// `fold_fcmp` of two single-precision floats given by their bits.
#[inline]
pub fn fold_fcmp_single(set: Outcomes, a: u32, b: u32) -> bool {
    // Widening a single to a double is exact: same order, NaN kept.
    set.has(compare_outcome(f64::from(f32::from_bits(a)), f64::from(f32::from_bits(b))))
}

/// Which of the four outcomes (an `Outcomes` bit) a float comparison of `x` and `y` gives.
#[inline]
pub fn compare_outcome(x: f64, y: f64) -> u8 {
    if x.is_nan() || y.is_nan() {
        Outcomes::UNO
    } else if x < y {
        Outcomes::LT
    } else if x > y {
        Outcomes::GT
    } else {
        Outcomes::EQ
    }
}

pub fn fold_fbin(op: FBinOp, f: FpFormat, a: u128, b: u128) -> u128 {
    if matches!(op, FBinOp::Min | FBinOp::Max) && (fp_is_nan(f, a) || fp_is_nan(f, b)) {
        // The non-NaN operand is returned bit for bit; both NaN gives NaN.
        return match (fp_is_nan(f, a), fp_is_nan(f, b)) {
            (true, true) => canonical_nan(f),
            (true, false) => b,
            _ => a,
        };
    }
    if f == FpFormat::Single {
        let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
        let r = match op {
            FBinOp::Add => x + y,
            FBinOp::Sub => x - y,
            FBinOp::Mul => x * y,
            FBinOp::Div => x / y,
            FBinOp::Rem => x % y,
            FBinOp::Min => min_num(x as f64, y as f64, true) as f32,
            FBinOp::Max => min_num(x as f64, y as f64, false) as f32,
        };
        return from_f32(r);
    }
    let (x, y) = (to_f64(f, a), to_f64(f, b));
    let r = match op {
        FBinOp::Add => x + y,
        FBinOp::Sub => x - y,
        FBinOp::Mul => x * y,
        FBinOp::Div => x / y,
        FBinOp::Rem => x % y,
        FBinOp::Min => min_num(x, y, true),
        FBinOp::Max => min_num(x, y, false),
    };
    from_f64(f, r)
}

pub fn fold_fun(op: FUnOp, f: FpFormat, a: u128) -> u128 {
    if f == FpFormat::Single {
        let x = f32::from_bits(a as u32);
        let r = match op {
            FUnOp::Sqrt => x.sqrt(),
            FUnOp::RoundEven => x.round_ties_even(),
            FUnOp::RoundAway => x.round(),
            FUnOp::Floor => x.floor(),
            FUnOp::Ceil => x.ceil(),
            FUnOp::Trunc => x.trunc(),
        };
        return from_f32(r);
    }
    let x = to_f64(f, a);
    let r = match op {
        FUnOp::Sqrt => x.sqrt(),
        FUnOp::RoundEven => x.round_ties_even(),
        FUnOp::RoundAway => x.round(),
        FUnOp::Floor => x.floor(),
        FUnOp::Ceil => x.ceil(),
        FUnOp::Trunc => x.trunc(),
    };
    from_f64(f, r)
}

/// Fused multiply-add with a single rounding. `None` where no exact
/// evaluation is available (half precision).
pub fn fold_fma(f: FpFormat, a: u128, b: u128, c: u128) -> Option<u128> {
    match f {
        FpFormat::Single => {
            let (x, y, z) = (f32::from_bits(a as u32), f32::from_bits(b as u32), f32::from_bits(c as u32));
            Some(from_f32(x.mul_add(y, z)))
        }
        FpFormat::Double => {
            let (x, y, z) = (f64::from_bits(a as u64), f64::from_bits(b as u64), f64::from_bits(c as u64));
            Some(from_f64(f, x.mul_add(y, z)))
        }
        FpFormat::Half => None,
    }
}

pub fn fold_fcmp(set: Outcomes, f: FpFormat, a: u128, b: u128) -> bool {
    set.has(compare_outcome(to_f64(f, a), to_f64(f, b)))
}

/// The result of an out-of-range float-to-integer conversion: x86's
/// "integer indefinite" (only the sign bit set), for signed and unsigned.
pub fn integer_indefinite(width: Width) -> u128 {
    1u128 << (width - 1)
}

/// Float-to-integer conversion of a constant; NaN and out-of-range values
/// give [`integer_indefinite`].
pub fn fold_fp_to_int(signed: bool, rounding: IntRounding, f: FpFormat, width: Width, a: u128) -> u128 {
    let x = to_f64(f, a);
    let r = match rounding {
        IntRounding::TowardZero => x.trunc(),
        IntRounding::NearestEven => x.round_ties_even(),
    };
    if r.is_nan() {
        return integer_indefinite(width);
    }
    // Bounds are powers of two, exact in double.
    let (lo, hi) = if signed { (-(2f64.powi(width as i32 - 1)), 2f64.powi(width as i32 - 1)) } else { (0.0, 2f64.powi(width as i32)) };
    if r < lo || r >= hi {
        return integer_indefinite(width);
    }
    if signed {
        (r as i128 as u128) & mask(width)
    } else {
        (r as u128) & mask(width)
    }
}

pub fn fold_int_to_fp(signed: bool, to: FpFormat, width: Width, a: u128) -> u128 {
    // Up to 64 bits the integer converts from a 64-bit one (the same value,
    // so the same rounding) rather than by the 128-bit routine.
    if width <= 64 && to != FpFormat::Half {
        let a = a as u64;
        return match (to, signed) {
            (FpFormat::Single, true) => (to_signed(a as u128, width) as i64 as f32).to_bits() as u128,
            (FpFormat::Single, false) => (a as f32).to_bits() as u128,
            (_, true) => (to_signed(a as u128, width) as i64 as f64).to_bits() as u128,
            (_, false) => (a as f64).to_bits() as u128,
        };
    }
    match to {
        FpFormat::Single => {
            let v = if signed { to_signed(a, width) as f32 } else { a as f32 };
            v.to_bits() as u128
        }
        FpFormat::Double => {
            let v = if signed { to_signed(a, width) as f64 } else { a as f64 };
            v.to_bits() as u128
        }
        FpFormat::Half => {
            // Integers that do not fit a double exactly are far beyond the
            // half range and round to infinity either way.
            let v = if signed { to_signed(a, width) as f64 } else { a as f64 };
            f16::from_f64(v).to_bits() as u128
        }
    }
}

pub fn fold_fp_convert(from: FpFormat, to: FpFormat, a: u128) -> u128 {
    if fp_is_nan(from, a) {
        return canonical_nan(to);
    }
    if from == FpFormat::Double && to == FpFormat::Single {
        return from_f32(f64::from_bits(a as u64) as f32);
    }
    from_f64(to, to_f64(from, a))
}

/// `fold_fbin` in a NaN model: under `Exact`, a NaN result is the target's.
pub fn fold_fbin_in(model: NanModel, op: FBinOp, f: FpFormat, a: u128, b: u128) -> u128 {
    let Some(rules) = model.rules() else { return fold_fbin(op, f, a, b) };
    if matches!(op, FBinOp::Min | FBinOp::Max) {
        return min_max_exact(rules, op, f, a, b);
    }
    let r = fold_fbin(op, f, a, b);
    if !fp_is_nan(f, r) {
        return r;
    }
    nan_result(rules, f, &[a, b])
}

/// fmin/fmax with the target's NaN bits (see [`MinMaxNan`]).
fn min_max_exact(rules: &NanRules, op: FBinOp, f: FpFormat, a: u128, b: u128) -> u128 {
    let signalling = is_signalling(f, a) || is_signalling(f, b);
    if rules.min_max == MinMaxNan::SignallingPropagates && signalling {
        return nan_result(rules, f, &[a, b]);
    }
    // fold_fbin gives the other operand for one NaN, a NaN only for two.
    let r = fold_fbin(op, f, a, b);
    if !fp_is_nan(f, r) {
        return r;
    }
    match rules.min_max {
        MinMaxNan::SelectSecond => b,
        MinMaxNan::SignallingPropagates => nan_result(rules, f, &[a, b]),
    }
}

pub fn fold_fun_in(model: NanModel, op: FUnOp, f: FpFormat, a: u128) -> u128 {
    let r = fold_fun(op, f, a);
    match model.rules() {
        Some(rules) if fp_is_nan(f, r) => nan_result(rules, f, &[a]),
        _ => r,
    }
}

/// The NaN of an fma result in a NaN model (operand priority from the
/// target's table).
pub fn fma_nan_in(model: NanModel, f: FpFormat, a: u128, b: u128, c: u128, r: u128) -> u128 {
    let Some(rules) = model.rules() else { return r };
    if !fp_is_nan(f, r) {
        return r;
    }
    let inf = |x: u128| !fp_is_nan(f, x) && to_f64(f, x).is_infinite();
    let zero = |x: u128| !fp_is_nan(f, x) && to_f64(f, x) == 0.0;
    let invalid_product = (inf(a) && zero(b)) || (zero(a) && inf(b));
    if rules.fma_invalid_product_default && invalid_product && fp_is_nan(f, c) && !is_signalling(f, c) {
        return default_nan(rules, f);
    }
    let ops = [a, b, c];
    nan_result(rules, f, &rules.fma_order.map(|i| ops[i]))
}

pub fn fold_fma_in(model: NanModel, f: FpFormat, a: u128, b: u128, c: u128) -> Option<u128> {
    fold_fma(f, a, b, c).map(|r| fma_nan_in(model, f, a, b, c, r))
}

pub fn fold_fp_convert_in(model: NanModel, from: FpFormat, to: FpFormat, a: u128) -> u128 {
    if model.is_exact() && fp_is_nan(from, a) {
        return convert_nan(from, to, a);
    }
    fold_fp_convert(from, to, a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_max_signed_zero_and_nan() {
        let f = FpFormat::Single;
        let pz = 0.0f32.to_bits() as u128;
        let nz = (-0.0f32).to_bits() as u128;
        assert_eq!(fold_fbin(FBinOp::Min, f, pz, nz), nz);
        assert_eq!(fold_fbin(FBinOp::Max, f, nz, pz), pz);
        let one = 1.0f32.to_bits() as u128;
        assert_eq!(fold_fbin(FBinOp::Min, f, canonical_nan(f), one), one);
    }

    #[test]
    fn half_arithmetic_rounds_once() {
        let h = |v: f32| f16::from_f32(v).to_bits() as u128;
        let r = fold_fbin(FBinOp::Add, FpFormat::Half, h(1.0), h(0.000_976_562_5));
        assert_eq!(r, h(1.0 + 0.000_976_562_5));
        assert_eq!(fold_fbin(FBinOp::Div, FpFormat::Half, h(1.0), h(0.0)), 0x7c00);
    }

    #[test]
    fn conversion_out_of_range_is_indefinite() {
        let big = 3e9f32.to_bits() as u128;
        assert_eq!(fold_fp_to_int(true, IntRounding::TowardZero, FpFormat::Single, 32, big), 0x8000_0000);
        let neg = (-1.5f32).to_bits() as u128;
        assert_eq!(fold_fp_to_int(true, IntRounding::TowardZero, FpFormat::Single, 32, neg), 0xffff_ffff);
        assert_eq!(fold_fp_to_int(true, IntRounding::NearestEven, FpFormat::Single, 32, (2.5f32).to_bits() as u128), 2);
    }

    /// The single-precision shortcuts the concrete tier takes give the
    /// general folds' bits, in both NaN models, on edge values: NaN results
    /// are left to the general fold (the models differ there).
    #[test]
    fn single_precision_shortcuts_agree_with_the_general_folds() {
        let values: Vec<u32> = [0.0f32, -0.0, 1.0, -1.5, 3.0, 1e-45, -1e-38, 3.4e38, f32::INFINITY, f32::NEG_INFINITY, 16777217.0, 0.1]
            .iter()
            .map(|v| v.to_bits())
            .chain([0x7fc0_0000, 0xffc0_0001, 0x7f80_0001, 0x0000_0001])
            .collect();
        let ops = [FBinOp::Add, FBinOp::Sub, FBinOp::Mul, FBinOp::Div, FBinOp::Rem, FBinOp::Min, FBinOp::Max];
        let sets = [Outcomes(Outcomes::EQ), Outcomes(Outcomes::LT | Outcomes::UNO), Outcomes(Outcomes::GT | Outcomes::EQ)];
        for &a in &values {
            for &b in &values {
                for op in ops {
                    if let Some(r) = fold_single_arith(op, a, b) {
                        for model in [NanModel::Canonical, NanModel::EXACT_X86, NanModel::EXACT_AARCH64] {
                            assert_eq!(r as u128, fold_fbin_in(model, op, FpFormat::Single, a as u128, b as u128), "{op:?} {a:#x} {b:#x}");
                        }
                    } else {
                        let general = fold_fbin(op, FpFormat::Single, a as u128, b as u128);
                        assert!(matches!(op, FBinOp::Rem | FBinOp::Min | FBinOp::Max) || fp_is_nan(FpFormat::Single, general));
                    }
                }
                for set in sets {
                    assert_eq!(fold_fcmp_single(set, a, b), fold_fcmp(set, FpFormat::Single, a as u128, b as u128));
                }
            }
        }
    }

    /// Integers of up to 64 bits convert as the 128-bit conversion does,
    /// rounding included (values past a float's 24 or 53 bits).
    #[test]
    fn int_to_fp_of_up_to_64_bits_rounds_as_the_wide_conversion() {
        let values: [u128; 9] =
            [0, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0x0100_0001, 0x0020_0000_0000_0001, u64::MAX as u128, 1 << 63];
        for width in [8u32, 16, 32, 33, 53, 64] {
            for &v in &values {
                let v = v & mask(width);
                for signed in [false, true] {
                    let wide_single = if signed { to_signed(v, width) as f32 } else { v as f32 };
                    let wide_double = if signed { to_signed(v, width) as f64 } else { v as f64 };
                    assert_eq!(fold_int_to_fp(signed, FpFormat::Single, width, v), wide_single.to_bits() as u128);
                    assert_eq!(fold_int_to_fp(signed, FpFormat::Double, width, v), wide_double.to_bits() as u128);
                }
            }
        }
    }
}
