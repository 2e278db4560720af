//! Evaluation of an expression under a concrete assignment of the inputs.
//! Used to check witnesses and to show concrete values of both sides of a
//! mismatch.

use super::fold::*;
use super::*;

/// Concrete bytes for each input array, and values for fresh variables.
#[derive(Clone, Debug, Default)]
pub struct Assignment {
    /// Bytes of each input array, by array number.
    pub arrays: FxHashMap<u32, Vec<u8>>,
    /// Value of each fresh variable, by its id.
    pub fresh: FxHashMap<u32, u128>,
}

/// Evaluates `root` bottom-up; inputs missing from the assignment read as 0.
pub fn evaluate(pool: &ExprPool, root: ExprId, asg: &Assignment) -> u128 {
    evaluate_all(pool, &[root], asg)[&root]
}

/// The value of `e`: its constant, else its value under `model`, else
/// None (what a finding's message shows of a symbolic id or offset).
pub fn value_in(pool: &ExprPool, e: ExprId, model: Option<&Assignment>) -> Option<u128> {
    pool.as_const(e).or_else(|| model.map(|m| evaluate(pool, e, m)))
}

/// The value of every node below `roots` (the roots included), for callers
/// that need the intermediate values too: witness confirmation looks at
/// every floating-point operation a witness exercises.
pub fn evaluate_all(pool: &ExprPool, roots: &[ExprId], asg: &Assignment) -> FxHashMap<ExprId, u128> {
    let mut memo: FxHashMap<ExprId, u128> = FxHashMap::default();
    evaluate_into(pool, roots, asg, &mut memo);
    memo
}

/// Adds to `memo` the value of every node below `roots` that it lacks, for
/// callers that evaluate a growing DAG under one assignment (equivalence
/// sweeping evaluates each node it builds once per sample).
pub fn evaluate_into(pool: &ExprPool, roots: &[ExprId], asg: &Assignment, memo: &mut FxHashMap<ExprId, u128>) {
    let mut stack: Vec<(ExprId, bool)> = roots.iter().map(|r| (*r, false)).collect();
    while let Some((id, expanded)) = stack.pop() {
        if memo.contains_key(&id) {
            continue;
        }
        if !expanded {
            stack.push((id, true));
            for c in pool.children(id) {
                if !memo.contains_key(&c) {
                    stack.push((c, false));
                }
            }
            continue;
        }
        let r = evaluate_node(pool, id, asg, |e: &ExprId| memo[e]);
        memo.insert(id, r);
    }
}

/// The value of node `id` from the values of its operands (`v`), inputs
/// read from `asg`: one step of [`evaluate_into`], for evaluators that keep
/// the operands' values their own way (exhaustive evaluation of one input).
pub fn evaluate_node(pool: &ExprPool, id: ExprId, asg: &Assignment, v: impl Fn(&ExprId) -> u128) -> u128 {
    let w = pool.width(id);
    match &*pool.get(id) {
        Expr::Const { value, .. } => *value,
        Expr::Input { array, index } => asg.arrays.get(array).and_then(|b| b.get(*index as usize)).copied().unwrap_or(0) as u128,
        Expr::Fresh { id: f, .. } => asg.fresh.get(f).copied().unwrap_or(0),
        Expr::Bin(op, a, b) => fold_bin(*op, w, v(a), v(b)),
        Expr::Not(a) => !v(a) & mask(w),
        Expr::Cmp(op, a, b) => fold_cmp(*op, pool.width(*a), v(a), v(b)) as u128,
        Expr::Ite(c, t, e) => {
            if v(c) != 0 {
                v(t)
            } else {
                v(e)
            }
        }
        Expr::Concat(h, l) => (v(h) << pool.width(*l)) | v(l),
        Expr::Extract { value, offset, width } => (v(value) >> offset) & mask(*width),
        Expr::ZExt(a, _) => v(a),
        Expr::SExt(a, _) => to_signed(v(a), pool.width(*a)) as u128 & mask(w),
        Expr::FBin(op, f, a, b) => fold_fbin_in(pool.nan_model(), *op, *f, v(a), v(b)),
        Expr::FUn(op, f, a) => fold_fun_in(pool.nan_model(), *op, *f, v(a)),
        Expr::Fma(f, a, b, c) => {
            let (x, y, z) = (v(a), v(b), v(c));
            let r = fold_fma(*f, x, y, z).unwrap_or_else(|| half_fma(x, y, z));
            fma_nan_in(pool.nan_model(), *f, x, y, z, r)
        }
        Expr::FCmp(set, f, a, b) => fold_fcmp(*set, *f, v(a), v(b)) as u128,
        Expr::FpToInt { signed, rounding, from, value, width } => fold_fp_to_int(*signed, *rounding, *from, *width, v(value)),
        Expr::IntToFp { signed, to, value } => fold_int_to_fp(*signed, *to, pool.width(*value), v(value)),
        Expr::FpConvert { from, to, value } => fold_fp_convert_in(pool.nan_model(), *from, *to, v(value)),
        // Uninterpreted: any fixed function will do for showing values;
        // witnesses never depend on it being a particular one.
        Expr::Apply(app) => {
            let args = &app.args;
            let mut h: u128 = 0x9e37_79b9_7f4a_7c15;
            for a in args {
                h = h.wrapping_mul(0x1000_0000_01b3).wrapping_add(v(a));
            }
            h & mask(w)
        }
        Expr::LogRead(r) => super::log_read::evaluate(pool, r, v),
        Expr::InputAt { array, index } => {
            // Past the declared end: 0, as the solvers' encodings say.
            let at = v(index);
            let size = pool.arrays().get(*array as usize).map_or(0, |a| a.size as u128);
            if at >= size {
                return 0;
            }
            // Given bytes are what the host gave, whatever `asg` says.
            if let Some(b) = pool.given_bytes(*array) {
                return u128::from(b[at as usize]);
            }
            asg.arrays.get(array).and_then(|b| b.get(at as usize)).copied().unwrap_or(0) as u128
        }
    }
}

/// Half-precision fma through double: a*b is exact in double (22 bits);
/// adding c then rounds twice, which is close enough for display only.
fn half_fma(a: u128, b: u128, c: u128) -> u128 {
    use half::f16;
    let f = |x: u128| f16::from_bits(x as u16).to_f64();
    let r = f(a) * f(b) + f(c);
    if r.is_nan() {
        canonical_nan(FpFormat::Half)
    } else {
        f16::from_f64(r).to_bits() as u128
    }
}
