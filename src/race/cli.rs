//! `symcross race`: checks one OpenCL kernel alone. Pointer arguments
//! become buffers (address-only and unbounded, or of the size `--arg
//! NAME=BYTES` gives, with symbolic contents and bounds checks), scalar
//! arguments symbolic unless `--arg NAME=VALUE` fixes them. `__local`
//! pointer arguments are unbounded too (GPUVerify does not bound pointer
//! arguments either); the host sizes them with clSetKernelArg.

use crate::cli::RaceArgs;
use crate::config::Config;
use crate::exec::engine::value::Value;
use crate::exec::opencl::workitems::{Gpu, NdRange, RaceMode};
use crate::exec::Executor;
use crate::ir::{Function, Module, Type};
use crate::report::{text, DecidedCounts, Report, RunStats};
use crate::Error;
use std::collections::HashMap;

/// Above this many work-items the pair mode is used by default.
pub const ENUMERATE_LIMIT: u64 = 4096;

pub fn cli(a: RaceArgs, style: &crate::report::TextStyle) -> Result<i32, Error> {
    let nd = ndrange(&a.local_size, a.num_groups.as_deref(), a.global_size.as_deref())?;
    let mode = match a.mode.as_deref() {
        None => {
            if nd.total() <= ENUMERATE_LIMIT {
                RaceMode::Enumerate
            } else {
                RaceMode::Pair
            }
        }
        Some("enumerate") => RaceMode::Enumerate,
        Some("pair") => RaceMode::Pair,
        Some(other) => return Err(Error::Usage(format!("--mode must be `enumerate` or `pair`, not `{other}`"))),
    };
    let mut config = Config::default();
    crate::cli::check_cmd::apply_limits(&mut config, &a.limits)?;
    crate::cli::ensure_writable(&[&a.limits.json, &a.ci.sarif, &a.ci.junit])?;
    config.stop_at_first_finding = !a.all_findings;
    // Shallow paths first (seeded, so runs are reproducible): a loop
    // bounded by a symbolic value must not keep one work-item unrolling
    // while the short trip counts, where races show, wait (depth-first).
    config.searcher = a.searcher.unwrap_or(crate::config::SearcherKind::RandomPath);
    config.seed = a.seed;
    if a.loop_bound == 0 || a.max_item_steps == 0 {
        return Err(Error::Usage("--loop-bound and --max-item-steps must be positive".into()));
    }
    config.loop_bound = Some(a.loop_bound);
    config.max_item_steps = Some(a.max_item_steps);
    config.benign_read_write = a.allow_benign_read_write;
    let opts = crate::cli::check_cmd::compile_options(&a.compile)?;
    let mut loaded = crate::pipeline::load(std::slice::from_ref(&a.file), &opts)?;
    let folded = crate::pipeline::prepare(&mut loaded.module, &config);
    let fixed = parse_fixed_args(&a.arg)?;
    let name = a.file.display().to_string();
    let mut report = run_kernel(&loaded.module, &name, a.kernel.as_deref(), nd, mode, &fixed, a.allow_benign_races, &config)?;
    report.stats.merged += folded.folded();
    if !crate::cli::stdout_taken(&a.limits.json, &a.ci) {
        print!("{}", text::render_styled(&report, style));
    }
    crate::cli::write_json(&a.limits.json, &report.to_json())?;
    crate::cli::write_ci_reports(&a.ci, &report, "symcross.race")?;
    Ok(report.verdict.exit_code())
}

/// Parses `X[,Y,Z]` into three sizes (missing dimensions are 1).
fn dims(s: &str, what: &str) -> Result<(u32, [u64; 3]), Error> {
    // GPUVerify writes sizes as `[16,16]`.
    let s = s.trim();
    let s = s.strip_prefix('[').and_then(|t| t.strip_suffix(']')).unwrap_or(s);
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(Error::Usage(format!("{what} takes 1 to 3 comma-separated sizes, not `{s}`")));
    }
    let mut out = [1u64; 3];
    for (i, p) in parts.iter().enumerate() {
        out[i] =
            p.parse::<u64>().ok().filter(|v| *v > 0).ok_or_else(|| Error::Usage(format!("{what}: `{p}` is not a positive integer")))?;
    }
    Ok((parts.len() as u32, out))
}

