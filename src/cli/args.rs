//! Command-line arguments. Every flag has help text written for a user who
//! has never read the papers; defaults are stated where they matter.

use crate::config::{FpSolverKind, SearcherKind};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "symcross",
    version,
    about = "Prove hand-vectorised code (SSE/AVX, OpenCL) bit-for-bit equal to its scalar reference, and find OpenCL races",
    long_about = "symcross runs C/C++ harnesses and OpenCL kernels on symbolic inputs (every input byte may hold any \
value) and proves, for every input up to the harness's sizes, that the checks in the harness hold. \
When a check can fail it prints both expressions and an input (a witness) that makes it fail.\n\n\
Exit status: 0 nothing found and every path finished; 1 findings; 2 bad usage or input; 3 inconclusive \
(a limit was hit before anything was found).",
    after_long_help = "Environment:\n  \
SYMCROSS_CLANG      the clang to use (default: clang-19 on PATH, then LLVM 19's bin directory)\n  \
SYMCROSS_LLVM_LINK, SYMCROSS_OPT  likewise for llvm-link and opt\n  \
SYMCROSS_RUNTIME    the cl-runtime-model directory (default: the one next to the tool)\n  \
SYMCROSS_CACHE_DIR  where the compiled runtime model is kept (default: $XDG_CACHE_HOME/symcross or \
~/.cache/symcross; empty: no cache)"
)]
/// The whole command line: a subcommand and the global flags.
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Log engine internals to stderr: `info` shows the stages (compile, translate, execute) with their
    /// times, `debug` also each clang/llvm-link/opt command, check outcome, solver query and finding.
    #[arg(long, global = true, value_name = "error|warn|info|debug|trace")]
    pub log: Option<String>,
    /// Colour the text report: `auto` (default) colours it on a terminal unless NO_COLOR is set.
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,
    /// Run every instruction on the general symbolic engine, without the fast tier that runs
    /// stretches of concrete code on a pre-decoded form (same results, slower; for comparing the two).
    #[arg(long, global = true)]
    pub no_fast_concrete: bool,
}

/// When the text report is coloured (`--color`).
#[derive(Copy, Clone, Debug, ValueEnum, PartialEq, Eq)]
pub enum ColorArg {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always, even into a file or pipe, and even when NO_COLOR is set.
    Always,
    /// Never, even on a terminal.
    Never,
}

impl ColorArg {
    /// The style of text written to standard output.
    pub fn style(self) -> crate::report::TextStyle {
        use crate::report::ColourChoice as C;
        crate::report::TextStyle::for_stdout(match self {
            ColorArg::Auto => C::Auto,
            ColorArg::Always => C::Always,
            ColorArg::Never => C::Never,
        })
    }
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Symbolically execute C/C++ (.c .cc .cpp) or LLVM (.bc .ll) harnesses, linked together.
    Check(CheckArgs),
    /// Check an OpenCL kernel alone for data races, barrier divergence and memory errors.
    Race(RaceArgs),
    /// Rebuild what a JSON report checked, natively with AddressSanitizer and UBSan, and run every
    /// confirmed finding's witness on the CPU. Exit 1: every finding reproduced; 2: bad input, or a
    /// witness that does not fit the harness; 4: a confirmed finding did NOT reproduce (a symcross bug).
    Replay(ReplayArgs),
    /// Run a program concretely (every input zero) and print what it prints.
    Run(RunArgs),
    /// List the rewrite rules, or prove each sound with the bit-precise solver.
    Rules(RulesArgs),
    /// Measure interpretation speed and the time to decide the bundled harnesses.
    Bench(BenchArgs),
    /// Run every check and kernel of a manifest (symcross.toml) against its expected outcome.
    Suite(SuiteArgs),
    /// Join the --json reports of shards into one report: of `suite --shard`, or of `check --shard`
    /// (one harness's paths split N ways).
    Merge(MergeArgs),
}

