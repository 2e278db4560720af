//! Reassociation by normal form: under `--assume associativity`, every chain
//! of floating-point `+`/`-` (and of `*`) becomes one n-ary sum (product)
//! whose operands are sorted, so two sides that differ only in how a
//! reduction is grouped meet in one linear-time pass. An e-graph closure of
//! the same rules grows like the Bell numbers in the number of terms.
//!
//! Each step is an instance of a rule of `rewrite-rules/` that `symcross
//! rules verify` proves (or that the user's permission grants):
//! - grouping: `fadd-assoc`, `fmul-assoc` (the `associativity` permission);
//! - order: `fadd-commute`, `fmul-commute` (laws: NaN results are canonical);
//! - `x - y` as `x + (-y)`: `fsub-as-fadd` (a law);
//! - constant terms combine by constant folding (grouping again);
//! - a `-0` term vanishes under `ordered` (`fadd-negzero`), a `+0` term under
//!   `positive-zero` and `ordered` (`fadd-zero`), or under `positive-zero`
//!   alone when two or more other terms remain (`fadd-zero-of-sum`: the
//!   sum of the others is itself an addition, whose NaN is canonical), a
//!   `1` factor under `ordered` (`fmul-one`).
//!
//! `-(x + y)` is not distributed: `-(x + -x)` is -0 while `-x + x` is +0.

use crate::assumptions::{Assumption, Assumptions};
use crate::expr::{Expr, ExprId, ExprPool, FBinOp, FpFormat};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Which identity terms may be dropped, from the enabled assumptions.
#[derive(Copy, Clone, Debug)]
struct Identities {
    negative_zero_term: bool,
    positive_zero_term: bool,
    /// A `+0` term of a sum of two or more other terms (`fadd-zero-of-sum`):
    /// the sum is an operation's result either way, so a NaN is the
    /// canonical NaN with or without the zero, and only `positive-zero` is
    /// needed.
    positive_zero_term_of_sum: bool,
    unit_factor: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum ChainOp {
    Sum,
    Product,
}

/// What a node became: a plain expression, or a chain whose expression is
/// built only when something other than the same chain uses it (so a serial
/// sum of n terms costs O(n) nodes, not O(n^2)).
#[derive(Clone)]
enum Normal {
    Plain(ExprId),
    Chain { op: ChainOp, format: FpFormat, terms: Rc<Vec<ExprId>> },
}

/// Rewrites expressions into reassociation normal form; keeps its memo
/// across calls so both sides of a check share the work.
pub struct Reassociator {
    identities: Identities,
    normal: FxHashMap<ExprId, Normal>,
    built: FxHashMap<ExprId, ExprId>,
}

impl Reassociator {
    /// `None` unless `associativity` is enabled.
    pub fn new(assumptions: Assumptions) -> Option<Self> {
        if !assumptions.has(Assumption::Associativity) {
            return None;
        }
        let ordered = assumptions.closure().has(Assumption::Ordered);
        let identities = Identities {
            negative_zero_term: ordered,
            positive_zero_term: ordered && assumptions.has(Assumption::PositiveZero),
            positive_zero_term_of_sum: assumptions.has(Assumption::PositiveZero),
            unit_factor: ordered,
        };
        Some(Reassociator { identities, normal: FxHashMap::default(), built: FxHashMap::default() })
    }

