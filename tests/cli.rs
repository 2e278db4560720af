//! The command line: exit codes for bad input, limits, searchers and
//! determinism, help text, JSON shape.

mod common;

fn fixture(name: &str) -> String {
    common::repo().join("tests/fixtures/check").join(name).to_str().unwrap().to_string()
}

#[test]
fn missing_file_is_exit_2_naming_it() {
    let run = common::symcross(&["check", "/nonexistent/harness.c"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("/nonexistent/harness.c"), "{}", run.stderr);
}

#[test]
fn garbage_bitcode_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let bc = dir.path().join("garbage.bc");
    std::fs::write(&bc, b"BC\xc0\xde this is not bitcode").unwrap();
    let run = common::symcross(&["check", bc.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("garbage.bc"), "{}", run.stderr);
}

#[test]
fn unknown_assumption_is_exit_2() {
    let run = common::symcross(&["check", &fixture("int_add_self_proved.c"), "--assume", "commutative"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("commutative"), "{}", run.stderr);
}

#[test]
fn missing_entry_function_is_exit_2() {
    let run = common::symcross(&["check", &fixture("int_add_self_proved.c"), "--entry", "nope"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("nope"), "{}", run.stderr);
}

#[test]
fn path_limit_gives_inconclusive_exit_3() {
    let run = common::symcross(&["check", &fixture("switch_recursion_fptr.c"), "--max-paths", "1", "--no-merge", "--json", "-"]);
    assert_eq!(run.code, 3, "{}", run.stdout);
    let j = run.json.unwrap();
    assert_eq!(j["verdict"], "inconclusive");
    assert_eq!(j["limit"], "paths");
}

/// `--max-instructions` stops a run at the same point on any machine:
/// the report names the limit and counts the same instructions twice.
#[test]
fn instruction_limit_is_deterministic() {
    let harness = common::repo().join("bench/concrete_loop.c");
    let run = || {
        let run = common::symcross(&["check", harness.to_str().unwrap(), "--max-instructions", "1000000", "--json", "-"]);
        assert_eq!(run.code, 3, "{}", run.stdout);
        run.json.unwrap()
    };
    let (a, b) = (run(), run());
    assert_eq!(a["limit"], "instructions", "{a}");
    assert_eq!(a["stats"]["instructions"], b["stats"]["instructions"], "{a}\n{b}");
    let used = a["stats"]["instructions"].as_u64().unwrap();
    assert!((1_000_000..1_000_000 + 65_536).contains(&used), "{used}");
    let zero = common::symcross(&["check", harness.to_str().unwrap(), "--max-instructions", "0"]);
    assert_eq!(zero.code, 2, "{}", zero.stderr);
}

#[test]
fn every_searcher_gives_the_same_verdict() {
    for s in ["dfs", "bfs", "random-path"] {
        for (f, want) in [("switch_recursion_fptr.c", "equivalent"), ("heap_double_free.c", "findings")] {
            let run = common::symcross(&["check", &fixture(f), "--searcher", s, "--no-merge", "--json", "-"]);
            assert_eq!(run.json.as_ref().unwrap()["verdict"], want, "{s} {f}: {}", run.stdout);
        }
    }
}

#[test]
fn random_path_is_deterministic_for_a_seed() {
    let findings = |seed: &str| {
        let run = common::symcross(&[
            "check",
            &fixture("heap_double_free.c"),
            "--searcher",
            "random-path",
            "--seed",
            seed,
            "--no-merge",
            "--json",
            "-",
        ]);
        let j = run.json.unwrap();
        (j["findings"].clone(), j["stats"]["paths"].clone(), j["stats"]["instructions"].clone())
    };
    assert_eq!(findings("7"), findings("7"));
}

#[test]
fn help_explains_every_flag() {
    let run = common::symcross(&["check", "--help"]);
    assert_eq!(run.code, 0);
    for flag in [
        "--assume",
        "--json",
        "--max-time",
        "--max-paths",
        "--max-instructions",
        "--max-memory",
        "--cflags",
        "--rules",
        "--no-merge",
        "--searcher",
        "--seed",
        "--fp-solver-budget",
    ] {
        assert!(run.stdout.contains(flag), "--help does not mention {flag}");
    }
}

#[test]
fn json_report_has_the_documented_fields() {
    let run = common::symcross(&["check", &fixture("int_double_shift_refuted.c"), "--json", "-"]);
    let j = run.json.unwrap();
    for k in ["tool", "version", "input", "assumptions", "verdict", "stats", "findings"] {
        assert!(j.get(k).is_some(), "missing {k}: {j:#}");
    }
    for k in ["paths", "merged", "instructions", "queries", "seconds"] {
        assert!(j["stats"].get(k).is_some(), "missing stats.{k}");
    }
    let f = &j["findings"][0];
    assert_eq!(f["kind"], "mismatch");
    assert_eq!(f["status"], "confirmed");
    assert_eq!(f["location"]["line"], 9);
    assert!(f["witness"]["x"].as_str().unwrap().len() == 8, "{f:#}");
}

#[test]
fn text_report_names_file_and_line() {
    let run = common::symcross(&["check", &fixture("heap_use_after_free.c")]);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("heap_use_after_free.c:8:"), "{}", run.stdout);
    assert!(run.stdout.contains("heap_use_after_free.c:7:3: note: freed here"), "{}", run.stdout);
}

/// --max-time stops a run inside a single long path (an endless loop is
/// one path): exit 3, naming the limit.
#[test]
fn time_limit_stops_an_endless_path() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("endless.c");
    std::fs::write(&src, "int main(void) { volatile int x = 0; while (1) x++; }\n").unwrap();
    let started = std::time::Instant::now();
    let run = common::symcross(&["check", src.to_str().unwrap(), "--max-time", "1"]);
    assert_eq!(run.code, 3, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("time limit"), "{}", run.stdout);
    assert!(started.elapsed().as_secs() < 20, "took {:?}", started.elapsed());
}

/// --progress reports inside one long path too, not only between paths.
#[test]
fn progress_is_reported_inside_a_long_path() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("endless.c");
    std::fs::write(&src, "int main(void) { volatile int x = 0; while (1) x++; }\n").unwrap();
    let run = common::symcross(&["check", src.to_str().unwrap(), "--max-time", "3", "--progress"]);
    assert_eq!(run.code, 3, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("instructions"), "no progress line:\n{}", run.stderr);
}

