//! `symcross replay`: rebuilds what a report checked from the report's
//! `build` record, runs every confirmed finding's witness natively under
//! AddressSanitizer and UndefinedBehaviorSanitizer, and says whether the
//! CPU shows what the report claimed (exit 1), refuses witnesses that do
//! not fit the harness (exit 2), and calls a confirmed finding that does
//! not reproduce a symcross bug (exit 4).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> PathBuf {
    common::repo().join("tests/fixtures/replay").join(name)
}

/// Runs `symcross check` on `args` writing the report to `report`; the
/// run must find something confirmed.
fn check_to(report: &Path, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    all.extend(["--json", report.to_str().unwrap(), "--query-timeout", "120"]);
    let run = common::symcross(&all);
    assert_eq!(run.code, 1, "check {args:?}:\n{}\n{}", run.stdout, run.stderr);
    serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap()
}

fn replay(args: &[&str]) -> common::Run {
    let mut all = vec!["replay"];
    all.extend_from_slice(args);
    common::symcross(&all)
}

fn write_json(path: &Path, v: &serde_json::Value) {
    std::fs::write(path, serde_json::to_string_pretty(v).unwrap()).unwrap();
}

#[test]
fn the_report_records_its_build() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let f = fixture("sized_mismatch.c");
    let inc = fixture("");
    let inc = inc.to_str().unwrap();
    let json =
        check_to(&report, &[f.to_str().unwrap(), "-D", "N=3", "-I", inc, "--cflags", "-mavx2 -fno-strict-aliasing", "--assume", "finite"]);
    let b = &json["build"];
    assert_eq!(b["inputs"], serde_json::json!([f.to_str().unwrap()]), "{b:#}");
    assert_eq!(b["defines"], serde_json::json!(["N=3"]), "{b:#}");
    assert_eq!(b["include_dirs"], serde_json::json!([inc]), "{b:#}");
    assert_eq!(b["cflags"], serde_json::json!(["-mavx2", "-fno-strict-aliasing"]), "{b:#}");
    assert_eq!(b["entry"], "main", "{b:#}");
    assert!(b["target"].is_null(), "{b:#}");
    assert_eq!(b["assumptions"], json["assumptions"], "{b:#}");
    assert_eq!(b["symcross_version"], json["version"], "{b:#}");
    assert!(Path::new(b["directory"].as_str().unwrap()).is_absolute(), "{b:#}");
}

#[test]
fn a_confirmed_mismatch_replays() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    check_to(&report, &[fixture("sized_mismatch.c").to_str().unwrap(), "-D", "N=4"]);
    let run = replay(&[report.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("halves: element") && run.stdout.contains("differs"), "{}", run.stdout);
    assert!(run.stdout.contains("reproduced on the CPU: mismatch at sized_mismatch.c:16"), "{}", run.stdout);
    assert!(run.stdout.contains("1 of 1 finding(s) reproduced"), "{}", run.stdout);
}

/// The report was written from the repository with a relative input and
/// `-D N=5`; replay runs from elsewhere with neither.
#[test]
fn replay_rebuilds_with_the_recorded_defines_and_directory() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let check = Command::new(env!("CARGO_BIN_EXE_symcross"))
        .current_dir(common::repo())
        .args(["check", "tests/fixtures/replay/sized_mismatch.c", "-D", "N=5", "--json"])
        .arg(&report)
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(1), "{}", String::from_utf8_lossy(&check.stdout));
    let run = Command::new(env!("CARGO_BIN_EXE_symcross")).current_dir(dir.path()).args(["replay", "r.json"]).output().unwrap();
    let out = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{out}\n{}", String::from_utf8_lossy(&run.stderr));
    assert!(out.contains("-D N=5"), "{out}");
    assert!(out.contains("of 5 can differ"), "{out}");
    // A -D given to replay overrides the recorded one: with N=2 the
    // witness (5 bytes) no longer fits the harness.
    let run = replay(&[report.to_str().unwrap(), "-D", "N=2"]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("REFUSED") && run.stdout.contains("5 byte(s) for `in`, the harness asks for 2"), "{}", run.stdout);
}

#[test]
fn an_out_of_bounds_read_replays_through_address_sanitizer() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let json = check_to(&report, &[fixture("read_and_mismatch.c").to_str().unwrap()]);
    let oob = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .position(|f| f["kind"] == "out-of-bounds" && f["status"] == "confirmed")
        .expect("an out-of-bounds finding");
    let run = replay(&[report.to_str().unwrap(), "--finding", &oob.to_string()]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("reproduced on the CPU: out-of-bounds at read_and_mismatch.c:15 (AddressSanitizer: heap-buffer-overflow"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("1 of 1 finding(s)"), "{}", run.stdout);
}

