//! Reading a JSON report for replay: how its inputs were built (`build`,
//! written by `symcross check`, read as the report's own `BuildRecord`)
//! and its findings with their witnesses. Read leniently, so reports
//! written before a field existed still load.

use crate::report::BuildRecord;
use crate::Error;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One finding of a report, as replay needs it.
#[derive(Clone, Debug)]
pub struct RecordedFinding {
    /// Its position in the report's `findings` (what `--finding N` names).
    pub index: usize,
    pub kind: String,
    pub status: String,
    pub message: String,
    pub file: String,
    pub line: u64,
    pub column: u64,
    /// Input name and hex bytes, in the report's order; `None` without a witness.
    pub witness: Option<Vec<(String, String)>>,
    /// The compared elements' type when the report gives it (`i32`,
    /// `float`, ...).
    pub element_type: Option<String>,
}

impl RecordedFinding {
    /// Whether the compared elements are integers: then "all NaNs compare
    /// equal" does not apply to them, though their bits may look like a
    /// NaN's (0xfffe38e2 as an i32).
    pub fn compares_integers(&self) -> bool {
        self.element_type.as_deref().is_some_and(|t| t.starts_with('i'))
    }
}

impl RecordedFinding {
    /// `file:line:column`.
    pub fn location(&self) -> String {
        format!("{}:{}:{}", self.file, self.line, self.column)
    }
}

/// A report read from disk.
#[derive(Clone, Debug)]
pub struct RecordedReport {
    pub build: Option<BuildRecord>,
    pub findings: Vec<RecordedFinding>,
}

/// Reads and checks a report written by `symcross check --json`.
pub fn read_report(path: &Path) -> Result<RecordedReport, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Usage(format!("cannot read {}: {e}", path.display())))?;
    let json: Value =
        serde_json::from_str(&text).map_err(|e| Error::Usage(format!("{}: not a symcross JSON report: {e}", path.display())))?;
    let Some(list) = json["findings"].as_array().filter(|_| json["tool"] == "symcross") else {
        return Err(Error::Usage(format!("{}: not a symcross JSON report (no `tool` or `findings`)", path.display())));
    };
    let build = match json.get("build").filter(|b| b.is_object()) {
        None => None,
        Some(b) => Some(
            serde_json::from_value::<BuildRecord>(b.clone())
                .map_err(|e| Error::Usage(format!("{}: the report's `build` cannot be read: {e}", path.display())))?,
        ),
    };
    let mut findings = Vec::with_capacity(list.len());
    for (index, f) in list.iter().enumerate() {
        let witness = match &f["witness"] {
            Value::Object(m) => {
                let mut w = Vec::with_capacity(m.len());
                for (name, hex) in m {
                    let Some(hex) = hex.as_str().filter(|h| h.len() % 2 == 0 && h.bytes().all(|c| c.is_ascii_hexdigit())) else {
                        return Err(Error::Usage(format!(
                            "{}: finding {index}: the witness of `{name}` is not a string of hex byte pairs",
                            path.display()
                        )));
                    };
                    if name.is_empty() || name.chars().any(char::is_whitespace) {
                        return Err(Error::Usage(format!(
                            "{}: finding {index}: witness input name {name:?} cannot be replayed (empty or with spaces)",
                            path.display()
                        )));
                    }
                    w.push((name.clone(), hex.to_string()));
                }
                Some(w)
            }
            _ => None,
        };
        findings.push(RecordedFinding {
            index,
            kind: f["kind"].as_str().unwrap_or("").to_string(),
            status: f["status"].as_str().unwrap_or("").to_string(),
            message: f["message"].as_str().unwrap_or("").to_string(),
            file: f["location"]["file"].as_str().unwrap_or("?").to_string(),
            line: f["location"]["line"].as_u64().unwrap_or(0),
            column: f["location"]["column"].as_u64().unwrap_or(0),
            witness,
            element_type: f["expressions"]["element_type"].as_str().map(str::to_string),
        });
    }
    Ok(RecordedReport { build, findings })
}

/// Whether a finding lies in OpenCL kernel code: in a `.cl` file, in a
/// program symcross could not map to a file, or on a line of a C source
/// that is part of a string literal (the kernel text held by the host).
fn in_kernel(f: &RecordedFinding, dir: Option<&Path>) -> bool {
    if f.file.ends_with(".cl") || f.file.starts_with("program ") {
        return true;
    }
    let mut path = PathBuf::from(&f.file);
    if let Some(d) = dir.filter(|_| path.is_relative()) {
        path = d.join(path);
    }
    let Ok(text) = std::fs::read_to_string(&path) else { return false };
    let Some(line) = text.lines().nth((f.line as usize).saturating_sub(1)) else { return false };
    let t = line.trim();
    t.starts_with('"') && (t.ends_with('"') || t.ends_with("\\n\""))
}

/// Why a finding is not replayed natively, or `None` when it is.
pub fn skip_reason(f: &RecordedFinding, dir: Option<&Path>) -> Option<&'static str> {
    if f.kind == "unsupported" {
        return Some("an unsupported construct is a limit of symcross, not a property of the harness");
    }
    if f.status != "confirmed" {
        return Some("unconfirmed: symcross has no witness that it trusts");
    }
    match f.kind.as_str() {
        "race" | "barrier-divergence" => Some("races and barrier divergence need the work-item scheduler; a native run cannot show them"),
        "uninitialized-read" => Some("an uninitialised read needs MemorySanitizer, which cannot be combined with AddressSanitizer"),
        _ if f.witness.is_none() => Some("no witness"),
        "out-of-bounds" | "use-after-free" | "double-free" | "division-by-zero" if in_kernel(f, dir) => {
            Some("a memory error in an OpenCL kernel: the kernel runs on the OpenCL implementation (pocl), which the sanitizers do not instrument")
        }
        _ => None,
    }
}
