//! Re-checking what pair mode could not confirm. Pair mode's two symbolic
//! work-items do not model the other work-items' writes, so shared memory
//! is havocked at each barrier (exec/opencl/havoc.rs) and a finding that
//! depends on it stays unconfirmed. The solver's witness names the
//! work-groups of the two work-items; this runs every work-item of just
//! those groups, enumerated, with the real NDRange's sizes.
//!
//! Its confirmed findings are findings of the whole launch: work-groups
//! have no way to wait for each other, so running those groups first,
//! before any other, is one schedule a device may choose, and in it they
//! do exactly what the enumeration ran (the other groups have written
//! nothing yet). A pair-mode finding of the same kind at the same line is
//! replaced by the confirmed one. When the re-check confirms nothing the
//! pair-mode report stands as it was, unless the groups re-checked are
//! every group of the NDRange and their enumeration ran to the end: that
//! is enumerate mode's exact answer, which then stands instead. A re-check is bounded in work-items,
//! open paths and instructions, and by what is left of the user's
//! `--max-time` and `--max-instructions`.

use super::{run_kernel, KernelReport, KernelRun, Loaded};
use crate::config::Config;
use crate::driver::DriverError;
use crate::report::RaceMode;
use crate::report::{Finding, FindingKind, Report, Status, Verdict};
use std::time::Duration;

/// The warning of a `__local` read pair mode could not check
/// (exec/opencl/unchecked_local.rs).
const UNCHECKED_LOCAL: &str = "local-read-unchecked";

/// Sets of groups re-checked at most (the first findings' groups).
const MAX_RECHECKS: usize = 4;

/// Work-items enumerated at most in one re-check: larger groups are left
/// to pair mode's verdict.
const MAX_RECHECK_WORK_ITEMS: u64 = 4096;

/// Paths open at most in a re-check, as in a default enumeration
/// (cli/race_cmd.rs): past it the re-check gives up.
const MAX_RECHECK_OPEN_PATHS: u64 = 1024;

/// Instructions one re-check executes at most (all its paths together),
/// so that it cannot cost much more than the pair-mode run it follows:
/// about 2 s of concrete work-items on the machine of BENCHMARKS.md.
const MAX_RECHECK_INSTRUCTIONS: u64 = 50_000_000;

/// The report of a pair-mode `run`, with the findings the havoc left
/// unconfirmed re-checked by enumerating their work-groups when nothing
/// confirmed was found. Any other report is returned as it is.
pub fn recheck_havoc_doubts(loaded: &Loaded, run: &KernelRun, config: &Config, outcome: KernelReport) -> Result<Report, DriverError> {
    let mut report = recheck_groups(loaded, run, config, outcome)?;
    // A `__local` read pair mode could not decide, which no re-check
    // settled, is a memory-error check not made: the verdict cannot be
    // "no memory error on any path" (`--mode enumerate` decides it).
    if report.verdict == Verdict::Equivalent && report.warnings.iter().any(|w| w.kind == UNCHECKED_LOCAL) {
        report.verdict = Verdict::Inconclusive;
    }
    Ok(report)
}