#[test]
fn unknown_bench_section_is_exit_2_listing_the_sections() {
    // Refused before any section is measured.
    let run = common::symcross(&["bench", "--only", "concrete,nosuch"]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("unknown bench section `nosuch`"), "{}", run.stderr);
    assert!(run.stderr.contains("concrete, harnesses"), "{}", run.stderr);
    assert!(!run.stdout.contains("instructions/s"), "a section ran: {}", run.stdout);
}

#[test]
fn race_arg_refuses_a_value_for_a_struct_and_a_parameter_the_kernel_lacks() {
    let k = common::repo().join("tests/fixtures/race/byval_struct_symbolic.cl");
    let k = k.to_str().unwrap();
    let run = common::symcross(&["race", k, "--local-size", "4", "--num-groups", "1", "--arg", "c=1"]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("--arg c: a struct argument cannot be given a value"), "{}", run.stderr);
    let run = common::symcross(&["race", k, "--local-size", "4", "--num-groups", "1", "--arg", "nope=1"]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("kernel `use` has no parameter `nope`"), "{}", run.stderr);
}

/// `--html -` writes the page to standard output, alone (no text report
/// mixed into it); two reports asking for standard output are refused.
#[test]
fn html_report_on_standard_output() {
    let run = common::symcross(&["check", &fixture("int_add_self_proved.c"), "--html", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("<!DOCTYPE html>"), "{}", &run.stdout[..run.stdout.len().min(200)]);
    assert!(run.stdout.trim_end().ends_with("</html>"), "page cut short or followed by text");
    let both = common::symcross(&["check", &fixture("int_add_self_proved.c"), "--html", "-", "--json", "-"]);
    assert_eq!(both.code, 2, "{}", both.stderr);
    assert!(both.stderr.contains("--json - and --html - both ask for standard output"), "{}", both.stderr);
}
