//! Conditions over x86 reciprocal estimates (RCPPS, RSQRTPS and their
//! scalar and AVX forms), decided with what Intel documents about them
//! instead of the bit-precise solver, which cannot decide a bound over the
//! estimate's encoding (a product of significands against a rounded
//! floating-point product).
//!
//! Proof. Every floating-point value below the condition is written as
//! `M * t`: `M` a product of powers (in halves) of the magnitudes of the
//! path's float inputs, and of their signs, and `t` a real interval. An
//! input `x` is `|x| * [1, 1]` (with its sign when the path leaves it
//! open); RCP of `x` is `x^-1 * [1 - e, 1 + e]` and RSQRT `|x|^-1/2 * [1 -
//! e, 1 + e]`, e = 1.5 * 2^-12, exactly where the documented bound holds
//! (a normal operand whose result is neither tiny nor flushed, which the
//! path's bounds on the inputs must show); products and quotients multiply
//! the `M` and the intervals, sums need one `M`. A rounding of a value
//! whose `M` is 1 rounds the interval's ends (rounding is monotone, so the
//! result lies between them: `fl(r * x)` of an in-bound estimate stays in
//! `[1 - e, 1 + e]`, whose ends are floats); any other rounding widens `t`
//! by `u |t| + eta / M`, the unit roundoff and half the smallest subnormal.
//! A comparison is decided when the intervals of its operands (of the same
//! `M`, or as plain value ranges) do not overlap the wrong way. The
//! interval ends are doubles rounded outwards (error-free transformations
//! say which way), so every step is sound for every input of the path and
//! every conforming CPU.
//!
//! Refutation. When the proof fails, inputs drawn in the path's ranges
//! are tried with this CPU's estimate first (a witness that replay
//! reproduces), then with the smallest and the largest estimate the bound
//! admits (a witness only some conforming CPU gives: unconfirmed). The
//! budgets are counts of trials.

use super::confirm::unconfirmed_under_assumptions;
use super::cpu_estimates::this_cpu;
use super::error_terms::Poly;
use super::sampling::input_word;
use crate::assumptions::{Assumption, Assumptions};
use crate::expr::{evaluate, evaluate_all, Assignment, BinOp, CmpOp, Estimate, Expr, ExprId, ExprPool, FBinOp, FUnOp, FpFormat, Outcomes};
use crate::splitmix::SplitMix;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

/// Inputs tried per estimate choice when looking for a witness.
const WITNESS_TRIALS: u32 = 96;

/// Nodes looked at below one condition; a larger condition is left to the
/// solver.
const NODE_BUDGET: usize = 20_000;

/// What the analysis says about a condition on a path.
pub enum EstimateAnswer {
    /// The condition is false on every input of the path.
    Never,
    /// An input of the path (with a choice of each estimate) on which the
    /// condition holds.
    Witness(Assignment),
    /// Not decided (no estimate below the condition, or a construct the
    /// analysis does not bound).
    Open,
}

/// Decides whether `cond` can hold on `path` when it reads an estimate.
pub fn decide(pool: &ExprPool, path: &[ExprId], cond: ExprId, assumptions: Assumptions, seed: u64) -> EstimateAnswer {
    if !pool.has_estimates() {
        return EstimateAnswer::Open;
    }
    let Some(estimates) = estimates_below(pool, cond) else {
        return EstimateAnswer::Open;
    };
    if estimates.is_empty() {
        return EstimateAnswer::Open;
    }
    let ranges = input_ranges(pool, path);
    if proved_false(pool, &ranges, cond, assumptions) {
        return EstimateAnswer::Never;
    }
    match witness(pool, path, cond, &ranges, &estimates, assumptions, seed) {
        Some(w) => EstimateAnswer::Witness(w),
        None => EstimateAnswer::Open,
    }
}

/// Whether the analysis shows `cond` false on every input of `path` and
/// with every conforming estimate, without looking for a witness (a
/// tighter bound asked of a proved check: `tolerance.rs`).
pub fn never(pool: &ExprPool, path: &[ExprId], cond: ExprId, assumptions: Assumptions) -> bool {
    if !pool.has_estimates() || estimates_below(pool, cond).is_none_or(|e| e.is_empty()) {
        return false;
    }
    proved_false(pool, &input_ranges(pool, path), cond, assumptions)
}

/// The proof: `cond` is false whatever the inputs in `ranges` and the
/// estimates.
fn proved_false(pool: &ExprPool, ranges: &FxHashMap<ExprId, InputRange>, cond: ExprId, assumptions: Assumptions) -> bool {
    // Under associativity a sum stands for every grouping; the bounds here
    // hold for the one built.
    if assumptions.has(Assumption::Associativity) {
        return false;
    }
    // With error variables first, then with plain intervals (each
    // estimate's band as an interval), which some conditions need.
    [false, true].into_iter().any(|intervals_only| {
        let mut a = Analysis { pool, ranges, forms: FxHashMap::default(), variables: 0, intervals_only };
        a.truth(cond) == Some(Tri::False)
    })
}

