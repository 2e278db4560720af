//! SARIF 2.1.0 (the OASIS Static Analysis Results Interchange Format), the
//! format GitHub code scanning and most code-review tools read.
//!
//! One run per file (code scanning refuses several runs of one tool), one
//! result per finding. The rule id is the finding kind; the level is
//! `error` for a confirmed finding and `warning` for an unconfirmed one or
//! an unmodelled construct. Locations keep the path as the user gave it,
//! relative to `%SRCROOT%` (the working directory) when it is relative.
//! The other access of a race, the free of a use-after-free and the call
//! stack (`related` in the JSON report) are `relatedLocations`; the witness,
//! the status and the expressions of a mismatch are in `properties`.
//! In a suite's log every result names its manifest entry
//! (`properties.entry`); a finding the entry expected is a `note`, and an
//! entry whose expectation was not met is an `error` of rule
//! `unmet-expectation`.
//! `partialFingerprints` holds a hash of kind, file, line and the message
//! with its numbers blanked, so that a finding keeps its identity across
//! runs whose witnesses differ.

use super::finding::{Finding, FindingKind, Location, Status};
use super::json::Report;
use serde_json::{json, Map, Value};

/// The schema URI written in `$schema`.
pub const SCHEMA: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The key of our entry in `partialFingerprints`.
pub const FINGERPRINT_KEY: &str = "symcrossFinding/v1";

/// The SARIF log of one or more reports (one per input of a suite) as
/// pretty-printed JSON.
pub fn render(reports: &[&Report]) -> String {
    serde_json::to_string_pretty(&log(reports)).unwrap_or_default()
}

/// The SARIF log as a JSON value.
pub fn log(reports: &[&Report]) -> Value {
    let mut results = Vec::new();
    for r in reports {
        for f in &r.findings {
            results.push(result(r, f));
        }
    }
    run_log(reports, results, false)
}

/// The rule of a suite entry whose expectation was not met.
pub const UNMET_RULE: &str = "unmet-expectation";

/// One entry of a suite, as its SARIF results need it.
pub struct SuiteEntry<'a> {
    /// The entry's name in the manifest.
    pub name: &'a str,
    /// The manifest's path, as given.
    pub manifest: &'a str,
    /// What the entry expected, in a few words.
    pub expect: String,
    /// `met`, `unmet` or `error`.
    pub outcome: &'a str,
    /// What happened, in one line.
    pub summary: &'a str,
    /// The entry's report, when the run gave one.
    pub report: Option<&'a Report>,
    /// Per finding of the report: whether the entry expected it and met
    /// its expectation with it.
    pub expected: Vec<bool>,
}

/// The SARIF log of a suite: one result per finding, each naming its entry
/// (`properties.entry`); a finding the entry expected is a `note` (code
/// scanning then tells it from a regression); every entry whose
/// expectation was not met is also a result of rule `unmet-expectation`,
/// level `error`, at its first input (or the manifest).
pub fn render_suite(entries: &[SuiteEntry]) -> String {
    let mut results = Vec::new();
    for e in entries {
        if let Some(r) = e.report {
            for (i, f) in r.findings.iter().enumerate() {
                let mut out = result(r, f);
                let wanted = e.expected.get(i).copied().unwrap_or(false);
                if wanted {
                    out["level"] = json!("note");
                    out["message"]["text"] = json!(format!("{} (expected by suite entry `{}`)", f.message, e.name));
                }
                out["properties"]["entry"] = json!(e.name);
                out["properties"]["expected"] = json!(wanted);
                out["properties"]["expect"] = json!(e.expect);
                out["properties"]["outcome"] = json!(e.outcome);
                results.push(out);
            }
        }
        if e.outcome != "met" {
            let file =
                e.report.map(|r| r.input.split(' ').next().unwrap_or(&r.input).to_string()).unwrap_or_else(|| e.manifest.to_string());
            results.push(json!({
                "ruleId": UNMET_RULE,
                "ruleIndex": FindingKind::ALL.len(),
                "level": "error",
                "message": { "text": format!("suite entry `{}`: {}", e.name, e.summary) },
                "locations": [location(&Location { file, line: 0, column: 0 })],
                "properties": { "entry": e.name, "expect": e.expect, "outcome": e.outcome },
            }));
        }
    }
    let reports: Vec<&Report> = entries.iter().filter_map(|e| e.report).collect();
    serde_json::to_string_pretty(&run_log(&reports, results, true)).unwrap_or_default()
}

