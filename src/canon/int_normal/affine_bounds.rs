//! Bounds of a sum that see through its terms to the inputs they are made
//! of. A sum's interval is otherwise the sum of its terms' intervals, as if
//! each term varied on its own; in a transform the same input reaches the
//! result along several terms (`x` and the high half of `x * 20091`,
//! PMULHW's spelling of `x * 85627 >> 16`), and adding their intervals
//! apart overstates the range by a bit or more. That bit decides whether a
//! 32-bit C sum meets its 16-bit SIMD twin.
//!
//! Each term is read as an affine form over base values (inputs, products,
//! selects: what is not a sum, an extension or a field of one), with
//! rational coefficients of a power-of-two denominator and an interval of
//! error: a field `bits s..` of a sum is its value over 2^s rounded down,
//! so it is the sum's form scaled by 2^-s, minus less than one. A form is
//! only used for a node when its whole interval fits the node's width in
//! the reading asked for, so that it is that reading's exact integer value
//! (no wrap). The interval of a form is exact for independent base values
//! and an over-approximation otherwise, so it is always sound.

use super::{IntNormalizer, Linear};
use crate::expr::{to_signed, Expr, ExprId, ExprPool, Width};
use crate::ranges::{Interval, Range};
use std::rc::Rc;

/// How deep a form is followed into the terms of terms; below, a node is a
/// base value (its own interval: still sound).
const AFFINE_DEPTH: u32 = 12;

/// Base values a form may hold; a form with more is not made (the node is
/// then a base value itself).
const MAX_BASES: usize = 256;

/// `value * 2^shift` lies in `sum(coefficient * base) + error`, each base
/// a node read signed or unsigned.
#[derive(Clone, Debug)]
pub(super) struct Affine {
    shift: Width,
    terms: Vec<((ExprId, bool), i128)>,
    error: (i128, i128),
}

impl Affine {
    fn constant(v: i128) -> Affine {
        Affine { shift: 0, terms: Vec::new(), error: (v, v) }
    }

    fn base(node: ExprId, signed: bool) -> Affine {
        Affine { shift: 0, terms: vec![((node, signed), 1)], error: (0, 0) }
    }

    /// The same form with denominator 2^shift (shift >= self.shift).
    fn at_shift(&self, shift: Width) -> Option<Affine> {
        let by = shift - self.shift;
        if by >= 64 {
            return None;
        }
        let k = 1i128 << by;
        let terms = self.terms.iter().map(|&(b, c)| c.checked_mul(k).map(|c| (b, c))).collect::<Option<Vec<_>>>()?;
        Some(Affine { shift, terms, error: (self.error.0.checked_mul(k)?, self.error.1.checked_mul(k)?) })
    }

    /// `self + k * other`.
    fn plus_scaled(&self, other: &Affine, k: i128) -> Option<Affine> {
        let shift = self.shift.max(other.shift);
        let (a, b) = (self.at_shift(shift)?, other.at_shift(shift)?);
        let mut terms: Vec<((ExprId, bool), i128)> = a.terms;
        for &(base, c) in &b.terms {
            let c = c.checked_mul(k)?;
            match terms.iter_mut().find(|(x, _)| *x == base) {
                Some((_, acc)) => *acc = acc.checked_add(c)?,
                None => terms.push((base, c)),
            }
        }
        terms.retain(|&(_, c)| c != 0);
        if terms.len() > MAX_BASES {
            return None;
        }
        let (lo, hi) = (b.error.0.checked_mul(k)?, b.error.1.checked_mul(k)?);
        let (lo, hi) = (lo.min(hi), lo.max(hi));
        Some(Affine { shift, terms, error: (a.error.0.checked_add(lo)?, a.error.1.checked_add(hi)?) })
    }

    /// `floor(self / 2^s)`: the form over 2^s, minus less than one.
    fn floor_shifted(&self, s: Width) -> Option<Affine> {
        if s >= 64 || self.shift + s > 96 {
            return None;
        }
        let below = ((1i128 << s) - 1).checked_mul(1i128 << self.shift)?;
        Some(Affine { shift: self.shift + s, terms: self.terms.clone(), error: (self.error.0.checked_sub(below)?, self.error.1) })
    }
}

impl IntNormalizer {
    /// The exact integer interval of `l` read through its terms' forms,
    /// each term read as `readings` says (signed or not), or None when a
    /// form cannot be made or a bound overflows.
    pub(super) fn affine_interval(&mut self, pool: &ExprPool, l: &Linear, readings: &[bool]) -> Option<Interval> {
        let form = self.affine_of_linear(pool, l, readings, 0)?;
        self.interval_of(pool, &form)
    }

