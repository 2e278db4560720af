//! The report for people: each finding as a compiler diagnostic
//! (diagnostic.rs) with the expressions of a mismatch and the witness
//! decoded by type, then a summary line.

use super::colour::TextStyle;
use super::diagnostic::{self, SourceCache};
use super::finding::{DecodedInput, Finding, FindingKind, MismatchExprs, NativeOutcome, NormalForms, Status};
use super::json::{Report, Verdict};
use std::fmt::Write;

/// The report without colour (files, pipes, JUnit output).
pub fn render(report: &Report) -> String {
    render_styled(report, &TextStyle::default())
}

/// The report as text, coloured by `style`: one compiler-style diagnostic
/// per finding with its source line, then the verdict line and statistics.
pub fn render_styled(report: &Report, style: &TextStyle) -> String {
    let mut out = String::new();
    let mut sources = SourceCache::default();
    for f in &report.findings {
        render_finding(&mut out, f, &mut sources, style);
        out.push('\n');
    }
    let s = &report.stats;
    let verdict = verdict_line(report);
    let assumed = if report.assumptions.is_empty() { String::new() } else { format!(" (assuming {})", report.assumptions.join(", ")) };
    let _ = writeln!(out, "{}: {verdict}{assumed}", report.input);
    if let Some(mode) = &report.mode {
        let _ = writeln!(out, "  mode: {mode}");
    }
    for t in &report.tolerance {
        let _ = writeln!(out, "  tolerance: {}:{}: {}", t.location.file, t.location.line, t.summary());
    }
    for s in &report.semantics {
        let _ = writeln!(out, "  semantics: {s}");
    }
    for w in &report.warnings {
        let _ = writeln!(out, "  warning: {}", w.message);
    }
    if !report.unverified_rules.is_empty() {
        let _ = writeln!(out, "  unverified rules: {}", report.unverified_rules.join(", "));
    }
    if let Some(b) = &report.build {
        if !b.compiled_with.is_empty() {
            let _ = writeln!(out, "  compiled with: {}", b.compiled_with.join(" "));
        }
    }
    if let Some(n) = &report.native_replay {
        let _ = writeln!(
            out,
            "  native replay ({}): {} reproduced, {} not reproduced (the model and the CPU disagree), {} confirmed by the model only; {:.2} s{}",
            n.on,
            n.reproduced,
            n.not_reproduced,
            n.confirmed_by_model,
            n.seconds,
            if n.build_cached { " (executable from the cache)" } else { "" }
        );
    }
    let d = &s.decided;
    let _ = write!(out, "  {}, {} instructions, {} solver queries, {:.2} s", paths_phrase(report), s.instructions, s.queries, s.seconds);
    // A kernel checked alone has no checks to decide (races are not
    // checks): a row of zeros there would read as "nothing decided".
    if report.mode.is_none() {
        let _ = write!(
            out,
            "; checks decided: {} structural, {} canonical, {} implied-query, {} sampled, {} bit-precise",
            d.structural, d.canonical, d.implied_query, d.sampling, d.bit_precise
        );
        if d.error_analysis > 0 {
            let _ = write!(out, ", {} by error analysis", d.error_analysis);
        }
        if d.element_evaluation > 0 {
            let _ = write!(out, ", {} by evaluating every value of each element", d.element_evaluation);
        }
        if d.lane_symmetry > 0 {
            let _ = write!(out, ", {} by lane symmetry", d.lane_symmetry);
        }
        if d.estimate_bound > 0 {
            let _ = write!(out, ", {} by estimate bound", d.estimate_bound);
        }
    }
    out.push('\n');
    out
}

/// How many paths were explored. `paths` counts those that reached their
/// end; a run stopped at its first confirmed finding stopped the path
/// that made it, which is still a path explored: never "0 paths" beside a
/// finding.
pub fn paths_phrase(report: &Report) -> String {
    let finished = report.stats.paths;
    let stopped_on_finding = report.findings.iter().any(|f| f.status.is_confirmed()) && report.verdict == Verdict::Findings;
    match finished {
        0 if stopped_on_finding => "1 path (stopped at its finding)".to_string(),
        n => format!("{n} paths"),
    }
}

