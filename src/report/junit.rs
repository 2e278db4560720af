//! JUnit XML, the test-report format GitLab, Jenkins and the GitHub test
//! reporters read. Each run (a `check`, a `race`, or an entry of a suite)
//! is one `<testcase>` with its time. A run with findings has a
//! `<failure>` whose text is the report of the findings; an inconclusive
//! run has an `<error>` giving the reason (a limit, an unmodelled
//! construct, unconfirmed findings, nothing checked); a suite entry that
//! was not run is `<skipped>`.

use super::json::{Report, Verdict};
use super::text;
use std::fmt::Write;

/// What became of one test case.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Nothing to report: the case passed.
    Passed,
    /// The check failed: `message` is one line, `text` the details.
    Failure {
        /// The `message` attribute: one line.
        message: String,
        /// The element's text: the details.
        text: String,
    },
    /// The run could not decide (or crashed).
    Error {
        /// The `type` attribute, e.g. `inconclusive`.
        kind: String,
        /// The `message` attribute: one line.
        message: String,
        /// The element's text: the details.
        text: String,
    },
    /// Not run (`<skipped>`).
    Skipped {
        /// Why it was not run.
        message: String,
    },
}

/// One `<testcase>`.
#[derive(Clone, Debug)]
pub struct Case {
    /// The `classname` attribute (the command or suite).
    pub classname: String,
    /// The `name` attribute (the input).
    pub name: String,
    /// Run time in seconds.
    pub seconds: f64,
    /// Passed, failed, error or skipped.
    pub outcome: Outcome,
    /// Shown as `<system-out>`: the text report.
    pub output: String,
}

/// The test case of one `check` or `race` run: passed when equivalent.
pub fn case_of(report: &Report, classname: &str) -> Case {
    let output = text::render(report);
    let outcome = match report.verdict {
        // A memory-safety run with no memory error passes; its output
        // says nothing was compared.
        Verdict::Equivalent | Verdict::NoFindings => Outcome::Passed,
        Verdict::Findings => Outcome::Failure { message: findings_line(report), text: output.clone() },
        Verdict::Inconclusive => Outcome::Error { kind: "inconclusive".into(), message: inconclusive_reason(report), text: output.clone() },
    };
    Case { classname: classname.into(), name: report.input.clone(), seconds: report.stats.seconds, outcome, output }
}

/// One line naming the first confirmed finding and how many there are.
pub fn findings_line(report: &Report) -> String {
    let first = report.findings.iter().find(|f| f.status.is_confirmed()).or(report.findings.first());
    match first {
        None => "no findings".into(),
        Some(f) => {
            let more = report.findings.len() - 1;
            let tail = if more > 0 { format!(" (and {more} more)") } else { String::new() };
            format!("{} at {}:{}: {}{tail}", f.kind.name(), f.location.file, f.location.line, f.message)
        }
    }
}

/// Why a report is inconclusive, in one line.
pub fn inconclusive_reason(report: &Report) -> String {
    let mut parts = Vec::new();
    if let Some(l) = &report.limit {
        parts.push(format!("the {l} limit stopped the run"));
    }
    for w in &report.warnings {
        parts.push(w.message.clone());
    }
    if parts.is_empty() {
        parts.push("inconclusive".into());
    }
    parts.join("; ")
}

/// The XML document: one `<testsuite>` named `suite` holding `cases`.
pub fn render(suite: &str, cases: &[Case]) -> String {
    let count = |f: fn(&Outcome) -> bool| cases.iter().filter(|c| f(&c.outcome)).count();
    let failures = count(|o| matches!(o, Outcome::Failure { .. }));
    let errors = count(|o| matches!(o, Outcome::Error { .. }));
    let skipped = count(|o| matches!(o, Outcome::Skipped { .. }));
    let total: f64 = cases.iter().map(|c| c.seconds).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let head = format!(
        "name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{total:.3}\"",
        escape(suite),
        cases.len()
    );
    let _ = writeln!(out, "<testsuites {head}>");
    let _ = writeln!(out, "  <testsuite {head}>");
    for c in cases {
        let _ = write!(out, "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"", escape(&c.classname), escape(&c.name), c.seconds);
        let _ = writeln!(out, ">");
        match &c.outcome {
            Outcome::Passed => {}
            Outcome::Failure { message, text } => {
                let _ = writeln!(out, "      <failure type=\"findings\" message=\"{}\">{}</failure>", escape(message), escape_text(text));
            }
            Outcome::Error { kind, message, text } => {
                let _ =
                    writeln!(out, "      <error type=\"{}\" message=\"{}\">{}</error>", escape(kind), escape(message), escape_text(text));
            }
            Outcome::Skipped { message } => {
                let _ = writeln!(out, "      <skipped message=\"{}\"/>", escape(message));
            }
        }
        if !c.output.is_empty() {
            let _ = writeln!(out, "      <system-out>{}</system-out>", escape_text(&c.output));
        }
        let _ = writeln!(out, "    </testcase>");
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// Escapes the text of an element (line breaks kept as they are).
fn escape_text(s: &str) -> String {
    escape(s).replace("&#10;", "\n")
}

/// Escapes text for an XML attribute or element; characters XML 1.0 does
/// not allow at all (most control characters) become `?`.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' | '\r' => out.push_str(&format!("&#{};", c as u32)),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;?");
    }
}
