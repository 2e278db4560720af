//! What a native run showed, read from the replay runtime's event log and
//! the sanitizers' reports, and whether that is what the report claimed.

use super::native::{RunResult, EXIT_WITNESS_MISFIT};
use crate::expr::element_equality::elements_equal;
use crate::expr::{ElementType, FpFormat};
use crate::report::{Finding, FindingKind};

/// One failure seen on the CPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observed {
    /// The finding kind it maps to.
    pub kind: FindingKind,
    /// `file:line` of the failing check, when known.
    pub site: Option<(String, u64)>,
    /// What the CPU run said, in one line.
    pub detail: String,
}

/// The result of replaying one finding.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// What the report claimed happened on the CPU.
    Reproduced(Observed),
    /// It did not: a bug in symcross (the reason, and what was seen), with
    /// the CPU's values of the element the finding is about, when known.
    NotReproduced(String, Vec<Observed>, Option<String>),
    /// The witness does not fit the harness (renamed, resized or missing
    /// inputs): nothing can be concluded.
    Refused(String),
}

/// Sanitizer report headings and the finding kind each shows.
const ASAN_KINDS: &[(&str, FindingKind)] = &[
    ("heap-buffer-overflow", FindingKind::OutOfBounds),
    ("stack-buffer-overflow", FindingKind::OutOfBounds),
    ("stack-buffer-underflow", FindingKind::OutOfBounds),
    ("global-buffer-overflow", FindingKind::OutOfBounds),
    ("dynamic-stack-buffer-overflow", FindingKind::OutOfBounds),
    ("container-overflow", FindingKind::OutOfBounds),
    ("SEGV", FindingKind::OutOfBounds),
    ("unknown-crash", FindingKind::OutOfBounds),
    ("attempting free on address which was not malloc()-ed", FindingKind::OutOfBounds),
    ("bad-free", FindingKind::OutOfBounds),
    ("heap-use-after-free", FindingKind::UseAfterFree),
    ("stack-use-after-return", FindingKind::UseAfterFree),
    ("stack-use-after-scope", FindingKind::UseAfterFree),
    ("attempting double-free", FindingKind::DoubleFree),
    ("FPE", FindingKind::DivisionByZero),
];

/// UBSan `runtime error:` messages that are findings of symcross.
const UBSAN_KINDS: &[(&str, FindingKind)] = &[
    ("division by zero", FindingKind::DivisionByZero),
    ("out of bounds for type", FindingKind::OutOfBounds),
    ("shift exponent", FindingKind::UndefinedBehaviour),
    ("signed integer overflow", FindingKind::UndefinedBehaviour),
    ("negation of", FindingKind::UndefinedBehaviour),
    ("left shift of negative value", FindingKind::UndefinedBehaviour),
    ("cannot be represented in type", FindingKind::UndefinedBehaviour),
    ("is outside the range of representable values", FindingKind::UndefinedBehaviour),
    ("passing zero to", FindingKind::UndefinedBehaviour),
];

const SIGABRT: i32 = 6;
const SIGFPE: i32 = 8;
const SIGSEGV: i32 = 11;

fn parse_site(s: &str) -> Option<(String, u64)> {
    let (file, line) = s.rsplit_once(':')?;
    let line: u64 = line.parse().ok()?;
    (line > 0 && file != "?").then(|| (file.to_string(), line))
}

fn base_name(f: &str) -> &str {
    f.rsplit('/').next().unwrap_or(f)
}

