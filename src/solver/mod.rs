//! The solver layer: decides conjunctions of width-1 constraints over the
//! expression DAG.
//!
//! Everything speaks one small trait, [`Solver`]. Backends implement it
//! (`z3_backend.rs`: bit-vector queries in process; `process.rs` +
//! `smtlib.rs`: bit-precise floating point through an SMT-LIB solver
//! process), and the other layers are decorators over it, each usable and
//! testable alone: `independence.rs` (slicing into independent parts),
//! `cache.rs` (result cache and counterexample reuse), `dispatch.rs`
//! (BV-only queries to Z3, FP queries to the FP backend), `portfolio.rs`
//! (BV queries Z3 cannot decide within a budget go to Bitwuzla), `dump.rs`
//! (`--dump-queries`: each backend's queries written as SMT-LIB); `given_rounds.rs`
//! holds both backends' guesses of given bytes to the given ones. `stack.rs` builds
//! the default chain. "Unknown" (including timeouts) is an ordinary result.

pub mod budget;
mod cache;
mod dispatch;
mod dump;
mod given_rounds;
mod independence;
mod model_check;
mod portfolio;
mod process;
mod smtlib;
mod smtlib_fp;
mod stack;
mod unknown;
mod z3_backend;

pub use cache::CachingSolver;
pub use dispatch::Dispatcher;
pub use dump::{DumpingSolver, QueryDump};
pub use independence::IndependenceSolver;
pub use model_check::{complete_assignment, model_satisfies};
pub use portfolio::{Portfolio, FIRST_BUDGET};
pub use process::{SmtProcessConfig, SmtProcessSolver, SmtSolverKind};
pub use smtlib::{print_query, SmtScript};
pub use stack::{default_solver, solver_stack};
pub use unknown::{Unknown, UnknownKind};
pub use z3_backend::Z3Solver;

use crate::assumptions::Assumptions;
use crate::expr::{Assignment, ExprId};
use std::ops::AddAssign;
use std::time::Duration;

/// A satisfiability question: is there an input assignment making every
/// path constraint and the goal true? All constraints have width 1.
///
/// The goal (e.g. "the two sides differ") is kept apart from the path
/// condition so that layers can slice away path constraints unrelated to it.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// Constraints of the path (each of width 1).
    pub path: Vec<ExprId>,
    /// The property asked about, if any (e.g. "the two sides differ").
    pub goal: Option<ExprId>,
    /// Per-query time limit; `None` means no limit.
    pub timeout: Option<Duration>,
    /// Per-query work limit in the backend's own deterministic units (Z3's
    /// `rlimit`); running out is Unknown, whatever the machine's load.
    pub resource_limit: Option<u32>,
    /// The deciding budget of a query any backend may answer, in Z3 work
    /// units (`--query-budget`; see [`budget`]): Z3 counts it as its
    /// `rlimit`, cvc5 gets it converted to its own units, and Bitwuzla,
    /// which counts none, gets the CPU time these units take Z3. Unlike
    /// `resource_limit`, it does not keep the query with Z3.
    pub deciding_budget: Option<u32>,
    /// Opt-in floating-point assumptions (README, Assumptions); those that
    /// restrict values are encoded on every FP operation's operands and
    /// result (FBin, FUn, Fma, IntToFp, FpConvert).
    pub assumptions: Assumptions,
}

impl Query {
    /// A query with no limits and no assumptions.
    pub fn new(path: Vec<ExprId>, goal: Option<ExprId>) -> Self {
        Query { path, goal, ..Default::default() }
    }

    /// A query whose constraints all sit in the path (no distinguished goal).
    pub fn all(constraints: Vec<ExprId>) -> Self {
        Query::new(constraints, None)
    }

    /// Limits the query to `t` of wall-clock time.
    pub fn with_timeout(mut self, t: Duration) -> Self {
        self.timeout = Some(t);
        self
    }

    /// Limits the query to `units` of the backend's deterministic work.
    pub fn with_resource_limit(mut self, units: u32) -> Self {
        self.resource_limit = Some(units);
        self
    }

