//! `symcross bench`: the figures of BENCHMARKS.md, measured on this machine
//! (the command itself, choosing sections and where the Markdown goes, is
//! mod.rs).
//! Sections: concrete interpretation speed; the bundled harnesses; the
//! decision ladder against the bit-precise solver alone (paper cases); path
//! merging at growing sizes; race detection in both modes at growing NDRange
//! sizes; OpenCL host programs end to end. Each figure is the symbolic run
//! only (compilation excluded), except the OpenCL section, which times
//! everything a user waits for.

use crate::config::NdRange;
use crate::config::{Assumptions, Config};
use crate::frontend::CompileOptions;
use crate::report::RaceMode;
use crate::Error;
use std::collections::HashMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One program measured by `measure`: a line of a bench table.
pub struct Row {
    /// The program's file name.
    pub name: String,
    /// The report's verdict, in lower case.
    pub verdict: String,
    /// Paths explored.
    pub paths: u64,
    /// Instructions executed, summed over all paths.
    pub instructions: u64,
    /// Seconds of the symbolic run (compilation excluded).
    pub seconds: f64,
    /// The ladder step that decided: the first finding's, else the step
    /// that proved most checks.
    pub decided: String,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The sections of `symcross bench`, in the order they run and print.
pub const SECTIONS: [&str; 9] = ["concrete", "harnesses", "neon", "ladder", "reductions", "witnesses", "merging", "race", "opencl"];

/// Measures section `name` (one of `SECTIONS`): prints its figures as they
/// come and returns its Markdown.
pub fn section(name: &str) -> Result<String, Error> {
    match name {
        "concrete" => concrete_section(),
        "harnesses" => harness_section(),
        "neon" => neon_section(),
        "ladder" => ladder_section(),
        "reductions" => reductions_section(),
        "witnesses" => witness_section(),
        "merging" => merging_section(),
        "race" => race_section(),
        "opencl" => opencl_section(),
        _ => Err(Error::Usage(format!("unknown bench section `{name}` (expected one of {})", SECTIONS.join(", ")))),
    }
}

/// Interpretation speed on concrete inputs (bench/concrete_loop.c, scalar;
/// bench/concrete_sse2.c, SSE2 vectors).
fn concrete_section() -> Result<String, Error> {
    let mut md = String::new();
    let _ = writeln!(md, "## Concrete interpretation\n");
    for name in ["concrete_loop", "concrete_sse2"] {
        let c = measure(&root().join(format!("bench/{name}.c")), &[], &Config::default())?;
        let speed = c.instructions as f64 / c.seconds / 1e6;
        println!("concrete ({name}): {} instructions in {:.3} s = {speed:.1} M instructions/s", c.instructions, c.seconds);
        let _ =
            writeln!(md, "bench/{name}.c: {} LLVM instructions in {:.3} s = **{speed:.1} M instructions/s**\n", c.instructions, c.seconds);
    }
    Ok(md)
}

/// The clang flags a harness asks for on a `// cflags: ...` line (AVX2,
/// SSE4.1 harnesses), split into arguments.
fn harness_cflags(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .find_map(|l| l.trim().strip_prefix("// cflags:"))
        .map(|f| f.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// The instruction set a harness is written for, from a `// target: ...`
/// line (the NEON harnesses say `aarch64`); `None`: the host.
fn harness_target(path: &Path) -> Result<Option<String>, Error> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .find_map(|l| l.trim().strip_prefix("// target:"))
        .map(|t| crate::frontend::target::normalize(t).map_err(|e| Error::Usage(format!("{}: {e}", path.display()))))
        .transpose()
}

/// Compiles and checks one program, timing the symbolic run only.
pub fn measure(path: &Path, defines: &[String], config: &Config) -> Result<Row, Error> {
    let target = harness_target(path)?;
    let opts = CompileOptions { defines: defines.to_vec(), cflags: harness_cflags(path), target, ..Default::default() };
    let mut loaded = crate::driver::load(&[path.to_path_buf()], &opts)?;
    loaded.prepare(config);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
    let (report, _) = crate::driver::check_module(&loaded, &name, "main", config)?;
    let d = &report.stats.decided;
    let decided = match report.findings.first().and_then(|f| f.decided_by) {
        Some(by) => format!(
            "{} ({:?})",
            serde_json::to_value(by).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
            report.findings[0].status
        )
        .to_lowercase(),
        None => {
            [("structural", d.structural), ("canonical", d.canonical), ("implied-query", d.implied_query), ("bit-precise", d.bit_precise)]
                .into_iter()
                .max_by_key(|(_, n)| *n)
                .filter(|(_, n)| *n > 0)
                .map_or("-".to_string(), |(s, _)| s.to_string())
        }
    };
    Ok(Row {
        name,
        verdict: format!("{:?}", report.verdict).to_lowercase(),
        paths: report.stats.paths,
        instructions: report.stats.instructions,
        seconds: report.stats.seconds,
        decided,
    })
}

fn harness_section() -> Result<String, Error> {
    let mut s =
        String::from("## Harnesses (default settings)\n\n| harness | verdict | paths | instructions | seconds |\n|---|---|---|---|---|\n");
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["harnesses", "harnesses/simd"] {
        if let Ok(entries) = std::fs::read_dir(root().join(dir)) {
            files.extend(entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "c")));
        }
    }
    files.sort();
    for f in files {
        let r = measure(&f, &[], &Config::default())?;
        println!("{:<36} {:<12} {:>5} paths {:>9} instr {:>8.3} s", r.name, r.verdict, r.paths, r.instructions, r.seconds);
        let _ = writeln!(s, "| {} | {} | {} | {} | {:.3} |", r.name, r.verdict, r.paths, r.instructions, r.seconds);
    }
    s.push('\n');
    Ok(s)
}

