//! `--nan exact --target aarch64`: AArch64's NaN bits (default NaN
//! 0x7FC00000, a signalling NaN operand before a quiet one, quieted),
//! against the real instruction set under qemu-aarch64.
//!
//! - cpu_nan_table.c (the x86 table of tests/nan_semantics.rs), built for
//!   aarch64-linux-gnu and run under qemu, prints what AArch64 computes for
//!   `+ - * /`, fmod, fmin, fmax, fma, sqrt, floor, rint and float/double
//!   conversions on NaN, signalling NaN, infinity and zero operands;
//!   symcross's evaluation in the AArch64 exact model must match it bit for
//!   bit, and the x86 model must not (else the table proves nothing).
//! - The SMT encoding, with the operands fixed to the table's, must give
//!   qemu's result too (it is what verdicts rest on).
//! - A NEON sqrt against the NAN macro is equivalent with AArch64's bits;
//!   against x86's default NaN it is a confirmed mismatch that replays
//!   under qemu.
//! - AArch64 IR checked without `--target` takes the rule from its triple.
//!
//! Skipped, with a message, when qemu-aarch64 or the AArch64 C library is
//! missing (scripts/setup.sh installs them).

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;
use symcross::expr::{ExprId, ExprPool, FBinOp, FUnOp, FpFormat, NanModel};
use symcross::solver::{Query, SmtProcessConfig, SmtProcessSolver, Solver};

const SYSROOT: &str = "/usr/aarch64-linux-gnu";

fn tools_present() -> bool {
    let qemu = Command::new("qemu-aarch64").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    qemu && Path::new(SYSROOT).join("lib").is_dir() && Command::new("clang-19").arg("--version").output().is_ok()
}

fn fixture(name: &str) -> String {
    common::repo().join("tests/fixtures/nan").join(name).display().to_string()
}

/// One line of cpu_nan_table.c's output.
struct CpuCase {
    op: String,
    format: FpFormat,
    operands: [u128; 3],
    result: u128,
}

