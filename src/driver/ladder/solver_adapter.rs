//! Connects the solver stack (solver/) to the decision ladder (check/):
//! builds the default chain for a config and answers `Backend::check` with
//! the run's deciding budget (work units, `--query-budget`), the user's
//! time cap (`--query-timeout`, none by default) and floating-point
//! assumptions. With `--max-time`, every query's timeout is the time left
//! at most, so the run never
//! overshoots its limit by a query; a query cut short by the limit marks
//! the run as stopped by it (`deadline_hit`).

use super::query_ticker::{QueryDescription, QueryTicker};
use crate::assumptions::Assumptions;
use crate::check::{Backend, Feasibility};
use crate::config::{Config, FpSolverKind};
use crate::expr::{ExprId, ExprPool};
use crate::process::memory_ceiling::MemoryCeiling;
use crate::solver::{solver_stack, Query, QueryDump, SmtProcessConfig, Solver, SolverResult, Unknown, UnknownKind};
use std::time::{Duration, Instant};

/// The executor's satisfiability backend: the solver stack with the run's
/// timeout, assumptions and `--max-time` deadline.
pub struct SolverBackend {
    solver: Box<dyn Solver>,
    /// The user's wall-clock cap of one query (`--query-timeout`), if any.
    timeout: Option<Duration>,
    /// The deciding budget of one query in work units (`--query-budget`).
    budget: Option<u32>,
    assumptions: Assumptions,
    /// End of the run's `--max-time`, if any.
    deadline: Option<Instant>,
    /// A query was refused or cut short by the deadline.
    deadline_hit: bool,
    /// `--progress`: a ticker runs while each query does.
    progress: bool,
    /// When the backend was built, and when it last printed a progress line.
    started: Instant,
    last_line: Instant,
}

/// Time between two progress lines while a check asks many short queries
/// (the executor's own line stops while a check is decided).
const PROGRESS_EVERY: Duration = Duration::from_secs(3);

/// Why a query was not answered when the run's time was up.
pub const DEADLINE_REASON: &str = "the --max-time limit was reached during this query";

impl SolverBackend {
    /// The default solver chain for `config` (its FP solver, timeout and
    /// assumptions), its solvers watching `ceiling`.
    pub fn new(config: &Config, ceiling: MemoryCeiling) -> Self {
        let fp = match config.fp_solver {
            FpSolverKind::Cvc5 => SmtProcessConfig::cvc5(),
            FpSolverKind::Z3 => SmtProcessConfig::z3(),
        };
        let fp = SmtProcessConfig { resource_limit: config.fp_solver_budget, ceiling, ..fp };
        SolverBackend {
            solver: solver_stack(fp, config.dump_queries.clone().map(QueryDump::new)),
            timeout: config.query_timeout,
            budget: config.query_budget,
            assumptions: config.assumptions,
            deadline: config.max_time.map(|t| Instant::now() + t),
            deadline_hit: false,
            progress: config.progress,
            started: Instant::now(),
            last_line: Instant::now(),
        }
    }

    /// With `--progress`, a line every few seconds while queries come: a
    /// check that asks hundreds of short queries (sweeping) is no silence.
    fn keep_progress_coming(&mut self) {
        if self.progress && self.last_line.elapsed() >= PROGRESS_EVERY {
            self.last_line = Instant::now();
            eprintln!("symcross: deciding a check: {} solver queries so far, {:.1}s", self.queries(), self.started.elapsed().as_secs_f64());
        }
    }

    /// The timeout of the next query (none when neither the user's cap nor
    /// `--max-time` gives one), and whether the deadline set it; `None`
    /// when no time is left.
    fn next_timeout(&self) -> Option<(Option<Duration>, bool)> {
        let Some(deadline) = self.deadline else { return Some((self.timeout, false)) };
        let left = deadline.saturating_duration_since(Instant::now());
        match self.timeout {
            _ if left < Duration::from_millis(1) => None,
            Some(t) if t <= left => Some((Some(t), false)),
            _ => Some((Some(left), true)),
        }
    }

