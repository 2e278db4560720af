//! `symcross check` and `symcross run`.

use super::args::{CheckArgs, CompileArgs, LimitArgs, RunArgs};
use crate::config::{Assumptions, Config};
use crate::frontend::CompileOptions;
use crate::report::text;
use crate::Error;
use std::time::Duration;

/// The compile options of `-I`, `-D`, `--cflags` and `--target`; refuses an
/// unknown target.
pub fn compile_options(c: &CompileArgs) -> Result<CompileOptions, Error> {
    let extra = match &c.cflags {
        Some(f) => f.split_whitespace().map(str::to_string).collect(),
        None => Vec::new(),
    };
    let target = c.target.as_deref().map(crate::frontend::target::normalize).transpose().map_err(Error::Usage)?;
    Ok(CompileOptions { include_dirs: c.include.clone(), defines: c.define.clone(), cflags: extra, target, ..Default::default() })
}

/// The largest time limit accepted (about 31 years): larger values are
/// certainly typing mistakes, and they would overflow clock arithmetic.
pub const MAX_SECONDS: f64 = 1e9;

/// A time option in seconds: positive, finite and at most `MAX_SECONDS`.
pub fn seconds(s: f64, what: &str) -> Result<Duration, Error> {
    if !(s.is_finite() && s > 0.0) {
        return Err(Error::Usage(format!("{what} must be a positive number of seconds, not {s}")));
    }
    if s > MAX_SECONDS {
        return Err(Error::Usage(format!("{what} {s} is too large: at most {MAX_SECONDS:e} seconds")));
    }
    Duration::try_from_secs_f64(s).map_err(|e| Error::Usage(format!("{what} {s}: {e}")))
}

/// Sets the run's limits from the command line, refusing values that are
/// zero, negative or too large; `--max-memory` defaults to half the machine.
pub fn apply_limits(config: &mut Config, l: &LimitArgs) -> Result<(), Error> {
    config.max_time = l.max_time.map(|s| seconds(s, "--max-time")).transpose()?;
    if l.max_paths == Some(0) {
        return Err(Error::Usage("--max-paths must be at least 1 (0 would stop before the first path)".into()));
    }
    config.max_paths = l.max_paths;
    if l.max_instructions == Some(0) {
        return Err(Error::Usage("--max-instructions must be at least 1".into()));
    }
    config.max_instructions = l.max_instructions;
    match l.max_memory {
        Some(0) => return Err(Error::Usage("--max-memory must be at least 1 MiB".into())),
        Some(mb) if mb > MAX_MEMORY_MB => return Err(Error::Usage(format!("--max-memory {mb} is too large: at most {MAX_MEMORY_MB} MiB"))),
        Some(mb) => config.max_memory_mb = Some(mb),
        None => config.max_memory_mb = Some(crate::config::default_memory_limit_mb()),
    }
    config.query_timeout = l.query_timeout.map(|s| seconds(s, "--query-timeout")).transpose()?;
    // The wall clock given alone keeps its old meaning (time only); with
    // neither given, the work budget decides.
    config.query_budget = match (l.query_budget, config.query_timeout) {
        (Some(0), _) => return Err(Error::Usage("--query-budget must be at least 1 work unit".into())),
        (Some(units), _) => Some(units),
        (None, Some(_)) => None,
        (None, None) => Some(crate::config::DEFAULT_QUERY_BUDGET),
    };
    config.progress = l.progress;
    if let Some(dir) = &l.dump_queries {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::Usage(format!("--dump-queries {}: cannot create the directory: {e}", dir.display())))?;
        config.dump_queries = Some(dir.clone());
    }
    Ok(())
}

/// The largest --max-memory accepted, in MiB (2^44 bytes = 16 TiB): byte
/// counts derived from it must not overflow.
pub const MAX_MEMORY_MB: u64 = 1 << 24;

/// The input files' names joined by spaces, as reports name the input.
pub fn input_name(files: &[std::path::PathBuf]) -> String {
    files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(" ")
}

