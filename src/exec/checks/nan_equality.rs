//! "All NaNs compare equal" (`--nan equal`, the default): how a check
//! element that holds floats is compared.
//!
//! Under `--nan equal` every NaN an operation produces is the canonical
//! NaN, while NaNs that are only copied keep their bits; the CPU, for its
//! part, produces NaNs with other signs and payloads (x86's default NaN is
//! 0xFFC00000). Comparing such elements bit for bit would report
//! differences that are only NaN bits, and that no replay reproduces. So an
//! element is compared as a float: equal when both sides are NaN, whatever
//! their bits, and bit for bit otherwise. `--nan exact` compares bits.
//!
//! Which elements count as floats is the rule of
//! `expr::element_equality`, which native replay applies to the CPU's
//! values too: the buffer is declared of that float type, or one of its
//! sides is the result of a floating-point operation of that width
//! (looking through selects); an integer array is compared bit for bit.

use crate::expr::element_equality::nans_compare_equal;
use crate::expr::{ElementType, Expr, ExprId, ExprPool, FpFormat, NanModel};

/// Whether the element `a` against `b` is compared with all NaNs equal
/// (`declared`: the compared buffer's element type, when known).
pub fn compares_nans_equal(pool: &ExprPool, model: NanModel, declared: Option<ElementType>, a: ExprId, b: ExprId) -> bool {
    let width = pool.width(a);
    let float_result = FpFormat::from_width(width).is_some_and(|f| is_float_result(pool, a, f) || is_float_result(pool, b, f));
    nans_compare_equal(model, declared, width, float_result)
}

/// The two sides rewritten so that bit equality means "equal, or both
/// NaN": each NaN side becomes the canonical NaN. `None` when the element
/// is not compared as a float.
pub fn nan_blind_sides(
    pool: &mut ExprPool,
    model: NanModel,
    declared: Option<ElementType>,
    a: ExprId,
    b: ExprId,
) -> Option<(ExprId, ExprId)> {
    if !compares_nans_equal(pool, model, declared, a, b) {
        return None;
    }
    let f = FpFormat::from_width(pool.width(a))?;
    Some((pool.nan_blind(f, a), pool.nan_blind(f, b)))
}

/// Whether `x` is produced by a floating-point operation of format `f`.
fn is_float_result(pool: &ExprPool, x: ExprId, f: FpFormat) -> bool {
    let mut stack = vec![x];
    let mut seen = rustc_hash::FxHashSet::default();
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        match &*pool.get(e) {
            Expr::FBin(_, g, ..) | Expr::FUn(_, g, _) | Expr::Fma(g, ..) if *g == f => return true,
            Expr::IntToFp { to, .. } | Expr::FpConvert { to, .. } if *to == f => return true,
            Expr::Ite(_, t, e) => stack.extend([*t, *e]),
            _ => {}
        }
    }
    false
}