/// The NEON harnesses (harnesses/neon/, compiled for AArch64).
fn neon_section() -> Result<String, Error> {
    let mut s = String::from(
        "## NEON harnesses (--target aarch64, default settings)\n\n| harness | verdict | paths | instructions | seconds | decided by |\n|---|---|---|---|---|---|\n",
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("harnesses/neon"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "c")).collect())
        .unwrap_or_default();
    files.sort();
    for f in files {
        let r = measure(&f, &[], &Config::default())?;
        println!("{:<36} {:<12} {:>5} paths {:>9} instr {:>8.3} s", r.name, r.verdict, r.paths, r.instructions, r.seconds);
        let _ = writeln!(s, "| {} | {} | {} | {} | {:.3} | {} |", r.name, r.verdict, r.paths, r.instructions, r.seconds, r.decided);
    }
    s.push('\n');
    Ok(s)
}

/// The paper cases with the full ladder and with the bit-precise solver
/// alone (`--no-egraph`), under the assumptions that decide them.
fn ladder_section() -> Result<String, Error> {
    let cases: &[(&str, &str)] = &[
        ("sum_reduction.c", "associativity,positive-zero,ordered"),
        ("sum_reduction.c", ""),
        ("ktt.c", "associativity"),
        ("ktt.c", ""),
        ("min_order.c", "ordered,positive-zero"),
        ("min_order.c", ""),
        ("min_order_swapped.c", ""),
        ("double_precision.c", ""),
        ("float_to_u16.c", ""),
        ("reciprocal.c", ""),
    ];
    let mut s = String::from(
        "## Decision ladder against the bit-precise solver alone\n\n\
         Solver-only runs use `--no-egraph` with a 60 s limit per query.\n\n\
         | case | --assume | verdict (ladder) | ladder s | verdict (solver only) | solver-only s | ratio |\n|---|---|---|---|---|---|---|\n",
    );
    for (file, assume) in cases {
        let path = root().join("harnesses/paper").join(file);
        let mut config = Config { assumptions: Assumptions::parse(assume).map_err(Error::Usage)?, ..Config::default() };
        let ladder = measure(&path, &[], &config)?;
        config.egraph = false;
        // Time only, as the table says (the solver-only column is a
        // measurement of the solver's time).
        (config.query_timeout, config.query_budget) = (Some(Duration::from_secs(60)), None);
        let solver = measure(&path, &[], &config)?;
        let ratio = solver.seconds / ladder.seconds.max(1e-4);
        println!(
            "{file:<22} {assume:<38} {} {:.3}s | {} {:.3}s | x{ratio:.0}",
            ladder.verdict, ladder.seconds, solver.verdict, solver.seconds
        );
        let _ = writeln!(
            s,
            "| {file} | {} | {} | {:.3} | {} | {:.3} | {ratio:.0}x |",
            if assume.is_empty() { "-" } else { assume },
            ladder.verdict,
            ladder.seconds,
            solver.verdict,
            solver.seconds
        );
    }
    s.push('\n');
    Ok(s)
}

