//! Bit-vector queries: Z3 in process first, within a work budget; what it
//! cannot decide there goes to Bitwuzla (a process), which decided every
//! hard query of the codec transforms, metrics and filters measured, most
//! in under a second, where Z3 ran out of time on all of them (the table
//! is in the notes of the back-end comparison). Z3 stays first because
//! most queries are many and small (branches, race pairs, sweeping
//! proofs): it answers them in microseconds, without a process start.
//!
//! A query that carries its own work budget (sweeping proofs, the ladder's
//! first attempt) is counted in Z3's units and stays with Z3, so those
//! steps decide alike on any machine. When the second solver cannot run
//! (not installed, it failed), Z3 gets the query again with its full time.

use super::{Query, Solver, SolverResult, SolverStats, UnknownKind};
use crate::expr::ExprPool;

/// Z3's work budget (`rlimit` units) before a query goes to the second
/// solver: about a second of Z3 on the machine of BENCHMARKS.md.
pub const FIRST_BUDGET: u32 = 2_000_000;

/// `first` within `FIRST_BUDGET`, then `second` with the query's own limits.
pub struct Portfolio<A, B> {
    first: A,
    second: B,
}

impl<A: Solver, B: Solver> Portfolio<A, B> {
    /// `first` (Z3 in process) then `second` (Bitwuzla).
    pub fn new(first: A, second: B) -> Self {
        Portfolio { first, second }
    }
}

impl<A: Solver, B: Solver> Solver for Portfolio<A, B> {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolverResult {
        if query.resource_limit.is_some() {
            return self.first.check(pool, query);
        }
        // A deciding budget below the first solver's share is all the
        // first one gets (and then the second gets the same small budget).
        let quick = query.clone().with_resource_limit(query.deciding_budget.map_or(FIRST_BUDGET, |b| b.min(FIRST_BUDGET)));
        match self.first.check(pool, &quick) {
            SolverResult::Unknown(why) if why.kind == UnknownKind::ResourceLimit => {}
            decided => return decided,
        }
        match self.second.check(pool, query) {
            SolverResult::Unknown(why) if why.kind == UnknownKind::SolverError => {
                // The first then spends the whole deciding budget (its
                // `rlimit`) or the query's whole time.
                tracing::debug!(reason = %why, "portfolio: the second solver failed; the first gets the query's whole budget");
                self.first.check(pool, query)
            }
            answer => answer,
        }
    }

    fn stats(&self) -> SolverStats {
        let mut s = self.first.stats();
        s += &self.second.stats();
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Unknown;

    /// Answers by a fixed rule and counts its queries.
    struct Scripted {
        answer: fn(&Query) -> SolverResult,
        asked: Vec<Option<u32>>,
        deciding: Vec<Option<u32>>,
    }

    impl Solver for Scripted {
        fn check(&mut self, _: &ExprPool, q: &Query) -> SolverResult {
            self.asked.push(q.resource_limit);
            self.deciding.push(q.deciding_budget);
            (self.answer)(q)
        }
        fn stats(&self) -> SolverStats {
            SolverStats::default()
        }
    }

    fn out_of_budget(q: &Query) -> SolverResult {
        match q.resource_limit {
            Some(_) => SolverResult::Unknown(Unknown::new(UnknownKind::ResourceLimit, "budget")),
            None => SolverResult::Unsat,
        }
    }

    fn scripted(answer: fn(&Query) -> SolverResult) -> Scripted {
        Scripted { answer, asked: Vec::new(), deciding: Vec::new() }
    }

    #[test]
    fn what_the_first_cannot_decide_in_its_budget_goes_to_the_second() {
        let pool = ExprPool::new();
        let mut p = Portfolio::new(scripted(out_of_budget), scripted(|_| SolverResult::Unsat));
        assert!(p.check(&pool, &Query::default()).is_unsat());
        assert_eq!(p.first.asked, vec![Some(FIRST_BUDGET)]);
        assert_eq!(p.second.asked, vec![None]);
    }

    #[test]
    fn the_deciding_budget_goes_with_the_query_to_the_second() {
        let pool = ExprPool::new();
        let mut p = Portfolio::new(scripted(out_of_budget), scripted(|_| SolverResult::Unsat));
        assert!(p.check(&pool, &Query::default().with_deciding_budget(20_000_000)).is_unsat());
        assert_eq!((p.first.asked.clone(), p.second.asked.clone()), (vec![Some(FIRST_BUDGET)], vec![None]));
        assert_eq!(p.second.deciding, vec![Some(20_000_000)]);
        // A budget smaller than the first's share is all the first gets.
        let mut p = Portfolio::new(scripted(out_of_budget), scripted(|_| SolverResult::Unsat));
        assert!(p.check(&pool, &Query::default().with_deciding_budget(1_000)).is_unsat());
        assert_eq!(p.first.asked, vec![Some(1_000)]);
    }

    #[test]
    fn a_second_solver_that_cannot_run_gives_the_first_the_deciding_budget() {
        let pool = ExprPool::new();
        let broken = |_: &Query| SolverResult::Unknown(Unknown::new(UnknownKind::SolverError, "cannot start python3"));
        let mut p = Portfolio::new(scripted(out_of_budget), scripted(broken));
        assert!(p.check(&pool, &Query::default().with_deciding_budget(9_000_000)).is_unsat());
        assert_eq!(p.first.asked, vec![Some(FIRST_BUDGET), None]);
        assert_eq!(p.first.deciding, vec![Some(9_000_000), Some(9_000_000)]);
    }

    #[test]
    fn a_budgeted_query_stays_with_the_first() {
        let pool = ExprPool::new();
        let mut p = Portfolio::new(scripted(out_of_budget), scripted(|_| SolverResult::Unsat));
        assert!(p.check(&pool, &Query::default().with_resource_limit(7)).is_unknown());
        assert_eq!((p.first.asked.clone(), p.second.asked.len()), (vec![Some(7)], 0));
    }

    #[test]
    fn a_second_solver_that_cannot_run_gives_the_first_its_whole_time() {
        let pool = ExprPool::new();
        let broken = |_: &Query| SolverResult::Unknown(Unknown::new(UnknownKind::SolverError, "cannot start python3"));
        let mut p = Portfolio::new(scripted(out_of_budget), scripted(broken));
        assert!(p.check(&pool, &Query::default()).is_unsat());
        assert_eq!(p.first.asked, vec![Some(FIRST_BUDGET), None]);
    }
}
