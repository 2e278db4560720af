//! Branch conditions through the check ladder. A program compares
//! floating-point results in many shapes besides `symcross_check_equal`:
//! the bits copied into integers (memcpy, unions) and compared with `==`,
//! `memcmp`, a float `==` per element, values read back from an OpenCL
//! kernel. Each is a branch into a failure call, and each deserves what a
//! check gets: a failing side that is the negation of an equality goes up
//! the whole ladder (`Decider::check_equal`: normal form, sampling,
//! e-graph, solver); any other condition on floating-point values is put
//! in reassociation normal form (which may decide it) and sampled before
//! the solver is asked.
//!
//! Every answer keeps the solver's meaning: `Unsat` only when a rewrite
//! valid under the enabled assumptions decides the condition, `Sat` only
//! with an assignment on which the condition and the path evaluate true
//! (bit for bit, in the model's NaN semantics) and that confirms under the
//! assumptions (`confirm.rs`), or, as before, with the solver's model.

use super::estimate_bound::EstimateAnswer;
use super::{sampling, CheckOutcome, Decider, Feasibility};
use crate::assumptions::Assumption;
use crate::expr::{Expr, ExprId, ExprPool, Outcomes};
use crate::report::DecidedBy;

impl Decider {
    /// Is `path /\ cond` satisfiable, for a branch or an assumption of the
    /// program? As [`Decider::feasible`], with the check ladder first for
    /// conditions on floating-point values. `last_branch_step` then says
    /// which step decided.
    pub fn decide_branch(&mut self, pool: &mut ExprPool, path: &[ExprId], cond: ExprId) -> Feasibility {
        self.last_branch_step = None;
        // A condition over RCP/RSQRT estimates: their documented bound
        // decides what the solver cannot (estimate_bound.rs).
        if pool.has_estimates() && pool.as_const(cond).is_none() {
            match super::estimate_bound::decide(pool, path, cond, self.assumptions, self.seed) {
                EstimateAnswer::Never => {
                    self.last_branch_step = Some(DecidedBy::EstimateBound);
                    return Feasibility::Unsat;
                }
                EstimateAnswer::Witness(w) => {
                    self.last_branch_step = Some(DecidedBy::Sampling);
                    return Feasibility::Sat(w);
                }
                EstimateAnswer::Open => {}
            }
        }
        if self.canon.is_none() || pool.as_const(cond).is_some() || !pool.mentions_fp(cond) {
            let answer = self.feasible(pool, path, cond);
            if pool.as_const(cond).is_none() {
                self.last_branch_step = step_of_solver_answer(&answer);
            }
            return answer;
        }
        if let Some((a, b)) = super::negated_equality(pool, cond) {
            return self.equality_can_fail(pool, path, a, b);
        }
        if self.decided_false_in_normal_form(pool, cond) {
            self.last_branch_step = Some(DecidedBy::Canonical);
            return Feasibility::Unsat;
        }
        // A witness of `cond` is an input on which `cond` differs from false.
        let never = pool.bool_const(false);
        if let Some(w) = sampling::find_difference(pool, path, cond, never, self.assumptions, self.sample_trials, self.seed) {
            self.last_branch_step = Some(DecidedBy::Sampling);
            return Feasibility::Sat(w);
        }
        let answer = self.feasible(pool, path, cond);
        self.last_branch_step = step_of_solver_answer(&answer);
        answer
    }

    /// `a != b` on the path, decided as a check of `a == b` is.
    fn equality_can_fail(&mut self, pool: &mut ExprPool, path: &[ExprId], a: ExprId, b: ExprId) -> Feasibility {
        match self.check_equal(pool, path, a, b) {
            CheckOutcome::Proved(by) => {
                self.last_branch_step = Some(by);
                Feasibility::Unsat
            }
            CheckOutcome::Refuted(w, by) => {
                self.last_branch_step = Some(by);
                Feasibility::Sat(w)
            }
            // The solver's model, as a branch has always had it; whoever
            // reports a finding on this side judges it (`path_unconfirmed_because`).
            CheckOutcome::Suspected(w, _, by) => {
                self.last_branch_step = Some(by);
                Feasibility::Sat(w)
            }
            CheckOutcome::Unknown(why) => Feasibility::Unknown(why),
        }
    }

    /// Whether `cond`'s reassociation normal form is false under the
    /// enabled assumptions: a float comparison whose operands meet in
    /// normal form can only be "=" or unordered, and `ordered` excludes
    /// the latter.
    fn decided_false_in_normal_form(&mut self, pool: &mut ExprPool, cond: ExprId) -> bool {
        let Some(mut r) = crate::canon::Reassociator::new(self.assumptions) else { return false };
        let normal = r.normalize(pool, cond);
        if pool.as_const(normal) == Some(0) {
            return true;
        }
        let ordered = self.assumptions.closure().has(Assumption::Ordered);
        ordered && is_unordered_test(pool, normal)
    }
}