/// The estimates `cond` reads (`None` past the node budget).
fn estimates_below(pool: &ExprPool, cond: ExprId) -> Option<Vec<(ExprId, Estimate)>> {
    let mut seen = FxHashSet::default();
    let mut stack = vec![cond];
    let mut out = Vec::new();
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        if seen.len() > NODE_BUDGET {
            return None;
        }
        if let Some(est) = pool.estimate_of(e) {
            out.push((e, est));
            stack.push(est.input);
            continue;
        }
        stack.extend(pool.children(e));
    }
    out.sort_by_key(|e| e.1.fresh);
    Some(out)
}

// ---------------------------------------------------------------------------
// Input ranges from the path.

/// What the path says about one float input: its value and magnitude lie
/// in closed intervals, and whether an ordered comparison excludes NaN.
#[derive(Copy, Clone, Debug)]
struct InputRange {
    format: FpFormat,
    lo: f64,
    hi: f64,
    abs_lo: f64,
    abs_hi: f64,
    ordered: bool,
}

impl InputRange {
    fn new(format: FpFormat) -> Self {
        InputRange { format, lo: f64::NEG_INFINITY, hi: f64::INFINITY, abs_lo: 0.0, abs_hi: f64::INFINITY, ordered: false }
    }

    /// The magnitude interval both constraints allow.
    fn magnitude(&self) -> (f64, f64) {
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
    fn sign(&self) -> Option<f64> {
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
    fn normal(&self) -> bool {
        let (lo, hi) = self.magnitude();
        self.ordered && lo >= min_normal(self.format) && hi <= max_finite(self.format)
    }
}

/// Reads the ranges of float inputs from the path's conjuncts.
fn input_ranges(pool: &ExprPool, path: &[ExprId]) -> FxHashMap<ExprId, InputRange> {
    let mut out = FxHashMap::default();
    for &c in path {
        facts(pool, c, true, &mut out, 0);
    }
    out
}

/// The one-bit value `e` is, when it is a zero-extended boolean.
fn boolean(pool: &ExprPool, e: ExprId) -> Option<ExprId> {
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
fn facts(pool: &ExprPool, e: ExprId, holds: bool, out: &mut FxHashMap<ExprId, InputRange>, depth: u32) {
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

// ---------------------------------------------------------------------------
// Formats.

fn abs_mask(f: FpFormat) -> u128 {
    (1u128 << (f.width() - 1)) - 1
}

fn sign_mask(f: FpFormat) -> u128 {
    1u128 << (f.width() - 1)
}

fn to_f64(f: FpFormat, bits: u128) -> f64 {
    match f {
        FpFormat::Single => f32::from_bits(bits as u32) as f64,
        FpFormat::Double => f64::from_bits(bits as u64),
        FpFormat::Half => f64::NAN,
    }
}

fn min_normal(f: FpFormat) -> f64 {
    match f {
        FpFormat::Single => f32::MIN_POSITIVE as f64,
        FpFormat::Double => f64::MIN_POSITIVE,
        FpFormat::Half => f64::INFINITY,
    }
}

fn max_finite(f: FpFormat) -> f64 {
    match f {
        FpFormat::Single => f32::MAX as f64,
        FpFormat::Double => f64::MAX,
        FpFormat::Half => 0.0,
    }
}

/// The unit roundoff: a rounding to nearest of a normal result is off by
/// at most this much, relatively.
fn unit_roundoff(f: FpFormat) -> f64 {
    match f {
        FpFormat::Single => 2f64.powi(-24),
        FpFormat::Double => 2f64.powi(-53),
        FpFormat::Half => f64::INFINITY,
    }
}

/// At least half the smallest subnormal: the absolute error of a rounding
/// to nearest in the subnormal range.
fn subnormal_error(f: FpFormat) -> f64 {
    match f {
        FpFormat::Single => 2f64.powi(-150),
        // 2^-1075 is not a double; the smallest subnormal bounds it.
        FpFormat::Double => f64::from_bits(1),
        FpFormat::Half => f64::INFINITY,
    }
}

/// `v` rounded to nearest (even) in `f`; monotone in `v`.
fn round_to(f: FpFormat, v: f64) -> f64 {
    match f {
        FpFormat::Single => v as f32 as f64,
        _ => v,
    }
}

// ---------------------------------------------------------------------------
// Intervals of reals with double ends, rounded outwards.

#[derive(Copy, Clone, Debug, PartialEq)]
pub(super) struct Iv {
    pub(super) lo: f64,
    pub(super) hi: f64,
}

/// Below 2^-900 the error terms below may themselves underflow; results
/// there are widened by an ulp whatever the error term says.
const TINY: f64 = 1e-270;

fn widen(v: f64, err: f64) -> (f64, f64) {
    if !v.is_finite() {
        return (f64::NEG_INFINITY.min(v), f64::INFINITY.max(v));
    }
    if v.abs() < TINY {
        (v.next_down(), v.next_up())
    } else if err > 0.0 {
        (v, v.next_up())
    } else if err < 0.0 {
        (v.next_down(), v)
    } else {
        (v, v)
    }
}

fn add_dir(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    if s.abs() < TINY && s != 0.0 {
        return (s.next_down(), s.next_up());
    }
    widen(s, if s.is_finite() { err } else { 0.0 })
}

fn mul_dir(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    if a == 0.0 || b == 0.0 {
        return (0.0, 0.0);
    }
    widen(p, a.mul_add(b, -p))
}

fn div_dir(a: f64, b: f64) -> (f64, f64) {
    let q = a / b;
    if a == 0.0 {
        return (0.0, 0.0);
    }
    // a - q b, exact: its sign times b's says which side the quotient is.
    let r = (-q).mul_add(b, a);
    widen(q, if b > 0.0 { r } else { -r })
}

fn sqrt_dir(a: f64) -> (f64, f64) {
    let s = a.sqrt();
    if a == 0.0 {
        return (0.0, 0.0);
    }
    widen(s, (-s).mul_add(s, a))
}

impl Iv {
    pub(super) fn point(v: f64) -> Iv {
        Iv { lo: v, hi: v }
    }
    pub(super) fn finite(self) -> bool {
        self.lo.is_finite() && self.hi.is_finite() && self.lo <= self.hi
    }
    pub(super) fn add(self, o: Iv) -> Iv {
        Iv { lo: add_dir(self.lo, o.lo).0, hi: add_dir(self.hi, o.hi).1 }
    }
    pub(super) fn neg(self) -> Iv {
        Iv { lo: -self.hi, hi: -self.lo }
    }
    pub(super) fn mul(self, o: Iv) -> Iv {
        let c = [mul_dir(self.lo, o.lo), mul_dir(self.lo, o.hi), mul_dir(self.hi, o.lo), mul_dir(self.hi, o.hi)];
        Iv { lo: c.iter().map(|p| p.0).fold(f64::INFINITY, f64::min), hi: c.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max) }
    }
    pub(super) fn div(self, o: Iv) -> Option<Iv> {
        if o.lo <= 0.0 && o.hi >= 0.0 {
            return None;
        }
        let c = [div_dir(self.lo, o.lo), div_dir(self.lo, o.hi), div_dir(self.hi, o.lo), div_dir(self.hi, o.hi)];
        Some(Iv { lo: c.iter().map(|p| p.0).fold(f64::INFINITY, f64::min), hi: c.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max) })
    }
    pub(super) fn abs(self) -> Iv {
        if self.lo >= 0.0 {
            self
        } else if self.hi <= 0.0 {
            self.neg()
        } else {
            Iv { lo: 0.0, hi: self.hi.max(-self.lo) }
        }
    }
    pub(super) fn sqrt(self) -> Option<Iv> {
        (self.lo >= 0.0).then(|| Iv { lo: sqrt_dir(self.lo).0, hi: sqrt_dir(self.hi).1 })
    }
    pub(super) fn greatest_magnitude(self) -> f64 {
        self.hi.abs().max(self.lo.abs())
    }
}

/// `v` to the power `halves / 2`, as an outward interval, for `v` in
/// `[lo, hi]`, `lo > 0`.
fn power(lo: f64, hi: f64, halves: i32) -> Option<Iv> {
    let base = Iv { lo, hi };
    let mut r = Iv::point(1.0);
    for _ in 0..halves.unsigned_abs() / 2 {
        r = r.mul(base);
    }
    if halves % 2 != 0 {
        r = r.mul(base.sqrt()?);
    }
    if halves < 0 {
        r = Iv::point(1.0).div(r)?;
    }
    Some(r)
}

// ---------------------------------------------------------------------------
// Values as M * t.

/// An exponent (in halves) of an input's magnitude, and whether its sign
/// is a factor.
type Factor = (i32, bool);

#[derive(Clone, Debug, PartialEq)]
struct Form {
    /// Inputs with a non-trivial factor, by node.
    m: BTreeMap<ExprId, Factor>,
    /// The relative part, a polynomial in the estimates' error variables
    /// (error_terms.rs), so that errors that cancel do cancel.
    t: Poly,
    /// An interval holding `t`'s value too, computed by interval
    /// arithmetic alongside: where no error term cancels it can be the
    /// tighter (a rounding with `M` = 1 rounds its ends exactly).
    hull: Iv,
}

impl Form {
    fn constant(t: Iv) -> Form {
        Form { m: BTreeMap::new(), t: Poly::constant(t), hull: t }
    }
    fn new(m: BTreeMap<ExprId, Factor>, t: Poly, hull: Iv) -> Form {
        Form { m, t, hull }
    }
    /// The values `t` takes: both enclosures at once.
    fn span(&self) -> Iv {
        meet(self.t.range(), self.hull)
    }
    /// Whether `M` is a constant magnitude (powers zero; a sign may remain).
    fn magnitude_one(&self) -> bool {
        self.m.values().all(|&(h, _)| h == 0)
    }
    fn signs_free(&self) -> bool {
        self.m.values().all(|&(_, s)| !s)
    }
}

/// The relations `x ? y` can have for values in the two intervals (bits
/// of `Outcomes`), the ends compared exactly.
fn relations(x: Iv, y: Iv) -> u8 {
    let mut out = 0;
    if x.lo < y.hi {
        out |= Outcomes::LT;
    }
    if x.hi > y.lo {
        out |= Outcomes::GT;
    }
    if x.lo <= y.hi && y.lo <= x.hi {
        out |= Outcomes::EQ;
    }
    out
}

/// The intersection of two intervals holding the same value.
fn meet(a: Iv, b: Iv) -> Iv {
    let (lo, hi) = (a.lo.max(b.lo), a.hi.min(b.hi));
    if lo <= hi {
        Iv { lo, hi }
    } else {
        a
    }
}

fn combine(a: &BTreeMap<ExprId, Factor>, b: &BTreeMap<ExprId, Factor>, sign: i32) -> BTreeMap<ExprId, Factor> {
    let mut m = a.clone();
    for (&k, &(h, s)) in b {
        let e = m.entry(k).or_insert((0, false));
        e.0 += sign * h;
        e.1 ^= s;
    }
    m.retain(|_, f| *f != (0, false));
    m
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Tri {
    True,
    False,
    Either,
}

impl Tri {
    fn not(self) -> Tri {
        match self {
            Tri::True => Tri::False,
            Tri::False => Tri::True,
            Tri::Either => Tri::Either,
        }
    }
    fn of(b: bool) -> Tri {
        if b {
            Tri::True
        } else {
            Tri::False
        }
    }
}

struct Analysis<'a> {
    pool: &'a ExprPool,
    ranges: &'a FxHashMap<ExprId, InputRange>,
    forms: FxHashMap<(ExprId, FpFormat), Option<Form>>,
    /// Error variables handed out (one per estimate node).
    variables: u32,
    /// Estimates as intervals, without error variables.
    intervals_only: bool,
}

impl Analysis<'_> {
    /// The truth of a one-bit (or zero-extended one-bit) condition.
    fn truth(&mut self, e: ExprId) -> Option<Tri> {
        let pool = self.pool;
        if let Some(k) = pool.as_const(e) {
            return (pool.width(e) == 1).then_some(Tri::of(k != 0));
        }
        let node = pool.get(e).into_owned();
        match node {
            Expr::ZExt(a, _) if pool.width(a) == 1 => self.truth(a),
            Expr::Not(a) if pool.width(a) == 1 => Some(self.truth(a)?.not()),
            Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) if pool.width(e) == 1 => {
                // One absorbing side decides, whatever the other is.
                let absorbing = if op == BinOp::And { Tri::False } else { Tri::True };
                let x = self.truth(a);
                if x == Some(absorbing) {
                    return x;
                }
                let y = self.truth(b);
                if y == Some(absorbing) {
                    return y;
                }
                let (x, y) = (x?, y?);
                Some(if x == y { x } else { Tri::Either })
            }
            Expr::Bin(BinOp::Xor, a, b) if pool.width(e) == 1 => match (self.truth(a)?, self.truth(b)?) {
                (Tri::Either, _) | (_, Tri::Either) => Some(Tri::Either),
                (x, y) => Some(Tri::of(x != y)),
            },
            Expr::Ite(c, t, f) if pool.width(e) == 1 => match self.truth(c)? {
                Tri::True => self.truth(t),
                Tri::False => self.truth(f),
                Tri::Either => {
                    let (x, y) = (self.truth(t)?, self.truth(f)?);
                    Some(if x == y { x } else { Tri::Either })
                }
            },
            Expr::Cmp(CmpOp::Eq, a, b) => {
                let (v, k) = match (pool.as_const(a), pool.as_const(b)) {
                    (None, Some(k)) => (a, k),
                    (Some(k), None) => (b, k),
                    _ => return None,
                };
                // A finite value never has the bits of an infinity or a NaN.
                if let Some(f) = FpFormat::from_width(pool.width(v)).filter(|&f| f != FpFormat::Half) {
                    let infinity = abs_mask(f) & !((1u128 << (f.significand_bits() - 1)) - 1);
                    if k & abs_mask(f) >= infinity {
                        return self.form(v, f).map(|_| Tri::False);
                    }
                }
                let bit = boolean(pool, v)?;
                let t = self.truth(bit)?;
                match k {
                    0 => Some(t.not()),
                    1 => Some(t),
                    _ => Some(Tri::False),
                }
            }
            Expr::FCmp(outcomes, f, a, b) => {
                let (x, y) = (self.form(a, f)?, self.form(b, f)?);
                let possible = self.outcomes(&x, &y)?;
                Some(if (possible & !outcomes.0) == 0 {
                    Tri::True
                } else if (possible & outcomes.0) == 0 {
                    Tri::False
                } else {
                    Tri::Either
                })
            }
            _ => None,
        }
    }

