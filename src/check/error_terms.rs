//! The relative part `t` of a value `M * t` in the estimate-bound
//! analysis, as a polynomial in the estimates' error variables with
//! interval coefficients (a Taylor model): each estimate is `exact * (1 +
//! e * v)` with its own variable `v` in [-1, 1], kept as a variable rather
//! than widened into an interval, so that a Newton step's `x0 * (2 - a *
//! x0)` is `(1 + ev)(1 - ev) = 1 - e^2 v^2` (the error squared, as it is)
//! and not the interval `[(1 - e)^2, (1 + e)^2]` (twice the error).
//!
//! Everything that is not a product or a sum of such terms (roundings,
//! quotients by a value with error terms, roots) goes into the constant
//! coefficient's interval: it then holds every value the dropped terms
//! can take, so the polynomial still encloses the real value for every
//! choice of the variables. Monomials above `MAX_DEGREE` are dropped the
//! same way.

use super::estimate_bound::Iv;
use std::collections::BTreeMap;

/// Monomials of higher degree are bounded into the constant term (the
/// variables being at most an estimate's error, e^5 is below 2^-55).
const MAX_DEGREE: usize = 4;

/// A monomial: its variables in order, a variable repeated k times being
/// its k-th power; the empty monomial is the constant term.
type Monomial = Vec<u32>;

/// `sum c_m * m(v)` over variables in [-1, 1], with interval coefficients.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Poly {
    terms: BTreeMap<Monomial, Iv>,
}

/// The values `m(v)` takes for `v` in [-1, 1]^n: [0, 1] when every power
/// is even, [-1, 1] otherwise.
fn monomial_range(m: &[u32]) -> Iv {
    let mut k = 0;
    while k < m.len() {
        let run = m[k..].iter().take_while(|&&v| v == m[k]).count();
        if run % 2 != 0 {
            return Iv { lo: -1.0, hi: 1.0 };
        }
        k += run;
    }
    Iv { lo: 0.0, hi: 1.0 }
}

impl Poly {
    pub(super) fn constant(c: Iv) -> Poly {
        Poly { terms: BTreeMap::from([(Vec::new(), c)]) }
    }

    /// `1 + e * v` for a new variable `v`: an estimate's relative factor.
    pub(super) fn band(variable: u32, e: f64) -> Poly {
        Poly { terms: BTreeMap::from([(Vec::new(), Iv::point(1.0)), (vec![variable], Iv::point(e))]) }
    }

    fn constant_term(&self) -> Iv {
        self.terms.get(&Vec::new()).copied().unwrap_or(Iv::point(0.0))
    }

    /// The interval, when no variable is left.
    pub(super) fn as_interval(&self) -> Option<Iv> {
        self.terms.keys().all(|m| m.is_empty()).then(|| self.constant_term())
    }

    /// Every value the polynomial takes (an enclosure).
    pub(super) fn range(&self) -> Iv {
        self.terms.iter().fold(Iv::point(0.0), |acc, (m, c)| acc.add(if m.is_empty() { *c } else { c.mul(monomial_range(m)) }))
    }

    pub(super) fn finite(&self) -> bool {
        self.terms.values().all(|c| c.finite())
    }

    fn add_term(&mut self, m: Monomial, c: Iv) {
        let (m, c) = if m.len() > MAX_DEGREE { (Vec::new(), c.mul(monomial_range(&m))) } else { (m, c) };
        let sum = match self.terms.get(&m) {
            Some(old) => old.add(c),
            None => c,
        };
        self.terms.insert(m, sum);
    }

    pub(super) fn add(&self, o: &Poly) -> Poly {
        let mut out = self.clone();
        for (m, c) in &o.terms {
            out.add_term(m.clone(), *c);
        }
        out
    }

    pub(super) fn neg(&self) -> Poly {
        Poly { terms: self.terms.iter().map(|(m, c)| (m.clone(), c.neg())).collect() }
    }

    pub(super) fn sub(&self, o: &Poly) -> Poly {
        self.add(&o.neg())
    }

    pub(super) fn mul(&self, o: &Poly) -> Poly {
        let mut out = Poly { terms: BTreeMap::new() };
        for (ma, ca) in &self.terms {
            for (mb, cb) in &o.terms {
                let mut m: Monomial = ma.iter().chain(mb).copied().collect();
                m.sort_unstable();
                out.add_term(m, ca.mul(*cb));
            }
        }
        if out.terms.is_empty() {
            out.terms.insert(Vec::new(), Iv::point(0.0));
        }
        out
    }

    /// Each coefficient times the interval `k`.
    fn scaled(&self, k: Iv) -> Poly {
        Poly { terms: self.terms.iter().map(|(m, c)| (m.clone(), c.mul(k))).collect() }
    }

    /// The quotient; a divisor with variables is taken as its range (the
    /// correlation is lost, the enclosure is not). `None` when the divisor
    /// may be zero.
    pub(super) fn div(&self, o: &Poly) -> Option<Poly> {
        let d = o.as_interval().unwrap_or_else(|| o.range());
        Some(self.scaled(Iv::point(1.0).div(d)?))
    }

    pub(super) fn abs(&self) -> Poly {
        let r = self.range();
        if r.lo >= 0.0 {
            self.clone()
        } else if r.hi <= 0.0 {
            self.neg()
        } else {
            Poly::constant(r.abs())
        }
    }

    /// The square root, as an interval (`None` when it may be negative).
    pub(super) fn sqrt(&self) -> Option<Poly> {
        Some(Poly::constant(self.as_interval().unwrap_or_else(|| self.range()).sqrt()?))
    }

    /// The polynomial plus any value in `[-r, r]`.
    pub(super) fn widened(&self, r: f64) -> Poly {
        let mut out = self.clone();
        out.add_term(Vec::new(), Iv { lo: -r, hi: r });
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newton_step_squares_the_error() {
        let e = 1.5 * 2f64.powi(-12);
        let x0 = Poly::band(0, e);
        // a * x0 = 1 + ev; 2 - that = 1 - ev; x0 * (1 - ev) = 1 - e^2 v^2.
        let two = Poly::constant(Iv::point(2.0));
        let x1 = x0.mul(&two.sub(&x0));
        let r = x1.range();
        assert!(r.hi >= 1.0 && r.hi <= 1.0 + 1e-15, "{r:?}");
        assert!(r.lo <= 1.0 - e * e && r.lo >= 1.0 - e * e - 1e-15, "{r:?}");
        // The interval of the same values would be twice the error wide.
        let iv = Iv { lo: 1.0 - e, hi: 1.0 + e };
        assert!(iv.mul(iv).lo < 1.0 - 1.9 * e);
    }

    #[test]
    fn dropped_terms_stay_enclosed() {
        let p = Poly::band(3, 0.5);
        let mut q = p.clone();
        for _ in 0..6 {
            q = q.mul(&p);
        }
        // (1 + v/2)^7 over v in [-1, 1] lies in [2^-7, 1.5^7].
        let r = q.range();
        assert!(r.lo <= 2f64.powi(-7) && r.hi >= 1.5f64.powi(7), "{r:?}");
        assert!(p.div(&Poly::constant(Iv { lo: -1.0, hi: 1.0 })).is_none());
        let w = Poly::band(1, 0.25).widened(0.125).range();
        assert!(w.lo <= 0.625 && w.hi >= 1.375);
    }
}