/// The one-line verdict: what was found, or what was proved and how far
/// that claim goes.
pub fn verdict_line(report: &Report) -> String {
    let has = |kind: &str| report.warnings.iter().any(|w| w.kind == kind);
    let mut line = match report.verdict {
        // A kernel is not "equivalent" to anything: say what was shown, as
        // GPUVerify users read it (the JSON verdict stays `equivalent`).
        Verdict::Equivalent if report.mode.is_some() && has("no-shared-access") => {
            "no data race possible: no path accesses __global or __local memory (see the warning)".to_string()
        }
        Verdict::Equivalent if report.mode.is_some() => "no data race, barrier divergence or memory error found on any path".to_string(),
        Verdict::NoFindings => {
            "no findings: no memory error on any path (the program has no check or assert, so nothing was compared)".to_string()
        }
        Verdict::Equivalent if has("no-symbolic-input") => {
            "equivalent on one concrete input only: every check held (no input is symbolic, so this is not a proof)".to_string()
        }
        Verdict::Equivalent => "equivalent: every check proved on every path".to_string(),
        Verdict::Findings => {
            let by_model = report.findings.iter().filter(|f| f.status == Status::ConfirmedByModel).count();
            let reproduced = report.confirmed() - by_model;
            let unconfirmed = report.findings.len() - report.confirmed();
            if by_model > 0 {
                format!(
                    "findings: {} ({reproduced} confirmed, {by_model} confirmed by the model only, {unconfirmed} unconfirmed)",
                    report.findings.len()
                )
            } else {
                format!("findings: {} ({reproduced} confirmed, {unconfirmed} unconfirmed)", report.findings.len())
            }
        }
        Verdict::Inconclusive if report.limit == Some(super::Limit::Interrupted) => {
            "inconclusive: interrupted by a signal before exploration finished; nothing found so far".to_string()
        }
        Verdict::Inconclusive => {
            let mut why = Vec::new();
            if let Some(l) = &report.limit {
                why.push(format!("the {l} limit was hit before exploration finished"));
            }
            let unsupported = report.findings.iter().filter(|f| f.kind == FindingKind::Unsupported).count();
            if unsupported > 0 {
                why.push(format!("{unsupported} construct(s) could not be modelled"));
            }
            let unconfirmed = report.findings.iter().filter(|f| f.kind != FindingKind::Unsupported).count();
            if unconfirmed > 0 {
                why.push(format!("{unconfirmed} finding(s) could not be confirmed"));
            }
            if has("no-check-reached") {
                why.push("no check was reached".into());
            }
            if has("nothing-checked") {
                why.push("nothing was checked".into());
            }
            if has("local-read-unchecked") {
                why.push("pair mode could not check whether some `__local` bytes read were written (--mode enumerate checks it)".into());
            }
            if has("nan-bits-read") {
                why.push("the program reads NaN bits that --nan equal does not model (use --nan exact)".into());
            }
            format!("inconclusive: {}; nothing confirmed was found", why.join("; "))
        }
    };
    if !report.unverified_rules.is_empty() {
        line.push_str(" [unverified rules]");
    }
    line
}

/// One finding as the text report shows it (diagnostic, source line,
/// witness, notes), its relative paths taken as relative to `dir` (the
/// directory the run was made in, as a path from here): how a suite shows
/// the first finding of a failing entry in its log.
pub fn render_finding_from(f: &Finding, dir: &str) -> String {
    let mut f = f.clone();
    let rebase = |file: &mut String| {
        if !file.starts_with('/') && !dir.is_empty() && dir != "." && !file.starts_with('<') {
            *file = format!("{}/{file}", dir.trim_end_matches('/'));
        }
    };
    rebase(&mut f.location.file);
    for r in f.related.iter_mut() {
        rebase(&mut r.location.file);
    }
    let mut out = String::new();
    render_finding(&mut out, &f, &mut SourceCache::default(), &TextStyle::default());
    out
}

