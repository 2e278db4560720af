//! How many arguments a function symcross implements itself takes. Every
//! row of the built-in tables (calls.rs, intrinsics.rs, opencl/builtins.rs)
//! carries one; the call is checked against it once, before any handler
//! runs, so a handler may index the arguments its row promises. A harness
//! that declares a built-in with another parameter list (`float
//! sqrtf(float, float);`) then gets an `unsupported` finding naming the
//! function and both counts, instead of symcross reading arguments that
//! are not there.

/// The argument counts a built-in accepts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Arity {
    /// Exactly this many.
    Exact(usize),
    /// From the first to the second, both included: the optional trailing
    /// arguments the handler reads only when present (a name for
    /// `symcross_make_symbolic`, a second scope for `work_group_barrier`).
    Between(usize, usize),
    /// At least this many: variadic functions (`printf`).
    AtLeast(usize),
}

impl Arity {
    /// Whether a call with `given` arguments fits.
    pub fn admits(self, given: usize) -> bool {
        match self {
            Arity::Exact(n) => given == n,
            Arity::Between(lo, hi) => (lo..=hi).contains(&given),
            Arity::AtLeast(n) => given >= n,
        }
    }

    /// The expected count in words: "1 argument", "2 or 3 arguments", "at
    /// least 1 argument".
    pub fn describe(self) -> String {
        let noun = |n: usize| if n == 1 { "argument" } else { "arguments" };
        match self {
            Arity::Exact(n) => format!("{n} {}", noun(n)),
            Arity::Between(lo, hi) if hi == lo + 1 => format!("{lo} or {hi} {}", noun(hi)),
            Arity::Between(lo, hi) => format!("{lo} to {hi} {}", noun(hi)),
            Arity::AtLeast(n) => format!("at least {n} {}", noun(n)),
        }
    }
}

/// The message of the finding for a call to `shown` with `given`
/// arguments where its row expects `arity`.
pub fn mismatch_message(shown: &str, arity: Arity, given: usize) -> String {
    let noun = if given == 1 { "argument" } else { "arguments" };
    format!("call to `{shown}` with {given} {noun}, but the `{shown}` symcross implements takes {}", arity.describe())
}

#[cfg(test)]
mod tests {
    use super::{mismatch_message, Arity};

    #[test]
    fn counts_admitted() {
        assert!(Arity::Exact(2).admits(2));
        assert!(!Arity::Exact(2).admits(1));
        assert!(!Arity::Exact(2).admits(3));
        assert!(Arity::Between(2, 3).admits(2) && Arity::Between(2, 3).admits(3));
        assert!(!Arity::Between(2, 3).admits(1) && !Arity::Between(2, 3).admits(4));
        assert!(Arity::AtLeast(1).admits(1) && Arity::AtLeast(1).admits(7));
        assert!(!Arity::AtLeast(1).admits(0));
    }

    #[test]
    fn message_names_both_counts() {
        let m = mismatch_message("sqrtf", Arity::Exact(1), 2);
        assert!(m.contains("`sqrtf` with 2 arguments") && m.ends_with("takes 1 argument"), "{m}");
        assert_eq!(Arity::Between(4, 5).describe(), "4 or 5 arguments");
        assert_eq!(Arity::AtLeast(1).describe(), "at least 1 argument");
    }
}
