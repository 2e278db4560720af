//! `check --shard K/N` and `symcross merge` of its reports: for harnesses
//! with many paths (merged and unmerged, equivalent and with a finding),
//! the N shards' reports merge into the unsharded run's verdict, findings
//! (as a set) and path count, for N = 2, 3 and 4, also where paths follow
//! the solver's model (a symbolic size) and are not split. A shard that owns no
//! path still writes a valid report; one shard stopped by a limit makes
//! the merged verdict inconclusive; bad `--shard` values and incomplete or
//! mixed sets of reports are refused with exit 2. Budgets are counts of
//! paths, never times.

mod common;

use common::{repo, symcross};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What must be the same for the unsharded run and the merged shards.
#[derive(Debug, PartialEq)]
struct Outcome {
    code: i32,
    verdict: String,
    paths: u64,
    /// (kind, status, file, line, column) of each finding.
    findings: BTreeSet<(String, String, String, u64, u64)>,
    /// Native replay: where, and (reproduced, not reproduced, confirmed by
    /// the model only), each finding counted once.
    native: (String, [u64; 3]),
}

fn outcome(code: i32, report: &Value) -> Outcome {
    let findings = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let l = &f["location"];
            let s = |v: &Value| v.as_str().unwrap_or("").to_string();
            (s(&f["kind"]), s(&f["status"]), s(&l["file"]), l["line"].as_u64().unwrap_or(0), l["column"].as_u64().unwrap_or(0))
        })
        .collect();
    let n = &report["native_replay"];
    let count = |k: &str| n[k].as_u64().unwrap_or(0);
    let native = (n["on"].as_str().unwrap_or("").to_string(), [count("reproduced"), count("not_reproduced"), count("confirmed_by_model")]);
    Outcome {
        code,
        verdict: report["verdict"].as_str().unwrap().to_string(),
        paths: report["stats"]["paths"].as_u64().unwrap(),
        findings,
        native,
    }
}

fn check(harness: &[&str], extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["check"];
    args.extend_from_slice(harness);
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--json", "-"]);
    let run = symcross(&args);
    let report = run.json.unwrap_or_else(|| panic!("no report from {args:?} (exit {}): {}{}", run.code, run.stdout, run.stderr));
    (run.code, report)
}

/// Runs the N shards of `harness`, writing their reports into `dir`.
fn shards(harness: &[&str], n: usize, dir: &Path) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let (code, report) = check(harness, &["--shard", &format!("{k}/{n}")]);
            assert!((0..=3).contains(&code), "shard {k}/{n} of {harness:?}: exit {code}");
            assert_eq!(report["shard"], serde_json::json!({"index": k, "count": n}));
            let file = dir.join(format!("shard{k}of{n}.json"));
            std::fs::write(&file, report.to_string()).unwrap();
            file
        })
        .collect()
}