/// `x` compared with itself for "unordered" (what the builder leaves of a
/// comparison whose operands are the same value).
fn is_unordered_test(pool: &ExprPool, e: ExprId) -> bool {
    matches!(*pool.get(e), Expr::FCmp(o, _, x, y) if x == y && o == Outcomes(Outcomes::UNO))
}

/// The step named for a solver's answer (none when it gave up).
fn step_of_solver_answer(f: &Feasibility) -> Option<DecidedBy> {
    match f {
        Feasibility::Sat(_) | Feasibility::Unsat => Some(DecidedBy::BitPrecise),
        Feasibility::Unknown(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assumptions::Assumptions;
    use crate::check::{Backend, Canonicalizer};
    use crate::expr::{evaluate, FBinOp, FpFormat};
    use crate::solver::{Unknown, UnknownKind};

    /// A backend that never answers and counts how often it was asked.
    struct NoSolver(std::rc::Rc<std::cell::Cell<u64>>);

    impl Backend for NoSolver {
        fn check(&mut self, _: &ExprPool, _: &[ExprId], _: ExprId) -> Feasibility {
            self.0.set(self.0.get() + 1);
            Feasibility::Unknown(Unknown::new(UnknownKind::Unsupported, "no solver in this test"))
        }
        fn queries(&self) -> u64 {
            self.0.get()
        }
    }

    /// An e-graph step that proves nothing, so that what is decided is
    /// decided by the normal form or by sampling.
    struct NoRewrites;

    impl Canonicalizer for NoRewrites {
        fn prove_equal(&mut self, _: &ExprPool, _: ExprId, _: ExprId) -> bool {
            false
        }
        fn equal_under(&mut self, _: &ExprPool, _: ExprId, _: ExprId) -> Option<Assumptions> {
            None
        }
    }

    fn decider(assumptions: &[Assumption]) -> (Decider, std::rc::Rc<std::cell::Cell<u64>>) {
        let asked = std::rc::Rc::new(std::cell::Cell::new(0));
        let d = Decider::new(Box::new(NoSolver(asked.clone())), Some(Box::new(NoRewrites))).with_semantics(
            Assumptions::of(assumptions),
            128,
            7,
        );
        (d, asked)
    }

    /// `0 + v0 + v1 + v2 + v3` serially and `(v0 + v1) + (v2 + v3)`.
    fn serial_and_tree(p: &mut ExprPool) -> (ExprId, ExprId) {
        let arr = p.new_array("v", 16);
        let v: Vec<ExprId> = (0..4).map(|i| p.input_word(arr, 4 * i, 32)).collect();
        let f = FpFormat::Single;
        let zero = p.constant(32, 0);
        let serial = v.iter().fold(zero, |acc, x| p.fbin(FBinOp::Add, f, acc, *x));
        let (l, r) = (p.fbin(FBinOp::Add, f, v[0], v[1]), p.fbin(FBinOp::Add, f, v[2], v[3]));
        (serial, p.fbin(FBinOp::Add, f, l, r))
    }

    #[test]
    fn a_regrouped_sum_compared_on_the_bits_is_decided_without_the_solver() {
        let mut p = ExprPool::new();
        let (serial, tree) = serial_and_tree(&mut p);
        let same = p.eq(serial, tree);
        let differ = p.not(same);
        // Without assumptions: a witness, and it really is one.
        let (mut d, asked) = decider(&[]);
        match d.decide_branch(&mut p, &[], differ) {
            Feasibility::Sat(w) => assert_eq!(evaluate(&p, differ, &w), 1),
            other => panic!("expected a witness, got {other:?}"),
        }
        assert_eq!(d.last_branch_step, Some(DecidedBy::Sampling));
        // Under associativity and positive-zero: the failing side is
        // infeasible, the holding side has a witness.
        let (mut d, _) = decider(&[Assumption::Associativity, Assumption::PositiveZero]);
        assert!(matches!(d.decide_branch(&mut p, &[], differ), Feasibility::Unsat));
        assert_eq!(d.last_branch_step, Some(DecidedBy::Canonical));
        match d.decide_branch(&mut p, &[], same) {
            Feasibility::Sat(w) => assert_eq!(evaluate(&p, same, &w), 1),
            other => panic!("expected a witness, got {other:?}"),
        }
        assert_eq!(asked.get(), 0);
    }

    #[test]
    fn a_float_equality_of_regrouped_sides_needs_ordered() {
        let mut p = ExprPool::new();
        let (serial, tree) = serial_and_tree(&mut p);
        let f = FpFormat::Single;
        let holds = p.fcmp(Outcomes(Outcomes::EQ), f, serial, tree);
        let fails = p.not(holds);
        let all = [Assumption::Associativity, Assumption::PositiveZero, Assumption::Ordered];
        let (mut d, asked) = decider(&all);
        assert!(matches!(d.decide_branch(&mut p, &[], fails), Feasibility::Unsat));
        assert_eq!(asked.get(), 0);
        // Without `ordered` a NaN fails `==` in every grouping: not ruled out.
        let (mut d, _) = decider(&[Assumption::Associativity, Assumption::PositiveZero]);
        assert!(!matches!(d.decide_branch(&mut p, &[], fails), Feasibility::Unsat));
    }
}
