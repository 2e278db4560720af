//! The report for people: each finding with its kind, status, file:line,
//! message, the expressions of a mismatch, the witness, and a summary line.

use super::finding::{DecidedBy, Finding, FindingKind, Status};
use super::json::{Report, Verdict};
use std::fmt::Write;

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for f in &report.findings {
        render_finding(&mut out, f);
        out.push('\n');
    }
    let s = &report.stats;
    let verdict = verdict_line(report);
    let assumed = if report.assumptions.is_empty() { String::new() } else { format!(" (assuming {})", report.assumptions.join(", ")) };
    let _ = writeln!(out, "{}: {verdict}{assumed}", report.input);
    if let Some(mode) = &report.mode {
        let _ = writeln!(out, "  mode: {mode}");
    }
    for s in &report.semantics {
        let _ = writeln!(out, "  semantics: {s}");
    }
    for w in &report.warnings {
        let _ = writeln!(out, "  warning: {}", w.message);
    }
    if !report.unverified_rules.is_empty() {
        let _ = writeln!(out, "  unverified rules: {}", report.unverified_rules.join(", "));
    }
    let _ = writeln!(
        out,
        "  {} paths, {} instructions, {} solver queries, {:.2} s; checks decided: {} structural, {} canonical, {} bit-precise",
        s.paths, s.instructions, s.queries, s.seconds, s.decided.structural, s.decided.canonical, s.decided.bit_precise
    );
    out
}

/// The one-line verdict: what was found, or what was proved and how far
/// that claim goes.
fn verdict_line(report: &Report) -> String {
    let has = |kind: &str| report.warnings.iter().any(|w| w.kind == kind);
    let mut line = match report.verdict {
        // A kernel is not "equivalent" to anything: say what was shown, as
        // GPUVerify users read it (the JSON verdict stays `equivalent`).
        Verdict::Equivalent if report.mode.is_some() => "no data race, barrier divergence or memory error found on any path".to_string(),
        Verdict::Equivalent if has("no-checks") => {
            "no findings: no memory error on any path (the program has no check or assert, so nothing was compared)".to_string()
        }
        Verdict::Equivalent if has("no-symbolic-input") => {
            "equivalent on one concrete input only: every check held (no input is symbolic, so this is not a proof)".to_string()
        }
        Verdict::Equivalent => "equivalent: every check proved on every path".to_string(),
        Verdict::Findings => format!(
            "findings: {} ({} confirmed, {} unconfirmed)",
            report.findings.len(),
            report.confirmed(),
            report.findings.len() - report.confirmed()
        ),
        Verdict::Inconclusive if report.limit.as_deref() == Some("interrupted") => {
            "inconclusive: interrupted by a signal before exploration finished; nothing found so far".to_string()
        }
        Verdict::Inconclusive => {
            let mut why = Vec::new();
            if let Some(l) = &report.limit {
                why.push(format!("the {l} limit was hit before exploration finished"));
            }
            let unsupported = report.findings.iter().filter(|f| f.kind == FindingKind::Unsupported).count();
            if unsupported > 0 {
                why.push(format!("{unsupported} construct(s) could not be modelled"));
            }
            let unconfirmed = report.findings.iter().filter(|f| f.kind != FindingKind::Unsupported).count();
            if unconfirmed > 0 {
                why.push(format!("{unconfirmed} finding(s) could not be confirmed"));
            }
            if has("no-check-reached") {
                why.push("no check was reached".into());
            }
            if has("nothing-checked") {
                why.push("nothing was checked".into());
            }
            if has("no-memory-access") {
                why.push("the kernel makes no memory access to check".into());
            }
            if has("nan-bits-read") {
                why.push("the program reads NaN bits that --nan equal does not model (use --nan exact)".into());
            }
            format!("inconclusive: {}; nothing confirmed was found", why.join("; "))
        }
    };
    if !report.unverified_rules.is_empty() {
        line.push_str(" [unverified rules]");
    }
    line
}

fn render_finding(out: &mut String, f: &Finding) {
    let status = match f.status {
        Status::Confirmed => "confirmed",
        Status::Unconfirmed => "unconfirmed",
    };
    let _ = writeln!(out, "{}:{}:{}: {} ({status}): {}", f.location.file, f.location.line, f.location.column, f.kind.name(), f.message);
    if let Some(by) = f.decided_by {
        let step = match by {
            DecidedBy::Structural => "structural identity",
            DecidedBy::Canonical => "e-graph canonicalisation",
            DecidedBy::ImpliedQuery => "implied integer query",
            DecidedBy::Sampling => "evaluation on sampled inputs",
            DecidedBy::BitPrecise => "bit-precise solver",
            DecidedBy::Timeout => "solver timeout (not confirmed)",
        };
        let _ = writeln!(out, "  decided by: {step}");
    }
    if let Some(e) = &f.expressions {
        if !e.definitions.is_empty() {
            let _ = writeln!(out, "  where");
            let lines: Vec<&str> = e.definitions.lines().collect();
            for line in lines.iter().take(MAX_DEFINITION_LINES) {
                let _ = writeln!(out, "    {}", elide(line));
            }
            if lines.len() > MAX_DEFINITION_LINES {
                let _ = writeln!(out, "    ... ({} more definitions in the JSON report)", lines.len() - MAX_DEFINITION_LINES);
            }
        }
        let _ = writeln!(out, "  left:  {}", elide(&e.left));
        let _ = writeln!(out, "  right: {}", elide(&e.right));
        let _ = writeln!(out, "  (the first differing subterms are marked ⟪ ⟫)");
        if let (Some(l), Some(r)) = (&e.left_value, &e.right_value) {
            let _ = writeln!(out, "  under the witness: left = {l}, right = {r}");
        }
        match &e.equal_under {
            Some(a) if !a.is_empty() => {
                let _ = writeln!(out, "  equal under --assume {}", a.join(","));
            }
            _ => {}
        }
    }
    if let Some(w) = &f.witness {
        for (name, hex) in w {
            let _ = writeln!(out, "  witness {name} = {}", abbreviate(hex));
        }
    }
    for r in &f.related {
        let _ = writeln!(out, "  {} at {}:{}", r.message, r.location.file, r.location.line);
    }
}

fn abbreviate(hex: &str) -> String {
    if hex.len() <= 96 {
        hex.to_string()
    } else {
        format!("{}... ({} bytes)", &hex[..96], hex.len() / 2)
    }
}

/// Expressions longer than this many characters are cut in the text report
/// (a 1024-term sum is 40 000 characters); the JSON report has them whole.
const MAX_EXPRESSION_CHARS: usize = 600;
const MAX_DEFINITION_LINES: usize = 12;

fn elide(text: &str) -> String {
    if text.chars().count() <= MAX_EXPRESSION_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(MAX_EXPRESSION_CHARS).collect();
    format!("{head} ... ({} characters in all; the JSON report has the whole expression)", text.chars().count())
}