fn render_finding(out: &mut String, f: &Finding, sources: &mut SourceCache, style: &TextStyle) {
    diagnostic::heading(out, f, style);
    diagnostic::excerpt(out, &f.location, sources, style);
    if let Some(by) = f.decided_by {
        let step = by.words();
        let _ = writeln!(out, "  decided by: {step}");
    }
    if let Some(n) = &f.native {
        let on = match n.on.as_deref() {
            Some("qemu-aarch64") => "under qemu-aarch64",
            Some(_) => "on this CPU",
            None => "natively",
        };
        let line = match n.outcome {
            NativeOutcome::Reproduced => format!("reproduced {on}: {}", n.detail),
            NativeOutcome::NotReproduced => format!("NOT reproduced {on}: {}", n.detail),
            NativeOutcome::NotRun => format!("not replayed natively: {}", n.detail),
        };
        let _ = writeln!(out, "  {line}");
        if let Some(m) = &n.model {
            let _ = writeln!(out, "    the model: {m}");
        }
        if let Some(c) = &n.cpu {
            let _ = writeln!(out, "    the CPU: {c}");
        }
    }
    if let Some(e) = &f.expressions {
        if !e.definitions.is_empty() {
            let _ = writeln!(out, "  where");
            definition_lines(out, &e.definitions, MAX_DEFINITION_LINES, elide);
        }
        let _ = writeln!(out, "  left:  {}", elide(&e.left));
        let _ = writeln!(out, "  right: {}", elide(&e.right));
        match &e.condition {
            Some(c) => {
                let _ = writeln!(out, "  (the assertion fails where {c})");
            }
            None => {
                let _ = writeln!(out, "  (the first differing subterms are marked ⟪ ⟫)");
            }
        }
        if let Some(n) = &e.normal_forms {
            normal_form_lines(out, e, n);
        }
        if let (Some(l), Some(r)) = (&e.left_value, &e.right_value) {
            let ty = e.element_type.as_deref().map(|t| format!(" ({t})")).unwrap_or_default();
            let _ = writeln!(out, "  under the witness{ty}: left = {l}, right = {r}");
        }
        if let Some(d) = &e.differing {
            let _ = writeln!(out, "  differing elements under the witness: {}", d.count);
            for el in d.elements.iter().take(MAX_LISTED_DIFFERENCES) {
                let _ = writeln!(out, "    [{}]: left {}, right {}", el.index, el.left, el.right);
            }
            if d.count as usize > MAX_LISTED_DIFFERENCES {
                let _ = writeln!(
                    out,
                    "    ... ({} more; the JSON report lists up to {})",
                    d.count as usize - MAX_LISTED_DIFFERENCES,
                    d.elements.len()
                );
            }
        }
    }
    if let Some(w) = &f.witness {
        for (name, hex) in w {
            match f.witness_values.as_ref().and_then(|v| v.get(name)) {
                Some(decoded) => witness_lines(out, name, decoded),
                None => {
                    let _ = writeln!(out, "  witness {name} = {}", abbreviate(hex));
                }
            }
        }
    }
    // Related places, as compilers give them: the assumption that would
    // make the sides equal, the other access of a race, where memory was
    // freed, the calls that led here.
    if let Some(a) = f.expressions.as_ref().and_then(|e| e.equal_under.as_ref()).filter(|a| !a.is_empty()) {
        diagnostic::note(out, &f.location, &format!("the two sides are equal under --assume {}", a.join(",")), style);
    }
    for r in &f.related {
        diagnostic::note(out, &r.location, &r.message, style);
    }
}

/// An undecided integer check's sides in the integer normal form, short:
/// the first subterms that differ there, then the forms themselves cut.
fn normal_form_lines(out: &mut String, e: &MismatchExprs, n: &NormalForms) {
    if normal_forms_are_the_sides(e, n) {
        let _ = writeln!(out, "  undecided in integer normal form, which leaves both sides as printed above");
        return;
    }
    let _ = writeln!(out, "  undecided in integer normal form, where the sides still differ:");
    if let (Some(l), Some(r)) = (marked(&n.left), marked(&n.right)) {
        let _ = writeln!(out, "    first difference, left:  {}", shortened(l));
        let _ = writeln!(out, "    first difference, right: {}", shortened(r));
    }
    definition_lines(out, &n.definitions, MAX_NORMAL_FORM_DEFINITION_LINES, shortened);
    let _ = writeln!(out, "    left:  {}", shortened(&n.left));
    let _ = writeln!(out, "    right: {}", shortened(&n.right));
}

/// Whether the normal forms print as the sides do (no rule changed
/// them): then they are not printed a second time.
pub(crate) fn normal_forms_are_the_sides(e: &MismatchExprs, n: &NormalForms) -> bool {
    n.left == e.left && n.right == e.right && n.definitions == e.definitions
}

/// The first `most` lines of `definitions`, each cut by `cut`, and how
/// many more the JSON report holds.
fn definition_lines(out: &mut String, definitions: &str, most: usize, cut: fn(&str) -> String) {
    let lines: Vec<&str> = definitions.lines().collect();
    for line in lines.iter().take(most) {
        let _ = writeln!(out, "    {}", cut(line));
    }
    if lines.len() > most {
        let _ = writeln!(out, "    ... ({} more definitions in the JSON report)", lines.len() - most);
    }
}

/// The subterm marked `⟪ ⟫` in a printed side.
fn marked(side: &str) -> Option<&str> {
    let start = side.find('⟪')? + '⟪'.len_utf8();
    let end = start + side[start..].find('⟫')?;
    Some(&side[start..end])
}

/// Normal forms are shown shorter than the sides: they are a hint, and
/// the JSON report has them whole.
const MAX_NORMAL_FORM_CHARS: usize = 300;
const MAX_NORMAL_FORM_DEFINITION_LINES: usize = 6;

fn shortened(text: &str) -> String {
    if text.chars().count() <= MAX_NORMAL_FORM_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(MAX_NORMAL_FORM_CHARS).collect();
    format!("{head} ... ({} characters)", text.chars().count())
}

/// Differing elements listed in the text report.
const MAX_LISTED_DIFFERENCES: usize = 8;
/// Runs of equal witness elements listed per input before eliding.
const MAX_WITNESS_RUNS: usize = 16;

