//! Floating-point contraction: `a*b+c` computed as one fused multiply-add
//! (one rounding) or as a multiply then an add (two roundings). clang
//! emits `llvm.fmuladd` for it under -ffp-contract=on (within one
//! expression) and `contract`-flagged fmul/fadd under -ffp-contract=fast;
//! LangRef leaves the choice to the code generator (it fuses on targets
//! with FMA, and may not elsewhere).
//!
//! symcross models both outcomes: the result is `choice ? fused : split`
//! with `choice` a fresh value at each occurrence. A check is proved only
//! when it holds either way; a difference that needs one choice is a
//! difference of the compiler's freedom, never a confirmed finding (the
//! fresh value makes it unconfirmed, with the reason in confirm.rs).
//! Under the default -ffp-contract=off neither form is emitted and
//! arithmetic is exactly as written.

use crate::expr::{ExprId, ExprPool, FBinOp, FpFormat};

/// `a*b + c`, fused or not.
pub fn mul_add(p: &mut ExprPool, f: FpFormat, a: ExprId, b: ExprId, c: ExprId) -> ExprId {
    let product = p.fbin(FBinOp::Mul, f, a, b);
    let split = p.fbin(FBinOp::Add, f, product, c);
    let fused = p.fma(f, a, b, c);
    either(p, fused, split)
}

/// A `contract`-flagged `x op y` (op is + or -): when one side is a
/// product, the back end may fuse it into the sum.
pub fn contracted(p: &mut ExprPool, op: FBinOp, f: FpFormat, x: ExprId, y: ExprId) -> ExprId {
    let split = p.fbin(op, f, x, y);
    let fused = match (product_of(p, f, x), product_of(p, f, y), op) {
        // a*b + y, a*b - y = fma(a, b, -y)
        (Some((a, b)), _, FBinOp::Add) => p.fma(f, a, b, y),
        (Some((a, b)), _, FBinOp::Sub) => {
            let minus_y = p.fneg(f, y);
            p.fma(f, a, b, minus_y)
        }
        // x + a*b; x - a*b = fma(-a, b, x)
        (None, Some((a, b)), FBinOp::Add) => p.fma(f, a, b, x),
        (None, Some((a, b)), FBinOp::Sub) => {
            let minus_a = p.fneg(f, a);
            p.fma(f, minus_a, b, x)
        }
        _ => return split,
    };
    either(p, fused, split)
}

/// The operands of `e` when it is a multiply in format `f`.
fn product_of(p: &ExprPool, f: FpFormat, e: ExprId) -> Option<(ExprId, ExprId)> {
    match &*p.get(e) {
        crate::expr::Expr::FBin(FBinOp::Mul, g, a, b) if *g == f => Some((*a, *b)),
        _ => None,
    }
}

/// `fused` or `split`, as an unknown choice; the same value when the two
/// are the same expression.
fn either(p: &mut ExprPool, fused: ExprId, split: ExprId) -> ExprId {
    if fused == split {
        return fused;
    }
    let choice = p.fresh(1);
    p.ite(choice, fused, split)
}
