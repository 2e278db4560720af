//! `--log LEVEL`: the events a user debugging a run sees on stderr. Each
//! level adds its events (info: stages; debug: checks with their ladder
//! step, solver queries, merges, barriers; trace: forks, path ends), and
//! without `--log` stderr carries none of them.

mod common;

const BRANCHY: &str = "tests/fixtures/check/branchy_abs_proved.c";
const KERNEL: &str = "tests/fixtures/race/barrier_uniform.cl";

/// `symcross check BRANCHY` with `extra` arguments: its stderr, after
/// checking the verdict did not change with logging.
fn check_stderr(extra: &[&str]) -> String {
    let path = common::repo().join(BRANCHY);
    let mut args = vec!["check", path.to_str().unwrap(), "--json", "-"];
    args.extend_from_slice(extra);
    let run = common::symcross(&args);
    let json = run.json.unwrap_or_else(|| panic!("no report: {}\n{}", run.stdout, run.stderr));
    assert_eq!(json["verdict"], "equivalent", "{json:#}");
    run.stderr
}

fn race_stderr(extra: &[&str]) -> String {
    let path = common::repo().join(KERNEL);
    let mut args = vec!["race", path.to_str().unwrap(), "--local-size", "8", "--num-groups", "2"];
    args.extend_from_slice(extra);
    let run = common::symcross(&args);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    run.stderr
}

fn assert_has(stderr: &str, needle: &str) {
    assert!(stderr.contains(needle), "expected `{needle}` in the log:\n{stderr}");
}

#[test]
fn debug_shows_checks_queries_and_merges_in_a_span() {
    let err = check_stderr(&["--log", "debug"]);
    // The span of the command names the harness.
    assert_has(&err, &format!("check{{harness={}", common::repo().join(BRANCHY).display()));
    assert_has(&err, "stage: symbolic execution");
    // The branch-free side against the branchy one needs the solver:
    // each element is decided by it, after a budgeted query.
    assert_has(&err, "check decided step=\"solver\" outcome=\"proved\"");
    assert_has(&err, "solver query (budgeted)");
    assert_has(&err, "answer=\"unsat\"");
    // The four `if`s are merged back into one path.
    assert_has(&err, "states merged");
    // Per-fork events are trace-level: not shown at debug.
    assert!(!err.contains(" fork "), "a trace event at debug:\n{err}");
    // A log sent to a pipe is plain text.
    assert!(!err.contains('\u{1b}'), "escape codes in a log that is not on a terminal:\n{err}");
}

#[test]
fn trace_shows_forks_with_their_place_and_path_ends() {
    let err = check_stderr(&["--log", "trace"]);
    // `if (in[i] < 0)` is line 13 of the fixture, in `main`.
    assert_has(&err, "fork function=main");
    assert_has(&err, "line=13");
    assert_has(&err, "condition_nodes=");
    assert_has(&err, "path ended: returned");
    assert_has(&err, "solver backend call backend=\"z3 bit-vector\"");
}

#[test]
fn without_log_stderr_has_no_events() {
    let err = check_stderr(&[]);
    for event in ["check decided", "solver query", "states merged", "fork", "stage:", "DEBUG", "INFO"] {
        assert!(!err.contains(event), "`{event}` logged without --log:\n{err}");
    }
}

#[test]
fn race_logs_groups_and_barriers_in_a_span() {
    let err = race_stderr(&["--log", "debug"]);
    assert_has(&err, "race{file=");
    assert_has(&err, "work-group started group=0 work_items=8");
    assert_has(&err, "work-group started group=1 work_items=8");
    // The path with `n > 4` reaches the barrier in each group.
    assert_has(&err, "barrier: all work-items arrived, races checked");
    assert_has(&err, "work-group finished, races checked");
    let quiet = race_stderr(&[]);
    assert!(!quiet.contains("barrier"), "logged without --log:\n{quiet}");
}

#[test]
fn unknown_level_is_a_usage_error() {
    let path = common::repo().join(BRANCHY);
    let run = common::symcross(&["check", path.to_str().unwrap(), "--log", "bogus"]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert_has(&run.stderr, "--log must be one of");
}

#[test]
fn loop_bound_cut_and_the_limit_are_logged() {
    let path = common::repo().join("tests/fixtures/race/symbolic_loop_bound_ok.cl");
    let args = ["race", path.to_str().unwrap(), "--local-size", "4", "--num-groups", "1", "--loop-bound", "4"];
    let run = common::symcross(&[&args[..], &["--log", "debug"]].concat());
    // The loop in `bump_only` at line 7 is cut on some path, and the run
    // says which limit made it inconclusive.
    assert_has(&run.stderr, "path ended: loop bound function=bump_only line=7");
    assert_has(&run.stderr, "exploration stopped by a limit limit=\"loop-bound\"");
    let info = common::symcross(&[&args[..], &["--log", "info"]].concat());
    assert_has(&info.stderr, "exploration stopped by a limit");
    assert!(!info.stderr.contains("path ended"), "a debug event at info:\n{}", info.stderr);
}

#[test]
fn a_refutation_names_sampling_as_its_step() {
    let path = common::repo().join("tests/fixtures/check/float_associativity_refuted.c");
    let run = common::symcross(&["check", path.to_str().unwrap(), "--log", "debug"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    // Regrouped float sums differ on concrete samples before any solver query.
    assert_has(&run.stderr, "check decided step=\"sampling\" outcome=\"refuted\"");
    assert!(!run.stderr.contains("step=\"solver\""), "{}", run.stderr);
}
