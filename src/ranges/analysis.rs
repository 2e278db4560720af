//! The ranges of expressions, read from their structure (a byte is in
//! [0, 255], a sum of two bytes in [0, 510], a product of two differences
//! of bytes in [-65025, 65025]) and from facts known on the path.

use super::interval::{Interval, Range};
use crate::expr::{BinOp, CmpOp, Expr, ExprId, ExprPool};
use rustc_hash::FxHashMap;

/// Deepest recursion into an expression not yet ranged (past it, nothing
/// is known: still a valid range).
const RANGE_DEPTH: u32 = 200;

/// Ranges of the nodes of one pool, memoised, narrowed by facts.
#[derive(Default)]
pub struct RangeAnalysis {
    memo: FxHashMap<ExprId, Range>,
    facts: FxHashMap<ExprId, Range>,
}

impl RangeAnalysis {
    /// Ranges from structure alone.
    pub fn new() -> Self {
        Self::default()
    }

    /// Ranges from structure, narrowed by `facts` (each true on every
    /// input the ranges are used for).
    pub fn with_facts(facts: FxHashMap<ExprId, Range>) -> Self {
        RangeAnalysis { memo: FxHashMap::default(), facts }
    }

    /// Adds a fact about `e` (its value lies in `r`).
    pub fn add_fact(&mut self, e: ExprId, r: Range) {
        self.memo.clear();
        let entry = self.facts.entry(e).or_insert(Range::full(r.width));
        entry.narrow_unsigned(r.unsigned);
        entry.narrow_signed(r.signed);
    }

    /// The facts known.
    pub fn facts(&self) -> &FxHashMap<ExprId, Range> {
        &self.facts
    }

    /// The range of `e`.
    pub fn range(&mut self, pool: &ExprPool, e: ExprId) -> Range {
        self.range_at(pool, e, 0)
    }

    fn range_at(&mut self, pool: &ExprPool, e: ExprId, depth: u32) -> Range {
        let w = pool.width(e);
        if !Range::tracked(w) {
            return Range::full(w);
        }
        if let Some(v) = pool.as_const(e) {
            return Range::constant(w, v);
        }
        if let Some(r) = self.memo.get(&e) {
            return *r;
        }
        if depth >= RANGE_DEPTH {
            return self.facts.get(&e).copied().unwrap_or(Range::full(w));
        }
        let mut r = self.structural(pool, e, depth + 1);
        if let Some(f) = self.facts.get(&e) {
            r.narrow_unsigned(f.unsigned);
            r.narrow_signed(f.signed);
        }
        self.memo.insert(e, r);
        r
    }

