//! The e-class analysis: what is known about every class.
//!
//! * `width`: the bit width of the values (None for outcome sets).
//! * `konst`: the constant value, folded through `translate::build_op`, i.e.
//!   with the bit-exact semantics of `expr/fold.rs`; the constant literal is
//!   then added to the class so that patterns mentioning `1.0:F` match.
//! * `set`: the outcome set of a set-valued class (folds `ounion` etc.).
//! * `cats`: KLEE-CL category set, read as the format of the class width
//!   (16, 32, 64 bits are half, single, double).

use super::category::Categories;
use super::lang::{CanonLang, Literal, Op};
use super::translate::{build_literal, build_op, Built};
use crate::expr::{ExprPool, FpFormat, Width};
use egg::{DidMerge, EGraph, Id};

/// Facts about one e-class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassData {
    /// Bit width of the class's values; `None` for outcome sets.
    pub width: Option<Width>,
    /// The class's constant value, when it folds to one.
    pub konst: Option<u128>,
    /// The outcome set, for a set-valued class.
    pub set: Option<u8>,
    /// Which float categories the values may be in (read in the format of the width).
    pub cats: Categories,
}

/// The analysis; owns a scratch pool used only for constant folding.
#[derive(Default)]
pub struct CanonAnalysis {
    scratch: ExprPool,
}

impl CanonAnalysis {
    /// Folds constants with the NaN model of the pool being proved about.
    pub fn with_nan_model(nan: crate::expr::NanModel) -> Self {
        CanonAnalysis { scratch: ExprPool::with_nan_model(nan) }
    }
}

type Graph = EGraph<CanonLang, CanonAnalysis>;

fn fp_of(width: Option<Width>) -> Option<FpFormat> {
    width.and_then(FpFormat::from_width)
}

impl CanonAnalysis {
    /// Folds `op` over constant children, if they all are constant.
    fn fold(&mut self, op: &Op, kids: &[&ClassData]) -> Option<Built> {
        let mut args = Vec::with_capacity(kids.len());
        for k in kids {
            let b = match (k.konst, k.set, k.width) {
                (_, Some(s), _) => Built::Set(s),
                (Some(v), _, Some(w)) => build_literal(&mut self.scratch, &Literal::Const { width: w, value: v }),
                _ => return None,
            };
            args.push(b);
        }
        // Uninterpreted functions do not fold.
        if matches!(op, Op::Apply { .. }) {
            return None;
        }
        build_op(&mut self.scratch, op, &args).ok()
    }
}

fn node_width(op: &Op, kids: &[&ClassData]) -> Option<Width> {
    let w = |i: usize| kids.get(i).and_then(|k| k.width);
    match op {
        Op::Bin(_) | Op::Not => w(0),
        Op::Cmp(_) | Op::FCmp(_) => Some(1),
        Op::Ite => w(1),
        Op::Concat => Some(w(0)? + w(1)?),
        Op::Extract { width, .. } => Some(*width),
        Op::ZExt(n) | Op::SExt(n) => Some(*n),
        Op::FBin(_, f) | Op::FUn(_, f) | Op::Fma(f) => Some(f.width()),
        Op::FpToInt { width, .. } => Some(*width),
        Op::IntToFp { to, .. } => Some(to.width()),
        Op::FpConvert { to, .. } => Some(to.width()),
        Op::Apply { width, .. } => Some(*width),
        Op::SetOp(_) => None,
    }
}

fn node_cats(op: &Op, kids: &[&ClassData]) -> Categories {
    let c = |i: usize| kids[i].cats;
    match op {
        Op::FBin(b, _) => Categories::fbin(*b, c(0), c(1)),
        Op::FUn(u, _) => Categories::fun(*u, c(0)),
        Op::IntToFp { signed, from, to } => Categories::int_to_fp(*signed, *from, *to),
        Op::FpConvert { from, to } => Categories::convert(c(0), from.width() < to.width()),
        Op::Ite => Categories(c(1).0 | c(2).0),
        _ => Categories::ALL,
    }
}