/// How C, C++ and OpenCL inputs are compiled (`-I`, `-D`, `--cflags`, `--target`).
#[derive(Args, Debug, Clone, Default)]
pub struct CompileArgs {
    /// Add DIR to the include search path of clang.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Define a preprocessor macro (NAME or NAME=VALUE) for clang.
    #[arg(short = 'D', value_name = "NAME[=V]")]
    pub define: Vec<String>,
    /// Extra flags passed to clang as they are (quote them: --cflags "-std=c11 -mavx2").
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub cflags: Option<String>,
    /// Compile C and C++ inputs for this instruction set: `aarch64` (NEON; a full triple such as
    /// aarch64-linux-gnu is accepted too) or `x86_64` (the default, this machine).
    #[arg(long, value_name = "TARGET")]
    pub target: Option<String>,
}

/// Limits of one run and how it reports (`--max-time`, `--json`, ...).
#[derive(Args, Debug, Clone, Default)]
pub struct LimitArgs {
    /// Stop exploring after S seconds (the verdict is then inconclusive unless something was found).
    #[arg(long, value_name = "S")]
    pub max_time: Option<f64>,
    /// Stop after N completed paths.
    #[arg(long, value_name = "N")]
    pub max_paths: Option<u64>,
    /// Stop after N LLVM instructions executed on all paths together: a limit that, unlike
    /// --max-time, stops every run at the same point on any machine (checked every 65,536
    /// instructions and between paths).
    #[arg(long, value_name = "N")]
    pub max_instructions: Option<u64>,
    /// Stop when symcross uses more than MB mebibytes of memory (default: half the machine's memory).
    /// The run then ends with a report (inconclusive, limit `memory`); a `malloc` that cannot fit stops it too.
    #[arg(long, value_name = "MB")]
    pub max_memory: Option<u64>,
    /// Wall-clock limit of one solver query in seconds (none by default); a timeout leaves a finding
    /// unconfirmed. Given alone, it replaces the work budget (--query-budget): the answer then depends
    /// on the machine's load.
    #[arg(long, value_name = "S")]
    pub query_timeout: Option<f64>,
    /// Deciding budget of one solver query in work units (Z3 `rlimit` units; default 20000000, about
    /// 10 s of Z3 on an idle machine): the same answer under any load. cvc5 gets it in its own units;
    /// Bitwuzla, which counts none, gets the CPU time the units take Z3. A budget that runs out leaves
    /// a finding unconfirmed and says so.
    #[arg(long, value_name = "UNITS")]
    pub query_budget: Option<u32>,
    /// Write the machine-readable report to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE|-")]
    pub json: Option<String>,
    /// Print progress on stderr every few seconds.
    #[arg(long)]
    pub progress: bool,
    /// Write every query that reaches a solver to DIR as SMT-LIB 2 (query-00001.smt2, ...), with the
    /// backend, verdict and time as comments, so it can be handed to another solver.
    #[arg(long, value_name = "DIR")]
    pub dump_queries: Option<PathBuf>,
}