/// Reductions of growing length under `--assume
/// associativity,positive-zero,ordered`: proved by the normal form, and the
/// variants that drop one term refuted by sampling.
fn reductions_section() -> Result<String, Error> {
    let mut s = String::from(
        "## Reductions under --assume associativity,positive-zero,ordered\n\n\
         | harness | N | verdict | decided by | seconds | -D DROP: verdict | decided by | seconds |\n|---|---|---|---|---|---|---|---|\n",
    );
    let config =
        Config { assumptions: Assumptions::parse("associativity,positive-zero,ordered").map_err(Error::Usage)?, ..Config::default() };
    for file in ["sum_sse.c", "dot_avx.c", "sum_pairwise.c"] {
        let path = root().join("harnesses/reductions").join(file);
        for n in [8, 16, 64, 256, 1024] {
            let d = vec![format!("N={n}")];
            let equal = measure(&path, &d, &config)?;
            let dropped = measure(&path, &[format!("N={n}"), "DROP".to_string()], &config)?;
            println!(
                "{file} N={n}: {} by {} {:.3}s | DROP {} by {} {:.3}s",
                equal.verdict, equal.decided, equal.seconds, dropped.verdict, dropped.decided, dropped.seconds
            );
            let _ = writeln!(
                s,
                "| {file} | {n} | {} | {} | {:.3} | {} | {} | {:.3} |",
                equal.verdict, equal.decided, equal.seconds, dropped.verdict, dropped.decided, dropped.seconds
            );
        }
    }
    s.push('\n');
    Ok(s)
}

/// Real floating-point mismatches that the solver alone takes minutes on:
/// how fast each gets its witness.
fn witness_section() -> Result<String, Error> {
    let mut s =
        String::from("## Witnesses of real mismatches\n\n| fixture | --assume | verdict | decided by | seconds |\n|---|---|---|---|---|\n");
    for (file, assume) in [
        ("regrouped_product.c", ""),
        ("squared_distance.c", ""),
        ("double_accumulator.c", ""),
        ("fused_multiply_add.c", "all"),
        ("doubled_memcmp.c", ""),
        ("select_memcmp.c", ""),
    ] {
        let path = root().join("tests/fixtures/reductions").join(file);
        let config = Config { assumptions: Assumptions::parse(assume).map_err(Error::Usage)?, ..Config::default() };
        let r = measure(&path, &[], &config)?;
        println!("{file} {assume}: {} by {} {:.3}s", r.verdict, r.decided, r.seconds);
        let _ =
            writeln!(s, "| {file} | {} | {} | {} | {:.3} |", if assume.is_empty() { "-" } else { assume }, r.verdict, r.decided, r.seconds);
    }
    s.push('\n');
    Ok(s)
}

/// A per-element-branch harness (zlimit) at growing sizes, with and
/// without merging (30 s limit without).
fn merging_section() -> Result<String, Error> {
    let mut s = String::from(
        "## Path merging: zlimit (per-element branch) at growing sizes\n\n\
         | elements | merge: verdict | paths | seconds | --no-merge: verdict | paths | seconds |\n|---|---|---|---|---|---|---|\n",
    );
    let path = root().join("harnesses/zlimit.c");
    for n in [4, 16, 64, 256] {
        let d = vec![format!("N={n}")];
        let on = measure(&path, &d, &Config::default())?;
        let off_cfg = Config { merge: false, max_time: Some(Duration::from_secs(30)), ..Config::default() };
        let off = measure(&path, &d, &off_cfg)?;
        println!(
            "zlimit N={n}: merge {} {} paths {:.3}s | no-merge {} {} paths {:.3}s",
            on.verdict, on.paths, on.seconds, off.verdict, off.paths, off.seconds
        );
        let _ = writeln!(
            s,
            "| {n} | {} | {} | {:.3} | {} | {} | {:.3} |",
            on.verdict, on.paths, on.seconds, off.verdict, off.paths, off.seconds
        );
    }
    s.push('\n');
    Ok(s)
}