    /// The relations `a ? b` can have (bits of `Outcomes`; never unordered,
    /// both being finite).
    fn outcomes(&self, a: &Form, b: &Form) -> Option<u8> {
        // Each enclosure admits a set of relations; the true one is in
        // both, so only relations both admit remain.
        if a.m == b.m && a.signs_free() {
            // With one M, compare the relative parts: their intervals end
            // to end (exact comparisons of the ends), and the difference
            // of their polynomials, whose shared error terms cancel.
            let by_ends = relations(a.hull, b.hull);
            let t = a.t.sub(&b.t).range();
            Some(by_ends & relations(t, Iv::point(0.0)))
        } else {
            Some(relations(self.values(a)?, self.values(b)?))
        }
    }

    /// The range of `M` (positive) of a form.
    fn magnitude_range(&self, m: &BTreeMap<ExprId, Factor>) -> Option<Iv> {
        let mut r = Iv::point(1.0);
        for (k, &(h, _)) in m {
            if h == 0 {
                continue;
            }
            let (lo, hi) = self.ranges.get(k)?.magnitude();
            r = r.mul(power(lo, hi, h)?);
        }
        (r.finite() && r.lo > 0.0).then_some(r)
    }

    /// The values a form takes, as one interval.
    fn values(&self, a: &Form) -> Option<Iv> {
        let m = self.magnitude_range(&a.m)?;
        let v = if a.signs_free() {
            m.mul(a.span())
        } else {
            let big = m.mul(Iv::point(a.span().greatest_magnitude())).hi;
            Iv { lo: -big, hi: big }
        };
        v.finite().then_some(v)
    }

