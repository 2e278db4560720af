//! Native replay inside `check`: before a finding is reported as
//! confirmed, the same build (the report's recorded inputs, flags, defines
//! and target) runs its witness natively: on this CPU, under qemu-aarch64
//! for AArch64, against the installed OpenCL implementation for host
//! programs. One build per run; each witness is one run of it.
//!
//! - reproduced: the finding stays `confirmed`;
//! - not reproduced: the model and the CPU disagree on this input, so the
//!   finding is `unconfirmed`, with both values;
//! - no native run possible (`--no-replay`, a kind a native run cannot
//!   show, a build or emulator that fails): `confirmed-by-model`, with why.

use super::native::{self, NativeProgram, RunResult, WitnessRun};
use super::outcome::{self, Verdict};
use super::recorded::{self, NumberedFinding};
use super::ReplayError;
use crate::frontend::CompileOptions;
use crate::report::{
    Finding, FindingKind, NativeOutcome, NativeReplaySummary, NativeRun, Report, Status, ToleranceVerdict, NOT_REPRODUCED_CLAUSE,
};
use std::time::Instant;

/// Runs every confirmed finding's witness natively and sets its status by
/// what the run showed; without `enabled` (`--no-replay`) each is
/// confirmed by the model only. Settles the verdict afterwards.
pub fn confirm_natively(report: &mut Report, enabled: bool) {
    let candidates: Vec<usize> = (0..report.findings.len()).filter(|&i| report.findings[i].status == Status::Confirmed).collect();
    // Findings whose witness shows only the model's choice of an
    // approximate result: the CPU computes the real one, so a native run
    // that shows the failure confirms them.
    let approximate: Vec<usize> = (0..report.findings.len()).filter(|&i| rests_on_approximation(&report.findings[i])).collect();
    if candidates.is_empty() && (approximate.is_empty() || !enabled) {
        return;
    }
    let started = Instant::now();
    let mut summary = NativeReplaySummary::default();
    let dir = report.build.as_ref().and_then(|b| b.run_directory()).map(|d| d.to_path_buf());
    let mut to_run = Vec::new();
    let cuda = report.build.as_ref().is_some_and(|b| b.inputs.iter().any(|i| i.to_ascii_lowercase().ends_with(".cu")));
    for i in candidates {
        let why = if enabled && cuda {
            Some(CUDA_NOT_REPLAYED.into())
        } else if enabled {
            recorded::skip_reason(&report.findings[i], dir.as_deref()).map(str::to_string)
        } else {
            Some("--no-replay".into())
        };
        match why {
            Some(why) => model_only(&mut report.findings[i], why, &mut summary),
            None => to_run.push(i),
        }
    }
    summary.on = if enabled { "this CPU".into() } else { "not replayed (--no-replay)".into() };
    let approximate: Vec<usize> = if enabled && !cuda { approximate } else { Vec::new() };
    if !to_run.is_empty() || !approximate.is_empty() {
        match build(report) {
            Ok((program, nan)) => {
                summary.on = program.runs_on().into();
                summary.build_cached = program.built_from_cache();
                // Every witness in one batch: one process of the build.
                let order: Vec<usize> = to_run.iter().chain(&approximate).copied().collect();
                let witnesses: Vec<(Vec<(String, String)>, bool)> = order
                    .iter()
                    .map(|&i| {
                        let numbered = NumberedFinding { index: i, finding: &report.findings[i] };
                        (numbered.witness(), numbered.nans_equal(&nan))
                    })
                    .collect();
                let tolerances: Vec<Option<String>> = order.iter().map(|&i| exceeded_tolerance(report, &report.findings[i])).collect();
                let runs: Vec<WitnessRun<'_>> = order
                    .iter()
                    .zip(&witnesses)
                    .zip(&tolerances)
                    .map(|((&index, (witness, nans_equal)), tolerance)| WitnessRun {
                        index,
                        witness,
                        nans_equal: *nans_equal,
                        tolerance: tolerance.as_deref(),
                    })
                    .collect();
                let results = match program.run_all(&runs) {
                    Ok(results) => results,
                    Err(e) => {
                        let why = e.to_string();
                        order.iter().map(|&index| Err(ReplayError::BatchEnded { index, detail: format!(": {why}") })).collect()
                    }
                };
                let mut results = results.into_iter();
                for (&i, (witness, nans_equal)) in order.iter().zip(&witnesses) {
                    let run = results.next().unwrap_or(Err(ReplayError::BatchEnded { index: i, detail: String::new() }));
                    if to_run.contains(&i) {
                        replay_one(report, i, run, witness, *nans_equal, program.runs_on(), &mut summary);
                    } else {
                        replay_approximate(report, i, run, witness, *nans_equal, program.runs_on(), &mut summary);
                    }
                }
            }
            Err(why) => {
                summary.on = "not replayed (no native build)".into();
                for i in to_run {
                    model_only(&mut report.findings[i], why.clone(), &mut summary);
                }
            }
        }
    }
    summary.seconds = started.elapsed().as_secs_f64();
    tracing::info!(
        reproduced = summary.reproduced,
        not_reproduced = summary.not_reproduced,
        confirmed_by_model = summary.confirmed_by_model,
        seconds = summary.seconds,
        "stage: native replay"
    );
    report.native_replay = Some(summary);
    report.settle_verdict();
}