/// The first `file:line` of a source frame (`#N 0x... in FUNC FILE:LINE:COL`)
/// in a sanitizer report, skipping the sanitizer's, the runtime's and the C
/// library's own.
fn first_user_frame(stderr: &str) -> Option<(String, u64)> {
    stderr.lines().filter(|l| l.trim_start().starts_with('#')).find_map(|l| {
        let loc = l.split_whitespace().last()?;
        let mut parts = loc.rsplitn(3, ':');
        let (a, b) = (parts.next()?, parts.next()?);
        let (file, line) = match parts.next() {
            Some(file) => (file, b),
            None => (b, a),
        };
        let line: u64 = line.parse().ok()?;
        // glibc's string functions (memset, memcpy, strcpy: where a write
        // into read-only memory faults) live under its `sysdeps/` tree.
        let skip = file.contains("compiler-rt")
            || file.contains("sanitizer")
            || file.ends_with("replay_runtime.c")
            || file.contains("sysdeps/")
            || !file.contains('/');
        (!skip).then(|| (file.to_string(), line))
    })
}

/// Whether AddressSanitizer's SEGV report says a write faulted at a mapped
/// address: what a write into read-only pages (`const` globals, string
/// literals in .rodata) looks like natively. A write through a null or
/// small pointer (the zero page) is not one.
fn faulting_write(stderr: &str) -> bool {
    stderr.contains("The signal is caused by a WRITE memory access.") && !stderr.contains("address points to the zero page")
}

/// Everything the run shows, in order: failing checks, memory errors,
/// division by zero, aborts.
pub fn observe(run: &RunResult) -> Vec<Observed> {
    let mut seen = Vec::new();
    for e in &run.events {
        let mut w = e.splitn(3, ' ');
        match (w.next(), w.next(), w.next()) {
            (Some("differ"), Some(site), rest) => {
                let (count, what) = rest.and_then(|r| r.split_once(' ')).unwrap_or(("?", "values"));
                seen.push(Observed {
                    kind: FindingKind::Mismatch,
                    site: parse_site(site),
                    detail: format!("{what}: {count} element(s) differ"),
                });
            }
            (Some("assert"), Some(site), _) => {
                seen.push(Observed { kind: FindingKind::Mismatch, site: parse_site(site), detail: "an assertion fails".into() })
            }
            _ => {}
        }
    }
    let frame = first_user_frame(&run.stderr);
    for l in run.stderr.lines() {
        if let Some(rest) = l.split("ERROR: AddressSanitizer: ").nth(1) {
            if let Some((_, kind)) = ASAN_KINDS.iter().find(|(h, _)| rest.starts_with(h)) {
                seen.push(Observed { kind: *kind, site: frame.clone(), detail: format!("AddressSanitizer: {}", rest.trim()) });
            }
            if rest.starts_with("SEGV") && faulting_write(&run.stderr) {
                let detail = format!("AddressSanitizer: {} caused by a write", rest.trim());
                seen.push(Observed { kind: FindingKind::WriteToReadOnly, site: frame.clone(), detail });
            }
        } else if let Some(rest) = l.split("runtime error: ").nth(1) {
            if let Some((_, kind)) = UBSAN_KINDS.iter().find(|(m, _)| rest.contains(m)) {
                let site =
                    l.split(": runtime error").next().and_then(|s| s.rsplit_once(':').map(|(before, _)| before)).and_then(parse_site);
                seen.push(Observed { kind: *kind, site, detail: format!("UndefinedBehaviorSanitizer: {}", rest.trim()) });
            }
        } else if l.contains("ERROR: UndefinedBehaviorSanitizer: FPE") {
            seen.push(Observed { kind: FindingKind::DivisionByZero, site: frame.clone(), detail: l.trim().to_string() });
        }
    }
    let sanitizer_spoke = seen.iter().any(|o| o.kind != FindingKind::Mismatch);
    match run.signal {
        Some(SIGABRT) if !run.events.iter().any(|e| e.starts_with("assert ")) => {
            seen.push(Observed { kind: FindingKind::Mismatch, site: None, detail: "abort() was called".into() })
        }
        Some(SIGFPE) if !sanitizer_spoke => seen.push(Observed { kind: FindingKind::DivisionByZero, site: None, detail: "SIGFPE".into() }),
        Some(SIGSEGV) if !sanitizer_spoke => {
            // Without a sanitizer the fault does not say which memory error
            // it was: a write to read-only memory, or (with the guard pages
            // of replay/guard_pages.c) a run past a heap block, a use or a
            // second free of a freed one.
            for kind in [FindingKind::OutOfBounds, FindingKind::WriteToReadOnly, FindingKind::UseAfterFree, FindingKind::DoubleFree] {
                seen.push(Observed { kind, site: None, detail: "SIGSEGV".into() });
            }
        }
        _ => {}
    }
    seen
}

