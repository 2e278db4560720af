//! `--nan equal` (the default: all NaNs compare equal) and `--nan exact`
//! (x86's NaN bits), against the CPU.
//!
//! - The fixtures of tests/fixtures/nan/ are equivalent under `equal` and
//!   confirmed mismatches under `exact` that `replay` reproduces natively.
//! - cpu_nan_table.c prints what this CPU computes for every modelled
//!   operation on NaN-producing operands; symcross's evaluation must match
//!   it bit for bit in the exact model and up to NaN bits in the equal one.
//! - Reports state the NaN rule; replay of a NaN-bits-only difference under
//!   `equal` is not a finding; `rules verify` checks both models.

mod common;

use std::path::PathBuf;
use std::process::Command;
use symcross::expr::{ExprPool, FBinOp, FUnOp, FpFormat, NanModel};

const EQUAL_NOTE: &str = "all NaNs compare equal";

fn fixture(name: &str) -> String {
    common::repo().join("tests/fixtures/nan").join(name).display().to_string()
}

/// `check --nan MODE FILE --json -`, with extra arguments.
fn check(mode: &str, name: &str, extra: &[&str]) -> common::Run {
    let file = fixture(name);
    let mut args = vec!["check", "--nan", mode, "--json", "-"];
    args.extend_from_slice(extra);
    args.push(&file);
    common::symcross(&args)
}

fn semantics(run: &common::Run) -> String {
    let json = run.json.as_ref().unwrap_or_else(|| panic!("no JSON report:\n{}\n{}", run.stdout, run.stderr));
    json["semantics"].to_string()
}

/// Under `equal` the fixture is equivalent and says why NaNs did not count.
fn assert_equivalent_up_to_nan(name: &str) {
    let run = check("equal", name, &[]);
    assert_eq!(run.code, 0, "{name} under --nan equal:\n{}\n{}", run.stdout, run.stderr);
    assert!(semantics(&run).contains(EQUAL_NOTE), "{}", run.stdout);
    assert_eq!(run.json.as_ref().unwrap()["build"]["nan"], "equal");
}

/// Under `exact` the fixture is a confirmed mismatch that the CPU shows.
fn assert_exact_mismatch_replays(name: &str, extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let file = fixture(name);
    let mut args = vec!["check", "--nan", "exact", "--json", report.to_str().unwrap()];
    args.extend_from_slice(extra);
    args.push(&file);
    let run = common::symcross(&args);
    assert_eq!(run.code, 1, "{name} under --nan exact:\n{}\n{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["findings"][0]["kind"], "mismatch", "{json}");
    assert_eq!(json["findings"][0]["status"], "confirmed", "{json}");
    assert_eq!(json["build"]["nan"], "exact");
    assert!(json["semantics"].to_string().contains("NaN bits are exact"), "{json}");
    let replay = common::symcross(&["replay", report.to_str().unwrap()]);
    assert!(replay.stdout.contains("reproduced on the CPU"), "{name}: replay:\n{}\n{}", replay.stdout, replay.stderr);
    assert!(!replay.stdout.contains("NOT REPRODUCED"), "{}", replay.stdout);
}

#[test]
fn sqrt_of_negatives_against_the_nan_macro() {
    assert_equivalent_up_to_nan("sqrt_negative.c");
    assert_exact_mismatch_replays("sqrt_negative.c", &[]);
}

#[test]
fn self_difference_at_infinity_against_the_nan_macro() {
    assert_equivalent_up_to_nan("inf_minus_inf.c");
    // Without sampling the witness comes from the solver's encoding of
    // x86's NaN rule, which replay then holds to the CPU.
    assert_exact_mismatch_replays("inf_minus_inf.c", &["--sample-trials", "0"]);
}

#[test]
fn first_nan_operand_propagates() {
    assert_equivalent_up_to_nan("payload_propagation.c");
    assert_exact_mismatch_replays("payload_propagation.c", &["--sample-trials", "0"]);
}

/// Under `equal` a program that reads the sign of a computed NaN (here with
/// _mm_movemask_ps) is not proved: the canonical NaN's sign is not the
/// CPU's. The run is inconclusive with `nan-bits-read`; `exact` finds the
/// mismatch, which the CPU shows.
#[test]
fn reading_nan_bits_under_equal_is_not_a_proof() {
    let run = check("equal", "movemask_sqrt.c", &[]);
    assert_eq!(run.code, 3, "{}\n{}", run.stdout, run.stderr);
    let json = run.json.as_ref().unwrap();
    assert_eq!(json["verdict"], "inconclusive", "{json}");
    assert!(json["warnings"].to_string().contains("nan-bits-read"), "{json}");
    assert_exact_mismatch_replays("movemask_sqrt.c", &[]);
    // Float results only masked by fabs or flipped by fneg are not reads.
    let run = check("equal", "sqrt_negative.c", &[]);
    assert!(!run.stdout.contains("nan-bits-read"), "{}", run.stdout);
}

#[test]
fn the_text_report_states_the_nan_rule() {
    let file = fixture("inf_minus_inf.c");
    let run = common::symcross(&["check", &file]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("semantics: all NaNs compare equal"), "{}", run.stdout);
    assert!(run.stdout.contains("--nan exact"), "{}", run.stdout);
}

#[test]
fn an_unknown_nan_mode_is_a_usage_error() {
    let run = check("loose", "inf_minus_inf.c", &[]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("--nan"), "{}", run.stderr);
}

/// A difference in NaN bits only is not a finding under `equal`: the same
/// witness replayed with the report's mode switched to `equal` shows
/// nothing on the CPU (and replay says so loudly).
#[test]
fn replay_under_equal_ignores_nan_bits() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let file = fixture("inf_minus_inf.c");
    let run = common::symcross(&["check", "--nan", "exact", "--json", report.to_str().unwrap(), &file]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let text = std::fs::read_to_string(&report).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The rule is recorded per finding (`nans_equal`) and in the build;
    // both say NaNs are equal now.
    json["build"]["nan"] = "equal".into();
    json["findings"][0]["expressions"]["nans_equal"] = true.into();
    std::fs::write(&report, json.to_string()).unwrap();
    let replay = common::symcross(&["replay", report.to_str().unwrap()]);
    assert!(replay.stdout.contains("NOT REPRODUCED"), "{}\n{}", replay.stdout, replay.stderr);
}

/// One line of cpu_nan_table.c's output.
struct CpuCase {
    op: String,
    format: FpFormat,
    operands: [u128; 3],
    result: u128,
}

fn cpu_table() -> Vec<CpuCase> {
    let dir = tempfile::tempdir().unwrap();
    let exe: PathBuf = dir.path().join("table");
    let built = Command::new("clang-19")
        .args(["-O0", "-ffp-contract=off", "-o"])
        .arg(&exe)
        .arg(fixture("cpu_nan_table.c"))
        .arg("-lm")
        .output()
        .expect("run clang-19");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let out = Command::new(&exe).output().expect("run the table");
    let hex = |s: &str| u128::from_str_radix(s, 16).unwrap_or_else(|_| panic!("bad hex {s}"));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let format = if w[1] == "f32" { FpFormat::Single } else { FpFormat::Double };
            CpuCase { op: w[0].to_string(), format, operands: [hex(w[2]), hex(w[3]), hex(w[4])], result: hex(w[5]) }
        })
        .collect()
}

