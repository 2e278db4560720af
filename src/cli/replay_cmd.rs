//! `symcross replay`: reads a `check --json` report, rebuilds what it
//! checked natively and runs each confirmed finding's witness
//! (`crate::replay`).

use super::args::ReplayArgs;
use crate::Error;

/// Runs `symcross replay`; the exit status is one of `crate::replay::EXIT_*`.
pub fn replay(a: ReplayArgs) -> Result<i32, Error> {
    let (report_path, harness) = a.files.split_last().ok_or_else(|| Error::Usage("replay needs a JSON report".into()))?;
    let report = crate::replay::read_report(report_path)?;
    let opts = super::check_cmd::compile_options(&a.compile)?;
    let plan = crate::replay::plan(report.build.as_ref(), harness, &opts, a.compile.cflags.is_some())?;
    let changed = crate::replay::changed_inputs(report.build.as_ref(), &plan);
    for w in &changed {
        println!("warning: {w}");
    }
    let (text, code) = crate::replay::replay_report(&report, &plan, a.finding, &report_path.display().to_string(), !changed.is_empty())?;
    print!("{text}");
    Ok(code)
}
