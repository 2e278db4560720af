//! Tests of the solver layer: backends against fold.rs (the reference
//! semantics), FP properties with known answers, assumptions, timeouts.
//! The decorator layers are tested alone in tests/solver_layers.rs, the
//! FP encodings against fold.rs in tests/solver_fp_differential.rs.

use std::time::{Duration, Instant};
use symcross::assumptions::{Assumption, Assumptions};
use symcross::expr::{canonical_nan, evaluate, Assignment, ExprId, ExprPool, FBinOp, FpFormat, IntRounding};
use symcross::solver::*;

/// A little-endian word built from `n` input bytes of a new array.
fn word(pool: &mut ExprPool, name: &str, n: u32) -> ExprId {
    let a = pool.new_array(name, n);
    let mut w = pool.input_byte(a, 0);
    for i in 1..n {
        let b = pool.input_byte(a, i);
        w = pool.concat(b, w);
    }
    w
}

fn all_true(pool: &ExprPool, q: &Query, asg: &Assignment) -> bool {
    q.constraints().iter().all(|&c| evaluate(pool, c, asg) == 1)
}

fn cvc5() -> SmtProcessSolver {
    SmtProcessSolver::new(SmtProcessConfig::cvc5())
}

const F: FpFormat = FpFormat::Single;

fn fconst(pool: &mut ExprPool, v: f32) -> ExprId {
    pool.constant(32, v.to_bits() as u128)
}

#[test]
fn bv_identity_is_unsat_and_equation_has_checked_model() {
    let mut p = ExprPool::new();
    let x = word(&mut p, "x", 4);
    let y = word(&mut p, "y", 4);
    let s = p.add(x, y);
    let d = p.sub(s, y);
    let same = p.eq(d, x);
    let differ = p.not(same);
    let mut z3 = Z3Solver::new();
    assert!(z3.check(&p, &Query::new(vec![], Some(differ))).is_unsat());

    let three = p.constant(32, 3);
    let m = p.mul(x, three);
    let c = p.constant(32, 0x0102_0305);
    let goal = p.eq(m, c);
    let q = Query::new(vec![], Some(goal));
    let SolverResult::Sat(asg) = z3.check(&p, &q) else { panic!("expected sat") };
    assert!(all_true(&p, &q, &asg));
    assert_eq!(asg.arrays[&0].len(), 4, "every byte of x has a value");
    // The same through the SMT-LIB process backends.
    for mut s in [cvc5(), SmtProcessSolver::new(SmtProcessConfig::z3())] {
        let SolverResult::Sat(asg) = s.check(&p, &q) else { panic!("expected sat") };
        assert!(all_true(&p, &q, &asg));
        assert!(s.check(&p, &Query::new(vec![], Some(differ))).is_unsat());
    }
}

/// Division by zero, overflow and over-wide shifts agree with fold.rs, in
/// Z3 in process and in the SMT-LIB printer.
#[test]
fn division_and_shift_edge_cases_agree_with_fold() {
    use symcross::expr::BinOp::*;
    let mut p = ExprPool::new();
    let mut goals = Vec::new();
    for w in [8u32, 32, 128] {
        let top = if w == 128 { u128::MAX } else { (1u128 << w) - 1 };
        let vals = [0u128, 1, 2, 3, 7, top >> 1, (top >> 1) + 1, top, top - 1, w as u128 + 1];
        for op in [UDiv, SDiv, URem, SRem, Shl, LShr, AShr] {
            for &a in &vals {
                for &b in &vals {
                    let (fa, fb) = (p.fresh(w), p.fresh(w));
                    let (ca, cb) = (p.constant(w, a), p.constant(w, b));
                    let expected = p.bin(op, ca, cb); // folded by fold.rs
                    assert!(p.is_const(expected));
                    let r = p.bin(op, fa, fb);
                    for g in [p.eq(fa, ca), p.eq(fb, cb), p.eq(r, expected)] {
                        goals.push(g);
                    }
                }
            }
        }
    }
    let q = Query::all(goals);
    let r = Z3Solver::new().check(&p, &q);
    let SolverResult::Sat(asg) = r else { panic!("some BV operation disagrees with fold.rs in z3: {r:?}") };
    assert!(all_true(&p, &q, &asg));
    assert!(asg.fresh.values().any(|&v| v > u64::MAX as u128), "128-bit values read back whole");
    assert!(cvc5().check(&p, &q).is_sat(), "some BV operation disagrees with fold.rs in SMT-LIB");
}

