//! Cached results: an entry whose inputs are unchanged reuses the report of
//! its last run. The key is a digest of everything the report depends on:
//! the symcross executable (its version and the digest of its bytes, so a
//! rebuild of the same source still hits, and any code change misses), the command
//! and its options, the text of each input file and of the files it
//! includes with `#include "..."`, the rule files of `--rules` and of the
//! built-in rules, the runtime model, and the `SYMCROSS_*` variables that
//! choose tools. Reports are kept as `results/KEY.json` under the cache
//! directory of the runtime model (`$SYMCROSS_CACHE_DIR`, ...).
//!
//! Reports that depend on the machine are not kept: those stopped by the
//! time limit and those with a finding the solver left undecided (a
//! timeout, Bitwuzla's CPU stand-in for the work budget, the memory
//! ceiling, a solver failure), races included.

use super::manifest::Entry;
use crate::frontend::Digest;
use crate::report::{DecidedBy, Report};
use std::path::{Path, PathBuf};

/// Where reports are kept, if caching is on.
pub fn results_dir() -> Option<PathBuf> {
    crate::frontend::cache_dir().map(|d| d.join("results"))
}

/// The identity of the running symcross: its version and a digest of the
/// executable's bytes (computed once per suite run).
pub fn executable_identity() -> String {
    let mut d = Digest::new();
    d.add(env!("CARGO_PKG_VERSION").as_bytes());
    if let Ok(bytes) = std::env::current_exe().and_then(std::fs::read) {
        d.add(&bytes);
    }
    d.hex()
}

/// The cache key of an entry run from `root` by the executable `exe`
/// (`executable_identity`).
pub fn key(entry: &Entry, root: &Path, exe: &str) -> String {
    let mut d = Digest::new();
    d.add(exe.as_bytes());
    d.add(entry.command.as_bytes());
    for o in &entry.options {
        d.add(o.as_bytes());
    }
    let includes: Vec<PathBuf> = entry.include.iter().map(|i| root.join(i)).collect();
    let mut seen = Vec::new();
    for f in &entry.files {
        d.add(f.as_os_str().as_encoded_bytes());
        add_source(&mut d, &root.join(f), &includes, &mut seen);
    }
    for dir in entry.rules.iter().map(|r| root.join(r)).chain([crate::canon::rules::builtin_rules_dir()]) {
        add_tree(&mut d, &dir);
    }
    if let Some(rt) = crate::frontend::runtime_dir() {
        add_tree(&mut d, &rt);
    }
    for var in ["SYMCROSS_CLANG", "SYMCROSS_LLVM_LINK", "SYMCROSS_OPT", "SYMCROSS_RUNTIME", "SYMCROSS_RULES"] {
        d.add(std::env::var(var).unwrap_or_default().as_bytes());
    }
    d.hex()
}

/// A source file and, recursively, the files it includes with quotes.
fn add_source(d: &mut Digest, path: &Path, includes: &[PathBuf], seen: &mut Vec<PathBuf>) {
    if seen.iter().any(|s| s == path) {
        return;
    }
    seen.push(path.to_path_buf());
    let bytes = std::fs::read(path).unwrap_or_default();
    d.add(&bytes);
    let text = String::from_utf8_lossy(&bytes);
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix('#') else { continue };
        let Some(rest) = rest.trim_start().strip_prefix("include") else { continue };
        let Some(name) = rest.trim().strip_prefix('"').and_then(|r| r.split('"').next()) else { continue };
        let dir = path.parent().unwrap_or(Path::new("."));
        if let Some(found) = std::iter::once(dir).chain(includes.iter().map(PathBuf::as_path)).map(|d| d.join(name)).find(|p| p.is_file()) {
            add_source(d, &found, includes, seen);
        }
    }
}

/// Every file under a directory, in a fixed order.
fn add_tree(d: &mut Digest, root: &Path) {
    for f in crate::frontend::files_under(root) {
        d.add(f.strip_prefix(root).unwrap_or(&f).as_os_str().as_encoded_bytes());
        d.add(&std::fs::read(&f).unwrap_or_default());
    }
}

/// Whether a report may be reused: it does not depend on the machine's speed.
/// A finding the solver left undecided for another reason than time is not
/// reused either: Bitwuzla's CPU stand-in for the work budget
/// (`UnknownKind::CpuBudget`), the memory ceiling or a solver process
/// failing depends on the machine too. Every such finding is labelled
/// `solver-unknown` (check_equal.rs `undecided_by`), so one test covers
/// them; a deterministic Z3 budget run-out is labelled so too and not
/// kept either, which costs a rerun, never a wrong answer.
pub fn reusable(report: &Report) -> bool {
    report.limit != Some(crate::report::Limit::Time)
        && !report.findings.iter().any(|f| matches!(f.decided_by, Some(DecidedBy::Timeout | DecidedBy::SolverUnknown)))
}

/// The cached report under `key`, if caching is on and one was stored.
pub fn lookup(key: &str) -> Option<Report> {
    let text = std::fs::read_to_string(results_dir()?.join(format!("{key}.json"))).ok()?;
    Report::from_json(&text).ok()
}

/// Keeps a report; a cache that cannot be written is silently skipped.
pub fn store(key: &str, report: &Report) {
    let Some(dir) = results_dir() else { return };
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    // Write then rename, so a concurrent reader never sees half a report.
    let tmp = dir.join(format!("{key}.{}.tmp", std::process::id()));
    if std::fs::write(&tmp, report.to_json()).is_ok() {
        let _ = std::fs::rename(&tmp, dir.join(format!("{key}.json")));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Finding, FindingKind, Location, RunStats, Status};

    fn report_with(kind: FindingKind, decided_by: Option<DecidedBy>) -> Report {
        let location = Location { file: "k.cu".into(), line: 3, column: 1 };
        let finding = Finding { decided_by, ..Finding::new(kind, Status::Unconfirmed, "undecided".into(), location) };
        Report::new("k.cu".into(), vec![], vec![finding], RunStats::default(), None, None)
    }

    #[test]
    fn a_finding_left_undecided_by_the_solver_is_not_kept() {
        // A mismatch or a race the solver left undecided by Bitwuzla's CPU
        // stand-in budget is labelled solver-unknown, as any unknown that
        // is not a timeout (check_equal.rs tests `undecided_by`); a
        // timeout is labelled timeout.
        for kind in [FindingKind::Mismatch, FindingKind::Race] {
            for by in [DecidedBy::SolverUnknown, DecidedBy::Timeout] {
                assert!(!reusable(&report_with(kind, Some(by))), "{kind:?} {by:?}");
            }
        }
        // A race confirmed by the solver (or one with no solver question)
        // depends on nothing of the machine.
        assert!(reusable(&report_with(FindingKind::Race, Some(DecidedBy::BitPrecise))));
        assert!(reusable(&report_with(FindingKind::Race, None)));
    }
}