fn recheck_groups(loaded: &Loaded, run: &KernelRun, config: &Config, outcome: KernelReport) -> Result<Report, DriverError> {
    let KernelReport { mut report, havoc_doubts } = outcome;
    if run.mode != RaceMode::Pair || report.verdict == Verdict::Findings || havoc_doubts.is_empty() {
        return Ok(report);
    }
    let per_group = run.ndrange.items_per_group();
    // The confirmed findings of the first re-check that found any, and
    // the groups it ran.
    let mut confirmed: Option<(Vec<Finding>, &Vec<u64>)> = None;
    for groups in havoc_doubts.iter().take(MAX_RECHECKS) {
        if groups.len() as u64 * per_group > MAX_RECHECK_WORK_ITEMS {
            continue;
        }
        // The user's --max-time and --max-instructions cover the re-checks
        // too (the report's counts include those run so far).
        let spent = Duration::from_secs_f64(report.stats.seconds);
        let max_time = match config.max_time {
            Some(t) if t <= spent => break,
            Some(t) => Some(t - spent),
            None => None,
        };
        let max_instructions = Some(match config.max_instructions {
            Some(n) if n <= report.stats.instructions => break,
            Some(n) => (n - report.stats.instructions).min(MAX_RECHECK_INSTRUCTIONS),
            None => MAX_RECHECK_INSTRUCTIONS,
        });
        let cfg = Config {
            max_time,
            max_instructions,
            max_open_paths: Some(MAX_RECHECK_OPEN_PATHS),
            stop_at_first_finding: true,
            ..config.clone()
        };
        let recheck = KernelRun { mode: RaceMode::Enumerate, only_groups: Some(groups), ..*run };
        let mut r = run_kernel(loaded, &recheck, &cfg)?.report;
        tracing::debug!(?groups, verdict = ?r.verdict, seconds = r.stats.seconds, "pair-mode finding re-checked by enumerating its groups");
        // Groups that are the whole NDRange, enumerated to the end with
        // nothing found: that is `--mode enumerate`'s answer, exact where
        // pair mode's havoc left findings unconfirmed.
        if groups.len() as u64 == run.ndrange.num_groups() && r.verdict == Verdict::Equivalent && r.limit.is_none() {
            let unconfirmed = report.findings.len();
            r.stats.add_counts(&report.stats);
            r.stats.seconds += report.stats.seconds;
            r.warnings.push(crate::report::Warning {
                kind: "mode-switch",
                message: format!(
                    "pair mode left {unconfirmed} finding(s) unconfirmed (they depended on shared memory havocked at a barrier); the \
                     NDRange is {} work-item(s), all of which were then enumerated, and that answer stands",
                    run.ndrange.total()
                ),
            });
            return Ok(r);
        }
        report.stats.add_counts(&r.stats);
        report.stats.seconds += r.stats.seconds;
        // Enumerated to the end with nothing found: no work-item of these
        // groups reads a `__local` byte no work-item wrote, whatever the
        // input; pair mode's unchecked reads stay named for the others.
        if r.verdict == Verdict::Equivalent && r.limit.is_none() {
            let names: Vec<String> = groups.iter().map(|g| group_name(run, *g)).collect();
            for w in report.warnings.iter_mut().filter(|w| w.kind == UNCHECKED_LOCAL) {
                w.message.push_str(&format!(
                    "; enumerating every work-item of work-group {} found no uninitialised read there",
                    names.join(" and ")
                ));
            }
        }
        let found: Vec<Finding> =
            r.findings.into_iter().filter(|f| f.status == Status::Confirmed && f.kind != FindingKind::Unsupported).collect();
        if !found.is_empty() {
            confirmed = Some((found, groups));
            break;
        }
    }
    let Some((found, groups)) = confirmed else { return Ok(report) };
    let names: Vec<String> = groups.iter().map(|g| group_name(run, *g)).collect();
    let note = format!(
        "; confirmed by enumerating every work-item of work-group{} {} (pair mode could not: the other work-items' writes \
         are not modelled there), a schedule in which these groups run first",
        if names.len() > 1 { "s" } else { "" },
        names.join(" and ")
    );
    let mut findings = std::mem::take(&mut report.findings);
    // A use pair mode named unchecked and the enumeration found
    // uninitialised is a finding now, no longer a gap.
    let lines: Vec<u32> = found.iter().filter(|f| f.kind == FindingKind::UninitializedRead).map(|f| f.location.line).collect();
    report.warnings.retain(|w| w.kind != UNCHECKED_LOCAL || !lines.iter().any(|l| w.message.starts_with(&format!("line {l}:"))));
    for mut f in found {
        findings.retain(|old| !(old.status == Status::Unconfirmed && old.kind == f.kind && old.location == f.location));
        f.message.push_str(&note);
        findings.push(f);
    }
    let mut rebuilt = Report::new(
        report.input.clone(),
        report.assumptions.clone(),
        findings,
        report.stats.clone(),
        report.limit,
        report.coverage.clone(),
    );
    // Warnings of the run itself (mode switch, path cuts, ...) stay; the
    // verdict's own (unsupported, unconfirmed) are rebuilt.
    for w in report.warnings {
        if !matches!(w.kind, "unsupported" | "unconfirmed") && !rebuilt.warnings.iter().any(|x| x.kind == w.kind && x.message == w.message)
        {
            rebuilt.warnings.push(w);
        }
    }
    rebuilt.mode = report.mode;
    Ok(rebuilt)
}

/// `(x,y,z)` of a flat group index.
fn group_name(run: &KernelRun, flat: u64) -> String {
    let g = crate::config::NdRange::unflatten(flat, run.ndrange.groups);
    format!("({},{},{})", g[0], g[1], g[2])
}
