//! The machine-readable report (DESIGN.md section 1). Field names and
//! values are a stable interface for CI scripts: add fields, never rename.

use super::finding::{Finding, Status};
use serde::Serialize;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Every path finished and every check and assert was proved.
    Equivalent,
    Findings,
    /// A limit was hit before anything was found.
    Inconclusive,
}

impl Verdict {
    /// The process exit status for this verdict (DESIGN.md section 1).
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Equivalent => 0,
            Verdict::Findings => 1,
            Verdict::Inconclusive => 3,
        }
    }
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct RunStats {
    pub paths: u64,
    pub merged: u64,
    pub instructions: u64,
    pub queries: u64,
    pub seconds: f64,
    /// How many element checks each step of the ladder decided.
    pub decided: DecidedCounts,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct DecidedCounts {
    pub structural: u64,
    pub canonical: u64,
    pub implied_query: u64,
    pub bit_precise: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub tool: &'static str,
    pub version: &'static str,
    pub input: String,
    pub assumptions: Vec<String>,
    pub verdict: Verdict,
    pub stats: RunStats,
    pub findings: Vec<Finding>,
    /// Which limit stopped exploration early (`time`, `paths`, `memory`,
    /// `interrupted` for SIGINT/SIGTERM).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
    /// For `symcross race`: which mode decided (`enumerate` or `pair`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

impl Report {
    pub fn new(input: String, assumptions: Vec<String>, findings: Vec<Finding>, stats: RunStats, limit: Option<String>) -> Report {
        let verdict = if !findings.is_empty() {
            Verdict::Findings
        } else if limit.is_some() {
            Verdict::Inconclusive
        } else {
            Verdict::Equivalent
        };
        Report {
            tool: "symcross",
            version: env!("CARGO_PKG_VERSION"),
            input,
            assumptions,
            verdict,
            stats,
            findings,
            limit,
            mode: None,
        }
    }

    pub fn confirmed(&self) -> usize {
        self.findings.iter().filter(|f| f.status == Status::Confirmed).count()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}
