//! Which NaN an operation produces: the two models of `--nan`.
//!
//! - [`NanModel::Canonical`] (`--nan equal`, the default): every NaN an
//!   operation produces is the canonical quiet NaN of its format. Checks
//!   then compare floats with "all NaNs are equal" (check/), so the payload
//!   and sign of a NaN never decide a verdict; this is what lets `a + b` and
//!   `b + a` be one expression.
//! - [`NanModel::Exact`] (`--nan exact`): the target's own rule, bit for
//!   bit, from a per-target [`NanRules`] table: [`X86_SSE`] on the host,
//!   [`AARCH64_DN_OFF`] under `--target aarch64` (tests/nan_aarch64.rs
//!   measures it under qemu-aarch64).
//!
//! The x86 rule, measured on this machine with clang-19 (-O0 and -O2, with
//! and without -mfma; tests/nan_semantics.rs keeps it measured):
//! - an invalid operation (inf - inf, 0 / 0, sqrt(-1), fmod(inf, 1), ...)
//!   gives the "default NaN": sign set, quiet, payload 0 (0xFFC00000);
//! - otherwise the first NaN operand, quieted (a signalling NaN gets its
//!   quiet bit set; SSE does not prefer a signalling NaN over a quiet one);
//!   "first" is the IR operand order for + - * / fmod and the unary ops,
//!   and b, a, c for fma(a, b, c) (the operand order of the vfmadd213 form
//!   clang selects, and of glibc's fmaf);
//! - conversions keep sign and payload, quieted: widening shifts the
//!   payload up, narrowing keeps its top bits;
//! - fmin/fmax (llvm.minnum/maxnum) of two NaNs return the second operand
//!   unchanged, and MINPS/MAXPS return the second operand: selects.
//!
//! LLVM leaves NaN payloads unspecified, so the backend may commute the
//! operands of fadd/fmul; the exact model follows the IR order, which is
//! what clang-19's x86 code generation does in every case measured.

use super::{mask, FpFormat};

/// How NaN results are modelled in a pool.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum NanModel {
    /// One canonical NaN per format; NaNs compare equal in checks.
    #[default]
    Canonical,
    /// The target's own NaN bits, by its rule table ([`X86_SSE`] or
    /// [`AARCH64_DN_OFF`], chosen from `--target`).
    Exact(&'static NanRules),
}

impl NanModel {
    /// `--nan exact` on the host (x86-64).
    pub const EXACT_X86: NanModel = NanModel::Exact(&X86_SSE);
    /// `--nan exact --target aarch64`.
    pub const EXACT_AARCH64: NanModel = NanModel::Exact(&AARCH64_DN_OFF);

    /// The `--nan` spelling.
    pub fn flag(self) -> &'static str {
        match self {
            NanModel::Canonical => "equal",
            NanModel::Exact(_) => "exact",
        }
    }

    /// The model of a `--nan` value on the host target.
    pub fn from_flag(s: &str) -> Option<NanModel> {
        NanModel::for_target(s, false)
    }

    /// The model of a `--nan` value for the target (`aarch64` true for an
    /// AArch64 `--target`, false for x86-64). `exact` takes the NaN rule of
    /// the target's architecture.
    pub fn for_target(s: &str, aarch64: bool) -> Option<NanModel> {
        match s {
            "equal" => Some(NanModel::Canonical),
            "exact" if aarch64 => Some(NanModel::EXACT_AARCH64),
            "exact" => Some(NanModel::EXACT_X86),
            _ => None,
        }
    }

    /// Whether NaN bits are modelled exactly (`--nan exact`).
    pub fn is_exact(self) -> bool {
        matches!(self, NanModel::Exact(_))
    }

    /// The target's NaN rule, under `--nan exact`.
    pub fn rules(self) -> Option<&'static NanRules> {
        match self {
            NanModel::Canonical => None,
            NanModel::Exact(r) => Some(r),
        }
    }

    /// The sentence every report that may involve a NaN carries.
    pub fn note(self) -> &'static str {
        match self {
            NanModel::Canonical => {
                "all NaNs compare equal: two float results that are both NaN are equal whatever their sign and payload, \
                 and a NaN an operation produces is modelled as the canonical quiet NaN (use --nan exact to compare NaN bits)"
            }
            NanModel::Exact(r) => r.note,
        }
    }
}

/// Which NaN operand wins when several are NaN.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Propagation {
    /// The first NaN operand, signalling or quiet (x86 SSE/AVX).
    FirstNan,
    /// The first signalling NaN, else the first quiet NaN (AArch64 with
    /// FPCR.DN = 0, and IEEE 754-2008's recommendation).
    SignallingFirst,
}

/// What fmin/fmax (llvm.minnum/maxnum) do with NaN operands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MinMaxNan {
    /// One NaN operand: the other operand; two: the second operand, bits
    /// unchanged (x86 lowers minnum to compares and selects).
    SelectSecond,
    /// AArch64 FMINNM/FMAXNM: one quiet NaN gives the other operand, but a
    /// signalling NaN operand (or two NaNs) goes through NaN propagation.
    SignallingPropagates,
}

/// A target's NaN rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NanRules {
    /// Whether the default NaN of an invalid operation has its sign set.
    pub default_nan_negative: bool,
    /// Which NaN operand a result propagates.
    pub propagation: Propagation,
    /// The NaN priority of fma(a, b, c)'s operands, as indices 0, 1, 2 of
    /// a, b, c: the operand order of the instruction the target selects.
    pub fma_order: [usize; 3],
    /// Whether fma(inf, 0, quiet NaN) (either product order) gives the
    /// default NaN rather than the NaN addend (Arm FPMulAdd does).
    pub fma_invalid_product_default: bool,
    /// What fmin/fmax do with NaN operands.
    pub min_max: MinMaxNan,
    /// The report's sentence on NaNs.
    pub note: &'static str,
}

