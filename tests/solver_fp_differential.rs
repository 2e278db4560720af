//! Differential test of the SMT-LIB floating-point encodings against
//! fold.rs, the reference semantics: for each operation and format, 200
//! operand tuples (edge values and random bits) are fixed by constraints,
//! and the query "op(x, y) == fold(op, c1, c2)" for all tuples at once must
//! be satisfiable. The encodings are deterministic functions of their
//! operands, so sat means every tuple agrees. A failing batch is re-run
//! tuple by tuple to name the culprit.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;
use symcross::expr::{ExprId, ExprPool, FBinOp, FUnOp, FpFormat, IntRounding, Outcomes};
use symcross::solver::*;

const CASES: usize = 200;
const FORMATS: [FpFormat; 3] = [FpFormat::Half, FpFormat::Single, FpFormat::Double];

/// One tuple: operands (fresh variable, its value) and the op's result node
/// with the value fold.rs gives.
struct Case {
    operands: Vec<(ExprId, u128)>,
    result: ExprId,
    expected: u128,
    label: String,
}

fn bits_of(f: FpFormat, v: f64) -> u128 {
    match f {
        FpFormat::Half => half::f16::from_f64(v).to_bits() as u128,
        FpFormat::Single => (v as f32).to_bits() as u128,
        FpFormat::Double => v.to_bits() as u128,
    }
}

/// Edge values of a format: zeros, infinities, NaNs with payloads,
/// subnormals, extremes, halves and integers near conversion bounds.
fn edge_values(f: FpFormat) -> Vec<u128> {
    let w = f.width();
    let sign = 1u128 << (w - 1);
    let m = f.significand_bits() - 1;
    let exp_all = ((1u128 << f.exponent_bits()) - 1) << m;
    let mut v = vec![
        0,
        sign,
        exp_all,
        exp_all | sign,
        exp_all | (1 << (m - 1)),
        exp_all | 1,
        exp_all | sign | 3,
        1,
        sign | 1,
        (1 << m) - 1,
        1 << m,
        exp_all - 1,
        (exp_all - 1) | sign,
    ];
    for x in [1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 0.1, -7.25, 65504.0, 65520.0, 32767.5, -32768.0, 255.5] {
        v.push(bits_of(f, x));
    }
    for k in [7, 8, 15, 16, 31, 32, 63, 64] {
        let p = 2f64.powi(k);
        for x in [p, -p, p - 1.0, -p - 1.0, p + 1.0, p - 0.5, -p + 0.5] {
            v.push(bits_of(f, x));
        }
    }
    v
}

fn random_value(f: FpFormat, rng: &mut StdRng, edges: &[u128]) -> u128 {
    let w = f.width();
    match rng.gen_range(0..3) {
        0 => edges[rng.gen_range(0..edges.len())],
        1 => rng.gen::<u128>() & ((1u128 << w) - 1),
        _ => {
            // Moderate magnitudes, where rounding and remainders are busy.
            let x: f64 = rng.gen_range(-100.0..100.0) * 2f64.powi(rng.gen_range(-8..8));
            bits_of(f, x)
        }
    }
}

/// Checks a batch in one solver call; on failure, finds the bad tuples.
fn check_batch(solver: &mut dyn Solver, pool: &mut ExprPool, name: &str, cases: &[Case]) {
    let constraints_of = |pool: &mut ExprPool, c: &Case| {
        let mut v = Vec::new();
        for &(x, val) in &c.operands {
            let k = pool.constant(pool.width(x), val);
            v.push(pool.eq(x, k));
        }
        let e = pool.constant(pool.width(c.result), c.expected);
        v.push(pool.eq(c.result, e));
        v
    };
    let mut all = Vec::new();
    for c in cases {
        all.extend(constraints_of(pool, c));
    }
    let q = Query::all(all).with_timeout(Duration::from_secs(60));
    let r = solver.check(pool, &q);
    if r.is_sat() {
        return;
    }
    let mut bad = Vec::new();
    for c in cases {
        let q = Query::all(constraints_of(pool, c)).with_timeout(Duration::from_secs(20));
        let r = solver.check(pool, &q);
        if !r.is_sat() {
            bad.push(format!("{} expected {:#x}: {r:?}", c.label, c.expected));
        }
    }
    panic!("{name}: batch answered {r:?}; failing tuples ({}): {:#?}", bad.len(), &bad[..bad.len().min(6)]);
}

