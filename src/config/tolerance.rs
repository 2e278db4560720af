//! A tolerance between two floating-point results: how far apart `got`
//! and `want` may be and still count as close (`symcross_check_close`,
//! `--tolerance`). The harness API (symcross.h) gives the same four kinds
//! with the same numbering, so the engine reads a harness's tolerance as
//! this type.

use std::fmt;

/// How the distance between `got` and `want` is measured.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ToleranceKind {
    /// Units in the last place: the number of representable values
    /// between the two, counted over the IEEE order (+0 and -0 are the
    /// same place).
    Ulp,
    /// `|got - want| <= bound * |want|`, evaluated in double.
    Relative,
    /// `|got - want| <= bound`, evaluated in double.
    Absolute,
    /// `|got - want| <= bound * |magnitude|`, evaluated in double, with a
    /// magnitude the harness gives per element (a sum of absolute values).
    RelativeTo,
}

impl ToleranceKind {
    /// The number symcross.h gives the kind (`SYMCROSS_TOL_ULP` ...).
    pub fn from_code(code: u64) -> Option<ToleranceKind> {
        match code {
            1 => Some(ToleranceKind::Ulp),
            2 => Some(ToleranceKind::Relative),
            3 => Some(ToleranceKind::Absolute),
            4 => Some(ToleranceKind::RelativeTo),
            _ => None,
        }
    }

    /// The prefix of the command line's form (`ulp:2`).
    pub fn name(self) -> &'static str {
        match self {
            ToleranceKind::Ulp => "ulp",
            ToleranceKind::Relative => "rel",
            ToleranceKind::Absolute => "abs",
            ToleranceKind::RelativeTo => "rel-to",
        }
    }
}

/// A tolerance: a kind and its bound (a whole number of ulps, or a
/// non-negative real).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Tolerance {
    /// How the distance is measured.
    pub kind: ToleranceKind,
    /// The largest distance that still counts as close.
    pub bound: f64,
}

impl Tolerance {
    /// Parses the command line's form: `ulp:K`, `rel:X`, `abs:X` (rel-to
    /// needs a magnitude per element, which only a harness can give).
    pub fn parse(s: &str) -> Result<Tolerance, String> {
        let (kind, value) =
            s.split_once(':').ok_or_else(|| format!("--tolerance {s}: expected KIND:BOUND, e.g. ulp:2, rel:1.5e-3 or abs:1e-6"))?;
        let kind = match kind {
            "ulp" => ToleranceKind::Ulp,
            "rel" => ToleranceKind::Relative,
            "abs" => ToleranceKind::Absolute,
            _ => return Err(format!("--tolerance {s}: unknown kind `{kind}` (expected ulp, rel or abs)")),
        };
        let bound: f64 = value.parse().map_err(|_| format!("--tolerance {s}: `{value}` is not a number"))?;
        Tolerance::new(kind, bound).map_err(|why| format!("--tolerance {s}: {why}"))
    }

    /// A tolerance whose bound makes sense for its kind.
    pub fn new(kind: ToleranceKind, bound: f64) -> Result<Tolerance, String> {
        if !bound.is_finite() || bound < 0.0 {
            return Err(format!("the bound {bound} is not a finite non-negative number"));
        }
        if kind == ToleranceKind::Ulp && bound.fract() != 0.0 {
            return Err(format!("an ulp bound is a whole number of ulps, not {bound}"));
        }
        Ok(Tolerance { kind, bound })
    }
}

impl fmt::Display for Tolerance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ToleranceKind::Ulp => write!(f, "{}:{}", self.kind.name(), self.bound),
            _ => write!(f, "{}:{:e}", self.kind.name(), self.bound),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_forms_parse() {
        assert_eq!(Tolerance::parse("ulp:2").unwrap(), Tolerance { kind: ToleranceKind::Ulp, bound: 2.0 });
        assert_eq!(Tolerance::parse("rel:1.5e-3").unwrap().bound, 1.5e-3);
        assert_eq!(Tolerance::parse("abs:1e-6").unwrap().kind, ToleranceKind::Absolute);
        assert_eq!(Tolerance::parse("rel:1.5e-3").unwrap().to_string(), "rel:1.5e-3");
        assert_eq!(Tolerance::parse("ulp:2").unwrap().to_string(), "ulp:2");
    }

    #[test]
    fn bad_forms_are_refused_with_the_reason() {
        assert!(Tolerance::parse("ulp").unwrap_err().contains("KIND:BOUND"));
        assert!(Tolerance::parse("ulp:1.5").unwrap_err().contains("whole number"));
        assert!(Tolerance::parse("rel:-1").unwrap_err().contains("non-negative"));
        assert!(Tolerance::parse("near:1").unwrap_err().contains("unknown kind"));
        assert!(Tolerance::parse("rel-to:1").unwrap_err().contains("unknown kind"));
    }
}
