//! Runs one OpenCL kernel alone (`symcross race`, the bench's race
//! section). Pointer arguments become buffers (address-only and
//! unbounded, or of the size `--arg NAME=BYTES` gives, with symbolic
//! contents and bounds checks), scalar arguments symbolic unless `--arg
//! NAME=VALUE` fixes them. `__local` pointer arguments are unbounded too
//! (GPUVerify does not bound pointer arguments either); the host sizes
//! them with clSetKernelArg.

use super::Loaded;
use crate::config::Config;
use crate::config::NdRange;
use crate::driver::DriverError;
use crate::exec::Executor;
use crate::exec::NdRangeSetup;
use crate::ir::{Function, Module};
use crate::report::RaceMode;
use crate::report::Report;
use std::collections::HashMap;

/// What to run: which kernel, over which NDRange, in which mode, with
/// which arguments fixed.
#[derive(Clone, Copy)]
pub struct KernelRun<'a> {
    /// The input as the report names it.
    pub input: &'a str,
    /// The kernel to run; None when the module holds only one.
    pub kernel: Option<&'a str>,
    /// The sizes of the launch (`--local-size`, and `--num-groups` or
    /// `--global-size`).
    pub ndrange: NdRange,
    /// Enumerate every work-item, or run two with symbolic ids (README,
    /// OpenCL).
    pub mode: RaceMode,
    /// `--arg NAME=VALUE`: parameter name to the value (or buffer size) given.
    pub fixed: &'a HashMap<String, String>,
    /// Races on which every writer stores the same value are not reported.
    pub allow_benign: bool,
    /// Enumerate mode: run only these work-groups (flat indices), in this
    /// order; `None`: every group (group_recheck.rs).
    pub only_groups: Option<&'a [u64]>,
}

/// A kernel run's report, and what re-checking it needs.
pub struct KernelReport {
    /// The report.
    pub report: Report,
    /// Pair mode: the work-groups (flat indices) of each finding the havoc
    /// at barriers left unconfirmed (group_recheck.rs).
    pub havoc_doubts: Vec<Vec<u64>>,
}

fn find_kernel<'a>(module: &'a Module, name: Option<&str>, file: &str) -> Result<(crate::ir::FuncId, &'a Function), DriverError> {
    let kernels: Vec<_> = module.functions.iter().enumerate().filter(|(_, f)| f.is_kernel && !f.is_declaration()).collect();
    // The kernels' names, for the errors only.
    let names = || kernels.iter().map(|(_, f)| crate::ir::demangle(&f.name).map_or(f.name.clone(), |(p, _)| p.to_string())).collect();
    if kernels.is_empty() {
        return Err(DriverError::NoKernel(file.to_string()));
    }
    // A CUDA kernel's name is C++-mangled (`_Z3addPfi`): it is also found
    // by its plain name.
    let plain = |f: &Function| crate::ir::demangle(&f.name).map(|(p, _)| p.to_string()).unwrap_or_else(|| f.name.clone());
    let pick = match name {
        Some(n) => kernels.iter().find(|(_, f)| f.name == n).or_else(|| kernels.iter().find(|(_, f)| plain(f) == n)),
        None if kernels.len() == 1 => kernels.first(),
        None => {
            return Err(DriverError::KernelNotNamed { input: file.to_string(), kernels: names() });
        }
    };
    match pick {
        Some((i, f)) => Ok((crate::ir::FuncId(*i as u32), f)),
        None => Err(DriverError::UnknownKernel { input: file.to_string(), wanted: name.unwrap_or("?").to_string(), kernels: names() }),
    }
}

/// Runs the kernel `run` names over its NDRange and reports.
pub fn run_kernel(loaded: &Loaded, run: &KernelRun, config: &Config) -> Result<KernelReport, DriverError> {
    let module = &loaded.module;
    let (kid, kf) = find_kernel(module, run.kernel, run.input)?;
    for k in run.fixed.keys() {
        if !kf.params.iter().any(|p| &p.name == k) {
            return Err(DriverError::UnknownParameter { name: k.clone(), kernel: kf.name.clone() });
        }
    }
    let args = kf
        .params
        .iter()
        .zip(1u32..)
        .map(|(p, position)| {
            let given = run.fixed.get(&p.name);
            // A CUDA kernel carries no OpenCL argument types: a pointer's
            // element comes from the debug information, so that
            // `--arg idx=16:values:3,1` gives ints to an `int *`.
            if p.cl_type.is_none() && given.is_some() {
                let p = super::kernel_args::with_debug_element(p, &kf.name, position, &module.debug_types);
                return super::kernel_args::standalone_arg(&p, given);
            }
            super::kernel_args::standalone_arg(p, given)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let nd = run.ndrange;
    let one_group = run.mode == RaceMode::Enumerate
        && run.only_groups.is_none()
        && nd.num_groups() > 1
        // A smaller last group (non-uniform work-groups) need not run as
        // the first one does.
        && nd.is_uniform()
        // Blocks meeting at a grid barrier run together, in phases.
        && module.find_function(crate::exec::GRID_SYNC).is_none()
        && crate::race::group_symmetry::groups_alike(module, kid);
    let only_groups = if one_group { Some(vec![0]) } else { run.only_groups.map(<[u64]>::to_vec) };
    let setup = NdRangeSetup { kernel: kid, ndrange: nd, mode: run.mode, allow_benign: run.allow_benign, only_groups };
    let mut exec = Executor::new(module, config.clone(), super::decider(config)?);
    let state = exec.standalone_kernel_state(setup, &args).map_err(|over| {
        let limit = config.max_memory_mb.unwrap_or_else(crate::config::physical_memory_mb);
        DriverError::BufferTooLarge { name: over.name, bytes: over.bytes, limit_mb: limit }
    })?;
    let outcome = exec.run(state);
    let coverage = crate::report::Coverage { memory_accesses: Some(outcome.coverage.memory_accesses.unwrap_or(0)), ..outcome.coverage };
    let mut report = Report::new(run.input.to_string(), vec![], outcome.findings, outcome.stats, outcome.limit, Some(coverage));
    report.stats.merged += loaded.folded;
    // Paths cut by a budget: say where, so that the limit can be raised
    // knowingly.
    for note in outcome.path_cuts {
        report.warnings.push(crate::report::Warning { kind: "path-cut", message: note });
    }
    for note in outcome.nonterminating {
        report.warnings.push(crate::report::Warning { kind: "non-terminating", message: note });
    }
    for note in outcome.undefined_values {
        report.warnings.push(crate::report::Warning { kind: "undefined-value", message: note });
    }
    for note in outcome.unchecked_local_reads {
        report.warnings.push(crate::report::Warning { kind: "local-read-unchecked", message: note });
    }
    for note in outcome.perf_incomplete {
        report.warnings.push(crate::report::Warning { kind: "perf-incomplete", message: note });
    }
    report.mode = Some(crate::report::RaceModeRecord {
        mode: run.mode,
        work_items: nd.total(),
        one_group_for: one_group.then(|| nd.num_groups()),
        stopped_at_first_finding: outcome.stopped_at_first_finding,
    });
    Ok(KernelReport { report, havoc_doubts: outcome.havoc_doubts })
}
