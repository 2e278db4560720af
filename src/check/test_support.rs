//! A backend for the ladder's unit tests: Z3 in this process, each
//! question counted, budgets honoured as the program's backend does.

use super::{Backend, Feasibility};
use crate::expr::{ExprId, ExprPool};
use crate::solver::{Query, Solver, SolverResult, Z3Solver};

/// Z3 behind the `Backend` trait, counting the questions that reach it.
#[derive(Default)]
pub(super) struct Z3Referee {
    z3: Z3Solver,
    pub asked: u64,
}

impl Z3Referee {
    fn answer(&mut self, pool: &ExprPool, query: Query) -> Feasibility {
        self.asked += 1;
        match self.z3.check(pool, &query) {
            SolverResult::Sat(m) => Feasibility::Sat(m),
            SolverResult::Unsat => Feasibility::Unsat,
            SolverResult::Unknown(why) => Feasibility::Unknown(why),
        }
    }
}

impl Backend for Z3Referee {
    fn check(&mut self, pool: &ExprPool, path: &[ExprId], goal: ExprId) -> Feasibility {
        self.answer(pool, Query::new(path.to_vec(), Some(goal)))
    }
    fn check_budgeted(&mut self, pool: &ExprPool, path: &[ExprId], goal: ExprId, units: u32) -> Feasibility {
        self.answer(pool, Query::new(path.to_vec(), Some(goal)).with_resource_limit(units))
    }
    fn queries(&self) -> u64 {
        self.asked
    }
}
