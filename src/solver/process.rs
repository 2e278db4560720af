//! The bit-precise floating-point backend: prints the query as SMT-LIB
//! (`smtlib.rs`), runs a solver process (cvc5 by default, z3 selectable) and
//! reads the answer and the model back.
//!
//! Both the solver's own limit and our wall clock bound the time: past the
//! deadline the child is killed and the result is Unknown("timeout ..."),
//! never a hang. Process failures (missing binary, crash, garbage output)
//! are Unknown too, with the reason, because "could not decide" is what
//! they mean to the caller.

use super::given_rounds::{GivenRounds, ReadPlace, Round};
use super::model_check::finish_model;
use super::smtlib::{print_query, ModelVar, SmtScript};
use super::{budget, Query, Solver, SolverResult, SolverStats, Unknown, UnknownKind};
use crate::expr::{Assignment, ExprPool};
use std::fmt::Write as _;
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
    /// The CPU time standing for the deciding budget ran out; the CPU
    /// time the solver had used.
    #[error("the CPU time standing for the work budget ran out")]
    CpuBudget(Duration),
}

impl ProcessError {
    /// The unknown answer this failure gives a query whose limit was `limit`.
    fn into_unknown(self, limit: Duration) -> Unknown {
        match self {
            ProcessError::Timeout(_) => Unknown::timeout(limit),
            ProcessError::Interrupted => Unknown::interrupted(),
            ProcessError::MemoryLimit => Unknown::memory_limit(),
            e @ (ProcessError::Spawn { .. } | ProcessError::Io(_) | ProcessError::Output(_) | ProcessError::CpuBudget(_)) => {
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
    /// `solve_script` on the query's script; guesses of given bytes read
    /// at symbolic positions (`InputArray::given`) are held to the given
    /// ones as Z3 in process holds them (given_rounds.rs), each held place
    /// one more assertion before the script's `check-sat`, the script run
    /// again by a new process.
    fn solve(&self, pool: &ExprPool, query: &Query) -> SolverResult {
        let mut script = print_query(pool, query);
        let mut rounds = GivenRounds::default();
        loop {
            let held = match self.solve_script(pool, query, &script, &mut rounds) {
                Ok(answer) => return answer,
                Err(held) => held,
            };
            let mut lemmas = String::new();
            for (array, at, byte) in held {
                let _ = writeln!(lemmas, "(assert (= (select arr{array} (_ bv{at} 64)) (_ bv{byte} 8)))");
            }
            lemmas.push_str("(check-sat)\n");
            script.text = script.text.replacen("(check-sat)\n", &lemmas, 1);
        }
    }

    /// The answer of `script`, or, when its model guesses a given byte
    /// other than the given one, the places to hold next (`rounds`:
    /// given_rounds.rs).
    fn solve_script(
        &self,
        pool: &ExprPool,
        query: &Query,
        script: &SmtScript,
        rounds: &mut GivenRounds,
    ) -> Result<SolverResult, ReadPlaces> {
        // Without the user's time limit a budgeted query has only a
        // backstop: its budget is what bounds it.
        let backstop = if query.deciding_budget.is_some() { budget::PROCESS_BACKSTOP } else { self.config.default_timeout };
        let limit = query.timeout.unwrap_or(backstop);
        // The deciding budget in this solver's units; the user's
        // --fp-solver-budget, when given, stands instead.
        let deciding = match self.config.kind {
            SmtSolverKind::Cvc5 => query.deciding_budget.map(budget::cvc5_units),
            SmtSolverKind::Z3 => query.deciding_budget,
            SmtSolverKind::Bitwuzla => None,
        };
        let configured = self.config.resource_limit.or(deciding);
        // A query's own work budget (the worst-input search's raise
        // queries) applies on top of the configured one: the smaller wins.
        let units = match query.resource_limit {
            Some(units) if self.config.kind != SmtSolverKind::Bitwuzla => Some(configured.map_or(units, |c| c.min(units))),
            _ => configured,
        };
        let mut budgeted;
        let config = if units == self.config.resource_limit {
            &self.config
        } else {
            budgeted = self.config.clone();
            budgeted.resource_limit = units;
            &budgeted
        };
        // Bitwuzla counts no work units: the CPU time the deciding budget
        // takes Z3 stands for them. cvc5 counts some, but not all of its
        // work: on the double product of solver_timeout_only.c, 100,000
        // units ran out in 0.7 s and 1,000,000 had not after 3.5 minutes of
        // CPU. So the process solvers that count units get a CPU backstop
        // some times what the budget stands for.
        let cpu = query.deciding_budget.map(|b| match self.config.kind {
            SmtSolverKind::Bitwuzla => budget::cpu_time(b),
            SmtSolverKind::Cvc5 | SmtSolverKind::Z3 => budget::cpu_backstop(b),
        });
        tracing::trace!(program = %self.config.program.display(), script_bytes = script.text.len(), "smt process: starting");
        let started = Instant::now();
        let output = match run(config, script, limit, cpu) {
            Ok(o) => o,
            Err(ProcessError::CpuBudget(used)) => {
                // The CPU time used is logged, not reported: it differs a
                // little from run to run, and the report must not.
                tracing::debug!(cpu_ms = used.as_millis() as u64, "smt process: stopped on its CPU time");
                let units = query.deciding_budget.unwrap_or_default();
                let how = match self.config.kind {
                    SmtSolverKind::Bitwuzla => {
                        format!(
                            " (the solver counts no work units: {} ms of its CPU time stand for them)",
                            budget::cpu_time(units).as_millis()
                        )
                    }
                    _ => " (its CPU backstop: the solver spent that much CPU without using up its own units)".to_string(),
                };
                return Ok(SolverResult::Unknown(Unknown::new(UnknownKind::CpuBudget, budget::ran_out(units, &how))));
            }
            Err(e) => return Ok(SolverResult::Unknown(e.into_unknown(limit))),
        };
        let mut lines = output.splitn(2, '\n');
        let verdict = lines.next().unwrap_or("").trim();
        Ok(match verdict {
            "unsat" => SolverResult::Unsat,
            "sat" => match parse_model(lines.next().unwrap_or(""), &script.vars) {
                Ok((mut asg, reads)) => match rounds.next(pool, reads) {
                    Round::Settled => {
                        // Given bytes are not the assignment's.
                        asg.arrays.retain(|a, _| pool.given_bytes(*a).is_none());
                        finish_model(pool, &query.constraints(), asg, "smt process")
                    }
                    Round::Hold(places) => return Err(places),
                    Round::RanOut(unknown) => SolverResult::Unknown(unknown),
                },
                Err(e) => SolverResult::Unknown(Unknown::new(UnknownKind::SolverError, e.to_string())),
            },
            "unknown" | "timeout" => {
                // cvc5 answers a plain `unknown` when --tlimit-per expires.
                if output.contains("timeout") || started.elapsed() + Duration::from_millis(50) >= limit {
                    SolverResult::Unknown(Unknown::timeout(limit))
                } else if let Some(units) = config.resource_limit {
                    // Both solvers answer a plain `unknown` when the work
                    // budget runs out; the deciding budget names itself.
                    let why = match query.deciding_budget {
                        Some(b) if units == deciding.unwrap_or_default() => budget::ran_out(b, &format!(" ({units} units of this solver)")),
                        _ => super::z3_backend::RESOURCE_LIMIT_REASON.to_string(),
                    };
                    SolverResult::Unknown(Unknown::new(UnknownKind::ResourceLimit, why))
                } else {
                    SolverResult::Unknown(Unknown::new(UnknownKind::SolverError, format!("solver answered unknown: {}", output.trim())))
                }
            }
            _ => SolverResult::Unknown(ProcessError::Output(output.chars().take(400).collect()).into_unknown(limit)),
        })
    }
}

/// Runs the solver on `text`, killing it past `limit` plus the grace, past
/// `cpu` of its CPU time, or as soon as a signal asks the run to stop
/// (`crate::process::interrupt`).
fn run(config: &SmtProcessConfig, script: &SmtScript, limit: Duration, cpu: Option<Duration>) -> Result<String, ProcessError> {
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
                // An answer that came after the CPU budget was spent (between
                // two looks) is not taken: the answer must not depend on when
                // we looked. Read before `wait`, which removes the process.
                let used = cpu.and_then(|_| cpu_time_of(child.id()));
                let _ = child.wait();
                if let (Some(c), Some(u)) = (cpu, used) {
                    if u > c {
                        return Err(ProcessError::CpuBudget(u));
                    }
                }
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
                if let Some(used) = cpu.and_then(|c| cpu_time_of(child.id()).filter(|u| *u > c)) {
                    stop(&mut child);
                    return Err(ProcessError::CpuBudget(used));
                }
                if started.elapsed() >= deadline {
                    stop(&mut child);
                    return Err(ProcessError::Timeout(format!("killed after {}ms", limit.as_millis())));
                }
            }
        }
    }
}

