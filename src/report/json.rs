//! The machine-readable report (README, JSON report). Field names and
//! values are a stable interface for CI scripts: add fields, never rename.

use super::finding::{Finding, FindingKind, Status};
use super::{Limit, RaceModeRecord};
use serde::{Deserialize, Deserializer, Serialize};

/// The overall answer of a run (`verdict` in the JSON report).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Every path finished, nothing was found, and every check reached was
    /// proved, at least one check being reached (for a kernel run alone: no
    /// race, divergence or memory error). Warnings say when it is not a
    /// proof for all inputs (no symbolic input).
    Equivalent,
    /// A memory-safety run: the program has no check, every path finished
    /// and no memory error was found. Nothing was compared, so it is not
    /// `equivalent`; it still passes (exit 0).
    #[serde(rename = "no-findings")]
    NoFindings,
    /// At least one confirmed finding (a real failure with a witness).
    Findings,
    /// Nothing confirmed was found, but the run does not prove the checks:
    /// a limit was hit, a construct could not be modelled, every finding is
    /// unconfirmed, or no check was reached (see `Report::new`).
    Inconclusive,
}

impl Verdict {
    /// The process exit status for this verdict (README, Exit status).
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Equivalent | Verdict::NoFindings => 0,
            Verdict::Findings => 1,
            Verdict::Inconclusive => 3,
        }
    }
}

/// Counters of a run (`stats` in the JSON report).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RunStats {
    /// Paths that reached their end.
    pub paths: u64,
    /// Times two paths were merged into one state.
    pub merged: u64,
    /// Instructions executed, over all paths.
    pub instructions: u64,
    /// Solver queries made.
    pub queries: u64,
    /// Wall-clock seconds of the run.
    pub seconds: f64,
    /// How many element checks each step of the ladder decided.
    pub decided: DecidedCounts,
}

/// How many element checks each ladder step decided, either way: a proof
/// and a difference found both count (a summary saying nothing was decided
/// right after a finding would contradict it). The executor counts into
/// it, and reports print and merge it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecidedCounts {
    /// Checks decided by folding: the sides are one node (`structural`).
    pub structural: u64,
    /// Checks decided by canonicalisation (reassociation, e-graph, sweeping).
    pub canonical: u64,
    /// Checks decided by the implied integer query.
    pub implied_query: u64,
    /// Differences found by evaluating both sides on sampled inputs, with
    /// the model's estimates or this CPU's (absent from reports written before it was counted).
    #[serde(default)]
    pub sampling: u64,
    /// Checks decided by the bit-precise solver.
    pub bit_precise: u64,
    /// Checks proved by reusing an earlier lane's proof under a checked
    /// renaming (absent from reports written before it was counted).
    #[serde(default)]
    pub lane_symmetry: u64,
    /// Conditions over RCP/RSQRT estimates proved by the estimate-bound
    /// analysis (absent from reports written before it was counted).
    #[serde(default)]
    pub estimate_bound: u64,
    /// Tolerance checks decided by exhaustive evaluation or error analysis
    /// (absent from reports written before they were counted).
    #[serde(default)]
    pub error_analysis: u64,
    /// Integer checks decided on every value of each element they read
    /// (absent from reports written before they were counted).
    #[serde(default)]
    pub element_evaluation: u64,
}

impl DecidedCounts {
    /// Counts the steps that decided one check's elements (an unknown
    /// answer decided nothing).
    pub fn record(&mut self, decided: &[super::DecidedBy]) {
        use super::DecidedBy;
        for d in decided {
            match d {
                DecidedBy::Structural => self.structural += 1,
                DecidedBy::Canonical => self.canonical += 1,
                DecidedBy::ImpliedQuery => self.implied_query += 1,
                // A sample with this CPU's estimates is still a sample.
                DecidedBy::Sampling | DecidedBy::CpuEstimates => self.sampling += 1,
                DecidedBy::BitPrecise => self.bit_precise += 1,
                DecidedBy::LaneSymmetry => self.lane_symmetry += 1,
                DecidedBy::EstimateBound => self.estimate_bound += 1,
                DecidedBy::Exhaustive | DecidedBy::ErrorAnalysis => self.error_analysis += 1,
                DecidedBy::ElementEvaluation => self.element_evaluation += 1,
                DecidedBy::Timeout | DecidedBy::SolverUnknown => {}
            }
        }
    }
}