fn solver() -> SmtProcessSolver {
    SmtProcessSolver::new(SmtProcessConfig::cvc5())
}

fn binary_cases(pool: &mut ExprPool, rng: &mut StdRng, f: FpFormat, op: FBinOp) -> Vec<Case> {
    let edges = edge_values(f);
    (0..CASES)
        .map(|_| {
            let (a, b) = (random_value(f, rng, &edges), random_value(f, rng, &edges));
            let (x, y) = (pool.fresh(f.width()), pool.fresh(f.width()));
            let (ca, cb) = (pool.constant(f.width(), a), pool.constant(f.width(), b));
            let expected = pool.fbin(op, f, ca, cb);
            Case {
                operands: vec![(x, a), (y, b)],
                result: pool.fbin(op, f, x, y),
                expected: pool.as_const(expected).unwrap(),
                label: format!("{op:?} {f:?} {a:#x} {b:#x}"),
            }
        })
        .collect()
}

#[test]
fn binary_operations_agree_with_fold() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut s = solver();
    for f in FORMATS {
        for op in [FBinOp::Add, FBinOp::Sub, FBinOp::Mul, FBinOp::Div, FBinOp::Rem, FBinOp::Min, FBinOp::Max] {
            let mut pool = ExprPool::new();
            let cases = binary_cases(&mut pool, &mut rng, f, op);
            check_batch(&mut s, &mut pool, &format!("{op:?} {f:?}"), &cases);
        }
    }
}

#[test]
fn unary_operations_and_fma_agree_with_fold() {
    let mut rng = StdRng::seed_from_u64(2);
    let mut s = solver();
    let ops = [FUnOp::Sqrt, FUnOp::RoundEven, FUnOp::RoundAway, FUnOp::Floor, FUnOp::Ceil, FUnOp::Trunc];
    for f in FORMATS {
        let edges = edge_values(f);
        for op in ops {
            let mut pool = ExprPool::new();
            let cases: Vec<Case> = (0..CASES)
                .map(|_| {
                    let a = random_value(f, &mut rng, &edges);
                    let x = pool.fresh(f.width());
                    let ca = pool.constant(f.width(), a);
                    let e = pool.fun(op, f, ca);
                    Case {
                        operands: vec![(x, a)],
                        result: pool.fun(op, f, x),
                        expected: pool.as_const(e).unwrap(),
                        label: format!("{op:?} {f:?} {a:#x}"),
                    }
                })
                .collect();
            check_batch(&mut s, &mut pool, &format!("{op:?} {f:?}"), &cases);
        }
        if f == FpFormat::Half {
            continue; // fold.rs has no exact half fma
        }
        let mut pool = ExprPool::new();
        let cases: Vec<Case> = (0..CASES)
            .map(|_| {
                let v: Vec<u128> = (0..3).map(|_| random_value(f, &mut rng, &edges)).collect();
                let xs: Vec<ExprId> = (0..3).map(|_| pool.fresh(f.width())).collect();
                let cs: Vec<ExprId> = v.iter().map(|&b| pool.constant(f.width(), b)).collect();
                let e = pool.fma(f, cs[0], cs[1], cs[2]);
                Case {
                    operands: xs.iter().copied().zip(v.iter().copied()).collect(),
                    result: pool.fma(f, xs[0], xs[1], xs[2]),
                    expected: pool.as_const(e).unwrap(),
                    label: format!("fma {f:?} {v:x?}"),
                }
            })
            .collect();
        check_batch(&mut s, &mut pool, &format!("fma {f:?}"), &cases);
    }
}

#[test]
fn comparisons_agree_with_fold_for_every_predicate() {
    let mut rng = StdRng::seed_from_u64(3);
    let mut s = solver();
    for f in FORMATS {
        let edges = edge_values(f);
        let mut pool = ExprPool::new();
        let mut cases = Vec::new();
        for set in 1..15u8 {
            for _ in 0..CASES / 10 {
                let (a, b) = (random_value(f, &mut rng, &edges), random_value(f, &mut rng, &edges));
                // Equal operands are frequent among edges; also force some.
                let b = if rng.gen_range(0..4) == 0 { a } else { b };
                let (x, y) = (pool.fresh(f.width()), pool.fresh(f.width()));
                let (ca, cb) = (pool.constant(f.width(), a), pool.constant(f.width(), b));
                let e = pool.fcmp(Outcomes(set), f, ca, cb);
                cases.push(Case {
                    operands: vec![(x, a), (y, b)],
                    result: pool.fcmp(Outcomes(set), f, x, y),
                    expected: pool.as_const(e).unwrap(),
                    label: format!("{} {f:?} {a:#x} {b:#x}", Outcomes(set).name()),
                });
            }
        }
        check_batch(&mut s, &mut pool, &format!("fcmp {f:?}"), &cases);
    }
}

