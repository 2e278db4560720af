//! Translation between the expression DAG and the e-graph language.
//!
//! Into the e-graph: memoised over `ExprId`, so a node shared in the DAG is
//! added once. Back out: an extracted `RecExpr` is rebuilt through the
//! simplifying builders, so what comes back is an ordinary `ExprId` that the
//! printer can show in an explanation. `build_op` is the one place that maps
//! an operator to the DAG; the analysis uses it for constant folding, so the
//! e-graph folds with exactly the semantics of `expr/fold.rs`.

use super::lang::{CanonLang, Literal, Op, SetOp};
use super::CanonGraph;
use crate::expr::{Expr, ExprId, ExprPool, Outcomes};
use egg::{Id, RecExpr};
use rustc_hash::FxHashMap;

/// Why an e-graph term has no DAG counterpart.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TranslateError {
    #[error("outcome-set term `{0}` is not a value")]
    /// An outcome set where a value is needed.
    SetIsNotAValue(String),
    #[error("`{0}` applied to {1} operands")]
    /// An operator given the wrong number of operands.
    Arity(String, usize),
    #[error("ill-typed term `{0}`: {1}")]
    /// Operand widths or formats that do not fit the operator.
    IllTyped(String, String),
}

/// The e-node of DAG node `id`, given the e-graph ids of its children.
/// `set` is the id of the outcome-set literal for an FCmp.
fn node_of(pool: &ExprPool, id: ExprId, kids: &[Id], set: Option<Id>) -> CanonLang {
    let node = |op: Op, ids: Vec<Id>| CanonLang::Node(op, ids);
    match &*pool.get(id) {
        Expr::Const { width, value } => CanonLang::Lit(Literal::Const { width: *width, value: *value }),
        Expr::Input { array, index } => CanonLang::Lit(Literal::Input { array: *array, index: *index }),
        Expr::Fresh { id, width } => CanonLang::Lit(Literal::Fresh { id: *id, width: *width }),
        Expr::Bin(op, ..) => node(Op::Bin(*op), kids.to_vec()),
        Expr::Not(_) => node(Op::Not, kids.to_vec()),
        Expr::Cmp(op, ..) => node(Op::Cmp(*op), kids.to_vec()),
        Expr::Ite(..) => node(Op::Ite, kids.to_vec()),
        Expr::Concat(..) => node(Op::Concat, kids.to_vec()),
        Expr::Extract { offset, width, .. } => node(Op::Extract { offset: *offset, width: *width }, kids.to_vec()),
        Expr::ZExt(_, w) => node(Op::ZExt(*w), kids.to_vec()),
        Expr::SExt(_, w) => node(Op::SExt(*w), kids.to_vec()),
        Expr::FBin(op, f, ..) => node(Op::FBin(*op, *f), kids.to_vec()),
        Expr::FUn(op, f, _) => node(Op::FUn(*op, *f), kids.to_vec()),
        Expr::Fma(f, ..) => node(Op::Fma(*f), kids.to_vec()),
        Expr::FCmp(_, f, ..) => {
            let s = set.expect("fcmp has a set literal");
            node(Op::FCmp(*f), vec![s, kids[0], kids[1]])
        }
        Expr::FpToInt { signed, rounding, from, width, .. } => {
            node(Op::FpToInt { signed: *signed, rounding: *rounding, from: *from, width: *width }, kids.to_vec())
        }
        Expr::IntToFp { signed, to, value } => node(Op::IntToFp { signed: *signed, from: pool.width(*value), to: *to }, kids.to_vec()),
        Expr::FpConvert { from, to, .. } => node(Op::FpConvert { from: *from, to: *to }, kids.to_vec()),
        Expr::Apply(app) => node(Op::Apply { function: app.function.to_string(), width: app.width }, kids.to_vec()),
        // A function of its operands for the one list of writes it reads
        // through: equal operands give equal reads, nothing more is used.
        // A function of its position for the one input it reads: equal
        // positions give equal bytes, nothing more is used.
        Expr::InputAt { array, .. } => node(Op::Apply { function: format!("input_at_{array}"), width: 8 }, kids.to_vec()),
        Expr::LogRead(r) => {
            let function = format!("logread_{:x}", std::rc::Rc::as_ptr(&r.newest) as usize);
            node(Op::Apply { function, width: pool.width(id) }, kids.to_vec())
        }
    }
}

