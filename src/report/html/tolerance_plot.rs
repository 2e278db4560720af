//! The tolerance checks of a run on its page: one row per check (the
//! bound, its verdict, the worst input found with its error) and the
//! error plot the report's renderer draws (report/error_plot.rs), inline.

use super::escape::escape;
use crate::report::{Report, ToleranceResult};
use std::fmt::Write;

/// Appends the section, when the run reached a tolerance check.
pub(super) fn render(out: &mut String, report: &Report) {
    if report.tolerance.is_empty() {
        return;
    }
    let _ = writeln!(out, "<h2 id=\"tolerance\">Tolerance checks ({})</h2>", report.tolerance.len());
    out.push_str("<table class=\"witness\">\n<tr><th>check</th><th>element</th><th>bound</th><th>verdict</th><th>decided by</th><th>worst error found</th></tr>\n");
    for r in &report.tolerance {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"mono\">{}</td><td>{}</td><td>{}</td><td class=\"mono\">{}</td></tr>",
            escape(&r.what),
            r.element,
            escape(&r.tolerance),
            escape(r.verdict.describe()),
            escape(r.decided_by.words()),
            escape(&worst_words(r))
        );
    }
    out.push_str("</table>\n");
    let _ = writeln!(out, "<div class=\"plot\">{}</div>", crate::report::error_plot::render(&report.tolerance));
}

fn worst_words(r: &ToleranceResult) -> String {
    match &r.worst {
        None => "none found".to_string(),
        Some(w) => {
            let ulps = w.ulps.map_or("-".to_string(), |u| u.to_string());
            format!("{ulps} ulp, relative {:.3e}: got {}, want {}", w.relative, w.got, w.want)
        }
    }
}