/// Why a finding of a CUDA program is confirmed by the model only: its
/// kernels need an NVIDIA GPU and the CUDA toolkit, which symcross does not use.
const CUDA_NOT_REPLAYED: &str = "a CUDA program needs an NVIDIA GPU and the CUDA toolkit to run natively; symcross uses neither";

/// The native build of what the report checked, with its `--nan`; why
/// there is none otherwise.
fn build(report: &Report) -> Result<(NativeProgram, String), String> {
    let plan = native::plan(report.build.as_ref(), &[], &CompileOptions::default(), false)
        .map_err(|e| format!("the harness cannot be rebuilt natively: {e}"))?;
    let program = native::build(&plan).map_err(|e| {
        let first = e.to_string().lines().take(3).collect::<Vec<_>>().join(" ");
        format!("the native build failed: {first}")
    })?;
    Ok((program, plan.nan))
}

/// The clause that says a finding is unconfirmed because its witness runs
/// through an approximate result, if that is its only reason.
fn approximation_clause(f: &Finding) -> Option<String> {
    let clauses: Vec<&str> = f.message.split("; not confirmed: ").skip(1).collect();
    let only = clauses.len() == 1
        && (clauses[0].contains(crate::check::confirm::APPROXIMATE_RESULT) || clauses[0].contains(crate::check::libm_model::LIBM_RESULT));
    only.then(|| format!("; not confirmed: {}", clauses[0]))
}

fn rests_on_approximation(f: &Finding) -> bool {
    f.status == Status::Unconfirmed && f.witness.is_some() && f.kind == FindingKind::Mismatch && approximation_clause(f).is_some()
}

/// Replays a finding that rests on an approximate result: reproduced, it
/// is confirmed (the CPU computed the real estimate); otherwise it stays
/// unconfirmed, with what the CPU showed.
fn replay_approximate(
    report: &mut Report,
    i: usize,
    run: Result<RunResult, ReplayError>,
    witness: &[(String, String)],
    nans_equal: bool,
    on: &str,
    summary: &mut NativeReplaySummary,
) {
    let Ok(run) = run else { return };
    let f = &mut report.findings[i];
    match outcome::judge(f, &run, witness, nans_equal) {
        Verdict::Reproduced(o) => {
            summary.reproduced += 1;
            let upgraded = upgrade_may_exceed(&mut report.tolerance, f, on);
            if let Some(clause) = approximation_clause(f) {
                f.message = f.message.replacen(&clause, "", 1);
            }
            if upgraded {
                // The headline follows the tolerance result it reports.
                f.message = format!("{} (on {on})", f.message.replacen(" may exceed ", " exceeds ", 1));
            }
            f.status = Status::Confirmed;
            let detail =
                format!("{} (the witness ran through an approximate operation, whose result the CPU computed)", outcome::describe(&o));
            f.native = Some(NativeRun { outcome: NativeOutcome::Reproduced, on: Some(on.into()), detail, model: None, cpu: None });
        }
        Verdict::NotReproduced(why, _, cpu) => {
            let cpu = cpu.or_else(|| Some("every check held".to_string()));
            f.native =
                Some(NativeRun { outcome: NativeOutcome::NotReproduced, on: Some(on.into()), detail: why, model: model_values(f), cpu });
        }
        Verdict::Refused(_) => {}
    }
}

