//! Findings read like compiler diagnostics: `file:line:col: error:` for a
//! confirmed finding, `warning:` for an unconfirmed one, the source line
//! with a caret under the column, `note:` lines for related places, colour
//! only when asked for or on a terminal, paths as the user gave them; and
//! the inputs symcross cannot use are explained (a file without the
//! kernel, two harnesses that both define `main`), `--log debug` and
//! `--progress` say what is going on.

mod common;

use std::path::PathBuf;

fn zlimit_broken() -> PathBuf {
    common::repo().join("harnesses/zlimit_broken.c")
}

fn habits(name: &str) -> String {
    common::repo().join("tests/fixtures/habits").join(name).to_str().unwrap().to_string()
}

#[test]
fn a_confirmed_finding_is_an_error_with_the_source_line_and_a_caret() {
    let run = common::symcross_in(&common::repo(), &[], &["check", "harnesses/zlimit_broken.c"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert!(lines[0].starts_with("harnesses/zlimit_broken.c:38:3: error: mismatch (confirmed): dst:"), "{}", run.stdout);
    assert_eq!(lines[1], " 38 |   symcross_check_equal(dstv, dsts, sizeof(float), N, \"dst\");", "{}", run.stdout);
    assert_eq!(lines[2], "    |   ^", "{}", run.stdout);
    // The assumption that would help is a note at the same place.
    assert!(
        run.stdout.contains("harnesses/zlimit_broken.c:38:3: note: the two sides are equal under --assume positive-zero,ordered"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains('\x1b'), "no colour into a pipe: {}", run.stdout);
}

#[test]
fn an_unconfirmed_finding_is_a_warning() {
    let f = habits("mul_add_contracted.c");
    let run = common::symcross(&["check", &f, "--cflags", "-ffp-contract=on"]);
    assert_eq!(run.code, 3, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("mul_add_contracted.c:15:3: warning: mismatch (unconfirmed): a*b+c"), "{}", run.stdout);
}

#[test]
fn the_other_access_of_a_race_is_a_note() {
    let k = common::repo().join("tests/fixtures/race/fixed_scalar_race.cl");
    let run = common::symcross(&["race", k.to_str().unwrap(), "--local-size", "4", "--num-groups", "1", "--arg", "k=3"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("fixed_scalar_race.cl:5:10: error: race (confirmed): write-write race"), "{}", run.stdout);
    assert!(run.stdout.contains("fixed_scalar_race.cl:5:10: note: write by work-item (1,0,0)"), "{}", run.stdout);
    // Races are not checks: no row of zero "checks decided".
    assert!(!run.stdout.contains("checks decided"), "{}", run.stdout);
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let dir = common::repo();
    let always = common::symcross_in(&dir, &[("NO_COLOR", "1")], &["check", "harnesses/zlimit_broken.c", "--color", "always"]);
    assert!(always.stdout.contains("\x1b[1;31merror:\x1b[0m"), "{}", always.stdout);
    assert!(always.stdout.contains("\x1b[1;32m^\x1b[0m"), "{}", always.stdout);
    for args in [&["--color", "never"][..], &["--color", "auto"][..], &[][..]] {
        let mut a = vec!["check", "harnesses/zlimit_broken.c"];
        a.extend_from_slice(args);
        let run = common::symcross_in(&dir, &[], &a);
        assert!(!run.stdout.contains('\x1b'), "{args:?}: {}", run.stdout);
    }
    let bad = common::symcross(&["check", zlimit_broken().to_str().unwrap(), "--color", "sometimes"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
}

#[test]
fn paths_are_printed_as_given_also_from_another_directory() {
    let elsewhere = tempfile::tempdir().unwrap();
    let absolute = zlimit_broken().to_str().unwrap().to_string();
    // A relative path that climbs out of the working directory.
    let depth = elsewhere.path().components().count() - 1;
    let relative = format!("{}{}", "../".repeat(depth), absolute.trim_start_matches('/'));
    // Debug info records a file under the working directory relative to
    // it: an absolute path given from there must still print as given.
    let cases = [
        (elsewhere.path(), absolute.as_str()),
        (elsewhere.path(), relative.as_str()),
        (common::repo().leak() as &std::path::Path, absolute.as_str()),
    ];
    for (dir, given) in cases {
        let run = common::symcross_in(dir, &[], &["check", given, "--json", "-"]);
        let json = run.json.unwrap_or_else(|| panic!("{given}: {}\n{}", run.stdout, run.stderr));
        assert_eq!(json["findings"][0]["location"]["file"], given);
        assert_eq!(json["input"], given);
        let text = common::symcross_in(dir, &[], &["check", given]);
        assert!(text.stdout.starts_with(&format!("{given}:38:3: error:")), "{}", text.stdout);
        assert!(text.stdout.contains(" 38 |   symcross_check_equal"), "the source line is found: {}", text.stdout);
    }
}

#[test]
fn race_on_a_file_without_the_kernel_lists_what_it_found() {
    let none = common::symcross(&["race", &habits("no_kernel.cl"), "--local-size", "4", "--num-groups", "1"]);
    assert_eq!(none.code, 2);
    assert!(none.stderr.contains("no kernel in this file"), "{}", none.stderr);
    let wrong = common::symcross(&["race", &habits("two_kernels.cl"), "--local-size", "4", "--num-groups", "1", "--kernel", "fil"]);
    assert_eq!(wrong.code, 2);
    assert!(wrong.stderr.contains("no kernel `fil`; the kernels in it are: fill, clear"), "{}", wrong.stderr);
}

#[test]
fn two_inputs_defining_main_name_the_file_to_drop() {
    let (a, b) = (habits("two_mains_a.c"), habits("two_mains_b.c"));
    let run = common::symcross(&["check", &a, &b]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains(&format!("`main` is defined in both {a} and {b}")), "{}", run.stderr);
    assert!(run.stderr.contains("drop one of them"), "{}", run.stderr);
    assert!(!run.stderr.contains("llvm-link"), "{}", run.stderr);
}

#[test]
fn log_debug_shows_stages_commands_and_checks() {
    let run = common::symcross(&["--log", "debug", "check", zlimit_broken().to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    for what in [
        "stage: compiled and linked",
        "stage: translated to the internal IR",
        "stage: symbolic execution",
        "stage: execution finished",
        "clang ",
        "check_equal",
        "finding:",
    ] {
        assert!(run.stderr.contains(what), "no `{what}` in:\n{}", run.stderr);
    }
    let bad = common::symcross(&["--log", "loud", "check", zlimit_broken().to_str().unwrap()]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--log must be one of"), "{}", bad.stderr);
}

#[test]
fn progress_reports_a_running_solver_query() {
    // Interval 0: one line as each query starts, whatever its length.
    let f = habits("mul_add_contracted.c");
    let run = common::symcross_in(
        &common::repo(),
        &[("SYMCROSS_PROGRESS_TICK_MS", "0")],
        &["check", &f, "--cflags", "-ffp-contract=on", "--progress"],
    );
    assert!(run.stderr.contains("symcross: waiting on the solver: query 1 ("), "{}", run.stderr);
    assert!(run.stderr.contains("s of its 10 s timeout"), "{}", run.stderr);
    let quiet = common::symcross_in(&common::repo(), &[("SYMCROSS_PROGRESS_TICK_MS", "0")], &["check", &f, "--cflags", "-ffp-contract=on"]);
    assert!(!quiet.stderr.contains("waiting on the solver"), "{}", quiet.stderr);
}