impl RunStats {
    /// Adds the counts of another run (everything but the seconds, which
    /// add up for runs one after the other and not for shards run side by
    /// side).
    pub fn add_counts(&mut self, o: &RunStats) {
        self.paths += o.paths;
        self.merged += o.merged;
        self.instructions += o.instructions;
        self.queries += o.queries;
        self.decided += &o.decided;
    }
}

impl std::ops::AddAssign<&DecidedCounts> for DecidedCounts {
    fn add_assign(&mut self, o: &DecidedCounts) {
        self.structural += o.structural;
        self.canonical += o.canonical;
        self.implied_query += o.implied_query;
        self.sampling += o.sampling;
        self.bit_precise += o.bit_precise;
        self.lane_symmetry += o.lane_symmetry;
        self.estimate_bound += o.estimate_bound;
        self.error_analysis += o.error_analysis;
        self.element_evaluation += o.element_evaluation;
    }
}

/// What a run actually exercised: how many inputs were symbolic and how
/// many checks were reached. A verdict claims no more than this supports
/// (README, Reading a report).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Coverage {
    /// Symbolic inputs created (`symcross_make_symbolic` and its aliases
    /// with a non-zero size; symbolic kernel arguments for `race`).
    pub symbolic_inputs: u64,
    /// Checks reached: elements compared by `symcross_check_equal`, and
    /// evaluations of `assert()`, `klee_assert()` or a condition guarding
    /// `abort()`.
    pub checks: u64,
    /// Paths that ended normally without reaching any check.
    pub paths_without_check: u64,
    /// Whether the program contains a check at all (a call of
    /// `symcross_check_equal`, `klee_assert`, `__assert_fail` or `abort`).
    pub program_has_checks: bool,
    /// `race` only: accesses to global or local memory seen by the race
    /// detector.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_accesses: Option<u64>,
}

/// Something the reader of a verdict must know: why it is not a proof, or
/// what it does not cover. `kind` is stable; `message` is for people.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    /// Stable identifier (`no-symbolic-input`, `split-uncertain`, ...).
    #[serde(deserialize_with = "static_str")]
    pub kind: StaticName,
    /// The explanation, for people.
    pub message: String,
}

/// The whole machine-readable report of one `check` or `race` run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    /// Always `symcross`.
    #[serde(deserialize_with = "static_str")]
    pub tool: StaticName,
    /// The version of the tool that wrote it.
    #[serde(deserialize_with = "static_str")]
    pub version: StaticName,
    /// What was checked (the input files' names).
    pub input: String,
    /// The floating-point assumptions enabled (`--assume`).
    pub assumptions: Vec<String>,
    /// How floating point was read, in words, for a verdict that may
    /// involve a NaN (the `--nan` rule: "all NaNs compare equal ...").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub semantics: Vec<String>,
    /// The overall answer.
    pub verdict: Verdict,
    /// Counters of the run.
    pub stats: RunStats,
    /// What was found, in the order found.
    pub findings: Vec<Finding>,
    /// Which limit stopped exploration early (`time`, `paths`, `memory`,
    /// `interrupted` for SIGINT/SIGTERM, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<Limit>,
    /// For `symcross race`: which mode decided (`enumerate` or `pair`) and
    /// over how many work-items, written as one line of text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<RaceModeRecord>,
    /// What the run exercised (absent for `symcross run`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
    /// Why the verdict is weaker than it may look, one entry per reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
    /// User rules (`--rules` with `--trust-rules`) that were used without
    /// being proved sound; when non-empty the whole report rests on them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unverified_rules: Vec<String>,
    /// How the inputs were built and run (`symcross check` only), so that
    /// `symcross replay` rebuilds exactly what was checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<BuildRecord>,
    /// The symbolic inputs in the order the program made them (witnesses
    /// list them by name; KLEE's replay wants this order).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symbolic_inputs: Vec<SymbolicInput>,
    /// `check --shard K/N`: the report covers only shard K of N of the
    /// path tree; `symcross merge` of the N reports covers the harness.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardRecord>,
    /// `check`: what running the confirmed findings' witnesses natively
    /// showed, counted (each finding's `native` says what it showed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub native_replay: Option<NativeReplaySummary>,
    /// The result of every element of every tolerance check
    /// (`symcross_check_close`, `--tolerance`): verdict for the bound,
    /// worst input found, samples of the error plot.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tolerance: Vec<crate::report::ToleranceResult>,
}