/// Arguments of `symcross check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Harness sources or LLVM modules; they are linked together.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Enable floating-point assumptions: positive-zero, finite, ordered, associativity, all (comma-separated).
    #[arg(long, value_name = "LIST")]
    pub assume: Option<String>,
    /// NaN semantics: `equal` (default; two float results that are both NaN compare equal, computed NaNs are
    /// canonical) or `exact` (NaNs produced and propagated bit for bit as x86 SSE/AVX does, compared bit for bit).
    #[arg(long, value_name = "equal|exact", default_value = "equal")]
    pub nan: String,
    /// Apply a tolerance to every symcross_check_equal of float or double elements: `ulp:K`, `rel:X`
    /// (|got - want| <= X |want|) or `abs:X`; each element is then proved within the bound or shown to exceed it.
    #[arg(long, value_name = "TOL")]
    pub tolerance: Option<String>,
    /// Write the error plot of the run's tolerance checks (error in ulps, log scale, against the input;
    /// the worst input marked) to FILE as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Also load the rewrite rules in DIR (files ending in .rules). Each rule the run can use is first
    /// proved sound with the bit-precise solver (remembered in the cache directory); an unsound one is refused.
    #[arg(long, value_name = "DIR")]
    pub rules: Vec<PathBuf>,
    /// Use the rules of --rules without proving them sound; the report is then marked "unverified rules".
    #[arg(long)]
    pub trust_rules: bool,
    /// Order in which paths are explored.
    #[arg(long, value_enum, default_value_t = SearcherKind::Dfs)]
    pub searcher: SearcherKind,
    /// Seed of the random-path searcher.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Solver for bit-precise floating-point queries.
    #[arg(long, value_enum, default_value_t = FpSolverKind::Cvc5)]
    pub fp_solver: FpSolverKind,
    /// Work budget of one bit-precise floating-point query, in the FP solver's own deterministic
    /// units (cvc5 `--rlimit-per`, z3 `rlimit`). Unlike --query-timeout, the answer then does not
    /// depend on how busy the machine is: CI runs should set it (with a generous --query-timeout).
    #[arg(long, value_name = "UNITS")]
    pub fp_solver_budget: Option<u32>,
    /// Explore both sides of every branch separately instead of merging them.
    #[arg(long)]
    pub no_merge: bool,
    /// Do not run confirmed findings' witnesses natively (on this CPU, or
    /// under qemu-aarch64) before reporting them: they are then
    /// "confirmed by the model only".
    #[arg(long)]
    pub no_replay: bool,
    /// Most instructions (both sides together) of a branch that if-conversion folds into selects.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub fold_threshold: u32,
    /// Function to start in.
    #[arg(long, default_value = "main")]
    pub entry: String,
    /// Skip the canonical and sampling steps of the decision ladder (normal
    /// form, e-graph, samples) and send every check straight to the
    /// bit-precise solver (to measure what they save).
    #[arg(long)]
    pub no_egraph: bool,
    /// Decide every element of a comparison on its own, instead of reusing
    /// a proved lane's proof for lanes that compute the same formula on
    /// their own inputs (to measure what lane symmetry saves).
    #[arg(long)]
    pub no_lane_symmetry: bool,
    /// Explore only the K-th of N disjoint parts of the path tree (K from 1), for a harness too big
    /// for one machine: run all N (on N machines), then `symcross merge` their --json reports for the
    /// whole harness's verdict, findings and path count. Given explicitly only: a job scheduler's
    /// variables are not read here (write `--shard $((SLURM_ARRAY_TASK_ID+1))/$SLURM_ARRAY_TASK_COUNT`).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Also write one KLEE `.ktest` file per witness into DIR (test000001.ktest,
    /// ...), for ktest-tool and KLEE-style replay.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// E-nodes one e-graph run may grow before giving a check to the solver.
    /// A count, not a time, so verdicts never depend on the machine's load.
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub egraph_nodes: u64,
    /// Rule-application rounds of one e-graph run.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub egraph_iterations: u64,
    /// Concrete inputs on which both sides of a floating-point check are
    /// evaluated before the bit-precise solver (0: none). A difference found
    /// there is a confirmed witness, usually in microseconds.
    #[arg(long, value_name = "N", default_value_t = 128, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub sample_trials: u32,
    /// In kernels the program launches: what `__local` memory no work-item wrote holds,
    /// indeterminate bytes (default) or arbitrary defined values (GPUVerify's assumption).
    #[arg(long, value_enum, default_value_t = LocalMemory::Uninitialized)]
    pub local_memory: LocalMemory,
    /// How the harness is compiled.
    #[command(flatten)]
    pub compile: CompileArgs,
    /// Limits and the JSON report.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// SARIF and JUnit reports.
    #[command(flatten)]
    pub ci: CiReportArgs,
    /// Write a self-contained HTML report to FILE (source with the findings inline, witness table,
    /// both sides' expressions, a picture of a race's NDRange): one file, no server, no network.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    /// GPU performance diagnostics of the kernels the program launches (CUDA `<<<...>>>`,
    /// clEnqueueNDRangeKernel), each warning naming its launch.
    #[command(flatten)]
    pub perf: PerfArgs,
}

