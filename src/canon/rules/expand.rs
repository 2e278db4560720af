//! Text-level expansion of a rule before egg parses it: placeholder
//! instantiation (`.F`, `.G` formats, `.W` widths), floating-point literals
//! (`1.0:f32`, `-0.0:F`, `inf:F`, `nan:F` become `0x...:width` constants,
//! refused unless exact), and comparison shorthands (`folt.f32 ?x ?y` is
//! `fcmp.f32 olt ?x ?y`).

use crate::canon::lang::{format_name, parse_format, SET_NAMES};
use crate::expr::{canonical_nan, FpFormat};
use half::f16;

/// One choice of placeholder values.
#[derive(Clone, Debug, Default)]
pub struct Binding {
    pub f: Option<FpFormat>,
    pub g: Option<FpFormat>,
    pub w: Option<u32>,
}

impl Binding {
    /// Suffix of the instantiated rule name, e.g. `[f16,f32,w8]`.
    pub fn suffix(&self) -> String {
        let mut parts = Vec::new();
        if let Some(f) = self.f {
            parts.push(format_name(f).to_string());
        }
        if let Some(g) = self.g {
            parts.push(format_name(g).to_string());
        }
        if let Some(w) = self.w {
            parts.push(format!("w{w}"));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("[{}]", parts.join(","))
        }
    }
}

const FORMATS: [FpFormat; 3] = [FpFormat::Half, FpFormat::Single, FpFormat::Double];
const WIDTHS: [u32; 4] = [8, 16, 32, 64];

fn is_sep(c: char) -> bool {
    c.is_whitespace() || matches!(c, '(' | ')' | ',')
}

/// Applies `f` to every word, keeping separators.
fn map_words(text: &str, mut f: impl FnMut(&str) -> Result<String, String>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if is_sep(c) {
            if !word.is_empty() {
                out.push_str(&f(&word)?);
                word.clear();
            }
            out.push(c);
        } else {
            word.push(c);
        }
    }
    out.pop();
    Ok(out)
}

/// Segments of a word split at `.` and `:` (separators kept apart).
fn segments(word: &str) -> Vec<&str> {
    let mut v = Vec::new();
    let mut start = 0;
    for (i, c) in word.char_indices() {
        if c == '.' || c == ':' {
            v.push(&word[start..i]);
            v.push(&word[i..i + 1]);
            start = i + 1;
        }
    }
    v.push(&word[start..]);
    v
}

/// Which placeholders the text uses.
pub fn placeholders(text: &str) -> (bool, bool, bool) {
    let (mut f, mut g, mut w) = (false, false, false);
    let _ = map_words(text, |word| {
        for s in segments(word) {
            f |= s == "F";
            g |= s == "G";
            w |= s == "W";
        }
        Ok(String::new())
    });
    (f, g, w)
}

/// Every binding for the placeholders used: `F` alone ranges over the three
/// formats; with `G`, `(F, G)` ranges over pairs with F narrower than G.
pub fn bindings(text: &str) -> Vec<Binding> {
    let (f, g, w) = placeholders(text);
    let mut formats: Vec<(Option<FpFormat>, Option<FpFormat>)> = Vec::new();
    if g {
        for (i, a) in FORMATS.iter().enumerate() {
            for b in &FORMATS[i + 1..] {
                formats.push((Some(*a), Some(*b)));
            }
        }
    } else if f {
        formats.extend(FORMATS.iter().map(|a| (Some(*a), None)));
    } else {
        formats.push((None, None));
    }
    let widths: Vec<Option<u32>> = if w { WIDTHS.iter().map(|x| Some(*x)).collect() } else { vec![None] };
    let mut out = Vec::new();
    for (f, g) in &formats {
        for w in &widths {
            out.push(Binding { f: *f, g: *g, w: *w });
        }
    }
    out
}

/// Substitutes placeholders, then literals and shorthands.
pub fn expand(text: &str, b: &Binding) -> Result<String, String> {
    map_words(text, |word| {
        let mut s = String::new();
        for seg in segments(word) {
            match (seg, b) {
                ("F", Binding { f: Some(f), .. }) => s.push_str(format_name(*f)),
                ("G", Binding { g: Some(g), .. }) => s.push_str(format_name(*g)),
                ("W", Binding { w: Some(w), .. }) => s.push_str(&w.to_string()),
                _ => s.push_str(seg),
            }
        }
        expand_word(&s)
    })
}

fn expand_word(word: &str) -> Result<String, String> {
    if let Some((value, fmt)) = word.rsplit_once(':') {
        if let (false, Some(f)) = (value.starts_with("0x"), parse_format(fmt)) {
            let bits = float_literal(value, f).ok_or_else(|| word.to_string())?;
            return Ok(format!("0x{bits:x}:{}", f.width()));
        }
    }
    if let Some((head, fmt)) = word.split_once('.') {
        if let Some(set) = head.strip_prefix('f') {
            if SET_NAMES.contains(&set) && parse_format(fmt).is_some() {
                return Ok(format!("fcmp.{fmt} {set}"));
            }
        }
    }
    Ok(word.to_string())
}

/// The bits of a decimal literal in format `f`, if exactly representable.
pub fn float_literal(text: &str, f: FpFormat) -> Option<u128> {
    let v: f64 = match text {
        "nan" => return Some(canonical_nan(f)),
        "inf" | "+inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        _ => text.parse().ok()?,
    };
    let (bits, back) = match f {
        FpFormat::Half => {
            let h = f16::from_f64(v);
            (h.to_bits() as u128, h.to_f64())
        }
        FpFormat::Single => ((v as f32).to_bits() as u128, v as f32 as f64),
        FpFormat::Double => (v.to_bits() as u128, v),
    };
    (back.to_bits() == v.to_bits()).then_some(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_and_literals_expand() {
        let b = Binding { f: Some(FpFormat::Single), g: None, w: Some(32) };
        let s = expand("(fmul.F ?x 1.0:F) (folt.F ?a -0.0:F) (sext.W ?p) 0x0:W", &b).unwrap();
        assert_eq!(s, "(fmul.f32 ?x 0x3f800000:32) (fcmp.f32 olt ?a 0x80000000:32) (sext.32 ?p) 0x0:32");
        assert!(expand("0.1:F", &Binding { f: Some(FpFormat::Half), ..Default::default() }).is_err());
        assert_eq!(bindings("(fpext.F.G ?x)").len(), 3);
        assert_eq!(bindings("(fadd.F ?x ?y) W").len(), 12);
    }
}
