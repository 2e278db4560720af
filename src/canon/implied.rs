//! KLEE-CL section 6.3: implied integer queries. When canonicalisation does
//! not prove a check, the failure condition F is replaced by a weaker,
//! integer-only condition Q (F implies Q, Fig. 11's `rw`): if Z3 finds Q
//! unsatisfiable, F is too and the check is proved. Q is built by `rw`, which
//! keeps the integer parts, replaces a floating-point equality in negative
//! position by `ce` (a condition that implies bitwise equality by matching
//! the two operand trees), and anything else with FP by true or false as the
//! polarity requires. Each float-to-int conversion is then abstracted by a
//! fresh integer (the same conversion, the same variable).
//! Not done: KLEE-CL's minOps/maxOps matching of min/max chains.

use super::lang::{CanonLang, Literal};
use super::translate::{from_recexpr, to_recexpr};
use crate::expr::{BinOp, CmpOp, Expr, ExprId, ExprPool, FBinOp, Outcomes};

/// True if `e` has FP operations outside float-to-int conversions (an
/// explicit stack and a visited set: expressions are deep, shared DAGs).
fn has_fp(pool: &ExprPool, e: ExprId) -> bool {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        match &*pool.get(e) {
            Expr::FpToInt { .. } => {}
            Expr::FBin(..) | Expr::FUn(..) | Expr::Fma(..) | Expr::FCmp(..) | Expr::IntToFp { .. } | Expr::FpConvert { .. } => return true,
            _ => stack.extend(pool.children(e)),
        }
    }
    false
}

/// Bounds the recursion of `rw` and `ce`, which follow the shape of the
/// expressions (and `ce` may try two pairings at each commutative node).
/// Past either bound they give their always-sound answer (`ce`: false,
/// `rw`: the trivial condition), so the query is only weaker. Counted in
/// calls, never in time, so the result does not depend on the machine.
struct Walk {
    depth: u32,
    calls: u32,
}

impl Walk {
    const MAX_DEPTH: u32 = 2000;
    const MAX_CALLS: u32 = 200_000;

    fn new() -> Walk {
        Walk { depth: 0, calls: 0 }
    }

    fn enter(&mut self) -> bool {
        if self.depth >= Self::MAX_DEPTH || self.calls >= Self::MAX_CALLS {
            return false;
        }
        self.depth += 1;
        self.calls += 1;
        true
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }
}

/// `rw'`: `negated` is KLEE-CL's n (under an odd number of negations the
/// result must imply the original; otherwise be implied by it).
fn rw(pool: &mut ExprPool, e: ExprId, negated: bool, walk: &mut Walk) -> ExprId {
    if !walk.enter() {
        return pool.bool_const(!negated);
    }
    let r = rw_node(pool, e, negated, walk);
    walk.leave();
    r
}

fn rw_node(pool: &mut ExprPool, e: ExprId, negated: bool, walk: &mut Walk) -> ExprId {
    if !has_fp(pool, e) {
        return e;
    }
    match pool.get(e).into_owned() {
        Expr::Bin(op @ (BinOp::And | BinOp::Or), a, b) if pool.width(e) == 1 => {
            let (x, y) = (rw(pool, a, negated, walk), rw(pool, b, negated, walk));
            pool.bin(op, x, y)
        }
        Expr::Not(a) if pool.width(e) == 1 => {
            let x = rw(pool, a, !negated, walk);
            pool.not(x)
        }
        Expr::Cmp(CmpOp::Eq, a, b) if negated => ce(pool, a, b, walk),
        Expr::FCmp(Outcomes(s), _, a, b) if negated && s == Outcomes::EQ | Outcomes::UNO => ce(pool, a, b, walk),
        Expr::FCmp(Outcomes(s), _, a, b) if !negated && s == Outcomes::LT | Outcomes::GT => {
            let c = ce(pool, a, b, walk);
            pool.not(c)
        }
        _ => pool.bool_const(!negated),
    }
}