pub fn ndrange(local: &str, groups: Option<&str>, global: Option<&str>) -> Result<NdRange, Error> {
    let (dl, l) = dims(local, "--local-size")?;
    let (dg, g) = match (groups, global) {
        (Some(g), None) => dims(g, "--num-groups")?,
        (None, Some(gl)) => {
            let (d, total) = dims(gl, "--global-size")?;
            let mut g = [1u64; 3];
            for i in 0..3 {
                if total[i] % l[i] != 0 {
                    return Err(Error::Usage(format!(
                        "--global-size {} is not a multiple of --local-size {} in dimension {i}",
                        total[i], l[i]
                    )));
                }
                g[i] = total[i] / l[i];
            }
            (d, g)
        }
        _ => return Err(Error::Usage("give --num-groups or --global-size".into())),
    };
    let nd = NdRange { dims: dl.max(dg), local: l, groups: g, offset: [0; 3] };
    // Sizes, ids and the default size of __local buffers (16 bytes per
    // work-item) are all 64-bit numbers.
    match nd.checked_total() {
        Some(total) if nd.items_per_group().checked_mul(16).is_some() && total.checked_mul(16).is_some() => Ok(nd),
        _ => Err(Error::Usage(format!(
            "the NDRange (work-groups of {}x{}x{}, {}x{}x{} of them) is too large: its number of work-items must fit in 60 bits",
            l[0], l[1], l[2], g[0], g[1], g[2]
        ))),
    }
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

fn find_kernel<'a>(module: &'a Module, name: Option<&str>, file: &str) -> Result<(crate::ir::FuncId, &'a Function), Error> {
    let kernels: Vec<_> = module.functions.iter().enumerate().filter(|(_, f)| f.is_kernel && !f.is_declaration()).collect();
    let names: Vec<&str> = kernels.iter().map(|(_, f)| f.name.as_str()).collect();
    if kernels.is_empty() {
        return Err(Error::Usage(format!(
            "{file}: no kernel in this file (a kernel is a function declared `__kernel void name(...)`); `symcross race` checks one kernel"
        )));
    }
    let pick = match name {
        Some(n) => kernels.iter().find(|(_, f)| f.name == n),
        None if kernels.len() == 1 => kernels.first(),
        None => {
            return Err(Error::Usage(format!("{file}: name the kernel with --kernel (found: {})", names.join(", "))));
        }
    };
    match pick {
        Some((i, f)) => Ok((crate::ir::FuncId(*i as u32), f)),
        None => Err(Error::Usage(format!("{file}: no kernel `{}`; the kernels in it are: {}", name.unwrap_or("?"), names.join(", ")))),
    }
}

#[allow(clippy::too_many_arguments)]
pub fn run_kernel(
    module: &Module,
    input: &str,
    kernel: Option<&str>,
    nd: NdRange,
    mode: RaceMode,
    fixed: &HashMap<String, String>,
    allow_benign: bool,
    config: &Config,
) -> Result<Report, Error> {
    let (kid, kf) = find_kernel(module, kernel, input)?;
    for k in fixed.keys() {
        if !kf.params.iter().any(|p| &p.name == k) {
            return Err(Error::Usage(format!("--arg {k}: kernel `{}` has no parameter `{k}`", kf.name)));
        }
    }
    let mut exec = Executor::new(module, config.clone(), crate::pipeline::decider(config)?);
    let mut state = exec.memory_state();
    let mut args: Vec<Value> = Vec::new();
    let mut local_objects = Vec::new();
    for p in &kf.params {
        let v = kernel_argument(&mut exec, &mut state, p, fixed, &mut local_objects)?;
        args.push(v);
    }
    for (i, g) in module.globals.iter().enumerate() {
        if g.addr_space == crate::race::LOCAL_SPACE {
            let base = exec.global_address(crate::ir::GlobalId(i as u32));
            if let Some(obj) = state.memory.object_near(base) {
                local_objects.push(obj);
            }
        }
    }
    state.gpu = Some(Box::new(Gpu {
        ndrange: nd,
        mode,
        items: Vec::new(),
        current: 0,
        group: 0,
        kernel: kid,
        args,
        log: Default::default(),
        allow_benign,
        local_objects,
        item_started: 0,
        one_group_stands_for_all: mode == RaceMode::Enumerate
            && nd.num_groups() > 1
            && crate::race::group_symmetry::groups_alike(module, kid),
    }));
    let one_group = state.gpu.as_ref().is_some_and(|g| g.one_group_stands_for_all);
    exec.start_kernel(&mut state);
    exec.run(state);
    let stats = RunStats {
        paths: exec.stats.paths,
        merged: exec.stats.merged,
        instructions: exec.stats.instructions,
        queries: exec.decider.backend.queries(),
        seconds: exec.elapsed(),
        decided: DecidedCounts::default(),
    };
    let limit = exec.limit_hit.as_ref().map(|l| l.name().to_string());
    let findings = std::mem::take(&mut exec.findings);
    let cuts = std::mem::take(&mut exec.path_limit_notes);
    let coverage = crate::report::Coverage { memory_accesses: Some(exec.coverage.memory_accesses.unwrap_or(0)), ..exec.coverage.clone() };
    let mut report = Report::new(input.to_string(), vec![], findings, stats, limit, Some(coverage));
    // Paths cut by a budget: say where, so that the limit can be raised
    // knowingly.
    for note in cuts {
        report.warnings.push(crate::report::Warning { kind: "path-cut", message: note });
    }
    report.mode = Some(match mode {
        RaceMode::Enumerate => format!("enumerate ({} work-items)", nd.total()),
        RaceMode::Pair => format!("pair (two symbolic work-items cover all {} work-items)", nd.total()),
    });
    if one_group {
        if let Some(m) = report.mode.as_mut() {
            m.push_str(&format!(
                "; one work-group stands for all {}: the kernel uses no group-dependent id and no global memory",
                nd.num_groups()
            ));
        }
    }
    if exec.stopped_at_finding {
        if let Some(m) = report.mode.as_mut() {
            m.push_str("; stopped at the first confirmed finding (--all-findings goes on)");
        }
    }
    Ok(report)
}

