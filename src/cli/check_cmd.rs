//! `symcross check` and `symcross run`.

use super::args::{CheckArgs, CompileArgs, FpSolverArg, LimitArgs, RunArgs, SearcherArg};
use crate::config::{Assumptions, Config, FpSolverKind, SearcherKind};
use crate::frontend::CompileOptions;
use crate::report::text;
use crate::Error;
use std::time::Duration;

pub fn compile_options(c: &CompileArgs) -> Result<CompileOptions, Error> {
    let extra = match &c.cflags {
        Some(f) => f.split_whitespace().map(str::to_string).collect(),
        None => Vec::new(),
    };
    Ok(CompileOptions { include_dirs: c.include.clone(), defines: c.define.clone(), cflags: extra, ..Default::default() })
}

pub fn apply_limits(config: &mut Config, l: &LimitArgs) -> Result<(), Error> {
    let secs = |s: f64, what: &str| {
        if s.is_finite() && s > 0.0 {
            Ok(Duration::from_secs_f64(s))
        } else {
            Err(Error::Usage(format!("{what} must be a positive number of seconds, not {s}")))
        }
    };
    config.max_time = l.max_time.map(|s| secs(s, "--max-time")).transpose()?;
    config.max_paths = l.max_paths;
    config.max_memory_mb = l.max_memory;
    config.query_timeout = secs(l.query_timeout, "--query-timeout")?;
    config.progress = l.progress;
    Ok(())
}

pub fn input_name(files: &[std::path::PathBuf]) -> String {
    files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(" ")
}

pub fn check(a: CheckArgs) -> Result<i32, Error> {
    let mut config = Config::default();
    apply_limits(&mut config, &a.limits)?;
    if let Some(list) = &a.assume {
        config.assumptions = Assumptions::parse(list).map_err(Error::Usage)?;
    }
    config.rule_dirs = a.rules.clone();
    config.trust_rules = a.trust_rules;
    let unverified_rules = crate::rule_proofs::prove_user_rules(&config)?;
    config.searcher = match a.searcher {
        SearcherArg::Dfs => SearcherKind::Dfs,
        SearcherArg::Bfs => SearcherKind::Bfs,
        SearcherArg::RandomPath => SearcherKind::RandomPath,
    };
    config.seed = a.seed;
    config.fp_solver = match a.fp_solver {
        FpSolverArg::Cvc5 => FpSolverKind::Cvc5,
        FpSolverArg::Z3 => FpSolverKind::Z3,
    };
    config.merge = !a.no_merge;
    config.fold_threshold = a.fold_threshold;
    config.egraph = !a.no_egraph;
    config.egraph_node_limit = a.egraph_nodes as usize;
    config.egraph_iter_limit = a.egraph_iterations as usize;
    config.sample_trials = a.sample_trials;
    let opts = compile_options(&a.compile)?;
    let mut loaded = crate::pipeline::load(&a.files, &opts)?;
    let folded = crate::pipeline::prepare(&mut loaded.module, &config);
    let name = input_name(&a.files);
    let (mut report, _) = crate::pipeline::check_module(&loaded.module, &name, &a.entry, &config)?;
    report.stats.merged += folded.folded();
    report.mark_unverified_rules(unverified_rules);
    if !super::stdout_taken(&a.limits.json, &a.ci) {
        print!("{}", text::render(&report));
    }
    super::write_json(&a.limits.json, &report.to_json())?;
    super::write_ci_reports(&a.ci, &report, "symcross.check")?;
    Ok(report.verdict.exit_code())
}

/// Runs a program on concrete (all-zero) inputs and prints its output.
pub fn run(a: RunArgs) -> Result<i32, Error> {
    let opts = compile_options(&a.compile)?;
    let mut loaded = crate::pipeline::load(&a.files, &opts)?;
    let config = Config { native_libm: true, ..Config::default() };
    crate::pipeline::prepare(&mut loaded.module, &config);
    let (report, output) = crate::pipeline::check_module(&loaded.module, &input_name(&a.files), &a.entry, &config)?;
    let report = report.concrete();
    use std::io::Write;
    let _ = std::io::stdout().write_all(&output);
    if !report.findings.is_empty() {
        eprint!("{}", text::render(&report));
    }
    Ok(report.verdict.exit_code())
}
