//! The coverage list (src/simd/coverage.tsv) against the implementation and
//! against clang 19: every `supported` row lowers to a value of the call's
//! result shape, every `refused` row is refused with its reason, and the list
//! is exactly the set tests/simd/collect_intrinsics.sh regenerates.

mod common;

use common::x86sig::{rows, Row, COVERAGE};
use symcross::expr::value::Value;
use symcross::expr::ExprPool;
use symcross::ir::Type;
use symcross::simd::{lower_x86, Lowered};

/// Symbolic lanes for each operand; immediates are the constant 1.
fn symbolic_args(p: &mut ExprPool, row: &Row) -> Vec<Value> {
    row.args
        .iter()
        .map(|(t, imm)| {
            let w = t.scalar_bits();
            if *imm {
                return smallvec::smallvec![p.constant(w, 1)];
            }
            (0..t.lanes()).map(|_| p.fresh(w)).collect()
        })
        .collect()
}

fn status_of(p: &mut ExprPool, row: &Row) -> Result<String, String> {
    let args = symbolic_args(p, row);
    match lower_x86(p, &row.name, &args, &row.ret) {
        Lowered::Value(v) => {
            let lanes = if row.ret == Type::Void { 0 } else { row.ret.lanes() as usize };
            if v.len() != lanes {
                return Err(format!("{}: {} lanes, expected {lanes}", row.name, v.len()));
            }
            let w = row.ret.scalar_bits();
            if let Some(bad) = v.iter().find(|&&e| p.width(e) != w) {
                return Err(format!("{}: lane of width {}, expected {w}", row.name, p.width(*bad)));
            }
            Ok("supported".into())
        }
        // A masked load or store: one enabled bit per data lane.
        Lowered::Masked(m) => {
            let lanes = if row.ret == Type::Void { m.values.len() } else { row.ret.lanes() as usize };
            if m.enabled.len() != lanes || m.enabled.iter().any(|&e| p.width(e) != 1) {
                return Err(format!("{}: {} mask lanes for {lanes} data lanes", row.name, m.enabled.len()));
            }
            Ok("supported".into())
        }
        Lowered::Unsupported(msg) => {
            let why = msg.strip_prefix(&format!("{}: ", row.name)).unwrap_or(&msg).to_string();
            Ok(format!("refused: {why}"))
        }
        Lowered::NotX86 => Err(format!("{}: not recognised as x86", row.name)),
    }
}

#[test]
fn list_and_implementation_agree() {
    let rows = rows();
    let mut p = ExprPool::new();
    let mut errors = Vec::new();
    let mut blessed = String::new();
    for row in &rows {
        match status_of(&mut p, row) {
            Ok(s) if s == row.status => {}
            Ok(s) => errors.push(format!("{}: list says `{}`, implementation `{s}`", row.name, row.status)),
            Err(e) => errors.push(e),
        }
        let s = status_of(&mut p, row).unwrap_or_else(|e| e);
        blessed.push_str(&format!("{}\t{s}\t{}\n", row.name, row.signature));
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
fn symbolic_immediate_is_refused() {
    let mut p = ExprPool::new();
    let a: Value = (0..4).map(|_| p.fresh(32)).collect();
    let imm: Value = smallvec::smallvec![p.fresh(32)];
    let ret = Type::Vector { elem: Box::new(Type::Float(symcross::expr::FpFormat::Single)), len: 4 };
    match lower_x86(&mut p, "llvm.x86.sse41.round.ps", &[a, imm], &ret) {
        Lowered::Unsupported(msg) => assert!(msg.contains("immediate"), "{msg}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert_eq!(lower_x86(&mut p, "llvm.sqrt.f32", &[], &ret), Lowered::NotX86);
}

#[test]
fn list_matches_clang_19() {
    let listed = rows().iter().map(|r| format!("{}\t{}", r.name, r.signature)).collect();
    common::assert_table_matches_clang("sh", concat!(env!("CARGO_MANIFEST_DIR"), "/tests/simd/collect_intrinsics.sh"), listed, 250);
}
