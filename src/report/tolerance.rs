//! The result of one tolerance check (`symcross_check_close`, or a
//! `symcross_check_equal` under `--tolerance`): its verdict for the bound,
//! the worst input found with its error, and the samples behind the error
//! plot. Serialised as the `tolerance` entries of the JSON report (README,
//! JSON report), so field names are part of the stable interface.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The verdict of a tolerance check for its bound.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ToleranceVerdict {
    /// Within the bound on every input of every path: proved.
    WithinBound,
    /// An input puts the values further apart than the bound (a `mismatch`
    /// finding with the witness).
    Exceeds,
    /// Within the bound on every input tried, but not proved.
    WithinBoundOnInputsTried,
    /// An input exceeds the bound through a choice the model leaves open
    /// (an approximate operation's result): an unconfirmed `mismatch`
    /// finding, which the native replay (under the tolerance) decides.
    MayExceed,
}

impl ToleranceVerdict {
    /// In words, for the text report.
    pub fn describe(self) -> &'static str {
        match self {
            ToleranceVerdict::WithinBound => "within bound (proved)",
            ToleranceVerdict::Exceeds => "exceeds",
            ToleranceVerdict::WithinBoundOnInputsTried => "within bound on every input tried (not proved)",
            ToleranceVerdict::MayExceed => "may exceed (on an input whose values run through an approximation; the native replay decides)",
        }
    }
}

/// One input of the error plot: where it lies and how far apart the two
/// values were there.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorSample {
    /// The plotted input's value.
    pub input: f64,
    /// The distance in ulps (a NaN or infinity mismatch is not plotted).
    pub ulps: f64,
    /// The error in the tolerance's own measure (ulps, relative, absolute,
    /// or relative to the given magnitude): what the plot draws.
    #[serde(default)]
    pub error: f64,
}

/// The input with the largest error found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorstInput {
    /// Each symbolic input's bytes, as hex (little-endian, as witnesses).
    pub inputs: BTreeMap<String, String>,
    /// The plotted input's value, when the check reads a float input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<f64>,
    /// The value the code under test computed there.
    pub got: String,
    /// The reference value there.
    pub want: String,
    /// The distance in ulps (`null` for a NaN or infinity mismatch).
    pub ulps: Option<u128>,
    /// `|got - want| / |want|`.
    pub relative: f64,
    /// `|got - want|`.
    pub absolute: f64,
    /// The error in the tolerance's own measure (ulps, relative, absolute,
    /// or relative to the given magnitude).
    #[serde(default)]
    pub error: f64,
}

/// The result of one element of one tolerance check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToleranceResult {
    /// The check's label (its `what` argument).
    pub what: String,
    /// Where the check is.
    pub location: crate::report::Location,
    /// The element of the compared buffers.
    pub element: u64,
    /// The tolerance, as the command line writes it (`ulp:2`, `rel:0.0015`).
    pub tolerance: String,
    /// The verdict for the bound.
    pub verdict: ToleranceVerdict,
    /// Which step decided it (`bit-precise`, `sampling`, ...; `timeout` or
    /// `solver-unknown` when nothing did).
    pub decided_by: crate::report::DecidedBy,
    /// The input with the largest error found, whatever the verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worst: Option<WorstInput>,
    /// An upper bound of the error (in the tolerance's measure) the solver
    /// proved, when the search reached one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proved_max: Option<f64>,
    /// The name of the plotted input (the first float input the values read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plotted_input: Option<String>,
    /// The inputs tried, for the error plot.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<ErrorSample>,
    /// Why the search for the worst input stopped short, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_note: Option<String>,
    /// How exhaustive evaluation or error analysis decided the bound (what
    /// was evaluated, which error bound was used), or why neither applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
}

impl ToleranceResult {
    /// One line for the text report.
    pub fn summary(&self) -> String {
        let mut s = format!("{} (element {}, {}): {}", self.what, self.element, self.tolerance, self.verdict.describe());
        if let Some(w) = &self.worst {
            let ulps = w.ulps.map(|u| format!("{u} ulp")).unwrap_or_else(|| "not comparable (NaN or infinity)".into());
            s.push_str(&format!("; largest error found {ulps}, relative {:.3e}", w.relative));
            if let Some(x) = w.input {
                s.push_str(&format!(" at {} = {x:e}", self.plotted_input.as_deref().unwrap_or("input")));
            }
            s.push_str(&format!(" (got {}, want {})", w.got, w.want));
        }
        if let Some(m) = self.proved_max {
            s.push_str(&format!("; no error above {m:e} (proved)"));
        }
        if let Some(n) = &self.search_note {
            s.push_str(&format!("; {n}"));
        }
        if let Some(p) = &self.proof {
            s.push_str(&format!("; {p}"));
        }
        s
    }
}