/// Undefined behaviour the run went through that symcross gives a defined
/// result (signed overflow, out-of-range conversions, ...): worth a note.
pub fn ub_notes(run: &RunResult) -> Vec<String> {
    let mut notes: Vec<String> = run
        .stderr
        .lines()
        .filter(|l| l.contains("runtime error: ") && !UBSAN_KINDS.iter().any(|(m, _)| l.contains(m)))
        .map(|l| l.trim().to_string())
        .collect();
    notes.dedup();
    notes.truncate(5);
    notes
}

/// Whether the witness fits the harness: every input the harness asked
/// for (before the first failure) is in the witness with the size asked
/// for, and every input of the witness is asked for (inputs of other
/// paths, all zero, are tolerated: symcross lists every input it created).
pub fn misfit(run: &RunResult, witness: &[(String, String)]) -> Option<String> {
    if run.code == Some(EXIT_WITNESS_MISFIT) || run.events.iter().any(|e| e.starts_with("symbolic size ")) {
        let e = run.events.iter().find(|e| e.starts_with("symbolic size "));
        let what = e
            .map(|e| {
                let w: Vec<&str> = e.split(' ').collect();
                format!(
                    "the witness gives {} byte(s) for `{}`, the harness asks for {}",
                    w.get(4).unwrap_or(&"?"),
                    w.get(2).unwrap_or(&"?"),
                    w.get(3).unwrap_or(&"?")
                )
            })
            .unwrap_or_else(|| "an input of the witness has the wrong size".into());
        return Some(what);
    }
    let mut asked = Vec::new();
    for e in &run.events {
        let w: Vec<&str> = e.split(' ').collect();
        match w.as_slice() {
            ["symbolic", "ok", name, ..] => asked.push(name.to_string()),
            ["symbolic", "missing", name, n, ..] if *n != "0" => {
                return Some(format!("the harness makes `{name}` ({n} bytes) symbolic, but the witness has no input of that name"));
            }
            ["differ", ..] | ["assert", ..] => break,
            _ => {}
        }
    }
    let unused: Vec<&str> = witness
        .iter()
        .filter(|(n, hex)| !asked.contains(n) && hex.bytes().any(|c| c != b'0') && !is_work_item_id(n))
        .map(|(n, _)| n.as_str())
        .collect();
    // A run that stopped early (a memory error) may not have reached every
    // make_symbolic call; only a complete run can tell an input is unused.
    let complete = run.signal.is_none() && !run.stderr.contains("ERROR: ");
    if complete && !unused.is_empty() {
        return Some(format!(
            "the witness gives input(s) {} that no make_symbolic call of the harness asks for",
            unused.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        ));
    }
    None
}

/// The symbolic work-item ids of a pair-mode NDRange (`work_item_K`):
/// inputs symcross made, not the harness.
fn is_work_item_id(name: &str) -> bool {
    name.strip_prefix("work_item_").is_some_and(|k| !k.is_empty() && k.bytes().all(|c| c.is_ascii_digit()))
}

/// The compared values of one `symcross_check_equal` call, as the replay
/// runtime logged them.
struct LoggedValues {
    site: Option<(String, u64)>,
    size: usize,
    left: Vec<u8>,
    right: Vec<u8>,
}

