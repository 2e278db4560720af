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
        if self.canon.is_none() || pool.as_const(cond).is_some() || !pool.mentions_fp(cond) {
            return self.feasible(pool, path, cond);
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
            CheckOutcome::Suspected(w, _) => {
                self.last_branch_step = Some(DecidedBy::BitPrecise);
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