    fn structural(&mut self, pool: &ExprPool, e: ExprId, d: u32) -> Range {
        let w = pool.width(e);
        let mut r = Range::full(w);
        // Nothing is tracked of a value wider than 64 bits: what is read
        // from it is not bounded either.
        if pool.children(e).iter().any(|c| !Range::tracked(pool.width(*c))) {
            return r;
        }
        match pool.get(e).into_owned() {
            Expr::Input { .. } => r.narrow_unsigned(Interval::new(0, 255)),
            Expr::Cmp(op, a, b) => {
                // Decided by the operands' ranges: one answer. A saturating
                // subtraction of two bytes never clamps, and its select on
                // the clamp test is then the difference alone.
                let (ra, rb) = (self.range_at(pool, a, d), self.range_at(pool, b, d));
                match decided_comparison(op, ra, rb) {
                    Some(holds) => r.narrow_unsigned(Interval::point(holds as i128)),
                    None => r.narrow_unsigned(Interval::new(0, 1)),
                }
            }
            Expr::FCmp(..) => r.narrow_unsigned(Interval::new(0, 1)),
            Expr::ZExt(x, _) => {
                let x = self.range_at(pool, x, d);
                r.narrow_unsigned(x.unsigned);
            }
            Expr::SExt(x, _) => {
                let x = self.range_at(pool, x, d);
                r.narrow_signed(x.signed);
            }
            Expr::Extract { value, offset, width } => {
                let x = self.range_at(pool, value, d);
                let wv = pool.width(value);
                if offset == 0 {
                    // The low bits of a value that fits them are the value.
                    if x.unsigned.hi < (1i128 << width) {
                        r.narrow_unsigned(x.unsigned);
                    }
                    if x.signed.within(Interval::signed_full(width)) {
                        r.narrow_signed(x.signed);
                    }
                } else if offset + width == wv {
                    // The top bits: a logical shift right, and read signed
                    // an arithmetic one (both keep the order of values).
                    r.narrow_unsigned(Interval::new(x.unsigned.lo >> offset, x.unsigned.hi >> offset));
                    r.narrow_signed(Interval::new(x.signed.lo >> offset, x.signed.hi >> offset));
                } else {
                    // A middle field holding every bit of the value above
                    // `offset` (the value fits offset + width bits): the
                    // value shifted right, read as the value is (C's
                    // 64-bit rounding shift cut to 32 bits).
                    let top = offset + width;
                    if x.unsigned.hi >> offset < (1i128 << width) {
                        r.narrow_unsigned(Interval::new(x.unsigned.lo >> offset, x.unsigned.hi >> offset));
                    }
                    if x.signed.within(Interval::signed_full(top)) {
                        r.narrow_signed(Interval::new(x.signed.lo >> offset, x.signed.hi >> offset));
                    }
                }
            }
            Expr::Concat(h, l) => {
                let wl = pool.width(l);
                let (hr, lr) = (self.range_at(pool, h, d), self.range_at(pool, l, d));
                let joined = concat_range(hr, lr, wl);
                r.narrow_unsigned(joined.0);
                r.narrow_signed(joined.1);
                // The bits above `l` of an extension of `l` on top of it
                // (a 32-bit value widened to 64 by its halves): that
                // extension, whose range is l's.
                if let Expr::Extract { value, offset, .. } = *pool.get(h) {
                    match *pool.get(value) {
                        Expr::SExt(x, _) if x == l && offset == wl => r.narrow_signed(lr.signed),
                        Expr::ZExt(x, _) if x == l && offset == wl => r.narrow_unsigned(lr.unsigned),
                        _ => {}
                    }
                }
            }
            Expr::LogRead(read) => {
                // Byte by byte: each byte of the read is one of the bytes
                // written that may be there, or the base's byte.
                let base = self.range_at(pool, read.base, d);
                let mut acc: Option<(Interval, Interval)> = None;
                for k in (0..(w / 8) as u64).rev() {
                    let (candidates, sure) = crate::expr::log_read::byte_sources(pool, &read, k);
                    let mut byte = match sure {
                        Some(b) => self.range_at(pool, b, d).unsigned,
                        None => byte_of(base, k),
                    };
                    for c in candidates {
                        byte = byte.join(self.range_at(pool, c.byte, d).unsigned);
                    }
                    let byte_range = (byte, byte_as_top(byte));
                    acc = Some(match acc {
                        None => byte_range,
                        Some((hu, hs)) => {
                            let h = Range { width: 0, unsigned: hu, signed: hs };
                            let l = Range { width: 8, unsigned: byte, signed: byte_as_top(byte) };
                            concat_range(h, l, 8)
                        }
                    });
                }
                if let Some((u, s)) = acc {
                    if w.is_multiple_of(8) {
                        r.narrow_unsigned(u);
                        r.narrow_signed(s);
                    }
                }
            }
            Expr::Not(x) => {
                let x = self.range_at(pool, x, d);
                let m = (1i128 << w) - 1;
                r.narrow_unsigned(Interval::new(m - x.unsigned.hi, m - x.unsigned.lo));
                r.narrow_signed(Interval::new(-1 - x.signed.hi, -1 - x.signed.lo));
            }
            Expr::Ite(c, t, f) => {
                // A condition whose range is one value takes one side only:
                // the other side's values are never the select's.
                let condition = self.range_at(pool, c, d).unsigned;
                let sides = match (condition.lo, condition.hi) {
                    (1, 1) => [Some(self.branch_range(pool, c, true, t, d)), None],
                    (0, 0) => [None, Some(self.branch_range(pool, c, false, f, d))],
                    _ => [Some(self.branch_range(pool, c, true, t, d)), Some(self.branch_range(pool, c, false, f, d))],
                };
                let mut taken = sides.into_iter().flatten();
                if let Some(first) = taken.next() {
                    let (u, s) = taken.fold((first.unsigned, first.signed), |(u, s), o| (u.join(o.unsigned), s.join(o.signed)));
                    r.narrow_unsigned(u);
                    r.narrow_signed(s);
                }
            }
            Expr::Bin(op, a, b) => {
                let (ra, rb) = (self.range_at(pool, a, d), self.range_at(pool, b, d));
                binary(&mut r, op, ra, rb);
                if op == BinOp::Mul && a == b {
                    // A square is never negative: the interval product of
                    // `x` with itself does not know both factors are one
                    // value, and a variance's `sum * sum / 16` is a shift
                    // only once its dividend is seen to be non-negative.
                    for x in [ra.unsigned, ra.signed] {
                        if let Some(sq) = square(x) {
                            r.narrow_by_exact(sq);
                        }
                    }
                }
            }
            _ => {}
        }
        r
    }
}

