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
    pub fn new(bv: B, fp: F) -> Self {
        Dispatcher { bv, fp }
    }
}

impl<B: Solver, F: Solver> Solver for Dispatcher<B, F> {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolverResult {
        if query.constraints().iter().any(|&c| pool.mentions_fp(c)) {
            self.fp.check(pool, query)
        } else {
            self.bv.check(pool, query)
        }
    }

    fn stats(&self) -> SolverStats {
        let mut s = self.bv.stats();
        s += &self.fp.stats();
        s
    }
}
