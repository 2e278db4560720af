//! Reading a JSON report for replay: the report's own type (`Report`,
//! with its `BuildRecord` and findings), so replay reads exactly what
//! `symcross check` writes, and the witnesses checked for what a native
//! run can take.

use crate::replay::ReplayError;
use crate::report::{Finding, FindingKind, Report};
use std::path::{Path, PathBuf};

/// One finding of a report with its position in `findings` (what
/// `--finding N` names).
#[derive(Clone, Copy, Debug)]
pub struct NumberedFinding<'r> {
    /// Its position in the report's `findings`, from 0.
    pub index: usize,
    /// The finding.
    pub finding: &'r Finding,
}

impl NumberedFinding<'_> {
    /// Whether the compared elements are integers: then "all NaNs compare
    /// equal" does not apply to them, though their bits may look like a
    /// NaN's (0xfffe38e2 as an i32).
    pub fn compares_integers(&self) -> bool {
        self.finding.expressions.as_ref().and_then(|e| e.element_type.as_deref()).is_some_and(|t| t.starts_with('i'))
    }

    /// Whether the finding's elements are compared with all NaNs equal, as
    /// the check compared them: the report says so (`nans_equal`), else
    /// (older reports) every element that is not an integer under `--nan
    /// equal` (`nan`: the report's `--nan`).
    pub fn nans_equal(&self, nan: &str) -> bool {
        nan == "equal" && self.finding.expressions.as_ref().and_then(|e| e.nans_equal).unwrap_or_else(|| !self.compares_integers())
    }

    /// `file:line:column`.
    pub fn location(&self) -> String {
        let l = &self.finding.location;
        format!("{}:{}:{}", l.file, l.line, l.column)
    }

    /// Input name and hex bytes, in the report's order; empty without a
    /// witness.
    pub fn witness(&self) -> Vec<(String, String)> {
        self.finding.witness.iter().flatten().map(|(n, h)| (n.clone(), h.clone())).collect()
    }
}

/// The findings of a report, numbered as `--finding N` counts them.
pub fn numbered(report: &Report) -> impl Iterator<Item = NumberedFinding<'_>> {
    report.findings.iter().enumerate().map(|(index, finding)| NumberedFinding { index, finding })
}

/// Reads a report written by `symcross check --json` and checks that each
/// witness can be handed to a native run.
pub fn read_report(path: &Path) -> Result<Report, ReplayError> {
    let text = std::fs::read_to_string(path).map_err(|source| ReplayError::Read { path: path.to_path_buf(), source })?;
    let report = Report::from_json(&text).map_err(|e| ReplayError::NotAReport { path: path.to_path_buf(), why: format!(": {e}") })?;
    if report.tool != "symcross" {
        return Err(ReplayError::NotAReport { path: path.to_path_buf(), why: format!(" (`tool` is `{}`)", report.tool) });
    }
    for (index, f) in report.findings.iter().enumerate() {
        for (name, hex) in f.witness.iter().flatten() {
            if hex.len() % 2 != 0 || !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
                return Err(ReplayError::BadWitness {
                    path: path.to_path_buf(),
                    index,
                    problem: format!("the witness of `{name}` is not a string of hex byte pairs"),
                });
            }
            if name.is_empty() || name.chars().any(char::is_whitespace) {
                return Err(ReplayError::BadWitness {
                    path: path.to_path_buf(),
                    index,
                    problem: format!("witness input name {name:?} cannot be replayed (empty or with spaces)"),
                });
            }
        }
    }
    Ok(report)
}

/// Whether a finding lies in OpenCL kernel code: in a `.cl` file, in a
/// program symcross could not map to a file, or on a line of a C source
/// that is part of a string literal (the kernel text held by the host).
fn in_kernel(f: &Finding, dir: Option<&Path>) -> bool {
    let file = &f.location.file;
    if file.ends_with(".cl") || file.starts_with("program ") {
        return true;
    }
    let mut path = PathBuf::from(file);
    if let Some(d) = dir.filter(|_| path.is_relative()) {
        path = d.join(path);
    }
    let Ok(text) = std::fs::read_to_string(&path) else { return false };
    let Some(line) = text.lines().nth((f.location.line as usize).saturating_sub(1)) else { return false };
    let t = line.trim();
    t.starts_with('"') && (t.ends_with('"') || t.ends_with("\\n\""))
}

/// Why a finding is not replayed natively, or `None` when it is.
pub fn skip_reason(f: &Finding, dir: Option<&Path>) -> Option<&'static str> {
    use FindingKind as K;
    if f.kind == K::Unsupported {
        return Some("an unsupported construct is a limit of symcross, not a property of the harness");
    }
    if !f.status.is_confirmed() {
        return Some("unconfirmed: symcross has no witness that it trusts");
    }
    match f.kind {
        K::Race | K::BarrierDivergence => Some("races and barrier divergence need the work-item scheduler; a native run cannot show them"),
        K::UndefinedBehaviour
            if matches!(
                f.undefined_behaviour,
                Some(
                    crate::report::UndefinedOperation::UnsignedWrap
                        | crate::report::UndefinedOperation::InexactDivision
                        | crate::report::UndefinedOperation::BrokenPromise
                )
            ) =>
        {
            Some("a broken `nuw`, `nsw` (on `trunc`), `exact`, `disjoint` or `nneg` promise of the compiled code: UndefinedBehaviorSanitizer has no test of it")
        }
        K::UndefinedBehaviour if f.undefined_behaviour == Some(crate::report::UndefinedOperation::OutOfBoundsPointerArithmetic) => Some(
            "pointer arithmetic out of its object: UndefinedBehaviorSanitizer tests only its wrap-around (`pointer-overflow`), not the object's bounds",
        ),
        K::UninitializedRead => Some("an uninitialised read needs MemorySanitizer, which cannot be combined with AddressSanitizer"),
        _ if f.witness.is_none() => Some("no witness"),
        K::UndefinedBehaviour if in_kernel(f, dir) => Some(
            "undefined behaviour in an OpenCL kernel: the kernel runs on the OpenCL implementation (pocl), whose compiled code UndefinedBehaviorSanitizer does not instrument (a signed overflow there just wraps)",
        ),
        K::OutOfBounds | K::UseAfterFree | K::DoubleFree | K::DivisionByZero | K::WriteToReadOnly if in_kernel(f, dir) =>
        {
            Some("a memory error in an OpenCL kernel: the kernel runs on the OpenCL implementation (pocl), which the sanitizers do not instrument")
        }
        K::Mismatch | K::OutOfBounds | K::UseAfterFree | K::DoubleFree | K::DivisionByZero | K::UndefinedBehaviour | K::WriteToReadOnly => None,
        // Misuses of the OpenCL API and any other kind: nothing in a native
        // run reports them.
        _ => Some("a native run has no detector for this kind of finding"),
    }
}
