//! The bit-precise floating-point backend: prints the query as SMT-LIB
//! (`smtlib.rs`), runs a solver process (cvc5 by default, z3 selectable) and
//! reads the answer and the model back.
//!
//! Both the solver's own limit and our wall clock bound the time: past the
//! deadline the child is killed and the result is Unknown("timeout ..."),
//! never a hang. Process failures (missing binary, crash, garbage output)
//! are Unknown too, with the reason, because "could not decide" is what
//! they mean to the caller.

use super::model_check::finish_model;
use super::smtlib::{print_query, ModelVar, SmtScript};
use super::{Query, Solver, SolverResult, SolverStats, Unknown, UnknownKind};
use crate::expr::{Assignment, ExprPool};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Which SMT-LIB solver runs the FP queries.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SmtSolverKind {
    /// cvc5.
    Cvc5,
    /// Z3, as a separate process.
    Z3,
    /// Bitwuzla, through its Python bindings (`bitwuzla_shim.py`).
    Bitwuzla,
}

/// How to run the solver process.
#[derive(Clone, Debug)]
pub struct SmtProcessConfig {
    /// Which solver it is (their options and outputs differ).
    pub kind: SmtSolverKind,
    /// The executable; default `cvc5` or `z3` from PATH.
    pub program: PathBuf,
    /// Wall-clock limit used when a query has none (default 60 s).
    pub default_timeout: Duration,
    /// Grace given to the solver past its own limit before we kill it.
    pub kill_grace: Duration,
    /// A work budget per query in the solver's own deterministic units
    /// (cvc5 `--rlimit-per`, z3 `rlimit`), on top of the time limit: the
    /// answer then does not depend on the machine's load (the proofs of
    /// rewrite rules, rule_proof/prove.rs). `None`: time only.
    pub resource_limit: Option<u32>,
    /// The run's `--max-memory` ceiling, watched while the solver runs
    /// (none by default).
    pub ceiling: crate::process::memory_ceiling::MemoryCeiling,
}

impl SmtProcessConfig {
    /// cvc5 from PATH, with the default limits.
    pub fn cvc5() -> Self {
        Self::of(SmtSolverKind::Cvc5, "cvc5")
    }
    /// z3 from PATH, with the default limits.
    pub fn z3() -> Self {
        Self::of(SmtSolverKind::Z3, "z3")
    }
    /// Bitwuzla, run by python3 from PATH, with the default limits.
    pub fn bitwuzla() -> Self {
        Self::of(SmtSolverKind::Bitwuzla, "python3")
    }
    fn of(kind: SmtSolverKind, program: &str) -> Self {
        SmtProcessConfig {
            kind,
            program: PathBuf::from(program),
            default_timeout: Duration::from_secs(60),
            kill_grace: Duration::from_millis(500),
            resource_limit: None,
            ceiling: Default::default(),
        }
    }
    fn args(&self, limit: Duration, uses_half: bool) -> Vec<String> {
        let ms = limit.as_millis().max(1);
        match self.kind {
            SmtSolverKind::Cvc5 => {
                let mut a = vec!["--lang".into(), "smt2".into(), format!("--tlimit-per={ms}")];
                // cvc5 1.0.3 only handles Float32/Float64 without it.
                if uses_half {
                    a.push("--fp-exp".into());
                }
                if let Some(units) = self.resource_limit {
                    a.push(format!("--rlimit-per={}", units.max(1)));
                }
                a
            }
            // Bitwuzla's work budget is not offered: the portfolio gives it
            // only queries without one (portfolio.rs).
            SmtSolverKind::Bitwuzla => vec!["-c".into(), BITWUZLA_SHIM.into(), ms.to_string()],
            SmtSolverKind::Z3 => {
                let mut a: Vec<String> = vec!["-in".into(), "-smt2".into(), format!("-t:{ms}"), format!("-T:{}", ms.div_ceil(1000) + 1)];
                if let Some(units) = self.resource_limit {
                    a.push(format!("rlimit={}", units.max(1)));
                }
                a
            }
        }
    }
}

