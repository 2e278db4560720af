//! Findings as compiler diagnostics, the form editors and CI problem
//! matchers read: `file:line:col: error: <kind> (confirmed): message`,
//! the source line with a caret under the column (as clang prints it),
//! and `file:line:col: note: ...` for each related location.
//!
//! A confirmed finding is an `error:` (an input is known that makes it
//! happen). An unconfirmed one, and a construct that could not be
//! modelled, is a `warning:`: it may or may not be real, and a problem
//! matcher should not fail a build on it as if it were proved.

use super::colour::TextStyle;
use super::finding::{Finding, FindingKind, Location, Status};
use std::collections::HashMap;
use std::fmt::Write;

/// The severity word of a finding.
pub fn severity(f: &Finding) -> &'static str {
    match (f.kind, f.status) {
        (FindingKind::Unsupported, _) | (_, Status::Unconfirmed) => "warning",
        (k, _) if k.is_performance() => "warning",
        (_, Status::Confirmed | Status::ConfirmedByModel) => "error",
    }
}

/// Source files read for excerpts, each once per report.
#[derive(Default)]
pub struct SourceCache {
    files: HashMap<String, Option<Vec<String>>>,
}

impl SourceCache {
    /// Line `line` (1-based) of `file`, if the file can be read as text.
    /// The path is the one debug info recorded: as the user gave it,
    /// relative to the directory symcross ran in.
    fn line(&mut self, file: &str, line: u32) -> Option<String> {
        let lines = self.files.entry(file.to_string()).or_insert_with(|| {
            let bytes = std::fs::read(file).ok()?;
            Some(String::from_utf8_lossy(&bytes).lines().map(str::to_string).collect())
        });
        lines.as_ref()?.get((line as usize).checked_sub(1)?).cloned()
    }
}

/// `file:line:col: ` in bold (the column left out when unknown).
fn location_prefix(loc: &Location, style: &TextStyle) -> String {
    let text = if loc.column > 0 { format!("{}:{}:{}:", loc.file, loc.line, loc.column) } else { format!("{}:{}:", loc.file, loc.line) };
    style.bold(&text)
}

/// The heading line of a finding.
pub fn heading(out: &mut String, f: &Finding, style: &TextStyle) {
    let status = f.status.words();
    let word = severity(f);
    let painted = if word == "error" { style.error("error:") } else { style.warning("warning:") };
    let _ = writeln!(
        out,
        "{} {painted} {}",
        location_prefix(&f.location, style),
        style.bold(&format!("{} ({status}): {}", f.kind.name(), f.message))
    );
}

/// A `note:` line for a related location.
pub fn note(out: &mut String, loc: &Location, message: &str, style: &TextStyle) {
    let _ = writeln!(out, "{} {} {message}", location_prefix(loc, style), style.note("note:"));
}

/// The source line at `loc` and a caret under its column, as clang shows
/// them; nothing when the file or line cannot be read.
pub fn excerpt(out: &mut String, loc: &Location, sources: &mut SourceCache, style: &TextStyle) {
    if loc.line == 0 {
        return;
    }
    let Some(text) = sources.line(&loc.file, loc.line) else { return };
    let number = loc.line.to_string();
    let gutter = " ".repeat(number.len());
    let _ = writeln!(out, " {number} | {text}");
    if loc.column == 0 {
        return;
    }
    // The column counts bytes; keep tabs so that the caret lines up with
    // the text above it however the terminal expands them.
    let pad: String = text.bytes().take(loc.column as usize - 1).map(|b| if b == b'\t' { '\t' } else { ' ' }).collect();
    let _ = writeln!(out, " {gutter} | {pad}{}", style.caret("^"));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(status: Status, kind: FindingKind) -> Finding {
        Finding::new(kind, status, "m".into(), Location { file: "/nonexistent/x.c".into(), line: 3, column: 5 })
    }

    #[test]
    fn confirmed_findings_are_errors_and_the_rest_warnings() {
        let plain = TextStyle::default();
        let mut out = String::new();
        heading(&mut out, &finding(Status::Confirmed, FindingKind::Mismatch), &plain);
        assert_eq!(out, "/nonexistent/x.c:3:5: error: mismatch (confirmed): m\n");
        out.clear();
        heading(&mut out, &finding(Status::Unconfirmed, FindingKind::Race), &plain);
        assert_eq!(out, "/nonexistent/x.c:3:5: warning: race (unconfirmed): m\n");
        assert_eq!(severity(&finding(Status::Confirmed, FindingKind::Unsupported)), "warning");
    }

    #[test]
    fn the_caret_sits_under_the_column() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.c");
        std::fs::write(&file, "int x;\n\tfoo(bar);\n").unwrap();
        let loc = Location { file: file.display().to_string(), line: 2, column: 6 };
        let mut out = String::new();
        excerpt(&mut out, &loc, &mut SourceCache::default(), &TextStyle::default());
        assert_eq!(out, " 2 | \tfoo(bar);\n   | \t    ^\n");
        out.clear();
        let missing = Location { line: 9, ..loc };
        excerpt(&mut out, &missing, &mut SourceCache::default(), &TextStyle::default());
        assert_eq!(out, "");
    }
}