/// `ce(a, b)`: a condition that implies `a == b` bitwise.
fn ce(pool: &mut ExprPool, a: ExprId, b: ExprId, walk: &mut Walk) -> ExprId {
    if !walk.enter() {
        return pool.bool_const(false);
    }
    let r = ce_node(pool, a, b, walk);
    walk.leave();
    r
}

fn ce_node(pool: &mut ExprPool, a: ExprId, b: ExprId, walk: &mut Walk) -> ExprId {
    if a == b {
        return pool.bool_const(true);
    }
    if pool.width(a) != pool.width(b) {
        return pool.bool_const(false);
    }
    if !has_fp(pool, a) && !has_fp(pool, b) {
        return pool.eq(a, b);
    }
    let all = |pool: &mut ExprPool, walk: &mut Walk, pairs: &[(ExprId, ExprId)]| {
        let mut acc = pool.bool_const(true);
        for (x, y) in pairs {
            let c = ce(pool, *x, *y, walk);
            acc = pool.and(acc, c);
        }
        acc
    };
    match (pool.get(a).into_owned(), pool.get(b).into_owned()) {
        (Expr::FBin(o0, f0, x0, y0), Expr::FBin(o1, f1, x1, y1)) if o0 == o1 && f0 == f1 => {
            let straight = all(pool, walk, &[(x0, x1), (y0, y1)]);
            // Commutative bit for bit only with canonical NaNs: with x86's
            // NaN bits (`--nan exact`) two NaN operands give the first
            // (fmin/fmax: the second), so the order matters.
            let commutative = pool.nan_model() == crate::expr::NanModel::Canonical;
            if commutative && matches!(o0, FBinOp::Add | FBinOp::Mul | FBinOp::Min | FBinOp::Max) {
                let crossed = all(pool, walk, &[(x0, y1), (y0, x1)]);
                pool.or(straight, crossed)
            } else {
                straight
            }
        }
        (Expr::FCmp(s0, f0, x0, y0), Expr::FCmp(s1, f1, x1, y1)) if f0 == f1 && (s0 == s1 || s0 == s1.swapped()) => {
            let mut options = Vec::new();
            if s0 == s1 {
                options.push(all(pool, walk, &[(x0, x1), (y0, y1)]));
            }
            if s0 == s1.swapped() {
                options.push(all(pool, walk, &[(x0, y1), (y0, x1)]));
            }
            options.into_iter().reduce(|p, q| pool.or(p, q)).expect("one option")
        }
        (Expr::IntToFp { signed: s0, to: t0, value: v0 }, Expr::IntToFp { signed: s1, to: t1, value: v1 }) if s0 == s1 && t0 == t1 => {
            let (w0, w1) = (pool.width(v0), pool.width(v1));
            let widen = |pool: &mut ExprPool, v: ExprId, w: u32| if s0 { pool.sext(v, w) } else { pool.zext(v, w) };
            let (v0, v1) = if w0 < w1 { (widen(pool, v0, w1), v1) } else { (v0, widen(pool, v1, w0)) };
            ce(pool, v0, v1, walk)
        }
        // Any other pair of nodes of the same kind and parameters: equal
        // operands give equal results (the operations are functions).
        (x, y) if same_shape(&x, &y) => {
            let pairs: Vec<(ExprId, ExprId)> = pool.children(a).into_iter().zip(pool.children(b)).collect();
            all(pool, walk, &pairs)
        }
        _ => pool.bool_const(false),
    }
}