/// Adds `root` and everything below it; `memo` shares nodes across calls.
pub(crate) fn add_expr(egraph: &mut CanonGraph, pool: &ExprPool, root: ExprId, memo: &mut FxHashMap<ExprId, Id>) -> Id {
    add_with(pool, root, memo, &mut |n| egraph.add(n))
}

/// The DAG below `root` as one `RecExpr` (shared nodes once).
pub fn to_recexpr(pool: &ExprPool, root: ExprId) -> RecExpr<CanonLang> {
    let mut rec = RecExpr::default();
    let mut memo = FxHashMap::default();
    add_with(pool, root, &mut memo, &mut |n| rec.add(n));
    rec
}

fn add_with(pool: &ExprPool, root: ExprId, memo: &mut FxHashMap<ExprId, Id>, add: &mut dyn FnMut(CanonLang) -> Id) -> Id {
    let mut stack = vec![(root, false)];
    while let Some((id, expanded)) = stack.pop() {
        if memo.contains_key(&id) {
            continue;
        }
        let kids = pool.children(id);
        if !expanded {
            stack.push((id, true));
            stack.extend(kids.iter().filter(|k| !memo.contains_key(k)).map(|k| (*k, false)));
            continue;
        }
        let kid_ids: Vec<Id> = kids.iter().map(|k| memo[k]).collect();
        let set = match &*pool.get(id) {
            Expr::FCmp(s, ..) => Some(add(CanonLang::Lit(Literal::Set(s.0)))),
            _ => None,
        };
        let n = add(node_of(pool, id, &kid_ids, set));
        memo.insert(id, n);
    }
    memo[&root]
}

/// A built child: a DAG value or an outcome set.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Built {
    Value(ExprId),
    Set(u8),
}

/// Folds an outcome-set operation.
pub(crate) fn fold_set_op(op: SetOp, args: &[u8]) -> u8 {
    let o = Outcomes(args[0]);
    match op {
        SetOp::Union => args[0] | args[1],
        SetOp::Inter => args[0] & args[1],
        SetOp::Compl => o.complement().0,
        SetOp::Swap => o.swapped().0,
        SetOp::Drop(bit) => args[0] & !bit,
    }
}

/// Builds one literal in the DAG.
pub(crate) fn build_literal(pool: &mut ExprPool, lit: &Literal) -> Built {
    match *lit {
        Literal::Const { width, value } => Built::Value(pool.constant(width, value)),
        Literal::Input { array, index } => Built::Value(pool.input_byte(array, index)),
        Literal::Fresh { id, width } => Built::Value(pool.intern(Expr::Fresh { id, width })),
        Literal::Set(s) => Built::Set(s),
    }
}

/// Builds `op` over built children through the simplifying builders.
/// Checks the widths the builders would otherwise assert on.
pub(crate) fn build_op(pool: &mut ExprPool, op: &Op, args: &[Built]) -> Result<Built, TranslateError> {
    if let Some(n) = op.arity() {
        if n != args.len() {
            return Err(TranslateError::Arity(op.to_string(), args.len()));
        }
    }
    if let Op::SetOp(s) = op {
        let sets: Vec<u8> = args
            .iter()
            .map(|a| match a {
                Built::Set(s) => Ok(*s),
                Built::Value(_) => Err(TranslateError::IllTyped(op.to_string(), "operand is not a set".into())),
            })
            .collect::<Result<_, _>>()?;
        return Ok(Built::Set(fold_set_op(*s, &sets)));
    }
    let (set, vals) = split_set(op, args)?;
    check_widths(pool, op, &vals)?;
    let v = |i: usize| vals[i];
    let r = match op {
        Op::Bin(b) => pool.bin(*b, v(0), v(1)),
        Op::Not => pool.not(v(0)),
        Op::Cmp(c) => pool.cmp(*c, v(0), v(1)),
        Op::Ite => pool.ite(v(0), v(1), v(2)),
        Op::Concat => pool.concat(v(0), v(1)),
        Op::Extract { offset, width } => pool.extract(v(0), *offset, *width),
        Op::ZExt(w) => pool.zext(v(0), *w),
        Op::SExt(w) => pool.sext(v(0), *w),
        Op::FBin(b, f) => pool.fbin(*b, *f, v(0), v(1)),
        Op::FUn(u, f) => pool.fun(*u, *f, v(0)),
        Op::Fma(f) => pool.fma(*f, v(0), v(1), v(2)),
        Op::FCmp(f) => pool.fcmp(Outcomes(set.unwrap_or(0)), *f, v(0), v(1)),
        Op::FpToInt { signed, rounding, from, width } => pool.fp_to_int(*signed, *rounding, *from, v(0), *width),
        Op::IntToFp { signed, to, .. } => pool.int_to_fp(*signed, *to, v(0)),
        Op::FpConvert { from, to } => pool.fp_convert(*from, *to, v(0)),
        Op::Apply { function, width } => pool.apply(function, vals.clone(), *width),
        Op::SetOp(_) => unreachable!("handled above"),
    };
    Ok(Built::Value(r))
}

