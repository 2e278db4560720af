//! `symcross rules verify`: every shipped rule is proved sound by the
//! bit-precise solver under the assumptions it declares, and a wrong rule is
//! caught (so an unsound rule fails the build).

mod common;

#[test]
fn shipped_rules_are_sound() {
    let run = common::symcross(&["rules", "verify"]);
    // Exit 1 would mean a counterexample to a shipped rule. A query that
    // times out on a loaded machine is undecided (exit 3), not unsound.
    assert!(run.code == 0 || run.code == 3, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(" 0 unsound,"), "{}", run.stdout);
    let undecided = run.stdout.lines().filter(|l| l.contains(" unknown: ")).count();
    assert!(undecided <= 2, "{undecided} rules undecided:\n{}", run.stdout);
}

#[test]
fn an_unsound_rule_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    // x + 0 = x is wrong for x = -0 (-0 + +0 = +0) unless -0 is excluded.
    std::fs::write(
        dir.path().join("bad.rules"),
        "; law: (wrong) x + 0 = x without positive-zero\nrule bad-fadd-zero: (fadd.F ?x 0.0:F) => ?x [assume: ordered]\n",
    )
    .unwrap();
    let run = common::symcross(&["rules", "verify", "--rules", dir.path().to_str().unwrap(), "--filter", "bad-fadd-zero"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("bad-fadd-zero[f16]") && run.stdout.contains("UNSOUND"), "{}", run.stdout);
}

#[test]
fn the_same_rule_with_positive_zero_is_sound() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ok.rules"),
        "; law: x + 0 = x when -0 and NaN are excluded\nrule user-fadd-zero: (fadd.F ?x 0.0:F) => ?x [assume: ordered, positive-zero]\n",
    )
    .unwrap();
    let run = common::symcross(&["rules", "verify", "--rules", dir.path().to_str().unwrap(), "--filter", "user-fadd-zero"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("user-fadd-zero[f32]") && run.stdout.contains("sound"), "{}", run.stdout);
}

#[test]
fn a_malformed_rule_file_names_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("broken.rules"), "; law: nothing\nrule broken: (fadd.F ?x) => ?y [assume: none]\n").unwrap();
    let run = common::symcross(&["rules", "list", "--rules", dir.path().to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("broken.rules:2"), "{}", run.stderr);
}
