//! The error plot of tolerance checks, as SVG: for each check, the error
//! in ulps (log scale) against the input over the range searched, one mark
//! per sample, the worst input marked in red. The horizontal axis orders
//! the inputs as IEEE values are ordered (each representable value one
//! step), as Herbie's error plots do, so that 1e-30 and 1e30 both get
//! room. A pure renderer over `ToleranceResult`s: the text report's
//! `--plot` writes it to a file, the HTML report embeds it.

use crate::report::{ErrorSample, ToleranceResult};
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

/// How a panel's vertical axis measures the error: in the tolerance's own
/// terms, so a relative bound is drawn against relative errors (a
/// double-precision reference puts a float result's rounding at hundreds
/// of millions of double ulps, which says nothing about a relative bound).
#[derive(Copy, Clone, Debug, PartialEq)]
enum Axis {
    /// Ulps, log2(u + 1): 0 at the bottom, 1, 3, 7, ... above.
    Ulps,
    /// Relative, absolute or relative-to errors, log10 over the decades
    /// the samples and the bound span (at most `DECADES`); zero and smaller
    /// errors are drawn on the bottom line.
    Decades { bottom: f64, top: f64 },
}

/// Decades the vertical axis of a non-ulp tolerance spans at most.
const DECADES: f64 = 8.0;

impl Axis {
    /// The axis for `r`'s tolerance, over the errors `errors`.
    fn of(r: &ToleranceResult, errors: &[f64]) -> Axis {
        if r.tolerance.starts_with("ulp:") {
            return Axis::Ulps;
        }
        let bound = bound_of(r).filter(|b| *b > 0.0);
        let positive = errors.iter().copied().chain(bound).filter(|e| *e > 0.0 && e.is_finite());
        let (lo, hi) = positive.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), e| (a.min(e), b.max(e)));
        if !lo.is_finite() {
            return Axis::Decades { bottom: -1.0, top: 0.0 };
        }
        let top = hi.log10().ceil();
        let bottom = lo.log10().floor().max(top - DECADES).min(top - 1.0);
        Axis::Decades { bottom, top }
    }

    /// The height of an error, 0 at the bottom line, 1 at the top.
    fn height(self, e: f64, top_ulps: f64) -> f64 {
        match self {
            Axis::Ulps => log_ulps(e) / top_ulps,
            Axis::Decades { bottom, top } if e > 0.0 => ((e.log10() - bottom) / (top - bottom)).clamp(0.0, 1.0),
            Axis::Decades { .. } => 0.0,
        }
    }

    /// The axis's name, saying what it measures.
    fn label(self, r: &ToleranceResult) -> &'static str {
        match r.tolerance.split_once(':').map(|(k, _)| k) {
            Some("rel") => "relative error (log scale)",
            Some("abs") => "absolute error (log scale)",
            Some("rel-to") => "error relative to the magnitude (log)",
            _ => "error (ulps, log scale)",
        }
    }

    /// Where the axis clips, in words, when it does.
    fn clipping(self) -> Option<String> {
        match self {
            Axis::Ulps => None,
            Axis::Decades { bottom, .. } => Some(format!("errors of 0 and below 1e{bottom} are drawn on the bottom line")),
        }
    }
}

/// The tolerance's bound, read from its spelling (`rel:5.96e-8`).
fn bound_of(r: &ToleranceResult) -> Option<f64> {
    r.tolerance.split_once(':')?.1.parse().ok()
}

/// The height of an error on the log axis: 0 ulp at the bottom.
fn log_ulps(u: f64) -> f64 {
    (u + 1.0).log2()
}