/// symcross's value for a case: built on constants, so the pool folds it.
fn symcross_value(model: NanModel, c: &CpuCase) -> (u128, FpFormat) {
    let mut p = ExprPool::with_nan_model(model);
    let f = c.format;
    let k = |p: &mut ExprPool, v: u128| p.constant(f.width(), v);
    let (a, b, d) = (k(&mut p, c.operands[0]), k(&mut p, c.operands[1]), k(&mut p, c.operands[2]));
    let bin = |p: &mut ExprPool, op| p.fbin(op, f, a, b);
    let (e, out) = match c.op.as_str() {
        "add" => (bin(&mut p, FBinOp::Add), f),
        "sub" => (bin(&mut p, FBinOp::Sub), f),
        "mul" => (bin(&mut p, FBinOp::Mul), f),
        "div" => (bin(&mut p, FBinOp::Div), f),
        "rem" => (bin(&mut p, FBinOp::Rem), f),
        "min" => (bin(&mut p, FBinOp::Min), f),
        "max" => (bin(&mut p, FBinOp::Max), f),
        "fma" => (p.fma(f, a, b, d), f),
        "sqrt" => (p.fun(FUnOp::Sqrt, f, a), f),
        "floor" => (p.fun(FUnOp::Floor, f, a), f),
        "rint" => (p.fun(FUnOp::RoundEven, f, a), f),
        "fpext" => (p.fp_convert(f, FpFormat::Double, a), FpFormat::Double),
        "fptrunc" => (p.fp_convert(f, FpFormat::Single, a), FpFormat::Single),
        other => panic!("unknown op {other}"),
    };
    (p.as_const(e).expect("constants fold"), out)
}

/// fmin/fmax of +0 and -0: symcross orders -0 below +0 (README), glibc's
/// fminf/fmaxf return the first operand. Not a NaN question; left out here
/// and reported separately.
fn signed_zero_min_max(c: &CpuCase) -> bool {
    let zero = |v: u128| v & !(1u128 << (c.format.width() - 1)) == 0;
    matches!(c.op.as_str(), "min" | "max") && zero(c.operands[0]) && zero(c.operands[1]) && c.operands[0] != c.operands[1]
}

fn is_nan(f: FpFormat, bits: u128) -> bool {
    symcross::expr::fp_is_nan(f, bits)
}

