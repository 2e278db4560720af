//! `--dump-queries DIR`: every query that reaches a backend is written to
//! DIR as an SMT-LIB 2 script (`query-00001.smt2`, ...), headed by comments
//! giving the backend that answered, its limits, the verdict and the time,
//! so that any query can be handed to another solver as it is.
//!
//! The dumper wraps each backend, below the cache and the independence
//! slicing: what is written is exactly what a solver was asked. The text is
//! the printer's (`smtlib.rs`), the one the floating-point process reads;
//! for the in-process Z3 backend it is the same question in SMT-LIB form.

use super::smtlib::print_query;
use super::{Query, Solver, SolverResult, SolverStats};
use crate::expr::ExprPool;
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Where queries are dumped; clones share the numbering, so the backends
/// of one stack write `query-00001`, `query-00002`, ... in the order they
/// were asked.
#[derive(Clone, Debug)]
pub struct QueryDump {
    dir: PathBuf,
    next: Arc<AtomicU64>,
}

impl QueryDump {
    /// Dumps into `dir`, which must exist.
    pub fn new(dir: PathBuf) -> QueryDump {
        QueryDump { dir, next: Arc::new(AtomicU64::new(1)) }
    }

    /// Wraps `inner` (answering as `backend` says, e.g. "z3 (in process)").
    pub fn wrap<S: Solver>(&self, inner: S, backend: &str) -> DumpingSolver<S> {
        DumpingSolver { inner, backend: backend.to_string(), dump: self.clone() }
    }
}

/// A backend whose queries are written to the dump directory as answered.
pub struct DumpingSolver<S> {
    inner: S,
    backend: String,
    dump: QueryDump,
}

impl<S: Solver> Solver for DumpingSolver<S> {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolverResult {
        let number = self.dump.next.fetch_add(1, Ordering::SeqCst);
        let started = Instant::now();
        let result = self.inner.check(pool, query);
        let seconds = started.elapsed().as_secs_f64();
        let path = self.dump.dir.join(format!("query-{number:05}.smt2"));
        let text = dumped_text(pool, query, &self.backend, &result, seconds);
        if let Err(e) = std::fs::write(&path, text) {
            tracing::warn!(path = %path.display(), error = %e, "--dump-queries: cannot write the query");
        }
        result
    }

    fn stats(&self) -> SolverStats {
        self.inner.stats()
    }
}

/// The verdict as the header states it.
fn verdict(result: &SolverResult) -> String {
    match result {
        SolverResult::Sat(_) => "sat".into(),
        SolverResult::Unsat => "unsat".into(),
        SolverResult::Unknown(why) => format!("unknown ({why})"),
    }
}

/// The header comments and the script of one answered query.
fn dumped_text(pool: &ExprPool, query: &Query, backend: &str, result: &SolverResult, seconds: f64) -> String {
    let mut head = String::new();
    let _ = writeln!(head, "; backend: {backend}");
    let _ = writeln!(head, "; verdict: {}", verdict(result));
    let _ = writeln!(head, "; time: {seconds:.3} s");
    let timeout = query.timeout.map_or("none".to_string(), |t| format!("{} ms", t.as_millis()));
    let budget = match (query.resource_limit, query.deciding_budget) {
        (Some(u), _) => format!("{u} units (z3 rlimit)"),
        (None, Some(u)) => format!("{u} units (deciding budget, z3 rlimit units)"),
        (None, None) => "none".to_string(),
    };
    let _ = writeln!(head, "; limits: timeout {timeout}, work budget {budget}");
    if query.assumptions.any() {
        let _ = writeln!(head, "; assumptions encoded: {}", query.assumptions);
    }
    head + &print_query(pool, query).text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{Unknown, UnknownKind};

    /// Answers unsat, or unknown when the query has a budget.
    struct Fixed;

    impl Solver for Fixed {
        fn check(&mut self, _: &ExprPool, q: &Query) -> SolverResult {
            match q.resource_limit {
                None => SolverResult::Unsat,
                Some(_) => SolverResult::Unknown(Unknown::new(UnknownKind::ResourceLimit, "budget ran out")),
            }
        }
        fn stats(&self) -> SolverStats {
            SolverStats::default()
        }
    }

    #[test]
    fn each_query_is_one_file_with_its_backend_verdict_and_script() {
        let dir = tempfile::tempdir().unwrap();
        let dump = QueryDump::new(dir.path().to_path_buf());
        let (mut a, mut b) = (dump.wrap(Fixed, "first"), dump.wrap(Fixed, "second"));
        let mut pool = ExprPool::new();
        let x = pool.input_byte(0, 0);
        let y = pool.input_byte(0, 1);
        let eq = pool.eq(x, y);
        let differ = pool.not(eq);
        a.check(&pool, &Query::new(vec![], Some(differ)));
        b.check(&pool, &Query::new(vec![], Some(differ)).with_resource_limit(7));
        let first = std::fs::read_to_string(dir.path().join("query-00001.smt2")).unwrap();
        let second = std::fs::read_to_string(dir.path().join("query-00002.smt2")).unwrap();
        assert!(first.starts_with("; backend: first\n; verdict: unsat\n; time: "), "{first}");
        assert!(first.contains("(declare-fun a0_1 () (_ BitVec 8))") && first.contains("(check-sat)"), "{first}");
        assert!(second.contains("; verdict: unknown (budget ran out)") && second.contains("work budget 7 units"), "{second}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