impl LoggedValues {
    /// Element `k` of both sides, when logged.
    fn element(&self, k: usize) -> Option<(&[u8], &[u8])> {
        let r = k.checked_mul(self.size)?..(k + 1).checked_mul(self.size)?;
        Some((self.left.get(r.clone())?, self.right.get(r)?))
    }
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    (0..s.len() / 2).map(|i| u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()).collect()
}

/// The `values` events of the run.
fn logged_values(run: &RunResult) -> Vec<LoggedValues> {
    run.events
        .iter()
        .filter_map(|e| {
            let w: Vec<&str> = e.split(' ').collect();
            let ["values", site, size, _count, left, right] = w.as_slice() else { return None };
            Some(LoggedValues { site: parse_site(site), size: size.parse().ok()?, left: unhex(left)?, right: unhex(right)? })
        })
        .collect()
}

/// One element as the CPU computed it: its bits, and its reading in the
/// finding's element type when that is known.
fn show_element(bytes: &[u8], element_type: Option<&str>) -> String {
    let bits = bytes.iter().rev().fold(0u128, |acc, b| (acc << 8) | *b as u128);
    let hex = format!("0x{:0width$x}", bits, width = 2 * bytes.len());
    let t = match (element_type, bytes.len()) {
        (Some("half"), 2) => Some(ElementType::Float(FpFormat::Half)),
        (Some("float"), 4) => Some(ElementType::Float(FpFormat::Single)),
        (Some("double"), 8) => Some(ElementType::Float(FpFormat::Double)),
        _ => None,
    };
    match t {
        Some(t) => t.show(bytes),
        None => hex,
    }
}

/// For a `symcross_check_equal` finding about one element: whether the
/// CPU's values of that element differ, by the rule the check applied
/// (`expr::element_equality`), at the finding's line; with the CPU's
/// values. `None` when the run logged no values there.
fn element_verdict(f: &Finding, run: &RunResult, nans_equal: bool) -> Option<(bool, String)> {
    let e = f.expressions.as_ref()?;
    let k = e.element? as usize;
    let at_line = |site: &Option<(String, u64)>| match site {
        Some((file, line)) => *line == u64::from(f.location.line) && base_name(file) == base_name(&f.location.file),
        None => true,
    };
    let mut shown = None;
    for v in logged_values(run).iter().filter(|v| at_line(&v.site)) {
        let Some((l, r)) = v.element(k) else { continue };
        let cpu = format!("left = {}, right = {}", show_element(l, e.element_type.as_deref()), show_element(r, e.element_type.as_deref()));
        if !elements_equal(nans_equal, l, r) {
            return Some((true, cpu));
        }
        shown.get_or_insert(cpu);
    }
    shown.map(|cpu| (false, cpu))
}

/// Compares what the run showed with what the finding claims. A
/// `symcross_check_equal` finding is judged on its own element, compared
/// with all NaNs equal when `nans_equal` (the rule the check applied).
pub fn judge(f: &Finding, run: &RunResult, witness: &[(String, String)], nans_equal: bool) -> Verdict {
    if let Some(why) = misfit(run, witness) {
        return Verdict::Refused(why);
    }
    let seen = observe(run);
    let at_claimed_line = |o: &Observed| match &o.site {
        Some((file, line)) => *line == u64::from(f.location.line) && base_name(file) == base_name(&f.location.file),
        None => true,
    };
    let element = if f.kind == FindingKind::Mismatch { element_verdict(f, run, nans_equal) } else { None };
    match &element {
        Some((true, cpu)) => {
            let site = Some((f.location.file.clone(), u64::from(f.location.line)));
            let k = f.expressions.as_ref().and_then(|e| e.element).unwrap_or(0);
            return Verdict::Reproduced(Observed { kind: FindingKind::Mismatch, site, detail: format!("element {k} differs: {cpu}") });
        }
        Some((false, cpu)) => {
            let k = f.expressions.as_ref().and_then(|e| e.element).unwrap_or(0);
            let why = format!("element {k} is equal on the CPU{}", if nans_equal { " (all NaNs compare equal)" } else { "" });
            return Verdict::NotReproduced(why, seen, Some(cpu.clone()));
        }
        None => {}
    }
    if let Some(o) = seen.iter().find(|o| o.kind == f.kind && (f.kind != FindingKind::Mismatch || at_claimed_line(o))) {
        return Verdict::Reproduced(o.clone());
    }
    let why = if run.stopped {
        "the native run did not finish (stopped after 600 s)".to_string()
    } else if let Some(e) = run.events.iter().find(|e| e.starts_with("assume ")) {
        format!("the witness violates an assumption of the harness ({})", e.trim_start_matches("assume "))
    } else if seen.is_empty() {
        "the native run showed nothing: every check held and no memory error or division by zero occurred".to_string()
    } else {
        format!("the native run showed something else: {}", seen.iter().map(describe).collect::<Vec<_>>().join("; "))
    };
    Verdict::NotReproduced(why, seen, None)
}

