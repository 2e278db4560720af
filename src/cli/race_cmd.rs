//! `symcross race`: reads the NDRange, the fixed arguments and the limits
//! from the command line, runs the kernel alone (`driver::run_kernel`) and
//! writes the reports.

use super::args::RaceArgs;
use crate::config::Config;
use crate::report::text;
use crate::report::RaceMode;
use crate::Error;
use std::collections::HashMap;

/// Up to this many work-items `symcross race` enumerates them unless
/// `--mode` says otherwise; above, it checks with two symbolic work-items
/// (pair mode), which covers every pair of work-items of any NDRange and
/// whose cost does not grow with it. Enumeration is exact but linear in
/// the work-items, and a standalone kernel's symbolic inputs make each
/// work-item costlier than in a host program's launch (whose own, higher
/// bound is `exec::opencl::launch::HOST_LAUNCH_ENUMERATE_UP_TO`).
pub const RACE_ENUMERATE_BY_DEFAULT_UP_TO: u64 = 4096;

/// When work-items are enumerated because `--mode` was not given, and more
/// paths than this wait to be explored (each work-item branching on its
/// own data, a barrier in the branch, so that paths cannot merge), the
/// enumeration stops and the kernel is checked in pair mode instead, whose
/// two symbolic work-items branch once each.
pub const ENUMERATION_OPEN_PATHS: u64 = 1024;

/// Runs `symcross race`: checks the kernel, writes the reports; returns the
/// exit status.
pub fn race(a: RaceArgs, style: &crate::report::TextStyle) -> Result<i32, Error> {
    let _run = tracing::info_span!("race", file = %a.file.display(), kernel = a.kernel.as_deref()).entered();
    let opts = crate::cli::check_cmd::compile_options(&a.compile)?;
    let uniform_only = super::race_ndrange::uniform_groups_required(&opts.cflags);
    let words = super::race_ndrange::SizeWords::for_input(&a.file);
    let nd = super::race_ndrange::ndrange(a.local_size.as_deref(), a.num_groups.as_deref(), a.global_size.as_deref(), uniform_only, words)?;
    let mode = match a.mode {
        // Pair mode's two work-items must be distinct: an NDRange of one
        // work-item has no pair, so it is enumerated (exactly what a pair
        // would stand for).
        Some(RaceMode::Pair) if nd.total() < 2 => RaceMode::Enumerate,
        Some(m) => m,
        None if nd.total() <= RACE_ENUMERATE_BY_DEFAULT_UP_TO => RaceMode::Enumerate,
        None => RaceMode::Pair,
    };
    let mut config = Config::default();
    crate::cli::check_cmd::apply_limits(&mut config, &a.limits)?;
    crate::cli::ensure_writable(&[&a.limits.json, &a.ci.sarif, &a.ci.junit, &a.html])?;
    crate::cli::one_report_on_stdout(&[
        ("--json", &a.limits.json),
        ("--sarif", &a.ci.sarif),
        ("--junit", &a.ci.junit),
        ("--html", &a.html),
    ])?;
    config.stop_at_first_finding = !a.all_findings;
    // Shallow paths first (seeded, so runs are reproducible): a loop
    // bounded by a symbolic value must not keep one work-item unrolling
    // while the short trip counts, where races show, wait (depth-first).
    config.searcher = a.searcher;
    config.seed = a.seed;
    if a.loop_bound == 0 || a.max_item_steps == 0 {
        return Err(Error::Usage("--loop-bound and --max-item-steps must be positive".into()));
    }
    config.loop_bound = Some(a.loop_bound);
    config.max_item_steps = Some(a.max_item_steps);
    config.max_race_queries = a.max_race_queries;
    config.max_undefined_queries = a.max_undefined_queries;
    config.stored_overflow_is_use = a.check_stored_overflow;
    config.local_memory_arbitrary = a.local_memory == crate::cli::args::LocalMemory::Arbitrary;
    config.benign_read_write = a.allow_benign_read_write;
    config.perf = perf_config(&a.perf)?;
    if let Some(w) = a.warp_sync {
        if !(1..=32).contains(&w) {
            return Err(Error::Usage(format!("--warp-sync takes the lanes of a warp, 1 to 32, not {w}")));
        }
        config.warp_sync = Some(w);
    }
    config.only_warp = a.only_warp;
    config.no_warp = a.no_warp;
    if a.mode.is_none() && mode == RaceMode::Enumerate {
        config.max_open_paths = Some(ENUMERATION_OPEN_PATHS);
    }
    let fixed = parse_fixed_args(&a.arg)?;
    let name = a.file.display().to_string();
    let mut loaded = match crate::driver::load(std::slice::from_ref(&a.file), &opts) {
        Ok(loaded) => loaded,
        Err(e) => match super::device_launch::report_instead_of(&name, &e) {
            Some(report) => return write_reports(&a, &report, style),
            None => return Err(e.into()),
        },
    };
    loaded.prepare(&config);
    let run = crate::driver::KernelRun {
        input: &name,
        kernel: a.kernel.as_deref(),
        ndrange: nd,
        mode,
        fixed: &fixed,
        allow_benign: a.allow_benign_races,
        only_groups: None,
    };
    let mut outcome = crate::driver::run_kernel(&loaded, &run, &config)?;
    let mut ran = run;
    if let Some(why) = switch_to_pair_mode(&a, &outcome.report) {
        let enumerated = nd.total();
        config.max_open_paths = None;
        ran = crate::driver::KernelRun { mode: RaceMode::Pair, ..run };
        outcome = crate::driver::run_kernel(&loaded, &ran, &config)?;
        let report = &mut outcome.report;
        let cause = match why {
            crate::report::Limit::OpenPaths => format!(
                "left more than {ENUMERATION_OPEN_PATHS} paths open (work-items branching on their own data where paths cannot merge)"
            ),
            _ => format!(
                "asked --max-race-queries {} solver queries at one race check and left pairs of accesses undecided (many work-items \
                 accessing at offsets only the solver tells apart)",
                config.max_race_queries
            ),
        };
        report.warnings.push(crate::report::Warning {
            kind: "mode-switch",
            message: format!(
                "enumerating the {enumerated} work-items {cause}: the kernel was checked in pair mode instead, two symbolic work-items \
                 standing for every pair (--mode enumerate insists)"
            ),
        });
    }
    let mut report = crate::driver::recheck_havoc_doubts(&loaded, &ran, &config, outcome)?;
    if a.mode == Some(RaceMode::Pair) && mode == RaceMode::Enumerate {
        report.warnings.push(crate::report::Warning {
            kind: "mode-switch",
            message: "--mode pair needs two distinct work-items and the NDRange has one: it was run enumerated".into(),
        });
    }
    if config.warp_sync.is_some() && ran.mode == RaceMode::Pair {
        report.warnings.push(crate::report::Warning {
            kind: "warp-sync-not-applied",
            message: "pair mode runs two threads, not warps: --warp-sync was not applied, and races between threads of one warp are \
                      reported as without it (--mode enumerate applies it)"
                .into(),
        });
    }
    if config.only_warp {
        let lanes = config.warp_sync.unwrap_or(32);
        report.warnings.push(crate::report::Warning {
            kind: "only-warp",
            message: format!(
                "--only-warp: only races between threads of one warp ({lanes} consecutive threads of a block) were looked for; races \
                 between warps and between blocks were not checked"
            ),
        });
    }
    if config.no_warp {
        let lanes = config.warp_sync.unwrap_or(32);
        report.warnings.push(crate::report::Warning {
            kind: "no-warp",
            message: format!(
                "--no-warp: only races between threads of different warps ({lanes} consecutive threads of a block) or blocks were looked \
                 for; races between two threads of one warp were not checked"
            ),
        });
    }
    write_reports(&a, &report, style)
}

