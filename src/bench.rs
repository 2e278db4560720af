//! `symcross bench`: the figures of BENCHMARKS.md. Measures concrete
//! interpretation speed on bench/concrete_loop.c and the time, paths and
//! verdict of each harness in harnesses/ (and bench/*.c harnesses).

use crate::config::Config;
use crate::frontend::CompileOptions;
use crate::Error;
use std::fmt::Write;
use std::path::{Path, PathBuf};

pub struct Row {
    pub name: String,
    pub verdict: String,
    pub paths: u64,
    pub instructions: u64,
    pub seconds: f64,
}

pub fn cli(a: crate::cli::BenchArgs) -> Result<i32, Error> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut rows = Vec::new();
    let concrete = measure(&root.join("bench/concrete_loop.c"), &Config::default())?;
    println!(
        "concrete interpretation: {} instructions in {:.3} s = {:.1} M instructions/s",
        concrete.instructions,
        concrete.seconds,
        concrete.instructions as f64 / concrete.seconds / 1e6
    );
    rows.push(concrete);
    let mut harnesses: Vec<PathBuf> = Vec::new();
    for dir in ["harnesses", "harnesses/simd", "harnesses/paper"] {
        if let Ok(entries) = std::fs::read_dir(root.join(dir)) {
            harnesses.extend(entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "c")));
        }
    }
    harnesses.sort();
    for h in harnesses {
        let row = measure(&h, &Config::default())?;
        println!("{:<48} {:<12} {:>6} paths {:>10} instr {:>8.3} s", row.name, row.verdict, row.paths, row.instructions, row.seconds);
        rows.push(row);
    }
    if let Some(md) = a.markdown {
        std::fs::write(&md, markdown(&rows)).map_err(|e| Error::Io(md.clone(), e))?;
    }
    Ok(0)
}

/// Compiles and checks one program, timing the symbolic run only.
pub fn measure(path: &Path, config: &Config) -> Result<Row, Error> {
    let mut loaded = crate::pipeline::load(&[path.to_path_buf()], &CompileOptions::default())?;
    crate::pipeline::prepare(&mut loaded.module, config);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
    let (report, _) = crate::pipeline::check_module(&loaded.module, &name, "main", config)?;
    Ok(Row {
        name,
        verdict: format!("{:?}", report.verdict).to_lowercase(),
        paths: report.stats.paths,
        instructions: report.stats.instructions,
        seconds: report.stats.seconds,
    })
}

pub fn markdown(rows: &[Row]) -> String {
    let mut s = String::from("| program | verdict | paths | instructions | seconds |\n|---|---|---|---|---|\n");
    for r in rows {
        let _ = writeln!(s, "| {} | {} | {} | {} | {:.3} |", r.name, r.verdict, r.paths, r.instructions, r.seconds);
    }
    s
}