/// The log around `results`; a suite's log has the `unmet-expectation`
/// rule after the finding kinds.
fn run_log(reports: &[&Report], results: Vec<Value>, suite: bool) -> Value {
    let version = reports.first().map(|r| r.version).unwrap_or(env!("CARGO_PKG_VERSION"));
    let mut rules: Vec<Value> = FindingKind::ALL.iter().map(|k| rule(*k)).collect();
    if suite {
        rules.push(json!({
            "id": UNMET_RULE,
            "name": UNMET_RULE,
            "shortDescription": { "text": "A suite entry did not meet its expectation" },
            "fullDescription": { "text": "The manifest expected another outcome of this entry (a verdict or a finding kind) than the run gave." },
            "defaultConfiguration": { "level": "error" },
        }));
    }
    let notifications: Vec<Value> = reports
        .iter()
        .flat_map(|r| {
            r.warnings.iter().map(move |w| {
                json!({ "level": "warning", "descriptor": { "id": w.kind }, "message": { "text": format!("{}: {}", r.input, w.message) } })
            })
        })
        .collect();
    let inputs: Vec<Value> = reports
        .iter()
        .map(|r| json!({ "input": r.input, "verdict": r.verdict, "assumptions": r.assumptions, "seconds": r.stats.seconds, "limit": r.limit }))
        .collect();
    let mut base = Map::new();
    if let Ok(cwd) = std::env::current_dir() {
        let mut uri = file_uri(&cwd.display().to_string());
        if !uri.ends_with('/') {
            uri.push('/');
        }
        base.insert("%SRCROOT%".into(), json!({ "uri": uri }));
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "symcross",
                "version": version,
                "semanticVersion": version,
                "rules": rules,
            } },
            "originalUriBaseIds": base,
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications,
            }],
            "results": results,
            "properties": { "inputs": inputs },
        }],
    })
}

fn rule(kind: FindingKind) -> Value {
    let (short, full) = match kind {
        FindingKind::Mismatch => {
            ("The vectorised and scalar results can differ", "A symcross_check_equal, assert or klee_assert can fail on some input.")
        }
        FindingKind::Race => ("Data race", "Two work-items access the same byte without a barrier between them, and one access writes."),
        FindingKind::BarrierDivergence => {
            ("Barrier divergence", "Work-items of one work-group do not all reach the same barrier the same number of times.")
        }
        FindingKind::OutOfBounds => ("Out-of-bounds access", "A load or store can leave the object its pointer points into."),
        FindingKind::UseAfterFree => ("Use after free", "Memory is accessed after it was freed or released."),
        FindingKind::DoubleFree => ("Double free", "Memory is freed twice."),
        FindingKind::UninitializedRead => ("Uninitialised read", "A value is read before anything was written to it."),
        FindingKind::DivisionByZero => ("Division by zero", "An integer division or remainder can divide by zero."),
        FindingKind::UndefinedBehaviour => (
            "Undefined behaviour",
            "An operation C leaves undefined (a shift by the width or more, signed overflow, an out-of-range float-to-integer conversion) decides the result.",
        ),
        FindingKind::WriteToReadOnly => ("Write to read-only memory", "A store, copy or atomic can write into a constant object."),
        FindingKind::ReadFromWriteOnly => {
            ("Read from write-only memory", "A kernel can read a buffer the host created write-only (CL_MEM_WRITE_ONLY).")
        }
        FindingKind::InvalidEvent => {
            ("Wait for an invalid event", "wait_group_events can wait for an event no asynchronous copy returned, or one already released.")
        }
        FindingKind::Misaligned => ("Misaligned access", "An OpenCL load or store's address is not a multiple of its type's alignment."),
        FindingKind::Unsupported => {
            ("Construct not modelled", "symcross cannot model this construct; paths reaching it were not checked further.")
        }
        FindingKind::BankConflict => {
            ("Local memory bank conflict", "Work-items of one warp access distinct words of one __local memory bank at once (race --perf).")
        }
        FindingKind::UncoalescedAccess => {
            ("Uncoalesced global access", "A warp's global access needs more memory transactions than the bytes it touches (race --perf).")
        }
        FindingKind::WarpDivergence => {
            ("Warp divergence", "Work-items of one warp can take different directions at a branch (race --perf).")
        }
        FindingKind::InvalidWarpMask => (
            "Invalid warp mask",
            "A CUDA warp-level function is called by a thread its mask leaves out, or its mask names a thread that does not make the same call.",
        ),
    };
    let level = if kind == FindingKind::Unsupported || kind.is_performance() { "warning" } else { "error" };
    json!({
        "id": kind.name(),
        "name": kind.name(),
        "shortDescription": { "text": short },
        "fullDescription": { "text": full },
        "defaultConfiguration": { "level": level },
    })
}

