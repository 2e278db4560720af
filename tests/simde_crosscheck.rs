//! A real SIMD library as a test: SIMDe (Debian's libsimde-dev, header-only
//! portable implementations of every x86 intrinsic), compiled with
//! `-DSIMDE_NO_NATIVE`, crosschecked against clang's native intrinsic for
//! every row of tests/fixtures/simde/expected.tsv, on fully symbolic
//! inputs. Each outcome is asserted; every mismatch found is replayed on the
//! CPU (`symcross replay`), so an expected mismatch is a difference SIMDe
//! really has, not a symcross artefact.
//!
//! The harness is one table-driven C file (tests/fixtures/simde/crosscheck.c)
//! selected with -D; no SIMDe code is copied into the repository.
//! Crosschecks run on two threads. Verdicts rest on counted budgets; the
//! time limits below are only a safety net that fails the test loudly.

mod common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

const SIMDE_HEADER: &str = "/usr/include/simde/x86/sse4.2.h";
/// Safety net only: a run that needs this long fails the test (as inconclusive).
const MAX_SECONDS: &str = "150";
const THREADS: usize = 2;
/// cvc5 work units per query: the slowest row (dp_pd) needs about 1M (4 s).
const FP_SOLVER_BUDGET: &str = "5000000";

/// One row of expected.tsv.
#[derive(Clone, Debug)]
struct Row {
    name: String,
    arity: String,
    operand: String,
    result: String,
    immediate: Option<String>,
    element: String,
    /// `equivalent`, `mismatch` (confirmed, replayed on the CPU) or `inconclusive`.
    expect: String,
    /// Checked with `--nan exact` (the row's verdict is written
    /// `VERDICT@nan-exact`): for code that reads the bits of float results,
    /// which `--nan equal` leaves inconclusive (warning `nan-bits-read`).
    nan_exact: bool,
    why: String,
}

fn table_path() -> PathBuf {
    common::repo().join("tests/fixtures/simde/expected.tsv")
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(table_path()).expect("read expected.tsv");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 8, "expected.tsv: 8 tab-separated fields in {l:?}");
            Row {
                name: f[0].into(),
                arity: f[1].into(),
                operand: f[2].into(),
                result: f[3].into(),
                immediate: (f[4] != "-").then(|| f[4].to_string()),
                element: f[5].into(),
                expect: f[6].trim_end_matches("@nan-exact").into(),
                nan_exact: f[6].ends_with("@nan-exact"),
                why: f[7].into(),
            }
        })
        .collect()
}

/// What one crosscheck gave.
struct Outcome {
    row: Row,
    /// `equivalent`, `mismatch`, `inconclusive`, or a description of anything else.
    got: String,
    seconds: f64,
    /// For findings: did `symcross replay` reproduce them on the CPU?
    replayed: Option<bool>,
    detail: String,
}

fn defines(row: &Row) -> Vec<String> {
    let mut d = vec![
        "-DSIMDE_NO_NATIVE".to_string(),
        format!("-DNAME={}", row.name),
        format!("-DARITY={}", row.arity),
        format!("-DTA={}", row.operand),
        format!("-DTR={}", row.result),
        format!("-DELEM={}", row.element),
    ];
    if let Some(imm) = &row.immediate {
        d.push(format!("-DIMM={imm}"));
    }
    d
}

fn crosscheck(row: &Row, dir: &Path) -> Outcome {
    let harness = common::repo().join("tests/fixtures/simde/crosscheck.c");
    let report = dir.join(format!("{}.json", row.name));
    let (h, r) = (harness.to_str().unwrap(), report.to_str().unwrap());
    let d = defines(row);
    // The FP solver's work budget, not a time, decides each query, so the
    // verdicts do not depend on how busy the machine is; the timeout is
    // only a backstop far above what the budget takes.
    let mut args = vec![
        "check",
        h,
        "--json",
        r,
        "--cflags",
        "-msse4.2",
        "--max-time",
        MAX_SECONDS,
        "--fp-solver-budget",
        FP_SOLVER_BUDGET,
        "--query-timeout",
        MAX_SECONDS,
    ];
    args.extend(d.iter().map(|s| s.as_str()));
    if row.nan_exact {
        args.extend(["--nan", "exact"]);
    }
    let start = Instant::now();
    let run = common::symcross(&args);
    let seconds = start.elapsed().as_secs_f64();
    let json: Option<serde_json::Value> = std::fs::read_to_string(&report).ok().and_then(|t| serde_json::from_str(&t).ok());
    let Some(json) = json else {
        return Outcome {
            row: row.clone(),
            got: format!("exit {} without a report", run.code),
            seconds,
            replayed: None,
            detail: run.stderr,
        };
    };
    let verdict = json["verdict"].as_str().unwrap_or("").to_string();
    let findings = json["findings"].as_array().cloned().unwrap_or_default();
    let summary: Vec<String> = findings
        .iter()
        .map(|f| {
            format!(
                "{} ({}): {}",
                f["kind"].as_str().unwrap_or(""),
                f["status"].as_str().unwrap_or(""),
                f["message"].as_str().unwrap_or("")
            )
        })
        .collect();
    let confirmed_mismatch = findings.iter().any(|f| f["kind"] == "mismatch" && f["status"] == "confirmed");
    let got = match verdict.as_str() {
        "findings" if confirmed_mismatch && findings.len() == 1 => "mismatch".to_string(),
        // A row whose SIMDe code has undefined behaviour on some inputs
        // expects findings of more than one kind.
        "findings" if row.expect == "findings" => "findings".to_string(),
        "findings" => format!("findings: {}", summary.join("; ")),
        v => v.to_string(),
    };
    let replayed = (verdict == "findings").then(|| {
        let replay = common::symcross(&["replay", r]);
        replay.code == 1
    });
    Outcome { row: row.clone(), got, seconds, replayed, detail: format!("{}\n{}", run.stdout, summary.join("\n")) }
}

