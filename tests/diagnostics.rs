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
    // The build cache off: the clang command is what is looked for.
    let run = common::symcross_in(
        &common::repo(),
        &[("SYMCROSS_BUILD_CACHE", "off")],
        &["--log", "debug", "check", zlimit_broken().to_str().unwrap()],
    );
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
    // The default limit is the deciding budget, in work units.
    assert!(run.stderr.contains("s (budget 20000000 work units)"), "{}", run.stderr);
    let quiet = common::symcross_in(&common::repo(), &[("SYMCROSS_PROGRESS_TICK_MS", "0")], &["check", &f, "--cflags", "-ffp-contract=on"]);
    assert!(!quiet.stderr.contains("waiting on the solver"), "{}", quiet.stderr);
}

/// One `check` of `given` from `dir`: (text report, JSON report, SARIF log).
fn check_from(dir: &std::path::Path, given: &str) -> (String, serde_json::Value, serde_json::Value) {
    let out = tempfile::tempdir().unwrap();
    let (json, sarif) = (out.path().join("r.json"), out.path().join("r.sarif"));
    let run = common::symcross_in(dir, &[], &["check", given, "--json", json.to_str().unwrap(), "--sarif", sarif.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{given} from {}: {}\n{}", dir.display(), run.stdout, run.stderr);
    let read = |p: &std::path::Path| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    (run.stdout, read(&json), read(&sarif))
}

#[test]
fn paths_stay_as_given_with_the_checkout_and_the_working_directory_side_by_side() {
    // scratch/checkout -> the repository, scratch/wd the working directory,
    // scratch/wd/sub/zlimit_broken.c a different file of the same name.
    let scratch = tempfile::tempdir().unwrap();
    let checkout = scratch.path().join("checkout");
    std::os::unix::fs::symlink(common::repo(), &checkout).unwrap();
    let wd = scratch.path().join("wd");
    std::fs::create_dir_all(wd.join("sub")).unwrap();
    std::fs::copy(zlimit_broken(), wd.join("zlimit_broken.c")).unwrap();
    let decoy: String = (1..=60).map(|i| format!("decoy line {i}\n")).collect();
    std::fs::write(wd.join("sub/zlimit_broken.c"), decoy).unwrap();
    let through_checkout = checkout.join("harnesses/zlimit_broken.c").display().to_string();
    let copy = wd.join("zlimit_broken.c").display().to_string();
    let cases = [
        (wd.clone(), through_checkout.clone()),
        (wd.clone(), "../checkout/harnesses/zlimit_broken.c".to_string()),
        (wd.join("sub"), copy.clone()),
        (wd.join("sub"), "../zlimit_broken.c".to_string()),
        (wd.join("sub"), "./../zlimit_broken.c".to_string()),
    ];
    for (dir, given) in &cases {
        let (text, json, sarif) = check_from(dir, given);
        assert!(text.starts_with(&format!("{given}:38:3: error: mismatch (confirmed)")), "{given}: {text}");
        assert!(text.contains(" 38 |   symcross_check_equal(dstv, dsts"), "{given}: the source line of the file compiled: {text}");
        assert!(!text.contains("decoy"), "{given}: a line of another file of that name: {text}");
        assert_eq!(json["input"], given.as_str());
        assert_eq!(json["findings"][0]["location"]["file"], given.as_str());
        let uri =
            sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap().to_string();
        if given.starts_with('/') {
            assert_eq!(uri, format!("file://{given}"));
        } else {
            assert_eq!(uri, *given);
        }
    }
}

#[test]
fn paths_stay_as_given_from_a_directory_inside_the_checkout() {
    let inside = tempfile::tempdir_in(common::repo().join("target")).unwrap();
    let (text, json, _) = check_from(inside.path(), "../../harnesses/zlimit_broken.c");
    assert!(text.starts_with("../../harnesses/zlimit_broken.c:38:3: error:"), "{text}");
    assert!(text.contains(" 38 |   symcross_check_equal"), "{text}");
    assert_eq!(json["findings"][0]["location"]["file"], "../../harnesses/zlimit_broken.c");
}

#[test]
fn an_intrinsic_without_its_target_feature_gets_the_flag_to_add() {
    let dir = tempfile::tempdir().unwrap();
    for (intrinsic, feature, flag) in [
        ("__m256i f(__m256i a, __m256i b) { return _mm256_add_epi32(a, b); }", "avx2", "-mavx2"),
        ("__m256 f(__m256 a, __m256 b, __m256 c) { return _mm256_fmadd_ps(a, b, c); }", "fma", "-mfma"),
    ] {
        let src = dir.path().join(format!("{feature}.c"));
        std::fs::write(&src, format!("#include <immintrin.h>\n{intrinsic}\nint main(void) {{ return 0; }}\n")).unwrap();
        let run = common::symcross(&["check", src.to_str().unwrap()]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains(&format!("requires target feature '{feature}'")), "clang's own error stays: {}", run.stderr);
        assert!(run.stderr.contains(&format!("compile with --cflags \"{flag}\"")), "{}", run.stderr);
        let fixed = common::symcross(&["check", src.to_str().unwrap(), "--cflags", flag]);
        assert_ne!(fixed.code, 2, "{}", fixed.stderr);
    }
    let plain = dir.path().join("plain.c");
    std::fs::write(&plain, "int main(void) { return undeclared; }\n").unwrap();
    let run = common::symcross(&["check", plain.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(!run.stderr.contains("hint:"), "no hint for an error that is not a missing feature: {}", run.stderr);
}

#[test]
fn race_help_states_its_default_searcher_once() {
    let run = common::symcross(&["race", "--help"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("[default: random-path]"), "{}", run.stdout);
    assert!(!run.stdout.contains("Depth-first (default)"), "no other value claims to be the default: {}", run.stdout);
    let check = common::symcross(&["check", "--help"]);
    assert!(check.stdout.contains("[default: dfs]"), "{}", check.stdout);
}

#[test]
fn a_run_stopped_at_its_finding_does_not_say_zero_paths() {
    let k = common::repo().join("tests/fixtures/race/fixed_scalar_race.cl");
    let run = common::symcross(&["race", k.to_str().unwrap(), "--local-size", "4", "--num-groups", "1", "--arg", "k=3"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(!run.stdout.contains(" 0 paths"), "{}", run.stdout);
    assert!(run.stdout.contains("1 path (stopped at its finding)"), "{}", run.stdout);
}