#[test]
fn float_addition_is_not_associative_with_checked_witness() {
    let mut p = ExprPool::new();
    let a = word(&mut p, "a", 4);
    let b = word(&mut p, "b", 4);
    let c = word(&mut p, "c", 4);
    let ab = p.fbin(FBinOp::Add, F, a, b);
    let l = p.fbin(FBinOp::Add, F, ab, c);
    let bc = p.fbin(FBinOp::Add, F, b, c);
    let r = p.fbin(FBinOp::Add, F, a, bc);
    let same = p.eq(l, r);
    let differ = p.not(same);
    let q = Query::new(vec![], Some(differ)).with_timeout(Duration::from_secs(30));
    let SolverResult::Sat(asg) = cvc5().check(&p, &q) else { panic!("expected sat") };
    assert_ne!(evaluate(&p, l, &asg), evaluate(&p, r, &asg));
    // `finite` does not make it hold: rounding remains.
    let fin = Assumptions::of(&[Assumption::Finite]);
    let SolverResult::Sat(asg) = cvc5().check(&p, &q.clone().with_assumptions(fin)) else { panic!("expected sat") };
    assert_ne!(evaluate(&p, l, &asg), evaluate(&p, r, &asg));
}

#[test]
fn doubling_is_self_addition_bit_for_bit() {
    for f in [FpFormat::Half, FpFormat::Single, FpFormat::Double] {
        let mut p = ExprPool::new();
        let x = word(&mut p, "x", f.width() / 8);
        let two = match f {
            FpFormat::Half => p.constant(16, 0x4000),
            FpFormat::Single => fconst(&mut p, 2.0),
            FpFormat::Double => p.constant(64, 2.0f64.to_bits() as u128),
        };
        let m = p.fbin(FBinOp::Mul, f, x, two);
        let s = p.fbin(FBinOp::Add, f, x, x);
        let same = p.eq(m, s);
        let differ = p.not(same);
        let r = cvc5().check(&p, &Query::new(vec![], Some(differ)));
        assert!(r.is_unsat(), "{f:?}: {r:?}");
        // x*2 vs x*3 differ somewhere: the encoding is not trivially unsat.
        let three = p.fun(symcross::expr::FUnOp::Sqrt, f, two);
        let m3 = p.fbin(FBinOp::Mul, f, x, three);
        let same3 = p.eq(m, m3);
        let differ3 = p.not(same3);
        assert!(cvc5().check(&p, &Query::new(vec![], Some(differ3))).is_sat());
    }
}

#[test]
fn fmin_fmax_signed_zeros_and_nan_operands() {
    let mut p = ExprPool::new();
    let x = word(&mut p, "x", 4);
    let y = word(&mut p, "y", 4);
    let (nz, pz) = (fconst(&mut p, -0.0), fconst(&mut p, 0.0));
    let mut s = cvc5();
    for (op, first_neg, expect) in [(FBinOp::Min, true, nz), (FBinOp::Min, false, nz), (FBinOp::Max, true, pz), (FBinOp::Max, false, pz)] {
        let (cx, cy) = if first_neg { (nz, pz) } else { (pz, nz) };
        let path = vec![p.eq(x, cx), p.eq(y, cy)];
        let r = p.fbin(op, F, x, y);
        let ok = p.eq(r, expect);
        let bad = p.not(ok);
        assert!(s.check(&p, &Query::new(path.clone(), Some(bad))).is_unsat(), "{op:?} {first_neg}");
        assert!(s.check(&p, &Query::new(path, Some(ok))).is_sat(), "{op:?} {first_neg}");
    }
    // A NaN operand yields the other operand bit for bit, two NaNs the
    // canonical NaN.
    let x_nan = p.is_nan(F, x);
    let y_nan = p.is_nan(F, y);
    let y_num = p.not(y_nan);
    let m = p.fbin(FBinOp::Min, F, x, y);
    let ok = p.eq(m, y);
    let bad = p.not(ok);
    assert!(s.check(&p, &Query::new(vec![x_nan, y_num], Some(bad))).is_unsat());
    let SolverResult::Sat(asg) = s.check(&p, &Query::new(vec![x_nan], Some(bad))) else { panic!("two NaNs") };
    assert_eq!(evaluate(&p, m, &asg), canonical_nan(F));
}