    fn affine_of_linear(&mut self, pool: &ExprPool, l: &Linear, readings: &[bool], depth: u32) -> Option<Affine> {
        let mut acc = Affine::constant(to_signed(l.constant, l.width));
        for (&(t, c), &signed) in l.terms.iter().zip(readings) {
            let term = match self.affine_of(pool, t, signed, depth) {
                Some(f) => f,
                None => Affine::base(t, signed),
            };
            acc = acc.plus_scaled(&term, to_signed(c, l.width))?;
        }
        Some(acc)
    }

    /// The form of `t` read signed (or not), when one is known exactly.
    fn affine_of(&mut self, pool: &ExprPool, t: ExprId, signed: bool, depth: u32) -> Option<Affine> {
        if let Some(f) = self.affine.get(&(t, signed)) {
            return f.as_ref().map(|f| (**f).clone());
        }
        let f = self.affine_of_uncached(pool, t, signed, depth);
        self.affine.insert((t, signed), f.clone().map(Rc::new));
        f
    }

    fn affine_of_uncached(&mut self, pool: &ExprPool, t: ExprId, signed: bool, depth: u32) -> Option<Affine> {
        let w = pool.width(t);
        if !Range::tracked(w) || depth >= AFFINE_DEPTH {
            return None;
        }
        if let Some(c) = pool.as_const(t) {
            return Some(Affine::constant(if signed { to_signed(c, w) } else { c as i128 }));
        }
        let d = depth + 1;
        let form = match *pool.get(t) {
            // The signed reading of a sign extension is the operand's; either
            // reading of a zero extension is the operand's unsigned one.
            Expr::SExt(x, _) if signed => self.affine_or_base(pool, x, true, d),
            Expr::ZExt(x, _) => self.affine_or_base(pool, x, false, d),
            // Bits s.. of a sum are its value over 2^s, rounded down; the
            // form is kept only where the field holds it whole (checked
            // below against the field's width).
            Expr::Extract { value, offset, .. } => {
                let whole = self.affine_or_base(pool, value, signed || offset > 0, d)?;
                if offset == 0 {
                    Some(whole)
                } else {
                    whole.floor_shifted(offset)
                }
            }
            _ => match self.linear_of.get(&t).cloned() {
                Some(l) if l.terms.len() > 1 || l.constant != 0 || l.terms.iter().any(|&(_, c)| c != 1) => {
                    let readings: Vec<bool> = l.terms.iter().map(|&(x, _)| self.ranges.range(pool, x).tightest().1).collect();
                    self.affine_of_linear(pool, &l, &readings, d)
                }
                _ => return None,
            },
        };
        let form = form?;
        // The form is the node's value only where it cannot wrap in the
        // node's width, read as asked (an operand's form was checked so in
        // its own width).
        let bounds = self.interval_of(pool, &form)?;
        let full = if signed { Interval::signed_full(w) } else { Interval::unsigned_full(w) };
        bounds.within(full).then_some(form)
    }

    fn affine_or_base(&mut self, pool: &ExprPool, x: ExprId, signed: bool, depth: u32) -> Option<Affine> {
        match self.affine_of(pool, x, signed, depth) {
            Some(f) => Some(f),
            None => {
                let r = self.ranges.range(pool, x);
                // A base read in a way its range does not bound gives no form.
                (Range::tracked(pool.width(x)) && (signed || r.unsigned.unsigned_bits().is_some())).then(|| Affine::base(x, signed))
            }
        }
    }

    /// The integer interval of a form's value, each base in its own range.
    fn interval_of(&mut self, pool: &ExprPool, f: &Affine) -> Option<Interval> {
        let (mut lo, mut hi) = f.error;
        for &((b, signed), c) in &f.terms {
            let r = self.ranges.range(pool, b);
            let i = if signed { r.signed } else { r.unsigned };
            let (x, y) = (i.lo.checked_mul(c)?, i.hi.checked_mul(c)?);
            lo = lo.checked_add(x.min(y))?;
            hi = hi.checked_add(x.max(y))?;
        }
        let unit = 1i128 << f.shift;
        Some(Interval::new(lo.div_euclid(unit) + (lo.rem_euclid(unit) != 0) as i128, hi.div_euclid(unit)))
    }
}