/// The native replay of a `check` run's findings, counted.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NativeReplaySummary {
    /// Where the witnesses ran (`this CPU`, `qemu-aarch64`), or why none did.
    pub on: String,
    /// Findings the native run showed (confirmed).
    pub reproduced: u64,
    /// Findings the native run did not show: the model and the CPU
    /// disagree on the witness (unconfirmed).
    pub not_reproduced: u64,
    /// Findings no native run could check (confirmed by the model only).
    pub confirmed_by_model: u64,
    /// Time spent building and running, in seconds.
    pub seconds: f64,
    /// The replay executable came from the cache (`replay-exe/`): no
    /// clang or linker ran for it.
    #[serde(default)]
    pub build_cached: bool,
}

/// Which part of a harness's path tree a report covers (`check --shard`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardRecord {
    /// K, from 1.
    pub index: u32,
    /// N.
    pub count: u32,
}

/// One `make_symbolic` (or `klee_int`, ...) input: its unique name and size.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SymbolicInput {
    /// Its unique name, as witnesses use it.
    pub name: String,
    /// Its size in bytes.
    pub bytes: u32,
}

/// Everything `symcross replay` needs to rebuild the checked program:
/// the inputs and compile options as the user gave them, the directory
/// they are relative to, the entry function, the assumptions and the
/// version of symcross that wrote the report.
/// Every field has a default when read, so that reports written before a
/// field existed still load (`symcross replay` reads old reports).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct BuildRecord {
    /// The input files, as given on the command line.
    pub inputs: Vec<String>,
    /// A digest of each input's content when it was checked
    /// (`fnv1a64:` and 16 hex digits), so that replay can tell when an
    /// input has changed since.
    pub input_digests: Vec<String>,
    /// The working directory of the run: relative `inputs` and
    /// `include_dirs` are relative to it.
    pub directory: String,
    /// `-I` directories, as given.
    pub include_dirs: Vec<String>,
    /// `-D` definitions (`NAME` or `NAME=VALUE`).
    pub defines: Vec<String>,
    /// `--cflags`, split into arguments.
    pub cflags: Vec<String>,
    /// The flags the user's code was compiled with that decide what it
    /// computes: the optimisation level and floating-point contraction,
    /// with where each came from (`-O0 (default)`, `-ffp-contract=on
    /// (--cflags)`).
    #[serde(default)]
    pub compiled_with: Vec<String>,
    /// How the runtime model was compiled (fixed flags, not the user's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runtime_flags: Vec<String>,
    /// The target triple (`--target`); `null` for the host's.
    pub target: Option<String>,
    /// The function the run started in (`--entry`; `main` in reports
    /// written before it was recorded).
    #[serde(default = "main_entry")]
    pub entry: String,
    /// The assumptions enabled (`--assume`), as in `assumptions`.
    pub assumptions: Vec<String>,
    /// `--nan` (`equal` or `exact`); absent in reports written before the
    /// flag existed, which meant `equal`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nan: Option<String>,
    /// The version of symcross that wrote the report.
    pub symcross_version: String,
}

fn main_entry() -> String {
    "main".into()
}

impl BuildRecord {
    /// The directory relative inputs are relative to, when recorded.
    pub fn run_directory(&self) -> Option<&std::path::Path> {
        Some(std::path::Path::new(&self.directory)).filter(|d| !d.as_os_str().is_empty())
    }
}

