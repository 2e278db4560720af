//! The integer normal form: the integer twin of `reassociate.rs`, with no
//! assumption needed, since integer `+`, `-` and `*` modulo 2^n are
//! associative and commutative bit for bit.
//!
//! - Sums: every chain of `+`, `-`, negation, `~x` (= -x - 1) and scaling
//!   by a constant becomes one linear form `c1*t1 + ... + k` whose terms
//!   are sorted and merged and whose constants are folded; a shift left by
//!   a constant is a scaling.
//! - Products: a chain of `*` becomes one sorted list of factors, its
//!   constant factors moved into the linear form around it.
//! - Extensions are pushed down to the leaves when the range facts
//!   (`crate::ranges`) show no wrap: `sext32(a + b)` is
//!   `sext32(a) + sext32(b)` when the narrow sum cannot overflow, the same
//!   for products; a sign extension of a value that is never negative is
//!   a zero extension; extensions of extensions merge.
//! - Truncations are pushed down always (the low bits of a sum are the
//!   sum of the low bits) and cancel extensions.
//! - High bits (`>>` by a constant) of a value whose range fits fewer bits
//!   are read from those bits only, so a 64-bit and a 32-bit accumulator
//!   of the same bounded sum meet.
//! - Comparisons the ranges decide fold (a saturating 16-bit subtract of
//!   two bytes never clamps); others are made on the fewest bits that
//!   hold both operands, unsigned when neither can be negative.
//! - `abs`, `min` and `max`, however written, get one shape.
//!
//! Every step is an identity of modular arithmetic, or one that holds
//! under the range facts given (those of the input widths, which always
//! hold, and those of the path when built `for_path`): the normal form
//! equals the expression bit for bit on every input the facts allow.
//! `tests/int_normal.rs` checks each rule with the solver and by random
//! evaluation.

mod affine_bounds;

use super::clamp_spelling::{clamp_by_comparisons, clamp_lower_test_outside};
use crate::expr::{mask, to_signed, BinOp, CmpOp, Expr, ExprId, ExprPool, Width};
use crate::ranges::{decided_comparison, path_facts, Interval, Range, RangeAnalysis};
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

/// Terms a linear form (or factors a product) may hold; a longer one is
/// kept as a term of its own (sound, only less canonical), so the cost of
/// a serial sum stays bounded.
const MAX_TERMS: usize = 1024;

/// Longest sum whose interval is also read through its terms' affine
/// forms (affine_bounds.rs); a longer one keeps the sum of its terms'
/// intervals (sound, only wider), so the cost per sum stays bounded.
const AFFINE_TERMS: usize = 64;

/// Deepest recursion of pushing an extension or a truncation down (past
/// it the operation is kept as a node: still exact).
const PUSH_DEPTH: u32 = 48;

/// Most operands an n-ary minimum or maximum gathers; a longer one is kept
/// as an operand of its own (sound, only less canonical), so the chain
/// rebuilt at each step stays bounded.
const MAX_SELECTED: usize = 256;

/// A linear form `sum(coefficient * term) + constant` modulo 2^width;
/// terms sorted by id, coefficients nonzero.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Linear {
    width: Width,
    terms: Vec<(ExprId, u128)>,
    constant: u128,
}

impl Linear {
    fn constant(width: Width, c: u128) -> Linear {
        Linear { width, terms: Vec::new(), constant: c & mask(width) }
    }

    fn atom(width: Width, e: ExprId) -> Linear {
        Linear { width, terms: vec![(e, 1)], constant: 0 }
    }

    fn as_constant(&self) -> Option<u128> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// The single term of coefficient 1 this form is, if it is one.
    fn as_atom(&self) -> Option<ExprId> {
        match self.terms[..] {
            [(t, 1)] if self.constant == 0 => Some(t),
            _ => None,
        }
    }

    /// `self + k * other`.
    fn plus_scaled(&self, other: &Linear, k: u128) -> Linear {
        let m = mask(self.width);
        let mut terms: Vec<(ExprId, u128)> = Vec::with_capacity(self.terms.len() + other.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() || j < other.terms.len() {
            let take_left = j >= other.terms.len() || (i < self.terms.len() && self.terms[i].0 < other.terms[j].0);
            let take_right = i >= self.terms.len() || (j < other.terms.len() && other.terms[j].0 < self.terms[i].0);
            let (t, c) = if take_left {
                i += 1;
                self.terms[i - 1]
            } else if take_right {
                j += 1;
                (other.terms[j - 1].0, other.terms[j - 1].1.wrapping_mul(k) & m)
            } else {
                let c = self.terms[i].1.wrapping_add(other.terms[j].1.wrapping_mul(k)) & m;
                let t = self.terms[i].0;
                i += 1;
                j += 1;
                (t, c)
            };
            if c != 0 {
                terms.push((t, c));
            }
        }
        Linear { width: self.width, terms, constant: self.constant.wrapping_add(other.constant.wrapping_mul(k)) & m }
    }

    fn scaled(&self, k: u128) -> Linear {
        Linear::constant(self.width, 0).plus_scaled(self, k)
    }

    /// `-self`.
    fn negated(&self) -> Linear {
        self.scaled(mask(self.width))
    }

    /// The largest `s` (below the width) with every coefficient and the
    /// constant a multiple of 2^s: the form is then 2^s times another.
    fn power_of_two_factor(&self) -> Width {
        let zeros =
            self.terms.iter().map(|&(_, c)| c).chain((self.constant != 0).then_some(self.constant)).map(|c| c.trailing_zeros()).min();
        zeros.unwrap_or(0).min(self.width - 1)
    }

    /// The form `r` with `self = 2^s * r` (modulo 2^width), when every
    /// coefficient and the constant are multiples of 2^s.
    fn divided_by_power_of_two(&self, s: Width) -> Linear {
        Linear { width: self.width, terms: self.terms.iter().map(|&(t, c)| (t, c >> s)).collect(), constant: self.constant >> s }
    }
}

/// Rewrites integer expressions into the normal form; keeps its memo
/// across calls, so both sides of a check share the work and meet in the
/// same nodes.
pub struct IntNormalizer {
    ranges: RangeAnalysis,
    normal: FxHashMap<ExprId, Rc<Linear>>,
    /// The linear form of every sum built, so a built sum met again as an
    /// operand flattens into its user.
    linear_of: FxHashMap<ExprId, Rc<Linear>>,
    built: FxHashMap<Rc<Linear>, ExprId>,
    /// The factors of every product built.
    factors_of: FxHashMap<ExprId, Rc<Vec<ExprId>>>,
    extended: FxHashMap<(ExprId, Width, bool), Rc<Linear>>,
    truncated: FxHashMap<(ExprId, Width), Rc<Linear>>,
    /// The affine form of each node read signed or not (affine_bounds.rs).
    affine: FxHashMap<(ExprId, bool), Option<Rc<affine_bounds::Affine>>>,
    /// The operands of every n-ary minimum or maximum built, so that one
    /// met again as an operand flattens into its user.
    min_max_of: FxHashMap<ExprId, (MinMax, Rc<Vec<ExprId>>)>,
    /// Every `abs` built (in its one shape, on the fewest bits).
    abs_built: FxHashSet<ExprId>,
    /// Extensions (tag 0, 1: signed) and truncations (tag 2) being worked
    /// out: one met again inside itself is kept as a node.
    in_progress: FxHashSet<(ExprId, Width, u8)>,
    /// Whether nested rounding shifts are read as one (nested_quotient).
    nested_rounding: bool,
}

/// Which n-ary selection a chain of selects computes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct MinMax {
    max: bool,
    /// Compared signed (operands that may be negative); unsigned when
    /// written unsigned or when no operand can be negative, where both
    /// readings order the values alike.
    signed: bool,
}

impl Default for IntNormalizer {
    fn default() -> Self {
        Self::with_ranges(RangeAnalysis::new())
    }
}

impl IntNormalizer {
    /// A normalizer using the facts of the input widths only: its normal
    /// forms equal their expressions on every input.
    pub fn new() -> Self {
        Self::default()
    }

    /// A normalizer that also uses the range facts of `path`: its normal
    /// forms equal their expressions on every input that takes the path.
    pub fn for_path(pool: &mut ExprPool, path: &[ExprId]) -> Self {
        Self::with_ranges(RangeAnalysis::with_facts(path_facts(pool, path)))
    }

    /// A normalizer reading ranges from `ranges` (built for a path, and
    /// perhaps already asked about some of its expressions).
    pub fn with_ranges(ranges: RangeAnalysis) -> Self {
        IntNormalizer {
            ranges,
            normal: FxHashMap::default(),
            linear_of: FxHashMap::default(),
            built: FxHashMap::default(),
            factors_of: FxHashMap::default(),
            extended: FxHashMap::default(),
            truncated: FxHashMap::default(),
            affine: FxHashMap::default(),
            min_max_of: FxHashMap::default(),
            abs_built: Default::default(),
            in_progress: Default::default(),
            nested_rounding: false,
        }
    }

    /// A normalizer with the same ranges and a fresh memo that also reads
    /// nested rounding shifts as one (`(ROUND_POWER_OF_TWO(u, 14) + 1) >> 2`
    /// as `(u + 2^13 + 2^14) >> 16`). Exact, but asked only where the sides
    /// did not meet without it: it respells a rounded field wherever one is
    /// shifted again, and a pair written alike on both sides except for the
    /// field's spelling (a lane cut into bytes on one side) met before the
    /// respelling and would not after it on one side only.
    pub fn with_nested_rounding(self) -> Self {
        let mut n = Self::with_ranges(self.ranges);
        n.nested_rounding = true;
        n
    }