/// Runs `symcross check`: compiles and checks the harness, writes the
/// reports; returns the exit status.
pub fn check(a: CheckArgs, style: &crate::report::TextStyle) -> Result<i32, Error> {
    let _run = tracing::info_span!("check", harness = %input_name(&a.files)).entered();
    let mut config = Config::default();
    apply_limits(&mut config, &a.limits)?;
    super::ensure_writable(&[&a.limits.json, &a.ci.sarif, &a.ci.junit, &a.html])?;
    super::one_report_on_stdout(&[("--json", &a.limits.json), ("--sarif", &a.ci.sarif), ("--junit", &a.ci.junit), ("--html", &a.html)])?;
    if let Some(list) = &a.assume {
        config.assumptions = Assumptions::parse(list).map_err(Error::Usage)?;
    }
    // A `.cu` file checked is a host program with its kernels.
    let opts = CompileOptions { cuda_host: true, ..compile_options(&a.compile)? };
    // Refused before compiling; the target's rule is chosen once the
    // module, and so its triple, is loaded.
    crate::expr::NanModel::from_flag(&a.nan).ok_or_else(|| Error::Usage(format!("--nan {}: expected `equal` or `exact`", a.nan)))?;
    config.tolerance = a.tolerance.as_deref().map(crate::config::Tolerance::parse).transpose().map_err(Error::Usage)?;
    config.rule_dirs = a.rules.clone();
    config.trust_rules = a.trust_rules;
    config.searcher = a.searcher;
    config.seed = a.seed;
    config.perf = super::race_cmd::perf_config(&a.perf)?;
    config.fp_solver = a.fp_solver;
    if a.fp_solver_budget == Some(0) {
        return Err(Error::Usage("--fp-solver-budget must be at least 1".into()));
    }
    config.fp_solver_budget = a.fp_solver_budget;
    config.merge = !a.no_merge;
    config.fold_threshold = a.fold_threshold;
    config.local_memory_arbitrary = a.local_memory == crate::cli::args::LocalMemory::Arbitrary;
    config.egraph = !a.no_egraph;
    config.lane_symmetry = !a.no_lane_symmetry;
    config.egraph_node_limit = a.egraph_nodes as usize;
    config.egraph_iter_limit = a.egraph_iterations as usize;
    config.sample_trials = a.sample_trials;
    config.shard = a.shard.as_deref().map(path_shard).transpose()?;
    let mut loaded = match crate::driver::load(&a.files, &opts) {
        Ok(loaded) => loaded,
        Err(e) => match super::device_launch::report_instead_of(&input_name(&a.files), &e) {
            Some(report) => return write_check_reports(&a, &report, style),
            None => return Err(e.into()),
        },
    };
    // `exact` means the NaN bits of the CPU the code is compiled for: the
    // module's triple (set by --target for C, written in IR inputs).
    let triple = opts.target.as_deref().unwrap_or(&loaded.module.triple);
    config.nan = crate::expr::NanModel::for_target(&a.nan, crate::frontend::target::is_aarch64(triple)).unwrap_or_default();
    // The built-in rewrite rules are proved with canonical and x86 NaN bits
    // only (rule_proof::prove::verify_rule), and some do not hold with AArch64's
    // (fmin-assoc, once FMINNM propagates a signalling NaN): no e-graph
    // with AArch64 NaN bits, the solver decides alone.
    if config.nan == crate::expr::NanModel::EXACT_AARCH64 {
        config.egraph = false;
    }
    let unverified_rules = crate::rule_proof::user_rules::prove_user_rules(&config)?;
    loaded.prepare(&config);
    let name = input_name(&a.files);
    let (mut report, _) = crate::driver::check_module(&loaded, &name, &a.entry, &config)?;
    report.mark_unverified_rules(unverified_rules);
    report.build = Some(build_record(&a, &opts, &report.assumptions));
    // Confirmed means reproduced: each confirmed finding's witness runs
    // natively on the same build before it is reported.
    crate::replay::confirm_natively(&mut report, !a.no_replay);
    write_check_reports(&a, &report, style)?;
    if let Some(path) = &a.plot {
        std::fs::write(path, crate::report::error_plot::render(&report.tolerance)).map_err(|e| Error::Io(path.clone(), e))?;
    }
    if let Some(dir) = &a.output_dir {
        crate::report::write_ktests(dir, &report).map_err(|e| Error::Io(dir.clone(), e))?;
    }
    Ok(report.verdict.exit_code())
}

/// Prints or writes the report where the command line asks; the exit
/// status.
fn write_check_reports(a: &CheckArgs, report: &crate::report::Report, style: &crate::report::TextStyle) -> Result<i32, Error> {
    if !super::stdout_taken(&a.limits.json, &a.ci, &a.html) {
        print!("{}", text::render_styled(report, style));
    }
    super::write_json(&a.limits.json, &report.to_json())?;
    super::write_ci_reports(&a.ci, report, "symcross.check")?;
    super::html_out::write_report(&a.html, report)?;
    Ok(report.verdict.exit_code())
}

/// `--shard K/N` of `check`: the same spelling as the suite's.
fn path_shard(text: &str) -> Result<crate::config::PathShard, Error> {
    let (k, n) = crate::suite::shard::parse(text).map_err(Error::Usage)?;
    let too_many = || Error::Usage(format!("--shard {text}: at most {} shards", u32::MAX));
    Ok(crate::config::PathShard { index: u32::try_from(k - 1).map_err(|_| too_many())?, count: u32::try_from(n).map_err(|_| too_many())? })
}

/// What `symcross replay` needs to rebuild the inputs of a `check` run.
fn build_record(a: &CheckArgs, opts: &CompileOptions, assumptions: &[String]) -> crate::report::BuildRecord {
    let shown = |p: &std::path::PathBuf| p.display().to_string();
    crate::report::BuildRecord {
        inputs: a.files.iter().map(shown).collect(),
        input_digests: a.files.iter().map(|f| std::fs::read(f).map(|b| crate::replay::content_digest(&b)).unwrap_or_default()).collect(),
        directory: std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_default(),
        include_dirs: opts.include_dirs.iter().map(shown).collect(),
        defines: opts.defines.clone(),
        cflags: opts.cflags.clone(),
        compiled_with: crate::frontend::describe_flags(&opts.cflags),
        runtime_flags: crate::frontend::RUNTIME_FLAGS.iter().map(|s| s.to_string()).collect(),
        target: opts.target.clone(),
        entry: a.entry.clone(),
        assumptions: assumptions.to_vec(),
        nan: Some(crate::expr::NanModel::from_flag(&a.nan).unwrap_or_default().flag().to_string()),
        symcross_version: env!("CARGO_PKG_VERSION").to_string(),
    }
}

/// Runs a program on concrete (all-zero) inputs and prints its output.
pub fn run(a: RunArgs) -> Result<i32, Error> {
    let _run = tracing::info_span!("run", program = %input_name(&a.files)).entered();
    let opts = CompileOptions { cuda_host: true, ..compile_options(&a.compile)? };
    let mut loaded = crate::driver::load(&a.files, &opts)?;
    let config = Config { native_libm: true, ..Config::default() };
    loaded.prepare(&config);
    let (report, output) = crate::driver::check_module(&loaded, &input_name(&a.files), &a.entry, &config)?;
    let report = report.concrete();
    use std::io::Write;
    let _ = std::io::stdout().write_all(&output);
    if !report.findings.is_empty() {
        eprint!("{}", text::render(&report));
    }
    Ok(report.verdict.exit_code())
}
