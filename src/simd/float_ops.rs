//! Floating-point lane operations: MINPS/MAXPS, RCP/RSQRT, ROUND, CMPSS,
//! COMISS, ADDSUB, DPPS and FMADDSUB.

use super::lanes::{imm, mask_of};
use super::rows::Op;
use super::Lowering;
use crate::expr::value::{scalar, Value};
use crate::expr::{ExprId, ExprPool, FBinOp, FUnOp, FpFormat, Outcomes};

/// CMPPS predicates 0..15 as outcome sets (16..31 repeat them with the
/// other signalling behaviour, which does not change the value).
const CMP_PREDICATES: [u8; 16] = [2, 1, 3, 8, 13, 14, 12, 7, 10, 9, 11, 0, 5, 6, 4, 15];

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value]) -> Lowering {
    match op {
        Op::MinMax { max, f, scalar } => Ok(lanewise(p, a, scalar, |p, i| min_max(p, max, f, a[0][i], a[1][i]))),
        Op::Approx { scalar, rsqrt } => Ok(lanewise(p, a, scalar, |p, i| approximate(p, rsqrt, a[0][i]))),
        Op::Round { f, scalar } => {
            let mode = imm(p, if scalar { &a[2] } else { &a[1] });
            let src = if scalar { 1 } else { 0 };
            Ok(lanewise(p, a, scalar, |p, i| round(p, f, mode, a[src][i])))
        }
        Op::CmpScalar { f } => {
            let set = Outcomes(CMP_PREDICATES[(imm(p, &a[2]) & 15) as usize]);
            Ok(lanewise(p, a, true, |p, i| {
                let c = p.fcmp(set, f, a[0][i], a[1][i]);
                mask_of(p, c, f.width())
            }))
        }
        Op::Comi { f, outcomes } => {
            let c = p.fcmp(Outcomes(outcomes), f, a[0][0], a[1][0]);
            Ok(scalar(p.zext(c, 32)))
        }
        Op::AddSub { f } => Ok(lanewise(p, a, false, |p, i| {
            let op = if i % 2 == 0 { FBinOp::Sub } else { FBinOp::Add };
            p.fbin(op, f, a[0][i], a[1][i])
        })),
        Op::FmAddSub { f } => Ok(lanewise(p, a, false, |p, i| {
            // Even lanes subtract: a*b - c, with one rounding.
            let c = if i % 2 == 0 { p.fneg(f, a[2][i]) } else { a[2][i] };
            p.fma(f, a[0][i], a[1][i], c)
        })),
        Op::Dp { f } => Ok(dot_product(p, f, a)),
        _ => Err("not a floating-point row".into()),
    }
}

/// Applies `g` to every lane (or only lane 0, the rest from operand 0).
fn lanewise(p: &mut ExprPool, a: &[Value], scalar: bool, mut g: impl FnMut(&mut ExprPool, usize) -> ExprId) -> Value {
    let n = if scalar { 1 } else { a[0].len() };
    let mut out: Value = a[0].clone();
    for (i, lane) in out.iter_mut().enumerate().take(n) {
        *lane = g(p, i);
    }
    out
}

/// RCPPS/RSQRTPS of one single-precision lane. The estimate itself (a
/// relative error within 1.5 * 2^-12) is a fresh value, but the hardware is
/// exact on the special inputs, and so is the model (measured on the CPU):
/// a zero or a subnormal (read as zero) gives the infinity of its sign, an
/// infinity gives the zero of its sign (RSQRT of -inf: the default NaN), a
/// NaN comes out quieted, and RSQRT of a negative number is the default
/// NaN. Under `--nan equal` every NaN produced is the canonical one.
fn approximate(p: &mut ExprPool, rsqrt: bool, x: ExprId) -> ExprId {
    let f = FpFormat::Single;
    let estimate = p.approximation(32);
    let c = |p: &mut ExprPool, v: u128| p.constant(32, v);
    let (sign_mask, exp_mask, abs_mask, inf) = (c(p, 0x8000_0000), c(p, 0x7f80_0000), c(p, 0x7fff_ffff), c(p, 0x7f80_0000));
    let zero = c(p, 0);
    let sign = p.and(x, sign_mask);
    let exponent = p.and(x, exp_mask);
    let magnitude = p.and(x, abs_mask);
    let zero_or_subnormal = p.eq(exponent, zero);
    let infinite = p.eq(magnitude, inf);
    let nan = p.is_nan(f, x);
    let (quieted, default_nan) = match p.nan_model() {
        crate::expr::NanModel::Exact(rules) => {
            let q = c(p, crate::expr::nan_rules::quiet_bit(f));
            (p.or(x, q), c(p, crate::expr::nan_rules::default_nan(rules, f)))
        }
        crate::expr::NanModel::Canonical => (c(p, crate::expr::canonical_nan(f)), c(p, crate::expr::canonical_nan(f))),
    };
    let signed_inf = p.or(sign, inf);
    let mut r = estimate;
    if rsqrt {
        let positive = p.eq(sign, zero);
        let negative = p.not(positive);
        r = p.ite(infinite, zero, r);
        r = p.ite(negative, default_nan, r);
    } else {
        r = p.ite(infinite, sign, r);
    }
    r = p.ite(zero_or_subnormal, signed_inf, r);
    p.ite(nan, quieted, r)
}

/// x86 MIN/MAX: `a < b ? a : b`, so an unordered pair or two zeros give b.
pub fn min_max(p: &mut ExprPool, max: bool, f: FpFormat, a: ExprId, b: ExprId) -> ExprId {
    let set = if max { Outcomes::GT } else { Outcomes::LT };
    let c = p.fcmp(Outcomes(set), f, a, b);
    p.ite(c, a, b)
}

/// ROUNDPS immediate: bit 2 selects MXCSR (nearest-even by default), else
/// bits 1:0 choose nearest-even/floor/ceil/trunc; bit 3 only masks the
/// precision exception.
fn round(p: &mut ExprPool, f: FpFormat, mode: u32, x: ExprId) -> ExprId {
    let op =
        if mode & 4 != 0 { FUnOp::RoundEven } else { [FUnOp::RoundEven, FUnOp::Floor, FUnOp::Ceil, FUnOp::Trunc][(mode & 3) as usize] };
    p.fun(op, f, x)
}

/// DPPS/DPPD per 128-bit half: masked products (+0.0 where masked out),
/// summed pairwise as the hardware does, broadcast under the low mask.
fn dot_product(p: &mut ExprPool, f: FpFormat, a: &[Value]) -> Value {
    let m = imm(p, &a[2]);
    let per = (128 / f.width()) as usize;
    let zero = p.constant(f.width(), 0);
    let mut out = Value::new();
    for base in (0..a[0].len()).step_by(per) {
        let prods: Vec<ExprId> =
            (0..per).map(|i| if m & (1 << (4 + i)) != 0 { p.fbin(FBinOp::Mul, f, a[0][base + i], a[1][base + i]) } else { zero }).collect();
        let sum = if per == 4 {
            let lo = p.fbin(FBinOp::Add, f, prods[0], prods[1]);
            let hi = p.fbin(FBinOp::Add, f, prods[2], prods[3]);
            p.fbin(FBinOp::Add, f, lo, hi)
        } else {
            p.fbin(FBinOp::Add, f, prods[0], prods[1])
        };
        out.extend((0..per).map(|i| if m & (1 << i) != 0 { sum } else { zero }));
    }
    out
}