    /// The normal form of `root`. Iterative: depth is bounded by memory only.
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
            self.normal.insert(id, n);
        }
        self.expr_of(pool, root)
    }

    fn normal_of(&mut self, pool: &mut ExprPool, id: ExprId) -> Normal {
        let node = pool.get(id).into_owned();
        let (op, format, terms) = match node {
            Expr::FBin(FBinOp::Add, f, a, b) => {
                let mut t = self.terms(pool, a, ChainOp::Sum, f);
                t.extend(self.terms(pool, b, ChainOp::Sum, f));
                (ChainOp::Sum, f, t)
            }
            Expr::FBin(FBinOp::Sub, f, a, b) => {
                let mut t = self.terms(pool, a, ChainOp::Sum, f);
                let eb = self.expr_of(pool, b);
                t.push(pool.fneg(f, eb));
                (ChainOp::Sum, f, t)
            }
            Expr::FBin(FBinOp::Mul, f, a, b) => {
                let mut t = self.terms(pool, a, ChainOp::Product, f);
                t.extend(self.terms(pool, b, ChainOp::Product, f));
                (ChainOp::Product, f, t)
            }
            _ => {
                let children: Vec<ExprId> = pool.children(id).into_iter().map(|c| self.expr_of(pool, c)).collect();
                return Normal::Plain(pool.rebuild(id, &children));
            }
        };
        let terms = self.simplify(pool, op, format, terms);
        if terms.len() == 1 {
            return Normal::Plain(terms[0]);
        }
        Normal::Chain { op, format, terms: Rc::new(terms) }
    }

    /// The operands `child` contributes to a chain of `op`: its own terms
    /// when it is a chain of the same kind, else itself.
    fn terms(&mut self, pool: &mut ExprPool, child: ExprId, op: ChainOp, format: FpFormat) -> Vec<ExprId> {
        match self.normal.get(&child) {
            Some(Normal::Chain { op: o, format: f, terms }) if *o == op && *f == format => terms.as_ref().clone(),
            _ => vec![self.expr_of(pool, child)],
        }
    }

    /// Constants combined into one, identity terms dropped, the rest sorted.
    fn simplify(&self, pool: &mut ExprPool, op: ChainOp, f: FpFormat, terms: Vec<ExprId>) -> Vec<ExprId> {
        let fop = match op {
            ChainOp::Sum => FBinOp::Add,
            ChainOp::Product => FBinOp::Mul,
        };
        let (mut constants, mut rest): (Vec<ExprId>, Vec<ExprId>) = terms.into_iter().partition(|t| pool.is_const(*t));
        constants.sort();
        let folded = constants.into_iter().reduce(|acc, c| pool.fbin(fop, f, acc, c));
        if let Some(c) = folded {
            let value = pool.as_const(c).unwrap_or(0);
            let identity = match op {
                ChainOp::Sum => {
                    let sign = 1u128 << (f.width() - 1);
                    let positive_zero =
                        self.identities.positive_zero_term || (self.identities.positive_zero_term_of_sum && rest.len() >= 2);
                    (value == sign && self.identities.negative_zero_term) || (value == 0 && positive_zero)
                }
                ChainOp::Product => value == one(f) && self.identities.unit_factor,
            };
            if !identity || rest.is_empty() {
                rest.push(c);
            }
        }
        rest.sort();
        rest
    }

    /// The expression of a normalised node; chains are built on demand as a
    /// left fold of their sorted terms.
    fn expr_of(&mut self, pool: &mut ExprPool, id: ExprId) -> ExprId {
        let Some(n) = self.normal.get(&id) else { return id };
        match n {
            Normal::Plain(e) => *e,
            Normal::Chain { op, format, terms } => {
                if let Some(e) = self.built.get(&id) {
                    return *e;
                }
                let fop = if *op == ChainOp::Sum { FBinOp::Add } else { FBinOp::Mul };
                let (f, terms) = (*format, terms.clone());
                let e = terms.iter().copied().reduce(|acc, t| pool.fbin(fop, f, acc, t)).expect("a chain has terms");
                self.built.insert(id, e);
                e
            }
        }
    }
}