/// The CPU time (user and system, all threads) process `pid` has used so
/// far, from `/proc/PID/stat`; `None` where that cannot be read.
fn cpu_time_of(pid: u32) -> Option<Duration> {
    cpu_time_in(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// The CPU time in the text of a `/proc/PID/stat`: utime and stime, the
/// 14th and 15th fields, in clock ticks. The program name (2nd field, in
/// parentheses) may hold spaces, so fields are counted after its `)`.
fn cpu_time_in(stat: &str) -> Option<Duration> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // The kernel reports them in USER_HZ, 100 a second on every Linux ABI.
    Some(Duration::from_millis(ticks * 10))
}

/// The places of arrays that reads at symbolic positions take, as
/// (array, position, byte).
type ReadPlaces = Vec<ReadPlace>;

/// Reads `((name value) ...)` as printed by `get-value`, with the bytes
/// the reads at symbolic positions take.
fn parse_model(text: &str, vars: &[ModelVar]) -> Result<(Assignment, ReadPlaces), ProcessError> {
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
    let mut reads = Vec::new();
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
            reads.push((*array, at as u64, v as u8));
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
    Ok((asg, reads))
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

    /// A process solver that could not be started: skipped here, but under
    /// CI (`CI` set to `true` or `1`) set-up installs every solver, so it
    /// is a broken install and the test fails (as tests/common's
    /// `skip_or_fail_under_ci` does for the integration tests).
    fn not_installed_here(solver: &str, why: &crate::solver::Unknown) {
        let under_ci = std::env::var("CI").map(|v| v == "true" || v == "1").unwrap_or(false);
        assert!(!under_ci, "{solver} could not be started ({why}); under CI set-up installs it (scripts/setup.sh)");
        eprintln!("SKIPPED: {solver} could not be started here: {why}");
    }

    #[test]
    fn cpu_time_is_read_after_the_program_name() {
        let stat = "4242 (python3 -c x) S 1 2 3 4 5 6 7 8 9 10 150 25 0 0 20 0 1 0";
        assert_eq!(cpu_time_in(stat), Some(Duration::from_millis(1750)));
        assert_eq!(cpu_time_in("4242 (gone"), None);
        // This process has a stat of its own.
        assert!(cpu_time_of(std::process::id()).is_some());
    }

    /// Bitwuzla counts no work units: a budget far below what starting it
    /// takes runs out, on its CPU time, every time, and names itself.
    #[test]
    fn a_tiny_deciding_budget_stops_bitwuzla_by_its_cpu_time_every_time() {
        let mut p = ExprPool::new();
        let x = p.fresh(32);
        let five = p.constant(32, 5);
        let q = Query::all(vec![p.eq(x, five)]).with_deciding_budget(20);
        let mut s = SmtProcessSolver::new(SmtProcessConfig::bitwuzla());
        for _ in 0..2 {
            match s.check(&p, &q) {
                SolverResult::Unknown(u) if u.kind == UnknownKind::SolverError => return not_installed_here("Bitwuzla", &u),
                SolverResult::Unknown(u) => {
                    assert_eq!(u.kind, UnknownKind::CpuBudget, "{u}");
                    assert!(u.detail.starts_with("the deciding budget of 20 work units (--query-budget) ran out"), "{u}");
                }
                other => panic!("answered within 10 microseconds of CPU: {other:?}"),
            }
        }
    }

    /// The process solvers hold their guesses of given bytes as Z3 in
    /// process does (given_rounds.rs), so each answer is the given bytes'
    /// whatever the solver guessed first. Z3 in process decides these
    /// queries before them in the solver stack: only this test asks them.
    #[test]
    fn process_solvers_read_given_bytes_at_symbolic_positions_as_the_given_ones() {
        use crate::expr::{evaluate, CmpOp};
        let mut p = ExprPool::new();
        // Byte k is k / 257, but byte 10 * 257 is 3: of the places k * 257
        // below 16, only 3 and 10 hold equal bytes, and none holds 10.
        let mut bytes: Vec<u8> = (0..16 * 257).map(|k: u32| (k / 257) as u8).collect();
        bytes[10 * 257] = 3;
        let g = p.new_given_array("table.given", &bytes);
        let (i, j) = (p.fresh(64), p.fresh(64));
        let step = p.constant(64, 257);
        let (ii, jj) = (p.mul(i, step), p.mul(j, step));
        let (ri, rj) = (p.input_at(g, ii), p.input_at(g, jj));
        let (n, n10) = (p.constant(64, 16), p.constant(64, 10));
        let (i_in, j_in, j_below) = (p.cmp(CmpOp::Ult, i, n), p.cmp(CmpOp::Ult, j, n), p.cmp(CmpOp::Ult, j, n10));
        let ij = p.cmp(CmpOp::Ult, i, j);
        let same = p.eq(ri, rj);
        let (ten, twelve) = (p.constant(8, 10), p.constant(8, 12));
        let (is_ten, is_twelve) = (p.eq(ri, ten), p.eq(ri, twelve));
        let x = p.fresh(32);
        let five = p.constant(32, 5);
        let trivial = Query::all(vec![p.eq(x, five)]);
        for config in [SmtProcessConfig::cvc5(), SmtProcessConfig::bitwuzla(), SmtProcessConfig::z3()] {
            let kind = config.kind;
            let mut s = SmtProcessSolver::new(config);
            if let SolverResult::Unknown(u) = s.check(&p, &trivial) {
                if u.kind == UnknownKind::SolverError {
                    not_installed_here(&format!("{kind:?}"), &u);
                    continue;
                }
            }
            let SolverResult::Sat(m) = s.check(&p, &Query::all(vec![i_in, j_in, ij, same])) else { panic!("{kind:?}: satisfiable") };
            assert_eq!((evaluate(&p, i, &m), evaluate(&p, j, &m)), (3, 10), "{kind:?}");
            assert!(!m.arrays.contains_key(&g), "{kind:?}: given bytes are not the model's");
            let r = s.check(&p, &Query::all(vec![i_in, j_below, ij, same]));
            assert!(matches!(r, SolverResult::Unsat), "{kind:?}: every byte read below 10 is distinct: {r:?}");
            let r = s.check(&p, &Query::all(vec![i_in, is_ten]));
            assert!(matches!(r, SolverResult::Unsat), "{kind:?}: no place holds 10: {r:?}");
            let SolverResult::Sat(m) = s.check(&p, &Query::all(vec![i_in, is_twelve])) else { panic!("{kind:?}: satisfiable") };
            assert_eq!(evaluate(&p, i, &m), 12, "{kind:?}");
        }
    }

    #[test]
    fn parses_cvc5_and_z3_values() {
        let vars = vec![ModelVar::Byte { array: 0, index: 1 }, ModelVar::Fresh { id: 3, width: 16 }];
        let a = parse_model("((a0_1 #b00000101) (f3 #x00ff))", &vars).unwrap().0;
        assert_eq!(a.arrays[&0], vec![0, 5]);
        assert_eq!(a.fresh[&3], 255);
        let b = parse_model("((a0_1 #x07)\n (f3 (_ bv9 16)))", &vars).unwrap().0;
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
