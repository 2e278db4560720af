//! The default solver chain: independence -> cache -> dispatch to the
//! bit-vector portfolio (Z3 in process, then Bitwuzla) or the SMT-LIB
//! process (FP). Each layer can also be used alone.

use super::{
    CachingSolver, Dispatcher, IndependenceSolver, Portfolio, QueryDump, SmtProcessConfig, SmtProcessSolver, SmtSolverKind, Solver,
    Z3Solver,
};

/// Builds the default chain with the given FP backend configuration; both
/// solvers watch its memory ceiling.
pub fn default_solver(fp: SmtProcessConfig) -> Box<dyn Solver> {
    solver_stack(fp, None)
}

/// The default chain, with every query that reaches a backend written to
/// `dump` when one is given (`--dump-queries`).
pub fn solver_stack(fp: SmtProcessConfig, dump: Option<QueryDump>) -> Box<dyn Solver> {
    let z3 = Z3Solver::with_ceiling(fp.ceiling.clone());
    let bitwuzla = SmtProcessSolver::new(SmtProcessConfig { ceiling: fp.ceiling.clone(), ..SmtProcessConfig::bitwuzla() });
    let Some(dump) = dump else {
        let bv = Portfolio::new(z3, bitwuzla);
        return Box::new(IndependenceSolver::new(CachingSolver::new(Dispatcher::new(bv, SmtProcessSolver::new(fp)))));
    };
    let fp_name = match fp.kind {
        SmtSolverKind::Cvc5 => "cvc5 (process, bit-vectors and floating point)",
        SmtSolverKind::Z3 => "z3 (process, bit-vectors and floating point)",
        SmtSolverKind::Bitwuzla => "bitwuzla (process, bit-vectors and floating point)",
    };
    let bv = Portfolio::new(dump.wrap(z3, "z3 (in process, bit-vectors)"), dump.wrap(bitwuzla, "bitwuzla (process, bit-vectors)"));
    let dispatch = Dispatcher::new(bv, dump.wrap(SmtProcessSolver::new(fp), fp_name));
    Box::new(IndependenceSolver::new(CachingSolver::new(dispatch)))
}