fn run_all(rows: &[Row]) -> Vec<Outcome> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let next = AtomicUsize::new(0);
    let out = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(row) = rows.get(i) else { break };
                let o = crosscheck(row, dir.path());
                out.lock().unwrap_or_else(|e| e.into_inner()).push(o);
            });
        }
    });
    let mut v = out.into_inner().unwrap_or_else(|e| e.into_inner());
    v.sort_by(|a, b| a.row.name.cmp(&b.row.name));
    v
}

/// Why an outcome disagrees with its row, if it does.
fn disagreement(o: &Outcome) -> Option<String> {
    let name = &o.row.name;
    if o.got != o.row.expect {
        let replay = match o.replayed {
            Some(true) => " (the witness reproduces on the CPU: a SIMDe difference; record it in expected.tsv)",
            Some(false) => " (the witness does NOT reproduce on the CPU: a symcross bug)",
            None => "",
        };
        return Some(format!("{name}: expected {}, got {}{replay}\n{}", o.row.expect, o.got, o.detail));
    }
    if o.row.expect == "mismatch" && o.replayed != Some(true) {
        return Some(format!("{name}: the mismatch did not reproduce on the CPU\n{}", o.detail));
    }
    None
}

#[test]
fn simde_portable_intrinsics_against_the_native_ones() {
    if !Path::new(SIMDE_HEADER).exists() {
        common::skip_or_fail_under_ci(
            "simde_portable_intrinsics_against_the_native_ones",
            &format!("{SIMDE_HEADER} not found (install libsimde-dev, see scripts/setup.sh)"),
        );
        return;
    }
    let rows = rows();
    let outcomes = run_all(&rows);
    let mut times: Vec<f64> = outcomes.iter().map(|o| o.seconds).collect();
    times.sort_by(|a, b| a.total_cmp(b));
    let count = |v: &str| outcomes.iter().filter(|o| o.got == v).count();
    let slowest = outcomes.iter().max_by(|a, b| a.seconds.total_cmp(&b.seconds)).map(|o| o.row.name.as_str()).unwrap_or("");
    // The figures of BENCHMARKS.md's "SIMDe crosscheck" section.
    println!(
        "SIMDe crosscheck: {} intrinsics: {} equivalent, {} mismatch (replayed), {} inconclusive; per run median {:.1} s, max {:.1} s ({slowest})",
        outcomes.len(),
        count("equivalent"),
        count("mismatch"),
        count("inconclusive"),
        times[times.len() / 2],
        times[times.len() - 1],
    );
    for o in &outcomes {
        println!("  {}\t{}\t{:.1} s", o.row.name, o.got, o.seconds);
    }
    let wrong: Vec<String> = outcomes.iter().filter_map(disagreement).collect();
    assert!(wrong.is_empty(), "{} of {} crosschecks disagree with expected.tsv:\n\n{}", wrong.len(), outcomes.len(), wrong.join("\n\n"));
}

#[test]
fn the_table_is_large_and_explains_every_expected_difference() {
    let rows = rows();
    assert!(rows.len() >= 100, "at least 100 intrinsics, got {}", rows.len());
    let mut names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), rows.len(), "an intrinsic is listed twice");
    for r in &rows {
        assert!(
            ["equivalent", "mismatch", "findings", "inconclusive"].contains(&r.expect.as_str()),
            "{}: unknown verdict {}",
            r.name,
            r.expect
        );
        assert_eq!(
            r.expect == "equivalent" && !r.nan_exact,
            r.why == "-",
            "{}: every expected mismatch, inconclusive run or --nan exact row needs a one-line why, and only those",
            r.name
        );
    }
}
