//! The bits and constants of each floating-point format the analysis reads.

use super::*;

pub(super) fn abs_mask(f: FpFormat) -> u128 {
    (1u128 << (f.width() - 1)) - 1
}

pub(super) fn sign_mask(f: FpFormat) -> u128 {
    1u128 << (f.width() - 1)
}

pub(super) fn to_f64(f: FpFormat, bits: u128) -> f64 {
    match f {
        FpFormat::Single => f32::from_bits(bits as u32) as f64,
        FpFormat::Double => f64::from_bits(bits as u64),
        FpFormat::Half => f64::NAN,
    }
}

pub(super) fn min_normal(f: FpFormat) -> f64 {
    match f {
        FpFormat::Single => f32::MIN_POSITIVE as f64,
        FpFormat::Double => f64::MIN_POSITIVE,
        FpFormat::Half => f64::INFINITY,
    }
}

pub(super) fn max_finite(f: FpFormat) -> f64 {
    match f {
        FpFormat::Single => f32::MAX as f64,
        FpFormat::Double => f64::MAX,
        FpFormat::Half => 0.0,
    }
}

/// The unit roundoff: a rounding to nearest of a normal result is off by
/// at most this much, relatively.
pub(super) fn unit_roundoff(f: FpFormat) -> f64 {
    match f {
        FpFormat::Single => 2f64.powi(-24),
        FpFormat::Double => 2f64.powi(-53),
        FpFormat::Half => f64::INFINITY,
    }
}

/// At least half the smallest subnormal: the absolute error of a rounding
/// to nearest in the subnormal range.
pub(super) fn subnormal_error(f: FpFormat) -> f64 {
    match f {
        FpFormat::Single => 2f64.powi(-150),
        // 2^-1075 is not a double; the smallest subnormal bounds it.
        FpFormat::Double => f64::from_bits(1),
        FpFormat::Half => f64::INFINITY,
    }
}

/// `v` rounded to nearest (even) in `f`; monotone in `v`.
pub(super) fn round_to(f: FpFormat, v: f64) -> f64 {
    match f {
        FpFormat::Single => v as f32 as f64,
        _ => v,
    }
}
