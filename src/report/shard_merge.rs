//! `symcross merge` of the reports of `check --shard K/N`: one report for
//! the whole harness, as the unsharded run would give. The shards explored
//! disjoint parts of the path tree (exec/engine/shard.rs), so:
//! - `paths` add up to the unsharded count;
//! - findings are the union, each kept once (the unsharded run's key:
//!   kind and location, plus the message for `unsupported`), in shard order;
//! - the verdict is decided again from the union, and is never more
//!   confident than a shard allows: one shard's limit or uncertain split
//!   makes the whole inconclusive;
//! - work figures (instructions, queries, checks decided, merges) add up
//!   too, but count the part above the split, which every shard explores,
//!   once per shard; `seconds` is the slowest shard's;
//! - the native replay counts are those of the merged findings (a finding
//!   two shards reported, and replayed, counts once).

use super::finding::{Finding, FindingKind, NativeOutcome, Status, NOT_REPRODUCED_CLAUSE};
use super::json::{Coverage, NativeReplaySummary, Report, RunStats, SymbolicInput, SPLIT_UNCERTAIN};

/// Merges the reports of all N shards of one harness (each named by the
/// file it came from, for errors). Refuses reports of different runs, a
/// shard given twice and a missing shard: a merge short of a shard would
/// be short of paths.
pub fn merge(reports: Vec<(String, Report)>) -> Result<Report, String> {
    let mut reports = reports;
    let Some((first_name, first)) = reports.first() else { return Err("no report to merge".into()) };
    let Some(count) = first.shard.map(|s| s.count) else {
        return Err(format!("{first_name}: not a `check --shard` report"));
    };
    for (name, r) in &reports {
        let Some(shard) = r.shard else { return Err(format!("{name}: not a `check --shard` report")) };
        if shard.count != count {
            return Err(format!("{name}: shard {}/{}, but {first_name} is of {count} shards", shard.index, shard.count));
        }
        if r.input != first.input || r.assumptions != first.assumptions || !same_build(r, first) {
            return Err(format!("{name}: a report of another run ({}) than {first_name} ({})", describe(r), describe(first)));
        }
    }
    reports.sort_by_key(|(_, r)| r.shard.map(|s| s.index));
    for pair in reports.windows(2) {
        if let (Some(a), Some(b)) = (pair[0].1.shard, pair[1].1.shard) {
            if a == b {
                return Err(format!("{} and {}: both are shard {}/{count}", pair[0].0, pair[1].0, a.index));
            }
        }
    }
    let present: Vec<u32> = reports.iter().filter_map(|(_, r)| r.shard.map(|s| s.index)).collect();
    let missing: Vec<String> = (1..=count).filter(|k| !present.contains(k)).map(|k| format!("{k}/{count}")).collect();
    if !missing.is_empty() {
        return Err(format!("shard(s) {} missing: every shard's report is needed, or paths would be left out", missing.join(", ")));
    }
    let reports: Vec<Report> = reports.into_iter().map(|(_, r)| r).collect();
    Ok(combine(reports))
}

fn combine(reports: Vec<Report>) -> Report {
    let first = &reports[0];
    let (input, assumptions, build) = (first.input.clone(), first.assumptions.clone(), first.build.clone());
    let limit = reports.iter().find_map(|r| r.limit);
    let uncertain = reports.iter().any(|r| r.warnings.iter().any(|w| w.kind == SPLIT_UNCERTAIN));
    let mut unverified: Vec<String> = Vec::new();
    let mut inputs: Vec<SymbolicInput> = Vec::new();
    let mut findings: Vec<Finding> = Vec::new();
    for r in &reports {
        for name in &r.unverified_rules {
            if !unverified.contains(name) {
                unverified.push(name.clone());
            }
        }
        for i in &r.symbolic_inputs {
            if !inputs.iter().any(|j| j.name == i.name) {
                inputs.push(i.clone());
            }
        }
        for f in &r.findings {
            if !findings.iter().any(|g| same_finding(f, g)) {
                findings.push(f.clone());
            }
        }
    }
    let stats = sum_stats(&reports);
    let coverage = merge_coverage(&reports);
    let mut merged = Report::new(input, assumptions, findings, stats, limit, coverage);
    merged.mark_unverified_rules(unverified);
    merged.build = build;
    merged.symbolic_inputs = inputs;
    merged.native_replay = merge_native_replay(&reports, &merged.findings);
    if uncertain {
        merged.mark_split_uncertain();
    }
    merged
}