impl RangeAnalysis {
    /// The range of `v`, a side of a select on `c`, where the select takes
    /// it (`taken`: when `c` holds). A comparison of a value with a number
    /// bounds that value, and its negation, on each side: `x < 0 ? -x : x`
    /// is never negative, `31 < x ? 31 : x` never above 31.
    fn branch_range(&mut self, pool: &ExprPool, c: ExprId, taken: bool, v: ExprId, d: u32) -> Range {
        let mut r = self.range_at(pool, v, d);
        let Some((x, signed, bound, exact_negation)) = condition_bound(pool, c, taken) else {
            return r;
        };
        // A comparison of x with 0 - x says x's sign only where 0 - x does
        // not wrap (x is not the most negative value).
        if exact_negation && self.range_at(pool, x, d).signed.lo <= Interval::signed_full(pool.width(x)).lo {
            return r;
        }
        if v == x {
            if signed {
                r.narrow_signed(bound);
            } else {
                r.narrow_unsigned(bound);
            }
            return r;
        }
        if let Expr::Bin(BinOp::Sub, zero, y) = *pool.get(v) {
            if signed && y == x && pool.as_const(zero) == Some(0) {
                // 0 - x for x in bound, where no value of it wraps.
                let x_range = self.range_at(pool, x, d);
                if let Some(b) = x_range.signed.meet(bound) {
                    let negated = Interval::new(-b.hi, -b.lo);
                    if negated.within(Interval::signed_full(r.width)) {
                        r.narrow_signed(negated);
                    }
                }
            }
        }
        r
    }
}

/// What `c` says of a value where it holds (`taken`) or fails: the value,
/// whether the comparison is signed, the interval the value then lies in,
/// and whether that needs `0 - x` to be exact. `c` compares the value with
/// a number, or `x` with `0 - x` (which, unless `0 - x` wraps, is a test
/// of x's sign: `max(x, -x)` is never negative), or is the negation of
/// such a comparison.
fn condition_bound(pool: &ExprPool, c: ExprId, taken: bool) -> Option<(ExprId, bool, Interval, bool)> {
    let (op, a, b) = match *pool.get(c) {
        Expr::Not(inner) => return condition_bound(pool, inner, !taken),
        Expr::Cmp(op, a, b) => (op, a, b),
        _ => return None,
    };
    let signed = match op {
        CmpOp::Slt | CmpOp::Sle => true,
        CmpOp::Ult | CmpOp::Ule => false,
        CmpOp::Eq => return None,
    };
    let w = pool.width(a);
    if !Range::tracked(w) {
        return None;
    }
    let full = if signed { Interval::signed_full(w) } else { Interval::new(0, (1i128 << w) - 1) };
    let number = |e: ExprId| pool.as_const(e).map(|v| if signed { crate::expr::to_signed(v, w) } else { v as i128 });
    let strict = matches!(op, CmpOp::Slt | CmpOp::Ult);
    let bounded = |lo: i128, hi: i128| (lo <= hi).then_some(Interval::new(lo, hi));
    // x < k (or <=): below when taken, at or above when not.
    if let (None, Some(k)) = (number(a), number(b)) {
        let (below_hi, above_lo) = if strict { (k - 1, k) } else { (k, k + 1) };
        let bound = if taken { bounded(full.lo, below_hi) } else { bounded(above_lo, full.hi) };
        return bound.map(|i| (a, signed, i, false));
    }
    // k < x (or <=): above when taken, at or below when not.
    if let (Some(k), None) = (number(a), number(b)) {
        let (above_lo, below_hi) = if strict { (k + 1, k) } else { (k, k - 1) };
        let bound = if taken { bounded(above_lo, full.hi) } else { bounded(full.lo, below_hi) };
        return bound.map(|i| (b, signed, i, false));
    }
    if !signed {
        return None;
    }
    let negation_of = |e: ExprId, x: ExprId| matches!(*pool.get(e), Expr::Bin(BinOp::Sub, z, y) if y == x && pool.as_const(z) == Some(0));
    // x < -x is x < 0, x <= -x is x <= 0: as `x < k` with k = 0.
    let (x, below_when_taken) = if negation_of(b, a) {
        (a, true)
    } else if negation_of(a, b) {
        (b, false)
    } else {
        return None;
    };
    // Taken, `x < -x` (strict) puts x in [min, -1], `x <= -x` in [min, 0];
    // `-x < x` puts it in [1, max], `-x <= x` in [0, max]; failing, the rest.
    let (below_hi, above_lo) = if strict == below_when_taken { (-1, 0) } else { (0, 1) };
    let below = if below_when_taken { taken } else { !taken };
    let bound = if below { bounded(full.lo, below_hi) } else { bounded(above_lo, full.hi) };
    bound.map(|i| (x, true, i, true))
}

