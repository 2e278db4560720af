//! Writing the HTML reports: `--html FILE` of `check` and `race`, and
//! `suite --html DIR` (an index page and one page per entry).

use crate::report::html;
use crate::suite::outcome::SuiteReport;
use crate::Error;
use std::path::Path;

/// Writes the run's page where `--html` asked, if it did (`-`: standard
/// output).
pub fn write_report(target: &Option<String>, report: &crate::report::Report) -> Result<(), Error> {
    let Some(path) = target else { return Ok(()) };
    let page = html::report_page(report, None, None);
    if path == "-" {
        print!("{page}");
        return Ok(());
    }
    std::fs::write(path, page).map_err(|e| Error::Io(path.into(), e))
}

/// Creates `suite --html DIR` before the entries run, so that a directory
/// that cannot be made fails the command at once, not after the suite.
pub fn prepare_dir(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::Io(dir.to_path_buf(), e))
}

/// Writes `DIR/index.html` and one page per entry. Sources named by
/// relative paths are read relative to the manifest's directory `root`,
/// where the entries ran.
pub fn write_suite(dir: &Path, report: &SuiteReport, root: &Path) -> Result<(), Error> {
    let mut rows = Vec::new();
    for e in &report.entries {
        let page = html::entry_page_name(e.index, &e.name);
        let text = match &e.report {
            Some(r) => html::report_page(r, Some(root), Some("index.html")),
            None => html::error_page(&e.name, e.error.as_deref().unwrap_or("no report and no error output")),
        };
        let path = dir.join(&page);
        std::fs::write(&path, text).map_err(|err| Error::Io(path.clone(), err))?;
        rows.push(html::IndexRow {
            name: e.name.clone(),
            command: e.command.clone(),
            expected: e.expect.describe(),
            got: e.report.as_ref().map(crate::suite::outcome::got).unwrap_or_else(|| "no report".into()),
            outcome: e.outcome.clone(),
            summary: e.summary.clone(),
            seconds: e.seconds,
            cached: e.cached,
            page,
        });
    }
    let s = &report.summary;
    let counts =
        format!("{} of {} entries met their expectation ({} unmet, {} errors, {} cached)", s.met, s.total, s.unmet, s.errors, s.cached);
    let index = dir.join("index.html");
    std::fs::write(&index, html::suite_index(&report.manifest, &report.verdict, &counts, &rows)).map_err(|e| Error::Io(index.clone(), e))
}