/// Same operator and parameters, ignoring operands.
fn same_shape(x: &Expr, y: &Expr) -> bool {
    use Expr::*;
    match (x, y) {
        (Bin(a, ..), Bin(b, ..)) => a == b,
        (Not(_), Not(_)) | (Ite(..), Ite(..)) | (Concat(..), Concat(..)) => true,
        (Cmp(a, ..), Cmp(b, ..)) => a == b,
        (Extract { offset: o0, width: w0, .. }, Extract { offset: o1, width: w1, .. }) => o0 == o1 && w0 == w1,
        (ZExt(_, a), ZExt(_, b)) | (SExt(_, a), SExt(_, b)) => a == b,
        (FUn(a, f, _), FUn(b, g, _)) => a == b && f == g,
        (Fma(f, ..), Fma(g, ..)) => f == g,
        (FpConvert { from: a, to: b, .. }, FpConvert { from: c, to: d, .. }) => a == c && b == d,
        (FpToInt { signed: s, rounding: r, from: f, width: w, .. }, FpToInt { signed: s2, rounding: r2, from: f2, width: w2, .. }) => {
            s == s2 && r == r2 && f == f2 && w == w2
        }
        (Apply(x), Apply(y)) => x.function == y.function && x.width == y.width && x.args.len() == y.args.len(),
        _ => false,
    }
}

/// Replaces every float-to-int conversion by a fresh integer (one per
/// distinct conversion).
fn abstract_conversions(pool: &mut ExprPool, e: ExprId) -> Option<ExprId> {
    // `to_recexpr` shares nodes, so each distinct conversion is one node.
    let mut rec = to_recexpr(pool, e);
    let nodes: Vec<CanonLang> = rec.as_ref().to_vec();
    for (i, n) in nodes.iter().enumerate() {
        if let CanonLang::Node(super::lang::Op::FpToInt { width, .. }, _) = n {
            let v = pool.fresh(*width);
            let Expr::Fresh { id, width } = *pool.get(v) else { unreachable!("fresh builds a Fresh node") };
            rec[egg::Id::from(i)] = CanonLang::Lit(Literal::Fresh { id, width });
        }
    }
    let q = from_recexpr(pool, &rec).ok()?;
    (!pool.mentions_fp(q)).then_some(q)
}

/// An integer-only condition implied by `failure` (a width-1 expression:
/// "the check fails"). If the solver finds it unsatisfiable, so is
/// `failure`. `None` when nothing useful remains (the implied condition is
/// `true`, or FP could not be removed).
pub fn implied_integer_query(pool: &mut ExprPool, failure: ExprId) -> Option<ExprId> {
    let q = rw(pool, failure, false, &mut Walk::new());
    if pool.as_const(q) == Some(1) {
        return None;
    }
    abstract_conversions(pool, q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::FpFormat;

    #[test]
    fn commuted_sum_gives_an_unsatisfiable_integer_query() {
        // Fig. 12: Not(Eq(x + y, y + x)) rewrites to false.
        let mut p = ExprPool::new();
        let (x, y) = (p.fresh(32), p.fresh(32));
        let a = p.intern(Expr::FBin(FBinOp::Add, FpFormat::Single, x, y));
        let b = p.intern(Expr::FBin(FBinOp::Add, FpFormat::Single, y, x));
        let eq = p.eq(a, b);
        let fail = p.not(eq);
        assert_eq!(implied_integer_query(&mut p, fail), Some(p.bool_const(false)));
    }

    #[test]
    fn conversions_become_integer_variables() {
        let mut p = ExprPool::new();
        let (x, y) = (p.fresh(32), p.fresh(32));
        let s = p.fbin(FBinOp::Sub, FpFormat::Single, x, y);
        let i = p.fp_to_int(true, crate::expr::IntRounding::TowardZero, FpFormat::Single, s, 32);
        let s2 = p.fbin(FBinOp::Sub, FpFormat::Single, y, x);
        let j = p.fp_to_int(true, crate::expr::IntRounding::TowardZero, FpFormat::Single, s2, 32);
        let eq = p.eq(i, j);
        let fail = p.not(eq);
        let q = implied_integer_query(&mut p, fail).expect("an integer query");
        assert!(!p.mentions_fp(q));
        // x - y and y - x differ: the query stays satisfiable (not false).
        assert_ne!(p.as_const(q), Some(0));
    }
}