impl Report {
    /// Builds a report and decides its verdict:
    /// - `findings` when at least one finding other than `unsupported` is
    ///   confirmed;
    /// - otherwise `inconclusive` when a limit stopped the run, when there
    ///   are findings (all unconfirmed, or `unsupported` constructs), or
    ///   when the run was vacuous (see `vacuity`);
    /// - otherwise `equivalent`.
    ///
    /// `coverage` is `None` for concrete runs (`symcross run`), which are
    /// not judged for vacuity.
    pub fn new(
        input: String,
        assumptions: Vec<String>,
        findings: Vec<Finding>,
        stats: RunStats,
        limit: Option<Limit>,
        coverage: Option<Coverage>,
    ) -> Report {
        let mut warnings = coverage.as_ref().map(|c| vacuity(c, stats.paths)).unwrap_or_default();
        let decisive = findings.iter().any(|f| f.status.is_confirmed() && f.kind != FindingKind::Unsupported && !f.kind.is_performance());
        let unsupported = findings.iter().filter(|f| f.kind == FindingKind::Unsupported).count();
        if unsupported > 0 || limit.is_some() {
            // Paths cut short by a construct or a limit reach fewer checks;
            // that is their reason, not a vacuous harness.
            warnings.retain(|w| !CHECK_COUNTS.contains(&w.kind));
        }
        let vacuous = warnings.iter().any(|w| VACUOUS.contains(&w.kind));
        let unconfirmed = findings
            .iter()
            .filter(|f| f.status == Status::Unconfirmed && f.kind != FindingKind::Unsupported && !f.kind.is_performance())
            .count();
        // Performance diagnostics (`race --perf`) are warnings beside the
        // verdict: they neither decide nor weaken it.
        let correctness = findings.iter().filter(|f| !f.kind.is_performance()).count();
        if unsupported > 0 {
            warnings.push(Warning {
                kind: "unsupported",
                message: format!(
                    "{unsupported} construct(s) could not be modelled; each path that reached one ended there, so what lies beyond was not checked"
                ),
            });
        }
        if unconfirmed > 0 && !decisive {
            warnings.push(Warning {
                kind: "unconfirmed",
                message: format!(
                    "{unconfirmed} finding(s) could not be confirmed (each says why: no witness within the solver's time, an undecided path, \
                     or a difference that depends on a choice the model leaves open); they may or may not be real"
                ),
            });
        }
        let verdict = if decisive {
            Verdict::Findings
        } else if limit.is_some() || correctness > 0 || vacuous {
            Verdict::Inconclusive
        } else if warnings.iter().any(|w| w.kind == "no-checks") {
            Verdict::NoFindings
        } else {
            Verdict::Equivalent
        };
        Report {
            tool: "symcross",
            version: env!("CARGO_PKG_VERSION"),
            input,
            assumptions,
            semantics: Vec::new(),
            verdict,
            stats,
            findings,
            limit,
            mode: None,
            coverage,
            warnings,
            unverified_rules: Vec::new(),
            symbolic_inputs: Vec::new(),
            build: None,
            shard: None,
            native_replay: None,
            tolerance: Vec::new(),
        }
    }

    /// The same report for a concrete run (`symcross run`), which is not
    /// judged for vacuity: no coverage, no vacuity warnings.
    pub fn concrete(self) -> Report {
        let mut r = Report::new(self.input, self.assumptions, self.findings, self.stats, self.limit, None);
        r.mode = self.mode;
        r.semantics = self.semantics;
        r
    }

    /// Marks the report as resting on user rules that were not proved.
    pub fn mark_unverified_rules(&mut self, names: Vec<String>) {
        if names.is_empty() {
            return;
        }
        self.warnings.push(Warning {
            kind: "unverified-rules",
            message: format!(
                "{} user rule(s) were used without proof (--trust-rules); a wrong rule can make an unequal check look proved",
                names.len()
            ),
        });
        self.unverified_rules = names;
    }

    /// Marks the report as one shard's (`check --shard`). `uncertain`: a
    /// path not yet given to a shard rested on an `unknown` solver answer,
    /// so the shards may have split the tree differently and paths may
    /// have been left to no shard; the report then proves nothing.
    pub fn mark_shard(&mut self, shard: ShardRecord, uncertain: bool) {
        self.shard = Some(shard);
        self.warnings.push(Warning {
            kind: "shard",
            message: format!(
                "this report covers shard {}/{} of the paths; `symcross merge` the reports of all {} shards for the verdict of the whole harness",
                shard.index, shard.count, shard.count
            ),
        });
        if uncertain {
            self.mark_split_uncertain();
        }
    }

    /// See `mark_shard`: the verdict cannot be `equivalent`.
    pub fn mark_split_uncertain(&mut self) {
        self.warnings.push(Warning { kind: SPLIT_UNCERTAIN, message: SPLIT_UNCERTAIN_MESSAGE.into() });
        if matches!(self.verdict, Verdict::Equivalent | Verdict::NoFindings) {
            self.verdict = Verdict::Inconclusive;
        }
    }