#[test]
fn fptosi_of_nan_is_integer_indefinite() {
    let mut p = ExprPool::new();
    let x = word(&mut p, "x", 4);
    let nan = p.is_nan(F, x);
    let i = p.fp_to_int(true, IntRounding::TowardZero, F, x, 32);
    let ind = p.constant(32, 0x8000_0000);
    let ok = p.eq(i, ind);
    let bad = p.not(ok);
    assert!(cvc5().check(&p, &Query::new(vec![nan], Some(bad))).is_unsat());
    // And something else is possible when x is not NaN.
    let not_nan = p.not(nan);
    assert!(cvc5().check(&p, &Query::new(vec![not_nan], Some(bad))).is_sat());
}

#[test]
fn finite_and_ordered_assumptions_remove_nan_results() {
    let mut p = ExprPool::new();
    let x = word(&mut p, "x", 4);
    let d = p.fbin(FBinOp::Sub, F, x, x);
    let zero = p.constant(32, 0);
    let is_zero = p.eq(d, zero);
    let nonzero = p.not(is_zero);
    let q = Query::new(vec![], Some(nonzero));
    let SolverResult::Sat(asg) = cvc5().check(&p, &q) else { panic!("x - x can be NaN") };
    assert_eq!(evaluate(&p, d, &asg), canonical_nan(F));
    for a in [Assumptions::of(&[Assumption::Finite]), Assumptions::of(&[Assumption::Ordered])] {
        assert!(cvc5().check(&p, &q.clone().with_assumptions(a)).is_unsat(), "{a:?}");
    }
    // x + 1 == x stays possible for large finite x under `finite`.
    let one = fconst(&mut p, 1.0);
    let s = p.fbin(FBinOp::Add, F, x, one);
    let eq = p.eq(s, x);
    let fin = Assumptions::of(&[Assumption::Finite]);
    let SolverResult::Sat(asg) = cvc5().check(&p, &Query::new(vec![], Some(eq)).with_assumptions(fin)) else { panic!("large x absorbs 1") };
    let v = f32::from_bits(evaluate(&p, x, &asg) as u32);
    assert!(v.is_finite() && v.abs() >= 1.6e7, "{v}");
}

#[test]
fn positive_zero_makes_zero_results_positive() {
    let mut p = ExprPool::new();
    let x = word(&mut p, "x", 4);
    let pz = fconst(&mut p, 0.0);
    let m = p.fbin(FBinOp::Mul, F, x, pz);
    let is_pz = p.eq(m, pz);
    let not_pz = p.not(is_pz);
    let fin = Assumptions::of(&[Assumption::Finite]);
    let q = Query::new(vec![], Some(not_pz)).with_assumptions(fin);
    let SolverResult::Sat(asg) = cvc5().check(&p, &q) else { panic!("negative x gives -0") };
    assert_eq!(evaluate(&p, m, &asg), 0x8000_0000);
    let both = Assumptions::of(&[Assumption::Finite, Assumption::PositiveZero]);
    assert!(cvc5().check(&p, &q.with_assumptions(both)).is_unsat());
}

