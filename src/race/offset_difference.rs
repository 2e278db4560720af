//! Deciding, without the solver, that two accesses to one object never
//! touch the same byte. Most race pairs of a kernel are at offsets that
//! differ by a known amount, though neither is known: `p[c + 1]` and
//! `p[c + 2]` for a counter `c` that an atomic handed out, `4 * zext(i)` and
//! `4 * zext(i + 1)`. The difference `a - b` then takes one of a few values
//! whatever the inputs are, and the pair is decided by looking at them.
//! A pair with 44 atomics on one counter for each of 1,024 work-items makes
//! millions of such pairs; one solver query each was the run.
//!
//! Sound by construction: the set returned holds every value `a - b` can
//! take (modulo 2^width), so "no value of the set lets the byte ranges
//! meet" means they never meet. Bytes `a + k` (k < la) and `b + m` (m < lb)
//! are the same byte exactly when `a - b = m - k` modulo 2^64, that is when
//! `a - b`, read as a signed number, lies in `(-la, lb)`. When the set is
//! unknown or a value lies in that window, the caller asks the solver, as
//! before.

use crate::expr::{BinOp, Expr, ExprId, ExprPool};
use smallvec::SmallVec;

/// The values a difference can take.
type Differences = SmallVec<[u128; 4]>;

/// More values than this and the set is given up (the solver decides).
const MAX_VALUES: usize = 8;

/// How deep into the two expressions the comparison looks: a bound, so
/// that no expression's depth can make it recurse without end.
pub const MAX_DEPTH: u32 = 24;

/// True when the byte ranges `[a, a + la)` and `[b, b + lb)` of one object
/// can never share a byte, whatever the inputs.
pub fn never_overlap(pool: &ExprPool, a: ExprId, la: u64, b: ExprId, lb: u64) -> bool {
    let width = pool.width(a);
    if width != pool.width(b) || width != 64 || la == 0 || lb == 0 {
        return false;
    }
    let Some(diffs) = differences(pool, a, b, MAX_DEPTH) else { return false };
    diffs.iter().all(|&d| {
        let signed = d as u64 as i64 as i128;
        signed <= -(la as i128) || signed >= lb as i128
    })
}

/// Every value `a - b` can take modulo 2^width, or None when that is not
/// known to be a short list.
pub fn differences(pool: &ExprPool, a: ExprId, b: ExprId, depth: u32) -> Option<Differences> {
    let width = pool.width(a);
    if pool.width(b) != width || width > 128 {
        return None;
    }
    let mask = if width == 128 { u128::MAX } else { (1u128 << width) - 1 };
    if a == b {
        return Some(smallvec::smallvec![0]);
    }
    if depth == 0 {
        return None;
    }
    let (ea, eb) = (pool.get(a), pool.get(b));
    let shift = |set: Differences, by: u128| -> Differences { set.into_iter().map(|d| d.wrapping_add(by) & mask).collect() };
    match (&*ea, &*eb) {
        (Expr::Const { value: x, .. }, Expr::Const { value: y, .. }) => return Some(smallvec::smallvec![x.wrapping_sub(*y) & mask]),
        (Expr::Bin(BinOp::Mul, a1, a2), Expr::Bin(BinOp::Mul, b1, b2)) if a2 == b2 => {
            let k = pool.as_const(*a2)?;
            let inner = differences(pool, *a1, *b1, depth - 1)?;
            return Some(inner.into_iter().map(|d| d.wrapping_mul(k) & mask).collect());
        }
        (Expr::Bin(BinOp::Shl, a1, a2), Expr::Bin(BinOp::Shl, b1, b2)) if a2 == b2 => {
            let k = pool.as_const(*a2)?;
            if k >= width as u128 {
                return Some(smallvec::smallvec![0]);
            }
            let inner = differences(pool, *a1, *b1, depth - 1)?;
            return Some(inner.into_iter().map(|d| (d << k) & mask).collect());
        }
        // zext(x) - zext(y) is x - y taken as unsigned, or that minus
        // 2^n; sext(x) - sext(y) likewise (both lie in (-2^n, 2^n)).
        (Expr::ZExt(a1, _), Expr::ZExt(b1, _)) | (Expr::SExt(a1, _), Expr::SExt(b1, _)) => {
            let n = pool.width(*a1);
            if n != pool.width(*b1) || n >= width {
                return None;
            }
            let inner = differences(pool, *a1, *b1, depth - 1)?;
            let mut out = Differences::new();
            for d in inner {
                out.push(d);
                if d != 0 {
                    out.push(d.wrapping_sub(1u128 << n) & mask);
                }
            }
            return capped(out);
        }
        // x:l - y:l (the same low bits l, as a shift by a constant
        // builds) is (x - y) shifted up past l.
        (Expr::Concat(a1, lo_a), Expr::Concat(b1, lo_b)) if lo_a == lo_b => {
            let low_bits = pool.width(*lo_a);
            let inner = differences(pool, *a1, *b1, depth - 1)?;
            return Some(inner.into_iter().map(|d| (d << low_bits) & mask).collect());
        }
        // The low bits of a difference are the difference of the low bits.
        (Expr::Extract { value: a1, offset: 0, .. }, Expr::Extract { value: b1, offset: 0, .. }) => {
            let inner = differences(pool, *a1, *b1, depth - 1)?;
            let mut out = Differences::new();
            for d in inner.into_iter().map(|d| d & mask) {
                if !out.contains(&d) {
                    out.push(d);
                }
            }
            return Some(out);
        }
        (Expr::Bin(BinOp::Add, a1, a2), Expr::Bin(BinOp::Add, b1, b2)) if a1 == b1 => return differences(pool, *a2, *b2, depth - 1),
        (Expr::Bin(BinOp::Add, a1, a2), Expr::Bin(BinOp::Add, b1, b2)) if a2 == b2 => return differences(pool, *a1, *b1, depth - 1),
        _ => {}
    }
    // Peel a constant term off either side: (x + c) - y = (x - y) + c.
    if let Some((x, c)) = plus_constant(pool, &ea) {
        return differences(pool, x, b, depth - 1).map(|s| shift(s, c));
    }
    if let Some((y, c)) = plus_constant(pool, &eb) {
        return differences(pool, a, y, depth - 1).map(|s| shift(s, c.wrapping_neg()));
    }
    linear_difference(pool, a, b, width).map(|d| smallvec::smallvec![d])
}