fn model_only(f: &mut Finding, why: String, summary: &mut NativeReplaySummary) {
    f.status = Status::ConfirmedByModel;
    f.native = Some(NativeRun { outcome: NativeOutcome::NotRun, on: None, detail: why, model: None, cpu: None });
    summary.confirmed_by_model += 1;
}

/// A memory error a build without sanitizers shows only when it faults.
fn is_memory_error(kind: FindingKind) -> bool {
    matches!(kind, FindingKind::OutOfBounds | FindingKind::UseAfterFree | FindingKind::DoubleFree | FindingKind::WriteToReadOnly)
}

/// The model's values of a mismatch under its witness, in words.
fn model_values(f: &Finding) -> Option<String> {
    let e = f.expressions.as_ref()?;
    let (l, r) = (e.left_value.as_ref()?, e.right_value.as_ref()?);
    let at = e.element.map(|k| format!("element {k}: ")).unwrap_or_default();
    Some(format!("{at}left = {l}, right = {r}"))
}

fn replay_one(
    report: &mut Report,
    i: usize,
    run: Result<RunResult, ReplayError>,
    witness: &[(String, String)],
    nans_equal: bool,
    on: &str,
    summary: &mut NativeReplaySummary,
) {
    let run = match run {
        Ok(run) => run,
        Err(e) => return model_only(&mut report.findings[i], format!("the native run could not be made: {e}"), summary),
    };
    let f = &mut report.findings[i];
    match outcome::judge(f, &run, witness, nans_equal) {
        Verdict::Reproduced(o) => {
            summary.reproduced += 1;
            if upgrade_may_exceed(&mut report.tolerance, f, on) {
                f.message = format!("{} (on {on})", f.message.replacen(" may exceed ", " exceeds ", 1));
            }
            f.native = Some(NativeRun {
                outcome: NativeOutcome::Reproduced,
                on: Some(on.into()),
                detail: outcome::describe(&o),
                model: None,
                cpu: None,
            });
        }
        Verdict::Refused(why) => model_only(f, format!("the witness does not fit the native build: {why}"), summary),
        Verdict::NotReproduced(..) if on == "qemu-aarch64" && is_memory_error(f.kind) => model_only(
            f,
            "AArch64 builds run under qemu-aarch64 without sanitizers, where a memory error shows only if it faults (heap blocks end on a guard page; stack and global objects have none), and this one did not"
                .into(),
            summary,
        ),
        Verdict::NotReproduced(why, _, cpu) => {
            summary.not_reproduced += 1;
            let cpu = cpu.or_else(|| (f.kind == FindingKind::Mismatch).then(|| "every check held".to_string()));
            f.status = Status::Unconfirmed;
            f.message.push_str(&format!("{NOT_REPRODUCED_CLAUSE} ({on}: {why})"));
            f.native =
                Some(NativeRun { outcome: NativeOutcome::NotReproduced, on: Some(on.into()), detail: why, model: model_values(f), cpu });
        }
    }
}

/// A `may-exceed` tolerance result whose finding the native run reproduced
/// exceeds: the CPU's own result (of the approximation the model left
/// open) put the values beyond the bound, within the tolerance's measure.
/// Whether a result was upgraded.
fn upgrade_may_exceed(tolerance: &mut [crate::report::ToleranceResult], f: &Finding, on: &str) -> bool {
    if f.kind != FindingKind::Mismatch {
        return false;
    }
    let mut upgraded = false;
    let element = f.expressions.as_ref().and_then(|e| e.element);
    for t in tolerance.iter_mut() {
        if t.location == f.location && t.verdict == ToleranceVerdict::MayExceed && element.is_none_or(|k| k == t.element) {
            t.verdict = ToleranceVerdict::Exceeds;
            upgraded = true;
            let note = format!("exceeds on {on}: the native run of the witness put the values beyond the bound");
            t.search_note = Some(match t.search_note.take() {
                Some(n) => format!("{note}; {n}"),
                None => note,
            });
        }
    }
    upgraded
}

/// The tolerance a mismatch finding of a tolerance check exceeded or may
/// exceed (the check's result at the finding's location), for the native
/// run.
pub(super) fn exceeded_tolerance(report: &Report, f: &Finding) -> Option<String> {
    if f.kind != FindingKind::Mismatch {
        return None;
    }
    report
        .tolerance
        .iter()
        .find(|t| t.location == f.location && matches!(t.verdict, ToleranceVerdict::Exceeds | ToleranceVerdict::MayExceed))
        .map(|t| t.tolerance.clone())
}
