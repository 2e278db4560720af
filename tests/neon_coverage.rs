//! The NEON coverage list (src/neon/coverage.tsv) against the
//! implementation and against clang 19: every `supported` row lowers to a
//! value of the call's result shape, every `refused` row is refused with its
//! reason (structured loads and stores, which the executor performs, are
//! supported by their memory form), and the list is exactly the set tests/neon/collect_intrinsics.py
//! regenerates from arm_neon.h. `SYMCROSS_BLESS=1` rewrites the statuses.

mod common;

use common::neonsig::{rows, Row, COVERAGE};
use symcross::expr::value::Value;
use symcross::expr::ExprPool;
use symcross::ir::Type;
use symcross::neon::{lower_neon, Lowered};

/// Symbolic lanes for each operand; scalar i32 operands after the first
/// (shift amounts, lane numbers, fractional bits) are the constant 1, and
/// vector shift amounts of SQSHLU are the constant 1 in every lane.
fn args_for(p: &mut ExprPool, row: &Row) -> Vec<Value> {
    let constant_vector = row.name.contains(".sqshlu.");
    row.args
        .iter()
        .enumerate()
        .map(|(k, (t, _))| {
            let w = t.scalar_bits();
            let is_constant = k > 0 && ((matches!(t, Type::Int(32)) && !scalar_operands(&row.name)) || constant_vector);
            (0..t.lanes()).map(|_| if is_constant { p.constant(w, 1) } else { p.fresh(w) }).collect()
        })
        .collect()
}

/// Intrinsics whose i32 operands are data, not immediates.
fn scalar_operands(name: &str) -> bool {
    let rest = name.trim_start_matches("llvm.aarch64.neon.");
    let base = symcross::neon::base_name(rest);
    [
        "sqadd",
        "uqadd",
        "sqsub",
        "uqsub",
        "suqadd",
        "usqadd",
        "sqshl",
        "uqshl",
        "sqrshl",
        "uqrshl",
        "sqdmulh",
        "sqrdmulh",
        "sqdmulls.scalar",
        "srshl",
        "urshl",
        "sshl",
        "ushl",
    ]
    .contains(&base)
}

fn status_of(p: &mut ExprPool, row: &Row) -> Result<String, String> {
    // Structured loads and stores are performed by the executor (they
    // touch memory); tests/neon_generic_ir.rs runs them against qemu.
    let base = symcross::neon::base_name(row.name.trim_start_matches("llvm.aarch64.neon."));
    if symcross::neon::memory::form(base).is_some() {
        return Ok("supported".into());
    }
    let args = args_for(p, row);
    match lower_neon(p, &row.name, &args, &row.ret) {
        Lowered::Value(v) => {
            if v.len() != row.ret.lanes() as usize {
                return Err(format!("{}: {} lanes, expected {}", row.name, v.len(), row.ret.lanes()));
            }
            let w = row.ret.scalar_bits();
            if let Some(bad) = v.iter().find(|&&e| p.width(e) != w) {
                return Err(format!("{}: lane of width {}, expected {w}", row.name, p.width(*bad)));
            }
            Ok("supported".into())
        }
        Lowered::Unsupported(msg) => Ok(format!("refused: {}", msg.strip_prefix(&format!("{}: ", row.name)).unwrap_or(&msg))),
        Lowered::NotNeon => Err(format!("{}: not recognised as NEON", row.name)),
    }
}

#[test]
fn list_and_implementation_agree() {
    let rows = rows();
    let mut p = ExprPool::new();
    let mut errors = Vec::new();
    let mut blessed = String::new();
    for row in &rows {
        let s = status_of(&mut p, row);
        match &s {
            Ok(s) if *s == row.status => {}
            Ok(s) => errors.push(format!("{}: list says `{}`, implementation `{s}`", row.name, row.status)),
            Err(e) => errors.push(e.clone()),
        }
        blessed.push_str(&format!("{}\t{}\t{}\n", row.name, s.unwrap_or_else(|e| e), row.signature));
    }
    if std::env::var_os("SYMCROSS_BLESS").is_some() {
        let header: String =
            std::fs::read_to_string(COVERAGE).unwrap().lines().filter(|l| l.starts_with('#')).map(|l| format!("{l}\n")).collect();
        std::fs::write(COVERAGE, header + &blessed).unwrap();
        return;
    }
    assert!(errors.is_empty(), "{} disagreements:\n{}", errors.len(), errors.join("\n"));
    let supported = rows.iter().filter(|r| r.status == "supported").count();
    eprintln!("{supported} supported, {} refused", rows.len() - supported);
}

#[test]
fn symbolic_shift_is_refused() {
    let mut p = ExprPool::new();
    let a: Value = (0..8).map(|_| p.fresh(16)).collect();
    let n: Value = smallvec::smallvec![p.fresh(32)];
    let ret = Type::Vector { elem: Box::new(Type::Int(8)), len: 8 };
    match lower_neon(&mut p, "llvm.aarch64.neon.rshrn.v8i8", &[a, n], &ret) {
        Lowered::Unsupported(msg) => assert!(msg.contains("not a constant"), "{msg}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(lower_neon(&mut p, "llvm.sqrt.f32", &[], &ret), Lowered::NotNeon);
}

#[test]
fn list_matches_clang_19() {
    let listed = rows().iter().map(|r| format!("{}\t{}", r.name, r.signature)).collect();
    common::assert_table_matches_clang("python3", concat!(env!("CARGO_MANIFEST_DIR"), "/tests/neon/collect_intrinsics.py"), listed, 800);
}
