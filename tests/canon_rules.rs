//! Rule files: the built-in rules load, malformed files are refused with
//! file:line, and every rule applies to its own example.

use std::path::Path;
use symcross::canon::*;
use symcross::expr::ExprPool;

fn parse_err(text: &str) -> String {
    match RuleSet::parse(text, Path::new("t.rules")) {
        Ok(_) => panic!("accepted: {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn builtin_rules_load() {
    let rules = RuleSet::builtin().expect("built-in rules load");
    assert!(rules.rules().len() > 100, "{} rules", rules.rules().len());
    let r = rules.get("fadd-commute[f32]").expect("instantiated per format");
    assert!(r.law.contains("commutative"));
    assert!(rules.get("fadd-commute[f16]").is_some() && rules.get("fadd-commute[f64]").is_some());
    assert!(rules.get("fptosi-fpext[f32,f64,w32]").is_some());
}

#[test]
fn malformed_rules_name_file_and_line() {
    let law = "; law: something\n";
    let e = parse_err(&format!("{law}rule a: (fadd.F ?x ?y) => (fadd.F ?y ?z) [assume: none]"));
    assert!(e.starts_with("t.rules:2:") && e.contains("?z") && e.contains("not bound"), "{e}");
    let e = parse_err(&format!("\n{law}rule a: (fblah.F ?x ?y) => ?x [assume: none]"));
    assert!(e.starts_with("t.rules:3:") && e.contains("unknown operator `fblah.f16`"), "{e}");
    let e = parse_err(&format!("{law}rule a: (fadd.F ?x ?y) => (fadd.F ?y ?x) [assume: fast]"));
    assert!(e.contains("t.rules:2:") && e.contains("unknown assumption `fast`"), "{e}");
    let e = parse_err(&format!("{law}rule a: (fadd.F ?x ?y) (fadd.F ?y ?x) [assume: none]"));
    assert!(e.contains("t.rules:2:") && e.contains("bad syntax"), "{e}");
    let e = parse_err(&format!("{law}rule a: (fadd.F ?x ?y) => (fadd.F ?y ?x)"));
    assert!(e.contains("missing `[assume:"), "{e}");
    let e = parse_err("rule a: (fadd.F ?x ?y) => (fadd.F ?y ?x) [assume: none]");
    assert!(e.contains("t.rules:1:") && e.contains("law"), "{e}");
    let e = parse_err(&format!("{law}rule a: (fadd.F ?x ?y) => (fadd.F ?y) [assume: none]"));
    assert!(e.contains("takes 2 operands"), "{e}");
    let e = parse_err(&format!("{law}rule a: (fadd.f32 ?x ?y) => (fadd.f64 ?x ?y) [assume: none]"));
    assert!(e.contains("widths"), "{e}");
    let e = parse_err(&format!("{law}rule a: (fadd.F ?x ?y) => (fadd.F ?x ?y) if pretty(?x) [assume: none]"));
    assert!(e.contains("unknown side condition"), "{e}");
    let e = parse_err(&format!("{law}rule a: (fadd.F ?x 0.1:F) => (fadd.F ?x ?x) [assume: none]"));
    assert!(e.contains("bad literal"), "{e}");
    let e = parse_err(&format!("{law}rule a: (fadd.F ?x ?y) <=> (fadd.F ?x ?x) [assume: none]"));
    assert!(e.contains("?y"), "{e}");
}

#[test]
fn user_rule_directory_loads() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("mine.rules"),
        "; law: my own law, stated\n;   over two lines\nrule my-frem: (frem.f32 ?x ?y)\n    => (frem.f32 ?x ?y) [assume: none]\n",
    )
    .unwrap();
    let rules = RuleSet::load(&[dir.path().to_path_buf()]).unwrap();
    let r = rules.get("my-frem").unwrap();
    assert_eq!(r.law, "my own law, stated over two lines");
    assert_eq!(r.line, 3);
}

/// Every rule without side conditions proves its own instance.
#[test]
fn every_rule_applies_to_its_example() {
    let all = RuleSet::builtin().unwrap();
    let limits = Limits { iter_limit: 4, ..Limits::default() };
    let mut failures = Vec::new();
    for rule in all.rules() {
        if !rule.conditions.is_empty() {
            continue;
        }
        let mut pool = ExprPool::new();
        let inst = &instantiate(rule, &mut pool).unwrap()[0];
        // The builders order commutative operands; commutativity rules
        // (of the same format) let the pattern meet that order.
        let helpers = ["fcmp-swap", "fadd-commute", "fmul-commute"].map(|h| rule.name.replace(&rule.family, h));
        let mut names: Vec<&str> = vec![&rule.name, "xor-commute", "and-commute", "or-commute"];
        names.extend(helpers.iter().map(|s| s.as_str()));
        let only = all.only(&names).unwrap();
        if !prove_equal(&pool, inst.lhs, inst.rhs, &only, Assumptions::ALL, &limits).is_equal() {
            failures.push(rule.name.clone());
        }
    }
    assert!(failures.is_empty(), "rules that do not apply to their example: {failures:?}");
}

#[test]
fn non_ascii_text_is_an_error_not_a_panic() {
    // Found by tests/fuzz.rs: splitting at `=>` sliced inside a character.
    let e = parse_err("; law: x\nrule xor-commute: xor ?x ?y) => (xoൽr ?y ?x) [assume: none]");
    assert!(e.contains("t.rules:2:"), "{e}");
    let e = parse_err("; law: x\nrule é: (fadd.F ?x ?y) => (fadd.F ?y ?x) [assume: none]");
    assert!(e.contains("bad rule name"), "{e}");
}
