//! `symcross rules verify`: every shipped rule is proved sound by the
//! bit-precise solver under the assumptions it declares, and a wrong rule is
//! caught (so an unsound rule fails the build).

mod common;

#[test]
fn shipped_rules_are_sound() {
    let run = common::symcross(&["rules", "verify"]);
    // Each query has a fixed work budget (src/rule_proof/prove.rs), not a time
    // limit, so the answer does not depend on the machine's load: every
    // rule must be proved, in both NaN models.
    let undecided: Vec<&str> = run.stdout.lines().filter(|l| l.contains(" unknown: ")).collect();
    assert!(undecided.is_empty(), "{} rules undecided:\n{}", undecided.len(), undecided.join("\n"));
    assert!(run.stdout.contains(" 0 unsound, 0 undecided"), "{}", run.stdout);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
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

/// A harness that `x + 0.0f == x` for every float: false for x = -0 and
/// NaN payloads, so only a wrong rule can prove it.
fn add_zero_harness(dir: &std::path::Path) -> String {
    let path = dir.join("add_zero.c");
    std::fs::write(
        &path,
        "#include \"symcross.h\"\nint main(void) {\n  float x;\n  symcross_make_symbolic(&x, sizeof x, \"x\");\n  \
         float l = x + 0.0f, r = x;\n  symcross_check_equal(&l, &r, sizeof l, 1, \"x+0\");\n  return 0;\n}\n",
    )
    .unwrap();
    path.to_str().unwrap().to_string()
}

fn rule_dir(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("user.rules"), text).unwrap();
    dir
}

const UNSOUND_RULE: &str = "; law: (wrong) x + 0 = x with no assumption\nrule bad-fadd-zero: (fadd.F ?x 0.0:F) => ?x [assume: none]\n";

/// `check --rules` proves a user rule before using it and refuses an
/// unsound one, naming its file and line (exit 2).
#[test]
fn check_refuses_an_unsound_user_rule() {
    let rules = rule_dir(UNSOUND_RULE);
    let harness = add_zero_harness(rules.path());
    let run = common::symcross(&["check", &harness, "--rules", rules.path().to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("user.rules:2") && run.stderr.contains("unsound"), "{}", run.stderr);
}

/// `--trust-rules` skips the proof: the wrong rule then "proves" the
/// harness, and the report says it rests on unverified rules.
#[test]
fn trusted_rules_mark_the_report() {
    let rules = rule_dir(UNSOUND_RULE);
    let harness = add_zero_harness(rules.path());
    let dir = rules.path().to_str().unwrap();
    // Sampling would refute the harness before the e-graph uses the rule;
    // without it, the trusted (unsound) rule proves it: what the mark is for.
    let run = common::symcross(&["check", &harness, "--rules", dir, "--trust-rules", "--sample-trials", "0", "--json", "-"]);
    let j = run.json.expect("json");
    assert_eq!(j["verdict"], "equivalent", "{j:#}");
    let names: Vec<&str> = j["unverified_rules"].as_array().unwrap().iter().filter_map(|n| n.as_str()).collect();
    assert!(names.contains(&"bad-fadd-zero[f32]"), "{j:#}");
    assert!(j["warnings"].as_array().unwrap().iter().any(|w| w["kind"] == "unverified-rules"), "{j:#}");
    let text = common::symcross(&["check", &harness, "--rules", dir, "--trust-rules", "--sample-trials", "0"]);
    assert!(text.stdout.contains("[unverified rules]") && text.stdout.contains("unverified rules: "), "{}", text.stdout);
    // Without user rules, the harness is refuted.
    let plain = common::symcross(&["check", &harness, "--json", "-"]);
    assert_eq!(plain.code, 1, "{}", plain.stdout);
}

/// Only rules the run can use are proved: one that needs positive-zero is
/// not used (and not refused) without `--assume positive-zero`.
#[test]
fn rules_the_run_cannot_use_are_not_proved() {
    let rules = rule_dir(
        "; law: (wrong) x * 0 = 0 is false for inf and NaN\nrule bad-fmul-zero: (fmul.F ?x 0.0:F) => 0.0:F [assume: positive-zero]\n",
    );
    let harness = add_zero_harness(rules.path());
    let dir = rules.path().to_str().unwrap();
    let run = common::symcross(&["check", &harness, "--rules", dir]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let run = common::symcross(&["check", &harness, "--rules", dir, "--assume", "positive-zero"]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("user.rules:2") && run.stderr.contains("bad-fmul-zero"), "{}", run.stderr);
}

/// A sound rule is proved once; the proof is kept in the cache directory
/// under the rule's content.
#[test]
fn a_proved_rule_is_remembered() {
    let rules = rule_dir(
        "; law: x + 0 = x when -0 and NaN are excluded\nrule user-fadd-zero: (fadd.F ?x 0.0:F) => ?x [assume: ordered, positive-zero]\n",
    );
    let harness = add_zero_harness(rules.path());
    let cache = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["check", harness.as_str(), "--rules", rules.path().to_str().unwrap()];
        args.extend_from_slice(extra);
        std::process::Command::new(env!("CARGO_BIN_EXE_symcross"))
            .args(&args)
            .env("SYMCROSS_CACHE_DIR", cache.path())
            .output()
            .expect("run symcross")
    };
    let first = run(&["--assume", "ordered,positive-zero"]);
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert_eq!(first.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("proved 2 user rule instance(s) sound"), "{stderr}");
    let entries = std::fs::read_dir(cache.path().join("rule-proofs")).unwrap().count();
    assert_eq!(entries, 2, "one proof per instance (f16, f32)");
    let second = run(&["--assume", "ordered,positive-zero"]);
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("proved"), "the proof is not repeated: {stderr}");
}
