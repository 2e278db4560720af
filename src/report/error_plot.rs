//! The error plot of tolerance checks, as SVG: for each check, the error
//! in ulps (log scale) against the input over the range searched, one mark
//! per sample, the worst input marked in red. The horizontal axis orders
//! the inputs as IEEE values are ordered (each representable value one
//! step), as Herbie's error plots do, so that 1e-30 and 1e30 both get
//! room. A pure renderer over `ToleranceResult`s: the text report's
//! `--plot` writes it to a file, the HTML report embeds it.

use crate::report::ToleranceResult;
use std::fmt::Write;

const WIDTH: f64 = 720.0;
const PANEL: f64 = 280.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

/// A standalone SVG document with one panel per result that has samples
/// (a result without any gets a panel saying so).
pub fn render(results: &[ToleranceResult]) -> String {
    let panels = results.len().max(1);
    let height = PANEL * panels as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(out, r#"<rect width="{WIDTH}" height="{height}" fill="white"/>"#);
    if results.is_empty() {
        let _ = writeln!(out, r#"<text x="{LEFT}" y="{TOP}">no tolerance check was reached</text>"#);
    }
    for (k, r) in results.iter().enumerate() {
        let _ = writeln!(out, r#"<g transform="translate(0,{})">"#, PANEL * k as f64);
        panel(&mut out, r);
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

/// The position of `x` on the IEEE order (doubles: every float input is
/// exactly a double, and the order is the same).
fn ordinal(x: f64) -> f64 {
    let bits = x.to_bits();
    let magnitude = (bits & !(1u64 << 63)) as f64;
    if bits >> 63 == 1 {
        -magnitude
    } else {
        magnitude
    }
}

/// The height of an error on the log axis: 0 ulp at the bottom.
fn log_ulps(u: f64) -> f64 {
    (u + 1.0).log2()
}

fn panel(out: &mut String, r: &ToleranceResult) {
    let (w, h) = (WIDTH - LEFT - RIGHT, PANEL - TOP - BOTTOM);
    let title = format!("{} (element {}, {}): {}", r.what, r.element, r.tolerance, r.verdict.describe());
    let _ = writeln!(out, r#"<text x="{LEFT}" y="18" font-size="13" font-weight="bold">{}</text>"#, escape(&title));
    let worst = r.worst.as_ref().and_then(|w| Some((w.input?, w.ulps? as f64)));
    let mut points: Vec<(f64, f64)> = r.samples.iter().map(|s| (s.input, s.ulps)).filter(|(x, u)| x.is_finite() && u.is_finite()).collect();
    if let Some(p) = worst.filter(|(x, _)| x.is_finite()) {
        points.push(p);
    }
    let _ = writeln!(out, r##"<rect x="{LEFT}" y="{TOP}" width="{w}" height="{h}" fill="none" stroke="#444"/>"##);
    let x_name = r.plotted_input.as_deref().unwrap_or("input");
    let _ =
        writeln!(out, r#"<text x="{}" y="{}" text-anchor="middle">{} (IEEE order)</text>"#, LEFT + w / 2.0, PANEL - 12.0, escape(x_name));
    let _ = writeln!(
        out,
        r#"<text x="16" y="{}" transform="rotate(-90 16 {})" text-anchor="middle">error (ulps, log scale)</text>"#,
        TOP + h / 2.0,
        TOP + h / 2.0
    );
    if points.is_empty() {
        let _ = writeln!(out, r#"<text x="{}" y="{}">no sample satisfied the path</text>"#, LEFT + 10.0, TOP + 20.0);
        return;
    }
    let (lo, hi) = points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (x, _)| (a.min(ordinal(*x)), b.max(ordinal(*x))));
    let span = if hi > lo { hi - lo } else { 1.0 };
    let top = points.iter().map(|(_, u)| log_ulps(*u)).fold(1.0f64, f64::max).ceil();
    let px = |x: f64| LEFT + (ordinal(x) - lo) / span * w;
    let py = |u: f64| TOP + h - log_ulps(u) / top * h;
    // Vertical ticks at 0, 1, 3, 7, ... ulps (powers of two on the log axis).
    let mut e = 0.0;
    while e <= top {
        let u = e.exp2() - 1.0;
        let y = py(u);
        let _ = writeln!(out, r##"<line x1="{LEFT}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#ddd"/>"##, LEFT + w);
        let _ = writeln!(out, r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#, LEFT - 4.0, y + 4.0, u);
        e += if top > 16.0 { 4.0 } else { 1.0 };
    }
    // Horizontal ticks: the extremes and the middle of the searched range.
    let mut sorted: Vec<f64> = points.iter().map(|(x, _)| *x).collect();
    sorted.sort_by(|a, b| ordinal(*a).total_cmp(&ordinal(*b)));
    for x in [sorted[0], sorted[sorted.len() / 2], sorted[sorted.len() - 1]] {
        let _ = writeln!(out, r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#, px(x), TOP + h + 16.0, short(x));
    }
    for s in &r.samples {
        if s.input.is_finite() && s.ulps.is_finite() {
            let _ = writeln!(
                out,
                r##"<circle class="sample" cx="{:.1}" cy="{:.1}" r="2" fill="#3366cc" fill-opacity="0.6"/>"##,
                px(s.input),
                py(s.ulps)
            );
        }
    }
    if let Some((x, u)) = worst.filter(|(x, _)| x.is_finite()) {
        let (cx, cy) = (px(x), py(u));
        let _ = writeln!(
            out,
            r##"<circle class="worst" cx="{cx:.1}" cy="{cy:.1}" r="5" fill="none" stroke="#cc0000" stroke-width="2"><title>worst input {} = {x:e}: {u} ulp</title></circle>"##,
            escape(x_name)
        );
        let anchor = if cx > LEFT + w * 0.7 { "end" } else { "start" };
        let dx = if anchor == "end" { -8.0 } else { 8.0 };
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" fill="#cc0000" text-anchor="{anchor}">worst: {} ulp at {}</text>"##,
            cx + dx,
            (cy - 6.0).max(TOP + 10.0),
            u,
            short(x)
        );
    }
}

/// A value in few characters.
fn short(x: f64) -> String {
    if x == 0.0 || (1e-3..1e4).contains(&x.abs()) {
        format!("{:.4}", x).trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{x:.3e}")
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{DecidedBy, ErrorSample, Location, ToleranceVerdict, WorstInput};

    fn result() -> ToleranceResult {
        ToleranceResult {
            what: "1/x <a&b>".into(),
            location: Location { file: "h.c".into(), line: 3, column: 1 },
            element: 0,
            tolerance: "ulp:2".into(),
            verdict: ToleranceVerdict::Exceeds,
            decided_by: DecidedBy::Sampling,
            worst: Some(WorstInput {
                inputs: Default::default(),
                input: Some(1.5),
                got: "g".into(),
                want: "w".into(),
                ulps: Some(9),
                relative: 1e-6,
                absolute: 1e-6,
            }),
            proved_max: None,
            plotted_input: Some("x".into()),
            samples: vec![
                ErrorSample { input: 1.0, ulps: 0.0 },
                ErrorSample { input: 1.25, ulps: 3.0 },
                ErrorSample { input: 1.75, ulps: 1.0 },
            ],
            search_note: None,
            proof: None,
        }
    }

    #[test]
    fn one_mark_per_sample_and_the_worst_input_marked() {
        let svg = render(&[result()]);
        assert_eq!(svg.matches(r#"class="sample""#).count(), 3);
        assert_eq!(svg.matches(r#"class="worst""#).count(), 1);
        assert!(svg.contains("worst: 9 ulp at 1.5"));
        assert!(svg.contains("1/x &lt;a&amp;b&gt;"), "text is escaped");
    }

    #[test]
    fn the_axes_are_ordered() {
        assert!(ordinal(-1.0) < ordinal(-0.0) + 1.0 && ordinal(1e-30) < ordinal(1e30));
        assert_eq!(log_ulps(0.0), 0.0);
        assert_eq!(log_ulps(3.0), 2.0);
    }
}
