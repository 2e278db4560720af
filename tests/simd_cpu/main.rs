//! Differential test of the x86 intrinsic semantics against this CPU: for
//! every `supported` row of src/simd/coverage.tsv, random and edge inputs
//! are run natively (core::arch) and through `lower_x86` on constant lanes,
//! and the results must be bit-identical.
//!
//! NaN rule: symcross gives every NaN produced by FP arithmetic the
//! canonical quiet NaN (src/expr/fold.rs) while the CPU propagates payloads,
//! so a float result lane of an arithmetic intrinsic passes when both sides
//! are NaN. Selections (min/max, blendv, permutes, insertps) and compare
//! masks are compared bit for bit. Approximations (rcp/rsqrt) must yield
//! fresh, unconstrained lanes; their pass-through lanes are compared exactly.

#![cfg(target_arch = "x86_64")]

mod cases;
mod inputs;
// The helpers of tests/common, which `mod common;` would look for in
// this directory.
#[path = "../common/mod.rs"]
mod common;

use cases::{all_cases, Case};
use common::x86sig::{self, Row};
use rand::{rngs::StdRng, SeedableRng};
use symcross::expr::value::Value;
use symcross::expr::{fp_is_nan, ExprPool, FpFormat};
use symcross::ir::Type;
use symcross::simd::{lower_x86, Lowered};

const RUNS_PER_CASE: usize = 400;

/// Lanes of one operand, read little-endian from its bytes.
fn lanes_of(p: &mut ExprPool, ty: &Type, bytes: &[u8]) -> Value {
    let w = ty.scalar_bits();
    (0..ty.lanes() as usize)
        .map(|i| {
            let nb = (w / 8) as usize;
            let mut v = 0u128;
            for (k, b) in bytes[i * nb..(i + 1) * nb].iter().enumerate() {
                v |= (*b as u128) << (8 * k);
            }
            p.constant(w, v)
        })
        .collect()
}

/// Selections and masks must match bit for bit even when NaN.
fn exact_bits(name: &str) -> bool {
    [".min.", ".max.", "blendv", "vpermilvar", "permps", "insertps", ".cmp."].iter().any(|s| name.contains(s))
}

fn is_masked_access(name: &str) -> bool {
    name.contains(".maskload.") || name.contains(".maskstore.") || name.ends_with(".maskmov.dqu")
}

fn is_approx(name: &str) -> bool {
    name.contains(".rcp.") || name.contains(".rsqrt.")
}

/// Runs one input; returns a description of the difference, if any.
fn run_one(row: &Row, case: &Case, inputs: &[[u8; 32]]) -> Option<String> {
    let mut p = ExprPool::new();
    let mut args = Vec::new();
    let mut native_args = Vec::new();
    let last = row.args.len().saturating_sub(1);
    for (k, (ty, _)) in row.args.iter().enumerate() {
        match case.imm {
            Some(v) if k == last => args.push(smallvec::smallvec![p.constant(ty.scalar_bits(), v as u128)]),
            _ => {
                args.push(lanes_of(&mut p, ty, &inputs[k]));
                native_args.push(inputs[k]);
            }
        }
    }
    let expected = (case.native)(&native_args);
    let got = match lower_x86(&mut p, &row.name, &args, &row.ret) {
        Lowered::Value(v) => v,
        other => return Some(format!("lower_x86 gave {other:?}")),
    };
    let w = row.ret.scalar_bits();
    let nb = (w / 8) as usize;
    let fmt = row.ret.is_float();
    for (i, &lane) in got.iter().enumerate() {
        let want = (0..nb).fold(0u128, |acc, k| acc | (expected[i * nb + k] as u128) << (8 * k));
        let Some(have) = p.as_const(lane) else {
            if is_approx(&row.name) && (i == 0 || !row.name.ends_with(".ss")) {
                continue; // a fresh value: what an approximation must be
            }
            return Some(format!("lane {i} did not fold to a constant"));
        };
        // An approximation is exact where the hardware is (zeros,
        // subnormals, infinities, NaNs, negative square roots): a lane that
        // folds to a constant must then be the CPU's bits, checked below.
        if have == want {
            continue;
        }
        let both_nan = |f: FpFormat| fp_is_nan(f, have) && fp_is_nan(f, want);
        if !exact_bits(&row.name) && fmt.is_some_and(both_nan) {
            continue;
        }
        return Some(format!("lane {i}: symcross {have:#x}, cpu {want:#x}"));
    }
    None
}

fn hex(args: &[[u8; 32]], row: &Row) -> String {
    row.args
        .iter()
        .zip(args)
        .map(|((t, _), b)| {
            let n = (t.size() as usize).min(32);
            b[..n].iter().rev().map(|x| format!("{x:02x}")).collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn every_supported_intrinsic_matches_the_cpu() {
    use std::arch::is_x86_feature_detected as has;
    let present = [has!("sse4.2"), has!("avx"), has!("avx2"), has!("fma")];
    if present.contains(&false) {
        common::skip_or_fail_under_ci(
            "every_supported_intrinsic_matches_the_cpu",
            &format!("the differential test needs sse4.2, avx, avx2 and fma; this CPU has {present:?}"),
        );
        return;
    }
    let rows = x86sig::rows();
    let cases = all_cases();
    let mut rng = StdRng::seed_from_u64(0x5eed_c0de);
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in rows.iter().filter(|r| r.status == "supported") {
        let mine: Vec<&Case> = cases.iter().filter(|c| c.name == row.name).collect();
        // Masked loads and stores access memory: the program
        // tests/fixtures/differential/x86_masked_access.c runs them against
        // this CPU (tests/differential.rs).
        if is_masked_access(&row.name) {
            continue;
        }
        if mine.is_empty() {
            if !row.ret.eq(&Type::Void) {
                failures.push(format!("{}: no CPU case", row.name));
            }
            continue;
        }
        checked += 1;
        for case in mine {
            for _ in 0..RUNS_PER_CASE {
                let inputs = inputs::generate(&mut rng, row);
                if let Some(diff) = run_one(row, case, &inputs) {
                    failures.push(format!("{} imm={:?} args [{}]: {diff}", row.name, case.imm, hex(&inputs, row)));
                    break;
                }
            }
        }
    }
    for c in &cases {
        assert!(rows.iter().any(|r| r.name == c.name && r.status == "supported"), "case for unlisted {}", c.name);
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{checked} intrinsics agree with the CPU");
}