/// Arguments of `symcross race`.
#[derive(Args, Debug)]
pub struct RaceArgs {
    /// The OpenCL C (or CUDA `.cu`) source of the kernel.
    #[arg(value_name = "KERNEL.cl")]
    pub file: PathBuf,
    /// Name of the kernel function (default: the only kernel in the file).
    #[arg(long)]
    pub kernel: Option<String>,
    /// Work-group size, 1 to 3 dimensions (64 or 16,16; GPUVerify's
    /// `--local_size=[16,16]` is accepted too). For a CUDA kernel, the block size: `--block 32,8` or
    /// `--blockDim=[32,8]`.
    #[arg(long, value_name = "X[,Y,Z]", aliases = ["local_size", "block", "blockDim"])]
    pub local_size: Option<String>,
    /// Number of work-groups per dimension (also `--num_groups=[X,Y]`); for a CUDA kernel, the grid:
    /// `--grid 64,64` or `--gridDim=[64,64]`.
    #[arg(long, value_name = "X[,Y,Z]", conflicts_with = "global_size", aliases = ["num_groups", "grid", "gridDim"])]
    pub num_groups: Option<String>,
    /// Total number of work-items per dimension (also `--global_size=[X,Y]`): a multiple of the local
    /// size, or any number for a kernel compiled for OpenCL C 2.0 or later (--cflags -cl-std=CL2.0),
    /// where the last group of a dimension holds the remainder (non-uniform work-groups).
    #[arg(long, value_name = "X[,Y,Z]", alias = "global_size")]
    pub global_size: Option<String>,
    /// Fix a scalar argument (NAME=VALUE; a sampler_t its flags, e.g. 18), give an image's size in pixels
    /// (NAME=W, NAME=WxH, NAME=WxHxD), or give a pointer's buffer: NAME=BYTES (arbitrary contents), NAME=@FILE (the
    /// file's bytes), NAME=[BYTES:]values:E,E,... (these elements, `sym` for an arbitrary one, the rest arbitrary),
    /// NAME=BYTES:@FILE (the file first, the rest arbitrary), NAME=BYTES:fill:V, NAME=BYTES:range:A:B (every
    /// element in [A, B]), each optionally followed by :ro or :wo (the host created it read-only or write-only: a
    /// write, resp. a read, is a finding; `ro`/`wo` alone for an unsized buffer), or NAME=null (a NULL pointer).
    /// Elements are of the type the parameter points to. Repeatable.
    #[arg(long, value_name = "NAME=VALUE")]
    pub arg: Vec<String>,
    /// Do not report write-write races where both sides write the same value.
    #[arg(long)]
    pub allow_benign_races: bool,
    /// Also accept read-write races where the write stores the value the read returned
    /// (GPUVerify's wider benign-race tolerance; off by default).
    #[arg(long)]
    pub allow_benign_read_write: bool,
    /// Unroll a loop whose exit depends on the input at most N times per path; a path that goes
    /// further ends there and the verdict is inconclusive (limit `loop-bound`).
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub loop_bound: u32,
    /// Instructions a work-item may run without reaching a barrier or the kernel's end; past it the
    /// path ends (it may never terminate) and the verdict is inconclusive (limit `work-item-steps`).
    #[arg(long, value_name = "N", default_value_t = 20_000_000)]
    pub max_item_steps: u64,
    /// Solver queries one race check (at a barrier or the end of a group) may ask about pairs of
    /// accesses; past it the pairs left are undecided and the verdict is inconclusive (limit
    /// `race-queries`).
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub max_race_queries: u64,
    /// Solver questions the kernel may ask about undefined behaviour (an overflowed result
    /// reaching a branch or an address); past it such uses are not checked and the verdict is
    /// inconclusive (limit `undefined-queries`).
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub max_undefined_queries: u64,
    /// A store of an overflowed (undefined) result into `__global` memory is a use, a
    /// `signed-overflow` finding, as the host reading it back would make it (off: only a
    /// branch, an address or a divisor it decides is).
    #[arg(long)]
    pub check_stored_overflow: bool,
    /// What `__local` memory no work-item wrote holds: indeterminate bytes, whose use (a branch, an
    /// address) is an `uninitialized-read` (default), or arbitrary defined values (GPUVerify's
    /// assumption).
    #[arg(long, value_enum, default_value_t = LocalMemory::Uninitialized)]
    pub local_memory: LocalMemory,
    /// Order in which paths are explored (random-path explores shallow paths first).
    #[arg(long, value_enum, default_value_t = SearcherKind::RandomPath)]
    pub searcher: SearcherKind,
    /// Seed of the random-path searcher; a run is reproducible for a seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How work-items are checked: enumerate them all, or two symbolic work-items at once (pair).
    /// Default: enumerate up to 4096 work-items, pair above.
    #[arg(long, value_name = "enumerate|pair", value_parser = race_mode)]
    pub mode: Option<crate::report::RaceMode>,
    /// Keep exploring after the first confirmed finding (default: stop there).
    #[arg(long)]
    pub all_findings: bool,
    /// The threads of each warp of N lanes (N consecutive threads of a block, 1 to 32) run in lockstep,
    /// as before independent thread scheduling (sm_70): warp-synchronous code without __syncwarp is
    /// then race-free (GPUVerify's `--warp-sync=N`). Enumerate mode only.
    #[arg(long, value_name = "N")]
    pub warp_sync: Option<u32>,
    /// Only look for races between threads of one warp (GPUVerify's `--only-warp`): races between
    /// warps and between blocks are not checked, and the report says so.
    #[arg(long, conflicts_with = "no_warp")]
    pub only_warp: bool,
    /// Only look for races between threads of different warps or blocks (GPUVerify's `--no-warp`):
    /// races between two threads of one warp are not checked, and the report says so.
    #[arg(long)]
    pub no_warp: bool,
    /// How the kernel is compiled.
    #[command(flatten)]
    pub compile: CompileArgs,
    /// Limits and the JSON report.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// SARIF and JUnit reports.
    #[command(flatten)]
    pub ci: CiReportArgs,
    /// Write a self-contained HTML report to FILE (source with the findings inline, witness table,
    /// both sides' expressions, a picture of a race's NDRange): one file, no server, no network.
    #[arg(long, value_name = "FILE")]
    pub html: Option<String>,
    /// GPU performance diagnostics.
    #[command(flatten)]
    pub perf: PerfArgs,
}

