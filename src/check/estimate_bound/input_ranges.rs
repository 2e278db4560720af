//! What the path says about each float input: intervals of value and
//! magnitude, and whether an ordered comparison excludes NaN.

use super::*;

/// What the path says about one float input: its value and magnitude lie
/// in closed intervals, and whether an ordered comparison excludes NaN.
#[derive(Copy, Clone, Debug)]
pub(super) struct InputRange {
    pub(super) format: FpFormat,
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) abs_lo: f64,
    pub(super) abs_hi: f64,
    pub(super) ordered: bool,
}

impl InputRange {
    pub(super) fn new(format: FpFormat) -> Self {
        InputRange { format, lo: f64::NEG_INFINITY, hi: f64::INFINITY, abs_lo: 0.0, abs_hi: f64::INFINITY, ordered: false }
    }

    /// The magnitude interval both constraints allow.
    pub(super) fn magnitude(&self) -> (f64, f64) {
        let (lo, hi) = if self.lo >= 0.0 {
            (self.lo, self.hi)
        } else if self.hi <= 0.0 {
            (-self.hi, -self.lo)
        } else {
            (0.0, self.hi.max(-self.lo))
        };
        (lo.max(self.abs_lo), hi.min(self.abs_hi))
    }

    /// The sign when the path fixes it: `Some(1.0)` or `Some(-1.0)`.
    pub(super) fn sign(&self) -> Option<f64> {
        let (m, _) = self.magnitude();
        if self.lo > 0.0 || (self.lo >= 0.0 && m > 0.0) {
            Some(1.0)
        } else if self.hi < 0.0 || (self.hi <= 0.0 && m > 0.0) {
            Some(-1.0)
        } else {
            None
        }
    }

    /// Whether every value allowed is a normal finite float of the format.
    pub(super) fn normal(&self) -> bool {
        let (lo, hi) = self.magnitude();
        self.ordered && lo >= min_normal(self.format) && hi <= max_finite(self.format)
    }
}

/// Reads the ranges of float inputs from the path's conjuncts.
pub(super) fn input_ranges(pool: &ExprPool, path: &[ExprId]) -> FxHashMap<ExprId, InputRange> {
    let mut out = FxHashMap::default();
    for &c in path {
        facts(pool, c, true, &mut out, 0);
    }
    out
}

/// The one-bit value `e` is, when it is a zero-extended boolean.
pub(super) fn boolean(pool: &ExprPool, e: ExprId) -> Option<ExprId> {
    if pool.width(e) == 1 {
        return Some(e);
    }
    match *pool.get(e) {
        Expr::ZExt(b, _) if pool.width(b) == 1 => Some(b),
        _ => None,
    }
}

/// Adds what `e` being `holds` implies for float inputs (conjunctions
/// only: a disjunction's parts are not facts).
pub(super) fn facts(pool: &ExprPool, e: ExprId, holds: bool, out: &mut FxHashMap<ExprId, InputRange>, depth: u32) {
    if depth > 64 {
        return;
    }
    let node = pool.get(e).into_owned();
    let one = |x: ExprId| pool.as_const(x) == Some(1);
    let zero = |x: ExprId| pool.as_const(x) == Some(0);
    match node {
        Expr::Not(a) => facts(pool, a, !holds, out, depth + 1),
        Expr::ZExt(a, _) if pool.width(a) == 1 => facts(pool, a, holds, out, depth + 1),
        Expr::Bin(BinOp::And, a, b) if pool.width(e) == 1 && holds => {
            facts(pool, a, true, out, depth + 1);
            facts(pool, b, true, out, depth + 1);
        }
        Expr::Bin(BinOp::Or, a, b) if pool.width(e) == 1 && !holds => {
            facts(pool, a, false, out, depth + 1);
            facts(pool, b, false, out, depth + 1);
        }
        Expr::Ite(c, t, f) if pool.width(e) == 1 => {
            if holds && zero(f) {
                facts(pool, c, true, out, depth + 1);
                facts(pool, t, true, out, depth + 1);
            } else if !holds && one(t) {
                facts(pool, c, false, out, depth + 1);
                facts(pool, f, false, out, depth + 1);
            }
        }
        Expr::Cmp(CmpOp::Eq, a, b) => {
            let (v, k) = match (pool.as_const(a), pool.as_const(b)) {
                (None, Some(k)) => (a, k),
                (Some(k), None) => (b, k),
                _ => return,
            };
            if let Some(bit) = boolean(pool, v) {
                match (k, holds) {
                    (0, h) => facts(pool, bit, !h, out, depth + 1),
                    (1, h) => facts(pool, bit, h, out, depth + 1),
                    _ => {}
                }
            }
        }
        Expr::FCmp(outcomes, f, a, b) => {
            let allowed = if holds { outcomes } else { outcomes.complement() };
            let (v, c, allowed) = match (pool.as_const(a), pool.as_const(b)) {
                (None, Some(c)) => (a, c, allowed),
                (Some(c), None) => (b, c, allowed.swapped()),
                _ => return,
            };
            let c = to_f64(f, c);
            if c.is_nan() {
                return;
            }
            let (target, magnitude) = match *pool.get(v) {
                Expr::Bin(BinOp::And, x, m) if pool.as_const(m) == Some(abs_mask(f)) => (x, true),
                Expr::Bin(BinOp::And, m, x) if pool.as_const(m) == Some(abs_mask(f)) => (x, true),
                _ => (v, false),
            };
            let r = out.entry(target).or_insert_with(|| InputRange::new(f));
            if r.format != f {
                return;
            }
            if !allowed.has(Outcomes::UNO) {
                r.ordered = true;
            }
            let (below, equal, above) = (allowed.has(Outcomes::LT), allowed.has(Outcomes::EQ), allowed.has(Outcomes::GT));
            let (lo, hi) = if magnitude { (&mut r.abs_lo, &mut r.abs_hi) } else { (&mut r.lo, &mut r.hi) };
            match (below, equal, above) {
                (true, _, false) => *hi = hi.min(c),
                (false, _, true) => *lo = lo.max(c),
                (false, true, false) => {
                    *lo = lo.max(c);
                    *hi = hi.min(c);
                }
                _ => {}
            }
        }
        _ => {}
    }
}