#[test]
fn conversions_agree_with_fold() {
    let mut rng = StdRng::seed_from_u64(4);
    let mut s = solver();
    for f in FORMATS {
        let edges = edge_values(f);
        // fptosi / fptoui, both roundings, several widths.
        let mut pool = ExprPool::new();
        let mut cases = Vec::new();
        for _ in 0..CASES {
            let a = random_value(f, &mut rng, &edges);
            let signed = rng.gen_bool(0.5);
            let rounding = if rng.gen_bool(0.5) { IntRounding::TowardZero } else { IntRounding::NearestEven };
            let width = [1, 8, 16, 32, 64, 128][rng.gen_range(0..6)];
            let x = pool.fresh(f.width());
            let ca = pool.constant(f.width(), a);
            let e = pool.fp_to_int(signed, rounding, f, ca, width);
            cases.push(Case {
                operands: vec![(x, a)],
                result: pool.fp_to_int(signed, rounding, f, x, width),
                expected: pool.as_const(e).unwrap(),
                label: format!("fp_to_int signed={signed} {rounding:?} {f:?}->i{width} {a:#x}"),
            });
        }
        check_batch(&mut s, &mut pool, &format!("fp_to_int {f:?}"), &cases);

        // sitofp / uitofp from several widths.
        let mut pool = ExprPool::new();
        let mut cases = Vec::new();
        for _ in 0..CASES {
            let width = [8u32, 16, 32, 64, 128][rng.gen_range(0..5)];
            let m = if width == 128 { u128::MAX } else { (1u128 << width) - 1 };
            let a = match rng.gen_range(0..3) {
                0 => rng.gen::<u128>() & m,
                1 => rng.gen_range(0..70000u128) & m,
                _ => m.wrapping_sub(rng.gen_range(0..70000u128)) & m,
            };
            let signed = rng.gen_bool(0.5);
            let x = pool.fresh(width);
            let ca = pool.constant(width, a);
            let e = pool.int_to_fp(signed, f, ca);
            cases.push(Case {
                operands: vec![(x, a)],
                result: pool.int_to_fp(signed, f, x),
                expected: pool.as_const(e).unwrap(),
                label: format!("int_to_fp signed={signed} i{width}->{f:?} {a:#x}"),
            });
        }
        check_batch(&mut s, &mut pool, &format!("int_to_fp {f:?}"), &cases);

        // fpext / fptrunc to every other format.
        for to in FORMATS.into_iter().filter(|&t| t != f) {
            let mut pool = ExprPool::new();
            let cases: Vec<Case> = (0..CASES)
                .map(|_| {
                    let a = random_value(f, &mut rng, &edges);
                    let x = pool.fresh(f.width());
                    let ca = pool.constant(f.width(), a);
                    let e = pool.fp_convert(f, to, ca);
                    Case {
                        operands: vec![(x, a)],
                        result: pool.fp_convert(f, to, x),
                        expected: pool.as_const(e).unwrap(),
                        label: format!("convert {f:?}->{to:?} {a:#x}"),
                    }
                })
                .collect();
            check_batch(&mut s, &mut pool, &format!("convert {f:?}->{to:?}"), &cases);
        }
    }
}

/// The z3 process backend reads the same SMT-LIB: a smaller batch through it.
#[test]
fn z3_process_agrees_with_fold_on_a_sample() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut s = SmtProcessSolver::new(SmtProcessConfig::z3());
    for op in [FBinOp::Add, FBinOp::Rem, FBinOp::Min] {
        let mut pool = ExprPool::new();
        let mut cases = binary_cases(&mut pool, &mut rng, FpFormat::Single, op);
        cases.truncate(50);
        check_batch(&mut s, &mut pool, &format!("z3 {op:?}"), &cases);
    }
}