/// The program python3 runs for Bitwuzla: SMT-LIB on standard input.
const BITWUZLA_SHIM: &str = include_str!("bitwuzla_shim.py");

impl Default for SmtProcessConfig {
    fn default() -> Self {
        Self::cvc5()
    }
}

/// Why a solver run produced no answer.
#[derive(Debug, Error)]
pub enum ProcessError {
    #[error("cannot start {program}: {source}")]
    Spawn { program: String, source: std::io::Error },
    #[error("{0}")]
    Timeout(String),
    #[error("I/O with the solver process: {0}")]
    Io(#[from] std::io::Error),
    #[error("unexpected solver output: {0}")]
    Output(String),
    #[error("interrupted by a signal")]
    Interrupted,
    #[error("{}", crate::process::memory_ceiling::REASON)]
    MemoryLimit,
}

impl ProcessError {
    /// The unknown answer this failure gives a query whose limit was `limit`.
    fn into_unknown(self, limit: Duration) -> Unknown {
        match self {
            ProcessError::Timeout(_) => Unknown::timeout(limit),
            ProcessError::Interrupted => Unknown::interrupted(),
            ProcessError::MemoryLimit => Unknown::memory_limit(),
            e @ (ProcessError::Spawn { .. } | ProcessError::Io(_) | ProcessError::Output(_)) => {
                Unknown::new(UnknownKind::SolverError, e.to_string())
            }
        }
    }
}

/// FP (and any other) queries decided by an SMT-LIB solver process.
pub struct SmtProcessSolver {
    config: SmtProcessConfig,
    stats: SolverStats,
}

impl SmtProcessSolver {
    /// A solver that starts one process per query.
    pub fn new(config: SmtProcessConfig) -> Self {
        SmtProcessSolver { config, stats: SolverStats::default() }
    }
}

impl Solver for SmtProcessSolver {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolverResult {
        let start = Instant::now();
        let r = self.solve(pool, query);
        self.stats.fp_queries += 1;
        self.stats.solver_time += start.elapsed();
        self.stats.count(&r);
        r
    }

