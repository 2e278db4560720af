//! `symcross replay`: rebuilds what a `check` report checked (its inputs,
//! -I/-D/--cflags, as recorded in the report's `build`), natively with
//! AddressSanitizer and UndefinedBehaviorSanitizer and the replay runtime
//! (cl-runtime-model/replay/), where `symcross_make_symbolic` fills memory
//! with a witness's bytes; runs it once per confirmed finding and says
//! whether the CPU shows what the report claimed.
//!
//! A confirmed finding that does not reproduce is a bug in symcross, and
//! is said loudly, with its own exit status.

mod error;
mod exe_cache;
mod in_check;
mod native;
mod outcome;
mod recorded;

pub use error::ReplayError;
pub use in_check::confirm_natively;
pub use native::{plan, BuildPlan, RunResult};
pub use outcome::{Observed, Verdict};
pub use recorded::{numbered, read_report, NumberedFinding};

use crate::report::Report;
use std::fmt::Write as _;

/// Every replayed finding reproduced.
pub const EXIT_REPRODUCED: i32 = 1;
/// Bad usage or input, a witness that does not fit the harness, or
/// nothing to replay.
pub const EXIT_USAGE: i32 = 2;
/// At least one confirmed finding did not reproduce: a symcross bug.
pub const EXIT_NOT_REPRODUCED: i32 = 4;

/// FNV-1a (64 bits) of `bytes`, as the report's `input_digests` record
/// it: a stable, dependency-free fingerprint (not a security measure).
pub fn content_digest(bytes: &[u8]) -> String {
    format!("fnv1a64:{:016x}", crate::report::sarif::fnv1a(bytes))
}

/// Inputs about to be built whose content differs from what the report
/// checked (compared by position when the report recorded digests).
pub fn changed_inputs(build: Option<&crate::report::BuildRecord>, plan: &BuildPlan) -> Vec<String> {
    let Some(b) = build.filter(|b| b.input_digests.len() == plan.inputs.len()) else { return Vec::new() };
    plan.inputs
        .iter()
        .zip(&b.input_digests)
        .filter(|(p, d)| !d.is_empty() && std::fs::read(p).map(|bytes| content_digest(&bytes) != **d).unwrap_or(false))
        .map(|(p, _)| format!("{} differs from the file the report checked: its witnesses may no longer fit or mean the same", p.display()))
        .collect()
}

/// The findings to replay: the one `--finding N` names, or every one that
/// can be; the others with the reason they are skipped.
type Selected<'r> = (Vec<NumberedFinding<'r>>, Vec<(NumberedFinding<'r>, &'static str)>);

fn select(report: &Report, only: Option<usize>) -> Result<Selected<'_>, ReplayError> {
    let candidates: Vec<NumberedFinding> = match only {
        Some(n) => vec![numbered(report).nth(n).ok_or(ReplayError::NoSuchFinding { wanted: n, count: report.findings.len() })?],
        None => numbered(report).collect(),
    };
    let (mut run, mut skipped) = (Vec::new(), Vec::new());
    for f in candidates {
        match recorded::skip_reason(f.finding, report.build.as_ref().and_then(|b| b.run_directory())) {
            Some(why) => skipped.push((f, why)),
            None => run.push(f),
        }
    }
    Ok((run, skipped))
}

