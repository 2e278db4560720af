//! One configuration value for a run, built by the CLI. Every field has a
//! documented default (`Config::default()`).

pub mod fast_concrete;
mod ndrange;
mod path_shard;
mod perf;
mod tolerance;

pub use ndrange::NdRange;
pub use path_shard::{PathShard, Route};
pub use perf::{PerfConfig, CACHE_LINE};
use std::time::Duration;
pub use tolerance::{Tolerance, ToleranceKind};

/// The floating-point assumptions of `--assume`: the one set type every
/// layer shares (src/assumptions.rs).
pub use crate::assumptions::Assumptions;

/// Order in which paths are explored (`--searcher`). The variants' doc
/// lines are the command line's help for each value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SearcherKind {
    /// Depth-first: finishes paths early.
    Dfs,
    /// Breadth-first.
    Bfs,
    /// Random path, reproducible with --seed.
    RandomPath,
}

/// Solver process for bit-precise floating point (`--fp-solver`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FpSolverKind {
    /// cvc5 (default; fast on floating point).
    Cvc5,
    /// z3 as a separate process.
    Z3,
}

/// Everything a run of the engine is configured by, gathered from the
/// command line (or set by tests and the suite).
#[derive(Clone, Debug)]
pub struct Config {
    /// Stop exploring after this long (default: no limit).
    pub max_time: Option<Duration>,
    /// Stop after this many completed paths (default: no limit).
    pub max_paths: Option<u64>,
    /// Stop after this many instructions on all paths together
    /// (`--max-instructions`).
    pub max_instructions: Option<u64>,
    /// Stop when more than this many paths wait to be explored (default:
    /// no limit; `symcross race` sets it when it enumerates work-items by
    /// default, and checks in pair mode when it is hit).
    pub max_open_paths: Option<u64>,
    /// Stop when the resident set exceeds this many MiB (default: no limit
    /// here; the command line sets half the machine's memory,
    /// `default_memory_limit_mb`). Objects that would not fit are refused
    /// before they are allocated, even with no limit set (the machine's
    /// memory is the limit then).
    pub max_memory_mb: Option<u64>,
    /// Wall-clock limit of one solver query: only the user's cap
    /// (`--query-timeout`; none by default). A query that times out leaves
    /// its finding unconfirmed.
    pub query_timeout: Option<Duration>,
    /// The deciding budget of one solver query in work units (Z3 `rlimit`
    /// units; `--query-budget`, default [`DEFAULT_QUERY_BUDGET`]): the
    /// answer then does not depend on the machine's load. `None` (when
    /// only `--query-timeout` is given): the wall clock alone bounds a query.
    pub query_budget: Option<u32>,
    /// Order in which paths are explored.
    pub searcher: SearcherKind,
    /// Seed of the random-path searcher; a run is deterministic for a seed.
    pub seed: u64,
    /// The floating-point assumptions enabled (`--assume`).
    pub assumptions: Assumptions,
    /// What NaNs operations produce and how checks compare them (`--nan`).
    pub nan: crate::expr::NanModel,
    /// A tolerance applied to every `symcross_check_equal` of float or
    /// double elements (`--tolerance`; none by default: bit-exact).
    pub tolerance: Option<Tolerance>,
    /// Solver process for bit-precise floating point (default cvc5).
    pub fp_solver: FpSolverKind,
    /// Work budget of one FP solver query in the solver's own units
    /// (`--fp-solver-budget`); `None`: bounded by `query_timeout` only.
    pub fp_solver_budget: Option<u32>,
    /// Write every query that reaches a solver to this directory as
    /// SMT-LIB 2 (`--dump-queries`); `None`: none written.
    pub dump_queries: Option<std::path::PathBuf>,
    /// Extra rewrite-rule directories (`--rules`).
    pub rule_dirs: Vec<std::path::PathBuf>,
    /// Use the rules of `rule_dirs` without proving them sound first
    /// (`--trust-rules`; default off: each is proved, see rule_proof/user_rules.rs).
    pub trust_rules: bool,
    /// Merge paths: fold small branches into selects before the run
    /// (if-conversion, src/passes) and merge states at the join of a
    /// symbolic branch (default on).
    pub merge: bool,
    /// Most instructions if-conversion speculates for one branch, both
    /// sides together (default 1000, as KLEE-CL: in practice every branch
    /// whose sides are side-effect free is folded).
    pub fold_threshold: u32,
    /// Report progress on stderr for long runs.
    pub progress: bool,
    /// Use step 2 of the ladder (e-graph and implied queries); off only to
    /// measure what it saves.
    pub egraph: bool,
    /// Reuse a proved lane's proof for the other lanes of a comparison
    /// when a checked renaming of inputs maps one onto the other (default
    /// on; off only to measure what it saves).
    pub lane_symmetry: bool,
    /// E-nodes one e-graph run may grow before it gives up (default 10 000).
    /// Budgets are counts, never times, so a verdict cannot depend on the
    /// machine's load.
    pub egraph_node_limit: usize,
    /// Rule-application rounds of one e-graph run (default 20).
    pub egraph_iter_limit: usize,
    /// Concrete inputs on which both sides of a floating-point check are
    /// evaluated before the bit-precise solver (default 128; 0 turns
    /// sampling off). A difference found there is a confirmed witness.
    pub sample_trials: u32,
    /// Evaluate libm functions without exact semantics (sin, exp, pow, ...)
    /// on concrete arguments with this machine's C library, as the native
    /// program would, instead of leaving them uninterpreted: for `symcross
    /// run`, which prints what the program prints. Never used for proofs.
    pub native_libm: bool,
    /// End the run at the first confirmed finding (`symcross race` unless
    /// `--all-findings`): a race found early is reported at once instead
    /// of waiting for, and possibly being lost to, a limit.
    pub stop_at_first_finding: bool,
    /// Explore only this shard's part of the path tree (`check --shard
    /// K/N`, exec/engine/shard.rs; default: the whole tree).
    pub shard: Option<PathShard>,
    /// How many times one path may unroll a loop whose exit test stays
    /// symbolic (default: no bound; `symcross race` sets 16). A path that
    /// would go further ends there and the run is inconclusive with the
    /// limit `loop-bound` (path_budget.rs).
    pub loop_bound: Option<u32>,
    /// Instructions one work-item may run without reaching a barrier or
    /// the end of the kernel (default: no bound; `symcross race` sets
    /// 20,000,000): past it the work-item may never terminate, its path
    /// ends and the run is inconclusive with the limit `work-item-steps`.
    pub max_item_steps: Option<u64>,
    /// GPUVerify's wider benign-race tolerance: a read-write race where
    /// the write stores the very value the read returned is not reported
    /// (`symcross race --allow-benign-read-write`; default off).
    pub benign_read_write: bool,
    /// Solver queries one race check (at a barrier, or the end of a group
    /// or kernel) may ask about candidate pairs of accesses (default
    /// 2,000; `symcross race --max-race-queries`). Past it the pairs left
    /// are not decided and the run is inconclusive with the limit
    /// `race-queries`.
    pub max_race_queries: u64,
    /// Solver questions kernels may ask about undefined behaviour (whether
    /// an overflowed result reaches a branch, an address; default 2,000;
    /// `symcross race --max-undefined-queries`). Past it such uses in
    /// kernels are not checked and the run is inconclusive with the limit
    /// `undefined-queries`.
    pub max_undefined_queries: u64,
    /// A kernel's store of an undefined result (an overflowed `nsw`
    /// product) into `__global` memory is a use, as the host reading it
    /// back would make it (`symcross race --check-stored-overflow`;
    /// default off: only branches, addresses and divisors are uses).
    pub stored_overflow_is_use: bool,
    /// `__local` memory no work-item of the group wrote holds arbitrary
    /// but defined values (GPUVerify's assumption; `--local-memory
    /// arbitrary`) instead of indeterminate ones, whose use is an
    /// `uninitialized-read` (default).
    pub local_memory_arbitrary: bool,
    /// Measure bank conflicts, uncoalesced accesses and warp divergence of
    /// kernels (`symcross race --perf`; default off): warnings of their
    /// own kinds that leave the verdict alone.
    pub perf: Option<PerfConfig>,
    /// The threads of a CUDA warp of this many lanes run in lockstep
    /// (`symcross race --warp-sync N`; default None: they need not).
    pub warp_sync: Option<u32>,
    /// Only races between threads of one warp are looked for (`symcross
    /// race --only-warp`, GPUVerify's; default false).
    pub only_warp: bool,
    /// Only races between threads of different warps (or blocks) are
    /// looked for (`symcross race --no-warp`, GPUVerify's; default false).
    pub no_warp: bool,
}