    /// The range of `e` as this normalizer knows it.
    pub fn range(&mut self, pool: &ExprPool, e: ExprId) -> Range {
        self.ranges.range(pool, e)
    }

    /// The normal form of `root`. Iterative over the nodes of `root`, so
    /// depth is bounded by memory only.
    pub fn normalize(&mut self, pool: &mut ExprPool, root: ExprId) -> ExprId {
        let mut stack = vec![(root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if self.normal.contains_key(&id) {
                continue;
            }
            if !expanded {
                stack.push((id, true));
                stack.extend(pool.children(id).into_iter().filter(|c| !self.normal.contains_key(c)).map(|c| (c, false)));
                continue;
            }
            let n = self.normal_of(pool, id);
            let n = self.at_minimal_width(pool, n);
            self.normal.insert(id, n);
        }
        let n = self.normal[&root].clone();
        self.build(pool, &n)
    }

    /// A word or bit field (a concatenation, an extract) whose range fits
    /// fewer bits, as the extension of those bits: an input word bounded
    /// to 12 bits is the same term whether it was read as a word or cut.
    fn at_minimal_width(&mut self, pool: &mut ExprPool, n: Rc<Linear>) -> Rc<Linear> {
        let Some(t) = n.as_atom() else { return n };
        if !matches!(*pool.get(t), Expr::Concat(..) | Expr::Extract { .. }) {
            return n;
        }
        match self.minimal(pool, t) {
            Some((m, signed)) => {
                let low = self.trunc_atom(pool, t, m, 0);
                self.extend(pool, &low, n.width, signed, 0)
            }
            None => n,
        }
    }

    fn lin(&self, pool: &ExprPool, id: ExprId) -> Rc<Linear> {
        match self.normal.get(&id) {
            Some(l) => l.clone(),
            None => self.lin_of_expr(pool, id),
        }
    }

    /// The linear form of a node already in normal form.
    fn lin_of_expr(&self, pool: &ExprPool, e: ExprId) -> Rc<Linear> {
        let w = pool.width(e);
        if let Some(c) = pool.as_const(e) {
            return Rc::new(Linear::constant(w, c));
        }
        match self.linear_of.get(&e) {
            Some(l) => l.clone(),
            None => Rc::new(Linear::atom(w, e)),
        }
    }

    fn normal_of(&mut self, pool: &mut ExprPool, id: ExprId) -> Rc<Linear> {
        let w = pool.width(id);
        let node = pool.get(id).into_owned();
        let linear = (2..=128).contains(&w);
        match node {
            Expr::Const { value, .. } => Rc::new(Linear::constant(w, value)),
            Expr::Bin(BinOp::Add, a, b) if linear => self.sum(pool, a, b, 1),
            Expr::Bin(BinOp::Sub, a, b) if linear => self.sum(pool, a, b, mask(w)),
            Expr::Bin(BinOp::Mul, a, b) if linear => {
                let (la, lb) = (self.lin(pool, a), self.lin(pool, b));
                self.product(pool, &la, &lb)
            }
            Expr::Bin(BinOp::And, a, b) if linear => {
                let low_mask = pool.as_const(b).filter(|m| m & m.wrapping_add(1) == 0 && *m != 0);
                match (low_mask, pool.as_const(b).and_then(bit_run)) {
                    (Some(m), _) => {
                        // x & (2^j - 1) is the zero extension of x's low j bits.
                        let j = 128 - m.leading_zeros();
                        let la = self.lin(pool, a);
                        let low = self.trunc(pool, &la, j, 0);
                        self.extend(pool, &low, w, false, 0)
                    }
                    (None, Some((j, n))) => {
                        // x & (bits j .. j+n) is that field of x, extended
                        // and scaled back into place: a mask keeping the
                        // high byte of a lane is a shift of that byte.
                        let la = self.lin(pool, a);
                        let field = self.high_bits(pool, &la, j, n);
                        let wide = self.extend(pool, &field, w, false, 0);
                        Rc::new(wide.scaled(1u128 << j))
                    }
                    (None, None) => self.rebuilt(pool, id),
                }
            }
            Expr::Bin(op @ (BinOp::UDiv | BinOp::SDiv), a, b) if linear => {
                // A division by 2^k (k >= 1) is the field of bits k.. of
                // the dividend, zero-extended: always when unsigned, and
                // signed when the divisor is positive and the dividend is
                // never negative (C's `(int64_t)sum * sum / 16` against
                // SIMD code's shift of the square).
                let la = self.lin(pool, a);
                let k = pool.as_const(b).filter(|c| c.is_power_of_two() && *c > 1).map(|c| c.trailing_zeros());
                let shift = match k {
                    Some(k) if op == BinOp::UDiv && k < w => Some(k),
                    Some(k) if k + 1 < w && Range::tracked(w) && self.range_of(pool, &la).non_negative() => Some(k),
                    _ => None,
                };
                match shift {
                    Some(k) => {
                        let field = self.high_bits(pool, &la, k, w - k);
                        self.extend(pool, &field, w, false, 0)
                    }
                    None => self.rebuilt(pool, id),
                }
            }
            Expr::Bin(BinOp::Or, a, b) if linear => match self.absolute_difference(pool, a, b) {
                Some(l) => l,
                None => self.rebuilt(pool, id),
            },
            Expr::Not(a) if linear => {
                let la = self.lin(pool, a);
                Rc::new(Linear::constant(w, mask(w)).plus_scaled(&la, mask(w)))
            }
            Expr::ZExt(a, _) => {
                let la = self.lin(pool, a);
                self.extend(pool, &la, w, false, 0)
            }
            Expr::SExt(a, _) => {
                let la = self.lin(pool, a);
                self.extend(pool, &la, w, true, 0)
            }
            Expr::Extract { value, offset: 0, width } => {
                let lv = self.lin(pool, value);
                self.trunc(pool, &lv, width, 0)
            }
            Expr::Extract { value, offset, width } => {
                let lv = self.lin(pool, value);
                self.high_bits(pool, &lv, offset, width)
            }
            Expr::Cmp(op, a, b) => {
                let (la, lb) = (self.lin(pool, a), self.lin(pool, b));
                self.compare(pool, op, &la, &lb)
            }
            Expr::Ite(c, t, e) => {
                if let Some(respelt) = clamp_by_comparisons(pool, c, t, e).or_else(|| clamp_lower_test_outside(pool, c, t, e)) {
                    self.normalize(pool, respelt);
                    return self.normal[&respelt].clone();
                }
                let lc = self.lin(pool, c);
                let c = self.build(pool, &lc);
                let (lt, le) = (self.lin(pool, t), self.lin(pool, e));
                self.select(pool, c, &lt, &le)
            }
            Expr::Concat(h, l) if linear && pool.as_const(l) == Some(0) => {
                let lh = self.lin(pool, h);
                let shift = pool.width(l);
                self.shifted_left(pool, &lh, shift)
            }
            Expr::Concat(h, l) if linear => match self.rejoined_field(pool, h, l).or_else(|| self.extension_on_top(pool, h, l)) {
                Some(x) => x,
                None => self.rebuilt(pool, id),
            },
            _ => self.rebuilt(pool, id),
        }
    }

    /// `id` with its children in normal form.
    fn rebuilt(&mut self, pool: &mut ExprPool, id: ExprId) -> Rc<Linear> {
        let kids: Vec<ExprId> = pool
            .children(id)
            .into_iter()
            .map(|k| {
                let l = self.lin(pool, k);
                self.build(pool, &l)
            })
            .collect();
        let e = pool.rebuild(id, &kids);
        self.lin_of_expr(pool, e)
    }

    fn sum(&mut self, pool: &mut ExprPool, a: ExprId, b: ExprId, k: u128) -> Rc<Linear> {
        let (la, lb) = (self.lin(pool, a), self.lin(pool, b));
        let (la, lb) = (self.bounded(pool, la), self.bounded(pool, lb));
        Rc::new(la.plus_scaled(&lb, k))
    }

    /// A form short enough to be merged into another; a longer one
    /// becomes a term of its own.
    fn bounded(&mut self, pool: &mut ExprPool, l: Rc<Linear>) -> Rc<Linear> {
        if l.terms.len() < MAX_TERMS {
            return l;
        }
        let e = self.build(pool, &l);
        Rc::new(Linear::atom(l.width, e))
    }

    /// `a * b`: a constant scales the other side; otherwise the factors
    /// (each side's constant factor pulled out) are merged and sorted.
    fn product(&mut self, pool: &mut ExprPool, a: &Linear, b: &Linear) -> Rc<Linear> {
        if let Some(c) = a.as_constant() {
            return Rc::new(b.scaled(c));
        }
        if let Some(c) = b.as_constant() {
            return Rc::new(a.scaled(c));
        }
        let (ca, fa) = self.factors(pool, a);
        let (cb, fb) = self.factors(pool, b);
        let mut factors: Vec<ExprId> = fa.iter().chain(fb.iter()).copied().collect();
        factors.sort();
        let e = self.build_product(pool, factors);
        Rc::new(Linear::atom(a.width, e).scaled(ca.wrapping_mul(cb)))
    }

    /// A form as `coefficient * factors`.
    fn factors(&mut self, pool: &mut ExprPool, l: &Linear) -> (u128, Rc<Vec<ExprId>>) {
        let (c, e) = match l.terms[..] {
            [(t, c)] if l.constant == 0 => (c, t),
            _ => (1, self.build(pool, &Rc::new(l.clone()))),
        };
        match self.factors_of.get(&e) {
            Some(f) if f.len() < MAX_TERMS => (c, f.clone()),
            _ => (c, Rc::new(vec![e])),
        }
    }

    fn build_product(&mut self, pool: &mut ExprPool, factors: Vec<ExprId>) -> ExprId {
        let e = factors.iter().copied().reduce(|acc, f| pool.mul(acc, f)).expect("a product has factors");
        if factors.len() > 1 {
            self.factors_of.entry(e).or_insert_with(|| Rc::new(factors));
        }
        e
    }

    /// The expression of a linear form: its terms in order, then the
    /// constant.
    fn build(&mut self, pool: &mut ExprPool, l: &Rc<Linear>) -> ExprId {
        if let Some(c) = l.as_constant() {
            return pool.constant(l.width, c);
        }
        if let Some(t) = l.as_atom() {
            return t;
        }
        if let Some(e) = self.built.get(l) {
            return *e;
        }
        let w = l.width;
        let minus_one = mask(w);
        let mut acc: Option<ExprId> = None;
        for &(t, c) in &l.terms {
            acc = Some(match (acc, c) {
                (None, 1) => t,
                (None, c) if c == minus_one => {
                    let zero = pool.constant(w, 0);
                    pool.sub(zero, t)
                }
                (Some(a), c) if c == minus_one => pool.sub(a, t),
                (a, c) => {
                    let k = pool.constant(w, c);
                    let term = pool.mul(t, k);
                    match a {
                        Some(a) => pool.add(a, term),
                        None => term,
                    }
                }
            });
        }
        let mut e = acc.expect("a form with terms");
        if l.constant != 0 {
            let k = pool.constant(w, l.constant);
            e = pool.add(e, k);
        }
        self.built.insert(l.clone(), e);
        self.linear_of.entry(e).or_insert_with(|| l.clone());
        e
    }

    /// The exact integer interval of a form's value, read with each term's
    /// tightest reading (signed coefficients and constant), and which
    /// reading each term used. None when a bound overflows.
    fn exact(&mut self, pool: &ExprPool, l: &Linear) -> Option<(Interval, Vec<bool>)> {
        if l.width > crate::ranges::TRACKED_WIDTH {
            return None;
        }
        let mut total = Interval::point(to_signed(l.constant, l.width));
        let mut readings = Vec::with_capacity(l.terms.len());
        for &(t, c) in &l.terms {
            let (i, signed) = self.ranges.range(pool, t).tightest();
            total = total.plus(i.scale(to_signed(c, l.width))?)?;
            readings.push(signed);
        }
        // The terms' intervals added apart overstate a sum whose terms
        // share inputs: read through them where that is cheap.
        if l.terms.len() > 1 && l.terms.len() <= AFFINE_TERMS {
            if let Some(tight) = self.affine_interval(pool, l, &readings).and_then(|a| a.meet(total)) {
                total = tight;
            }
        }
        Some((total, readings))
    }

    /// The range of a form: its exact interval for a sum (a long built
    /// chain would be ranged through every partial sum), the analysis's
    /// for a term.
    fn range_of(&mut self, pool: &mut ExprPool, l: &Rc<Linear>) -> Range {
        if let Some(t) = l.as_atom() {
            return self.ranges.range(pool, t);
        }
        let e = self.build(pool, l);
        let mut r = self.ranges.range(pool, e);
        if let Some((exact, _)) = self.exact(pool, l) {
            r.narrow_by_exact(exact);
        }
        r
    }

    /// `ext_w(l)`: pushed into the terms when the form cannot wrap in its
    /// own width.
    fn extend(&mut self, pool: &mut ExprPool, l: &Linear, w: Width, signed: bool, depth: u32) -> Rc<Linear> {
        let v = l.width;
        if w == v {
            return Rc::new(l.clone());
        }
        if let Some(c) = l.as_constant() {
            let c = if signed { to_signed(c, v) as u128 } else { c };
            return Rc::new(Linear::constant(w, c));
        }
        if let Some(t) = l.as_atom() {
            return self.extend_atom(pool, t, w, signed, depth);
        }
        if depth < PUSH_DEPTH {
            if let Some((exact, readings)) = self.exact(pool, l) {
                let fits_signed = exact.within(Interval::signed_full(v));
                let fits_unsigned = exact.within(Interval::unsigned_full(v));
                // A value that is never negative extends the same both ways.
                let pushed = if signed { fits_signed } else { fits_unsigned || (fits_signed && exact.lo >= 0) };
                if pushed {
                    let mut out = Linear::constant(w, to_signed(l.constant, v) as u128);
                    for (&(t, c), reading) in l.terms.iter().zip(readings) {
                        let et = self.extend_atom(pool, t, w, reading, depth + 1);
                        out = out.plus_scaled(&et, to_signed(c, v) as u128);
                    }
                    return Rc::new(out);
                }
            }
            // 2^s * r in v bits is r's low v - s bits followed by s zeros
            // (a left shift), so either extension of it is 2^s times the
            // same extension of those bits: `(int16_t)(x << 8)` widened
            // is 256 * sext(x's low byte).
            let s = l.power_of_two_factor();
            if s >= 1 && w > v {
                let reduced = l.divided_by_power_of_two(s);
                let low = self.trunc(pool, &reduced, v - s, depth + 1);
                let wide = self.extend(pool, &low, w, signed, depth + 1);
                return Rc::new(wide.scaled(1u128 << s));
            }
        }
        let e = self.build(pool, &Rc::new(l.clone()));
        let x = if signed && self.ranges.range(pool, e).non_negative() {
            pool.zext(e, w)
        } else if signed {
            pool.sext(e, w)
        } else {
            pool.zext(e, w)
        };
        Rc::new(Linear::atom(w, x))
    }

    fn extend_atom(&mut self, pool: &mut ExprPool, t: ExprId, w: Width, signed: bool, depth: u32) -> Rc<Linear> {
        let v = pool.width(t);
        if w == v {
            return self.lin_of_expr(pool, t);
        }
        // A sign extension of a value that is never negative is its zero
        // extension: one shape for both.
        let signed = signed && !self.ranges.range(pool, t).non_negative();
        if let Some(r) = self.extended.get(&(t, w, signed)) {
            return r.clone();
        }
        // Met again while being worked out (pushing an extension into a
        // select whose sides are then cut to a minimum's width can come
        // back here): kept as a node, still exact.
        if !self.in_progress.insert((t, w, if signed { 1 } else { 0 })) {
            let x = if signed { pool.sext(t, w) } else { pool.zext(t, w) };
            return Rc::new(Linear::atom(w, x));
        }
        let r = self.extend_atom_uncached(pool, t, w, signed, depth);
        self.in_progress.remove(&(t, w, if signed { 1 } else { 0 }));
        self.extended.insert((t, w, signed), r.clone());
        r
    }

    fn extend_atom_uncached(&mut self, pool: &mut ExprPool, t: ExprId, w: Width, signed: bool, depth: u32) -> Rc<Linear> {
        let plain = |pool: &mut ExprPool| {
            let x = if signed { pool.sext(t, w) } else { pool.zext(t, w) };
            Rc::new(Linear::atom(w, x))
        };
        if depth >= PUSH_DEPTH {
            return plain(pool);
        }
        let d = depth + 1;
        // A condition widened is one shape, `zext(c)`, scaled: a sign
        // extension is its negation (PCMPEQW's -1 where C's `==` gives
        // 1), and `zext(!c)` is `1 - zext(c)` (C's `a != 0` against
        // `1 + (a == 0 ? -1 : 0)`).
        if pool.width(t) == 1 {
            if signed {
                let z = self.extend_atom(pool, t, w, false, d);
                return Rc::new(z.negated());
            }
            if let Expr::Not(c) = *pool.get(t) {
                let z = self.extend_atom(pool, c, w, false, d);
                return Rc::new(Linear::constant(w, 1).plus_scaled(&z, mask(w)));
            }
            return plain(pool);
        }
        // An n-ary minimum or maximum, or an abs, stays whole under an
        // extension (it was built on the fewest bits that hold its
        // operands): pushed into its sides it would no longer be seen as
        // one, and an abs widened to 16 bits and one widened to 32 would
        // differ when cut back to their byte.
        if self.min_max_of.contains_key(&t) || self.abs_built.contains(&t) {
            return plain(pool);
        }
        match pool.get(t).into_owned() {
            Expr::ZExt(y, _) => {
                let ly = self.lin_of_expr(pool, y);
                self.extend(pool, &ly, w, false, d)
            }
            Expr::SExt(y, _) if signed => {
                let ly = self.lin_of_expr(pool, y);
                self.extend(pool, &ly, w, true, d)
            }
            Expr::Ite(c, a, b) => {
                let (la, lb) = (self.lin_of_expr(pool, a), self.lin_of_expr(pool, b));
                let (ea, eb) = (self.extend(pool, &la, w, signed, d), self.extend(pool, &lb, w, signed, d));
                self.select(pool, c, &ea, &eb)
            }
            // The low k bits of a value that fits them, extended, are the
            // value itself at the new width.
            Expr::Extract { value, offset: 0, width: k } if self.fits_unsigned(pool, value, if signed { k - 1 } else { k }) => {
                let lv = self.lin_of_expr(pool, value);
                if w >= pool.width(value) {
                    self.extend(pool, &lv, w, false, d)
                } else {
                    self.trunc(pool, &lv, w, d)
                }
            }
            // The same for a sum whose value fits the low k bits read
            // signed, sign-extended: a byte difference cut to 9 bits and
            // widened is that difference at the new width, so the square
            // of a residual widened from its 9 bits (where a 64-bit
            // accumulator reaches it) and the square of the 32-bit
            // difference (where a 32-bit one does) meet. Only for a sum:
            // its terms are other atoms, so pushing does not come back here.
            Expr::Extract { value, offset: 0, width: k }
                if signed && self.linear_of.contains_key(&value) && self.fits_signed(pool, value, k) =>
            {
                let lv = self.lin_of_expr(pool, value);
                if w >= pool.width(value) {
                    self.extend(pool, &lv, w, true, d)
                } else {
                    self.trunc(pool, &lv, w, d)
                }
            }
            Expr::Bin(BinOp::Mul, ..) => {
                let Some(factors) = self.factors_of.get(&t).cloned() else { return plain(pool) };
                let v = pool.width(t);
                if !Range::tracked(v) {
                    return plain(pool);
                }
                let target = if signed { Interval::signed_full(v) } else { Interval::unsigned_full(v) };
                let mut exact = Some(Interval::point(1));
                let mut readings = Vec::with_capacity(factors.len());
                for &f in factors.iter() {
                    let (i, s) = self.ranges.range(pool, f).tightest();
                    exact = exact.and_then(|e| e.times(i));
                    readings.push(s);
                }
                match exact {
                    Some(e) if e.within(target) => {
                        let mut acc: Option<Rc<Linear>> = None;
                        for (&f, s) in factors.iter().zip(readings) {
                            let ef = self.extend_atom(pool, f, w, s, d);
                            acc = Some(match acc {
                                None => ef,
                                Some(a) => self.product(pool, &a, &ef),
                            });
                        }
                        acc.expect("a product has factors")
                    }
                    _ => plain(pool),
                }
            }
            _ => match self.minimal(pool, t) {
                Some((m, fits_signed)) if fits_signed == signed || !fits_signed => {
                    let low = self.trunc_atom(pool, t, m, d);
                    self.extend(pool, &low, w, fits_signed, d)
                }
                _ => plain(pool),
            },
        }
    }

    /// The fewest bits that hold every value of `t`, and whether they are
    /// read signed, when fewer than its width: `t` is then the extension of
    /// its low bits, and is written so wherever it is extended or cut, so
    /// that a value cut to 12 bits in one side and to 15 in the other
    /// meets.
    fn minimal(&mut self, pool: &ExprPool, t: ExprId) -> Option<(Width, bool)> {
        let w = pool.width(t);
        if !Range::tracked(w) || w <= 1 {
            return None;
        }
        let r = self.ranges.range(pool, t);
        let (m, signed) = match r.unsigned.unsigned_bits() {
            Some(m) if r.non_negative() => (m, false),
            _ => (r.signed.signed_bits(), true),
        };
        (m < w).then_some((m, signed))
    }

    /// The low `k` bits of `l`: always pushed into the terms.
    fn trunc(&mut self, pool: &mut ExprPool, l: &Linear, k: Width, depth: u32) -> Rc<Linear> {
        if k >= l.width {
            return Rc::new(l.clone());
        }
        let mut out = Linear::constant(k, l.constant);
        for &(t, c) in &l.terms {
            let tt = self.trunc_atom(pool, t, k, depth);
            out = out.plus_scaled(&tt, c & mask(k));
        }
        Rc::new(out)
    }

    fn trunc_atom(&mut self, pool: &mut ExprPool, t: ExprId, k: Width, depth: u32) -> Rc<Linear> {
        if let Some(r) = self.truncated.get(&(t, k)) {
            return r.clone();
        }
        if !self.in_progress.insert((t, k, 2)) {
            let x = pool.extract(t, 0, k);
            return self.lin_of_expr(pool, x);
        }
        let r = self.trunc_atom_uncached(pool, t, k, depth);
        self.in_progress.remove(&(t, k, 2));
        self.truncated.insert((t, k), r.clone());
        r
    }

    fn trunc_atom_uncached(&mut self, pool: &mut ExprPool, t: ExprId, k: Width, depth: u32) -> Rc<Linear> {
        let plain = |this: &Self, pool: &mut ExprPool| {
            let x = pool.extract(t, 0, k);
            this.lin_of_expr(pool, x)
        };
        if depth >= PUSH_DEPTH {
            return plain(self, pool);
        }
        let d = depth + 1;
        if let Some((m, signed)) = self.minimal(pool, t).filter(|(m, _)| *m < k) {
            let low = self.trunc_atom(pool, t, m, d);
            return self.extend(pool, &low, k, signed, d);
        }
        match pool.get(t).into_owned() {
            Expr::ZExt(y, _) | Expr::SExt(y, _) => {
                let signed = matches!(*pool.get(t), Expr::SExt(..));
                let ly = self.lin_of_expr(pool, y);
                if pool.width(y) >= k {
                    self.trunc(pool, &ly, k, d)
                } else {
                    self.extend(pool, &ly, k, signed, d)
                }
            }
            Expr::Bin(BinOp::Mul, ..) if self.factors_of.contains_key(&t) => {
                let factors = self.factors_of[&t].clone();
                let mut acc: Option<Rc<Linear>> = None;
                for &f in factors.iter() {
                    let lf = self.lin_of_expr(pool, f);
                    let tf = self.trunc(pool, &lf, k, d);
                    acc = Some(match acc {
                        None => tf,
                        Some(a) => self.product(pool, &a, &tf),
                    });
                }
                acc.expect("a product has factors")
            }
            // A select whose value fits the low bits is cut whole, so that
            // widening it again gives the select back (an abs of bytes cut
            // to a byte and widened to a lane).
            Expr::Ite(..) if self.fits_unsigned(pool, t, k) => plain(self, pool),
            // The low bits of an n-ary minimum or maximum are cut whole: cut
            // in its sides, the selection would be rebuilt on the wide
            // operands and cut again (narrow_min_max).
            Expr::Ite(..) if self.min_max_of.contains_key(&t) => plain(self, pool),
            Expr::Ite(c, a, b) => {
                let (la, lb) = (self.lin_of_expr(pool, a), self.lin_of_expr(pool, b));
                let (ta, tb) = (self.trunc(pool, &la, k, d), self.trunc(pool, &lb, k, d));
                self.select(pool, c, &ta, &tb)
            }
            Expr::Bin(op @ (BinOp::And | BinOp::Or | BinOp::Xor), a, b) => {
                let (la, lb) = (self.lin_of_expr(pool, a), self.lin_of_expr(pool, b));
                let (ta, tb) = (self.trunc(pool, &la, k, d), self.trunc(pool, &lb, k, d));
                let (ea, eb) = (self.build(pool, &ta), self.build(pool, &tb));
                let x = pool.bin(op, ea, eb);
                self.lin_of_expr(pool, x)
            }
            Expr::Concat(h, l) => {
                let wl = pool.width(l);
                if k <= wl {
                    let ll = self.lin_of_expr(pool, l);
                    self.trunc(pool, &ll, k, d)
                } else {
                    let lh = self.lin_of_expr(pool, h);
                    let th = self.trunc(pool, &lh, k - wl, d);
                    let eh = self.build(pool, &th);
                    let x = pool.concat(eh, l);
                    self.lin_of_expr(pool, x)
                }
            }
            _ => plain(self, pool),
        }
    }

    /// Bits `offset .. offset + k` (offset > 0) of `l`: when its range
    /// fits fewer bits than its width, only those bits are read, extended.
    fn high_bits(&mut self, pool: &mut ExprPool, l: &Rc<Linear>, offset: Width, k: Width) -> Rc<Linear> {
        let w = l.width;
        // Bit j >= s of 2^s * r is bit j - s of r: the high half of a
        // product of left-shifted values (PMULHW of `x << 8`) is a field
        // of the plain product, as a scalar `(a * b) >> 5` reads it.
        let s = l.power_of_two_factor().min(offset);
        if s >= 1 {
            let reduced = Rc::new(l.divided_by_power_of_two(s));
            return if offset == s { self.trunc(pool, &reduced, k, 0) } else { self.high_bits(pool, &reduced, offset - s, k) };
        }
        if let Some(merged) = self.nested_quotient(pool, l, offset, k) {
            return merged;
        }
        // r + 2^offset * q has bits offset.. equal to those of r plus q
        // (no carry crosses bit offset from 2^offset * q), so a coefficient
        // (or the constant) of magnitude over 2^(offset-1), read signed, is
        // split into its residue modulo 2^offset, read signed, and a
        // multiple of 2^offset: `(x * 85627) >> 16` is the high half of
        // `x * 20091` plus x and `(x * 35468) >> 16` that of `x * -30068`
        // plus x, as SIMD code computes them with PMULHW, and a negated
        // product splits into the negated pieces. Smaller coefficients (a
        // difference's -1, the 8 of `(8 * d + 7) >> 4`) stay whole, so that
        // the range narrowing below still sees the sum in one piece.
        let unit = 1u128 << offset;
        let m = mask(w);
        let half = unit >> 1;
        let residue = |c: u128| {
            let r = c & (unit - 1);
            if r >= unit >> 1 {
                r.wrapping_sub(unit) & m
            } else {
                r
            }
        };
        let large = |c: u128| to_signed(c, w).unsigned_abs() > half;
        if l.terms.iter().any(|&(_, c)| large(c)) || large(l.constant) {
            let kept = |c: u128| if large(c) { residue(c) } else { c };
            let moved = |c: u128| (c.wrapping_sub(kept(c)) & m) >> offset;
            let r = Linear {
                width: w,
                terms: l.terms.iter().filter(|&&(_, c)| kept(c) != 0).map(|&(t, c)| (t, kept(c))).collect(),
                constant: kept(l.constant),
            };
            let q = Linear {
                width: w,
                terms: l.terms.iter().filter(|&&(_, c)| moved(c) != 0).map(|&(t, c)| (t, moved(c))).collect(),
                constant: moved(l.constant),
            };
            let top = self.high_bits(pool, &Rc::new(r), offset, k);
            let q = self.trunc(pool, &q, k, 0);
            return Rc::new(top.plus_scaled(&q, 1));
        }
        let e = self.build(pool, l);
        let r = self.range_of(pool, l);
        let (m, signed) = match r.unsigned.unsigned_bits() {
            Some(m) if Range::tracked(w) && r.non_negative() => (m, false),
            _ if Range::tracked(w) => (r.signed.signed_bits(), true),
            _ => (w, false),
        };
        if m >= w {
            let x = pool.extract(e, offset, k);
            return self.lin_of_expr(pool, x);
        }
        if offset >= m {
            // Only copies of the sign (or zeros) up there.
            if !signed {
                return Rc::new(Linear::constant(k, 0));
            }
            let low = self.trunc(pool, l, m, 0);
            let lm = self.build(pool, &low);
            let sign = pool.extract(lm, m - 1, 1);
            let s = self.lin_of_expr(pool, sign);
            return self.extend(pool, &s, k, true, 0);
        }
        let low = self.trunc(pool, l, m, 0);
        let lm = self.build(pool, &low);
        let taken = k.min(m - offset);
        let x = pool.extract(lm, offset, taken);
        let lx = self.lin_of_expr(pool, x);
        self.extend(pool, &lx, k, signed, 0)
    }

    /// Bits `b .. b + k` of `floor(v / 2^a) + rest`, a value rounded by a
    /// shift and then shifted again (C's
    /// `(ROUND_POWER_OF_TWO(u, 14) + 1) >> 2`), as bits `a + b ..` of
    /// `v + 2^a * rest`: for integers,
    /// floor((floor(v / 2^a) + n) / 2^b) = floor((v + 2^a n) / 2^(a+b)),
    /// the one shift SIMD code makes (`(u + 2^13 + 2^14) >> 16`). Bits
    /// below the width of `l` depend only on `l` modulo 2^width, so `rest`
    /// may be any integer congruent to it (its sign extension), and the
    /// merged sum is built on enough bits to hold `v + 2^a * rest` exactly.
    /// Of several rounded fields with coefficient 1 the outermost (built
    /// last: its operands are built before it) is merged, so that a sum
    /// holding a pass's rounded value and the rounded values of the pass
    /// before reads as one rounding of the whole pass.
    fn nested_quotient(&mut self, pool: &mut ExprPool, l: &Rc<Linear>, b: Width, k: Width) -> Option<Rc<Linear>> {
        let w = l.width;
        if !self.nested_rounding || !Range::tracked(w) || l.terms.len() > AFFINE_TERMS {
            return None;
        }
        let mut outermost: Option<(ExprId, ExprId, ExprId, Width, bool)> = None;
        for &(t, c) in &l.terms {
            if c != 1 {
                continue;
            }
            if let Some((field, v, a, signed)) = self.quotient_field(pool, t) {
                if outermost.is_none_or(|o| field > o.1) {
                    outermost = Some((t, field, v, a, signed));
                }
            }
        }
        let (t, _, v, a, signed) = outermost?;
        // |v| < 2^wv and |2^a * rest| <= 2^(a + w - 1): their sum fits
        // max(wv, a + w) + 2 bits signed, and bits a + b + k <= a + w lie
        // inside.
        let big = pool.width(v).max(w + a) + 2;
        if big > crate::ranges::TRACKED_WIDTH {
            return None;
        }
        let rest = Linear { width: w, terms: l.terms.iter().filter(|&&(x, _)| x != t).copied().collect(), constant: l.constant };
        let lv = self.lin_of_expr(pool, v);
        let quotient_of = self.extend(pool, &lv, big, signed, 0);
        let rest = self.extend(pool, &rest, big, true, 0);
        let merged = Rc::new(quotient_of.plus_scaled(&rest, 1u128 << a));
        Some(self.high_bits(pool, &merged, a + b, k))
    }

    /// `t` as `floor(v / 2^a)` exactly, modulo 2^width(t): a field of bits
    /// `a .. a + n` of `v` (a > 0) holding every bit of v above `a` (v read
    /// signed or unsigned fits a + n bits), sign- or zero-extended as it is
    /// read, or at its own width. Returns the field, `v`, `a` and whether v
    /// is read signed.
    fn quotient_field(&mut self, pool: &ExprPool, t: ExprId) -> Option<(ExprId, ExprId, Width, bool)> {
        let (field, extension) = match *pool.get(t) {
            Expr::SExt(y, _) => (y, Some(true)),
            Expr::ZExt(y, _) => (y, Some(false)),
            _ => (t, None),
        };
        let Expr::Extract { value: v, offset: a, width: n } = *pool.get(field) else { return None };
        if a == 0 {
            return None;
        }
        let top = a + n;
        let whole = top >= pool.width(v);
        let signed_fits = |this: &mut Self| whole || this.fits_signed(pool, v, top);
        let unsigned_fits = |this: &mut Self| (whole || this.fits_unsigned(pool, v, top)) && top <= pool.width(v);
        let signed = match extension {
            Some(true) => signed_fits(self).then_some(true)?,
            Some(false) => unsigned_fits(self).then_some(false)?,
            None if signed_fits(self) => true,
            None => unsigned_fits(self).then_some(false)?,
        };
        Some((field, v, a, signed))
    }

    /// `concat(x[bits k..k+n], l)` where `l` is x's low k bits: the low
    /// k+n bits of x, however x is written (a lane whose high bits were
    /// cut from a sum and whose low byte was computed on its own). An
    /// identity of the bits.
    fn rejoined_field(&mut self, pool: &mut ExprPool, h: ExprId, l: ExprId) -> Option<Rc<Linear>> {
        let (lh, ll) = (self.lin(pool, h), self.lin(pool, l));
        let (eh, el) = (self.build(pool, &lh), self.build(pool, &ll));
        let Expr::Extract { value: x, offset, width: n } = *pool.get(eh) else { return None };
        let k = pool.width(el);
        if offset != k {
            return None;
        }
        let lx = self.lin_of_expr(pool, x);
        let low = self.trunc(pool, &lx, k, 0);
        if self.build(pool, &low) != el {
            return None;
        }
        Some(self.trunc(pool, &lx, k + n, 0))
    }

    /// `concat(ext(y), l)` as `ext(concat(y, l))`, `y` joined with the
    /// top of `l` where they are one field (a 16-bit lane rebuilt from its bytes:
    /// `concat(sext8(x[12..15]), x[4..11])` is `sext16(x[4..15])`), and
    /// `concat(sext(s), sext(f))` whose high half is copies of `f`'s sign
    /// `s` as `sext(f)`. Both are identities of the bits: the high part is
    /// the extension of the top bit below it.
    fn extension_on_top(&mut self, pool: &mut ExprPool, h: ExprId, l: ExprId) -> Option<Rc<Linear>> {
        let w = pool.width(h) + pool.width(l);
        let (lh, ll) = (self.lin(pool, h), self.lin(pool, l));
        let (h, l) = (self.build(pool, &lh), self.build(pool, &ll));
        // Copies of `l`'s own sign bit on top of `l` are its sign
        // extension, however `l` is written (a 32-bit int rebuilt from its
        // bytes, whose high bytes are the sign of a 14-bit value and whose
        // low half is the 16-bit sum).
        let wl = pool.width(l);
        if wl >= 2 {
            let sign = self.high_bits(pool, &ll, wl - 1, 1);
            let copies = self.extend(pool, &sign, pool.width(h), true, 0);
            if self.build(pool, &copies) == h {
                return Some(self.extend(pool, &ll, w, true, 0));
            }
        }
        // A widened 1-bit field is `zext(y)` or, sign-extended, `-zext(y)`
        // in normal form (extend_atom).
        let negated_zext = match lh.terms[..] {
            [(t, c)] if lh.constant == 0 && c == mask(lh.width) => Some(t),
            _ => None,
        };
        let (y, signed) = match (pool.get(h).into_owned(), negated_zext.map(|t| pool.get(t).into_owned())) {
            (_, Some(Expr::ZExt(y, _))) if pool.width(y) == 1 => (y, true),
            (Expr::SExt(y, _), _) => (y, true),
            (Expr::ZExt(y, _), _) => (y, false),
            _ => return None,
        };
        // Copies of the test `l < 0` on top of `l` are its sign too (a
        // 16-bit lane widened by unpacking it with PCMPGTW's sign mask):
        // the test in normal form is the same node as `y`.
        if signed && pool.width(y) == 1 && wl >= 2 {
            let zero = Rc::new(Linear::constant(wl, 0));
            let negative = self.compare(pool, CmpOp::Slt, &ll, &zero);
            if self.build(pool, &negative) == y {
                return Some(self.extend(pool, &ll, w, true, 0));
            }
        }
        if let Expr::SExt(f, _) = *pool.get(l) {
            let wf = pool.width(f);
            if signed && pool.width(y) == 1 && pool.extract(f, wf - 1, 1) == y {
                let lf = self.lin_of_expr(pool, f);
                return Some(self.extend(pool, &lf, w, true, 0));
            }
        }
        // Joined with the top field of `l` where they are adjacent bits of
        // one value, so that the spellings of a field meet.
        let joined = match *pool.get(l) {
            Expr::Concat(a, b) => match pool.concat(y, a) {
                j if !matches!(*pool.get(j), Expr::Concat(..)) => pool.concat(j, b),
                _ => pool.concat(y, l),
            },
            _ => pool.concat(y, l),
        };
        let joined = self.normalize(pool, joined);
        let lj = self.lin_of_expr(pool, joined);
        Some(self.extend(pool, &lj, w, signed, 0))
    }

    /// `l << shift` within `l`'s width plus `shift` (a concatenation with
    /// zero bits): any value with the same low bits as `l`, scaled.
    fn shifted_left(&mut self, pool: &mut ExprPool, l: &Linear, shift: Width) -> Rc<Linear> {
        let w = l.width + shift;
        let mut lifted = Linear::constant(w, l.constant);
        for &(t, c) in &l.terms {
            let lt = self.lift(pool, t, w);
            lifted = lifted.plus_scaled(&lt, c);
        }
        Rc::new(lifted.scaled(1u128 << shift))
    }

    /// A `w`-bit value whose low bits are `t`: the value `t` was cut from,
    /// or `t` extended.
    fn lift(&mut self, pool: &mut ExprPool, t: ExprId, w: Width) -> Rc<Linear> {
        match pool.get(t).into_owned() {
            Expr::Extract { value, offset: 0, .. } if pool.width(value) == w => self.lin_of_expr(pool, value),
            Expr::SExt(y, _) => {
                let ly = self.lin_of_expr(pool, y);
                self.extend(pool, &ly, w, true, 0)
            }
            _ => self.extend_atom(pool, t, w, false, 0),
        }
    }

    /// A comparison: folded when the ranges decide it, unsigned when
    /// neither operand can be negative, on the fewest bits that hold both.
    fn compare(&mut self, pool: &mut ExprPool, op: CmpOp, a: &Rc<Linear>, b: &Rc<Linear>) -> Rc<Linear> {
        let (ea, eb) = (self.build(pool, a), self.build(pool, b));
        let w = pool.width(ea);
        if !Range::tracked(w) {
            let c = pool.cmp(op, ea, eb);
            return self.lin_of_expr(pool, c);
        }
        // a - b = 2^s * r + k with k not a multiple of 2^s is never 0:
        // `16 * x == 1` (a compare with a bias SIMD code makes on values it
        // shifted left) is false.
        if op == CmpOp::Eq {
            let d = a.plus_scaled(b, mask(w));
            let s = d.terms.iter().map(|&(_, c)| c.trailing_zeros()).min().unwrap_or(0).min(w);
            if s >= 1 && d.constant & ((1u128 << s) - 1) != 0 {
                return Rc::new(Linear::constant(1, 0));
            }
        }
        let (ra, rb) = (self.range_of(pool, a), self.range_of(pool, b));
        if let Some(v) = decided_comparison(op, ra, rb) {
            return Rc::new(Linear::constant(1, v as u128));
        }
        let both_non_negative = ra.non_negative() && rb.non_negative();
        let op = match op {
            CmpOp::Slt if both_non_negative => CmpOp::Ult,
            CmpOp::Sle if both_non_negative => CmpOp::Ule,
            op => op,
        };
        let unsigned_bits = ra.unsigned.unsigned_bits().zip(rb.unsigned.unsigned_bits()).map(|(x, y)| x.max(y));
        let signed_bits = ra.signed.signed_bits().max(rb.signed.signed_bits());
        let m = match op {
            CmpOp::Ult | CmpOp::Ule => unsigned_bits,
            CmpOp::Slt | CmpOp::Sle => Some(signed_bits),
            // Cutting to m bits keeps equality when both operands fit m
            // bits in either reading: the fewer of the two.
            CmpOp::Eq => Some(unsigned_bits.map_or(signed_bits, |u| u.min(signed_bits))),
        };
        let (ea, eb) = match m {
            Some(m) if m < w => {
                let (ta, tb) = (self.trunc(pool, a, m, 0), self.trunc(pool, b, m, 0));
                (self.build(pool, &ta), self.build(pool, &tb))
            }
            _ => (ea, eb),
        };
        let (op, ea, eb) = strict_against_constant(pool, op, ea, eb);
        let c = pool.cmp(op, ea, eb);
        self.lin_of_expr(pool, c)
    }

    /// `c ? t : e`, with `abs`, `min` and `max` in one shape each.
    fn select(&mut self, pool: &mut ExprPool, c: ExprId, t: &Rc<Linear>, e: &Rc<Linear>) -> Rc<Linear> {
        if let Some(v) = pool.as_const(c) {
            return if v != 0 { t.clone() } else { e.clone() };
        }
        let (et, ee) = (self.build(pool, t), self.build(pool, e));
        if et == ee {
            return t.clone();
        }
        if let Expr::Cmp(op, p, q) = *pool.get(c) {
            if let Some(r) = self.min_max_abs(pool, op, p, q, t, e) {
                return r;
            }
        }
        // Sides that differ by a constant d: `e + d * zext(c)`, the sum
        // SIMD code forms from a compare mask (C's `if (x) ++x` against
        // `x + (x == 0 ? -1 : 0) + 1`), and a sum whose terms the range
        // bounds can read through.
        if !t.terms.is_empty() && !e.terms.is_empty() && t.width >= 2 {
            let d = t.plus_scaled(e, mask(t.width));
            if let Some(d) = d.as_constant() {
                let taken = self.extend_atom(pool, c, t.width, false, 0);
                return Rc::new(e.plus_scaled(&taken, d));
            }
        }
        let x = pool.ite(c, et, ee);
        self.lin_of_expr(pool, x)
    }

    fn min_max_abs(&mut self, pool: &mut ExprPool, op: CmpOp, p: ExprId, q: ExprId, t: &Rc<Linear>, e: &Rc<Linear>) -> Option<Rc<Linear>> {
        if let Some(r) = self.min_max_abs_as_written(pool, op, p, q, t, e) {
            return Some(r);
        }
        // Comparisons against a constant reach here strict (`x <= c` as
        // `x < c + 1`, strict_against_constant), so the clamp `x <= 255 ?
        // x : 255` arrives as `x < 256 ? x : 255`: read back non-strict
        // against the neighbour, it is the minimum `x < 255 ? x : 255` is.
        if let Some((op, p, q)) = non_strict_against_constant(pool, op, p, q) {
            if let Some(r) = self.min_max_abs_as_written(pool, op, p, q, t, e) {
                return Some(r);
            }
        }
        self.difference_magnitude(pool, op, p, q, t, e)
    }

    /// `p < q ? q - p : p - q` (signed or unsigned, strict or not: where
    /// `p = q` both sides are 0) is `|p - q|`, and with its sides swapped
    /// `-|p - q|`: taken as the abs of the exact difference in one more
    /// bit than `p` and `q` have, whose value fits their width unsigned,
    /// cut to it and zero-extended (the shape `absolute_difference` gives
    /// the OR of saturating differences), so that a SAD instruction's
    /// byte absolute difference meets C's `abs(a - b)`. The sides must be
    /// the difference of `p` and `q` extended as the comparison reads them
    /// (exact when wider, and right modulo 2^w at their own width, where
    /// |p - q| still fits).
    fn difference_magnitude(
        &mut self,
        pool: &mut ExprPool,
        op: CmpOp,
        p: ExprId,
        q: ExprId,
        t: &Rc<Linear>,
        e: &Rc<Linear>,
    ) -> Option<Rc<Linear>> {
        let signed = ordered_signedness(op)?;
        // Against a constant it is an abs or a clamp, in their own shapes.
        if pool.as_const(p).is_some() || pool.as_const(q).is_some() {
            return None;
        }
        let (w, m) = (t.width, pool.width(p));
        if m > w || m < 2 || m + 1 > 128 {
            return None;
        }
        let (lp, lq) = (self.lin_of_expr(pool, p), self.lin_of_expr(pool, q));
        let (wp, wq) = (self.extend(pool, &lp, w, signed, 0), self.extend(pool, &lq, w, signed, 0));
        let p_minus_q = wp.plus_scaled(&wq, mask(w));
        let q_minus_p = p_minus_q.negated();
        let negated = if **t == q_minus_p && **e == p_minus_q {
            false
        } else if **t == p_minus_q && **e == q_minus_p {
            true
        } else {
            return None;
        };
        let (ep, eq) = (self.extend(pool, &lp, m + 1, signed, 0), self.extend(pool, &lq, m + 1, signed, 0));
        let difference = Rc::new(ep.plus_scaled(&eq, mask(m + 1)));
        let magnitude = self.abs(pool, &difference);
        // As in absolute_difference: the range of |p - q| is not the join
        // of its branches'; say it, so that the cut loses nothing.
        if let Some(node) = magnitude.as_atom() {
            if let Some(r) = abs_range(self.range_of(pool, &difference).signed, m + 1) {
                if !self.ranges.facts().contains_key(&node) {
                    self.ranges.add_fact(node, Range::from_exact(m + 1, r));
                }
            }
        }
        let low = self.trunc(pool, &magnitude, m, 0);
        let wide = self.extend(pool, &low, w, false, 0);
        Some(if negated { Rc::new(wide.negated()) } else { wide })
    }

    fn min_max_abs_as_written(
        &mut self,
        pool: &mut ExprPool,
        op: CmpOp,
        p: ExprId,
        q: ExprId,
        t: &Rc<Linear>,
        e: &Rc<Linear>,
    ) -> Option<Rc<Linear>> {
        let signed = ordered_signedness(op)?;
        let strict = if signed { CmpOp::Slt } else { CmpOp::Ult };
        if t.width < pool.width(p) {
            return self.narrow_min_max(pool, strict, p, q, t, e);
        }
        let (et, ee) = (self.build(pool, t), self.build(pool, e));
        // min: p < q ? p : q (or <=); max: p < q ? q : p.
        let pick_less = self.same_at(pool, et, p, signed) && self.same_at(pool, ee, q, signed);
        let pick_more = self.same_at(pool, et, q, signed) && self.same_at(pool, ee, p, signed);
        // A minimum or maximum whose operands the ranges order (`p <= q`
        // on every input, or `q <= p`) is the one it then picks: where the
        // strict test fails the operands are equal, so either side is that
        // value. A C minimum seeded with 255 over byte differences, or a
        // maximum seeded with 0, is the first difference itself.
        if pick_less || pick_more {
            let (rp, rq) = (self.ranges.range(pool, p), self.ranges.range(pool, q));
            let (ip, iq) = if signed { (rp.signed, rq.signed) } else { (rp.unsigned, rq.unsigned) };
            if ip.hi <= iq.lo {
                return Some(t.clone());
            }
            if iq.hi <= ip.lo {
                return Some(e.clone());
            }
        }
        // max(x, -x) is abs(x) and min(x, -x) is -abs(x), bit for bit even
        // at the minimum (where x = -x = abs(x)): SIMD code takes |x| as
        // PMAXSW(x, 0 - x).
        if signed && (pick_less || pick_more) && t.negated() == **e {
            let abs = self.abs(pool, t);
            return Some(if pick_more { abs } else { Rc::new(abs.negated()) });
        }
        if pick_less || pick_more {
            return Some(self.min_max(pool, MinMax { max: pick_more, signed }, t, e));
        }
        if !signed {
            return None;
        }
        // abs: x < 0 ? -x : x (or <= 0), and 0 < x ? x : -x (or 0 <= x).
        let (p_zero, q_zero) = (pool.as_const(p) == Some(0), pool.as_const(q) == Some(0));
        if q_zero && self.same_at(pool, ee, p, true) && e.negated() == **t {
            Some(self.abs(pool, e))
        } else if p_zero && self.same_at(pool, et, q, true) && t.negated() == **e {
            Some(self.abs(pool, t))
        } else {
            None
        }
    }

    /// `p < q ? t : e` whose sides are the low bits of the compared
    /// values, `p`'s and `q`'s (a saturating pack's clamp to 255, compared
    /// in 16 bits and selecting bytes): the low bits of `min(p, q)` or
    /// `max(p, q)`, in the one shape a clamp written on the wide values
    /// and cut afterwards also takes. An identity of the bits: cutting a
    /// select cuts both of its sides, and `p < q ? p : q` and
    /// `q < p ? q : p` differ only where `p = q`.
    fn narrow_min_max(
        &mut self,
        pool: &mut ExprPool,
        strict: CmpOp,
        p: ExprId,
        q: ExprId,
        t: &Rc<Linear>,
        e: &Rc<Linear>,
    ) -> Option<Rc<Linear>> {
        let k = t.width;
        let (lp, lq) = (self.lin_of_expr(pool, p), self.lin_of_expr(pool, q));
        let (tp, tq) = (self.trunc(pool, &lp, k, 0), self.trunc(pool, &lq, k, 0));
        let (bp, bq) = (self.build(pool, &tp), self.build(pool, &tq));
        let (et, ee) = (self.build(pool, t), self.build(pool, e));
        let pick_less = (et, ee) == (bp, bq);
        if !pick_less && (et, ee) != (bq, bp) {
            return None;
        }
        let signed = strict == CmpOp::Slt;
        let wide = self.min_max(pool, MinMax { max: !pick_less, signed }, &lp, &lq);
        Some(self.trunc(pool, &wide, k, 0))
    }

    /// `min(a, b)` or `max(a, b)` in its one n-ary shape. Taken on the
    /// fewest bits that hold both operands (a minimum of values that fit
    /// m bits is the extension of the minimum of their low m bits, so the
    /// 16-bit lanes' and a 32-bit scalar's meet), unsigned when neither
    /// can be negative; an operand that is itself such a selection of the
    /// same kind at that width gives its operands (min is associative,
    /// commutative and idempotent), which are sorted, merged and rebuilt
    /// as one chain: a serial C chain of 64 and a SIMD reduction tree over
    /// lanes and rows meet. An operand never smaller than another one (for
    /// a maximum, never larger) is left out: the other is then chosen.
    fn min_max(&mut self, pool: &mut ExprPool, kind: MinMax, a: &Rc<Linear>, b: &Rc<Linear>) -> Rc<Linear> {
        let w = a.width;
        let (ra, rb) = (self.range_of(pool, a), self.range_of(pool, b));
        let tracked = Range::tracked(w);
        let signed = kind.signed && !(tracked && ra.non_negative() && rb.non_negative());
        let m = if !tracked {
            w
        } else if signed {
            ra.signed.signed_bits().max(rb.signed.signed_bits())
        } else {
            ra.unsigned.unsigned_bits().zip(rb.unsigned.unsigned_bits()).map_or(w, |(x, y)| x.max(y))
        };
        // Not below the width of an operand that is itself a selection:
        // cut, it would no longer be seen as one (a clamp's inner minimum
        // has a narrower range than its operands).
        let inner = [a, b].iter().filter_map(|x| self.selection_of(pool, x)).map(|(_, _, width)| width).max().unwrap_or(1);
        let m = m.max(inner).clamp(1, w);
        let kind = MinMax { max: kind.max, signed };
        let mut operands: Vec<ExprId> = Vec::new();
        for x in [a, b] {
            let low = self.trunc(pool, x, m, 0);
            let e = self.build(pool, &low);
            match self.min_max_of.get(&e) {
                Some((k, ops)) if *k == kind && operands.len() + ops.len() <= MAX_SELECTED => operands.extend(ops.iter().copied()),
                _ => operands.push(e),
            }
        }
        operands.sort();
        operands.dedup();
        let atom = self.min_max_chain(pool, kind, operands);
        let low = self.lin_of_expr(pool, atom);
        self.extend(pool, &low, w, signed, 0)
    }

    /// The n-ary selection `l` is, perhaps extended as it reads: its kind,
    /// operands and width.
    fn selection_of(&mut self, pool: &ExprPool, l: &Linear) -> Option<(MinMax, Rc<Vec<ExprId>>, Width)> {
        let a = l.as_atom()?;
        if let Some((kind, ops)) = self.min_max_of.get(&a) {
            return Some((*kind, ops.clone(), pool.width(a)));
        }
        let (y, sign_extended) = match *pool.get(a) {
            Expr::ZExt(y, _) => (y, false),
            Expr::SExt(y, _) => (y, true),
            _ => return None,
        };
        let (kind, ops) = self.min_max_of.get(&y).cloned()?;
        let keeps_value = if sign_extended { kind.signed } else { !kind.signed || self.ranges.range(pool, y).non_negative() };
        keeps_value.then(|| (kind, ops, pool.width(y)))
    }

    /// The chain selecting the least (or greatest) of `operands` (sorted,
    /// no two alike, all of one width), each operand that can never be
    /// chosen left out, registered with its operands.
    fn min_max_chain(&mut self, pool: &mut ExprPool, kind: MinMax, mut operands: Vec<ExprId>) -> ExprId {
        let m = pool.width(operands[0]);
        let tracked = Range::tracked(m);
        // Bounds of each operand in the order compared, and the bound the
        // selection cannot pass: the least upper bound for a minimum, the
        // greatest lower bound for a maximum.
        let mut bounds: Vec<Interval> = Vec::with_capacity(operands.len());
        if tracked {
            for &o in &operands {
                let r = self.ranges.range(pool, o);
                bounds.push(if kind.signed { r.signed } else { r.unsigned });
            }
            let (best, at) = if kind.max {
                let (i, b) = bounds.iter().enumerate().max_by_key(|(i, b)| (b.lo, std::cmp::Reverse(*i))).expect("operands");
                (b.lo, i)
            } else {
                let (i, b) = bounds.iter().enumerate().min_by_key(|(i, b)| (b.hi, *i)).expect("operands");
                (b.hi, i)
            };
            // Operand `i` is never chosen over operand `at` when it is
            // never on the right side of it (ties pick equal values).
            let keep: Vec<bool> =
                bounds.iter().enumerate().map(|(i, b)| i == at || if kind.max { b.hi > best } else { b.lo < best }).collect();
            let mut k = keep.iter();
            operands.retain(|_| *k.next().expect("one flag per operand"));
            let mut k = keep.iter();
            bounds.retain(|_| *k.next().expect("one flag per operand"));
        }
        let strict = if kind.signed { CmpOp::Slt } else { CmpOp::Ult };
        let mut acc = operands[0];
        for i in 1..operands.len() {
            let o = operands[i];
            let less = pool.cmp(strict, acc, o);
            acc = if kind.max { pool.ite(less, o, acc) } else { pool.ite(less, acc, o) };
            if tracked && !self.min_max_of.contains_key(&acc) {
                // The exact bounds of the selection (the join of its
                // sides' is wider): min of values in [l_i, h_i] lies in
                // [min l_i, min h_i], max in [max l_i, max h_i].
                let chosen = &bounds[..=i];
                let pick = |f: fn(i128, i128) -> i128, g: fn(&Interval) -> i128| chosen.iter().map(g).reduce(f).expect("operands");
                let exact = if kind.max {
                    Interval::new(pick(i128::max, |b| b.lo), pick(i128::max, |b| b.hi))
                } else {
                    Interval::new(pick(i128::min, |b| b.lo), pick(i128::min, |b| b.hi))
                };
                if !self.ranges.facts().contains_key(&acc) {
                    self.ranges.add_fact(acc, Range::from_exact(m, exact));
                }
            }
            self.min_max_of.entry(acc).or_insert_with(|| (kind, Rc::new(operands[..=i].to_vec())));
        }
        acc
    }

    /// Whether `e` is never negative and fits `bits` bits unsigned.
    fn fits_unsigned(&mut self, pool: &ExprPool, e: ExprId, bits: Width) -> bool {
        if bits == 0 || !Range::tracked(pool.width(e)) {
            return false;
        }
        let r = self.ranges.range(pool, e);
        r.non_negative() && r.unsigned.unsigned_bits().is_some_and(|b| b <= bits)
    }

    /// Whether `e` read signed fits `bits` bits signed.
    fn fits_signed(&mut self, pool: &ExprPool, e: ExprId, bits: Width) -> bool {
        if bits == 0 || !Range::tracked(pool.width(e)) {
            return false;
        }
        self.ranges.range(pool, e).signed.signed_bits() <= bits
    }

    /// `abs(x)` in its one shape: `x < 0 ? -x : x` over whichever of `x`
    /// and `-x` builds to the smaller node (abs(-x) = abs(x) bit for bit,
    /// the minimum included), so every way of writing it meets; taken on
    /// the fewest bits that hold `x` signed and zero-extended from there
    /// (|x| <= 2^(m-1) reads right unsigned in m bits), so that a 32-bit
    /// abs of a byte difference and a 9-bit one meet.
    fn abs(&mut self, pool: &mut ExprPool, x: &Rc<Linear>) -> Rc<Linear> {
        let w = x.width;
        if Range::tracked(w) {
            let exact = self.range_of(pool, x).signed;
            let m = exact.signed_bits();
            if (2..w).contains(&m) {
                let narrow = self.trunc(pool, x, m, 0);
                let magnitude = self.abs(pool, &narrow);
                // The range of |x| is not the join of its branches' (each
                // is taken only where it is non-negative): say it, so that
                // cutting or widening it is seen to lose nothing.
                if let (Some(node), Some(r)) = (magnitude.as_atom(), abs_range(exact, m)) {
                    if !self.ranges.facts().contains_key(&node) {
                        self.ranges.add_fact(node, Range::from_exact(m, r));
                    }
                }
                return self.extend(pool, &magnitude, w, false, 0);
            }
        }
        let minus_x = Rc::new(x.negated());
        let (x, minus) = if self.build(pool, &minus_x) < self.build(pool, x) { (minus_x, x.clone()) } else { (x.clone(), minus_x) };
        let zero = Rc::new(Linear::constant(x.width, 0));
        let cond = self.compare(pool, CmpOp::Slt, &x, &zero);
        let cond = self.build(pool, &cond);
        if let Some(v) = pool.as_const(cond) {
            return if v != 0 { minus } else { x };
        }
        let (en, ex) = (self.build(pool, &minus), self.build(pool, &x));
        let r = pool.ite(cond, en, ex);
        self.abs_built.insert(r);
        self.lin_of_expr(pool, r)
    }

    /// `|x - y|` of two unsigned `w`-bit values written as the OR of two
    /// saturating differences, `(x <u y ? 0 : x - y) | (y <u x ? 0 : y - x)`
    /// (one of them is always 0; SIMD code computes a sum of absolute
    /// differences so): the low `w` bits of `abs` of the `w+1`-bit
    /// difference, the shape a scalar `abs(x - y)` takes.
    fn absolute_difference(&mut self, pool: &mut ExprPool, a: ExprId, b: ExprId) -> Option<Rc<Linear>> {
        let saturating = |pool: &ExprPool, e: ExprId| -> Option<(ExprId, ExprId)> {
            let Expr::Ite(c, zero, diff) = *pool.get(e) else { return None };
            let (Expr::Cmp(CmpOp::Ult, x, y), Expr::Bin(BinOp::Sub, dx, dy)) = (&*pool.get(c), &*pool.get(diff)) else { return None };
            (pool.as_const(zero) == Some(0) && (*x, *y) == (*dx, *dy)).then_some((*x, *y))
        };
        let (x, y) = saturating(pool, a)?;
        if saturating(pool, b)? != (y, x) {
            return None;
        }
        let w = pool.width(x);
        if w + 1 > 128 {
            return None;
        }
        let (lx, ly) = (self.lin(pool, x), self.lin(pool, y));
        let (ex, ey) = (self.extend(pool, &lx, w + 1, false, 0), self.extend(pool, &ly, w + 1, false, 0));
        let difference = Rc::new(ex.plus_scaled(&ey, mask(w + 1)));
        let magnitude = self.abs(pool, &difference);
        // The range of |x - y| is not the join of its branches' (each is
        // taken only where it is non-negative): say it, so that the cut to
        // w bits is seen to lose nothing.
        if let Some(node) = magnitude.as_atom() {
            if let Some(r) = abs_range(self.range_of(pool, &difference).signed, w + 1) {
                if !self.ranges.facts().contains_key(&node) {
                    self.ranges.add_fact(node, Range::from_exact(w + 1, r));
                }
            }
        }
        Some(self.trunc(pool, &magnitude, w, 0))
    }

    /// Whether `x` is `p`, or `p` is `x` cut to fewer bits that hold all
    /// of `x` (read signed or not), so comparing `p` compares `x`.
    fn same_at(&mut self, pool: &mut ExprPool, x: ExprId, p: ExprId, signed: bool) -> bool {
        if x == p {
            return true;
        }
        let (wx, wp) = (pool.width(x), pool.width(p));
        if wp >= wx || !Range::tracked(wx) {
            return false;
        }
        let lx = self.lin_of_expr(pool, x);
        let r = self.range_of(pool, &lx);
        let fits = if signed { r.signed.signed_bits() <= wp } else { r.unsigned.unsigned_bits().is_some_and(|m| m <= wp) };
        if !fits {
            return false;
        }
        let tx = self.trunc(pool, &lx, wp, 0);
        self.build(pool, &tx) == p
    }
}

/// The values `|x|` takes for `x` in `x_range` (signed, `w` bits): None when
/// the range holds the minimum, whose absolute value wraps to itself.
fn abs_range(x_range: Interval, w: Width) -> Option<Interval> {
    if x_range.lo <= -(1i128 << (w - 1)) {
        return None;
    }
    let lo = if x_range.lo >= 0 {
        x_range.lo
    } else if x_range.hi <= 0 {
        -x_range.hi
    } else {
        0
    };
    Some(Interval::new(lo, x_range.hi.max(-x_range.lo)))
}

/// A constant that is one run of ones, bits `j .. j + n` with `j >= 1`:
/// `(j, n)`.
fn bit_run(m: u128) -> Option<(Width, Width)> {
    if m == 0 || m & 1 == 1 {
        return None;
    }
    let j = m.trailing_zeros();
    let run = m >> j;
    (run & run.wrapping_add(1) == 0).then(|| (j, 128 - run.leading_zeros()))
}

/// A strict comparison with a constant as the non-strict one, the inverse
/// of `strict_against_constant`: `x < c` is `x <= c - 1` and `c < x` is
/// `c + 1 <= x` (signed or unsigned); None when `c` is the end of the
/// order or neither operand is a constant.
fn non_strict_against_constant(pool: &mut ExprPool, op: CmpOp, a: ExprId, b: ExprId) -> Option<(CmpOp, ExprId, ExprId)> {
    let (non_strict, signed) = match op {
        CmpOp::Slt => (CmpOp::Sle, true),
        CmpOp::Ult => (CmpOp::Ule, false),
        _ => return None,
    };
    let w = pool.width(a);
    let (min, max) = if signed { (1u128 << (w - 1), mask(w) >> 1) } else { (0, mask(w)) };
    if let Some(c) = pool.as_const(b).filter(|&c| c != min) {
        let previous = pool.constant(w, c.wrapping_sub(1) & mask(w));
        return Some((non_strict, a, previous));
    }
    let c = pool.as_const(a).filter(|&c| c != max)?;
    let next = pool.constant(w, c.wrapping_add(1) & mask(w));
    Some((non_strict, next, b))
}

/// A non-strict comparison with a constant as the strict one: `x <= c` is
/// `x < c + 1` and `c <= x` is `c - 1 < x` (signed or unsigned), unless
/// `c` is the end of the order, where no neighbour exists (there the ranges
/// have already decided the comparison or it stays as written). C writes a
/// zero-bin test as `abs(x) >= zbin` where SIMD code compares `abs(x) >
/// zbin - 1`: one shape for both.
fn strict_against_constant(pool: &mut ExprPool, op: CmpOp, a: ExprId, b: ExprId) -> (CmpOp, ExprId, ExprId) {
    let (strict, signed) = match op {
        CmpOp::Sle => (CmpOp::Slt, true),
        CmpOp::Ule => (CmpOp::Ult, false),
        _ => return (op, a, b),
    };
    let w = pool.width(a);
    let (min, max) = if signed { (1u128 << (w - 1), mask(w) >> 1) } else { (0, mask(w)) };
    if let Some(c) = pool.as_const(b) {
        if c != max {
            let next = pool.constant(w, c.wrapping_add(1) & mask(w));
            return (strict, a, next);
        }
    } else if let Some(c) = pool.as_const(a) {
        if c != min {
            let previous = pool.constant(w, c.wrapping_sub(1) & mask(w));
            return (strict, previous, b);
        }
    }
    (op, a, b)
}

/// Whether an ordering comparison reads its operands signed; None for
/// `==`, which orders nothing.
fn ordered_signedness(op: CmpOp) -> Option<bool> {
    match op {
        CmpOp::Slt | CmpOp::Sle => Some(true),
        CmpOp::Ult | CmpOp::Ule => Some(false),
        CmpOp::Eq => None,
    }
}