    /// The form of `e` read as a float of format `f`.
    fn form(&mut self, e: ExprId, f: FpFormat) -> Option<Form> {
        if let Some(done) = self.forms.get(&(e, f)) {
            return done.clone();
        }
        if self.forms.len() > NODE_BUDGET {
            return None;
        }
        let r = self.form_of(e, f).filter(|x| x.t.finite() && x.hull.finite());
        self.forms.insert((e, f), r.clone());
        r
    }

    fn form_of(&mut self, e: ExprId, f: FpFormat) -> Option<Form> {
        let pool = self.pool;
        if pool.width(e) != f.width() || f == FpFormat::Half {
            return None;
        }
        if let Some(k) = pool.as_const(e) {
            let v = to_f64(f, k);
            return v.is_finite().then(|| Form::constant(Iv::point(v)));
        }
        if let Some(est) = pool.estimate_of(e) {
            return (f == FpFormat::Single).then(|| self.estimate(est)).flatten();
        }
        if let Some(r) = self.ranges.get(&e) {
            if r.format != f || !r.normal() {
                return None;
            }
            return Some(match r.sign() {
                Some(s) => Form::new(BTreeMap::from([(e, (2, false))]), Poly::constant(Iv::point(s)), Iv::point(s)),
                None => Form::new(BTreeMap::from([(e, (2, true))]), Poly::constant(Iv::point(1.0)), Iv::point(1.0)),
            });
        }
        let node = pool.get(e).into_owned();
        match node {
            Expr::Bin(BinOp::And, a, m) | Expr::Bin(BinOp::And, m, a) if pool.as_const(m) == Some(abs_mask(f)) => {
                let x = self.form(a, f)?;
                let m = x.m.into_iter().map(|(k, (h, _))| (k, (h, false))).filter(|&(_, fac)| fac != (0, false)).collect();
                Some(Form::new(m, x.t.abs(), x.hull.abs()))
            }
            Expr::Bin(BinOp::Xor, a, m) | Expr::Bin(BinOp::Xor, m, a) if pool.as_const(m) == Some(sign_mask(f)) => {
                let x = self.form(a, f)?;
                Some(Form::new(x.m, x.t.neg(), x.hull.neg()))
            }
            Expr::FpConvert { from, to, value } if to == f => {
                let x = self.form(value, from)?;
                if from.width() <= to.width() {
                    Some(x)
                } else {
                    self.round(to, x)
                }
            }
            Expr::FBin(op, g, a, b) if g == f => {
                let (x, y) = (self.form(a, f)?, self.form(b, f)?);
                let exact = match op {
                    FBinOp::Mul => Form::new(combine(&x.m, &y.m, 1), x.t.mul(&y.t), x.hull.mul(y.hull)),
                    FBinOp::Div => Form::new(combine(&x.m, &y.m, -1), x.t.div(&y.t)?, x.hull.div(y.hull)?),
                    FBinOp::Add | FBinOp::Sub if x.m == y.m => {
                        let (t, h) = if op == FBinOp::Add { (y.t, y.hull) } else { (y.t.neg(), y.hull.neg()) };
                        Form::new(x.m, x.t.add(&t), x.hull.add(h))
                    }
                    _ => return None,
                };
                self.round(f, exact)
            }
            Expr::Fma(g, a, b, c) if g == f => {
                let (x, y, z) = (self.form(a, f)?, self.form(b, f)?, self.form(c, f)?);
                let m = combine(&x.m, &y.m, 1);
                if m != z.m {
                    return None;
                }
                let t = x.t.mul(&y.t).add(&z.t);
                let hull = x.hull.mul(y.hull).add(z.hull);
                self.round(f, Form::new(m, t, hull))
            }
            Expr::FUn(FUnOp::Sqrt, g, a) if g == f => {
                let x = self.form(a, f)?;
                if !x.signs_free() || x.m.values().any(|&(h, _)| h % 2 != 0) {
                    return None;
                }
                let m = x.m.iter().map(|(&k, &(h, _))| (k, (h / 2, false))).collect();
                let t = x.t.sqrt()?;
                let hull = x.hull.sqrt()?;
                self.round(f, Form::new(m, t, hull))
            }
            // A select whose condition the ranges decide (the special
            // cases of FRECPS/FRSQRTS: NaN, infinity times zero).
            Expr::Ite(c, yes, no) if pool.width(c) == 1 => match self.truth(c)? {
                Tri::True => self.form(yes, f),
                Tri::False => self.form(no, f),
                Tri::Either => None,
            },
            _ => None,
        }
    }

