//! The decorator layers, each alone over a recording wrapper: independence
//! slicing, the result cache with model reuse, and the dispatcher; then
//! the default chain end to end.

use std::cell::RefCell;
use std::rc::Rc;
use symcross::assumptions::{Assumption, Assumptions};
use symcross::expr::{evaluate, CmpOp, ExprId, ExprPool, FBinOp, FpFormat};
use symcross::solver::*;

/// The constraints of every query a `Recording` passed on, in order.
type QueryLog = Rc<RefCell<Vec<Vec<ExprId>>>>;

/// Passes queries on and records the constraints of each.
struct Recording<S> {
    inner: S,
    log: QueryLog,
}

impl<S: Solver> Solver for Recording<S> {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolverResult {
        self.log.borrow_mut().push(query.constraints());
        self.inner.check(pool, query)
    }
    fn stats(&self) -> SolverStats {
        self.inner.stats()
    }
}

fn recording<S: Solver>(inner: S) -> (Recording<S>, QueryLog) {
    let log = Rc::new(RefCell::new(Vec::new()));
    (Recording { inner, log: log.clone() }, log)
}

fn word(pool: &mut ExprPool, name: &str) -> ExprId {
    let a = pool.new_array(name, 2);
    let lo = pool.input_byte(a, 0);
    let hi = pool.input_byte(a, 1);
    pool.concat(hi, lo)
}

#[test]
fn independence_asks_the_goal_part_first_and_merges_models() {
    let mut p = ExprPool::new();
    let x = word(&mut p, "x");
    let y = word(&mut p, "y");
    let five = p.constant(16, 5);
    let path = p.eq(x, five);
    // y*y == 3 (mod 2^16) is impossible: odd squares are 1 mod 8.
    let yy = p.mul(y, y);
    let three = p.constant(16, 3);
    let unsat_goal = p.eq(yy, three);
    let (rec, log) = recording(Z3Solver::new());
    let mut s = IndependenceSolver::new(rec);
    assert!(s.check(&p, &Query::new(vec![path], Some(unsat_goal))).is_unsat());
    assert_eq!(*log.borrow(), vec![vec![unsat_goal]], "the unrelated path is never asked");

    let seven = p.constant(16, 7);
    let sat_goal = p.eq(y, seven);
    log.borrow_mut().clear();
    let q = Query::new(vec![path], Some(sat_goal));
    let SolverResult::Sat(asg) = s.check(&p, &q) else { panic!("expected sat") };
    assert_eq!(log.borrow().len(), 2);
    assert_eq!(log.borrow()[0], vec![sat_goal]);
    assert_eq!(evaluate(&p, x, &asg), 5);
    assert_eq!(evaluate(&p, y, &asg), 7);
    assert_eq!(asg.arrays.len(), 2, "the merged model covers both arrays");
    assert_eq!(s.stats().independent_parts, 3);
}

#[test]
fn independence_keeps_related_constraints_together() {
    let mut p = ExprPool::new();
    let x = word(&mut p, "x");
    let y = word(&mut p, "y");
    let lt = p.cmp(CmpOp::Ult, x, y);
    let gt = p.cmp(CmpOp::Ult, y, x);
    let (rec, log) = recording(Z3Solver::new());
    let mut s = IndependenceSolver::new(rec);
    assert!(s.check(&p, &Query::new(vec![lt], Some(gt))).is_unsat());
    assert_eq!(log.borrow().len(), 1);
    assert_eq!(log.borrow()[0].len(), 2);
}

#[test]
fn cache_answers_repeats_and_reuses_models() {
    let mut p = ExprPool::new();
    let x = word(&mut p, "x");
    let five = p.constant(16, 5);
    let ten = p.constant(16, 10);
    let is5 = p.eq(x, five);
    let below10 = p.cmp(CmpOp::Ult, x, ten);
    let (rec, log) = recording(Z3Solver::new());
    let mut s = CachingSolver::new(rec);
    let q = Query::all(vec![is5]);
    assert!(s.check(&p, &q).is_sat());
    assert!(s.check(&p, &q).is_sat());
    assert_eq!(log.borrow().len(), 1);
    assert_eq!(s.stats().cache_hits, 1);
    // x = 5 also satisfies x < 10: no solver call.
    let SolverResult::Sat(asg) = s.check(&p, &Query::all(vec![below10])) else { panic!() };
    assert_eq!(evaluate(&p, x, &asg), 5);
    assert_eq!(log.borrow().len(), 1);
    assert_eq!(s.stats().model_reuse_hits, 1);
    // Not under FP assumptions, which evaluation does not model.
    let fin = Assumptions::of(&[Assumption::Finite]);
    let nine = p.constant(16, 9);
    let below9 = p.cmp(CmpOp::Ult, x, nine);
    assert!(s.check(&p, &Query::all(vec![below9]).with_assumptions(fin)).is_sat());
    assert_eq!(log.borrow().len(), 2);
    // Unsat is cached too.
    let not5 = p.not(is5);
    let contradiction = Query::all(vec![is5, not5]);
    assert!(s.check(&p, &contradiction).is_unsat());
    assert!(s.check(&p, &contradiction).is_unsat());
    assert_eq!(log.borrow().len(), 3);
}

#[test]
fn dispatcher_routes_fp_queries_to_the_fp_backend() {
    let mut p = ExprPool::new();
    let x = word(&mut p, "x");
    let five = p.constant(16, 5);
    let bv = p.eq(x, five);
    let nan = p.is_nan(FpFormat::Half, x);
    let (z3, bv_log) = recording(Z3Solver::new());
    let (fp, fp_log) = recording(SmtProcessSolver::new(SmtProcessConfig::cvc5()));
    let mut d = Dispatcher::new(z3, fp);
    assert!(d.check(&p, &Query::all(vec![bv])).is_sat());
    assert!(d.check(&p, &Query::all(vec![bv, nan])).is_unsat());
    assert_eq!((bv_log.borrow().len(), fp_log.borrow().len()), (1, 1));
    let st = d.stats();
    assert_eq!((st.z3_queries, st.fp_queries, st.sat, st.unsat), (1, 1, 1, 1));
}

#[test]
fn default_chain_end_to_end() {
    let mut p = ExprPool::new();
    let x = word(&mut p, "x");
    let y = word(&mut p, "y");
    let ten = p.constant(16, 10);
    let path = p.cmp(CmpOp::Ult, x, ten);
    let f = FpFormat::Half;
    let s1 = p.fbin(FBinOp::Add, f, y, y);
    let two = p.constant(16, 0x4000);
    let s2 = p.fbin(FBinOp::Mul, f, y, two);
    let same = p.eq(s1, s2);
    let differ = p.not(same);
    let mut s = default_solver(SmtProcessConfig::cvc5());
    assert!(s.check(&p, &Query::new(vec![path], Some(differ))).is_unsat());
    let one = p.constant(16, 0x3c00);
    let gt = p.fcmp(symcross::expr::Outcomes(symcross::expr::Outcomes::GT), f, s1, one);
    let q = Query::new(vec![path], Some(gt));
    let SolverResult::Sat(asg) = s.check(&p, &q) else { panic!("expected sat") };
    assert!(q.constraints().iter().all(|&c| evaluate(&p, c, &asg) == 1));
    let st = s.stats();
    assert_eq!(st.fp_queries, 2);
    assert!(st.z3_queries + st.model_reuse_hits >= 1, "{st:?}");
}
