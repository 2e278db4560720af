//! Range facts read from a path condition: every constraint of the form
//! `x < c`, `x <= c`, `c < x`, `x == c` (signed or unsigned, negated or
//! not, joined by `and`, compared with 0 as C does with `&`, or by the
//! selects C's `&&` and `||` make), and the range check `x + c <u k` that compilers
//! make of `lo <= x && x < hi`, bounds `x`. Extensions are looked through:
//! a bound on `sext32(x)` that fits `x` bounds `x` too.

use super::interval::{Interval, Range};
use crate::expr::{to_signed, BinOp, CmpOp, Expr, ExprId, ExprPool};
use rustc_hash::FxHashMap;

/// Constraints of a path looked at, at most (each is cheap to read).
const MAX_CONSTRAINTS: usize = 100_000;

/// The facts `path` (a conjunction, each constraint true) gives, and
/// those of the values shifted right: a bound on a 16-bit input word bounds
/// `word >> 1`, which the builders write as a concatenation of its bytes'
/// bits (the shapes are built in `pool`).
pub fn path_facts(pool: &mut ExprPool, path: &[ExprId]) -> FxHashMap<ExprId, Range> {
    let mut facts = direct_facts(pool, path);
    let mut bounded: Vec<(ExprId, Range)> = facts.iter().map(|(e, r)| (*e, *r)).collect();
    bounded.sort_by_key(|(e, _)| *e);
    for (e, r) in bounded {
        let w = r.width;
        for offset in 1..w {
            let shifted = pool.extract(e, offset, w - offset);
            let signed = Interval::new(r.signed.lo >> offset, r.signed.hi >> offset);
            let unsigned = Interval::new(r.unsigned.lo >> offset, r.unsigned.hi >> offset);
            record(pool, &mut facts, shifted, true, signed);
            record(pool, &mut facts, shifted, false, unsigned);
        }
    }
    facts
}

/// The facts the constraints of `path` state directly.
fn direct_facts(pool: &ExprPool, path: &[ExprId]) -> FxHashMap<ExprId, Range> {
    let mut facts: FxHashMap<ExprId, Range> = FxHashMap::default();
    // Each item: whether `e` is nonzero (for a 1-bit value: true).
    let mut stack: Vec<(ExprId, bool)> = path.iter().take(MAX_CONSTRAINTS).map(|c| (*c, true)).collect();
    while let Some((e, nonzero)) = stack.pop() {
        match pool.get(e).into_owned() {
            Expr::Not(x) if pool.width(e) == 1 => stack.push((x, !nonzero)),
            // x & y nonzero: both are; x | y zero: both are.
            Expr::Bin(BinOp::And, x, y) if nonzero => stack.extend([(x, true), (y, true)]),
            Expr::Bin(BinOp::Or, x, y) if !nonzero => stack.extend([(x, false), (y, false)]),
            // An extension is nonzero when its operand is (C's `cond != 0`).
            Expr::ZExt(x, _) | Expr::SExt(x, _) => stack.push((x, nonzero)),
            // A select one of whose sides is a constant that cannot give
            // the value's truth: the condition is decided, and the other
            // side has that truth (C's `a && b` is `a ? b : 0`, `a || b`
            // is `a ? 1 : b`).
            Expr::Ite(c, t, f) if pool.as_const(t).is_some_and(|v| (v != 0) != nonzero) => stack.extend([(c, false), (f, nonzero)]),
            Expr::Ite(c, t, f) if pool.as_const(f).is_some_and(|v| (v != 0) != nonzero) => stack.extend([(c, true), (t, nonzero)]),
            Expr::Cmp(CmpOp::Eq, x, zero) if pool.as_const(zero) == Some(0) => {
                stack.push((x, !nonzero));
                comparison(pool, &mut facts, CmpOp::Eq, x, zero, nonzero);
            }
            Expr::Cmp(op, a, b) => comparison(pool, &mut facts, op, a, b, nonzero),
            _ => {}
        }
    }
    facts
}

fn record(pool: &ExprPool, facts: &mut FxHashMap<ExprId, Range>, x: ExprId, signed: bool, bound: Interval) {
    let w = pool.width(x);
    if !Range::tracked(w) || pool.is_const(x) {
        return;
    }
    let full = if signed { Interval::signed_full(w) } else { Interval::unsigned_full(w) };
    let Some(bound) = bound.meet(full) else { return };
    let entry = facts.entry(x).or_insert(Range::full(w));
    if signed {
        entry.narrow_signed(bound);
    } else {
        entry.narrow_unsigned(bound);
    }
    // Through an extension: the bound holds for the operand when it fits
    // the operand's own reading of the same kind.
    match *pool.get(x) {
        Expr::SExt(inner, _) if signed => record(pool, facts, inner, true, bound),
        Expr::ZExt(inner, _) if !signed => record(pool, facts, inner, false, bound),
        Expr::ZExt(inner, _) if bound.lo >= 0 => record(pool, facts, inner, false, bound),
        _ => {}
    }
}