    /// Decides the verdict again after findings changed status (native
    /// replay unconfirms what the CPU does not reproduce, and confirms what
    /// it does): `findings` needs a confirmed finding; without one,
    /// findings make the run inconclusive, with the `unconfirmed` warning.
    pub fn settle_verdict(&mut self) {
        let decisive =
            self.findings.iter().any(|f| f.status.is_confirmed() && f.kind != FindingKind::Unsupported && !f.kind.is_performance());
        if decisive {
            self.verdict = Verdict::Findings;
            self.warnings.retain(|w| w.kind != "unconfirmed");
            return;
        }
        if self.verdict != Verdict::Findings {
            return;
        }
        self.verdict = Verdict::Inconclusive;
        let unconfirmed = self
            .findings
            .iter()
            .filter(|f| f.status == Status::Unconfirmed && f.kind != FindingKind::Unsupported && !f.kind.is_performance())
            .count();
        if unconfirmed > 0 && !self.warnings.iter().any(|w| w.kind == "unconfirmed") {
            self.warnings.push(Warning {
                kind: "unconfirmed",
                message: format!(
                    "{unconfirmed} finding(s) could not be confirmed (each says why: no witness within the solver's time, an undecided path, \
                     a difference that depends on a choice the model leaves open, or a witness the CPU does not reproduce); they may or may not be real"
                ),
            });
        }
    }

    /// Number of confirmed findings.
    pub fn confirmed(&self) -> usize {
        self.findings.iter().filter(|f| f.status.is_confirmed()).count()
    }

    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// Reads a report written by `to_json` (by `symcross suite`, `merge`
    /// and the result cache).
    pub fn from_json(text: &str) -> Result<Report, serde_json::Error> {
        serde_json::from_str(text)
    }
}

/// The warning of a shard whose split rested on an `unknown` answer.
pub const SPLIT_UNCERTAIN: &str = "shard-split-uncertain";
const SPLIT_UNCERTAIN_MESSAGE: &str = "a solver answer was `unknown` (a timeout) before the paths were split between shards; \
     another shard may have split them differently, so some paths may have been explored by no shard";

/// Warning kinds that make a run vacuous: it does not support the verdict
/// `equivalent`.
const VACUOUS: [&str; 2] = ["no-check-reached", "nothing-checked"];

/// Warning kinds about how many checks were reached.
const CHECK_COUNTS: [&str; 4] = ["no-check-reached", "nothing-checked", "paths-without-check", "no-shared-access"];

/// The vacuity warnings (README, Reading a report) for a run's coverage.
fn vacuity(c: &Coverage, paths: u64) -> Vec<Warning> {
    let mut out = Vec::new();
    let mut warn = |kind, message: String| out.push(Warning { kind, message });
    if let Some(n) = c.memory_accesses {
        // A path that ended at a finding (a write into __constant memory,
        // say) was not explored to the end: with no path finished, nothing
        // says the kernel shares nothing.
        if n == 0 && paths > 0 {
            // Not vacuous: with every path explored (no limit, which drops
            // this warning) and none touching memory that work-items
            // share and can write, no race is possible.
            warn(
                "no-shared-access",
                "no path of the kernel accesses __global or __local memory: work-items share nothing they could race on, so the kernel is race-free".into(),
            );
        }
        return out;
    }
    if c.symbolic_inputs == 0 {
        warn(
            "no-symbolic-input",
            "no input is symbolic (symcross_make_symbolic was never called): the program ran on its one concrete input, so this is a test of that input, not a proof for all inputs".into(),
        );
    }
    if c.checks == 0 {
        if c.program_has_checks {
            warn(
                "no-check-reached",
                "no path reached a check (symcross_check_equal, assert, klee_assert): nothing was compared, so nothing is proved".into(),
            );
        } else if c.symbolic_inputs == 0 {
            warn(
                "nothing-checked",
                "the program has no check (symcross_check_equal, assert, klee_assert) and no symbolic input: nothing was verified".into(),
            );
        } else {
            warn(
                "no-checks",
                "the program has no check (symcross_check_equal, assert, klee_assert): only memory errors, division by zero and unmodelled constructs were looked for".into(),
            );
        }
    } else if c.paths_without_check > 0 {
        warn(
            "paths-without-check",
            format!(
                "{} of {paths} paths ended normally without reaching a check: the inputs that take them are not compared",
                c.paths_without_check
            ),
        );
    }
    out
}

/// `&'static str` under a name serde does not take for a borrowed string
/// (a borrowed field would tie every read report to its input text).
pub type StaticName = &'static str;

/// Reads a string into a `&'static str` field (`tool`, `version`, warning
/// kinds). These are a handful of short names per report, so each read
/// report leaks a few bytes; the names repeat, so they are interned.
fn static_str<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    use std::sync::Mutex;
    static NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let s = String::deserialize(d)?;
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.iter().find(|n| **n == s) {
        return Ok(n);
    }
    let n: &'static str = Box::leak(s.into_boxed_str());
    names.push(n);
    Ok(n)
}