/// More terms than this in a sum and it is not taken apart.
const MAX_TERMS: usize = 16;

/// `a - b` when it is one number: both sides are sums of terms times
/// constants whose terms cancel (`(x + y) - (y + (x + 1))` is -1, whatever
/// order the sums were built in). Sums, differences, products and left
/// shifts by constants are exact modulo 2^width, so the number is exact.
fn linear_difference(pool: &ExprPool, a: ExprId, b: ExprId, width: u32) -> Option<u128> {
    let mask = if width >= 128 { u128::MAX } else { (1u128 << width) - 1 };
    let mut terms: SmallVec<[(ExprId, u128); MAX_TERMS]> = SmallVec::new();
    let mut constant = 0u128;
    let mut budget = 4 * MAX_TERMS;
    linear_terms(pool, a, 1, mask, &mut terms, &mut constant, &mut budget)?;
    linear_terms(pool, b, mask, mask, &mut terms, &mut constant, &mut budget)?;
    terms.iter().all(|&(_, k)| k == 0).then_some(constant)
}

/// Adds `scale * e` to `terms + constant` (modulo `mask + 1`), taking sums
/// and products by constants apart; None past the term or node budget.
fn linear_terms(
    pool: &ExprPool,
    e: ExprId,
    scale: u128,
    mask: u128,
    terms: &mut SmallVec<[(ExprId, u128); MAX_TERMS]>,
    constant: &mut u128,
    budget: &mut usize,
) -> Option<()> {
    *budget = budget.checked_sub(1)?;
    if let Some(c) = pool.as_const(e) {
        *constant = constant.wrapping_add(c.wrapping_mul(scale)) & mask;
        return Some(());
    }
    match *pool.get(e) {
        Expr::Bin(BinOp::Add, x, y) => {
            linear_terms(pool, x, scale, mask, terms, constant, budget)?;
            return linear_terms(pool, y, scale, mask, terms, constant, budget);
        }
        Expr::Bin(BinOp::Sub, x, y) => {
            linear_terms(pool, x, scale, mask, terms, constant, budget)?;
            return linear_terms(pool, y, scale.wrapping_neg() & mask, mask, terms, constant, budget);
        }
        Expr::Bin(BinOp::Mul, x, y) => {
            let factor = match (pool.as_const(x), pool.as_const(y)) {
                (_, Some(k)) => Some((x, k)),
                (Some(k), None) => Some((y, k)),
                _ => None,
            };
            if let Some((x, k)) = factor {
                return linear_terms(pool, x, scale.wrapping_mul(k) & mask, mask, terms, constant, budget);
            }
        }
        Expr::Bin(BinOp::Shl, x, y) => {
            if let Some(k) = pool.as_const(y).filter(|&k| k < 128 && mask >> k != 0) {
                return linear_terms(pool, x, scale.wrapping_mul(1u128 << k) & mask, mask, terms, constant, budget);
            }
        }
        _ => {}
    }
    if let Some((_, k)) = terms.iter_mut().find(|(t, _)| *t == e) {
        *k = k.wrapping_add(scale) & mask;
        return Some(());
    }
    if terms.len() == MAX_TERMS {
        return None;
    }
    terms.push((e, scale));
    Some(())
}

