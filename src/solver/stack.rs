//! The default solver chain: independence -> cache -> dispatch to Z3 (BV)
//! or the SMT-LIB process (FP). Each layer can also be used alone.

use super::{CachingSolver, Dispatcher, IndependenceSolver, SmtProcessConfig, SmtProcessSolver, Solver, Z3Solver};

/// Builds the default chain with the given FP backend configuration; both
/// solvers watch its memory ceiling.
pub fn default_solver(fp: SmtProcessConfig) -> Box<dyn Solver> {
    let dispatch = Dispatcher::new(Z3Solver::with_ceiling(fp.ceiling.clone()), SmtProcessSolver::new(fp));
    Box::new(IndependenceSolver::new(CachingSolver::new(dispatch)))
}
