//! The witness as a table: each input by name, with its type and its
//! values as the text report decodes them (runs of equal elements
//! joined), or its bytes in hex when the program gives no type.

use super::escape::escape;
use crate::report::{DecodedInput, Finding};
use std::fmt::Write;

/// Runs of equal elements shown per input; the JSON report has them all.
const MAX_RUNS: usize = 64;
/// Hex digits shown of an undecoded input.
const MAX_HEX_DIGITS: usize = 512;

pub(super) fn render(out: &mut String, f: &Finding) {
    let Some(w) = &f.witness else { return };
    if w.is_empty() {
        out.push_str("<p class=\"witness-none muted\">The witness assigns no symbolic input: none was needed to show it.</p>\n");
        return;
    }
    out.push_str(
        "<table class=\"witness\">\n<caption>Witness</caption>\n<tr><th>input</th><th>type</th><th>element</th><th>value</th></tr>\n",
    );
    for (name, hex) in w {
        match f.witness_values.as_ref().and_then(|v| v.get(name)) {
            Some(d) => decoded_rows(out, name, d),
            None => {
                let shown = if hex.len() > MAX_HEX_DIGITS {
                    format!("{}… ({} bytes)", &hex[..MAX_HEX_DIGITS], hex.len() / 2)
                } else {
                    hex.clone()
                };
                let _ = writeln!(
                    out,
                    "<tr><td><code>{}</code></td><td>bytes</td><td></td><td><code>{}</code></td></tr>",
                    escape(name),
                    escape(&shown)
                );
            }
        }
    }
    out.push_str("</table>\n");
}

/// One row per run of equal elements (`src[1..63]`).
fn decoded_rows(out: &mut String, name: &str, d: &DecodedInput) {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (i, e) in d.elements.iter().enumerate() {
        match runs.last_mut() {
            Some((_, end)) if d.elements[*end] == *e => *end = i,
            _ => runs.push((i, i)),
        }
    }
    let single = d.elements.len() == 1;
    for (k, &(start, end)) in runs.iter().take(MAX_RUNS).enumerate() {
        let (input, ty) =
            if k == 0 { (format!("<code>{}</code>", escape(name)), escape(&d.type_name)) } else { (String::new(), String::new()) };
        let index = match (single, start == end) {
            (true, _) => String::new(),
            (false, true) => format!("[{start}]"),
            (false, false) => format!("[{start}..{end}]"),
        };
        let _ = writeln!(out, "<tr><td>{input}</td><td>{ty}</td><td>{index}</td><td><code>{}</code></td></tr>", escape(&d.elements[start]));
    }
    if runs.len() > MAX_RUNS {
        let _ = writeln!(
            out,
            "<tr><td></td><td></td><td>…</td><td class=\"muted\">{} more runs; the JSON report has every element</td></tr>",
            runs.len() - MAX_RUNS
        );
    }
}
