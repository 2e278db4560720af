//! Under `--nan equal` a NaN that an operation produces is modelled as the
//! canonical NaN (sign clear, payload zero), while x86 produces 0xFFC00000
//! or a propagated payload. Checks compare floats up to NaN bits, but a
//! program can also *read* the bits of a float result with integer
//! operations: `_mm_movemask_ps` and `signbit` take its sign bit,
//! `copysign(1, x)` masks it, a bit cast feeds it to integer arithmetic.
//! Then the canonical NaN can decide a branch or an integer result the CPU
//! computes differently, and "all NaNs compare equal" no longer covers the
//! verdict. This scan finds such reads among the expressions a run built,
//! so the report can say so (`nan-bits-read`) and point to `--nan exact`.
//!
//! A read is an integer operation applied directly to the result of a
//! floating-point operation, except those that keep a NaN a NaN whatever
//! its bits (fneg's sign flip, fabs's mask), the whole-value equality the
//! checks themselves build, selects and concatenations (which move the
//! value without reading it), and whole-byte slices (how memory stores a
//! value; a shift that keeps whole bytes is therefore not seen). It is a syntactic scan: a read through an
//! intermediate copy in a wider integer is found when that copy is built
//! from the result directly, which is how LLVM's bit casts arrive here.

use crate::expr::{BinOp, CmpOp, Expr, ExprId, ExprPool, FpFormat};

/// Whether `e` is produced by a floating-point operation (its format).
fn float_result(pool: &ExprPool, e: ExprId) -> Option<FpFormat> {
    match &*pool.get(e) {
        Expr::FBin(_, f, ..) | Expr::FUn(_, f, _) | Expr::Fma(f, ..) => Some(*f),
        Expr::IntToFp { .. } => None, // never NaN
        Expr::FpConvert { to, .. } => Some(*to),
        _ => None,
    }
}

/// Masks and flips that keep a NaN a NaN: fabs (clear the sign) and fneg
/// (flip it). Anything else that reads a float's bits may tell NaNs apart.
fn keeps_nan(pool: &ExprPool, op: BinOp, f: FpFormat, other: ExprId) -> bool {
    let sign = 1u128 << (f.width() - 1);
    match (op, pool.as_const(other)) {
        (BinOp::And, Some(m)) => m == sign - 1,
        (BinOp::Xor, Some(m)) => m == sign,
        _ => false,
    }
}

/// True when some expression of `pool` reads the bits of a float result.
pub fn nan_bits_read(pool: &ExprPool) -> bool {
    pool.node_ids().any(|id| match &*pool.get(id) {
        Expr::Bin(op, a, b) => {
            [(*a, *b), (*b, *a)].into_iter().any(|(x, other)| float_result(pool, x).is_some_and(|f| !keeps_nan(pool, *op, f, other)))
        }
        Expr::Cmp(CmpOp::Eq, ..) | Expr::Ite(..) | Expr::Concat(..) => false,
        Expr::Cmp(_, a, b) => float_result(pool, *a).is_some() || float_result(pool, *b).is_some(),
        // Whole bytes are how memory stores a value (and loads reassemble
        // it); a bit field such as the sign is a read.
        Expr::Extract { value, offset, width } => float_result(pool, *value).is_some() && !(offset % 8 == 0 && width % 8 == 0),
        Expr::ZExt(value, _) | Expr::SExt(value, _) | Expr::Not(value) => float_result(pool, *value).is_some(),
        _ => false,
    })
}
