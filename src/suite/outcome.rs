//! The result of a suite: one `EntryResult` per entry, whether it met its
//! expectation, and the suite report (JSON, SARIF, JUnit) built from them.
//! `symcross merge` reads suite reports back and joins them.

use super::manifest::{Expectation, Manifest};
use crate::report::{junit, sarif, Finding, FindingKind, Report, Verdict};
use serde::{Deserialize, Serialize};

/// What became of one suite entry; serialised in the suite report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EntryResult {
    /// The entry's name (unique within the manifest).
    pub name: String,
    /// `check` or `race`.
    pub command: String,
    /// Index of the entry in the manifest (the order reports are listed in).
    pub index: usize,
    /// What the manifest expected.
    pub expect: Expectation,
    /// `met`, `unmet` or `error` (the run gave no report).
    pub outcome: String,
    /// One line saying what happened.
    pub summary: String,
    /// Whether the report came from the result cache.
    pub cached: bool,
    /// Wall time of this run (for a cached entry, of the run that made the report).
    pub seconds: f64,
    /// The run's exit status (for a cached entry, the exit code its verdict gives); `None` when there was none (killed by a signal, failed to start).
    pub exit_code: Option<i32>,
    /// The entry's own report, when the run produced one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub report: Option<Report>,
    /// What went wrong when there is no report (the child's stderr).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub error: Option<String>,
}

/// Whether a report meets an expectation.
pub fn meets(expect: &Expectation, report: &Report) -> bool {
    let confirmed =
        |kind: &str| report.findings.iter().any(|f| f.status.is_confirmed() && f.kind != FindingKind::Unsupported && f.kind.name() == kind);
    match expect {
        Expectation::Equivalent => report.verdict == Verdict::Equivalent,
        Expectation::NoFindings => report.verdict == Verdict::NoFindings,
        Expectation::Findings => report.verdict == Verdict::Findings,
        Expectation::Kind(k) => report.verdict == Verdict::Findings && confirmed(k),
        Expectation::Inconclusive => report.verdict == Verdict::Inconclusive,
    }
}

/// What a report amounts to, in a few words.
pub fn got(report: &Report) -> String {
    match report.verdict {
        Verdict::Equivalent => "equivalent".into(),
        Verdict::NoFindings => "no findings (the program has no check)".into(),
        Verdict::Inconclusive => match &report.limit {
            Some(l) => format!("inconclusive ({l} limit)"),
            None => "inconclusive".into(),
        },
        Verdict::Findings => {
            let mut kinds: Vec<&str> = report.findings.iter().filter(|f| f.status.is_confirmed()).map(|f| f.kind.name()).collect();
            kinds.dedup();
            format!("findings {}", kinds.join(","))
        }
    }
}

/// The suite report: every entry's result and the summary, as JSON.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SuiteReport {
    /// Always `symcross`.
    pub tool: String,
    /// The symcross version that ran the suite.
    pub version: String,
    /// Path of the manifest, as given on the command line.
    pub manifest: String,
    /// `passed` when every entry met its expectation, else `failed`.
    pub verdict: String,
    /// `K/N` when this is one shard of the suite.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub shard: Option<String>,
    /// Entries in the whole manifest (every shard's), so that `merge` can
    /// tell when a shard's entries are missing.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub manifest_entries: Option<usize>,
    /// The identity of the manifest's entries (`digest`), so that `merge`
    /// refuses a shard of another manifest or of another version of it.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub manifest_digest: Option<String>,
    /// Counts over the entries.
    pub summary: Summary,
    /// One result per entry, in manifest order.
    pub entries: Vec<EntryResult>,
}

/// Counts over a suite's entries.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    /// Number of entries run (in this shard).
    pub total: usize,
    /// Entries that met their expectation.
    pub met: usize,
    /// Entries that did not.
    pub unmet: usize,
    /// Entries whose run gave no report.
    pub errors: usize,
    /// Entries whose report came from the cache.
    pub cached: usize,
    /// Wall time of the whole suite run.
    pub seconds: f64,
}

impl SuiteReport {
    /// The report of `entries` (sorted here into manifest order) with its summary and verdict.
    pub fn new(manifest: String, shard: Option<String>, mut entries: Vec<EntryResult>, seconds: f64) -> SuiteReport {
        entries.sort_by_key(|e| e.index);
        let count = |o: &str| entries.iter().filter(|e| e.outcome == o).count();
        let summary = Summary {
            total: entries.len(),
            met: count("met"),
            unmet: count("unmet"),
            errors: count("error"),
            cached: entries.iter().filter(|e| e.cached).count(),
            seconds,
        };
        let verdict = if summary.met == summary.total { "passed" } else { "failed" }.to_string();
        SuiteReport {
            tool: "symcross".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            manifest,
            verdict,
            shard,
            manifest_entries: None,
            manifest_digest: None,
            summary,
            entries,
        }
    }

