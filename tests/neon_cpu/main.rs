//! Differential test of the NEON intrinsic semantics against the real
//! instruction set: every `supported` row of src/neon/coverage.tsv (each
//! constant operand with a few tested values) becomes an AArch64 function
//! that loads its operands from memory, calls the intrinsic and stores the
//! result. One program holding all of them, built with clang-19 for
//! aarch64-linux-gnu, runs under qemu-aarch64 on random and edge inputs;
//! the same inputs go through `lower_neon` on constant lanes, and the
//! results must be bit-identical.
//!
//! NaN rule: the operations whose NaN result symcross models exactly (the
//! Arm ARM's FPProcessNaNs in src/neon/nan.rs: min/max, FMULX, the
//! estimates and steps) are compared bit for bit. Plain arithmetic (FADDP,
//! FABD, conversions) gives symcross's canonical NaN, so there a float
//! result lane passes when both sides are NaN.
//!
//! Skipped, with a message, when qemu-aarch64 or the AArch64 C library is
//! not installed (scripts/setup.sh installs them).

mod cases;
mod inputs;
// The helpers of tests/common, which `mod common;` would look for in
// this directory.
#[path = "../common/mod.rs"]
mod common;

use cases::{constant_cases, Constant};
use common::neonsig::{rows, Row};
use rand::{rngs::StdRng, SeedableRng};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use symcross::expr::value::Value;
use symcross::expr::{fp_is_nan, ExprPool, FpFormat};
use symcross::ir::Type;
use symcross::neon::{base_name, lower_neon, Lowered};

const RUNS_PER_CASE: usize = 300;
/// Operand slots per input set, 16 bytes each (TBX4 has six operands).
const SLOTS: usize = 6;
const SYSROOT: &str = "/usr/aarch64-linux-gnu";

/// Operations whose NaN results are modelled bit for bit.
const EXACT_NAN: &[&str] = &[
    "fmax", "fmin", "fmaxnm", "fminnm", "fmaxp", "fminp", "fmaxnmp", "fminnmp", "fmaxv", "fminv", "fmaxnmv", "fminnmv", "fmulx", "frecps",
    "frsqrts", "frecpx", "frecpe", "frsqrte",
];

struct Case {
    row: usize,
    constant: Option<Constant>,
}

fn ir_type(t: &Type) -> String {
    match t {
        Type::Int(w) => format!("i{w}"),
        Type::Float(FpFormat::Single) => "float".into(),
        Type::Float(FpFormat::Double) => "double".into(),
        Type::Float(FpFormat::Half) => "half".into(),
        Type::Vector { elem, len } => format!("<{len} x {}>", ir_type(elem)),
        other => panic!("type {other:?} in a tested signature"),
    }
}

fn constant_text(t: &Type, value: u128) -> String {
    match t {
        Type::Vector { elem, len } => {
            let lane = format!("{} {value}", ir_type(elem));
            format!("<{}>", vec![lane; *len as usize].join(", "))
        }
        _ => value.to_string(),
    }
}

/// The LLVM IR function `t_{index}(ptr in, ptr out)` of one case.
fn function_ir(index: usize, row: &Row, constant: Option<Constant>) -> String {
    let mut f = format!("define void @t_{index}(ptr %in, ptr %out) {{\n");
    let mut operands = Vec::new();
    for (k, (t, _)) in row.args.iter().enumerate() {
        let ty = ir_type(t);
        match constant.filter(|c| c.arg == k) {
            Some(c) => operands.push(format!("{ty} {}", constant_text(t, c.value))),
            None => {
                let _ = writeln!(f, "  %p{k} = getelementptr i8, ptr %in, i64 {}", k * 16);
                let _ = writeln!(f, "  %a{k} = load {ty}, ptr %p{k}, align 1");
                operands.push(format!("{ty} %a{k}"));
            }
        }
    }
    let ret = ir_type(&row.ret);
    let _ = writeln!(f, "  %r = call {ret} @{}({})", row.name, operands.join(", "));
    let _ = writeln!(f, "  store {ret} %r, ptr %out, align 1\n  ret void\n}}");
    f
}