fn kernel_argument(
    exec: &mut Executor,
    state: &mut crate::exec::engine::state::State,
    p: &crate::ir::Param,
    fixed: &HashMap<String, String>,
    locals: &mut Vec<crate::exec::memory::ObjectId>,
) -> Result<Value, Error> {
    let given = fixed.get(&p.name);
    if let Some((size, align)) = p.byval {
        // A struct passed by value: symbolic bytes, copied by each work-item.
        if given.is_some() {
            return Err(Error::Usage(format!("--arg {}: a struct argument cannot be given a value", p.name)));
        }
        let base = exec.symbolic_byval_argument(&mut state.memory, &p.name, size, align);
        return Ok(smallvec::smallvec![exec.pool.constant(64, base as u128)]);
    }
    match &p.ty {
        Type::Ptr { addr_space } => {
            let space = *addr_space;
            let size = match given {
                Some(v) => Some(buffer_size(&p.name, v)?),
                None => None,
            };
            let obj = match size {
                None => state.memory.allocate_address_only(&mut exec.pool, p.name.clone(), space),
                Some(n) => {
                    if exec.admit_allocation(n).is_err() {
                        return Err(Error::Usage(format!(
                            "the buffer `{}` of {n} bytes does not fit in the memory limit ({} MiB; see --max-memory)",
                            p.name,
                            config_limit(exec)
                        )));
                    }
                    let obj = state.memory.allocate(&mut exec.pool, n, 16, crate::exec::memory::ObjectKind::Buffer, p.name.clone());
                    state.memory.object_mut(obj).addr_space = space;
                    if space == crate::race::LOCAL_SPACE {
                        locals.push(obj);
                    } else {
                        let array = exec.pool.new_array(&p.name, n as u32);
                        let o = state.memory.object_mut(obj);
                        o.bytes.fill_input(&mut exec.pool, 0, n, array, 0);
                    }
                    obj
                }
            };
            let base = state.memory.object(obj).base;
            Ok(smallvec::smallvec![exec.pool.constant(64, base as u128)])
        }
        t => {
            let widths = crate::exec::leaf_widths(t);
            if let Some(v) = given {
                let w = widths.first().copied().unwrap_or(32);
                let bits = parse_scalar(v, t).ok_or_else(|| Error::Usage(format!("--arg {}={v}: not a value of type {t:?}", p.name)))?;
                return Ok(smallvec::smallvec![exec.pool.constant(w, bits)]);
            }
            let total: u32 = widths.iter().map(|w| w.div_ceil(8)).sum();
            let array = exec.pool.new_array(&p.name, total);
            let mut out = Value::new();
            let mut byte = 0;
            for w in widths {
                out.push(exec.pool.input_word(array, byte, w));
                byte += w.div_ceil(8);
            }
            Ok(out)
        }
    }
}

fn config_limit(exec: &Executor) -> u64 {
    exec.config.max_memory_mb.unwrap_or_else(crate::config::physical_memory_mb)
}

/// Largest buffer `--arg NAME=BYTES` may give: the bytes of one symbolic
/// input are numbered with 32 bits.
const MAX_BUFFER_BYTES: u64 = u32::MAX as u64;

fn buffer_size(name: &str, v: &str) -> Result<u64, Error> {
    let n = v.parse::<u64>().map_err(|_| Error::Usage(format!("--arg {name}={v}: a buffer size in bytes is expected")))?;
    if n > MAX_BUFFER_BYTES {
        return Err(Error::Usage(format!("--arg {name}={v}: a buffer is at most {MAX_BUFFER_BYTES} bytes")));
    }
    Ok(n)
}

fn parse_scalar(v: &str, t: &Type) -> Option<u128> {
    match t {
        Type::Float(crate::expr::FpFormat::Single) => v.parse::<f32>().ok().map(|x| x.to_bits() as u128),
        Type::Float(crate::expr::FpFormat::Double) => v.parse::<f64>().ok().map(|x| x.to_bits() as u128),
        Type::Int(w) => {
            let x: i128 = if let Some(h) = v.strip_prefix("0x") { i128::from_str_radix(h, 16).ok()? } else { v.parse().ok()? };
            Some(x as u128 & crate::expr::mask(*w))
        }
        _ => None,
    }
}
