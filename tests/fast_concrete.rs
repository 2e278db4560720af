//! The fast tier for concrete code (src/exec/engine/fast_concrete/) must
//! change nothing a run computes: every harness and fixture here is run
//! with the tier (the default) and with `--no-fast-concrete`, and the two
//! JSON reports must be identical but for timings (verdict, findings and
//! their witnesses, instructions counted, paths). The fixtures of
//! tests/fixtures/fast_concrete/ put the tier's hand-over points in
//! concrete loops (a division by zero, an overflowing or undefined
//! operation, a store past an array, an indeterminate read, a freed
//! block) and state the finding both tiers must give, at its line; csmith
//! programs are compared across the tiers and with their native run.

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The report without what depends on the machine (seconds).
fn without_timings(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.remove("seconds");
            map.values_mut().for_each(without_timings);
        }
        Value::Array(items) => items.iter_mut().for_each(without_timings),
        _ => {}
    }
}

/// Exit code and report of `symcross [--no-fast-concrete] check FILE ...`.
fn check(file: &Path, fast: bool, extra: &[&str]) -> (i32, Value, String) {
    let mut args: Vec<&str> = Vec::new();
    if !fast {
        args.push("--no-fast-concrete");
    }
    let path = file.to_str().expect("utf-8 path");
    // No native replay (the same in both), and no time limit on a solver
    // query: a query cut short by a loaded machine is not the tier's doing.
    args.extend(["check", path, "--json", "-", "--no-replay", "--query-timeout", "1000"]);
    args.extend_from_slice(extra);
    let run = common::symcross(&args);
    let mut json = run.json.unwrap_or(Value::Null);
    without_timings(&mut json);
    (run.code, json, run.stderr)
}

/// Both tiers on `file`: the same exit code and report, returned.
fn same_in_both_tiers(file: &Path, extra: &[&str]) -> (i32, Value) {
    let (fast_code, fast, fast_err) = check(file, true, extra);
    let (slow_code, slow, slow_err) = check(file, false, extra);
    assert_eq!(
        (fast_code, &fast),
        (slow_code, &slow),
        "{}: the fast tier changed the result\nwith the tier, stderr:\n{fast_err}\nwithout, stderr:\n{slow_err}",
        file.display()
    );
    (fast_code, fast)
}

/// Runs `each` on `files` in two threads.
fn in_two_threads(files: &[PathBuf], each: impl Fn(&Path) + Sync) {
    let (even, odd): (Vec<_>, Vec<_>) = files.iter().enumerate().partition(|(k, _)| k % 2 == 0);
    std::thread::scope(|s| {
        let each = &each;
        let a = s.spawn(move || even.into_iter().for_each(|(_, f)| each(f)));
        odd.into_iter().for_each(|(_, f)| each(f));
        a.join().expect("worker thread");
    });
}

fn c_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(common::repo().join(dir))
        .expect("fixture directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

/// The line of a fixture's `// line: N`.
fn expected_line(path: &Path) -> u64 {
    let text = std::fs::read_to_string(path).expect("read fixture");
    text.lines().find_map(|l| l.strip_prefix("// line:")).map(|n| n.trim().parse().expect("line number")).unwrap_or(0)
}

/// The fixture's `// message:` line: words its first finding's message
/// must contain.
fn expected_message(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).expect("read fixture");
    text.lines().find_map(|l| l.strip_prefix("// message:")).map(|m| m.trim().to_string())
}

/// Runs a fixture in both tiers and checks its `// expect:`, `// line:`
/// and `// message:` lines against the report.
fn fixture_holds_in_both_tiers(f: &Path) {
    let (code, json) = same_in_both_tiers(f, &[]);
    let run = common::Run { code, stdout: json.to_string(), stderr: String::new(), json: Some(json.clone()) };
    if let Err(e) = common::verify(f, &run) {
        panic!("{e}");
    }
    let first = &json["findings"][0];
    let line = expected_line(f);
    if line > 0 {
        assert_eq!(first["location"]["line"].as_u64(), Some(line), "{}: first finding at another line: {first}", f.display());
    }
    if let Some(words) = expected_message(f) {
        let message = first["message"].as_str().unwrap_or_default();
        assert!(message.contains(&words), "{}: the first finding's message lacks `{words}`: {message}", f.display());
    }
}

#[test]
fn hand_over_points_give_the_same_findings_in_both_tiers() {
    let files = c_files("tests/fixtures/fast_concrete");
    assert!(files.len() >= 8);
    in_two_threads(&files, fixture_holds_in_both_tiers);
}

/// Host programs whose NDRange is enumerated work-item by work-item
/// (tests/fixtures/fast_concrete/enumerated/): the work-items of a group
/// start from copies of one entry frame (by-value arguments still copied
/// per work-item), a group whose work-items agree ends without copying
/// them, and `get_global_id` of constant ids is computed as a number.
/// Work-items' scalar loads and stores at constant addresses run on the
/// tier too (`__global` ones with the race record made there), and a
/// misaligned one is handed to the general step. Each check of an
/// enumerated run still finds its bug, between the work-items the
/// message names: a race between groups and one inside a group (with a
/// by-value argument), read-write races between groups on records the
/// tier made, a barrier divergence, the last work-item's out-of-bounds
/// read and its misaligned store.
#[test]
fn enumerated_ndranges_still_find_races_divergences_and_out_of_bounds() {
    let files = c_files("tests/fixtures/fast_concrete/enumerated");
    assert!(files.len() >= 7);
    in_two_threads(&files, fixture_holds_in_both_tiers);
}