/// The unsigned and signed ranges of `concat(h, l)`, `l` being `wl` bits
/// wide: `h * 2^wl + l`, with `h` read unsigned or signed and `l` unsigned.
fn concat_range(h: Range, l: Range, wl: u32) -> (Interval, Interval) {
    let low = if l.unsigned.lo >= 0 && l.unsigned.hi < (1i128 << wl) { l.unsigned } else { Interval::new(0, (1i128 << wl) - 1) };
    (
        Interval::new((h.unsigned.lo << wl) + low.lo, (h.unsigned.hi << wl) + low.hi),
        Interval::new((h.signed.lo << wl) + low.lo, (h.signed.hi << wl) + low.hi),
    )
}

/// The unsigned range of byte `k` of a value in `r`: the value's bits from
/// 8k up are at most `hi >> 8k`, and are that byte when below 256.
fn byte_of(r: Range, k: u64) -> Interval {
    let shift = 8 * k as u32;
    if r.unsigned.lo >= 0 && shift < 127 && (r.unsigned.hi >> shift) < 256 {
        let lo = if shift == 0 { r.unsigned.lo } else { 0 };
        Interval::new(lo, r.unsigned.hi >> shift)
    } else {
        Interval::new(0, 255)
    }
}

/// A byte in unsigned `u` read signed (its top bit set: negative).
fn byte_as_top(u: Interval) -> Interval {
    if u.hi < 128 {
        u
    } else {
        Interval::new(-128, 127)
    }
}

/// Narrows `r`, the range of `a op b`, from the operands' ranges. Sums,
/// differences and products are computed exactly on each pair of
/// readings; each result that no wrap can have touched bounds `r`.
fn binary(r: &mut Range, op: BinOp, a: Range, b: Range) {
    let readings = |x: Range| [x.unsigned, x.signed];
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul => {
            for x in readings(a) {
                for y in readings(b) {
                    let exact = match op {
                        BinOp::Add => x.plus(y),
                        BinOp::Sub => y.scale(-1).and_then(|ny| x.plus(ny)),
                        _ => x.times(y),
                    };
                    if let Some(exact) = exact {
                        r.narrow_by_exact(exact);
                    }
                }
            }
        }
        BinOp::And => r.narrow_unsigned(Interval::new(0, a.unsigned.hi.min(b.unsigned.hi))),
        BinOp::Or | BinOp::Xor => {
            let top = a.unsigned.hi.max(b.unsigned.hi);
            let bits = 128 - top.leading_zeros();
            r.narrow_unsigned(Interval::new(0, (1i128 << bits) - 1));
        }
        _ => {}
    }
    if let BinOp::And | BinOp::Or | BinOp::Xor = op {
        // Operands whose bits from k - 1 up are copies of their sign give a
        // result whose bits from k - 1 up are copies of its own: C's
        // conditional negation `(x ^ s) - s` with `s = x >> 31` stays
        // within x's bits, and so does not overflow.
        let k = a.signed.signed_bits().max(b.signed.signed_bits());
        if k < r.width {
            r.narrow_signed(Interval::new(-(1i128 << (k - 1)), (1i128 << (k - 1)) - 1));
        }
    }
    match op {
        BinOp::LShr | BinOp::UDiv => r.narrow_unsigned(Interval::new(0, a.unsigned.hi)),
        // By a known amount below the width: floor division by 2^k, which
        // keeps the order of values.
        BinOp::AShr if b.unsigned.lo == b.unsigned.hi && b.unsigned.hi < r.width as i128 => {
            let k = b.unsigned.hi;
            r.narrow_signed(Interval::new(a.signed.lo >> k, a.signed.hi >> k));
        }
        BinOp::URem => r.narrow_unsigned(Interval::new(0, a.unsigned.hi.min((b.unsigned.hi - 1).max(0)))),
        _ => {}
    }
}