/// One line for an observation.
pub fn describe(o: &Observed) -> String {
    match &o.site {
        Some((file, line)) => format!("{} at {}:{line} ({})", o.kind.name(), base_name(file), o.detail),
        None => format!("{} ({})", o.kind.name(), o.detail),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asan_segv(access: &str, hint: &str) -> RunResult {
        let stderr = format!(
            "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x55bc1cfdad28 (pc 0x1 bp 0x2 sp 0x3 T0)\n\
             ==1==The signal is caused by a {access} memory access.\n{hint}\
             \x20   #0 0x55bc1cfc4c56 in main /src/h.c:15:10\n"
        );
        RunResult { code: None, signal: None, stdout: String::new(), stderr, events: Vec::new(), stopped: false }
    }

    fn kinds(run: &RunResult) -> Vec<FindingKind> {
        observe(run).into_iter().map(|o| o.kind).collect()
    }

    /// A write that faults at a mapped address (read-only pages) shows both
    /// kinds a fault can stand for, at the faulting line.
    #[test]
    fn a_faulting_write_reproduces_a_write_to_read_only() {
        let seen = observe(&asan_segv("WRITE", ""));
        assert_eq!(seen.iter().map(|o| o.kind).collect::<Vec<_>>(), [FindingKind::OutOfBounds, FindingKind::WriteToReadOnly]);
        assert_eq!(seen[1].site, Some(("/src/h.c".to_string(), 15)));
    }

    /// A write that faults inside the C library's memset is placed at the
    /// harness line that called it.
    #[test]
    fn a_fault_in_the_c_library_is_placed_at_its_caller() {
        let stderr = "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x55ea4e96ed00 (pc 0x1 bp 0x2 sp 0x3 T0)\n\
                      ==1==The signal is caused by a WRITE memory access.\n\
                      \x20   #0 0x7f81 in __memset_avx2_unaligned_erms ../sysdeps/x86_64/multiarch/memset-vec-unaligned-erms.S:397\n\
                      \x20   #1 0x55ea in main /src/h.c:9:3\n";
        let run = RunResult { code: None, signal: None, stdout: String::new(), stderr: stderr.into(), events: Vec::new(), stopped: false };
        let seen = observe(&run);
        assert_eq!(seen.last().map(|o| (o.kind, o.site.clone())), Some((FindingKind::WriteToReadOnly, Some(("/src/h.c".to_string(), 9)))));
    }

    /// A faulting read, or a write through a null pointer, is no write into
    /// read-only memory.
    #[test]
    fn reads_and_null_writes_are_not_writes_to_read_only() {
        assert_eq!(kinds(&asan_segv("READ", "")), [FindingKind::OutOfBounds]);
        let null = asan_segv("WRITE", "==1==Hint: address points to the zero page.\n");
        assert_eq!(kinds(&null), [FindingKind::OutOfBounds]);
    }
}