/// `symcross [--no-fast-concrete] race FILE ARGS --json -`: exit code
/// and report without timings.
fn race(file: &Path, fast: bool, extra: &[&str]) -> (i32, Value, String) {
    let mut args: Vec<&str> = Vec::new();
    if !fast {
        args.push("--no-fast-concrete");
    }
    // No time limit on a solver query: one cut short by a loaded machine
    // is not the tier's doing.
    args.extend(["race", file.to_str().expect("utf-8 path"), "--json", "-", "--query-timeout", "1000"]);
    args.extend_from_slice(extra);
    let run = common::symcross(&args);
    let mut json = run.json.unwrap_or(Value::Null);
    without_timings(&mut json);
    (run.code, json, run.stderr)
}

/// Race fixtures' kernels (every eighth of tests/fixtures/race/), most of whose
/// NDRanges `race` enumerates (its default up to 4096 work-items): each
/// work-item's pure instructions run on the tier, and every verdict,
/// race, divergence and witness is the same as without it.
#[test]
fn race_fixtures_agree_in_both_tiers() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(common::repo().join("tests/fixtures/race"))
        .expect("fixture directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    assert!(files.len() >= 100);
    // Every eighth, in name order: all of them twice take tens of minutes
    // on a loaded machine; tests/race_fixtures.rs checks each one's answer.
    let files: Vec<PathBuf> = files.into_iter().step_by(8).collect();
    in_two_threads(&files, |f| {
        let text = std::fs::read_to_string(f).expect("read fixture");
        let args: Vec<&str> =
            text.lines().find_map(|l| l.strip_prefix("// args:")).map(|a| a.split_whitespace().collect()).unwrap_or_default();
        let (fast_code, fast, fast_err) = race(f, true, &args);
        let (slow_code, slow, slow_err) = race(f, false, &args);
        assert_eq!(
            (fast_code, &fast),
            (slow_code, &slow),
            "{}: the fast tier changed the result\nwith the tier, stderr:\n{fast_err}\nwithout, stderr:\n{slow_err}",
            f.display()
        );
    });
}

/// A kernel's work-items in an enumerated NDRange run their pure
/// instructions on the tier (run.rs, `device_op`): the OpenCL host
/// programs of tests/fixtures/opencl/ (races, out-of-bounds accesses,
/// uninitialised reads, by-value structs, rounding and math built-ins in
/// kernels) give the same report in both tiers.
#[test]
fn opencl_host_programs_agree_in_both_tiers() {
    let files = c_files("tests/fixtures/opencl");
    assert!(files.len() >= 20);
    in_two_threads(&files, |f| {
        same_in_both_tiers(f, &[]);
    });
}

#[test]
fn check_fixtures_and_harnesses_agree_in_both_tiers() {
    let mut files = c_files("tests/fixtures/check");
    files.extend(c_files("tests/fixtures/differential"));
    files.extend(c_files("harnesses"));
    files.extend(c_files("harnesses/paper"));
    // The codec harnesses whose proofs take seconds each are left to
    // tests/codec_harnesses.rs.
    files.extend(
        c_files("harnesses/codec")
            .into_iter()
            .filter(|p| !["idct4x4", "sse4x4"].iter().any(|slow| p.file_stem().is_some_and(|s| s.to_string_lossy().starts_with(slow)))),
    );
    assert!(files.len() > 80);
    in_two_threads(&files, |f| {
        same_in_both_tiers(f, &[]);
    });
}

#[test]
fn simd_harnesses_agree_in_both_tiers() {
    let files: Vec<PathBuf> = c_files("harnesses/simd")
        .into_iter()
        .filter(|p| !p.file_stem().is_some_and(|s| s.to_string_lossy().starts_with("alpha_blend")))
        .collect();
    in_two_threads(&files, |f| {
        let (code, _) = same_in_both_tiers(f, &["--cflags", "-mavx2 -mfma"]);
        assert!(code == 0 || code == 1, "{}: exit {code}", f.display());
    });
}

/// The run loop checks its limits every so many instructions; a stretch
/// of the fast tier ends before such a check, so an instruction limit
/// stops both tiers at the same instruction.
#[test]
fn an_instruction_limit_stops_both_tiers_at_the_same_instruction() {
    let file = common::repo().join("bench/concrete_loop.c");
    let (code, json) = same_in_both_tiers(&file, &["--max-instructions", "300000"]);
    assert_eq!(code, 3, "{json}");
    let ran = json["stats"]["instructions"].as_u64().expect("instructions");
    assert!((300_000..300_000 + 65_536).contains(&ran), "{ran} instructions");
}