#[test]
fn uninterpreted_functions_are_congruent() {
    let mut p = ExprPool::new();
    let x = word(&mut p, "x", 1);
    let y = word(&mut p, "y", 1);
    let fx = p.apply("cosf", vec![x], 8);
    let fy = p.apply("cosf", vec![y], 8);
    let (one, two) = (p.constant(8, 1), p.constant(8, 2));
    let c1 = p.eq(fx, one);
    let c2 = p.eq(fy, two);
    let same = p.eq(x, y);
    let q = Query::all(vec![c1, c2, same]);
    assert!(Z3Solver::new().check(&p, &q).is_unsat());
    assert!(cvc5().check(&p, &q).is_unsat());
    // Independence must keep constraints on the same function together.
    let mut ind = IndependenceSolver::new(Z3Solver::new());
    assert!(ind.check(&p, &q).is_unsat());
    let differ = p.not(same);
    let q2 = Query::all(vec![c1, c2, differ]);
    // Satisfiable only for some interpretation of cosf: never a Sat whose
    // model `evaluate` cannot replay.
    let r = Z3Solver::new().check(&p, &q2);
    assert!(!r.is_unsat());
    if let SolverResult::Sat(asg) = &r {
        assert!(all_true(&p, &q2, asg));
    }
}

#[test]
fn z3_in_process_timeout_is_unknown() {
    let mut p = ExprPool::new();
    let x = word(&mut p, "x", 8);
    let y = word(&mut p, "y", 8);
    let (xw, yw) = (p.zext(x, 128), p.zext(y, 128));
    let prod = p.mul(xw, yw);
    // A 64-bit semiprime (two 32-bit primes): factoring it by bit-blasting
    // takes far longer than the limit.
    let n = p.constant(128, 4294967291u128 * 4294967279u128);
    let one = p.constant(64, 1);
    use symcross::expr::CmpOp::Ult;
    let c = vec![p.eq(prod, n), p.cmp(Ult, one, x), p.cmp(Ult, one, y)];
    let q = Query::all(c).with_timeout(Duration::from_millis(50));
    let t = Instant::now();
    let r = Z3Solver::new().check(&p, &q);
    assert!(t.elapsed() < Duration::from_secs(5));
    match r {
        SolverResult::Unknown(reason) => assert_eq!((reason.kind, reason.detail.as_str()), (UnknownKind::Timeout, "timeout after 50ms")),
        other => panic!("expected a timeout, got {other:?}"),
    }
}

#[test]
fn hung_solver_process_is_killed_and_reported_as_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("slow-solver");
    std::fs::write(&fake, "#!/bin/sh\nexec sleep 30\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut cfg = SmtProcessConfig::cvc5();
    cfg.program = fake;
    cfg.kill_grace = Duration::from_millis(100);
    let mut p = ExprPool::new();
    let x = word(&mut p, "x", 4);
    let n = p.is_nan(F, x);
    let t = Instant::now();
    let r = SmtProcessSolver::new(cfg).check(&p, &Query::all(vec![n]).with_timeout(Duration::from_millis(200)));
    assert!(t.elapsed() < Duration::from_secs(3));
    assert!(matches!(&r, SolverResult::Unknown(s) if s.kind == UnknownKind::Timeout && s.detail == "timeout after 200ms"), "{r:?}");
    // A missing program is Unknown too, never a panic.
    let mut cfg = SmtProcessConfig::cvc5();
    cfg.program = "/nonexistent/cvc5".into();
    assert!(SmtProcessSolver::new(cfg).check(&p, &Query::all(vec![n])).is_unknown());
}

#[test]
fn cvc5_own_time_limit_gives_timeout_unknown() {
    // Double-precision division equation: hard for bit-blasting in 1 ms.
    let mut p = ExprPool::new();
    let x = word(&mut p, "x", 8);
    let y = word(&mut p, "y", 8);
    let q1 = p.fbin(FBinOp::Div, FpFormat::Double, x, y);
    let s = p.fun(symcross::expr::FUnOp::Sqrt, FpFormat::Double, q1);
    let c = p.constant(64, 1.2345678901234f64.to_bits() as u128);
    let goal = p.eq(s, c);
    let q = Query::new(vec![], Some(goal)).with_timeout(Duration::from_millis(1));
    let r = cvc5().check(&p, &q);
    assert!(matches!(&r, SolverResult::Unknown(s) if s.kind == UnknownKind::Timeout && s.detail == "timeout after 1ms"), "{r:?}");
}