/// Prints or writes the report where the command line asks; the exit
/// status.
fn write_reports(a: &RaceArgs, report: &crate::report::Report, style: &crate::report::TextStyle) -> Result<i32, Error> {
    if !crate::cli::stdout_taken(&a.limits.json, &a.ci, &a.html) {
        print!("{}", text::render_styled(report, style));
    }
    crate::cli::write_json(&a.limits.json, &report.to_json())?;
    crate::cli::write_ci_reports(&a.ci, report, "symcross.race")?;
    super::html_out::write_report(&a.html, report)?;
    Ok(report.verdict.exit_code())
}

/// The limit that stopped a default enumeration before anything confirmed
/// was found, when pair mode decides instead: `ENUMERATION_OPEN_PATHS`,
/// or `--max-race-queries` at a race check (pair mode's two symbolic
/// work-items make one pair of accesses of what enumeration checks as one
/// pair per two work-items).
fn switch_to_pair_mode(a: &RaceArgs, report: &crate::report::Report) -> Option<crate::report::Limit> {
    use crate::report::Limit;
    if a.mode.is_some() || report.verdict == crate::report::Verdict::Findings {
        return None;
    }
    report.limit.filter(|l| matches!(l, Limit::OpenPaths | Limit::RaceQueries))
}

fn parse_fixed_args(args: &[String]) -> Result<HashMap<String, String>, Error> {
    let mut out = HashMap::new();
    for a in args {
        let Some((k, v)) = a.split_once('=') else {
            return Err(Error::Usage(format!("--arg takes NAME=VALUE, not `{a}`")));
        };
        out.insert(k.trim().to_string(), v.trim().to_string());
    }
    Ok(out)
}

/// The modelled GPU of `--perf`, or None without it. Widths must be
/// positive powers of two, as every GPU's are (warps and wavefronts of 32
/// or 64, 16 or 32 banks, 32-byte segments).
pub(super) fn perf_config(a: &crate::cli::args::PerfArgs) -> Result<Option<crate::config::PerfConfig>, Error> {
    if !a.perf {
        return Ok(None);
    }
    for (flag, v) in [("--warp-size", a.warp_size), ("--banks", a.banks), ("--bank-width", a.bank_width), ("--segment", a.segment)] {
        if v == 0 || !v.is_power_of_two() || v > 4096 {
            return Err(Error::Usage(format!("{flag} must be a power of two from 1 to 4096, not {v}")));
        }
    }
    Ok(Some(crate::config::PerfConfig {
        warp_size: a.warp_size,
        banks: a.banks,
        bank_width: a.bank_width,
        segment: a.segment,
        max_queries: a.perf_queries,
    }))
}