fn panel(out: &mut String, r: &ToleranceResult) {
    let (w, h) = (WIDTH - LEFT - RIGHT, PANEL - TOP - BOTTOM);
    let title = format!("{} (element {}, {}): {}", r.what, r.element, r.tolerance, r.verdict.describe());
    let _ = writeln!(out, r#"<text x="{LEFT}" y="18" font-size="13" font-weight="bold">{}</text>"#, escape(&title));
    let ulp_axis = r.tolerance.starts_with("ulp:");
    // Each mark's error in the tolerance's own terms.
    let sample_error = |s: &ErrorSample| if ulp_axis { s.ulps } else { s.error };
    let worst = r.worst.as_ref().and_then(|w| {
        let e = if ulp_axis { w.ulps? as f64 } else { w.error };
        Some((w.input?, e))
    });
    let mut points: Vec<(f64, f64)> =
        r.samples.iter().map(|s| (s.input, sample_error(s))).filter(|(x, e)| x.is_finite() && e.is_finite()).collect();
    if let Some(p) = worst.filter(|(x, e)| x.is_finite() && e.is_finite()) {
        points.push(p);
    }
    let errors: Vec<f64> = points.iter().map(|(_, e)| *e).collect();
    let axis = Axis::of(r, &errors);
    let _ = writeln!(out, r##"<rect x="{LEFT}" y="{TOP}" width="{w}" height="{h}" fill="none" stroke="#444"/>"##);
    let x_name = r.plotted_input.as_deref().unwrap_or("input");
    let _ =
        writeln!(out, r#"<text x="{}" y="{}" text-anchor="middle">{} (IEEE order)</text>"#, LEFT + w / 2.0, PANEL - 12.0, escape(x_name));
    let _ = writeln!(
        out,
        r#"<text x="16" y="{}" transform="rotate(-90 16 {})" text-anchor="middle">{}</text>"#,
        TOP + h / 2.0,
        TOP + h / 2.0,
        axis.label(r)
    );
    if let Some(note) = axis.clipping() {
        let _ = writeln!(out, r##"<text x="{LEFT}" y="{}" font-size="10" fill="#666">{note}</text>"##, TOP - 6.0);
    }
    if points.is_empty() {
        let _ = writeln!(out, r#"<text x="{}" y="{}">no sample satisfied the path</text>"#, LEFT + 10.0, TOP + 20.0);
        return;
    }
    let (lo, hi) = points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (x, _)| (a.min(ordinal(*x)), b.max(ordinal(*x))));
    let span = if hi > lo { hi - lo } else { 1.0 };
    let top_ulps = points.iter().map(|(_, u)| log_ulps(*u)).fold(1.0f64, f64::max).ceil();
    let px = |x: f64| LEFT + (ordinal(x) - lo) / span * w;
    let py = |e: f64| TOP + h - axis.height(e, top_ulps) * h;
    match axis {
        // Vertical ticks at 0, 1, 3, 7, ... ulps (powers of two on the log axis).
        Axis::Ulps => {
            let mut e = 0.0;
            while e <= top_ulps {
                let u = e.exp2() - 1.0;
                tick(out, py(u), &u.to_string(), w);
                e += if top_ulps > 16.0 { 4.0 } else { 1.0 };
            }
        }
        // One tick per decade (every other one past six).
        Axis::Decades { bottom, top } => {
            let step = if top - bottom > 6.0 { 2.0 } else { 1.0 };
            let mut d = bottom;
            while d <= top {
                tick(out, py(10f64.powf(d)), &format!("1e{d}"), w);
                d += step;
            }
        }
    }
    // The bound, dashed, where it lies on the axis.
    if let Some(b) = bound_of(r).filter(|b| !ulp_axis || log_ulps(*b) <= top_ulps) {
        let y = py(b);
        let _ = writeln!(
            out,
            r##"<line class="bound" x1="{LEFT}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#cc0000" stroke-dasharray="4 3"/>"##,
            LEFT + w
        );
        let _ = writeln!(out, r##"<text x="{}" y="{:.1}" fill="#cc0000">bound {}</text>"##, LEFT + 4.0, y - 3.0, short(b));
    }
    // Horizontal ticks: the extremes and the middle of the searched range.
    let mut sorted: Vec<f64> = points.iter().map(|(x, _)| *x).collect();
    sorted.sort_by(|a, b| ordinal(*a).total_cmp(&ordinal(*b)));
    for x in [sorted[0], sorted[sorted.len() / 2], sorted[sorted.len() - 1]] {
        let _ = writeln!(out, r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#, px(x), TOP + h + 16.0, short(x));
    }
    for s in &r.samples {
        let e = sample_error(s);
        if s.input.is_finite() && e.is_finite() {
            let _ = writeln!(
                out,
                r##"<circle class="sample" cx="{:.1}" cy="{:.1}" r="2" fill="#3366cc" fill-opacity="0.6"/>"##,
                px(s.input),
                py(e)
            );
        }
    }
    if let Some((x, e)) = worst.filter(|(x, e)| x.is_finite() && e.is_finite()) {
        let (cx, cy) = (px(x), py(e));
        let error = if ulp_axis { format!("{e} ulp") } else { short(e) };
        let _ = writeln!(
            out,
            r##"<circle class="worst" cx="{cx:.1}" cy="{cy:.1}" r="5" fill="none" stroke="#cc0000" stroke-width="2"><title>worst input {} = {x:e}: {error}</title></circle>"##,
            escape(x_name)
        );
        let anchor = if cx > LEFT + w * 0.7 { "end" } else { "start" };
        let dx = if anchor == "end" { -8.0 } else { 8.0 };
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" fill="#cc0000" text-anchor="{anchor}">worst: {error} at {}</text>"##,
            cx + dx,
            (cy - 6.0).max(TOP + 10.0),
            short(x)
        );
    }
}

/// A grid line across the panel at height `y`, labelled on the left.
fn tick(out: &mut String, y: f64, label: &str, w: f64) {
    let _ = writeln!(out, r##"<line x1="{LEFT}" y1="{y:.1}" x2="{}" y2="{y:.1}" stroke="#ddd"/>"##, LEFT + w);
    let _ = writeln!(out, r#"<text x="{}" y="{:.1}" text-anchor="end">{label}</text>"#, LEFT - 4.0, y + 4.0);
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
                error: 9.0,
            }),
            proved_max: None,
            plotted_input: Some("x".into()),
            samples: vec![
                ErrorSample { input: 1.0, ulps: 0.0, error: 0.0 },
                ErrorSample { input: 1.25, ulps: 3.0, error: 3.0 },
                ErrorSample { input: 1.75, ulps: 1.0, error: 1.0 },
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

    /// A relative tolerance against a double reference: the float
    /// result's errors are hundreds of millions of double ulps, but the
    /// plot draws them as relative errors, under the bound's line.
    #[test]
    fn a_relative_tolerance_is_drawn_in_relative_terms() {
        let mut r = result();
        r.tolerance = "rel:5.960464477539063e-8".into();
        r.samples = vec![
            ErrorSample { input: 1.0, ulps: 0.0, error: 0.0 },
            ErrorSample { input: 1.25, ulps: 2.7e8, error: 5.0e-8 },
            ErrorSample { input: 1.75, ulps: 1.0e8, error: 1.2e-8 },
        ];
        let w = r.worst.as_mut().unwrap();
        (w.ulps, w.error) = (Some(270_000_000), 5.0e-8);
        let svg = render(&[r]);
        assert!(svg.contains("relative error (log scale)"), "{svg}");
        assert!(svg.contains("errors of 0 and below 1e-8 are drawn on the bottom line"), "{svg}");
        assert!(svg.contains("worst: 5.000e-8 at 1.5"), "{svg}");
        assert!(!svg.contains("ulp at"), "no ulps on a relative plot: {svg}");
        assert_eq!(svg.matches(r#"class="bound""#).count(), 1);
        // The worst mark lies below the bound's line (larger y), both inside the panel.
        let y_of = |class: &str, attr: &str| -> f64 {
            let at = svg.find(&format!(r#"class="{class}""#)).unwrap();
            let rest = &svg[at..];
            let v = rest.split(&format!(r#"{attr}=""#)).nth(1).unwrap();
            v[..v.find('"').unwrap()].parse().unwrap()
        };
        let (bound, worst) = (y_of("bound", "y1"), y_of("worst", "cy"));
        assert!(worst > bound && bound >= TOP && worst <= PANEL - BOTTOM, "bound at {bound}, worst at {worst}");
    }

    #[test]
    fn the_axes_are_ordered() {
        assert!(ordinal(-1.0) < ordinal(-0.0) + 1.0 && ordinal(1e-30) < ordinal(1e30));
        assert_eq!(log_ulps(0.0), 0.0);
        assert_eq!(log_ulps(3.0), 2.0);
    }
}
