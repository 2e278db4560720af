//! The source with the findings inline, as clang's static-analyzer
//! reports show it: every file a finding names, line by line, with a
//! message bubble under each line a finding (or a related location of
//! one) points at, linked to the finding's block. Long files show only
//! the lines around the marked ones.

use super::escape::escape;
use crate::report::{Finding, FindingKind, Location, Status};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Files up to this many lines are shown whole.
const WHOLE_FILE_LINES: usize = 400;
/// Lines of context around each marked line of a longer file.
const CONTEXT_LINES: usize = 8;

/// A bubble under a source line.
struct Bubble {
    /// The finding's number.
    finding: usize,
    /// `error`, `warning` or `note`: its colour.
    class: &'static str,
    text: String,
    /// 1-based byte column, 0 when unknown.
    column: u32,
}

/// The id of a line of the listing: letters and digits of the file name
/// and the line number, so that it needs no escaping in `href` or `id`.
pub(super) fn anchor(file: &str, line: u32) -> String {
    let name: String = file.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    format!("src-{name}-{line}")
}

pub(super) fn render(out: &mut String, findings: &[Finding], base: Option<&Path>) {
    let mut files: Vec<(String, BTreeMap<u32, Vec<Bubble>>)> = Vec::new();
    let mut mark = |loc: &Location, bubble: Bubble| {
        if loc.line == 0 || loc.file.is_empty() {
            return;
        }
        let at = match files.iter().position(|(f, _)| *f == loc.file) {
            Some(i) => i,
            None => {
                files.push((loc.file.clone(), BTreeMap::new()));
                files.len() - 1
            }
        };
        files[at].1.entry(loc.line).or_default().push(bubble);
    };
    for (i, f) in findings.iter().enumerate() {
        let class = if f.kind == FindingKind::Unsupported || f.kind.is_performance() || f.status == Status::Unconfirmed {
            "warning"
        } else {
            "error"
        };
        let text = format!("{} ({}): {}", f.kind.name(), f.status.words(), f.message);
        mark(&f.location, Bubble { finding: i + 1, class, text, column: f.location.column });
        for r in &f.related {
            mark(&r.location, Bubble { finding: i + 1, class: "note", text: r.message.clone(), column: r.location.column });
        }
    }
    if files.is_empty() {
        return;
    }
    out.push_str("<h2 id=\"source\">Source</h2>\n");
    for (file, marks) in &files {
        let _ = writeln!(out, "<h3 class=\"mono\">{}</h3>", escape(file));
        let Some(lines) = read_lines(file, base) else {
            let _ = writeln!(out, "<p class=\"muted\">The file cannot be read from here; the findings above give its lines.</p>");
            continue;
        };
        listing(out, file, &lines, marks);
    }
}

/// The file as the debug info names it: relative to the working
/// directory, else to `base`.
fn read_lines(file: &str, base: Option<&Path>) -> Option<Vec<String>> {
    let mut candidates = vec![PathBuf::from(file)];
    if let Some(b) = base.filter(|_| Path::new(file).is_relative()) {
        candidates.push(b.join(file));
    }
    let bytes = candidates.iter().find_map(|p| std::fs::read(p).ok())?;
    Some(String::from_utf8_lossy(&bytes).lines().map(str::to_string).collect())
}

fn listing(out: &mut String, file: &str, lines: &[String], marks: &BTreeMap<u32, Vec<Bubble>>) {
    let shown = |n: usize| lines.len() <= WHOLE_FILE_LINES || marks.keys().any(|&m| (m as usize).abs_diff(n) <= CONTEXT_LINES);
    out.push_str("<table class=\"listing\">\n");
    let mut skipped = false;
    for (i, text) in lines.iter().enumerate() {
        let n = i + 1;
        if !shown(n) {
            skipped = true;
            continue;
        }
        if skipped {
            out.push_str("<tr class=\"gap\"><td class=\"num\">⋮</td><td></td></tr>\n");
            skipped = false;
        }
        let here = marks.get(&(n as u32));
        let class = if here.is_some() { " class=\"marked\"" } else { "" };
        let _ = writeln!(
            out,
            "<tr id=\"{}\"{class}><td class=\"num\">{n}</td><td class=\"code\"><pre>{}</pre></td></tr>",
            anchor(file, n as u32),
            escape(text)
        );
        for b in here.into_iter().flatten() {
            let indent = visual_column(text, b.column);
            let _ = writeln!(
                out,
                "<tr class=\"bubble-row\"><td class=\"num\"></td><td><div class=\"bubble {}\" style=\"margin-left: {indent}ch\"><a href=\"#finding-{}\">{}</a>{}</div></td></tr>",
                b.class,
                b.finding,
                b.finding,
                escape(&b.text)
            );
        }
    }
    if skipped {
        out.push_str("<tr class=\"gap\"><td class=\"num\">⋮</td><td></td></tr>\n");
    }
    out.push_str("</table>\n");
}

/// Where byte column `column` (1-based) of `text` is drawn, in character
/// widths, tabs stopping every 8 as the listing's `tab-size` sets them.
fn visual_column(text: &str, column: u32) -> usize {
    let mut width = 0;
    for (at, c) in text.char_indices() {
        if at + 1 >= column as usize {
            break;
        }
        width = if c == '\t' { (width / 8 + 1) * 8 } else { width + 1 };
    }
    width
}

#[cfg(test)]
mod tests {
    use super::{anchor, visual_column};

    #[test]
    fn bubbles_line_up_with_their_column() {
        assert_eq!(visual_column("  x = y;", 3), 2);
        assert_eq!(visual_column("\tx", 2), 8);
        assert_eq!(visual_column("abc", 0), 0);
    }

    #[test]
    fn anchors_need_no_escaping() {
        assert_eq!(anchor("dir/a <b>.c", 7), "src-dir-a--b--c-7");
    }
}