/// `x + c` or `x - c` with a constant `c`, as `(x, c)` (a subtraction as
/// the addition of `-c`).
fn plus_constant(pool: &ExprPool, e: &Expr) -> Option<(ExprId, u128)> {
    match e {
        Expr::Bin(BinOp::Add, x, y) => match (pool.as_const(*x), pool.as_const(*y)) {
            (_, Some(c)) => Some((*x, c)),
            (Some(c), None) => Some((*y, c)),
            _ => None,
        },
        Expr::Bin(BinOp::Sub, x, y) => pool.as_const(*y).map(|c| (*x, c.wrapping_neg())),
        _ => None,
    }
}

fn capped(set: Differences) -> Option<Differences> {
    (set.len() <= MAX_VALUES).then_some(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(p: &mut ExprPool, name: &str, bytes: u32) -> ExprId {
        let a = p.new_array(name, bytes);
        p.input_word(a, 0, bytes * 8)
    }

    #[test]
    fn counter_slots_never_meet() {
        let mut p = ExprPool::new();
        let c = word(&mut p, "c", 4);
        let one = p.constant(32, 1);
        let two = p.constant(32, 2);
        let (c1, c2) = (p.add(c, one), p.add(c, two));
        let four = p.constant(64, 4);
        let (z1, z2) = (p.zext(c1, 64), p.zext(c2, 64));
        let (o1, o2) = (p.mul(z1, four), p.mul(z2, four));
        assert!(never_overlap(&p, o1, 4, o2, 4));
        // Eight-byte accesses at slots four bytes apart do meet.
        assert!(!never_overlap(&p, o1, 8, o2, 4));
        // The same slot meets itself.
        assert!(!never_overlap(&p, o1, 4, o1, 4));
    }

    #[test]
    fn unrelated_offsets_are_left_to_the_solver() {
        let mut p = ExprPool::new();
        let x = word(&mut p, "x", 8);
        let y = word(&mut p, "y", 8);
        assert!(differences(&p, x, y, MAX_DEPTH).is_none());
        assert!(!never_overlap(&p, x, 4, y, 4));
    }

    /// Sums built in different orders: `(x*8 + (x*8)*64) - ((x*8)*64 + (x*8 + 1))`
    /// is -1 whatever x is, and through a sign extension -1 or -1 - 2^32.
    #[test]
    fn sums_in_any_order_are_compared_term_by_term() {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 4);
        let x = p.input_word(arr, 0, 32);
        let (eight, sixty_four, one) = (p.constant(32, 8), p.constant(32, 64), p.constant(32, 1));
        let x8 = p.mul(x, eight);
        let row = p.mul(x8, sixty_four);
        let a = p.add(x8, row);
        let x8_1 = p.add(x8, one);
        let b = p.add(row, x8_1);
        let (sa, sb) = (p.sext(a, 64), p.sext(b, 64));
        let d = differences(&p, sa, sb, MAX_DEPTH).expect("known");
        for v in [0u32, 1, 3, 0x0fff_ffff, 0x1000_0000, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff] {
            let mut m = crate::expr::Assignment::default();
            m.arrays.insert(arr, v.to_le_bytes().to_vec());
            let ev = |p: &ExprPool, e| crate::expr::evaluate(p, e, &m);
            assert!(d.contains(&(ev(&p, sa).wrapping_sub(ev(&p, sb)) & u64::MAX as u128)), "{v}: {d:?}");
        }
        let four = p.constant(64, 4);
        let (fa, fb) = (p.mul(sa, four), p.mul(sb, four));
        assert!(never_overlap(&p, fa, 4, fb, 4));
        // x*8 and x*9 differ by x: not one number.
        let nine = p.constant(32, 9);
        let x9 = p.mul(x, nine);
        assert!(differences(&p, x8, x9, MAX_DEPTH).is_none());
    }

    /// Every value claimed possible is checked against evaluation on many
    /// inputs: the true difference is always in the set.
    #[test]
    fn the_set_holds_every_difference() {
        let mut p = ExprPool::new();
        let arr = p.new_array("i", 2);
        let i = p.input_word(arr, 0, 16);
        let k = p.constant(16, 0xfffe);
        let ik = p.add(i, k);
        let (zi, zk) = (p.zext(i, 64), p.zext(ik, 64));
        let (si, sk) = (p.sext(i, 64), p.sext(ik, 64));
        let three = p.constant(64, 3);
        let (a, b) = (p.bin(BinOp::Shl, zi, three), p.bin(BinOp::Shl, zk, three));
        let d1 = differences(&p, a, b, MAX_DEPTH).expect("known");
        let d2 = differences(&p, si, sk, MAX_DEPTH).expect("known");
        for v in [0u16, 1, 2, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff] {
            let mut m = crate::expr::Assignment::default();
            m.arrays.insert(arr, v.to_le_bytes().to_vec());
            let ev = |p: &ExprPool, e| crate::expr::evaluate(p, e, &m);
            assert!(d1.contains(&(ev(&p, a).wrapping_sub(ev(&p, b)) & u64::MAX as u128)), "{v}: {d1:?}");
            assert!(d2.contains(&(ev(&p, si).wrapping_sub(ev(&p, sk)) & u64::MAX as u128)), "{v}: {d2:?}");
        }
    }
}
