//! When two compared elements are equal: the one rule that `check` applies
//! to expressions and native replay applies to the CPU's bytes, so that a
//! witness the model calls a difference is judged the same way on the CPU.
//!
//! Under `--nan equal` an element is compared as a float (equal when both
//! sides are NaN, whatever their sign and payload; bit for bit otherwise)
//! when it is 2, 4 or 8 bytes wide and either the harness declares the
//! compared buffer of that float type, or one side is the result of a
//! floating-point operation of that width (an untyped buffer, an integer
//! array holding computed floats). Everything else, and every element under
//! `--nan exact`, is compared bit for bit.

use super::{ElementType, FpFormat, NanModel};

/// Whether an element of `width` bits is compared with all NaNs equal.
/// `declared`: the element type of the compared buffer, when the program
/// gives it; `float_result`: whether a side is computed by a floating-point
/// operation of that width.
pub fn nans_compare_equal(model: NanModel, declared: Option<ElementType>, width: u32, float_result: bool) -> bool {
    if model.is_exact() || FpFormat::from_width(width).is_none() {
        return false;
    }
    matches!(declared, Some(ElementType::Float(f)) if f.width() == width) || float_result
}

/// Whether two elements (little-endian bytes of the same length) are equal
/// under the rule: the same bits, or, when `nans_equal`, both NaN.
pub fn elements_equal(nans_equal: bool, left: &[u8], right: &[u8]) -> bool {
    left == right || (nans_equal && is_nan(left) && is_nan(right))
}

/// Whether `bytes` (2, 4 or 8 of them, little-endian) are a NaN of the
/// IEEE format of that size.
pub fn is_nan(bytes: &[u8]) -> bool {
    let Some(f) = FpFormat::from_width(8 * bytes.len() as u32) else { return false };
    let bits = bytes.iter().rev().fold(0u128, |acc, b| (acc << 8) | *b as u128);
    let frac_bits = f.significand_bits() - 1;
    let exp = (bits >> frac_bits) & ((1u128 << f.exponent_bits()) - 1);
    exp == (1u128 << f.exponent_bits()) - 1 && bits & ((1u128 << frac_bits) - 1) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_floats_compare_nans_equal_even_when_copied() {
        let f = Some(ElementType::Float(FpFormat::Single));
        assert!(nans_compare_equal(NanModel::Canonical, f, 32, false));
        assert!(!nans_compare_equal(NanModel::EXACT_X86, f, 32, true));
        assert!(!nans_compare_equal(NanModel::Canonical, Some(ElementType::Int(4)), 32, false));
        assert!(nans_compare_equal(NanModel::Canonical, Some(ElementType::Int(4)), 32, true));
        assert!(!nans_compare_equal(NanModel::Canonical, None, 24, true));
    }

    #[test]
    fn nan_bytes_are_equal_only_under_the_rule() {
        let (c, d) = (0xffff_ffffu32.to_le_bytes(), 0xffff_fffeu32.to_le_bytes());
        assert!(elements_equal(true, &c, &d));
        assert!(!elements_equal(false, &c, &d));
        assert!(!elements_equal(true, &1.0f32.to_le_bytes(), &2.0f32.to_le_bytes()));
        assert!(is_nan(&0x7ff8_0000_0000_0001u64.to_le_bytes()));
        assert!(!is_nan(&0x7f80_0000u32.to_le_bytes()));
        assert!(is_nan(&0x7e00u16.to_le_bytes()));
    }
}
