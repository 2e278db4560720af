//! Routes each query to the backend that can decide it: bit-vector queries
//! to Z3 in process (fast, no process start), queries with any
//! floating-point node to the bit-precise FP backend.

use super::{Query, Solver, SolverResult, SolverStats};
use crate::expr::ExprPool;

/// Sends BV-only queries to `bv`, FP queries to `fp`.
pub struct Dispatcher<B, F> {
    bv: B,
    fp: F,
}

impl<B: Solver, F: Solver> Dispatcher<B, F> {
    /// Routes bit-vector queries to `bv`, floating-point ones to `fp`.
    pub fn new(bv: B, fp: F) -> Self {
        Dispatcher { bv, fp }
    }
}

impl<B: Solver, F: Solver> Solver for Dispatcher<B, F> {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolverResult {
        let started = std::time::Instant::now();
        let fp = query.constraints().iter().any(|&c| pool.mentions_fp(c));
        let result = if fp { self.fp.check(pool, query) } else { self.bv.check(pool, query) };
        tracing::trace!(
            backend = if fp { "floating-point process" } else { "z3 bit-vector" },
            constraints = query.constraints().len(),
            answer = if result.is_sat() {
                "sat"
            } else if result.is_unsat() {
                "unsat"
            } else {
                "unknown"
            },
            seconds = started.elapsed().as_secs_f64(),
            "solver backend call"
        );
        result
    }

    fn stats(&self) -> SolverStats {
        let mut s = self.bv.stats();
        s += &self.fp.stats();
        s
    }
}