    /// An estimate of an operand: the exact value times `[1 - e, 1 + e]`,
    /// where the operand's range shows the documented bound applies.
    fn estimate(&mut self, est: Estimate) -> Option<Form> {
        let x = self.form(est.input, FpFormat::Single)?;
        let magnitudes = self.magnitude_range(&x.m)?.mul(x.span().abs());
        let (lo, hi) = (magnitudes.lo, magnitudes.hi);
        let e = est.kind.relative_error();
        let band_hull = Iv { lo: 1.0 - e, hi: 1.0 + e };
        let band = if self.intervals_only { Poly::constant(band_hull) } else { Poly::band(self.variables, e) };
        self.variables += 1;
        match est.kind.is_root() {
            false => {
                // Normal, and below the magnitudes whose reciprocal may be
                // flushed (simd/float_ops.rs): there the result, the choice
                // or the rounded reciprocal, is within the bound.
                let no_flush = f32::from_bits(0x7e7f_e800) as f64;
                if lo < min_normal(FpFormat::Single) || hi > no_flush {
                    return None;
                }
                Some(Form::new(combine(&BTreeMap::new(), &x.m, -1), band.div(&x.t)?, band_hull.div(x.hull)?))
            }
            true => {
                let positive = x.signs_free() && x.span().lo > 0.0;
                if lo < min_normal(FpFormat::Single) || hi > max_finite(FpFormat::Single) || !positive {
                    return None;
                }
                if x.m.values().any(|&(h, _)| h % 2 != 0) {
                    return None;
                }
                let m = x.m.iter().map(|(&k, &(h, _))| (k, (-h / 2, false))).collect();
                Some(Form::new(m, band.div(&x.t.sqrt()?)?, band_hull.div(x.hull.sqrt()?)?))
            }
        }
    }