fn result(report: &Report, f: &Finding) -> Value {
    let level = match (f.status, f.kind) {
        (_, FindingKind::Unsupported) => "warning",
        (_, k) if k.is_performance() => "warning",
        (Status::Confirmed | Status::ConfirmedByModel, _) => "error",
        (Status::Unconfirmed, _) => "warning",
    };
    let related: Vec<Value> = f
        .related
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut loc = location(&r.location);
            loc["id"] = json!(i + 1);
            loc["message"] = json!({ "text": r.message });
            loc
        })
        .collect();
    let mut props = Map::new();
    props.insert("status".into(), json!(f.status));
    props.insert("input".into(), json!(report.input));
    props.insert("witness".into(), json!(f.witness));
    if let Some(d) = f.decided_by {
        props.insert("decidedBy".into(), json!(d));
    }
    if let Some(e) = &f.expressions {
        props.insert("expressions".into(), json!(e));
    }
    if let Some(n) = &f.native {
        props.insert("native".into(), json!(n));
    }
    if !report.assumptions.is_empty() {
        props.insert("assumptions".into(), json!(report.assumptions));
    }
    let kind_index = FindingKind::ALL.iter().position(|k| *k == f.kind).unwrap_or(0);
    let mut out = json!({
        "ruleId": f.kind.name(),
        "ruleIndex": kind_index,
        "level": level,
        "message": { "text": f.message },
        "locations": [location(&f.location)],
        "partialFingerprints": { FINGERPRINT_KEY: fingerprint(f) },
        "properties": props,
    });
    if !related.is_empty() {
        out["relatedLocations"] = json!(related);
    }
    out
}

fn location(l: &Location) -> Value {
    let mut artifact = json!({ "uri": uri_of(&l.file) });
    if !l.file.starts_with('/') {
        artifact["uriBaseId"] = json!("%SRCROOT%");
    }
    let mut physical = json!({ "artifactLocation": artifact });
    if l.line > 0 {
        let mut region = json!({ "startLine": l.line });
        if l.column > 0 {
            region["startColumn"] = json!(l.column);
        }
        physical["region"] = region;
    }
    json!({ "physicalLocation": physical })
}

/// A relative path stays relative (resolved against `%SRCROOT%`); an
/// absolute one becomes a `file://` URI. Characters a URI may not hold are
/// percent-encoded.
fn uri_of(path: &str) -> String {
    if path.starts_with('/') {
        file_uri(path)
    } else {
        percent_encode(path)
    }
}

fn file_uri(abs: &str) -> String {
    format!("file://{}", percent_encode(abs))
}

fn percent_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A stable identity for a finding: kind, file, line and the message with
/// every number blanked (element indices, values and sizes vary with the
/// witness), hashed with 64-bit FNV-1a, a hash fixed by its definition, so
/// the value does not change with the compiler or the platform.
pub fn fingerprint(f: &Finding) -> String {
    let text = format!("{}\u{0}{}\u{0}{}\u{0}{}", f.kind.name(), f.location.file, f.location.line, without_values(&f.message));
    format!("{:016x}", fnv1a(text.as_bytes()))
}

/// The message with each run of digits (and hex literals) replaced by `#`.
fn without_values(msg: &str) -> String {
    let mut out = String::new();
    let mut chars = msg.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let hex = c == '0' && matches!(chars.peek(), Some('x') | Some('X'));
            if hex {
                chars.next();
            }
            while chars.peek().is_some_and(|d| if hex { d.is_ascii_hexdigit() } else { d.is_ascii_digit() || *d == '.' }) {
                chars.next();
            }
            out.push('#');
        } else {
            out.push(c);
        }
    }
    out
}

/// FNV-1a (64 bits): a stable, dependency-free fingerprint (not a
/// security measure); report fingerprints and replay's input digests.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_do_not_change_the_fingerprint() {
        assert_eq!(without_values("dst: element 3 of 64 is 0x7fc00000"), "dst: element # of # is #");
        assert_eq!(without_values("a1b 2.5e3"), "a#b #e#");
    }

    #[test]
    fn paths_are_uri_references() {
        assert_eq!(uri_of("harnesses/a b.c"), "harnesses/a%20b.c");
        assert_eq!(uri_of("/tmp/x.c"), "file:///tmp/x.c");
    }
}
