//! Results of x86's reciprocal estimates (RCPPS, RSQRTPS and their scalar
//! and AVX forms) are remembered by node, with the operand they estimate,
//! so that an analysis can use what Intel documents about them: for a
//! normal operand whose result is normal, the estimate is the exact value
//! times `1 + d`, `|d| <= 1.5 * 2^-12`. The lane's node itself is built by
//! the SIMD lowering (`simd/float_ops.rs`); this is only the record.

use super::{ExprId, ExprPool};

/// Which estimate a node is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EstimateKind {
    /// RCPPS: an estimate of `1 / x`.
    Reciprocal,
    /// RSQRTPS: an estimate of `1 / sqrt(x)`.
    ReciprocalSqrt,
}

impl EstimateKind {
    /// Intel's documented bound on the relative error, 1.5 * 2^-12
    /// (exactly 3 * 2^-13, a double without rounding).
    pub const RELATIVE_ERROR: f64 = 3.0 / 8192.0;

    /// The estimated function of the operand, in words.
    pub fn words(self) -> &'static str {
        match self {
            EstimateKind::Reciprocal => "1/x",
            EstimateKind::ReciprocalSqrt => "1/sqrt(x)",
        }
    }
}

/// One single-precision lane of an estimate: `input` is the operand's
/// 32-bit value and `fresh` the id of the fresh value that is the chosen
/// estimate where it lies within the bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Estimate {
    /// What is estimated.
    pub kind: EstimateKind,
    /// The operand (single precision bits).
    pub input: ExprId,
    /// The fresh value the lane takes when it lies within the bound.
    pub fresh: u32,
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
