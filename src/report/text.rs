//! The report for people: each finding with its kind, status, file:line,
//! message, the expressions of a mismatch, the witness, and a summary line.

use super::finding::{DecidedBy, Finding, Status};
use super::json::{Report, Verdict};
use std::fmt::Write;

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for f in &report.findings {
        render_finding(&mut out, f);
        out.push('\n');
    }
    let s = &report.stats;
    let verdict = match report.verdict {
        Verdict::Equivalent if report.mode.is_some() => {
            "equivalent: no race, barrier divergence or memory error on any path".to_string()
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
        Verdict::Inconclusive => format!(
            "inconclusive: the {} limit was hit before exploration finished; nothing found so far",
            report.limit.as_deref().unwrap_or("?")
        ),
    };
    let assumed = if report.assumptions.is_empty() { String::new() } else { format!(" (assuming {})", report.assumptions.join(", ")) };
    let _ = writeln!(out, "{}: {verdict}{assumed}", report.input);
    if let Some(mode) = &report.mode {
        let _ = writeln!(out, "  mode: {mode}");
    }
    let _ = writeln!(
        out,
        "  {} paths, {} instructions, {} solver queries, {:.2} s; checks decided: {} structural, {} canonical, {} bit-precise",
        s.paths, s.instructions, s.queries, s.seconds, s.decided.structural, s.decided.canonical, s.decided.bit_precise
    );
    out
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
            DecidedBy::BitPrecise => "bit-precise solver",
            DecidedBy::Timeout => "solver timeout (not confirmed)",
        };
        let _ = writeln!(out, "  decided by: {step}");
    }
    if let Some(e) = &f.expressions {
        if !e.definitions.is_empty() {
            let _ = writeln!(out, "  where");
            for line in e.definitions.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        let _ = writeln!(out, "  left:  {}", e.left);
        let _ = writeln!(out, "  right: {}", e.right);
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