fn declaration(row: &Row) -> String {
    let args: Vec<String> = row.args.iter().map(|(t, _)| ir_type(t)).collect();
    format!("declare {} @{}({})\n", ir_type(&row.ret), row.name, args.join(", "))
}

/// The driver: runs every function on every input set of its own.
fn driver_c(count: usize) -> String {
    let mut c = String::from("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n");
    for i in 0..count {
        let _ = writeln!(c, "void t_{i}(const void *, void *);");
    }
    c.push_str("static void (*const fns[])(const void *, void *) = {");
    for i in 0..count {
        let _ = write!(c, "t_{i},");
    }
    let _ = write!(
        c,
        r#"}};
int main(int argc, char **argv) {{
  if (argc != 3) return 2;
  FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "wb");
  if (!in || !out) return 2;
  unsigned char set[{bytes}], res[16];
  for (unsigned f = 0; f < {count}; f++)
    for (unsigned r = 0; r < {runs}; r++) {{
      if (fread(set, 1, sizeof set, in) != sizeof set) return 3;
      memset(res, 0, sizeof res);
      fns[f](set, res);
      fwrite(res, 1, sizeof res, out);
    }}
  return fclose(out) == 0 ? 0 : 4;
}}
"#,
        bytes = SLOTS * 16,
        runs = RUNS_PER_CASE
    );
    c
}

fn lanes_of(p: &mut ExprPool, ty: &Type, bytes: &[u8]) -> Value {
    let w = ty.scalar_bits();
    let nb = (w / 8) as usize;
    (0..ty.lanes() as usize)
        .map(|i| {
            let v = bytes[i * nb..(i + 1) * nb].iter().enumerate().fold(0u128, |acc, (k, b)| acc | (*b as u128) << (8 * k));
            p.constant(w, v)
        })
        .collect()
}

/// Compares symcross with the machine on one input set.
fn compare(row: &Row, constant: Option<Constant>, set: &[u8], native: &[u8]) -> Option<String> {
    let mut p = ExprPool::new();
    let args: Vec<Value> = row
        .args
        .iter()
        .enumerate()
        .map(|(k, (t, _))| match constant.filter(|c| c.arg == k) {
            Some(c) => (0..t.lanes()).map(|_| p.constant(t.scalar_bits(), c.value)).collect(),
            None => lanes_of(&mut p, t, &set[k * 16..k * 16 + 16]),
        })
        .collect();
    let got = match lower_neon(&mut p, &row.name, &args, &row.ret) {
        Lowered::Value(v) => v,
        other => return Some(format!("lower_neon gave {other:?}")),
    };
    let w = row.ret.scalar_bits();
    let nb = (w / 8) as usize;
    let fmt = row.ret.is_float();
    let exact_nan = EXACT_NAN.contains(&base_name(row.name.trim_start_matches("llvm.aarch64.neon.")));
    for (i, &lane) in got.iter().enumerate() {
        let want = (0..nb).fold(0u128, |acc, k| acc | (native[i * nb + k] as u128) << (8 * k));
        let Some(have) = p.as_const(lane) else {
            return Some(format!("lane {i} is not constant"));
        };
        if have == want {
            continue;
        }
        if let (Some(f), false) = (fmt, exact_nan) {
            if fp_is_nan(f, have) && fp_is_nan(f, want) {
                continue;
            }
        }
        return Some(format!("lane {i}: symcross {have:#x}, machine {want:#x}"));
    }
    None
}

fn tools_present() -> bool {
    let qemu = Command::new("qemu-aarch64").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    qemu && Path::new(SYSROOT).join("lib").is_dir() && Command::new("clang-19").arg("--version").output().is_ok()
}