    /// The rounding of an exact value to `f`.
    fn round(&self, f: FpFormat, x: Form) -> Option<Form> {
        let limit = max_finite(f);
        let span = x.span();
        if x.magnitude_one() {
            // Rounding to nearest is monotone and odd: the ends of what
            // the value may be bound it.
            let hull = Iv { lo: round_to(f, span.lo), hi: round_to(f, span.hi) };
            if !(hull.lo.abs() <= limit && hull.hi.abs() <= limit) {
                return None;
            }
            let t = match x.t.as_interval() {
                Some(_) => Poly::constant(hull),
                // With error terms: |fl(v) - v| <= u |v| + eta.
                None => x.t.widened(add_dir(mul_dir(span.greatest_magnitude(), unit_roundoff(f)).1, subnormal_error(f)).1),
            };
            return Some(Form::new(x.m, t, hull));
        }
        let m = self.magnitude_range(&x.m)?;
        let u = unit_roundoff(f);
        let greatest = span.greatest_magnitude();
        let largest = m.mul(Iv::point(greatest)).hi;
        let top = mul_dir(largest, 1.0 + u).1;
        if top.is_nan() || top >= limit {
            return None;
        }
        let eta = div_dir(subnormal_error(f), m.lo).1;
        let spread = |v: f64| mul_dir(v.abs(), u).1;
        let lo = add_dir(add_dir(span.lo, -spread(span.lo)).0, -eta).0;
        let hi = add_dir(add_dir(span.hi, spread(span.hi)).1, eta).1;
        let hull = Iv { lo, hi };
        let t = match x.t.as_interval() {
            Some(_) => Poly::constant(hull),
            None => x.t.widened(add_dir(spread(greatest), eta).1),
        };
        Some(Form::new(x.m, t, hull))
    }
}

// ---------------------------------------------------------------------------
// Witnesses.

