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
        Op::Approx { scalar } => Ok(lanewise(p, a, scalar, |p, i| {
            let w = p.width(a[0][i]);
            p.fresh(w)
        })),
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