/// `race --perf`: bank conflicts, uncoalesced accesses and warp divergence
/// (README, "Performance diagnostics").
#[derive(Args, Debug, Clone)]
pub struct PerfArgs {
    /// Also report bank conflicts of __local accesses, uncoalesced global accesses and warp divergence, as warnings
    /// that leave the verdict and exit status alone.
    #[arg(long)]
    pub perf: bool,
    /// Work-items per warp: 32 (NVIDIA), 64 (AMD wavefronts).
    #[arg(long, value_name = "N", default_value_t = 32, alias = "wavefront-size")]
    pub warp_size: u32,
    /// Banks of __local memory.
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub banks: u32,
    /// Bytes of one bank word.
    #[arg(long, value_name = "BYTES", default_value_t = 4)]
    pub bank_width: u32,
    /// Bytes of one global memory transaction (segment).
    #[arg(long, value_name = "BYTES", default_value_t = 32)]
    pub segment: u32,
    /// Solver queries one barrier interval may spend searching input-dependent worst cases.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub perf_queries: u64,
}

/// `--mode` of `race`, read straight into the mode the report records.
/// `--local-memory`: what never-written `__local` memory holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LocalMemory {
    /// Indeterminate bytes: using them is an `uninitialized-read`.
    Uninitialized,
    /// Arbitrary but defined values (GPUVerify's assumption).
    Arbitrary,
}

fn race_mode(text: &str) -> Result<crate::report::RaceMode, String> {
    match text {
        "enumerate" => Ok(crate::report::RaceMode::Enumerate),
        "pair" => Ok(crate::report::RaceMode::Pair),
        other => Err(format!("expected `enumerate` or `pair`, not `{other}`")),
    }
}

/// Arguments of `symcross replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The JSON report of `symcross check --json`, optionally preceded by the harness files to build
    /// (default: the inputs the report records, with its -I, -D and --cflags).
    #[arg(required = true, value_name = "[HARNESS...] REPORT.json", num_args = 1..)]
    pub files: Vec<PathBuf>,
    /// Replay only finding N (0-based, as listed in the report) instead of every confirmed finding.
    #[arg(long, value_name = "N")]
    pub finding: Option<usize>,
    /// -I/-D/--cflags given here override the report's: -I is searched first, -D NAME replaces the
    /// report's definition of NAME, --cflags replaces the report's flags.
    #[command(flatten)]
    pub compile: CompileArgs,
}