    fn stats(&self) -> SolverStats {
        self.stats.clone()
    }
}

impl SmtProcessSolver {
    fn solve(&self, pool: &ExprPool, query: &Query) -> SolverResult {
        let script = print_query(pool, query);
        let limit = query.timeout.unwrap_or(self.config.default_timeout);
        // A query's own work budget (the worst-input search's raise
        // queries) applies on top of the configured one: the smaller wins.
        let mut budgeted;
        let config = match query.resource_limit {
            Some(units) if self.config.kind != SmtSolverKind::Bitwuzla => {
                budgeted = self.config.clone();
                budgeted.resource_limit = Some(self.config.resource_limit.map_or(units, |c| c.min(units)));
                &budgeted
            }
            _ => &self.config,
        };
        tracing::trace!(program = %self.config.program.display(), script_bytes = script.text.len(), "smt process: starting");
        let started = Instant::now();
        let output = match run(config, &script, limit) {
            Ok(o) => o,
            Err(e) => return SolverResult::Unknown(e.into_unknown(limit)),
        };
        let mut lines = output.splitn(2, '\n');
        let verdict = lines.next().unwrap_or("").trim();
        match verdict {
            "unsat" => SolverResult::Unsat,
            "sat" => match parse_model(lines.next().unwrap_or(""), &script.vars) {
                Ok(asg) => finish_model(pool, &query.constraints(), asg, "smt process"),
                Err(e) => SolverResult::Unknown(Unknown::new(UnknownKind::SolverError, e.to_string())),
            },
            "unknown" | "timeout" => {
                // cvc5 answers a plain `unknown` when --tlimit-per expires.
                if output.contains("timeout") || started.elapsed() + Duration::from_millis(50) >= limit {
                    SolverResult::Unknown(Unknown::timeout(limit))
                } else if config.resource_limit.is_some() {
                    // Both solvers answer a plain `unknown` when the work
                    // budget runs out.
                    SolverResult::Unknown(Unknown::new(UnknownKind::ResourceLimit, super::z3_backend::RESOURCE_LIMIT_REASON))
                } else {
                    SolverResult::Unknown(Unknown::new(UnknownKind::SolverError, format!("solver answered unknown: {}", output.trim())))
                }
            }
            _ => SolverResult::Unknown(ProcessError::Output(output.chars().take(400).collect()).into_unknown(limit)),
        }
    }
}

/// Runs the solver on `text`, killing it past `limit` plus the grace, or
/// as soon as a signal asks the run to stop (`crate::process::interrupt`).
fn run(config: &SmtProcessConfig, script: &SmtScript, limit: Duration) -> Result<String, ProcessError> {
    if crate::process::interrupt::requested() {
        return Err(ProcessError::Interrupted);
    }
    let program = config.program.display().to_string();
    let mut child = Command::new(&config.program)
        .args(config.args(limit, script.uses_half))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|source| ProcessError::Spawn { program, source })?;
    let _registered = crate::process::interrupt::register_child(child.id());
    let mut stdout = child.stdout.take().ok_or_else(|| ProcessError::Output("no stdout".into()))?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut s = String::new();
        let r = stdout.read_to_string(&mut s).map(|_| s);
        let _ = tx.send(r);
    });
    if let Some(mut stdin) = child.stdin.take() {
        // Written from a thread: a solver that does not read its input
        // must not block us past the deadline. A solver that died early
        // closes the pipe; its output says why.
        let text = script.text.clone();
        std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
    }
    let started = Instant::now();
    let deadline = limit + config.kill_grace;
    let stop = |child: &mut std::process::Child| {
        let _ = child.kill();
        let _ = child.wait();
    };
    loop {
        let left = deadline.saturating_sub(started.elapsed());
        match rx.recv_timeout(left.min(Duration::from_millis(20))) {
            Ok(r) => {
                let _ = child.wait();
                return Ok(r?);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                stop(&mut child);
                return Err(ProcessError::Output("the solver's output was lost".into()));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if crate::process::interrupt::requested() {
                    stop(&mut child);
                    return Err(ProcessError::Interrupted);
                }
                if config.ceiling.exceeded(Some(child.id())) {
                    stop(&mut child);
                    config.ceiling.trip();
                    return Err(ProcessError::MemoryLimit);
                }
                if started.elapsed() >= deadline {
                    stop(&mut child);
                    return Err(ProcessError::Timeout(format!("killed after {}ms", limit.as_millis())));
                }
            }
        }
    }
}

/// Reads `((name value) ...)` as printed by `get-value`.
fn parse_model(text: &str, vars: &[ModelVar]) -> Result<Assignment, ProcessError> {
    let tokens = tokenize(text);
    let mut values = rustc_hash::FxHashMap::default();
    let mut i = 0;
    while i + 3 < tokens.len() {
        // ( name value )  or  ( name (_ bvN W) )
        if tokens[i] == "(" && tokens[i + 1] != "(" && tokens[i + 1] != ")" {
            let name = &tokens[i + 1];
            if tokens[i + 2] == "(" && tokens.get(i + 3).map(|s| s.as_str()) == Some("_") {
                if let Some(v) = tokens.get(i + 4).and_then(|t| t.strip_prefix("bv")).and_then(|d| d.parse().ok()) {
                    values.insert(name.clone(), v);
                }
            } else if let Some(v) = parse_bv_literal(&tokens[i + 2]) {
                values.insert(name.clone(), v);
            }
        }
        i += 1;
    }
    let mut asg = Assignment::default();
    let value =
        |name: &String| values.get(name).copied().ok_or_else(|| ProcessError::Output(format!("no value for {name} in {text:.200}")));
    for var in vars {
        if let ModelVar::ReadAt { array, size, position, byte } = var {
            // The byte the model reads at the position it gives (none
            // past the end, where the read is 0).
            let (at, v) = (value(position)?, value(byte)?);
            if at >= u128::from(*size) {
                continue;
            }
            let at = at as usize;
            let bytes = asg.arrays.entry(*array).or_default();
            if bytes.len() <= at {
                bytes.resize(at + 1, 0);
            }
            bytes[at] = v as u8;
            continue;
        }
        let v = value(&var.names()[0])?;
        match *var {
            ModelVar::Byte { array, index } => {
                let bytes = asg.arrays.entry(array).or_default();
                if bytes.len() <= index as usize {
                    bytes.resize(index as usize + 1, 0);
                }
                bytes[index as usize] = v as u8;
            }
            ModelVar::Fresh { id, .. } => {
                asg.fresh.insert(id, v);
            }
            ModelVar::ReadAt { .. } => {}
        }
    }
    Ok(asg)
}

fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for ch in text.chars() {
        if ch == '(' || ch == ')' || ch.is_whitespace() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            if !ch.is_whitespace() {
                out.push(ch.to_string());
            }
        } else {
            cur.push(ch);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn parse_bv_literal(tok: &str) -> Option<u128> {
    if let Some(b) = tok.strip_prefix("#b") {
        u128::from_str_radix(b, 2).ok()
    } else if let Some(x) = tok.strip_prefix("#x") {
        u128::from_str_radix(x, 16).ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cvc5_and_z3_values() {
        let vars = vec![ModelVar::Byte { array: 0, index: 1 }, ModelVar::Fresh { id: 3, width: 16 }];
        let a = parse_model("((a0_1 #b00000101) (f3 #x00ff))", &vars).unwrap();
        assert_eq!(a.arrays[&0], vec![0, 5]);
        assert_eq!(a.fresh[&3], 255);
        let b = parse_model("((a0_1 #x07)\n (f3 (_ bv9 16)))", &vars).unwrap();
        assert_eq!(b.arrays[&0][1], 7);
        assert_eq!(b.fresh[&3], 9);
        assert!(parse_model("((a0_1 #x07))", &vars).is_err());
    }

    /// Each solver process reads an input read at a symbolic position as
    /// the array of its bytes, and its model gives the byte each read
    /// takes (none past the input's end).
    #[test]
    fn solver_processes_read_an_input_at_a_symbolic_position_as_its_bytes() {
        use crate::expr::CmpOp;
        let mut p = ExprPool::new();
        let a = p.new_array("data", 1 << 20);
        let i = p.fresh(64);
        let read = p.input_at(a, i);
        let byte3 = p.input_byte(a, 3);
        let (three, nine, seven) = (p.constant(64, 3), p.constant(8, 9), p.constant(8, 7));
        let (at_three, is_nine, read_nine) = (p.eq(i, three), p.eq(byte3, nine), p.eq(read, nine));
        let not_nine = p.not(read_nine);
        let far = p.constant(64, 1_000_000);
        let j = p.fresh(64);
        let at = p.add(j, far);
        let big = p.constant(64, 1 << 20);
        let inside = p.cmp(CmpOp::Ult, at, big);
        let other = p.input_at(a, at);
        let other_seven = p.eq(other, seven);
        let available = |program: &str, probe: &[&str]| Command::new(program).args(probe).output().is_ok_and(|o| o.status.success());
        for (config, probe) in [
            (SmtProcessConfig::cvc5(), vec!["--version"]),
            (SmtProcessConfig::z3(), vec!["--version"]),
            (SmtProcessConfig::bitwuzla(), vec!["-c", "import bitwuzla"]),
        ] {
            let name = format!("{:?}", config.kind);
            if !available(&config.program.display().to_string(), &probe) {
                eprintln!("{name} not installed: skipped");
                continue;
            }
            let mut solver = SmtProcessSolver::new(config);
            let unsat = Query::all(vec![is_nine, at_three, not_nine]);
            assert!(solver.check(&p, &unsat).is_unsat(), "{name}: byte 3 is 9 and the read is at 3");
            let q = Query::all(vec![is_nine, read_nine, other_seven, inside]);
            let SolverResult::Sat(m) = solver.check(&p, &q) else { panic!("{name}: satisfiable") };
            let k = crate::expr::evaluate(&p, at, &m) as usize;
            assert_eq!((m.arrays[&a][3], m.arrays[&a][k]), (9, 7), "{name}");
        }
    }
}
