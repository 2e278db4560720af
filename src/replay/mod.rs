//! `symcross replay`: builds a harness natively with the replay runtime
//! (cl-runtime-model/replay/), where `symcross_make_symbolic` fills memory
//! with a witness's bytes, runs it on the real CPU and shows what differs.
//! A witness that symcross confirmed must make the native run differ too.

use crate::cli::ReplayArgs;
use crate::Error;
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn cli(a: ReplayArgs) -> Result<i32, Error> {
    let witness = read_witness(&a.witness, a.finding)?;
    let opts = crate::cli::check_cmd::compile_options(&a.compile)?;
    let (out, code) = replay(&a.harness, &witness, &opts)?;
    print!("{out}");
    Ok(code)
}

/// The witness (name -> hex bytes) of a finding in a JSON report.
pub fn read_witness(path: &Path, index: Option<usize>) -> Result<Vec<(String, String)>, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Usage(format!("cannot read {}: {e}", path.display())))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| Error::Usage(format!("{}: not a symcross JSON report: {e}", path.display())))?;
    let findings = json["findings"].as_array().cloned().unwrap_or_default();
    let pick = match index {
        Some(i) => findings.get(i),
        None => findings.iter().find(|f| f["status"] == "confirmed" && f["witness"].is_object()),
    };
    let Some(w) = pick.and_then(|f| f["witness"].as_object()) else {
        return Err(Error::Usage(format!("{}: no finding with a witness to replay", path.display())));
    };
    Ok(w.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string())).collect())
}

/// Compiles and runs `harness` natively with `witness`; returns its output
/// and exit status.
pub fn replay(harness: &Path, witness: &[(String, String)], opts: &crate::frontend::CompileOptions) -> Result<(String, i32), Error> {
    let dir = crate::tempdirs::create("replay-").map_err(|e| Error::Usage(format!("cannot create a temporary directory: {e}")))?;
    let runtime = crate::frontend::runtime_dir().ok_or_else(|| Error::Usage("cannot find the runtime model directory (set SYMCROSS_RUNTIME)".into()))?;
    let exe = dir.path().join("replay");
    let mut cmd = Command::new(crate::frontend::Tools::locate().clang);
    cmd.arg("-O0").arg("-g").arg("-march=native").arg("-ffp-contract=off").arg("-I").arg(&runtime);
    for i in &opts.include_dirs {
        cmd.arg("-I").arg(i);
    }
    for d in &opts.defines {
        cmd.arg(format!("-D{d}"));
    }
    cmd.args(&opts.cflags);
    cmd.arg(harness).arg(runtime.join("replay/replay_runtime.c")).arg("-lm").arg("-o").arg(&exe);
    let mut built = cmd.output().map_err(|e| Error::Usage(format!("cannot run clang: {e}")))?;
    // An OpenCL host program runs against the real OpenCL implementation
    // installed (the ICD loader, e.g. with pocl).
    if !built.status.success() && String::from_utf8_lossy(&built.stderr).contains("undefined reference to `cl") {
        built = cmd.arg("-lOpenCL").output().map_err(|e| Error::Usage(format!("cannot run clang: {e}")))?;
    }
    if !built.status.success() {
        return Err(Error::Usage(format!("building {} natively failed:\n{}", harness.display(), String::from_utf8_lossy(&built.stderr))));
    }
    let wfile: PathBuf = dir.path().join("witness.txt");
    let lines: String = witness.iter().map(|(k, v)| format!("{k} {v}\n")).collect();
    std::fs::write(&wfile, lines).map_err(|e| Error::Io(wfile.clone(), e))?;
    let run = Command::new(&exe).env("SYMCROSS_WITNESS", &wfile).output().map_err(|e| Error::Usage(format!("cannot run the replay binary: {e}")))?;
    let mut out = String::from_utf8_lossy(&run.stdout).into_owned();
    out.push_str(&String::from_utf8_lossy(&run.stderr));
    Ok((out, run.status.code().unwrap_or(1)))
}