/// A decoded witness input: `witness x: i32 = 5`, or an array element by
/// element with runs of equal elements joined (`src[1..63] = 0.0f`).
fn witness_lines(out: &mut String, name: &str, d: &DecodedInput) {
    if let Some(labels) = d.labels.as_ref().filter(|l| l.len() == d.elements.len()) {
        return labelled_witness_lines(out, name, d, labels);
    }
    if d.elements.len() == 1 {
        let _ = writeln!(out, "  witness {name}: {} = {}", d.type_name, d.elements[0]);
        return;
    }
    let _ = writeln!(out, "  witness {name}: {}", d.type_name);
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, e) in d.elements.iter().enumerate() {
        match runs.last_mut() {
            Some((_, end)) if d.elements[*end] == *e => *end = i,
            _ => runs.push((i, i)),
        }
    }
    for &(start, end) in runs.iter().take(MAX_WITNESS_RUNS) {
        let index = if start == end { format!("{start}") } else { format!("{start}..{end}") };
        let _ = writeln!(out, "    {name}[{index}] = {}", d.elements[start]);
    }
    if runs.len() > MAX_WITNESS_RUNS {
        let _ = writeln!(out, "    ... (the JSON report has every element)");
    }
}

/// A witness input decoded by its debug-info type: each scalar where it
/// sits (`tile[15][0]`, `p.r`), runs of equal neighbours joined
/// (`tile[0][0]..tile[14][16] = 0.0f`).
fn labelled_witness_lines(out: &mut String, name: &str, d: &DecodedInput, labels: &[String]) {
    let _ = writeln!(out, "  witness {name}: {}", d.type_name);
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, e) in d.elements.iter().enumerate() {
        match runs.last_mut() {
            Some((_, end)) if d.elements[*end] == *e => *end = i,
            _ => runs.push((i, i)),
        }
    }
    for &(start, end) in runs.iter().take(MAX_WITNESS_RUNS) {
        let place =
            if start == end { format!("{name}{}", labels[start]) } else { format!("{name}{}..{name}{}", labels[start], labels[end]) };
        let _ = writeln!(out, "    {place} = {}", d.elements[start]);
    }
    if runs.len() > MAX_WITNESS_RUNS {
        let _ = writeln!(out, "    ... (the JSON report has every element)");
    }
}

fn abbreviate(hex: &str) -> String {
    if hex.len() <= 96 {
        hex.to_string()
    } else {
        format!("{}... ({} bytes)", &hex[..96], hex.len() / 2)
    }
}

/// Expressions longer than this many characters are cut in the text report
/// (a 1024-term sum is 40 000 characters); the JSON report has them whole.
const MAX_EXPRESSION_CHARS: usize = 600;
const MAX_DEFINITION_LINES: usize = 12;

fn elide(text: &str) -> String {
    if text.chars().count() <= MAX_EXPRESSION_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(MAX_EXPRESSION_CHARS).collect();
    format!("{head} ... ({} characters in all; the JSON report has the whole expression)", text.chars().count())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(left: &str, right: &str, normal_forms: Option<NormalForms>) -> MismatchExprs {
        MismatchExprs {
            definitions: "N0 := (a[0] + a[1])".into(),
            left: left.into(),
            right: right.into(),
            left_value: None,
            right_value: None,
            equal_under: None,
            element_type: None,
            element: None,
            nans_equal: None,
            differing: None,
            condition: None,
            normal_forms,
        }
    }

    /// Normal forms that differ from the sides are printed with their first
    /// differing subterms; ones that print as the sides are not repeated.
    #[test]
    fn normal_forms_are_printed_once() {
        let changed = NormalForms { definitions: String::new(), left: "(⟪N0 * 2⟫ + 1)".into(), right: "(⟪N0 << 1⟫ + 1)".into() };
        let e = sides("((N0 + N0) + 1)", "((N0 << 1) + 1)", Some(changed.clone()));
        let mut out = String::new();
        normal_form_lines(&mut out, &e, &changed);
        assert_eq!(
            out,
            "  undecided in integer normal form, where the sides still differ:\n    first difference, left:  N0 * 2\n    first difference, right: N0 << 1\n    left:  (⟪N0 * 2⟫ + 1)\n    right: (⟪N0 << 1⟫ + 1)\n"
        );
        let same = NormalForms { definitions: "N0 := (a[0] + a[1])".into(), left: "(⟪N0⟫ / 3)".into(), right: "⟪a[2]⟫".into() };
        let e = sides("(⟪N0⟫ / 3)", "⟪a[2]⟫", Some(same.clone()));
        let mut out = String::new();
        normal_form_lines(&mut out, &e, &same);
        assert_eq!(out, "  undecided in integer normal form, which leaves both sides as printed above\n");
    }
}