/// Inputs in the path's ranges on which `cond` holds, with each estimate
/// chosen as this CPU would first, then at the ends the bound admits.
fn witness(
    pool: &ExprPool,
    path: &[ExprId],
    cond: ExprId,
    ranges: &FxHashMap<ExprId, InputRange>,
    estimates: &[(ExprId, Estimate)],
    assumptions: Assumptions,
    seed: u64,
) -> Option<Assignment> {
    let mut inputs: Vec<(ExprId, (u32, u32), InputRange)> = Vec::new();
    for (&node, r) in ranges {
        if let Some(slot) = input_word(pool, node, r.format.width() / 8) {
            inputs.push((node, slot, *r));
        }
    }
    inputs.sort_by_key(|i| i.1);
    let mut leaves = FxHashSet::default();
    let mut roots = vec![cond];
    roots.extend_from_slice(path);
    for r in &roots {
        pool.leaves_of(*r, &mut leaves);
    }
    let mut sizes: FxHashMap<u32, usize> = FxHashMap::default();
    for leaf in &leaves {
        if let crate::expr::Leaf::Input { array, index } = *leaf {
            let s = sizes.entry(array).or_insert(0);
            *s = (*s).max(index as usize + 1);
        }
    }
    for choice in [Choice::ThisCpu, Choice::Largest, Choice::Smallest, Choice::Fallback] {
        if choice == Choice::ThisCpu && !cfg!(target_arch = "x86_64") {
            continue;
        }
        let mut rng = SplitMix(seed ^ 0x5eed_e571_u64 ^ cond.index() as u64);
        for trial in 0..WITNESS_TRIALS {
            let mut w = Assignment::default();
            for (array, size) in &sizes {
                w.arrays.insert(*array, vec![0; *size]);
            }
            for (_, (array, offset), r) in &inputs {
                let v = draw(r, trial, &mut rng);
                let bytes = w.arrays.get_mut(array)?;
                for k in 0..(r.format.width() / 8) as usize {
                    if let Some(b) = bytes.get_mut(*offset as usize + k) {
                        *b = (v >> (8 * k)) as u8;
                    }
                }
            }
            for (lane, est) in estimates {
                // An AArch64 estimate is the model's own table.
                let Some(fresh) = est.fresh else { continue };
                let x = evaluate(pool, est.input, &w) as u32;
                // No choice leaves the fresh value 0, never admitted: the
                // lane takes its fallback.
                let r = choose(pool, *lane, est, x, choice, &mut w).unwrap_or(0);
                w.fresh.insert(fresh, r as u128);
            }
            let values = evaluate_all(pool, &roots, &w);
            if values[&cond] == 0 || path.iter().any(|c| values[c] == 0) {
                continue;
            }
            if unconfirmed_under_assumptions(pool, assumptions, &roots, &w).is_none() {
                return Some(w);
            }
        }
    }
    None
}