fn split_set(op: &Op, args: &[Built]) -> Result<(Option<u8>, Vec<ExprId>), TranslateError> {
    let ill = |m: &str| TranslateError::IllTyped(op.to_string(), m.to_string());
    let mut set = None;
    let mut vals = Vec::new();
    for (i, a) in args.iter().enumerate() {
        match (a, matches!(op, Op::FCmp(_)) && i == 0) {
            (Built::Set(s), true) => set = Some(*s),
            (Built::Value(v), false) => vals.push(*v),
            (Built::Set(_), false) => return Err(ill("a set where a value is expected")),
            (Built::Value(_), true) => return Err(ill("a value where an outcome set is expected")),
        }
    }
    Ok((set, vals))
}

/// Width rules of each operator (what the builders assert).
fn check_widths(pool: &ExprPool, op: &Op, vals: &[ExprId]) -> Result<(), TranslateError> {
    let w: Vec<u32> = vals.iter().map(|v| pool.width(*v)).collect();
    let ok = match op {
        Op::Bin(_) | Op::Cmp(_) => w[0] == w[1],
        Op::Not | Op::Apply { .. } => true,
        Op::Ite => w[0] == 1 && w[1] == w[2],
        Op::Concat => w[0] + w[1] <= 128,
        Op::Extract { offset, width } => *width > 0 && offset + width <= w[0],
        Op::ZExt(n) | Op::SExt(n) => *n >= w[0] && *n <= 128,
        Op::FBin(_, f) => w[0] == f.width() && w[1] == f.width(),
        Op::FUn(_, f) => w[0] == f.width(),
        Op::Fma(f) => w.iter().all(|x| *x == f.width()),
        Op::FCmp(f) => w[0] == f.width() && w[1] == f.width(),
        Op::FpToInt { from, width, .. } => w[0] == from.width() && *width > 0 && *width <= 128,
        Op::IntToFp { from, .. } => w[0] == *from,
        Op::FpConvert { from, .. } => w[0] == from.width(),
        Op::SetOp(_) => true,
    };
    if ok {
        Ok(())
    } else {
        Err(TranslateError::IllTyped(op.to_string(), format!("operand widths {w:?}")))
    }
}

/// Rebuilds an extracted term in the DAG.
pub fn from_recexpr(pool: &mut ExprPool, rec: &RecExpr<CanonLang>) -> Result<ExprId, TranslateError> {
    let mut built: Vec<Built> = Vec::with_capacity(rec.len());
    for node in rec.as_ref() {
        let b = match node {
            CanonLang::Lit(l) => build_literal(pool, l),
            CanonLang::Node(op, kids) => {
                let args: Vec<Built> = kids.iter().map(|k| built[usize::from(*k)]).collect();
                build_op(pool, op, &args)?
            }
        };
        built.push(b);
    }
    match built.last() {
        Some(Built::Value(v)) => Ok(*v),
        _ => Err(TranslateError::SetIsNotAValue(rec.to_string())),
    }
}
