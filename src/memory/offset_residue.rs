//! What the low bits of a symbolic offset are known to be: `offset ≡ r
//! (mod m)` with `m` a power of two (an element index times the element
//! size, plus a field offset). An access at a symbolic offset then only
//! considers the positions it can reach, not every byte of the object.

use crate::expr::{BinOp, Expr, ExprId, ExprPool};

/// The largest modulus tracked.
const CAP: u64 = 1 << 32;

/// `(m, r)`: `e ≡ r (mod m)`, m a power of two (1 when nothing is known).
pub fn residue(pool: &ExprPool, e: ExprId, depth: u32) -> (u64, u64) {
    let width_cap = if pool.width(e) >= 32 { CAP } else { 1u64 << pool.width(e) };
    let (m, r) = residue_uncapped(pool, e, depth);
    let m = m.min(width_cap).max(1);
    (m, r % m)
}

fn residue_uncapped(pool: &ExprPool, e: ExprId, depth: u32) -> (u64, u64) {
    if let Some(c) = pool.as_const(e) {
        return (CAP, c as u64 % CAP);
    }
    if depth == 0 {
        return (1, 0);
    }
    let d = depth - 1;
    match *pool.get(e) {
        Expr::Bin(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let ((ma, ra), (mb, rb)) = (residue(pool, a, d), residue(pool, b, d));
            let m = ma.min(mb);
            let r = if op == BinOp::Add { ra.wrapping_add(rb) } else { ra.wrapping_sub(rb) };
            (m, r % m)
        }
        Expr::Bin(op @ (BinOp::Mul | BinOp::Shl), a, b) => {
            // x * f with x = r + k*m: x * f = r*f + k*m*f, and m*f is a
            // multiple of m * 2^(trailing zeros of f).
            let (x, factor) = match (op, pool.as_const(a), pool.as_const(b)) {
                (BinOp::Shl, _, Some(c)) if c < 32 => (a, 1u64 << c),
                (BinOp::Mul, _, Some(c)) => (a, c as u64),
                (BinOp::Mul, Some(c), _) => (b, c as u64),
                _ => return (1, 0),
            };
            if factor == 0 {
                return (CAP, 0);
            }
            let (mx, rx) = residue(pool, x, d);
            let m = ((mx as u128) << factor.trailing_zeros()).min(CAP as u128) as u64;
            (m, rx.wrapping_mul(factor) % m)
        }
        Expr::ZExt(x, _) | Expr::SExt(x, _) => residue(pool, x, d),
        // The low part decides the low bits (a shift left is built so).
        Expr::Concat(_, lo) => residue(pool, lo, d),
        Expr::Extract { value, offset: 0, .. } => residue(pool, value, d),
        Expr::Ite(_, t, f) => {
            let ((mt, rt), (mf, rf)) = (residue(pool, t, d), residue(pool, f, d));
            let mut m = mt.min(mf);
            while m > 1 && rt % m != rf % m {
                m /= 2;
            }
            (m, rt % m)
        }
        _ => (1, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_times_size_plus_field() {
        let mut p = ExprPool::new();
        let i = p.fresh(32);
        let i64_ = p.zext(i, 64);
        let sixteen = p.constant(64, 16);
        let four = p.constant(64, 4);
        let scaled = p.mul(i64_, sixteen);
        let off = p.add(scaled, four);
        assert_eq!(residue(&p, off, 8), (16, 4));
        let three = p.constant(64, 3);
        let odd = p.mul(i64_, three);
        assert_eq!(residue(&p, odd, 8), (1, 0));
        let two = p.constant(64, 2);
        let sh = p.bin(BinOp::Shl, i64_, two);
        assert_eq!(residue(&p, sh, 8).0, 4);
    }
}
