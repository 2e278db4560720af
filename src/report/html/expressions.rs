//! The two sides of a mismatch, folded: a `<details>` holding the shared
//! definitions and both sides pretty-printed, the first differing
//! subterms (marked `⟪ ⟫` by the printer) highlighted, then the values
//! under the witness and the differing elements.

use super::escape::escape;
use crate::report::{MismatchExprs, NormalForms};
use std::fmt::Write;

/// Expressions longer than this are cut on the page (the JSON report
/// has them whole): a browser lays out a megabyte of `<pre>` slowly.
const MAX_EXPRESSION_CHARS: usize = 100_000;

pub(super) fn render(out: &mut String, e: &MismatchExprs) {
    if let (Some(l), Some(r)) = (&e.left_value, &e.right_value) {
        let ty = e.element_type.as_deref().map(|t| format!(" ({})", escape(t))).unwrap_or_default();
        let element = e.element.map(|i| format!(" element {i}")).unwrap_or_default();
        let _ = writeln!(
            out,
            "<p class=\"values\">Under the witness{element}{ty}: left = <code>{}</code>, right = <code>{}</code></p>",
            escape(l),
            escape(r)
        );
    }
    out.push_str("<details class=\"expressions\">\n<summary>Expressions of both sides (left and right)</summary>\n");
    if !e.definitions.is_empty() {
        let _ = writeln!(out, "<h4>where</h4>\n<pre class=\"definitions\">{}</pre>", marked(&e.definitions));
    }
    let _ = writeln!(out, "<h4>left</h4>\n<pre class=\"left\">{}</pre>", marked(&e.left));
    let _ = writeln!(out, "<h4>right</h4>\n<pre class=\"right\">{}</pre>", marked(&e.right));
    out.push_str("<p class=\"muted\">The first differing subterms are marked ⟪ ⟫.</p>\n");
    if let Some(n) = &e.normal_forms {
        normal_forms(out, e, n);
    }
    out.push_str("</details>\n");
    if let Some(a) = e.equal_under.as_ref().filter(|a| !a.is_empty()) {
        let _ = writeln!(out, "<p>The two sides are equal under <code>--assume {}</code>.</p>", escape(&a.join(",")));
    }
    if let Some(d) = &e.differing {
        let _ = writeln!(out, "<details class=\"differing\" open>\n<summary>Differing elements under the witness: {}</summary>", d.count);
        out.push_str("<table class=\"differing\">\n<tr><th>element</th><th>left</th><th>right</th></tr>\n");
        for el in &d.elements {
            let _ = writeln!(
                out,
                "<tr><td>[{}]</td><td><code>{}</code></td><td><code>{}</code></td></tr>",
                el.index,
                escape(&el.left),
                escape(&el.right)
            );
        }
        out.push_str("</table>\n");
        if d.count as usize > d.elements.len() {
            let _ = writeln!(out, "<p class=\"muted\">{} more differ.</p>", d.count as usize - d.elements.len());
        }
        out.push_str("</details>\n");
    }
}

/// An undecided integer check's sides in the integer normal form: what
/// no rule made meet. Not repeated when they print as the sides.
fn normal_forms(out: &mut String, e: &MismatchExprs, n: &NormalForms) {
    if crate::report::text::normal_forms_are_the_sides(e, n) {
        out.push_str("<p class=\"normal-forms\">Undecided in the integer normal form, which leaves both sides as shown.</p>\n");
        return;
    }
    out.push_str("<h4>in the integer normal form, where the sides still differ</h4>\n");
    if !n.definitions.is_empty() {
        let _ = writeln!(out, "<pre class=\"normal-form-definitions\">{}</pre>", marked(&n.definitions));
    }
    let _ = writeln!(out, "<pre class=\"normal-form-left\">left:  {}</pre>", marked(&n.left));
    let _ = writeln!(out, "<pre class=\"normal-form-right\">right: {}</pre>", marked(&n.right));
}

/// `text` escaped and cut, its `⟪ ⟫` subterms highlighted when they pair up.
fn marked(text: &str) -> String {
    let count = text.chars().count();
    let shown: String = if count > MAX_EXPRESSION_CHARS { text.chars().take(MAX_EXPRESSION_CHARS).collect() } else { text.to_string() };
    let mut html = escape(&shown);
    if html.matches('⟪').count() == html.matches('⟫').count() {
        html = html.replace('⟪', "<mark>⟪").replace('⟫', "⟫</mark>");
    }
    if count > MAX_EXPRESSION_CHARS {
        let _ = write!(html, " … ({count} characters in all; the JSON report has the whole expression)");
    }
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The normal forms are shown in the expressions' fold, highlighted,
    /// and only said to be the sides when they print the same.
    #[test]
    fn normal_forms_are_shown_unless_they_are_the_sides() {
        let n = NormalForms { definitions: String::new(), left: "⟪x * 2⟫".into(), right: "⟪x << 1⟫".into() };
        let mut e = MismatchExprs {
            definitions: String::new(),
            left: "(x + x)".into(),
            right: "(x << 1)".into(),
            left_value: None,
            right_value: None,
            equal_under: None,
            element_type: None,
            element: None,
            nans_equal: None,
            differing: None,
            condition: None,
            normal_forms: Some(n.clone()),
        };
        let mut out = String::new();
        render(&mut out, &e);
        assert!(out.contains("<pre class=\"normal-form-left\">left:  <mark>⟪x * 2⟫</mark></pre>"), "{out}");
        assert!(out.contains("<pre class=\"normal-form-right\">right: <mark>⟪x &lt;&lt; 1⟫</mark></pre>"), "{out}");
        assert!(out.find("normal-form-left").unwrap() < out.find("</details>").unwrap());
        e.left = n.left.clone();
        e.right = n.right.clone();
        let mut out = String::new();
        render(&mut out, &e);
        assert!(out.contains("which leaves both sides as shown"), "{out}");
        assert!(!out.contains("normal-form-left"), "{out}");
    }

    #[test]
    fn differing_subterms_are_highlighted_and_markup_escaped() {
        assert_eq!(marked("a < ⟪b⟫"), "a &lt; <mark>⟪b⟫</mark>");
        // An unpaired marker (a cut expression) is left as text.
        assert_eq!(marked("⟪b"), "⟪b");
    }
}
