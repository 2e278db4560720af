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
            Expr::Cmp(..) | Expr::FCmp(..) => r.narrow_unsigned(Interval::new(0, 1)),
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
                } else if x.unsigned.hi >> offset < (1i128 << width) {
                    r.narrow_unsigned(Interval::new(0, x.unsigned.hi >> offset));
                }
            }
            Expr::Concat(h, l) => {
                let wl = pool.width(l);
                let h = self.range_at(pool, h, d);
                r.narrow_unsigned(Interval::new(h.unsigned.lo << wl, (h.unsigned.hi << wl) | ((1i128 << wl) - 1)));
            }
            Expr::Not(x) => {
                let x = self.range_at(pool, x, d);
                let m = (1i128 << w) - 1;
                r.narrow_unsigned(Interval::new(m - x.unsigned.hi, m - x.unsigned.lo));
                r.narrow_signed(Interval::new(-1 - x.signed.hi, -1 - x.signed.lo));
            }
            Expr::Ite(_, t, f) => {
                let (t, f) = (self.range_at(pool, t, d), self.range_at(pool, f, d));
                r.narrow_unsigned(t.unsigned.join(f.unsigned));
                r.narrow_signed(t.signed.join(f.signed));
            }
            Expr::Bin(op, a, b) => {
                let (ra, rb) = (self.range_at(pool, a, d), self.range_at(pool, b, d));
                binary(&mut r, op, ra, rb);
            }
            _ => {}
        }
        r
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