/// csmith programs (no input: every instruction concrete) give the same
/// report in both tiers, and print what they print natively.
#[test]
fn csmith_programs_agree_in_both_tiers_and_natively() {
    if Command::new("csmith").arg("--version").output().is_err() || !Path::new("/usr/include/csmith/csmith.h").exists() {
        panic!("csmith and libcsmith-dev are required (scripts/setup.sh installs them)");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let files: Vec<PathBuf> = (201..=208)
        .map(|seed| {
            let src = dir.path().join(format!("csmith{seed}.c"));
            let st = Command::new("csmith")
                .args([
                    "--seed",
                    &seed.to_string(),
                    "--max-funcs",
                    "4",
                    "--max-block-depth",
                    "3",
                    "--no-packed-struct",
                    "--no-bitfields",
                    "-o",
                ])
                .arg(&src)
                .status()
                .expect("csmith");
            assert!(st.success());
            src
        })
        .collect();
    in_two_threads(&files, |f| {
        same_in_both_tiers(f, &["-I", "/usr/include/csmith"]);
        let exe = f.with_extension("exe");
        let st = Command::new("clang-19")
            .args(["-O0", "-w", "-I", "/usr/include/csmith"])
            .arg(f)
            .arg("-o")
            .arg(&exe)
            .status()
            .expect("clang-19");
        assert!(st.success(), "native build of {}", f.display());
        let native = Command::new(&exe).output().expect("native run");
        let p = f.to_str().expect("utf-8 path");
        for tier in [&[][..], &["--no-fast-concrete"][..]] {
            let mut args = tier.to_vec();
            args.extend(["run", p, "-I", "/usr/include/csmith"]);
            let run = common::symcross(&args);
            assert_eq!(run.stdout, String::from_utf8_lossy(&native.stdout), "{} {tier:?}: output differs from native", f.display());
        }
    });
}

/// Concrete SSE2 and AVX2 code, which the tier runs on vectors held as
/// plain bits (raw_lanes.rs), prints what the CPU prints, in both tiers,
/// built at -O0 and at -O2.
#[test]
fn concrete_vector_code_prints_what_the_cpu_prints_in_both_tiers() {
    if !std::arch::is_x86_feature_detected!("avx2") {
        common::skip_or_fail_under_ci("concrete_vector_code_prints_what_the_cpu_prints_in_both_tiers", "this CPU has no AVX2");
        return;
    }
    let files = c_files("tests/fixtures/fast_concrete/native");
    assert_eq!(files.len(), 2);
    let dir = tempfile::tempdir().expect("temp dir");
    let runs: Vec<(PathBuf, &str)> = files.iter().flat_map(|f| ["-O0", "-O2"].map(|o| (f.clone(), o))).collect();
    let paths: Vec<PathBuf> = (0..runs.len()).map(|k| PathBuf::from(k.to_string())).collect();
    in_two_threads(&paths, |k| {
        let (f, opt) = &runs[k.to_str().and_then(|s| s.parse::<usize>().ok()).expect("run number")];
        let exe = dir.path().join(format!("{}{opt}", f.file_stem().expect("stem").to_string_lossy()));
        let st = Command::new("clang-19").args([opt, "-mavx2"]).arg(f).arg("-o").arg(&exe).status().expect("clang-19");
        assert!(st.success(), "native build of {}", f.display());
        let native = Command::new(&exe).output().expect("native run");
        let native = String::from_utf8_lossy(&native.stdout).to_string();
        assert!(native.lines().count() > 8, "{native}");
        let flags = format!("-mavx2 {opt}");
        for tier in [&[][..], &["--no-fast-concrete"][..]] {
            let mut args = tier.to_vec();
            args.extend(["run", f.to_str().expect("utf-8 path"), "--cflags", &flags]);
            let run = common::symcross(&args);
            assert_eq!(run.stdout, native, "{} {opt} {tier:?}: output differs from the CPU's\n{}", f.display(), run.stderr);
        }
    });
}

/// The SSE2 benchmark makes a 64-bit constant of almost every vector it
/// computes when vectors are lists of expression handles: about 40 MB
/// more at its peak than when concrete vectors are held as plain bits and
/// only those that outlive a stretch become constants.
#[test]
fn concrete_vectors_held_as_bits_cost_no_constant_per_operation() {
    let file = common::repo().join("bench/concrete_sse2.c");
    let path = file.to_str().expect("utf-8 path");
    // Compiled once first: a peak measured while clang runs is clang's.
    common::symcross(&["check", path, "--no-replay", "--json", "-"]);
    let (fast, fast_code, fast_mb, _) = common::run_measured(&["check", path, "--no-replay"]);
    let (slow, slow_code, slow_mb, _) = common::run_measured(&["--no-fast-concrete", "check", path, "--no-replay"]);
    assert_eq!((fast_code, &fast["stats"]["instructions"]), (slow_code, &slow["stats"]["instructions"]));
    assert_eq!(fast["stats"]["instructions"], 698_601, "{fast}");
    assert!(fast_mb + 25 < slow_mb, "peak {fast_mb} MB with the tier, {slow_mb} MB without");
}