    /// Decides the query within `units` of deterministic work, on any backend.
    pub fn with_deciding_budget(mut self, units: u32) -> Self {
        self.deciding_budget = Some(units);
        self
    }

    /// Encodes these floating-point assumptions.
    pub fn with_assumptions(mut self, a: Assumptions) -> Self {
        self.assumptions = a;
        self
    }

    /// Path constraints followed by the goal.
    pub fn constraints(&self) -> Vec<ExprId> {
        let mut v = self.path.clone();
        v.extend(self.goal);
        v
    }

    /// The same options with other constraints.
    pub fn with_constraints(&self, path: Vec<ExprId>, goal: Option<ExprId>) -> Query {
        Query {
            path,
            goal,
            timeout: self.timeout,
            resource_limit: self.resource_limit,
            deciding_budget: self.deciding_budget,
            assumptions: self.assumptions,
        }
    }
}

/// The answer to a [`Query`].
#[derive(Clone, Debug)]
pub enum SolverResult {
    /// Satisfiable; the assignment gives every input byte and fresh value the
    /// query mentions, and `expr::evaluate` makes every constraint 1.
    Sat(Assignment),
    /// No assignment satisfies the query.
    Unsat,
    /// The solver gave up; the reason says why (timeout, work budget,
    /// unsupported construct, process failure, ...).
    Unknown(Unknown),
}

impl SolverResult {
    /// Whether the answer is satisfiable.
    pub fn is_sat(&self) -> bool {
        matches!(self, SolverResult::Sat(_))
    }
    /// Whether the answer is unsatisfiable.
    pub fn is_unsat(&self) -> bool {
        matches!(self, SolverResult::Unsat)
    }
    /// Whether the solver gave up.
    pub fn is_unknown(&self) -> bool {
        matches!(self, SolverResult::Unknown(_))
    }
}

/// Counters of a solver chain; each layer adds its own to its inner one's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SolverStats {
    /// Queries that reached the in-process Z3 backend.
    pub z3_queries: u64,
    /// Queries that reached the SMT-LIB process (FP) backend.
    pub fp_queries: u64,
    /// Queries answered from the result cache.
    pub cache_hits: u64,
    /// Queries answered by re-evaluating an earlier model.
    pub model_reuse_hits: u64,
    /// Independent parts solved separately by the independence layer.
    pub independent_parts: u64,
    /// Queries answered satisfiable.
    pub sat: u64,
    /// Queries answered unsatisfiable.
    pub unsat: u64,
    /// Queries the solver gave up on.
    pub unknown: u64,
    /// Time spent inside backends.
    pub solver_time: Duration,
}

impl AddAssign<&SolverStats> for SolverStats {
    fn add_assign(&mut self, o: &SolverStats) {
        self.z3_queries += o.z3_queries;
        self.fp_queries += o.fp_queries;
        self.cache_hits += o.cache_hits;
        self.model_reuse_hits += o.model_reuse_hits;
        self.independent_parts += o.independent_parts;
        self.sat += o.sat;
        self.unsat += o.unsat;
        self.unknown += o.unknown;
        self.solver_time += o.solver_time;
    }
}

impl SolverStats {
    /// Counts one backend answer.
    pub(crate) fn count(&mut self, r: &SolverResult) {
        match r {
            SolverResult::Sat(_) => self.sat += 1,
            SolverResult::Unsat => self.unsat += 1,
            SolverResult::Unknown(_) => self.unknown += 1,
        }
    }
}

/// A decision procedure for [`Query`]s over an [`crate::expr::ExprPool`].
pub trait Solver {
    /// Answers a query about expressions of `pool`.
    fn check(&mut self, pool: &crate::expr::ExprPool, query: &Query) -> SolverResult;
    /// The counters of this solver and the layers under it.
    fn stats(&self) -> SolverStats;
}

impl<S: Solver + ?Sized> Solver for Box<S> {
    fn check(&mut self, pool: &crate::expr::ExprPool, query: &Query) -> SolverResult {
        (**self).check(pool, query)
    }
    fn stats(&self) -> SolverStats {
        (**self).stats()
    }
}
