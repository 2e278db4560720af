//! Result cache and counterexample reuse (KLEE's caching and
//! counterexample-cache solvers, in a light form).
//!
//! Results are keyed by the sorted, deduplicated constraint ids plus the
//! assumptions (ids are stable within one pool). Unknown results are not
//! cached: a later try with more time may do better. Before calling the
//! inner solver, the last few models are re-evaluated on the query with
//! `expr::evaluate`, the reference semantics; one that satisfies it answers
//! the query without a solver. Reuse is skipped under FP assumptions
//! (evaluation does not know them) and where evaluation is not exact.

use super::model_check::{complete_assignment, evaluation_is_exact, model_satisfies};
use super::{Query, Solver, SolverResult, SolverStats};
use crate::expr::{Assignment, ExprId, ExprPool};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// How many recent models are tried on each query. A loop with symbolic
/// bounds that each work-item of a kernel re-runs asks, trip after trip,
/// questions an earlier trip's model answers: 16 trips need both sides'
/// models of each (with 8, writeinloop at 64 work-items sent 1,105 queries
/// to Z3 in 41 s; with 64, 191 in 16 s). Evaluating a model stops at the
/// first constraint it falsifies.
const RECENT_MODELS: usize = 64;

#[derive(Clone, PartialEq, Eq, Hash)]
struct CacheKey {
    constraints: Vec<ExprId>,
    assumptions: crate::assumptions::Assumptions,
}

/// Caches results of `inner` and reuses recent models.
pub struct CachingSolver<S> {
    inner: S,
    results: FxHashMap<CacheKey, SolverResult>,
    recent: VecDeque<Assignment>,
    hits: u64,
    reuse_hits: u64,
}

impl<S: Solver> CachingSolver<S> {
    /// Wraps `inner` with an empty cache.
    pub fn new(inner: S) -> Self {
        CachingSolver { inner, results: FxHashMap::default(), recent: VecDeque::new(), hits: 0, reuse_hits: 0 }
    }

    fn reuse_model(&self, pool: &ExprPool, query: &Query, constraints: &[ExprId]) -> Option<Assignment> {
        if query.assumptions.restricts_values() || !evaluation_is_exact(pool, constraints) {
            return None;
        }
        let found = self.recent.iter().find(|m| model_satisfies(pool, constraints, m))?;
        let mut asg = found.clone();
        complete_assignment(pool, constraints, &mut asg);
        Some(asg)
    }
}

impl<S: Solver> Solver for CachingSolver<S> {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolverResult {
        let constraints = query.constraints();
        let mut sorted = constraints.clone();
        sorted.sort();
        sorted.dedup();
        let key = CacheKey { constraints: sorted, assumptions: query.assumptions };
        if let Some(r) = self.results.get(&key) {
            self.hits += 1;
            tracing::trace!(constraints = key.constraints.len(), "solver cache: answer reused");
            return r.clone();
        }
        if let Some(asg) = self.reuse_model(pool, query, &constraints) {
            self.reuse_hits += 1;
            tracing::trace!(constraints = key.constraints.len(), "solver cache: a recent model satisfies the query");
            let r = SolverResult::Sat(asg);
            self.results.insert(key, r.clone());
            return r;
        }
        let r = self.inner.check(pool, query);
        if let SolverResult::Sat(m) = &r {
            if self.recent.len() == RECENT_MODELS {
                self.recent.pop_back();
            }
            self.recent.push_front(m.clone());
        }
        if !r.is_unknown() {
            self.results.insert(key, r.clone());
        }
        r
    }

    fn stats(&self) -> SolverStats {
        let mut s = self.inner.stats();
        s.cache_hits += self.hits;
        s.model_reuse_hits += self.reuse_hits;
        s
    }
}