/// Arguments of `symcross run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Sources or LLVM modules, linked together.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The function to run.
    #[arg(long, default_value = "main")]
    pub entry: String,
    /// How the program is compiled.
    #[command(flatten)]
    pub compile: CompileArgs,
}

/// Arguments of `symcross rules`.
#[derive(Args, Debug)]
pub struct RulesArgs {
    /// What to do with the rules.
    #[arg(value_enum, default_value_t = RulesAction::List)]
    pub action: RulesAction,
    /// Also load the rewrite rules in DIR.
    #[arg(long, value_name = "DIR")]
    pub rules: Vec<PathBuf>,
    /// Wall-clock cap per solver query in seconds when verifying: a safety
    /// net only, as each query has a fixed work budget (load-independent).
    #[arg(long, default_value_t = 600.0)]
    pub timeout: f64,
    /// Only rules whose name contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
}

/// What `symcross rules` does.
#[derive(Copy, Clone, Debug, ValueEnum, PartialEq, Eq)]
pub enum RulesAction {
    /// Print each rule with its law, the assumptions it needs and where it is written.
    List,
    /// Prove each rule sound under its assumptions with the bit-precise solver.
    Verify,
}

/// Arguments of `symcross bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Write the figures as a Markdown table to FILE as well.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Run only these sections (comma-separated): concrete, harnesses, neon,
    /// ladder, reductions, witnesses, merging, race, opencl.
    #[arg(long, value_name = "LIST")]
    pub only: Option<String>,
    /// Also run the tools a user would pick instead on the same work, where
    /// installed (lli -force-interpreter, Oclgrind), and print the ratios;
    /// alone (without --only) it runs only that table.
    #[arg(long)]
    pub peers: bool,
}

/// Reports for CI systems, beside `--json` (see README "Suites and CI").
#[derive(Args, Debug, Clone, Default)]
pub struct CiReportArgs {
    /// Write a SARIF 2.1.0 log to FILE (`-` for standard output), for GitHub code scanning.
    #[arg(long, value_name = "FILE|-")]
    pub sarif: Option<String>,
    /// Write a JUnit XML report to FILE (`-` for standard output), for GitLab, Jenkins and test reporters.
    #[arg(long, value_name = "FILE|-")]
    pub junit: Option<String>,
}

/// Arguments of `symcross suite`.
#[derive(Args, Debug)]
pub struct SuiteArgs {
    /// The manifest (default: symcross.toml in the current directory). Paths in it are relative to it.
    #[arg(value_name = "MANIFEST")]
    pub manifest: Option<PathBuf>,
    /// Entries run at once (default: the number of cores).
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub jobs: Option<u64>,
    /// Run every entry, ignoring (and not updating) the cached reports.
    #[arg(long)]
    pub no_cache: bool,
    /// Run only the K-th of N balanced, disjoint subsets of the entries (K from 1). Default: from
    /// SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, JOB_COMPLETION_INDEX/SYMCROSS_SHARDS or CI_NODE_INDEX/CI_NODE_TOTAL.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// No progress lines on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Write the suite report (every entry with its report) to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE|-")]
    pub json: Option<String>,
    /// SARIF and JUnit reports of the whole suite.
    #[command(flatten)]
    pub ci: CiReportArgs,
    /// Write an HTML report into DIR: index.html with every entry's outcome, linking one
    /// self-contained page per entry (as `check --html` writes it).
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
}

/// Arguments of `symcross merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Reports written by `symcross suite --json` or `symcross check --shard K/N --json` (one per shard).
    #[arg(required = true, value_name = "REPORT")]
    pub reports: Vec<PathBuf>,
    /// Write the merged suite report to FILE (`-` for standard output).
    #[arg(long, value_name = "FILE|-")]
    pub json: Option<String>,
    /// SARIF and JUnit reports of the merged suite.
    #[command(flatten)]
    pub ci: CiReportArgs,
}