/// The key under which the executor reports a finding once per run.
fn same_finding(a: &Finding, b: &Finding) -> bool {
    a.kind == b.kind && a.location == b.location && (a.kind != FindingKind::Unsupported || a.message == b.message)
}

/// The shards' native replay, counted again over the merged findings by
/// the rule each shard counted its own: reproduced, not reproduced (the
/// model and the CPU disagree), confirmed by the model only. Where the
/// witnesses ran is each shard's place, once; the time is the slowest
/// shard's, as for `seconds`.
fn merge_native_replay(reports: &[Report], findings: &[Finding]) -> Option<NativeReplaySummary> {
    let shards: Vec<&NativeReplaySummary> = reports.iter().filter_map(|r| r.native_replay.as_ref()).collect();
    if shards.is_empty() {
        return None;
    }
    let mut places: Vec<&str> = Vec::new();
    for s in &shards {
        if !places.contains(&s.on.as_str()) {
            places.push(&s.on);
        }
    }
    let outcome = |f: &Finding, o: NativeOutcome| f.native.as_ref().is_some_and(|n| n.outcome == o);
    let count = |keep: &dyn Fn(&Finding) -> bool| findings.iter().filter(|f| keep(f)).count() as u64;
    Some(NativeReplaySummary {
        on: places.join(", "),
        reproduced: count(&|f| outcome(f, NativeOutcome::Reproduced)),
        not_reproduced: count(&|f| outcome(f, NativeOutcome::NotReproduced) && f.message.contains(NOT_REPRODUCED_CLAUSE)),
        confirmed_by_model: count(&|f| f.status == Status::ConfirmedByModel),
        seconds: shards.iter().map(|s| s.seconds).fold(0.0, f64::max),
        build_cached: shards.iter().all(|s| s.build_cached),
    })
}

fn sum_stats(reports: &[Report]) -> RunStats {
    let mut s = RunStats::default();
    for r in reports {
        s.add_counts(&r.stats);
        s.seconds = s.seconds.max(r.stats.seconds);
    }
    s
}

/// Coverage of the whole: paths without a check add up (each path is
/// one shard's); a check or a symbolic input reached by any shard was
/// reached by the unsharded run, so the counts are zero exactly when the
/// unsharded run's are (checks add up, symbolic inputs are the most any
/// shard made), and the vacuity warnings come out the same.
fn merge_coverage(reports: &[Report]) -> Option<Coverage> {
    let all: Vec<&Coverage> = reports.iter().filter_map(|r| r.coverage.as_ref()).collect();
    if all.is_empty() {
        return None;
    }
    Some(Coverage {
        symbolic_inputs: all.iter().map(|c| c.symbolic_inputs).max().unwrap_or(0),
        checks: all.iter().map(|c| c.checks).sum(),
        paths_without_check: all.iter().map(|c| c.paths_without_check).sum(),
        program_has_checks: all.iter().any(|c| c.program_has_checks),
        memory_accesses: None,
    })
}

/// Whether two reports checked the same program: the same inputs (by
/// content), flags and entry. The directory may differ (shards run on
/// different machines).
fn same_build(a: &Report, b: &Report) -> bool {
    match (&a.build, &b.build) {
        (Some(x), Some(y)) => {
            x.input_digests == y.input_digests
                && x.defines == y.defines
                && x.cflags == y.cflags
                && x.entry == y.entry
                && x.target == y.target
        }
        (None, None) => true,
        _ => false,
    }
}

fn describe(r: &Report) -> String {
    let mut s = r.input.clone();
    if !r.assumptions.is_empty() {
        s.push_str(&format!(" --assume {}", r.assumptions.join(",")));
    }
    if let Some(b) = &r.build {
        if !b.defines.is_empty() {
            s.push_str(&format!(" -D {}", b.defines.join(" -D ")));
        }
    }
    s
}