/// The table as AArch64 computes it. -O0 keeps every operation in the
/// order written, and fminf/fmaf/fmodf are glibc's AArch64 ones.
fn qemu_table() -> Vec<CpuCase> {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("table");
    let built = Command::new("clang-19")
        .args(["--target=aarch64-linux-gnu", "-O0", "-ffp-contract=off", "-o"])
        .arg(&exe)
        .arg(fixture("cpu_nan_table.c"))
        .arg("-lm")
        .output()
        .expect("run clang-19");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let out = Command::new("qemu-aarch64").args(["-L", SYSROOT]).arg(&exe).output().expect("run qemu-aarch64");
    assert!(out.status.success(), "qemu run failed: {out:?}");
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

/// symcross's value for a case: built on constants, so the pool folds it
/// with the model's rule (the same folding evaluation and the e-graph use).
fn symcross_value(model: NanModel, c: &CpuCase) -> u128 {
    let mut p = ExprPool::with_nan_model(model);
    let k = |p: &mut ExprPool, v: u128| p.constant(c.format.width(), v);
    let ops = [k(&mut p, c.operands[0]), k(&mut p, c.operands[1]), k(&mut p, c.operands[2])];
    let e = operation(&mut p, c, ops);
    p.as_const(e).expect("constants fold")
}

/// The case's operation on `ops` (a, b, c).
fn operation(p: &mut ExprPool, c: &CpuCase, [a, b, d]: [ExprId; 3]) -> ExprId {
    let f = c.format;
    let bin = |p: &mut ExprPool, op| p.fbin(op, f, a, b);
    match c.op.as_str() {
        "add" => bin(p, FBinOp::Add),
        "sub" => bin(p, FBinOp::Sub),
        "mul" => bin(p, FBinOp::Mul),
        "div" => bin(p, FBinOp::Div),
        "rem" => bin(p, FBinOp::Rem),
        "min" => bin(p, FBinOp::Min),
        "max" => bin(p, FBinOp::Max),
        "fma" => p.fma(f, a, b, d),
        "sqrt" => p.fun(FUnOp::Sqrt, f, a),
        "floor" => p.fun(FUnOp::Floor, f, a),
        "rint" => p.fun(FUnOp::RoundEven, f, a),
        "fpext" => p.fp_convert(f, FpFormat::Double, a),
        "fptrunc" => p.fp_convert(f, FpFormat::Single, a),
        other => panic!("unknown op {other}"),
    }
}

#[test]
fn exact_aarch64_model_matches_qemu_bit_for_bit() {
    if !tools_present() {
        common::skip_or_fail_under_ci(
            "exact_aarch64_model_matches_qemu_bit_for_bit",
            &format!("qemu-aarch64, clang-19 or {SYSROOT} missing (scripts/setup.sh installs them)"),
        );
        return;
    }
    let table = qemu_table();
    assert!(table.len() > 2000, "the table program printed {} cases", table.len());
    let (mut wrong, mut x86_differs) = (Vec::new(), 0);
    for c in &table {
        let got = symcross_value(NanModel::EXACT_AARCH64, c);
        if got != c.result {
            wrong.push(format!("{} {:?} {:x?}: qemu {:#x}, symcross {got:#x}", c.op, c.format, c.operands, c.result));
        }
        x86_differs += (symcross_value(NanModel::EXACT_X86, c) != c.result) as usize;
    }
    assert!(wrong.is_empty(), "{} of {} cases differ:\n{}", wrong.len(), table.len(), wrong[..wrong.len().min(30)].join("\n"));
    // Default NaN sign, signalling priority, fma order, FMINNM: the x86
    // rule gets many of these wrong, so the table tells the rules apart.
    assert!(x86_differs > 100, "only {x86_differs} cases tell the x86 rule from the AArch64 one");
}

/// The SMT encoding against qemu: each case's operation on fresh operands
/// constrained to the case's values, and its result to qemu's, in batches
/// of one operation; the encodings are functions of their operands, so a
/// satisfiable batch means every case in it agrees.
#[test]
fn exact_aarch64_smt_encoding_matches_qemu() {
    if !tools_present() {
        common::skip_or_fail_under_ci(
            "exact_aarch64_smt_encoding_matches_qemu",
            &format!("qemu-aarch64, clang-19 or {SYSROOT} missing (scripts/setup.sh installs them)"),
        );
        return;
    }
    let table = qemu_table();
    let mut solver = SmtProcessSolver::new(SmtProcessConfig::cvc5());
    let mut kinds: Vec<(String, FpFormat)> = Vec::new();
    for c in &table {
        if !kinds.iter().any(|(op, f)| *op == c.op && *f == c.format) {
            kinds.push((c.op.clone(), c.format));
        }
    }
    let mut failed = Vec::new();
    for (op, format) in kinds {
        let cases: Vec<&CpuCase> = table.iter().filter(|c| c.op == op && c.format == format).collect();
        // Batches small enough for the solver, a failing one re-run case by
        // case to name the culprits.
        for batch in cases.chunks(64) {
            let mut p = ExprPool::with_nan_model(NanModel::EXACT_AARCH64);
            let constraints: Vec<Vec<ExprId>> = batch.iter().map(|c| case_constraints(&mut p, c)).collect();
            // A generous limit: a slow machine must not fail the test.
            let limit = Duration::from_secs(600);
            if solver.check(&p, &Query::all(constraints.concat()).with_timeout(limit)).is_sat() {
                continue;
            }
            for (c, k) in batch.iter().zip(constraints) {
                let r = solver.check(&p, &Query::all(k).with_timeout(limit));
                if !r.is_sat() {
                    failed.push(format!("{} {:?} {:x?}: qemu {:#x} ({r:?})", c.op, c.format, c.operands, c.result));
                }
            }
        }
    }
    assert!(failed.is_empty(), "{} cases differ:\n{}", failed.len(), failed[..failed.len().min(30)].join("\n"));
    // The same constraints are unsatisfiable with x86's rule (sqrt of a
    // negative gives 0xFFC00000 there): the batches tell the rules apart.
    let sqrt: Vec<&CpuCase> = table.iter().filter(|c| c.op == "sqrt" && c.format == FpFormat::Single).collect();
    let mut p = ExprPool::with_nan_model(NanModel::EXACT_X86);
    let constraints: Vec<ExprId> = sqrt.iter().flat_map(|c| case_constraints(&mut p, c)).collect();
    let r = solver.check(&p, &Query::all(constraints).with_timeout(Duration::from_secs(600)));
    assert!(r.is_unsat(), "x86's rule also matched qemu's sqrt: {r:?}");
}

/// Operands fixed to the case's values, the result to qemu's.
fn case_constraints(p: &mut ExprPool, c: &CpuCase) -> Vec<ExprId> {
    let w = c.format.width();
    let xs = [p.fresh(w), p.fresh(w), p.fresh(w)];
    let mut v = Vec::new();
    for (x, val) in xs.iter().zip(c.operands) {
        let k = p.constant(w, val);
        v.push(p.eq(*x, k));
    }
    let r = operation(p, c, xs);
    let want = p.constant(p.width(r), c.result);
    v.push(p.eq(r, want));
    v
}

/// `check --nan exact --target aarch64 FIXTURE --json -`.
fn check_aarch64(name: &str, json: &str) -> common::Run {
    let file = fixture(name);
    common::symcross(&["check", "--nan", "exact", "--target", "aarch64", "--sample-trials", "0", "--json", json, &file])
}

#[test]
fn neon_sqrt_is_equivalent_to_the_nan_macro_with_aarch64_bits() {
    if !tools_present() {
        common::skip_or_fail_under_ci(
            "neon_sqrt_is_equivalent_to_the_nan_macro_with_aarch64_bits",
            &format!("qemu-aarch64, clang-19 or {SYSROOT} missing (scripts/setup.sh installs them)"),
        );
        return;
    }
    let run = check_aarch64("neon_sqrt_nan_macro.c", "-");
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let json = run.json.as_ref().unwrap();
    assert_eq!(json["build"]["nan"], "exact");
    assert!(json["semantics"].to_string().contains("as AArch64 does"), "{json}");
}

#[test]
fn x86_default_nan_is_a_mismatch_that_replays_under_qemu() {
    if !tools_present() {
        common::skip_or_fail_under_ci(
            "x86_default_nan_is_a_mismatch_that_replays_under_qemu",
            &format!("qemu-aarch64, clang-19 or {SYSROOT} missing (scripts/setup.sh installs them)"),
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let run = check_aarch64("neon_sqrt_x86_nan.c", report.to_str().unwrap());
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["findings"][0]["kind"], "mismatch", "{json}");
    assert_eq!(json["findings"][0]["status"], "confirmed", "{json}");
    assert_eq!(json["build"]["nan"], "exact");
    // The report records target and NaN mode: replay needs neither.
    let replay = common::symcross(&["replay", report.to_str().unwrap()]);
    assert_eq!(replay.code, 1, "the witness did not reproduce under qemu:\n{}\n{}", replay.stdout, replay.stderr);
    assert!(replay.stdout.contains("reproduced under qemu-aarch64"), "{}", replay.stdout);
    assert!(!replay.stdout.contains("NOT REPRODUCED"), "{}", replay.stdout);
}

/// IR compiled for AArch64 and checked without `--target` gets AArch64's
/// rule from the module's triple, not the host's.
#[test]
fn aarch64_ir_without_target_uses_the_aarch64_rule() {
    if !tools_present() {
        common::skip_or_fail_under_ci(
            "aarch64_ir_without_target_uses_the_aarch64_rule",
            &format!("qemu-aarch64, clang-19 or {SYSROOT} missing (scripts/setup.sh installs them)"),
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("x86_nan.ll");
    let include = common::repo().join("cl-runtime-model");
    let built = Command::new("clang-19")
        .args(["--target=aarch64-linux-gnu", "-O0", "-Xclang", "-disable-O0-optnone", "-ffp-contract=off", "-S", "-emit-llvm", "-I"])
        .arg(&include)
        .arg(fixture("neon_sqrt_x86_nan.c"))
        .arg("-o")
        .arg(&ll)
        .output()
        .expect("run clang-19");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let run = common::symcross(&["check", "--nan", "exact", "--sample-trials", "0", "--json", "-", ll.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let json = run.json.as_ref().unwrap();
    assert!(json["semantics"].to_string().contains("as AArch64 does"), "{json}");
}