#[test]
fn every_confirmed_finding_is_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let f = fixture("read_and_mismatch.c");
    check_to(&report, &[f.to_str().unwrap()]);
    let run = replay(&[report.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("out-of-bounds at read_and_mismatch.c:15"), "{}", run.stdout);
    assert!(run.stdout.contains("mismatch at read_and_mismatch.c:21"), "{}", run.stdout);
    assert!(run.stdout.contains("2 of 2 finding(s) reproduced"), "{}", run.stdout);
    // The old form, harness first, still works.
    let run = replay(&[f.to_str().unwrap(), report.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
}

#[test]
fn memory_errors_of_the_check_fixtures_replay() {
    for (name, kind) in [
        ("heap_overflow.c", "out-of-bounds"),
        ("stack_overflow_index.c", "out-of-bounds"),
        ("heap_use_after_free.c", "use-after-free"),
        ("heap_double_free.c", "double-free"),
        ("division_by_zero.c", "division-by-zero"),
        ("const_global_write.c", "write-to-read-only"),
        ("const_global_memset.c", "write-to-read-only"),
        ("string_literal_write.c", "write-to-read-only"),
    ] {
        assert_check_fixture_replays(name, kind);
    }
}

/// Checks `tests/fixtures/check/NAME` and replays its report: every
/// finding reproduces on the CPU, the first as a `kind` at that file.
fn assert_check_fixture_replays(name: &str, kind: &str) {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    check_to(&report, &[common::repo().join("tests/fixtures/check").join(name).to_str().unwrap()]);
    let run = replay(&[report.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{name}:\n{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(&format!("reproduced on the CPU: {kind} at {name}")), "{name}:\n{}", run.stdout);
}

/// The signed-zero ties of fminf and of a min reduction: the witnesses
/// symcross finds for two operand (or lane) orders are differences the
/// CPU shows too.
#[test]
fn fmin_tie_witness_replays() {
    for name in ["fmin_swapped_operands_refuted.c", "reduce_fmin_ties_lane_order.c"] {
        assert_check_fixture_replays(name, "mismatch");
    }
}

/// Tampered reports: an input renamed, or resized, does not fit the
/// harness and is refused.
#[test]
fn witnesses_that_do_not_fit_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let json = check_to(&report, &[fixture("sized_mismatch.c").to_str().unwrap(), "-D", "N=4"]);
    let hex = json["findings"][0]["witness"]["in"].as_str().unwrap().to_string();

    let mut renamed = json.clone();
    renamed["findings"][0]["witness"] = serde_json::json!({ "input": hex });
    let path = dir.path().join("renamed.json");
    write_json(&path, &renamed);
    let run = replay(&[path.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("REFUSED") && run.stdout.contains("the witness has no input of that name"), "{}", run.stdout);

    let mut extra = json.clone();
    extra["findings"][0]["witness"]["other"] = serde_json::json!("01");
    let path = dir.path().join("extra.json");
    write_json(&path, &extra);
    let run = replay(&[path.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("`other` that no make_symbolic call"), "{}", run.stdout);

    let mut resized = json.clone();
    resized["findings"][0]["witness"]["in"] = serde_json::json!(format!("{hex}00"));
    let path = dir.path().join("resized.json");
    write_json(&path, &resized);
    let run = replay(&[path.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("the witness gives 5 byte(s) for `in`, the harness asks for 4"), "{}", run.stdout);

    let mut garbled = json;
    garbled["findings"][0]["witness"]["in"] = serde_json::json!("zz");
    let path = dir.path().join("garbled.json");
    write_json(&path, &garbled);
    let run = replay(&[path.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("not a string of hex byte pairs"), "{}", run.stderr);
}

/// A confirmed finding whose witness no longer triggers it: the "not
/// reproduced" status, loudly.
#[test]
fn a_witness_that_does_not_reproduce_is_a_symcross_bug() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let mut json = check_to(&report, &[fixture("sized_mismatch.c").to_str().unwrap(), "-D", "N=4"]);
    json["findings"][0]["witness"]["in"] = serde_json::json!("00000000");
    write_json(&report, &json);
    let run = replay(&[report.to_str().unwrap()]);
    assert_eq!(run.code, 4, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("NOT REPRODUCED"), "{}", run.stdout);
    assert!(run.stdout.contains("THIS IS A BUG IN SYMCROSS"), "{}", run.stdout);
    assert!(!run.stdout.contains("every check held on the CPU\n") || run.code != 0);
}

#[test]
fn unconfirmed_and_unsupported_findings_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let mut json = check_to(&report, &[fixture("read_and_mismatch.c").to_str().unwrap()]);
    json["findings"][0]["status"] = serde_json::json!("unconfirmed");
    json["findings"][1]["kind"] = serde_json::json!("unsupported");
    write_json(&report, &json);
    let run = replay(&[report.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("finding 0: out-of-bounds") && run.stdout.contains("skipped (unconfirmed"), "{}", run.stdout);
    assert!(run.stdout.contains("finding 1: unsupported") && run.stdout.contains("skipped (an unsupported construct"), "{}", run.stdout);
    assert!(run.stderr.contains("no confirmed finding that a native run can replay"), "{}", run.stderr);
    let run = replay(&[report.to_str().unwrap(), "--finding", "7"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("there is no finding 7"), "{}", run.stderr);
}

/// The `// cflags:` line of a harness, if any.
fn cflags(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).expect("read harness");
    text.lines().find_map(|l| l.trim().strip_prefix("// cflags:").map(|s| s.trim().to_string()))
}

fn c_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            c_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "c") {
            out.push(p);
        }
    }
}

/// Every confirmed finding of every bundled harness (harnesses/**/*.c: the
/// `_broken` twins, the paper cases, the reductions) reproduces on the CPU.
#[test]
fn every_confirmed_finding_of_the_bundled_harnesses_replays() {
    let mut files = Vec::new();
    c_files(&common::repo().join("harnesses"), &mut files);
    // The tolerance harnesses replay in tests/tolerance.rs; here their
    // worst-input search would run each undecided query to this test's
    // long query limit.
    let tolerance = common::repo().join("harnesses/tolerance");
    files.retain(|h| !h.starts_with(&tolerance));
    files.sort();
    let mut replayed = 0;
    let mut failures = Vec::new();
    for h in &files {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("r.json");
        let mut args =
            vec!["check", h.to_str().unwrap(), "--json", report.to_str().unwrap(), "--max-time", "600", "--query-timeout", "120"];
        let flags = cflags(h);
        if let Some(f) = flags.as_deref() {
            args.extend(["--cflags", f]);
        }
        let check = common::symcross(&args);
        if check.code != 1 {
            continue;
        }
        let run = replay(&[report.to_str().unwrap()]);
        replayed += 1;
        if run.code != 1 {
            failures.push(format!("{} (exit {}):\n{}\n{}", h.display(), run.code, run.stdout, run.stderr));
        }
    }
    assert!(replayed >= 10, "only {replayed} harnesses had findings");
    assert!(failures.is_empty(), "confirmed findings that do not replay:\n{}", failures.join("\n"));
}

/// The paper cases under the assumptions that leave them unequal: their
/// witnesses (many found by sampling) respect the assumptions and
/// reproduce on the CPU.
#[test]
fn paper_findings_under_assumptions_replay() {
    for (name, assume) in [
        ("sum_reduction.c", "associativity"),
        ("ktt.c", "positive-zero,finite"),
        ("min_order.c", "ordered"),
        ("min_order.c", "positive-zero"),
        ("double_precision.c", "finite,positive-zero"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let report = dir.path().join("r.json");
        let h = common::repo().join("harnesses/paper").join(name);
        let json = check_to(&report, &[h.to_str().unwrap(), "--assume", assume, "--max-time", "600"]);
        assert_eq!(json["build"]["assumptions"], json["assumptions"]);
        let run = replay(&[report.to_str().unwrap()]);
        assert_eq!(run.code, 1, "{name} --assume {assume}:\n{}\n{}", run.stdout, run.stderr);
    }
}

/// A memory error inside an OpenCL kernel (here: the kernel text is a
/// string literal of the host) cannot show natively: the kernel runs on
/// the OpenCL implementation, which is not instrumented. It is skipped
/// with that reason, not reported as reproduced or as a symcross bug.
#[test]
fn memory_errors_in_opencl_kernels_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    check_to(&report, &[common::repo().join("tests/fixtures/opencl/global_size_rounded_up.c").to_str().unwrap()]);
    let run = replay(&[report.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("skipped (a memory error in an OpenCL kernel"), "{}", run.stdout);
}

/// A harness edited after the report was written is named in a warning.
#[test]
fn an_edited_harness_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path().join("h.c");
    std::fs::copy(fixture("sized_mismatch.c"), &h).unwrap();
    let report = dir.path().join("r.json");
    let json = check_to(&report, &[h.to_str().unwrap(), "-D", "N=2"]);
    assert!(json["build"]["input_digests"][0].as_str().unwrap().starts_with("fnv1a64:"), "{:#}", json["build"]);
    let run = replay(&[report.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(!run.stdout.contains("warning:"), "{}", run.stdout);
    let text = std::fs::read_to_string(&h).unwrap().replace("if (in[i] == 200)", "if (in[i] == 201)");
    std::fs::write(&h, text).unwrap();
    let run = replay(&[report.to_str().unwrap()]);
    assert!(run.stdout.contains("warning: ") && run.stdout.contains("h.c differs from the file the report checked"), "{}", run.stdout);
    // The witness no longer triggers the edited harness's mismatch; that
    // is not a symcross bug: exit 2, not 4.
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("the harness changed since the report was written") && !run.stdout.contains("BUG IN SYMCROSS"),
        "{}",
        run.stdout
    );
}