/// Race kernels in both modes at growing NDRange sizes (enumeration capped
/// at 60 s).
fn race_section() -> Result<String, Error> {
    let mut s = String::from(
        "## Race detection: time per kernel by mode and NDRange\n\n\
         | kernel | work-groups x work-items | enumerate: verdict | s | pair: verdict | s |\n|---|---|---|---|---|---|\n",
    );
    let kernels = ["neighbour_barrier.cl", "neighbour_race.cl", "inter_group.cl", "divergence.cl"];
    for k in kernels {
        let path = root().join("bench/kernels").join(k);
        let loaded = crate::driver::load(std::slice::from_ref(&path), &CompileOptions::default())?;
        let no_fixed_args = HashMap::new();
        for (groups, local) in [(2u64, 16u64), (4, 64), (16, 256), (64, 1024), (1024, 1024)] {
            // One dimension, as `--local-size L --num-groups G`.
            let nd = NdRange::of_groups(1, [local, 1, 1], [groups, 1, 1]);
            let run = |mode: RaceMode, limit: u64| -> Result<(String, f64), Error> {
                let cfg = Config { max_time: Some(Duration::from_secs(limit)), ..Config::default() };
                let kernel_run = crate::driver::KernelRun {
                    input: k,
                    kernel: None,
                    ndrange: nd,
                    mode,
                    fixed: &no_fixed_args,
                    allow_benign: false,
                    only_groups: None,
                };
                let r = crate::driver::run_kernel(&loaded, &kernel_run, &cfg)?.report;
                Ok((format!("{:?}", r.verdict).to_lowercase(), r.stats.seconds))
            };
            let en = if groups * local <= 65536 { run(RaceMode::Enumerate, 60)? } else { ("not run".into(), f64::NAN) };
            let pair = run(RaceMode::Pair, 60)?;
            println!("{k:<28} {groups}x{local}: enumerate {} {:.3}s | pair {} {:.3}s", en.0, en.1, pair.0, pair.1);
            let _ = writeln!(s, "| {k} | {groups} x {local} | {} | {:.3} | {} | {:.3} |", en.0, en.1, pair.0, pair.1);
        }
    }
    s.push('\n');
    Ok(s)
}

/// One OpenCL host program checked end to end (compiling the host program,
/// building the kernel, running both): wall-clock seconds and the verdict.
fn time_host_program(path: &Path) -> Result<(String, f64), Error> {
    let started = std::time::Instant::now();
    let mut loaded = crate::driver::load(&[path.to_path_buf()], &CompileOptions::default())?;
    loaded.prepare(&Config::default());
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
    let (report, _) = crate::driver::check_module(&loaded, &name, "main", &Config::default())?;
    Ok((format!("{:?}", report.verdict).to_lowercase(), started.elapsed().as_secs_f64()))
}

fn opencl_section() -> Result<String, Error> {
    let mut s = String::from(
        "## OpenCL host programs, end to end (compile, build, run)\n\n\
         | host program | verdict | s, runtime model cached | s, first run (cache empty) |\n|---|---|---|---|\n",
    );
    let programs = ["vector_add_float4.c", "struct_argument.c", "large_ndrange.c", "rounding/kernel.c"];
    let cold_dir = tempfile::tempdir().map_err(|e| Error::Io(std::env::temp_dir(), e))?;
    for p in programs {
        let path = root().join("tests/fixtures/opencl").join(p);
        // First run with an empty cache, then the same program again.
        let saved = std::env::var_os("SYMCROSS_CACHE_DIR");
        let fresh = cold_dir.path().join(p.replace('/', "_"));
        std::env::set_var("SYMCROSS_CACHE_DIR", &fresh);
        let cold = time_host_program(&path);
        let warm = time_host_program(&path);
        match saved {
            Some(v) => std::env::set_var("SYMCROSS_CACHE_DIR", v),
            None => std::env::remove_var("SYMCROSS_CACHE_DIR"),
        }
        let ((verdict, cold), (_, warm)) = (cold?, warm?);
        println!("{p:<28} {verdict:<12} cached {warm:.2} s, first run {cold:.2} s");
        let _ = writeln!(s, "| {p} | {verdict} | {warm:.2} | {cold:.2} |");
    }
    s.push('\n');
    Ok(s)
}