    /// Records which manifest's entries this report is of (`digest`).
    pub fn of_manifest(mut self, manifest: &Manifest) -> SuiteReport {
        self.manifest_entries = Some(manifest.entries.len());
        self.manifest_digest = Some(digest(manifest));
        self
    }

    /// 0 when every entry met its expectation, else 1.
    pub fn exit_code(&self) -> i32 {
        if self.verdict == "passed" {
            0
        } else {
            1
        }
    }

    /// The suite report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// All findings of all entries, as one SARIF run: each result names
    /// its entry; a finding the entry expected (and got) is a `note`, an
    /// entry whose expectation was not met is an `error` of its own.
    pub fn sarif(&self) -> String {
        let entries: Vec<sarif::SuiteEntry> = self
            .entries
            .iter()
            .map(|e| sarif::SuiteEntry {
                name: &e.name,
                manifest: &self.manifest,
                expect: e.expect.describe(),
                outcome: &e.outcome,
                summary: &e.summary,
                report: e.report.as_ref(),
                expected: e
                    .report
                    .as_ref()
                    .map(|r| r.findings.iter().map(|f| e.outcome == "met" && expected(&e.expect, f)).collect())
                    .unwrap_or_default(),
            })
            .collect();
        sarif::render_suite(&entries)
    }

    /// One test case per entry: passed when it met its expectation.
    pub fn junit(&self) -> String {
        let cases: Vec<junit::Case> = self.entries.iter().map(case).collect();
        junit::render("symcross suite", &cases)
    }

    /// The table printed at the end of a suite run.
    pub fn table(&self) -> String {
        let width = self.entries.iter().map(|e| e.name.chars().count()).max().unwrap_or(5).clamp(5, 60);
        let mut out = format!("{:<6} {:<width$} {:<22} {:<22} {:>8}\n", "result", "entry", "expected", "got", "seconds");
        for e in &self.entries {
            let result = match e.outcome.as_str() {
                "met" => "ok",
                "unmet" => "FAIL",
                _ => "ERROR",
            };
            let got = e.report.as_ref().map(got).unwrap_or_else(|| "no report".into());
            let secs = if e.cached { "cached".to_string() } else { format!("{:.2}", e.seconds) };
            out.push_str(&format!("{result:<6} {:<width$} {:<22} {:<22} {secs:>8}\n", e.name, e.expect.describe(), got));
        }
        let s = &self.summary;
        out.push_str(&format!(
            "{}: {} of {} entries met their expectation ({} unmet, {} errors, {} cached) in {:.2} s\n",
            self.verdict, s.met, s.total, s.unmet, s.errors, s.cached, s.seconds
        ));
        out
    }
}

/// The identity of a manifest's entries: FNV-1a (fixed by its definition,
/// so every machine computes the same) of each entry's name, command,
/// files, options and expectation, in order.
pub fn digest(manifest: &Manifest) -> String {
    let mut text = String::new();
    for e in &manifest.entries {
        text.push_str(&format!("{}\u{0}{}\u{0}{:?}\u{0}{:?}\u{0}{:?}\u{1}", e.name, e.command, e.files, e.options, e.expect));
    }
    format!("{:016x}", sarif::fnv1a(text.as_bytes()))
}

/// Whether finding `f` is what an entry expecting `expect` was meant to
/// find (the entry met its expectation because of findings like it).
pub fn expected(expect: &Expectation, f: &Finding) -> bool {
    match expect {
        Expectation::Kind(k) => f.status.is_confirmed() && f.kind.name() == k,
        Expectation::Findings => f.status.is_confirmed(),
        Expectation::Inconclusive => !f.status.is_confirmed() || f.kind == FindingKind::Unsupported,
        Expectation::Equivalent | Expectation::NoFindings => false,
    }
}

/// The first finding of an entry that did not meet its expectation, as a
/// compiler diagnostic with its source line and witness, for the log of a
/// CI run. Paths the entry's run printed relative to the manifest's
/// directory are shown relative to where the suite runs.
pub fn first_finding_text(manifest_root: &str, e: &EntryResult) -> Option<String> {
    let report = e.report.as_ref()?;
    let f = report.findings.iter().find(|f| f.status.is_confirmed() && f.kind != FindingKind::Unsupported).or(report.findings.first())?;
    Some(crate::report::text::render_finding_from(f, manifest_root))
}

fn case(e: &EntryResult) -> junit::Case {
    let output = e.report.as_ref().map(crate::report::text::render).unwrap_or_default();
    let outcome = match e.outcome.as_str() {
        "met" => junit::Outcome::Passed,
        "unmet" => junit::Outcome::Failure { message: e.summary.clone(), text: output.clone() },
        _ => junit::Outcome::Error { kind: "error".into(), message: e.summary.clone(), text: e.error.clone().unwrap_or_default() },
    };
    junit::Case { classname: format!("symcross.{}", e.command), name: e.name.clone(), seconds: e.seconds, outcome, output }
}
