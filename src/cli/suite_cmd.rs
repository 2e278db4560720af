//! `symcross suite` and `symcross merge`: run a manifest's entries
//! (`crate::suite`) and join the reports of shards.

use super::args::{MergeArgs, SuiteArgs};
use crate::suite::outcome::SuiteReport;
use crate::Error;
use std::time::Instant;

/// Runs `symcross suite`: the manifest's entries (or one shard of them),
/// checked against their expected outcomes.
pub fn suite(a: SuiteArgs) -> Result<i32, Error> {
    let path = a.manifest.clone().unwrap_or_else(|| "symcross.toml".into());
    let manifest = crate::suite::manifest::load(&path)?;
    if let Some(dir) = &a.html {
        super::html_out::prepare_dir(dir)?;
    }
    let shard = match &a.shard {
        Some(s) => Some((crate::suite::shard::parse(s).map_err(Error::Usage)?, "--shard")),
        None => crate::suite::shard::from_env(|k| std::env::var(k).ok()).map_err(Error::Usage)?,
    };
    let indices = match shard {
        Some((kn, _)) => crate::suite::shard::select(manifest.entries.len(), kn),
        None => (0..manifest.entries.len()).collect(),
    };
    if let Some(((k, n), from)) = shard {
        eprintln!("symcross suite: shard {k}/{n} (from {from}): {} of {} entries", indices.len(), manifest.entries.len());
    }
    let jobs = a.jobs.map(|j| j as usize).unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let start = Instant::now();
    let results = crate::suite::run::run_entries(
        &manifest,
        &indices,
        &crate::suite::run::RunOptions { jobs, use_cache: !a.no_cache, progress: !a.quiet },
    );
    let shard_text = shard.map(|((k, n), _)| format!("{k}/{n}"));
    let report = SuiteReport::new(path.display().to_string(), shard_text, results, start.elapsed().as_secs_f64()).of_manifest(&manifest);
    if let Some(dir) = &a.html {
        super::html_out::write_suite(dir, &report, &manifest.root)?;
    }
    finish(&report, &a.json, &a.ci)
}

/// `symcross merge`: the reports of `suite` shards, or of `check --shard`
/// shards of one harness (told apart by the first report).
pub fn merge(a: MergeArgs) -> Result<i32, Error> {
    let mut texts = Vec::new();
    for p in &a.reports {
        let text = std::fs::read_to_string(p).map_err(|source| Error::Read { path: p.clone(), source })?;
        texts.push((p.display().to_string(), text));
    }
    let is_check_report =
        |t: &str| serde_json::from_str::<serde_json::Value>(t).map(|v| v.get("shard").is_some_and(|s| s.is_object())).unwrap_or(false);
    if texts.first().is_some_and(|(_, t)| is_check_report(t)) {
        return merge_path_shards(&a, texts);
    }
    merge_suite_shards(&a, texts)
}

/// Joins the reports of `check --shard K/N` into the harness's report.
fn merge_path_shards(a: &MergeArgs, texts: Vec<(String, String)>) -> Result<i32, Error> {
    let mut reports = Vec::new();
    for (name, text) in texts {
        let r = crate::report::Report::from_json(&text).map_err(|e| Error::NotAReport {
            file: name.clone(),
            expected: "symcross check --json",
            why: e.to_string(),
        })?;
        reports.push((name, r));
    }
    let report = crate::report::shard_merge::merge(reports).map_err(Error::Merge)?;
    if !crate::cli::stdout_taken(&a.json, &a.ci, &None) {
        print!("{}", crate::report::text::render(&report));
    }
    crate::cli::write_json(&a.json, &report.to_json())?;
    crate::cli::write_ci_reports(&a.ci, &report, "symcross.check")?;
    Ok(report.verdict.exit_code())
}

fn merge_suite_shards(a: &MergeArgs, texts: Vec<(String, String)>) -> Result<i32, Error> {
    let mut reports = Vec::new();
    for (p, text) in &texts {
        let r: SuiteReport = serde_json::from_str(text).map_err(|e| Error::NotAReport {
            file: p.clone(),
            expected: "symcross suite --json",
            why: e.to_string(),
        })?;
        reports.push((p.clone(), r));
    }
    let report = crate::suite::merge::merge(reports).map_err(Error::Merge)?;
    finish(&report, &a.json, &a.ci)
}

/// Prints the table and writes the reports asked for.
fn finish(report: &SuiteReport, json: &Option<String>, ci: &super::CiReportArgs) -> Result<i32, Error> {
    // Each failing entry with its first finding as a compiler diagnostic
    // (file:line:col, source line, witness): the CI log says what failed
    // without the JSON report. On stderr when stdout carries the JSON.
    let mut failures = String::new();
    let root = std::path::Path::new(&report.manifest).parent().map(|p| p.display().to_string()).unwrap_or_default();
    for e in report.entries.iter().filter(|e| e.outcome != "met") {
        failures.push_str(&format!("\n{}: {}\n", e.name, e.summary));
        // The summary already quotes the error's first line.
        if let Some(rest) = e.error.as_deref().and_then(|err| err.split_once('\n')).map(|(_, rest)| rest) {
            failures.push_str(&format!("{rest}\n"));
        }
        if let Some(first) = crate::suite::outcome::first_finding_text(&root, e) {
            failures.push_str(&first);
        }
    }
    if !crate::cli::stdout_taken(json, ci, &None) {
        print!("{}{failures}", report.table());
    } else {
        eprint!("{failures}");
    }
    crate::cli::write_json(json, &report.to_json())?;
    crate::cli::write_json(&ci.sarif, &report.sarif())?;
    crate::cli::write_json(&ci.junit, &report.junit())?;
    Ok(report.exit_code())
}