#[test]
fn exact_model_matches_the_cpu_bit_for_bit() {
    let table = cpu_table();
    assert!(table.len() > 2000, "the table program printed {} cases", table.len());
    let mut wrong = Vec::new();
    let mut nan_results = 0;
    for c in table.iter().filter(|c| !signed_zero_min_max(c)) {
        let (got, out) = symcross_value(NanModel::EXACT_X86, c);
        nan_results += is_nan(out, c.result) as usize;
        if got != c.result {
            wrong.push(format!("{} {:?} {:x?}: cpu {:#x}, symcross {got:#x}", c.op, c.format, c.operands, c.result));
        }
    }
    // The table must exercise NaN results, or it proves nothing here.
    assert!(nan_results > 500, "only {nan_results} NaN results");
    assert!(wrong.is_empty(), "{} of {} cases differ:\n{}", wrong.len(), table.len(), wrong[..wrong.len().min(30)].join("\n"));
}

#[test]
fn equal_model_matches_the_cpu_up_to_nan_bits_only() {
    let table = cpu_table();
    let (mut wrong, mut nan_bits_differ) = (Vec::new(), 0);
    for c in table.iter().filter(|c| !signed_zero_min_max(c)) {
        let (got, out) = symcross_value(NanModel::Canonical, c);
        if got == c.result {
            continue;
        }
        if is_nan(out, got) && is_nan(out, c.result) {
            nan_bits_differ += 1;
        } else {
            wrong.push(format!("{} {:?} {:x?}: cpu {:#x}, symcross {got:#x}", c.op, c.format, c.operands, c.result));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The canonical NaN is not the CPU's: that is what --nan equal ignores.
    assert!(nan_bits_differ > 100, "only {nan_bits_differ} cases differ in NaN bits");
}

/// A rule that holds only up to NaN bits on x86 (commutativity) is sound
/// when it declares `nan-bits-ignored`, and unsound (with a hint) when it
/// does not; a rule wrong even up to NaN bits is unsound either way.
#[test]
fn rules_verify_checks_both_nan_models() {
    let dir = tempfile::tempdir().unwrap();
    let rules = "; law: x + y = y + x up to NaN bits\n\
                 rule user-commute-declared: (fadd.F ?x ?y) => (fadd.F ?y ?x) [assume: nan-bits-ignored]\n\
                 ; law: x + y = y + x, wrongly claimed bit for bit on x86\n\
                 rule user-commute-undeclared: (fadd.F ?x ?y) => (fadd.F ?y ?x) [assume: none]\n\
                 ; law: (wrong) x - y = y - x even up to NaN bits\n\
                 rule user-sub-swap: (fsub.F ?x ?y) => (fsub.F ?y ?x) [assume: nan-bits-ignored]\n";
    std::fs::write(dir.path().join("nan.rules"), rules).unwrap();
    let d = dir.path().to_str().unwrap();
    let run = common::symcross(&["rules", "verify", "--rules", d, "--filter", "user-commute-declared[f16]"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let run = common::symcross(&["rules", "verify", "--rules", d, "--filter", "user-commute-undeclared[f16]"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("UNSOUND") && run.stdout.contains("nan-bits-ignored"), "{}", run.stdout);
    let run = common::symcross(&["rules", "verify", "--rules", d, "--filter", "user-sub-swap[f16]"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
}

/// `check --rules` under `--nan exact` does not use a rule declaring
/// `nan-bits-ignored` (so it is not even proved), and under `equal` proves
/// and uses it.
#[test]
fn nan_bits_ignored_rules_are_not_used_under_exact() {
    let dir = tempfile::tempdir().unwrap();
    let rules = "; law: (wrong) x - y = y - x, declared as if only NaN bits differed\n\
                 rule user-sub-swap: (fsub.F ?x ?y) => (fsub.F ?y ?x) [assume: nan-bits-ignored]\n";
    std::fs::write(dir.path().join("swap.rules"), rules).unwrap();
    let d = dir.path().to_str().unwrap();
    let file = fixture("inf_minus_inf.c");
    // Under equal the rule is proved before use, and refused.
    let run = common::symcross(&["check", "--rules", d, &file]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("user-sub-swap") && run.stderr.contains("--nan equal"), "{}", run.stderr);
    // Under exact it is not used, so not proved: the run goes ahead.
    let run = common::symcross(&["check", "--nan", "exact", "--rules", d, &file]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
}

/// glibc's own fminf with two NaN operands follows glibc's rule (the first
/// NaN, quieted when an operand is signalling), not clang's inline one.
#[test]
fn glibc_fmin_of_two_nans_follows_glibc() {
    assert_equivalent_up_to_nan("glibc_fmin_two_nans.c");
    assert_exact_mismatch_replays("glibc_fmin_two_nans.c", &[]);
}
