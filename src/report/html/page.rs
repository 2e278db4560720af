//! The page skeleton (head, style sheet, security policy) and the report
//! page of one run: the verdict and what stands behind it, the findings,
//! then the source with the findings under their lines.

use super::escape::escape;
use super::finding_block;
use super::source_listing;
use super::tolerance_plot;
use crate::report::{Report, Verdict};
use std::fmt::Write;
use std::path::Path;

/// No script, no request: styles and pictures are inline, images may only
/// be `data:` URLs. A page opened from a CI artifact cannot run code or
/// reach the network, whatever text a report carries.
const SECURITY_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STYLE: &str = r#"
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 1em 2em; color: #1d1d1f; background: #fff; }
h1 { font-size: 1.5em; margin: 0.2em 0; }
h2 { font-size: 1.2em; border-bottom: 1px solid #ddd; margin-top: 1.6em; }
h3 { font-size: 1.05em; margin: 0.2em 0 0.4em; }
code, pre, .mono { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
pre { white-space: pre-wrap; word-break: break-all; margin: 0.2em 0; }
table { border-collapse: collapse; }
caption { text-align: left; font-weight: 600; padding: 0.4em 0 0.2em; }
th, td { text-align: left; vertical-align: top; padding: 2px 10px 2px 0; }
.facts th { color: #555; font-weight: normal; white-space: nowrap; }
.verdict { display: inline-block; padding: 4px 10px; border-radius: 4px; font-weight: 600; }
.verdict-equivalent, .verdict-no-findings, .outcome-met { background: #d3f9d8; color: #1b5e20; }
.verdict-findings, .outcome-unmet { background: #ffe3e3; color: #a51111; }
.verdict-inconclusive, .outcome-error { background: #fff3bf; color: #7a5200; }
.finding { border: 1px solid #ddd; border-left: 5px solid #c92a2a; border-radius: 4px; padding: 0.6em 1em; margin: 1em 0; }
.finding.warning { border-left-color: #e8a200; }
.kind { font-weight: 600; }
.witness td, .witness th, .differing td, .differing th { border-bottom: 1px solid #eee; padding: 2px 12px 2px 0; }
.witness th, .differing th { color: #555; }
details { margin: 0.5em 0; }
summary { cursor: pointer; color: #1c5fb4; }
mark { background: #ffd8a8; }
.listing { width: 100%; border: 1px solid #ddd; margin-bottom: 1.5em; }
.listing td { padding: 0 6px; }
.listing .num { text-align: right; color: #888; user-select: none; width: 1%; white-space: nowrap; border-right: 1px solid #eee; }
.listing pre { margin: 0; white-space: pre; tab-size: 8; }
.listing tr.marked .code { background: #fff4e6; }
.listing .gap td { color: #888; background: #f8f9fa; }
.bubble { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; display: inline-block; margin: 2px 0 4px; padding: 3px 8px; border-radius: 5px; background: #ffe8cc; border: 1px solid #f0a35e; white-space: pre-wrap; max-width: 90ch; }
.bubble.error { background: #ffe3e3; border-color: #e07070; }
.bubble.note { background: #e7f5ff; border-color: #74a9d8; }
.bubble a { font-weight: 600; margin-right: 0.4em; }
.grid svg { max-width: 100%; height: auto; border: 1px solid #eee; }
.muted { color: #666; }
"#;

/// A whole HTML document: `title` (escaped here) and `body` (already HTML).
pub(super) fn document(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"{SECURITY_POLICY}\">\n\
         <meta name=\"generator\" content=\"symcross {}\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        env!("CARGO_PKG_VERSION"),
        escape(title)
    )
}

/// The report page of one `check` or `race` run. Source files named by
/// findings are read as the text report reads them: relative to the
/// working directory, else to `source_base` (a suite's manifest directory).
/// `index` links back to a suite's index page.
pub fn report_page(report: &Report, source_base: Option<&Path>, index: Option<&str>) -> String {
    let mut body = String::new();
    if let Some(href) = index {
        let _ = writeln!(body, "<p><a href=\"{}\">all entries</a></p>", escape(href));
    }
    let command = if report.mode.is_some() { "race" } else { "check" };
    let _ = writeln!(body, "<header>\n<h1>symcross {command}: <span class=\"mono\">{}</span></h1>", escape(&report.input));
    let _ = writeln!(
        body,
        "<p id=\"verdict\" class=\"verdict verdict-{}\">{}</p>\n</header>",
        verdict_class(report.verdict),
        escape(&crate::report::text::verdict_line(report))
    );
    summary(&mut body, report);
    let _ = writeln!(body, "<h2 id=\"findings\">Findings ({})</h2>", report.findings.len());
    if report.findings.is_empty() {
        body.push_str("<p class=\"muted\">None.</p>\n");
    }
    for (i, f) in report.findings.iter().enumerate() {
        finding_block::render(&mut body, i + 1, f);
    }
    tolerance_plot::render(&mut body, report);
    source_listing::render(&mut body, &report.findings, source_base);
    document(&format!("symcross {command}: {} ({})", report.input, verdict_word(report.verdict)), &body)
}

/// The JSON spelling of a verdict, also the CSS class of its colour.
pub(super) fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Equivalent => "equivalent",
        Verdict::NoFindings => "no-findings",
        Verdict::Findings => "findings",
        Verdict::Inconclusive => "inconclusive",
    }
}

fn verdict_word(v: Verdict) -> &'static str {
    verdict_class(v)
}

/// The facts behind the verdict: mode, limit, warnings, native replay,
/// assumptions, build flags and the run's counters.
fn summary(body: &mut String, report: &Report) {
    let mut rows: Vec<(&str, String)> = Vec::new();
    rows.push(("verdict", escape(verdict_word(report.verdict))));
    if let Some(mode) = &report.mode {
        rows.push(("mode", escape(&mode.to_string())));
    }
    rows.push((
        "limit",
        match &report.limit {
            Some(l) => {
                format!("<strong>{}</strong>: exploration stopped early, so nothing is proved beyond what was found", escape(l.name()))
            }
            None => "none hit: every path finished".to_string(),
        },
    ));
    if !report.assumptions.is_empty() {
        rows.push(("assuming", escape(&report.assumptions.join(", "))));
    }
    for s in &report.semantics {
        rows.push(("semantics", escape(s)));
    }
    if let Some(n) = &report.native_replay {
        rows.push((
            "native replay",
            escape(&format!(
                "{}: {} reproduced, {} not reproduced (the model and the CPU disagree), {} confirmed by the model only; {:.2} s",
                n.on, n.reproduced, n.not_reproduced, n.confirmed_by_model, n.seconds
            )),
        ));
    } else if command_is_check(report) {
        rows.push(("native replay", "none (no confirmed finding to replay, or --no-replay)".into()));
    }
    if let Some(b) = report.build.as_ref().filter(|b| !b.compiled_with.is_empty()) {
        rows.push(("compiled with", format!("<code>{}</code>", escape(&b.compiled_with.join(" ")))));
    }
    if !report.unverified_rules.is_empty() {
        rows.push(("unverified rules", escape(&report.unverified_rules.join(", "))));
    }
    let s = &report.stats;
    rows.push((
        "statistics",
        escape(&format!(
            "{}, {} instructions, {} solver queries, {:.2} s",
            crate::report::text::paths_phrase(report),
            s.instructions,
            s.queries,
            s.seconds
        )),
    ));
    if report.mode.is_none() {
        let d = &s.decided;
        rows.push((
            "checks decided by",
            escape(&format!(
                "{} structural, {} canonical, {} implied-query, {} sampled, {} bit-precise",
                d.structural, d.canonical, d.implied_query, d.sampling, d.bit_precise
            )),
        ));
    }
    body.push_str("<table class=\"facts\" id=\"summary\">\n");
    for (k, v) in rows {
        let _ = writeln!(body, "<tr><th>{k}</th><td>{v}</td></tr>");
    }
    body.push_str("</table>\n");
    if !report.warnings.is_empty() {
        body.push_str("<h2 id=\"warnings\">Warnings</h2>\n<ul>\n");
        for w in &report.warnings {
            let _ = writeln!(body, "<li><code>{}</code>: {}</li>", escape(w.kind), escape(&w.message));
        }
        body.push_str("</ul>\n");
    }
}

/// `check` reports carry how they were built; `race` reports do not.
fn command_is_check(report: &Report) -> bool {
    report.build.is_some()
}
