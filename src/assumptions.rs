//! The opt-in floating-point assumptions (README, Assumptions) as one small
//! set type shared by the configuration (`--assume`), the e-graph rules
//! (`[assume: ...]`) and the solver encoding, so no layer converts between
//! copies. Each user assumption is a restriction on every floating-point
//! value (an operand or result of a floating-point operation) of the
//! expressions compared, except `associativity`, which is a permission to
//! reassociate. A fifth member, `nan-bits-ignored`, is a rule's declaration,
//! never a user's choice.

use std::fmt;
use std::str::FromStr;

/// One member of an [`Assumptions`] set.
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
    /// Every member, in the order names are printed.
    pub const ALL: [Assumption; 5] =
        [Assumption::PositiveZero, Assumption::Finite, Assumption::Ordered, Assumption::Associativity, Assumption::NanBitsIgnored];

    const fn bit(self) -> u8 {
        match self {
            Assumption::PositiveZero => 1,
            Assumption::Finite => 2,
            Assumption::Ordered => 4,
            Assumption::Associativity => 8,
            Assumption::NanBitsIgnored => 16,
        }
    }

    /// The name users and rule files write.
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
    /// The empty set.
    pub const NONE: Assumptions = Assumptions(0);
    /// Every member, `nan-bits-ignored` included.
    pub const ALL: Assumptions = Assumptions(31);
    /// The four a user may enable (`--assume all`).
    pub const USER: Assumptions = Assumptions(15);

    /// Parses the `--assume` list: comma-separated user assumptions, `all`
    /// enabling the four. `nan-bits-ignored` is a rule's declaration and is
    /// refused here.
    pub fn parse(list: &str) -> Result<Assumptions, String> {
        let mut set = Assumptions::NONE;
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            set = match item {
                "all" => set.union(Assumptions::USER),
                name => match name.parse::<Assumption>() {
                    Ok(a) if a != Assumption::NanBitsIgnored => set.with(a),
                    _ => {
                        return Err(format!("unknown assumption `{name}` (expected positive-zero, finite, ordered, associativity or all)"))
                    }
                },
            };
        }
        Ok(set)
    }

    /// The members' names, in print order (what reports list).
    pub fn names(self) -> Vec<String> {
        self.iter().map(|a| a.name().to_string()).collect()
    }

    /// True when any assumption is enabled.
    pub fn any(self) -> bool {
        !self.is_empty()
    }

    /// True when the set restricts values (`positive-zero`, `finite` or
    /// `ordered`): what the solver must encode and what a model must be
    /// checked against. `associativity` and `nan-bits-ignored` change which
    /// rewrites hold, not which values exist.
    pub fn restricts_values(self) -> bool {
        self.has(Assumption::PositiveZero) || self.has(Assumption::Finite) || self.has(Assumption::Ordered)
    }

    /// The set of the listed members.
    pub fn of(list: &[Assumption]) -> Assumptions {
        Assumptions(list.iter().fold(0, |acc, a| acc | a.bit()))
    }
    /// The set with `a` added.
    pub const fn with(self, a: Assumption) -> Assumptions {
        Assumptions(self.0 | a.bit())
    }
    /// The set with `a` removed.
    pub fn without(self, a: Assumption) -> Assumptions {
        Assumptions(self.0 & !a.bit())
    }
    /// Members of either set.
    pub fn union(self, other: Assumptions) -> Assumptions {
        Assumptions(self.0 | other.0)
    }
    /// Only `a`, if the set has it.
    pub fn without_all_but(self, a: Assumption) -> Assumptions {
        Assumptions(self.0 & a.bit())
    }
    /// True when `a` is a member.
    pub fn has(self, a: Assumption) -> bool {
        self.0 & a.bit() != 0
    }
    /// True when no assumption is enabled.
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
    /// The members, in print order.
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
    /// How many members the set has.
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

    #[test]
    fn the_command_line_list_enables_only_user_assumptions() {
        assert_eq!(Assumptions::parse("all").unwrap(), Assumptions::USER);
        assert_eq!(Assumptions::parse("finite, associativity").unwrap().names(), ["finite", "associativity"]);
        assert_eq!(Assumptions::parse("").unwrap(), Assumptions::NONE);
        assert!(Assumptions::parse("nan-bits-ignored").is_err());
        assert!(Assumptions::parse("none").is_err());
        assert!(!Assumptions::parse("associativity").unwrap().restricts_values());
        assert!(Assumptions::parse("ordered").unwrap().restricts_values());
    }
}