/// The bits of 1.0 in format `f`.
fn one(f: FpFormat) -> u128 {
    let bias = (1u128 << (f.exponent_bits() - 1)) - 1;
    bias << (f.significand_bits() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Assumptions {
        Assumptions::USER
    }

    fn floats(p: &mut ExprPool, n: u32) -> Vec<ExprId> {
        let a = p.new_array("v", 4 * n);
        (0..n).map(|i| p.input_word(a, 4 * i, 32)).collect()
    }

    #[test]
    fn serial_and_tree_sums_meet() {
        let mut p = ExprPool::new();
        let v = floats(&mut p, 64);
        let f = FpFormat::Single;
        let zero = p.constant(32, 0);
        let serial = v.iter().fold(zero, |acc, x| p.fbin(FBinOp::Add, f, acc, *x));
        let mut level = v.clone();
        while level.len() > 1 {
            level = level.chunks(2).map(|c| p.fbin(FBinOp::Add, f, c[0], c[1])).collect();
        }
        let mut r = Reassociator::new(all()).unwrap();
        let a = r.normalize(&mut p, serial);
        let b = r.normalize(&mut p, level[0]);
        assert_eq!(a, b);
        // Dropping a term is not hidden by the normal form.
        let short = v[..63].iter().fold(zero, |acc, x| p.fbin(FBinOp::Add, f, acc, *x));
        assert_ne!(r.normalize(&mut p, short), b);
    }

    #[test]
    fn zero_terms_need_their_assumptions() {
        let mut p = ExprPool::new();
        let v = floats(&mut p, 2);
        let f = FpFormat::Single;
        let zero = p.constant(32, 0);
        let with_zero = p.fbin(FBinOp::Add, f, zero, v[0]);
        let with_zero = p.fbin(FBinOp::Add, f, with_zero, v[1]);
        let plain = p.fbin(FBinOp::Add, f, v[1], v[0]);
        let only_assoc = Assumptions::of(&[Assumption::Associativity]);
        let mut r = Reassociator::new(only_assoc).unwrap();
        assert_ne!(r.normalize(&mut p, with_zero), r.normalize(&mut p, plain));
        let mut r = Reassociator::new(all()).unwrap();
        assert_eq!(r.normalize(&mut p, with_zero), r.normalize(&mut p, plain));
        assert!(Reassociator::new(Assumptions::default()).is_none());
    }

    #[test]
    fn a_zero_term_of_a_longer_sum_needs_positive_zero_only() {
        let mut p = ExprPool::new();
        let v = floats(&mut p, 3);
        let f = FpFormat::Single;
        let zero = p.constant(32, 0);
        let add = |p: &mut ExprPool, x, y| p.fbin(FBinOp::Add, f, x, y);
        // 0 + v0 + v1 against v1 + v0: two other terms, the zero goes.
        let z01 = add(&mut p, zero, v[0]);
        let z01 = add(&mut p, z01, v[1]);
        let plain = add(&mut p, v[1], v[0]);
        let pz = Assumptions::of(&[Assumption::Associativity, Assumption::PositiveZero]);
        let mut r = Reassociator::new(pz).unwrap();
        assert_eq!(r.normalize(&mut p, z01), r.normalize(&mut p, plain));
        // 0 + v2 against v2: the sum is a canonical NaN where v2 is a NaN
        // of another payload, so the zero stays without `ordered`.
        let z2 = add(&mut p, zero, v[2]);
        assert_ne!(r.normalize(&mut p, z2), v[2]);
        // -0 + v0 + v1 keeps its -0 term without `ordered`.
        let minus_zero = p.constant(32, 0x8000_0000);
        let m01 = add(&mut p, minus_zero, v[0]);
        let m01 = add(&mut p, m01, v[1]);
        assert_ne!(r.normalize(&mut p, m01), r.normalize(&mut p, plain));
        // Without positive-zero the zero stays (-0 + +0 is +0).
        let mut r = Reassociator::new(Assumptions::of(&[Assumption::Associativity])).unwrap();
        assert_ne!(r.normalize(&mut p, z01), r.normalize(&mut p, plain));
    }

    #[test]
    fn subtraction_is_adding_the_negation() {
        let mut p = ExprPool::new();
        let v = floats(&mut p, 3);
        let f = FpFormat::Single;
        // (a - b) + c and a + (c - b)
        let ab = p.fbin(FBinOp::Sub, f, v[0], v[1]);
        let left = p.fbin(FBinOp::Add, f, ab, v[2]);
        let cb = p.fbin(FBinOp::Sub, f, v[2], v[1]);
        let right = p.fbin(FBinOp::Add, f, v[0], cb);
        let only_assoc = Assumptions::of(&[Assumption::Associativity]);
        let mut r = Reassociator::new(only_assoc).unwrap();
        assert_eq!(r.normalize(&mut p, left), r.normalize(&mut p, right));
    }

    #[test]
    fn products_regroup() {
        let mut p = ExprPool::new();
        let v = floats(&mut p, 2);
        let (k, t) = (v[0], v[1]);
        let f = FpFormat::Single;
        let kt = p.fbin(FBinOp::Mul, f, k, t);
        let left = p.fbin(FBinOp::Mul, f, kt, t);
        let tt = p.fbin(FBinOp::Mul, f, t, t);
        let right = p.fbin(FBinOp::Mul, f, tt, k);
        let only_assoc = Assumptions::of(&[Assumption::Associativity]);
        let mut r = Reassociator::new(only_assoc).unwrap();
        assert_eq!(r.normalize(&mut p, left), r.normalize(&mut p, right));
    }

    #[test]
    fn deep_chains_do_not_recurse() {
        let mut p = ExprPool::new();
        let v = floats(&mut p, 1);
        let f = FpFormat::Single;
        let one_bits = p.constant(32, one(f));
        let mut e = v[0];
        for _ in 0..200_000 {
            e = p.fbin(FBinOp::Div, f, e, v[0]);
            e = p.fbin(FBinOp::Add, f, e, one_bits);
        }
        let mut r = Reassociator::new(all()).unwrap();
        let n = r.normalize(&mut p, e);
        assert_eq!(p.width(n), 32);
    }
}