    /// A query of `path` and `goal` with the run's limits and assumptions.
    fn query(&self, path: &[ExprId], goal: ExprId, timeout: Option<Duration>) -> Query {
        let mut q = Query::new(path.to_vec(), Some(goal)).with_assumptions(self.assumptions);
        q.timeout = timeout;
        q
    }
}

impl SolverBackend {
    /// The query was refused or cut short by the run's `--max-time`.
    fn stopped_by_deadline(&mut self) -> Feasibility {
        self.deadline_hit = true;
        Feasibility::Unknown(Unknown::new(UnknownKind::Deadline, DEADLINE_REASON))
    }

    /// The solver's answer as the ladder reads it, for a query whose
    /// timeout the deadline shortened (`clipped`) or not.
    fn feasibility(&mut self, result: SolverResult, clipped: bool) -> Feasibility {
        match result {
            SolverResult::Sat(m) => Feasibility::Sat(m),
            SolverResult::Unsat => Feasibility::Unsat,
            // Only a timeout of a query the deadline shortened is the
            // deadline's doing; any other reason stands as it is.
            SolverResult::Unknown(why) if clipped && why.kind == UnknownKind::Timeout => self.stopped_by_deadline(),
            SolverResult::Unknown(why) => Feasibility::Unknown(why),
        }
    }
}

fn answer_name(r: &SolverResult) -> &'static str {
    match r {
        SolverResult::Sat(_) => "sat",
        SolverResult::Unsat => "unsat",
        SolverResult::Unknown(_) => "unknown",
    }
}

/// Distinct expression nodes of a query, for the log (bounded walk).
fn query_nodes(pool: &ExprPool, path: &[ExprId], goal: ExprId) -> usize {
    let mut roots = path.to_vec();
    roots.push(goal);
    crate::check::dag_size(pool, &roots, crate::check::LOGGED_SIZE_CAP)
}

impl Backend for SolverBackend {
    fn check(&mut self, pool: &ExprPool, path: &[ExprId], goal: ExprId) -> Feasibility {
        let Some((timeout, clipped)) = self.next_timeout() else {
            return self.stopped_by_deadline();
        };
        self.keep_progress_coming();
        let mut q = self.query(path, goal, timeout);
        q.deciding_budget = self.budget;
        let number = self.queries() + 1;
        let description = QueryDescription { number, path_constraints: path.len(), timeout, budget: self.budget };
        let _ticker = self.progress.then(|| QueryTicker::start(description));
        let started = Instant::now();
        let result = self.solver.check(pool, &q);
        tracing::debug!(
            query = number,
            path_constraints = path.len(),
            nodes = query_nodes(pool, path, goal),
            seconds = started.elapsed().as_secs_f64(),
            answer = answer_name(&result),
            reached_solver = self.queries() >= number,
            "solver query"
        );
        self.feasibility(result, clipped)
    }

    fn check_budgeted(&mut self, pool: &ExprPool, path: &[ExprId], goal: ExprId, units: u32) -> Feasibility {
        let Some((timeout, clipped)) = self.next_timeout() else {
            return self.stopped_by_deadline();
        };
        self.keep_progress_coming();
        let q = self.query(path, goal, timeout).with_resource_limit(units);
        let (started, before) = (Instant::now(), tracing::enabled!(tracing::Level::DEBUG).then(|| self.queries()));
        let result = self.solver.check(pool, &q);
        tracing::debug!(
            budget_units = units,
            path_constraints = path.len(),
            nodes = query_nodes(pool, path, goal),
            seconds = started.elapsed().as_secs_f64(),
            answer = answer_name(&result),
            reached_solver = before.is_some_and(|b| self.queries() > b),
            "solver query (budgeted)"
        );
        self.feasibility(result, clipped)
    }

    fn deadline_hit(&self) -> bool {
        self.deadline_hit
    }

    fn stop_requested(&self) -> bool {
        crate::process::interrupt::requested() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn queries(&self) -> u64 {
        let s = self.solver.stats();
        s.z3_queries + s.fp_queries
    }
}
