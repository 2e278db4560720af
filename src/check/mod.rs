//! Deciding questions about a path: is a branch side feasible, can a check
//! fail. Implements the ladder of DESIGN.md section 3: structural identity,
//! then the e-graph, then the bit-precise solver, and says which step
//! decided.

use crate::config::Assumptions;
use crate::expr::{Assignment, Expr, ExprId, ExprPool};
use crate::report::DecidedBy;

/// Answer of a satisfiability question.
#[derive(Clone, Debug)]
pub enum Feasibility {
    /// Satisfiable; the assignment is a witness.
    Sat(Assignment),
    Unsat,
    /// The solver gave up (timeout, unsupported construct); the reason says why.
    Unknown(String),
}

/// A satisfiability backend: the solver stack, seen from the executor.
pub trait Backend {
    /// Is `path /\ goal` satisfiable?
    fn check(&mut self, pool: &ExprPool, path: &[ExprId], goal: ExprId) -> Feasibility;
    /// Number of queries that reached a solver.
    fn queries(&self) -> u64;
    /// Whether the run's `--max-time` refused or cut short a query.
    fn deadline_hit(&self) -> bool {
        false
    }
}

/// Step 2 of the ladder: proving two expressions equal by rewriting.
pub trait Canonicalizer {
    fn prove_equal(&mut self, pool: &ExprPool, a: ExprId, b: ExprId) -> bool;
    /// The smallest set of assumptions (beyond the enabled ones) under which
    /// `a` and `b` are proved equal, if any.
    fn equal_under(&mut self, pool: &ExprPool, a: ExprId, b: ExprId) -> Option<Assumptions>;
}

/// Outcome of checking that `a == b` holds on a path.
#[derive(Clone, Debug)]
pub enum CheckOutcome {
    Proved(DecidedBy),
    /// The check fails for this witness.
    Refuted(Assignment),
    /// Not decided; the string says why.
    Unknown(String),
}

pub struct Decider {
    pub backend: Box<dyn Backend>,
    pub canon: Option<Box<dyn Canonicalizer>>,
}

impl Decider {
    pub fn new(backend: Box<dyn Backend>, canon: Option<Box<dyn Canonicalizer>>) -> Self {
        Decider { backend, canon }
    }

    /// Is `path /\ cond` satisfiable? Equalities that the e-graph proves
    /// cannot be false, so their negation is answered without a solver.
    pub fn feasible(&mut self, pool: &ExprPool, path: &[ExprId], cond: ExprId) -> Feasibility {
        match pool.as_const(cond) {
            Some(0) => return Feasibility::Unsat,
            Some(_) if path.is_empty() => return Feasibility::Sat(Assignment::default()),
            _ => {}
        }
        if let Some((a, b)) = negated_equality(pool, cond).filter(|(a, b)| pool.mentions_fp(*a) || pool.mentions_fp(*b)) {
            if let Some(c) = self.canon.as_mut() {
                if c.prove_equal(pool, a, b) {
                    return Feasibility::Unsat;
                }
            }
        }
        self.backend.check(pool, path, cond)
    }

    /// Can `a != b` on this path? The ladder of DESIGN.md section 3.
    pub fn check_equal(&mut self, pool: &mut ExprPool, path: &[ExprId], a: ExprId, b: ExprId) -> CheckOutcome {
        if a == b {
            return CheckOutcome::Proved(DecidedBy::Structural);
        }
        let eq = pool.eq(a, b);
        if pool.as_const(eq) == Some(1) {
            return CheckOutcome::Proved(DecidedBy::Structural);
        }
        if let Some(c) = self.canon.as_mut() {
            if c.prove_equal(pool, a, b) {
                return CheckOutcome::Proved(DecidedBy::Canonical);
            }
        }
        let differ = pool.not(eq);
        // KLEE-CL 6.3: an integer over-approximation of the failure; if
        // even that cannot happen, the check holds.
        if self.canon.is_some() && pool.mentions_fp(differ) {
            if let Some(q) = crate::canon::implied_integer_query(pool, differ) {
                if !pool.mentions_fp(q) {
                    if let Feasibility::Unsat = self.backend.check(pool, &[], q) {
                        return CheckOutcome::Proved(DecidedBy::ImpliedQuery);
                    }
                }
            }
        }
        match self.backend.check(pool, path, differ) {
            Feasibility::Sat(m) => CheckOutcome::Refuted(m),
            Feasibility::Unsat => CheckOutcome::Proved(DecidedBy::BitPrecise),
            Feasibility::Unknown(why) => CheckOutcome::Unknown(why),
        }
    }

    pub fn equal_under(&mut self, pool: &ExprPool, a: ExprId, b: ExprId) -> Option<Assumptions> {
        self.canon.as_mut()?.equal_under(pool, a, b)
    }
}

/// `Not(Eq(a, b))` -> `(a, b)`.
fn negated_equality(pool: &ExprPool, cond: ExprId) -> Option<(ExprId, ExprId)> {
    let Expr::Not(inner) = *pool.get(cond) else { return None };
    match *pool.get(inner) {
        Expr::Cmp(crate::expr::CmpOp::Eq, a, b) => Some((a, b)),
        _ => None,
    }
}