/// A value in the range: the ends of its magnitudes and their inner
/// neighbours first, then drawn evenly among the floats between them (so
/// every binade gets its share), of either sign the range allows.
fn draw(r: &InputRange, trial: u32, rng: &mut SplitMix) -> u128 {
    let f = r.format;
    let (lo, hi) = r.magnitude();
    let hi = hi.min(max_finite(f));
    let bits = |v: f64| -> u128 {
        match f {
            FpFormat::Single => (v as f32).to_bits() as u128,
            _ => v.to_bits() as u128,
        }
    };
    let (a, b) = (bits(lo), bits(hi));
    if b < a {
        return 0;
    }
    let magnitude = match trial {
        0 => a,
        1 => b,
        2 => (a + 1).min(b),
        3 => (b - 1).max(a),
        _ => a + (rng.next_u64() as u128 * 0x1_0000_0001) % (b - a + 1),
    };
    let negative = match r.sign() {
        Some(s) => s < 0.0,
        None if trial < 4 => r.hi <= 0.0,
        None => rng.next_u64() % 2 == 1 && r.lo < 0.0,
    };
    if negative {
        magnitude | sign_mask(f)
    } else {
        magnitude
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Choice {
    ThisCpu,
    Largest,
    Smallest,
    /// The rounded exact value, or where the reciprocal may be tiny, the
    /// flushed zero.
    Fallback,
}

/// The estimate of `x` to try: this CPU's, or the largest or smallest in
/// magnitude that the model admits (the lane then takes it). `None`
/// leaves the lane to its fallback.
fn choose(pool: &ExprPool, lane: ExprId, est: &Estimate, x: u32, choice: Choice, w: &mut Assignment) -> Option<u32> {
    let fresh = est.fresh?;
    let admitted = |r: u32, w: &mut Assignment| {
        w.fresh.insert(fresh, r as u128);
        evaluate(pool, lane, w) as u32 == r
    };
    let rsqrt = est.kind.is_root();
    match choice {
        Choice::ThisCpu => return this_cpu(rsqrt, x),
        Choice::Fallback => return None,
        _ => {}
    }
    let xv = f32::from_bits(x) as f64;
    let exact = if rsqrt { 1.0 / xv.sqrt() } else { 1.0 / xv };
    if !exact.is_finite() || exact == 0.0 {
        return None;
    }
    let e = est.kind.relative_error();
    let target = if choice == Choice::Largest { exact.abs() * (1.0 + e) } else { exact.abs() * (1.0 - e) };
    let sign = if exact < 0.0 { 0x8000_0000 } else { 0 };
    let mut m = (target as f32).to_bits();
    // Step inwards until admitted, then outwards while still admitted.
    let inward: i64 = if choice == Choice::Largest { -1 } else { 1 };
    for _ in 0..64 {
        if admitted(sign | m, w) {
            break;
        }
        m = (m as i64 + inward) as u32;
    }
    if !admitted(sign | m, w) {
        return None;
    }
    for _ in 0..64 {
        let next = (m as i64 - inward) as u32;
        if !admitted(sign | next, w) {
            break;
        }
        m = next;
    }
    Some(sign | m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::EstimateKind;

    #[test]
    fn directed_operations_enclose_the_exact_result() {
        assert_eq!(mul_dir(2.0, 3.0), (6.0, 6.0));
        let (lo, hi) = mul_dir(0.1, 3.0);
        assert!(lo < hi && hi == lo.next_up() && (lo..=hi).contains(&(0.1 * 3.0)));
        let (lo, hi) = div_dir(1.0, 3.0);
        assert!(lo < hi && hi == lo.next_up());
        assert_eq!(div_dir(1.0, 4.0), (0.25, 0.25));
        assert_eq!(add_dir(1.0, 2f64.powi(-60)), (1.0, 1f64.next_up()));
        assert_eq!(add_dir(1.0, -(2f64.powi(-60))), (1f64.next_down(), 1.0));
        assert_eq!(sqrt_dir(4.0), (2.0, 2.0));
        let (lo, hi) = sqrt_dir(2.0);
        assert!(lo < hi && lo * lo < 2.0 && hi * hi > 2.0);
    }

    /// `fabsf(x * r - 1) > bound` for `x` in [lo, hi] and `r` the
    /// reciprocal estimate of `x` (the lane standing for itself).
    fn rcp_condition(bound: f32, lo: f32, hi: f32, rsqrt: bool) -> EstimateAnswer {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 4);
        let x = p.input_word(arr, 0, 32);
        let f = FpFormat::Single;
        let c = |p: &mut ExprPool, v: f32| p.constant(32, v.to_bits() as u128);
        let (lo, hi) = (c(&mut p, lo), c(&mut p, hi));
        let above = p.fcmp(Outcomes(Outcomes::GT | Outcomes::EQ), f, x, lo);
        let below = p.fcmp(Outcomes(Outcomes::LT | Outcomes::EQ), f, x, hi);
        let path = vec![above, below];
        let r = p.approximation(32);
        let Expr::Fresh { id, .. } = *p.get(r) else { unreachable!() };
        let kind = if rsqrt { EstimateKind::ReciprocalSqrt } else { EstimateKind::Reciprocal };
        p.note_estimate(r, Estimate { kind, input: x, fresh: Some(id) });
        let one = c(&mut p, 1.0);
        let product = if rsqrt { p.fbin(FBinOp::Mul, f, r, r) } else { r };
        let product = p.fbin(FBinOp::Mul, f, x, product);
        let off = p.fbin(FBinOp::Sub, f, product, one);
        let mask = p.constant(32, 0x7fff_ffff);
        let magnitude = p.and(off, mask);
        let limit = c(&mut p, bound);
        let cond = p.fcmp(Outcomes(Outcomes::GT), f, magnitude, limit);
        decide(&p, &path, cond, Assumptions::default(), 0)
    }

    #[test]
    fn the_documented_bound_is_proved_and_nothing_tighter() {
        let e = 1.5 * 2f32.powi(-12);
        assert!(matches!(rcp_condition(e, 1.0, 2.0, false), EstimateAnswer::Never));
        assert!(matches!(rcp_condition(e, -1e30, -1e-30, false), EstimateAnswer::Never));
        assert!(matches!(rcp_condition(e, 1e-30, f32::from_bits(0x7e7f_e800), false), EstimateAnswer::Never));
        assert!(!matches!(rcp_condition(1.4 * 2f32.powi(-12), 1.0, 2.0, false), EstimateAnswer::Never));
        // Where the reciprocal may be flushed, or the input be subnormal,
        // the bound does not apply.
        assert!(!matches!(rcp_condition(e, 1.0, 2f32.powi(126), false), EstimateAnswer::Never));
        assert!(!matches!(rcp_condition(e, 0.0, 2.0, false), EstimateAnswer::Never));
        // RSQRT: r * r * x rounds twice in float, so (1 + e)^2 - 1 plus
        // two roundings' worth holds, (1 + e)^2 - 1 alone is not proved.
        let squared = (2.0 * 1.5 + 1.5 * 1.5 * 2f32.powi(-12)) * 2f32.powi(-12);
        assert!(matches!(rcp_condition(squared * (1.0 + 2f32.powi(-10)), 1.0, 1e30, true), EstimateAnswer::Never));
        assert!(!matches!(rcp_condition(squared * 0.99, 1.0, 1e30, true), EstimateAnswer::Never));
        assert!(!matches!(rcp_condition(1.0, -2.0, -1.0, true), EstimateAnswer::Never));
    }
}