/// x86 SSE/AVX (and scalar C float code, which clang compiles to SSE).
pub const X86_SSE: NanRules = NanRules {
    default_nan_negative: true,
    propagation: Propagation::FirstNan,
    // vfmadd213 and glibc's fmaf take b, a, c.
    fma_order: [1, 0, 2],
    fma_invalid_product_default: false,
    min_max: MinMaxNan::SelectSecond,
    note: "NaN bits are exact: NaNs are produced and propagated as x86 SSE/AVX does (default NaN 0xFFC00000, \
           first NaN operand quieted) and compared bit for bit",
};

/// AArch64 with default-NaN mode off (Linux's default): the default NaN is
/// positive (0x7FC00000) and a signalling operand wins over a quiet one
/// (the Arm ARM's FPProcessNaNs). fma(a, b, c) is FMADD d, a, b, c, whose
/// FPMulAdd processes the addend first, then a, then b.
pub const AARCH64_DN_OFF: NanRules = NanRules {
    default_nan_negative: false,
    propagation: Propagation::SignallingFirst,
    fma_order: [2, 0, 1],
    fma_invalid_product_default: true,
    min_max: MinMaxNan::SignallingPropagates,
    note: "NaN bits are exact: NaNs are produced and propagated as AArch64 does with FPCR.DN off (default NaN 0x7FC00000, \
           a signalling NaN operand before a quiet one, quieted) and compared bit for bit",
};

/// The quiet bit of a format (the top bit of the significand field).
pub fn quiet_bit(f: FpFormat) -> u128 {
    1u128 << (f.significand_bits() - 2)
}

/// `bits` with the quiet bit set: a signalling NaN made quiet, payload kept.
pub fn quiet(f: FpFormat, bits: u128) -> u128 {
    bits | quiet_bit(f)
}

/// The NaN an invalid operation (0/0, inf - inf) gives on the target: the
/// canonical quiet NaN, with the sign set where the target does so.
pub fn default_nan(rules: &NanRules, f: FpFormat) -> u128 {
    let positive = super::canonical_nan(f);
    if rules.default_nan_negative {
        positive | 1u128 << (f.width() - 1)
    } else {
        positive
    }
}

/// Whether `bits` are a signalling NaN (quiet bit clear) in format `f`.
pub fn is_signalling(f: FpFormat, bits: u128) -> bool {
    super::fp_is_nan(f, bits) && bits & quiet_bit(f) == 0
}

/// The NaN an operation returns when its result is NaN, given its operands
/// in priority order (all of format `f`).
pub fn nan_result(rules: &NanRules, f: FpFormat, operands: &[u128]) -> u128 {
    let nan = |x: &&u128| super::fp_is_nan(f, **x);
    let winner = match rules.propagation {
        Propagation::FirstNan => operands.iter().find(nan),
        Propagation::SignallingFirst => operands.iter().find(|x| is_signalling(f, **x)).or_else(|| operands.iter().find(nan)),
    };
    winner.map_or_else(|| default_nan(rules, f), |x| quiet(f, *x))
}

/// A NaN converted between formats: sign kept, payload aligned at its top
/// bit (shifted up when widening, truncated when narrowing), quieted.
pub fn convert_nan(from: FpFormat, to: FpFormat, bits: u128) -> u128 {
    let (fs, ts) = (from.significand_bits() - 1, to.significand_bits() - 1);
    let payload = bits & mask(fs);
    let moved = if ts >= fs { payload << (ts - fs) } else { payload >> (fs - ts) };
    let sign = (bits >> (from.width() - 1)) & 1;
    let exp = mask(to.exponent_bits()) << ts;
    quiet(to, sign << (to.width() - 1) | exp | moved)
}

impl super::ExprPool {
    /// `x` with any NaN replaced by the canonical NaN: comparing two such
    /// values bit for bit is "equal, or both NaN".
    pub fn nan_blind(&mut self, f: FpFormat, x: super::ExprId) -> super::ExprId {
        let nan = self.is_nan(f, x);
        let canonical = self.constant(f.width(), super::canonical_nan(f));
        self.ite(nan, canonical, x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x86_rule_matches_measured_bits() {
        let f = FpFormat::Single;
        assert_eq!(default_nan(&X86_SSE, f), 0xffc0_0000);
        assert_eq!(default_nan(&X86_SSE, FpFormat::Double), 0xfff8_0000_0000_0000);
        assert_eq!(nan_result(&X86_SSE, f, &[0x7fc0_0001, 0xffc0_0002]), 0x7fc0_0001);
        assert_eq!(nan_result(&X86_SSE, f, &[0x3f80_0000, 0x7f80_0003]), 0x7fc0_0003);
        assert_eq!(nan_result(&X86_SSE, f, &[0xffc0_0002, 0x7f80_0003]), 0xffc0_0002);
        assert_eq!(nan_result(&AARCH64_DN_OFF, f, &[0xffc0_0002, 0x7f80_0003]), 0x7fc0_0003);
        assert_eq!(convert_nan(f, FpFormat::Double, 0x7f80_0003), 0x7ff8_0000_6000_0000);
        assert_eq!(convert_nan(FpFormat::Double, f, 0xfff0_1234_0000_0123), 0xffc0_91a0);
    }
}