/// Categories of `ite(c, t, e)`. When `c` is an ordered comparison (no
/// unordered outcome) of which `t` is an operand, `t` is only chosen when it
/// is not NaN: this is what makes `min(Z, +inf)` never NaN (KLEE-CL 6.3).
fn ite_cats(egraph: &Graph, ids: &[Id]) -> Categories {
    let (c, t, e) = (egraph.find(ids[0]), egraph.find(ids[1]), egraph.find(ids[2]));
    let guarded = egraph[c].nodes.iter().any(|n| match n {
        CanonLang::Node(Op::FCmp(_), k) => {
            let ordered = egraph[k[0]].data.set.is_some_and(|s| s & 8 == 0);
            ordered && (egraph.find(k[1]) == t || egraph.find(k[2]) == t)
        }
        _ => false,
    });
    let mut tc = egraph[t].data.cats.0;
    if guarded {
        tc &= !Categories::NAN;
    }
    Categories(tc | egraph[e].data.cats.0)
}

impl egg::Analysis<CanonLang> for CanonAnalysis {
    type Data = ClassData;

    fn make(egraph: &mut Graph, enode: &CanonLang, _id: Id) -> ClassData {
        match enode {
            CanonLang::Lit(Literal::Set(s)) => ClassData { width: None, konst: None, set: Some(*s), cats: Categories::ALL },
            CanonLang::Lit(Literal::Const { width, value }) => {
                let cats = fp_of(Some(*width)).map_or(Categories::ALL, |f| Categories::of_const(f, *value));
                ClassData { width: Some(*width), konst: Some(*value), set: None, cats }
            }
            CanonLang::Lit(Literal::Input { .. }) => ClassData { width: Some(8), konst: None, set: None, cats: Categories::ALL },
            CanonLang::Lit(Literal::Fresh { width, .. }) => {
                ClassData { width: Some(*width), konst: None, set: None, cats: Categories::ALL }
            }
            CanonLang::Node(op, ids) => {
                let kids: Vec<ClassData> = ids.iter().map(|i| egraph[*i].data.clone()).collect();
                let refs: Vec<&ClassData> = kids.iter().collect();
                let width = node_width(op, &refs);
                let mut data = ClassData { width, konst: None, set: None, cats: Categories::ALL };
                match egraph.analysis.fold(op, &refs) {
                    Some(Built::Set(s)) => data.set = Some(s),
                    Some(Built::Value(v)) => {
                        let pool = &egraph.analysis.scratch;
                        data.konst = pool.as_const(v);
                        data.width = Some(pool.width(v));
                    }
                    None => {}
                }
                data.cats = match (data.konst, fp_of(data.width)) {
                    (Some(v), Some(f)) => Categories::of_const(f, v),
                    _ if fp_of(width).is_some() && *op == Op::Ite => ite_cats(egraph, ids),
                    _ if fp_of(width).is_some() => node_cats(op, &refs),
                    _ => Categories::ALL,
                };
                data
            }
        }
    }

    fn merge(&mut self, to: &mut ClassData, from: ClassData) -> DidMerge {
        let before = to.clone();
        if to.width.is_none() {
            to.width = from.width;
        }
        // Conflicting constants can only meet under an assumption that the
        // constants themselves violate; keep the first.
        if to.konst.is_none() {
            to.konst = from.konst;
        }
        if to.set.is_none() {
            to.set = from.set;
        }
        // Both are over-approximations of the same values.
        to.cats = Categories(to.cats.0 & from.cats.0);
        let from_changed = *to != from;
        DidMerge(*to != before, from_changed)
    }

    fn modify(egraph: &mut Graph, id: Id) {
        let data = egraph[id].data.clone();
        let lit = match (data.konst, data.width, data.set) {
            (_, _, Some(s)) => Literal::Set(s),
            (Some(value), Some(width), _) => Literal::Const { width, value },
            _ => return,
        };
        let added = egraph.add(CanonLang::Lit(lit));
        egraph.union(id, added);
    }
}