fn merge(files: &[PathBuf]) -> (i32, Value) {
    let mut args = vec!["merge".to_string()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    args.extend(["--json".to_string(), "-".to_string()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = symcross(&args);
    let report = run.json.unwrap_or_else(|| panic!("merge {files:?}: exit {}: {}{}", run.code, run.stdout, run.stderr));
    (run.code, report)
}

/// Unsharded, then 2, 3 and 4 shards merged: the same outcome each time.
fn shards_merge_into_the_unsharded_run(harness: &[&str], want_verdict: &str, min_paths: u64) {
    let (code, whole) = check(harness, &[]);
    let want = outcome(code, &whole);
    assert_eq!(want.verdict, want_verdict, "{harness:?}: {whole:#}");
    assert!(want.paths >= min_paths, "{harness:?} has only {} paths", want.paths);
    let dir = tempfile::tempdir().unwrap();
    for n in 2..=4 {
        let files = shards(harness, n, dir.path());
        let (code, merged) = merge(&files);
        assert_eq!(outcome(code, &merged), want, "{harness:?} in {n} shards:\n{merged:#}");
        assert!(merged.get("shard").is_none(), "the merged report covers the whole harness");
        // Given in another order, the merge is the same report.
        let mut reversed = files.clone();
        reversed.reverse();
        let (_, again) = merge(&reversed);
        assert_eq!(again["findings"], merged["findings"], "{harness:?}: the findings' order depends on the order of the reports");
    }
}

fn fixture(name: &str) -> String {
    repo().join("tests/fixtures/shard").join(name).display().to_string()
}

fn harness(path: &str) -> String {
    repo().join("harnesses").join(path).display().to_string()
}

#[test]
fn a_merged_interpreter_with_four_way_switches() {
    // 4^3 paths, each with merge regions inside it.
    shards_merge_into_the_unsharded_run(&[&fixture("opcodes.c")], "equivalent", 64);
}

#[test]
fn a_merged_interpreter_with_a_mismatch() {
    shards_merge_into_the_unsharded_run(&[&fixture("opcodes.c"), "-DBROKEN"], "findings", 64);
}

#[test]
fn zlimit_without_merging() {
    // KLEE-CL's walkthrough example on 6 elements: a binary tree of 2^6 paths.
    shards_merge_into_the_unsharded_run(&[&harness("zlimit.c"), "-DN=6", "--no-merge"], "equivalent", 64);
}

#[test]
fn zlimit_broken_without_merging() {
    shards_merge_into_the_unsharded_run(&[&harness("zlimit_broken.c"), "-DN=5", "--no-merge"], "findings", 32);
}

#[test]
fn a_shard_that_owns_no_path_still_writes_a_valid_report() {
    // Merged, zlimit is one path: one shard owns it, the others none.
    let z = harness("zlimit.c");
    let (code, whole) = check(&[&z, "-DN=8"], &[]);
    assert_eq!((code, whole["stats"]["paths"].as_u64()), (0, Some(1)));
    let dir = tempfile::tempdir().unwrap();
    let files = shards(&[&z, "-DN=8"], 3, dir.path());
    let paths: Vec<u64> = files
        .iter()
        .map(|f| serde_json::from_str::<Value>(&std::fs::read_to_string(f).unwrap()).unwrap()["stats"]["paths"].as_u64().unwrap())
        .collect();
    assert_eq!(paths.iter().sum::<u64>(), 1, "{paths:?}");
    assert!(paths.contains(&0), "{paths:?}");
    let (code, merged) = merge(&files);
    assert_eq!(outcome(code, &merged), outcome(0, &whole));
}

#[test]
fn a_shard_stopped_by_a_limit_makes_the_merge_inconclusive() {
    let z = harness("zlimit.c");
    let h = [z.as_str(), "-DN=6", "--no-merge"];
    let dir = tempfile::tempdir().unwrap();
    let files = shards(&h, 2, dir.path());
    let (code, limited) = check(&h, &["--shard", "2/2", "--max-paths", "2"]);
    assert_eq!((code, limited["limit"].as_str()), (3, Some("paths")));
    std::fs::write(&files[1], limited.to_string()).unwrap();
    let (code, merged) = merge(&files);
    assert_eq!((code, merged["verdict"].as_str(), merged["limit"].as_str()), (3, Some("inconclusive"), Some("paths")), "{merged:#}");
}

#[test]
fn bad_shards_and_bad_sets_of_reports_are_refused() {
    let z = harness("zlimit.c");
    for bad in ["0/0", "5/3", "0/3", "2", "a/b", "1/0", "99999999999/99999999999"] {
        let run = symcross(&["check", &z, "--shard", bad]);
        assert_eq!(run.code, 2, "--shard {bad}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains("--shard"), "--shard {bad}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
    let dir = tempfile::tempdir().unwrap();
    let files = shards(&[&z, "-DN=4", "--no-merge"], 3, dir.path());
    let refused = |files: &[PathBuf], why: &str| {
        let mut args = vec!["merge".to_string()];
        args.extend(files.iter().map(|f| f.display().to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = symcross(&args);
        assert_eq!(run.code, 2, "{why}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(why), "expected `{why}` in: {}", run.stderr);
    };
    refused(&files[..2], "3/3 missing");
    refused(&[files[0].clone(), files[0].clone(), files[2].clone()], "both are shard 1/3");
    // A shard of another program (other -D).
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let others = shards(&[&z, "-DN=5", "--no-merge"], 3, &other);
    refused(&[files[0].clone(), files[1].clone(), others[2].clone()], "another run");
    // An unsharded report is not a shard.
    let (_, whole) = check(&[&z, "-DN=4", "--no-merge"], &[]);
    let plain = dir.path().join("whole.json");
    std::fs::write(&plain, whole.to_string()).unwrap();
    refused(&[files[0].clone(), plain], "not a `check --shard` report");
}

#[test]
fn paths_that_follow_the_model_stay_in_one_shard() {
    // Each value of a symbolic memcpy size is a path, explored in the
    // order the solver's models give: the shards cannot split there.
    let f = repo().join("tests/fixtures/sizes/memcpy_symbolic_size.c").display().to_string();
    shards_merge_into_the_unsharded_run(&[&f], "findings", 9);
}
