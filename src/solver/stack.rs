//! The default solver chain: independence -> cache -> dispatch to Z3 (BV)
//! or the SMT-LIB process (FP). Each layer can also be used alone.

use super::{
    CachingSolver, Dispatcher, IndependenceSolver, QueryDump, SmtProcessConfig, SmtProcessSolver, SmtSolverKind, Solver, Z3Solver,
};

/// Builds the default chain with the given FP backend configuration; both
/// solvers watch its memory ceiling.
pub fn default_solver(fp: SmtProcessConfig) -> Box<dyn Solver> {
    solver_stack(fp, None)
}

/// The default chain, with every query that reaches a backend written to
/// `dump` when one is given (`--dump-queries`).
pub fn solver_stack(fp: SmtProcessConfig, dump: Option<QueryDump>) -> Box<dyn Solver> {
    let bv = Z3Solver::with_ceiling(fp.ceiling.clone());
    let Some(dump) = dump else {
        return Box::new(IndependenceSolver::new(CachingSolver::new(Dispatcher::new(bv, SmtProcessSolver::new(fp)))));
    };
    let fp_name = match fp.kind {
        SmtSolverKind::Cvc5 => "cvc5 (process, bit-vectors and floating point)",
        SmtSolverKind::Z3 => "z3 (process, bit-vectors and floating point)",
    };
    let dispatch = Dispatcher::new(dump.wrap(bv, "z3 (in process, bit-vectors)"), dump.wrap(SmtProcessSolver::new(fp), fp_name));
    Box::new(IndependenceSolver::new(CachingSolver::new(dispatch)))
}