impl Config {
    /// The rule assumptions a run enables: the user's, plus
    /// `nan-bits-ignored` under `--nan equal` (where NaNs are canonical).
    /// The e-graph uses the rules they allow, and `check --rules` proves
    /// those of the user's rule files.
    pub fn rule_assumptions(&self) -> Assumptions {
        match self.nan {
            crate::expr::NanModel::Canonical => self.assumptions.with(crate::assumptions::Assumption::NanBitsIgnored),
            crate::expr::NanModel::Exact(_) => self.assumptions,
        }
    }
}

/// The default deciding budget of one solver query, in Z3 work units:
/// about the old 10 s limit of an idle machine (calibration in
/// solver/budget.rs and README, "Solver budgets").
pub const DEFAULT_QUERY_BUDGET: u32 = 20_000_000;

impl Default for Config {
    fn default() -> Self {
        Config {
            max_time: None,
            max_paths: None,
            max_instructions: None,
            max_open_paths: None,
            max_memory_mb: None,
            query_timeout: None,
            query_budget: Some(DEFAULT_QUERY_BUDGET),
            searcher: SearcherKind::Dfs,
            seed: 0,
            assumptions: Assumptions::default(),
            nan: crate::expr::NanModel::Canonical,
            tolerance: None,
            fp_solver: FpSolverKind::Cvc5,
            fp_solver_budget: None,
            dump_queries: None,
            rule_dirs: Vec::new(),
            trust_rules: false,
            merge: true,
            fold_threshold: 1000,
            progress: false,
            egraph: true,
            lane_symmetry: true,
            egraph_node_limit: 10_000,
            egraph_iter_limit: 20,
            sample_trials: 128,
            native_libm: false,
            stop_at_first_finding: false,
            shard: None,
            loop_bound: None,
            max_item_steps: None,
            benign_read_write: false,
            max_race_queries: 2000,
            max_undefined_queries: 2000,
            stored_overflow_is_use: false,
            local_memory_arbitrary: false,
            perf: None,
            warp_sync: None,
            only_warp: false,
            no_warp: false,
        }
    }
}

/// The machine's memory in MiB (MemTotal of /proc/meminfo; 4 GiB if it
/// cannot be read).
pub fn physical_memory_mb() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines().find_map(|l| l.strip_prefix("MemTotal:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map(|kb| kb / 1024)
        .unwrap_or(4096)
}

/// The default of `--max-memory`: half the machine's memory.
pub fn default_memory_limit_mb() -> u64 {
    (physical_memory_mb() / 2).max(1)
}