/// The exact values of `x * x` for `x` in `x`: None when a bound overflows.
fn square(x: Interval) -> Option<Interval> {
    let (lo2, hi2) = (x.lo.checked_mul(x.lo)?, x.hi.checked_mul(x.hi)?);
    Some(if x.lo >= 0 {
        Interval::new(lo2, hi2)
    } else if x.hi <= 0 {
        Interval::new(hi2, lo2)
    } else {
        Interval::new(0, lo2.max(hi2))
    })
}

/// What a comparison of `a` and `b` must answer, when their ranges decide it.
pub fn decided_comparison(op: CmpOp, a: Range, b: Range) -> Option<bool> {
    let (x, y) = match op {
        CmpOp::Ult | CmpOp::Ule => (a.unsigned, b.unsigned),
        CmpOp::Slt | CmpOp::Sle => (a.signed, b.signed),
        CmpOp::Eq => {
            let disjoint = |x: Interval, y: Interval| x.hi < y.lo || y.hi < x.lo;
            return (disjoint(a.unsigned, b.unsigned) || disjoint(a.signed, b.signed)).then_some(false);
        }
    };
    let strict = matches!(op, CmpOp::Ult | CmpOp::Slt);
    if (strict && x.hi < y.lo) || (!strict && x.hi <= y.lo) {
        return Some(true);
    }
    if (strict && x.lo >= y.hi) || (!strict && x.lo > y.hi) {
        return Some(false);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Read signed, a concat is its high part (signed) scaled, plus its low
    /// part: a 16-bit sign extension of a byte on top of a byte lies in
    /// [-128 * 256, 127 * 256 + 255], not the whole 24-bit range, so a sum
    /// of two such values is known not to overflow 32 bits.
    #[test]
    fn concat_is_ranged_signed_through_its_high_part() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 2);
        let (b0, b1) = (p.input_byte(a, 0), p.input_byte(a, 1));
        let high = p.sext(b0, 16);
        let joined = p.concat(high, b1);
        let mut ranges = RangeAnalysis::new();
        let r = ranges.range(&p, joined);
        assert_eq!(r.signed, Interval::new(-128 * 256, 127 * 256 + 255));
        assert_eq!(r.unsigned, Interval::new(0, (1 << 24) - 1));
    }

    /// `x < 0 ? 0 - x : x` is never negative, and `31 < v ? 31 : v` never
    /// above 31: a select's sides are ranged where the select takes them.
    #[test]
    fn a_select_is_ranged_by_its_comparison_with_a_number() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 2);
        let (b0, b1) = (p.input_byte(a, 0), p.input_byte(a, 1));
        let (x0, x1) = (p.zext(b0, 32), p.zext(b1, 32));
        let x = p.sub(x0, x1);
        let zero = p.constant(32, 0);
        let negative = p.cmp(CmpOp::Slt, x, zero);
        let minus = p.sub(zero, x);
        let abs = p.ite(negative, minus, x);
        let mut ranges = RangeAnalysis::new();
        assert_eq!(ranges.range(&p, abs).signed, Interval::new(0, 255));
        let thirty_one = p.constant(32, 31);
        let above = p.cmp(CmpOp::Slt, thirty_one, abs);
        let clipped = p.ite(above, thirty_one, abs);
        assert_eq!(ranges.range(&p, clipped).signed, Interval::new(0, 31));
        // Spelt with the negation of the opposite test: the same bound.
        let at_most = p.cmp(CmpOp::Sle, abs, thirty_one);
        let not_at_most = p.not(at_most);
        let clipped_too = p.ite(not_at_most, thirty_one, abs);
        assert_eq!(ranges.range(&p, clipped_too).signed, Interval::new(0, 31));
        // max(x, 0 - x), the SIMD spelling of abs: never negative where
        // 0 - x cannot wrap, and the most negative value where it can.
        let below_negation = p.cmp(CmpOp::Slt, x, minus);
        let max = p.ite(below_negation, minus, x);
        assert_eq!(ranges.range(&p, max).signed, Interval::new(0, 255));
        let word = p.input_word(a, 0, 16);
        let zero16 = p.constant(16, 0);
        let minus_word = p.sub(zero16, word);
        let word_below = p.cmp(CmpOp::Slt, word, minus_word);
        let wrapping = p.ite(word_below, minus_word, word);
        assert_eq!(ranges.range(&p, wrapping).signed.lo, -32768);
        // A comparison with another value bounds nothing.
        let other = p.cmp(CmpOp::Slt, x, x1);
        let plain = p.ite(other, minus, x);
        assert_eq!(ranges.range(&p, plain).signed, Interval::new(-255, 255));
    }

    /// A saturating subtraction of two bytes, `d < -16384 ? -32768 :
    /// (16383 < d ? 32767 : d)` on 17 bits (as a 16-bit lane's clamp is
    /// built), never clamps: its comparisons are decided by the ranges of
    /// their operands and the select is the difference alone, [-255, 255].
    /// A comparison left open keeps both sides.
    #[test]
    fn a_select_on_a_decided_comparison_takes_one_side() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 2);
        let (b0, b1) = (p.input_byte(a, 0), p.input_byte(a, 1));
        let (w0, w1) = (p.zext(b0, 16), p.zext(b1, 16));
        let (s0, s1) = (p.sext(w0, 17), p.sext(w1, 17));
        let d = p.sub(s0, s1);
        let low = p.extract(d, 0, 16);
        let (top17, bottom17) = (p.constant(17, 0x3fff), p.constant(17, 0x1c000));
        let (top, bottom) = (p.constant(16, 0x7fff), p.constant(16, 0x8000));
        let above = p.cmp(CmpOp::Slt, top17, d);
        let below = p.cmp(CmpOp::Slt, d, bottom17);
        let high_clamped = p.ite(above, top, low);
        let clamped = p.ite(below, bottom, high_clamped);
        let mut ranges = RangeAnalysis::new();
        assert_eq!(ranges.range(&p, above).unsigned, Interval::point(0));
        assert_eq!(ranges.range(&p, clamped).signed, Interval::new(-255, 255));
        // Always true: the other side is dropped.
        let within = p.not(above);
        let kept = p.ite(within, low, top);
        assert_eq!(ranges.range(&p, kept).signed, Interval::new(-255, 255));
        // The square of the lane, widened, is at most 255^2: a sum of 16
        // such squares minus another fits 32 bits without a query.
        let wide = p.sext(clamped, 32);
        let square = p.mul(wide, wide);
        assert_eq!(ranges.range(&p, square).signed, Interval::new(0, 65025));
        // Open (d may exceed 100): both sides.
        let hundred = p.constant(17, 100);
        let open = p.cmp(CmpOp::Slt, hundred, d);
        let cut = p.ite(open, top, low);
        assert_eq!(ranges.range(&p, open).unsigned, Interval::new(0, 1));
        assert_eq!(ranges.range(&p, cut).signed, Interval::new(-255, 32767));
    }

    /// A lazy read through writes of the counters 1 and 2, at the read's
    /// own offset first, is 1 or 2: ranged byte by byte, the base never
    /// reached.
    #[test]
    fn a_lazy_read_is_ranged_by_the_bytes_written() {
        use crate::expr::Update;
        use std::rc::Rc;
        let mut p = ExprPool::new();
        let a = p.new_array("i", 2);
        let (i0, i1) = (p.input_byte(a, 0), p.input_byte(a, 1));
        let four = p.constant(64, 4);
        let (z0, z1) = (p.zext(i0, 64), p.zext(i1, 64));
        let (o0, o1) = (p.mul(z0, four), p.mul(z1, four));
        let one = p.constant(32, 1);
        let two = p.constant(32, 2);
        let bytes_of = |p: &mut ExprPool, v: ExprId| (0..4).map(|k| Some(p.extract(v, 8 * k, 8))).collect();
        let first = Rc::new(Update { offset: o0, residue: (4, 0), bytes: bytes_of(&mut p, one), older: None });
        let second = Rc::new(Update { offset: o1, residue: (4, 0), bytes: bytes_of(&mut p, two), older: Some(first) });
        let base = p.constant(32, 0);
        let read = p.log_read(second, o0, (4, 0), base);
        let mut ranges = RangeAnalysis::new();
        let r = ranges.range(&p, read);
        assert_eq!(r.unsigned, Interval::new(1, 2));
        assert_eq!(r.signed, Interval::new(1, 2));
        // At another offset the base may be read: 0 to 2.
        let other = p.add(o1, four);
        let first = Rc::new(Update { offset: o0, residue: (4, 0), bytes: bytes_of(&mut p, one), older: None });
        let read = p.log_read(first, other, (4, 0), base);
        assert_eq!(ranges.range(&p, read).unsigned, Interval::new(0, 1));
    }
}