/// The facts of `a op b` when it `holds` (or fails).
fn comparison(pool: &ExprPool, facts: &mut FxHashMap<ExprId, Range>, op: CmpOp, a: ExprId, b: ExprId, holds: bool) {
    let w = pool.width(a);
    if !Range::tracked(w) {
        return;
    }
    let signed = matches!(op, CmpOp::Slt | CmpOp::Sle);
    let read = |v: u128| if signed { to_signed(v, w) } else { v as i128 };
    let full = if signed { Interval::signed_full(w) } else { Interval::unsigned_full(w) };
    match (pool.as_const(a), pool.as_const(b)) {
        (None, Some(c)) => {
            let c = read(c);
            let bound = match (op, holds) {
                (CmpOp::Eq, true) => Some(Interval::point(c)),
                (CmpOp::Eq, false) => None,
                // x < c, x <= c, and their negations x >= c, x > c.
                (CmpOp::Ult | CmpOp::Slt, true) => (c > full.lo).then(|| Interval::new(full.lo, c - 1)),
                (CmpOp::Ule | CmpOp::Sle, true) => Some(Interval::new(full.lo, c)),
                (CmpOp::Ult | CmpOp::Slt, false) => Some(Interval::new(c, full.hi)),
                (CmpOp::Ule | CmpOp::Sle, false) => (c < full.hi).then(|| Interval::new(c + 1, full.hi)),
            };
            if let Some(bound) = bound {
                if op == CmpOp::Eq {
                    record(pool, facts, a, false, Interval::point(pool.as_const(b).unwrap_or(0) as i128));
                } else {
                    record(pool, facts, a, signed, bound);
                }
                if op == CmpOp::Ult && holds {
                    offset_range_check(pool, facts, a, c);
                }
            }
        }
        (Some(c), None) => {
            let c = read(c);
            let bound = match (op, holds) {
                (CmpOp::Eq, true) => {
                    record(pool, facts, b, false, Interval::point(c));
                    None
                }
                (CmpOp::Eq, false) => None,
                // c < x, c <= x, and their negations x <= c, x < c.
                (CmpOp::Ult | CmpOp::Slt, true) => (c < full.hi).then(|| Interval::new(c + 1, full.hi)),
                (CmpOp::Ule | CmpOp::Sle, true) => Some(Interval::new(c, full.hi)),
                (CmpOp::Ult | CmpOp::Slt, false) => Some(Interval::new(full.lo, c)),
                (CmpOp::Ule | CmpOp::Sle, false) => (c > full.lo).then(|| Interval::new(full.lo, c - 1)),
            };
            if let Some(bound) = bound {
                record(pool, facts, b, signed, bound);
            }
        }
        _ => {}
    }
}

/// `x + c <u k` holds: `x` is in `[-c, k - c)` read as a signed number,
/// when that interval does not wrap.
fn offset_range_check(pool: &ExprPool, facts: &mut FxHashMap<ExprId, Range>, sum: ExprId, k: i128) {
    let Expr::Bin(BinOp::Add, x, c) = *pool.get(sum) else { return };
    let Some(c) = pool.as_const(c) else { return };
    let w = pool.width(sum);
    let c = to_signed(c, w);
    let (lo, hi) = (-c, k - 1 - c);
    if lo <= hi && Interval::new(lo, hi).within(Interval::signed_full(w)) {
        record(pool, facts, x, true, Interval::new(lo, hi));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranges::RangeAnalysis;

    /// A 16-bit input word bounded to 12 bits the way a harness writes
    /// it: `(x >= -2048) & (x <= 2047)` on the value widened to int.
    #[test]
    fn twelve_bit_bounds_reach_the_word() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 2);
        let x = p.input_word(a, 0, 16);
        let x32 = p.sext(x, 32);
        let lo = p.constant(32, (-2048i128) as u128);
        let hi = p.constant(32, 2047);
        let below = p.cmp(CmpOp::Slt, x32, lo);
        let ge = p.not(below);
        let le = p.cmp(CmpOp::Sle, x32, hi);
        let both = p.and(ge, le);
        let facts = path_facts(&mut p, &[both]);
        let mut r = RangeAnalysis::with_facts(facts);
        assert_eq!(r.range(&p, x).signed, Interval::new(-2048, 2047));
        assert_eq!(r.range(&p, x32).signed, Interval::new(-2048, 2047));
        // x >> 1, as the builders write it.
        let one = p.constant(16, 1);
        let half = p.bin(BinOp::AShr, x, one);
        assert_eq!(r.range(&p, half).signed, Interval::new(-1024, 1023));
    }

    /// `x >= -2048 && x < 2048` as a select (`a ? b : 0`), and the
    /// negation of `x < -2048 || x >= 2048` (`a ? 1 : b`), bound `x`.
    #[test]
    fn short_circuit_bounds_reach_the_word() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 2);
        let x = p.input_word(a, 0, 16);
        let x32 = p.sext(x, 32);
        let lo = p.constant(32, (-2048i128) as u128);
        let hi = p.constant(32, 2048);
        let below = p.cmp(CmpOp::Slt, x32, lo);
        let ge = p.not(below);
        let lt = p.cmp(CmpOp::Slt, x32, hi);
        let (f, t) = (p.bool_const(false), p.bool_const(true));
        let both = p.ite(ge, lt, f);
        let mut r = RangeAnalysis::with_facts(path_facts(&mut p, &[both]));
        assert_eq!(r.range(&p, x).signed, Interval::new(-2048, 2047));
        let above = p.not(lt);
        let either = p.ite(below, t, above);
        let neither = p.not(either);
        let mut r = RangeAnalysis::with_facts(path_facts(&mut p, &[neither]));
        assert_eq!(r.range(&p, x).signed, Interval::new(-2048, 2047));
        // One side alone is no bound on both ends.
        let one = p.ite(ge, t, lt);
        let mut r = RangeAnalysis::with_facts(path_facts(&mut p, &[one]));
        assert_eq!(r.range(&p, x).signed, Interval::signed_full(16));
    }

    #[test]
    fn offset_check_bounds_the_operand() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 4);
        let x = p.input_word(a, 0, 32);
        let c = p.constant(32, 2048);
        let s = p.add(x, c);
        let k = p.constant(32, 4096);
        let lt = p.cmp(CmpOp::Ult, s, k);
        let mut r = RangeAnalysis::with_facts(path_facts(&mut p, &[lt]));
        assert_eq!(r.range(&p, x).signed, Interval::new(-2048, 2047));
    }
}
