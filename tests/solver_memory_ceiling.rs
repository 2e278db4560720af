//! `--max-memory` holds inside a solver query: Z3 (in this process) and
//! cvc5 (a child) are stopped at the ceiling, the answer is "unknown" with
//! the memory-limit reason, and the ceiling records the trip so that the
//! executor ends the run with the memory limit. A solver without a ceiling,
//! or with another run's, goes on as before.

use symcross::expr::{CmpOp, ExprId, ExprPool};
use symcross::process::memory_ceiling::{MemoryCeiling, REASON};
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

/// x * y = 2147483647 * 2147483629 with 1 < x, y < 2^32: factoring a
/// 62-bit semiprime, far beyond what bit-blasting solves in the first
/// few milliseconds and out of reach of algebraic rewriting, so the
/// watchers see the ceiling while the solver is still at work.
fn hard_query(p: &mut ExprPool) -> Query {
    let (x, y) = (word(p, "x", 4), word(p, "y", 4));
    let (x64, y64) = (p.zext(x, 64), p.zext(y, 64));
    let product = p.mul(x64, y64);
    let semiprime = p.constant(64, 2147483647u128 * 2147483629u128);
    let one = p.constant(32, 1);
    let goal = p.eq(product, semiprime);
    let x_big = p.cmp(CmpOp::Ult, one, x);
    let y_big = p.cmp(CmpOp::Ult, one, y);
    Query::new(vec![x_big, y_big], Some(goal))
}

#[test]
fn solvers_stop_at_the_memory_ceiling_and_trip_it() {
    let mut p = ExprPool::new();
    let q = hard_query(&mut p);
    // Every process holds more than 1 MiB.
    let z3_ceiling = MemoryCeiling::at(1);
    let cvc5_ceiling = MemoryCeiling::at(1);
    let backends: Vec<(&str, Box<dyn Solver>, &MemoryCeiling)> = vec![
        ("z3 (in process)", Box::new(Z3Solver::with_ceiling(z3_ceiling.clone())), &z3_ceiling),
        (
            "cvc5 (child process)",
            Box::new(SmtProcessSolver::new(SmtProcessConfig { ceiling: cvc5_ceiling.clone(), ..SmtProcessConfig::cvc5() })),
            &cvc5_ceiling,
        ),
    ];
    for (name, mut solver, ceiling) in backends {
        assert!(!ceiling.tripped());
        match solver.check(&p, &q) {
            SolverResult::Unknown(why) => assert_eq!((why.kind, why.detail.as_str()), (UnknownKind::MemoryLimit, REASON), "{name}"),
            other => panic!("{name}: expected the memory limit, got {other:?}"),
        }
        assert!(ceiling.tripped(), "{name}: the trip is recorded for the executor");
    }
    // Without a ceiling the same solver answers small queries as before,
    // whatever another run's ceiling says.
    let x = word(&mut p, "a", 4);
    let same = p.eq(x, x);
    let differ = p.not(same);
    assert!(Z3Solver::new().check(&p, &Query::new(vec![], Some(differ))).is_unsat());
    // The whole stack shares one ceiling.
    let stacked = MemoryCeiling::at(1);
    let mut stack = default_solver(SmtProcessConfig { ceiling: stacked.clone(), ..SmtProcessConfig::cvc5() });
    assert!(stack.check(&p, &q).is_unknown());
    assert!(stacked.tripped(), "the default stack's Z3 trips the ceiling it was built with");
}
