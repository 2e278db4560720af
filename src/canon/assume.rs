//! The four opt-in floating-point assumptions (DESIGN.md section 2) as a
//! small set type. Each is a restriction on every floating-point value (an
//! operand or result of a floating-point operation) of the expressions
//! compared, except `associativity`, which is a permission to reassociate.

use std::fmt;
use std::str::FromStr;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Assumption {
    /// No floating-point value is -0.
    PositiveZero,
    /// No floating-point value is +-inf or NaN.
    Finite,
    /// No floating-point value is NaN.
    Ordered,
    /// `+` and `*` may be reassociated.
    Associativity,
    /// Not a user assumption but a rule's declaration: the rule holds with
    /// canonical NaNs (`--nan equal`) and, on the CPU, only up to NaN bits
    /// (e.g. `a + b = b + a` when both are NaN). Such rules are used under
    /// `--nan equal` and never under `--nan exact`.
    NanBitsIgnored,
}

impl Assumption {
    pub const ALL: [Assumption; 5] =
        [Assumption::PositiveZero, Assumption::Finite, Assumption::Ordered, Assumption::Associativity, Assumption::NanBitsIgnored];

    fn bit(self) -> u8 {
        match self {
            Assumption::PositiveZero => 1,
            Assumption::Finite => 2,
            Assumption::Ordered => 4,
            Assumption::Associativity => 8,
            Assumption::NanBitsIgnored => 16,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Assumption::PositiveZero => "positive-zero",
            Assumption::Finite => "finite",
            Assumption::Ordered => "ordered",
            Assumption::Associativity => "associativity",
            Assumption::NanBitsIgnored => "nan-bits-ignored",
        }
    }
}

impl FromStr for Assumption {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Assumption::ALL.into_iter().find(|a| a.name() == s).ok_or_else(|| format!("unknown assumption `{s}`"))
    }
}

/// A set of assumptions.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Assumptions(u8);

impl Assumptions {
    pub const NONE: Assumptions = Assumptions(0);
    pub const ALL: Assumptions = Assumptions(31);

    pub fn of(list: &[Assumption]) -> Assumptions {
        Assumptions(list.iter().fold(0, |acc, a| acc | a.bit()))
    }
    pub fn with(self, a: Assumption) -> Assumptions {
        Assumptions(self.0 | a.bit())
    }
    pub fn without(self, a: Assumption) -> Assumptions {
        Assumptions(self.0 & !a.bit())
    }
    pub fn union(self, other: Assumptions) -> Assumptions {
        Assumptions(self.0 | other.0)
    }
    /// Only `a`, if the set has it.
    pub fn without_all_but(self, a: Assumption) -> Assumptions {
        Assumptions(self.0 & a.bit())
    }
    pub fn has(self, a: Assumption) -> bool {
        self.0 & a.bit() != 0
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// What the set implies: `finite` includes `ordered` (no NaN).
    pub fn closure(self) -> Assumptions {
        if self.has(Assumption::Finite) {
            self.with(Assumption::Ordered)
        } else {
            self
        }
    }
    /// True when every assumption of `needed` holds under `self`.
    pub fn allows(self, needed: Assumptions) -> bool {
        let have = self.closure().0;
        needed.0 & !have == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Assumption> {
        Assumption::ALL.into_iter().filter(move |a| self.has(*a))
    }
    /// All 16 subsets of the user's assumptions (not `nan-bits-ignored`),
    /// smallest first.
    pub fn subsets() -> Vec<Assumptions> {
        let mut v: Vec<Assumptions> = (0..16).map(Assumptions).collect();
        v.sort_by_key(|a| a.0.count_ones());
        v
    }
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
}

impl fmt::Display for Assumptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        let names: Vec<_> = self.iter().map(|a| a.name()).collect();
        f.write_str(&names.join(","))
    }
}

impl FromStr for Assumptions {
    type Err = String;
    /// `none`, `all`, or a comma-separated list of names.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "none" | "" => return Ok(Assumptions::NONE),
            "all" => return Ok(Assumptions::ALL),
            _ => {}
        }
        let mut set = Assumptions::NONE;
        for part in s.split(',') {
            set = set.with(part.trim().parse()?);
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finite_implies_ordered() {
        let fin: Assumptions = "finite".parse().unwrap();
        assert!(fin.allows("ordered".parse().unwrap()));
        assert!(!fin.allows("positive-zero".parse().unwrap()));
        assert!("bogus".parse::<Assumptions>().is_err());
        assert_eq!("ordered, positive-zero".parse::<Assumptions>().unwrap().to_string(), "positive-zero,ordered");
    }
}