#[test]
fn every_supported_intrinsic_matches_the_machine() {
    if !tools_present() {
        common::skip_or_fail_under_ci(
            "every_supported_intrinsic_matches_the_machine",
            &format!("qemu-aarch64, clang-19 or {SYSROOT} missing (scripts/setup.sh installs them)"),
        );
        return;
    }
    // Structured loads and stores touch memory: tests/neon_generic_ir.rs
    // runs them through the executor against qemu.
    let is_memory = |r: &Row| symcross::neon::memory::form(base_name(r.name.trim_start_matches("llvm.aarch64.neon."))).is_some();
    let rows: Vec<Row> = rows().into_iter().filter(|r| r.status == "supported" && !is_memory(r)).collect();
    let mut cases = Vec::new();
    for (k, row) in rows.iter().enumerate() {
        let arg_types: Vec<Type> = row.args.iter().map(|(t, _)| t.clone()).collect();
        for constant in constant_cases(&row.name, &row.ret, &arg_types) {
            cases.push(Case { row: k, constant });
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let mut ir = String::from("target triple = \"aarch64-unknown-linux-gnu\"\n");
    for (i, c) in cases.iter().enumerate() {
        ir.push_str(&function_ir(i, &rows[c.row], c.constant));
    }
    for row in &rows {
        ir.push_str(&declaration(row));
    }
    std::fs::write(dir.path().join("cases.ll"), ir).unwrap();
    std::fs::write(dir.path().join("driver.c"), driver_c(cases.len())).unwrap();
    let exe = dir.path().join("neon_cases");
    let built = Command::new("clang-19")
        .args(["--target=aarch64-linux-gnu", "-O1"])
        .arg(dir.path().join("cases.ll"))
        .arg(dir.path().join("driver.c"))
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(built.status.success(), "building the AArch64 cases failed:\n{}", String::from_utf8_lossy(&built.stderr));
    let mut rng = StdRng::seed_from_u64(0x4e454f4e);
    let mut input = Vec::with_capacity(cases.len() * RUNS_PER_CASE * SLOTS * 16);
    for c in &cases {
        let row = &rows[c.row];
        for _ in 0..RUNS_PER_CASE {
            for k in 0..SLOTS {
                match row.args.get(k) {
                    Some((t, _)) => input.extend_from_slice(&inputs::operand(&mut rng, t)),
                    None => input.extend_from_slice(&[0u8; 16]),
                }
            }
        }
    }
    std::fs::write(dir.path().join("in.bin"), &input).unwrap();
    let ran = Command::new("qemu-aarch64")
        .args(["-L", SYSROOT])
        .arg(&exe)
        .arg(dir.path().join("in.bin"))
        .arg(dir.path().join("out.bin"))
        .output()
        .unwrap();
    assert!(ran.status.success(), "qemu run failed: {ran:?}");
    let output = std::fs::read(dir.path().join("out.bin")).unwrap();
    assert_eq!(output.len(), cases.len() * RUNS_PER_CASE * 16);
    let mut failures = Vec::new();
    for (ci, c) in cases.iter().enumerate() {
        let row = &rows[c.row];
        for r in 0..RUNS_PER_CASE {
            let at = ci * RUNS_PER_CASE + r;
            let set = &input[at * SLOTS * 16..(at + 1) * SLOTS * 16];
            if let Some(why) = compare(row, c.constant, set, &output[at * 16..at * 16 + 16]) {
                let shown: Vec<String> = (0..row.args.len()).map(|k| hex(&set[k * 16..k * 16 + 16])).collect();
                failures.push(format!("{} {:?}: {why} (operands {})", row.name, c.constant.map(|k| k.value), shown.join(" ")));
                break;
            }
        }
    }
    eprintln!("{} intrinsics, {} cases, {} runs each", rows.len(), cases.len(), RUNS_PER_CASE);
    assert!(failures.is_empty(), "{} case(s) differ from the machine:\n{}", failures.len(), failures.join("\n"));
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
