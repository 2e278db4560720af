//! Results of x86's reciprocal estimates (RCPPS, RSQRTPS and their scalar
//! and AVX forms) and of AArch64's (FRECPE, FRSQRTE on single precision)
//! are remembered by node, with the operand they estimate, so that an
//! analysis can use a bound on them: for a normal operand whose result is
//! normal, the estimate is the exact value times `1 + d`, `|d| <= e`, e
//! being what Intel documents (1.5 * 2^-12), or for AArch64, whose tables
//! are exact in the model, the largest relative error over the Arm ARM's
//! table (checked against the lowering in tests). The lane's node itself
//! is built by the SIMD lowering (`simd/float_ops.rs`, `neon/estimate.rs`);
//! this is only the record.

use super::{ExprId, ExprPool};

/// Which estimate a node is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EstimateKind {
    /// RCPPS: an estimate of `1 / x`.
    Reciprocal,
    /// RSQRTPS: an estimate of `1 / sqrt(x)`.
    ReciprocalSqrt,
    /// FRECPE: the Arm ARM's table estimate of `1 / x`.
    ArmReciprocal,
    /// FRSQRTE: the Arm ARM's table estimate of `1 / sqrt(x)`.
    ArmReciprocalSqrt,
}

impl EstimateKind {
    /// Intel's documented bound on the relative error, 1.5 * 2^-12
    /// (exactly 3 * 2^-13, a double without rounding).
    pub const RELATIVE_ERROR: f64 = 3.0 / 8192.0;

    /// FRECPE's largest relative error over its table, 0.0028534 (at the
    /// upper end of the interval of index 0), below 0x1.8p-9.
    pub const ARM_RECIPROCAL_ERROR: f64 = 3.0 / 1024.0;

    /// FRSQRTE's largest relative error over its table, 0.0032769, below
    /// 0x1.bp-9.
    pub const ARM_RECIPROCAL_SQRT_ERROR: f64 = 27.0 / 8192.0;

    /// The bound on the relative error for a normal operand whose result
    /// is normal.
    pub fn relative_error(self) -> f64 {
        match self {
            EstimateKind::Reciprocal | EstimateKind::ReciprocalSqrt => Self::RELATIVE_ERROR,
            EstimateKind::ArmReciprocal => Self::ARM_RECIPROCAL_ERROR,
            EstimateKind::ArmReciprocalSqrt => Self::ARM_RECIPROCAL_SQRT_ERROR,
        }
    }

    /// Whether the estimate is of `1 / sqrt(x)` (else of `1 / x`).
    pub fn is_root(self) -> bool {
        matches!(self, EstimateKind::ReciprocalSqrt | EstimateKind::ArmReciprocalSqrt)
    }

    /// The estimated function of the operand, in words.
    pub fn words(self) -> &'static str {
        if self.is_root() {
            "1/sqrt(x)"
        } else {
            "1/x"
        }
    }
}

/// One single-precision lane of an estimate: `input` is the operand's
/// 32-bit value and `fresh` the id of the fresh value that is the chosen
/// estimate where it lies within the bound (none for AArch64's, which the
/// model computes exactly).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Estimate {
    /// What is estimated.
    pub kind: EstimateKind,
    /// The operand (single precision bits).
    pub input: ExprId,
    /// The fresh value the lane takes when it lies within the bound.
    pub fresh: Option<u32>,
}

impl ExprPool {
    /// Records that `node` is the lane `estimate` describes.
    pub fn note_estimate(&mut self, node: ExprId, estimate: Estimate) {
        self.estimates.insert(node, estimate);
    }

    /// The estimate `node` is, if the SIMD lowering built it as one.
    pub fn estimate_of(&self, node: ExprId) -> Option<Estimate> {
        self.estimates.get(&node).copied()
    }

    /// Whether any estimate was recorded in this pool.
    pub fn has_estimates(&self) -> bool {
        !self.estimates.is_empty()
    }
}
