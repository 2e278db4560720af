//! `suite --html DIR`: the index page, one row per entry with its
//! expectation and outcome, linking the entry's own page; and the page
//! of an entry whose run gave no report.

use super::escape::escape;
use super::page::document;
use std::fmt::Write;

/// One entry of the index, as the suite's table shows it.
pub struct IndexRow {
    /// The entry's name.
    pub name: String,
    /// `check` or `race`.
    pub command: String,
    /// The expectation in a few words.
    pub expected: String,
    /// What the run gave, in a few words.
    pub got: String,
    /// `met`, `unmet` or `error`.
    pub outcome: String,
    /// One line saying what happened.
    pub summary: String,
    /// Wall time of the run.
    pub seconds: f64,
    /// Whether the report came from the result cache.
    pub cached: bool,
    /// The entry's page, relative to the index.
    pub page: String,
}

/// The file name of entry `index`'s page: its number (names may repeat
/// once cleaned) and its name reduced to letters, digits, `-` and `_`.
pub fn entry_page_name(index: usize, name: &str) -> String {
    let clean: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).take(80).collect();
    format!("{:03}-{clean}.html", index + 1)
}

/// The index page of a suite run.
pub fn suite_index(manifest: &str, verdict: &str, counts: &str, rows: &[IndexRow]) -> String {
    let mut body = String::new();
    let _ = writeln!(body, "<header>\n<h1>symcross suite: <span class=\"mono\">{}</span></h1>", escape(manifest));
    let class = if verdict == "passed" { "equivalent" } else { "findings" };
    let _ = writeln!(body, "<p id=\"verdict\" class=\"verdict verdict-{class}\">{}: {}</p>\n</header>", escape(verdict), escape(counts));
    body.push_str("<table class=\"facts entries\">\n<tr><th>result</th><th>entry</th><th>command</th><th>expected</th><th>got</th><th>seconds</th><th>summary</th></tr>\n");
    for r in rows {
        let result = match r.outcome.as_str() {
            "met" => "ok",
            "unmet" => "FAIL",
            _ => "ERROR",
        };
        let seconds = if r.cached { "cached".to_string() } else { format!("{:.2}", r.seconds) };
        let _ = writeln!(
            body,
            "<tr class=\"entry\"><td><span class=\"verdict outcome-{}\">{result}</span></td><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{seconds}</td><td>{}</td></tr>",
            escape(&r.outcome),
            escape(&r.page),
            escape(&r.name),
            escape(&r.command),
            escape(&r.expected),
            escape(&r.got),
            escape(&r.summary)
        );
    }
    body.push_str("</table>\n");
    document(&format!("symcross suite: {manifest} ({verdict})"), &body)
}

/// The page of an entry whose run gave no report: what went wrong.
pub fn error_page(name: &str, error: &str) -> String {
    let body = format!(
        "<header>\n<h1>symcross suite entry: <span class=\"mono\">{}</span></h1>\n<p id=\"verdict\" class=\"verdict verdict-inconclusive\">error: the run gave no report</p>\n</header>\n<pre>{}</pre>\n<p><a href=\"index.html\">all entries</a></p>\n",
        escape(name),
        escape(error)
    );
    document(&format!("symcross suite entry: {name} (error)"), &body)
}

#[cfg(test)]
mod tests {
    use super::entry_page_name;

    #[test]
    fn page_names_are_plain_and_distinct() {
        assert_eq!(entry_page_name(0, "simd/f2u8.c [fast-math]"), "001-simd_f2u8_c__fast-math_.html");
        assert_ne!(entry_page_name(1, "a b"), entry_page_name(2, "a b"));
    }
}