/// Replays the report's findings; returns the text to print and the exit
/// status. With `inputs_changed` (the harness is not the one checked), a
/// finding that does not reproduce says nothing about symcross.
pub fn replay_report(
    report: &Report,
    plan: &BuildPlan,
    only: Option<usize>,
    name: &str,
    inputs_changed: bool,
) -> Result<(String, i32), ReplayError> {
    let (to_run, skipped) = select(report, only)?;
    let mut out = String::new();
    for (f, why) in &skipped {
        let _ = writeln!(out, "finding {}: {} at {}: skipped ({why})", f.index, f.finding.kind.name(), f.location());
    }
    if to_run.is_empty() {
        print!("{out}");
        return Err(ReplayError::NothingToReplay { name: name.to_string(), skipped: !skipped.is_empty() });
    }
    let program = native::build(plan)?;
    let emulated = plan.target.as_deref().is_some_and(crate::frontend::target::is_aarch64);
    let how = if emulated {
        "for AArch64, run under qemu-aarch64 (no sanitizers)"
    } else {
        "with AddressSanitizer and UndefinedBehaviorSanitizer"
    };
    // Where the witness ran: an emulated AArch64 run is not this CPU.
    let on = if emulated { "under qemu-aarch64" } else { "on the CPU" };
    let _ = writeln!(out, "replaying {} finding(s) of {name}: built {} {how}", to_run.len(), plan.describe());
    let (mut reproduced, mut failed, mut refused) = (0, Vec::new(), 0);
    // Every witness in one batch: one process of the build.
    let witnesses: Vec<(Vec<(String, String)>, bool)> = to_run.iter().map(|f| (f.witness(), f.nans_equal(&plan.nan))).collect();
    let tolerances: Vec<Option<String>> = to_run.iter().map(|f| in_check::exceeded_tolerance(report, f.finding)).collect();
    let batch: Vec<native::WitnessRun<'_>> = to_run
        .iter()
        .zip(&witnesses)
        .zip(&tolerances)
        .map(|((f, (witness, nans_equal)), tolerance)| native::WitnessRun {
            index: f.index,
            witness,
            nans_equal: *nans_equal,
            tolerance: tolerance.as_deref(),
        })
        .collect();
    let runs = program.run_all(&batch)?;
    for ((f, (witness, nans_equal)), run) in to_run.iter().zip(&witnesses).zip(runs) {
        let (witness, nans_equal) = (witness.as_slice(), *nans_equal);
        let run = run?;
        let _ = writeln!(out, "finding {}: {} at {}: {}", f.index, f.finding.kind.name(), f.location(), f.finding.message);
        for line in run.stdout.lines().filter(|l| !l.starts_with("symcross replay: ")) {
            let _ = writeln!(out, "  {line}");
        }
        match outcome::judge(f.finding, &run, witness, nans_equal) {
            Verdict::Reproduced(o) => {
                reproduced += 1;
                let _ = writeln!(out, "  reproduced {on}: {}", outcome::describe(&o));
            }
            Verdict::Refused(why) => {
                refused += 1;
                let _ = writeln!(out, "  REFUSED: the witness does not fit the harness: {why}");
            }
            Verdict::NotReproduced(why, _, _) => {
                failed.push(f.index);
                let _ = writeln!(out, "  NOT REPRODUCED: {why}");
                for l in run.stderr.lines().take(40) {
                    let _ = writeln!(out, "  | {l}");
                }
            }
        }
        for n in outcome::ub_notes(&run) {
            let _ = writeln!(out, "  note: the CPU run went through behaviour C leaves undefined (symcross gives it the x86 result): {n}");
        }
    }
    let total = reproduced + failed.len() + refused;
    if !failed.is_empty() && inputs_changed {
        let _ = writeln!(
            out,
            "symcross replay: {} of {total} finding(s) did not reproduce, but the harness changed since the report was written: check it again before replaying.",
            failed.len()
        );
        return Ok((out, EXIT_USAGE));
    }
    if !failed.is_empty() {
        let _ = writeln!(
            out,
            "symcross replay: {} of {total} confirmed finding(s) did NOT reproduce {on} (finding {}).\n\
             THIS IS A BUG IN SYMCROSS: it confirmed something the program does not do. Please report it with the harness, the report and this output.",
            failed.len(),
            failed.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(", ")
        );
    }
    if refused > 0 {
        let _ = writeln!(out, "symcross replay: {refused} witness(es) do not fit the harness as built: was the harness changed since the report was written? Nothing is concluded from them.");
        return Ok((out, EXIT_USAGE));
    }
    if !failed.is_empty() {
        return Ok((out, EXIT_NOT_REPRODUCED));
    }
    let _ = writeln!(out, "symcross replay: {reproduced} of {total} finding(s) reproduced {on}");
    Ok((out, EXIT_REPRODUCED))
}
