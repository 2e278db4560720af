//! Findings: what a run reports. Serialised as the `findings` entries of
//! the JSON report (DESIGN.md section 1), so field names are part of the
//! stable interface.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    Mismatch,
    Race,
    BarrierDivergence,
    OutOfBounds,
    UseAfterFree,
    DoubleFree,
    UninitializedRead,
    DivisionByZero,
    Unsupported,
}

impl FindingKind {
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Mismatch => "mismatch",
            FindingKind::Race => "race",
            FindingKind::BarrierDivergence => "barrier-divergence",
            FindingKind::OutOfBounds => "out-of-bounds",
            FindingKind::UseAfterFree => "use-after-free",
            FindingKind::DoubleFree => "double-free",
            FindingKind::UninitializedRead => "uninitialized-read",
            FindingKind::DivisionByZero => "division-by-zero",
            FindingKind::Unsupported => "unsupported",
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A concrete input (the witness) makes it happen.
    Confirmed,
    /// It may happen, but no solver confirmed it (timeout, or a path whose
    /// feasibility is unknown).
    Unconfirmed,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// Which step of the decision ladder (DESIGN.md section 3) decided a check.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecidedBy {
    Structural,
    Canonical,
    ImpliedQuery,
    /// Concrete evaluation of both sides on sampled inputs (a refutation).
    Sampling,
    BitPrecise,
    /// Not decided: the solver ran out of time (the query's limit or the
    /// run's `--max-time`), so a faster machine might decide it.
    Timeout,
    /// Not decided: the solver gave no answer for another reason (a work
    /// budget, an unsupported construct, a model that cannot be trusted, a
    /// solver failure); the finding's message says which.
    SolverUnknown,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Finding {
    pub kind: FindingKind,
    pub status: Status,
    pub message: String,
    pub location: Location,
    /// Hex bytes per symbolic input name.
    pub witness: Option<BTreeMap<String, String>>,
    /// The same witness decoded by type, for the inputs whose type the
    /// program gives (`float src[64]`): element by element.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness_values: Option<BTreeMap<String, DecodedInput>>,
    /// For mismatches: both sides, printed with explicit brackets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expressions: Option<MismatchExprs>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<DecidedBy>,
    /// Further source locations involved (the other access of a race, the
    /// free of a use-after-free, the call stack).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Related {
    pub message: String,
    pub location: Location,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MismatchExprs {
    pub definitions: String,
    pub left: String,
    pub right: String,
    /// Concrete values of both sides under the witness, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right_value: Option<String>,
    /// The assumption set under which the sides are equal, if any was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equal_under: Option<Vec<String>>,
    /// The type `left_value` and `right_value` are read in (`float`, `i64`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element_type: Option<String>,
    /// Under the witness, how many compared elements differ and the first
    /// of them (at most 64), when the buffers could be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub differing: Option<DifferingElements>,
}

/// The elements of a `symcross_check_equal` that differ under the witness.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DifferingElements {
    pub count: u64,
    pub elements: Vec<ElementDifference>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ElementDifference {
    pub index: u64,
    pub left: String,
    pub right: String,
}

/// One witness input decoded by its type: `type` is `float[64]`, `i32`,
/// ...; `elements` holds each element as text (`1.5f (0x3fc00000)`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DecodedInput {
    #[serde(rename = "type")]
    pub type_name: String,
    pub elements: Vec<String>,
}
