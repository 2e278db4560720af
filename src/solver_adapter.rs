//! Connects the solver stack (solver/) to the decision ladder (check/):
//! builds the default chain for a config and answers `Backend::check` with
//! the run's timeout and floating-point assumptions.

use crate::check::{Backend, Feasibility};
use crate::config::{Config, FpSolverKind};
use crate::expr::{ExprId, ExprPool};
use crate::solver::{default_solver, FpAssumptions, Query, SmtProcessConfig, Solver, SolverResult};
use std::time::Duration;

pub struct SolverBackend {
    solver: Box<dyn Solver>,
    timeout: Duration,
    assumptions: FpAssumptions,
}

impl SolverBackend {
    pub fn new(config: &Config) -> Self {
        let fp = match config.fp_solver {
            FpSolverKind::Cvc5 => SmtProcessConfig::cvc5(),
            FpSolverKind::Z3 => SmtProcessConfig::z3(),
        };
        let a = config.assumptions;
        SolverBackend {
            solver: default_solver(fp),
            timeout: config.query_timeout,
            assumptions: FpAssumptions { finite: a.finite, ordered: a.ordered, positive_zero: a.positive_zero },
        }
    }
}

impl Backend for SolverBackend {
    fn check(&mut self, pool: &ExprPool, path: &[ExprId], goal: ExprId) -> Feasibility {
        let q = Query::new(path.to_vec(), Some(goal)).with_timeout(self.timeout).with_assumptions(self.assumptions);
        match self.solver.check(pool, &q) {
            SolverResult::Sat(m) => Feasibility::Sat(m),
            SolverResult::Unsat => Feasibility::Unsat,
            SolverResult::Unknown(why) => Feasibility::Unknown(why),
        }
    }

    fn queries(&self) -> u64 {
        let s = self.solver.stats();
        s.z3_queries + s.fp_queries
    }
}
