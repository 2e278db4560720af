//! Floating-point lane operations with AArch64 semantics: FMAX/FMIN,
//! FMAXNM/FMINNM, FABD, FACGE/FACGT, FMULX, the Newton-Raphson steps
//! FRECPS/FRSQRTS, and FRECPX.

use super::nan::{is_qnan, process_nans, quieted};
use super::rows::Op;
use super::Lowering;
use crate::expr::value::Value;
use crate::expr::{mask, ExprId, ExprPool, FBinOp, FpFormat, Outcomes};

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value]) -> Lowering {
    let w = p.width(a[0][0]);
    let f = FpFormat::from_width(w).filter(|f| *f != FpFormat::Half).ok_or_else(|| format!("{w}-bit float lanes not modelled"))?;
    let mut out = Value::new();
    for i in 0..a[0].len() {
        let x = a[0][i];
        let y = if a.len() > 1 { Some(*a[1].get(i).ok_or("second operand has fewer lanes")?) } else { None };
        let y = || y.ok_or_else(|| "missing second operand".to_string());
        out.push(match op {
            Op::FMinMax { max, num } => min_max(p, f, max, num, x, y()?),
            Op::FAbd => {
                let d = p.fbin(FBinOp::Sub, f, x, y()?);
                p.fabs(f, d)
            }
            Op::FAbsCmp { gt } => {
                let (ax, ay) = (p.fabs(f, x), p.fabs(f, y()?));
                let set = if gt { Outcomes::GT } else { Outcomes::GT | Outcomes::EQ };
                let c = p.fcmp(Outcomes(set), f, ax, ay);
                p.sext(c, w)
            }
            Op::FMulX => fmulx(p, f, x, y()?),
            Op::FRecpS => recip_step(p, f, x, y()?),
            Op::FRsqrtS => rsqrt_step(p, f, x, y()?),
            Op::FRecpX => frecpx(p, f, x),
            _ => return Err("not a floating-point row".into()),
        });
    }
    Ok(out)
}

/// FMAX/FMIN: a NaN operand gives that NaN (FPProcessNaNs); equal
/// operands of different signs (zeros) give +0 for max and -0 for min;
/// FMAXNM/FMINNM first replace a quiet NaN beside a number by the number.
pub fn min_max(p: &mut ExprPool, f: FpFormat, max: bool, num: bool, x: ExprId, y: ExprId) -> ExprId {
    let (any_nan, nan) = process_nans(p, f, &[x, y]);
    let order = if max { Outcomes::GT } else { Outcomes::LT };
    let first = p.fcmp(Outcomes(order), f, x, y);
    let eq = p.fcmp(Outcomes(Outcomes::EQ), f, x, y);
    // Equal values are bit-identical except +0/-0: AND keeps +0, OR -0.
    let tie = if max { p.and(x, y) } else { p.or(x, y) };
    let ordered = p.ite(first, x, y);
    let ordered = p.ite(eq, tie, ordered);
    let plain = p.ite(any_nan, nan, ordered);
    if !num {
        return plain;
    }
    let qx = is_qnan(p, f, x);
    let qy = is_qnan(p, f, y);
    let nx = p.is_nan(f, x);
    let ny = p.is_nan(f, y);
    let not_nx = p.not(nx);
    let not_ny = p.not(ny);
    let take_y = p.bool_and(qx, not_ny);
    let take_x = p.bool_and(qy, not_nx);
    let r = p.ite(take_x, x, plain);
    p.ite(take_y, y, r)
}

/// A constant float of `f` from an f64 that it represents exactly.
pub fn float_const(p: &mut ExprPool, f: FpFormat, v: f64) -> ExprId {
    let bits = match f {
        FpFormat::Single => (v as f32).to_bits() as u128,
        _ => v.to_bits() as u128,
    };
    p.constant(f.width(), bits)
}

/// True when one of x, y is infinite and the other zero.
fn inf_times_zero(p: &mut ExprPool, f: FpFormat, x: ExprId, y: ExprId) -> ExprId {
    let inf = float_const(p, f, f64::INFINITY);
    let zero = float_const(p, f, 0.0);
    let (ax, ay) = (p.fabs(f, x), p.fabs(f, y));
    let eq = Outcomes(Outcomes::EQ);
    let xi = p.fcmp(eq, f, ax, inf);
    let yi = p.fcmp(eq, f, ay, inf);
    let xz = p.fcmp(eq, f, ax, zero);
    let yz = p.fcmp(eq, f, ay, zero);
    let a = p.bool_and(xi, yz);
    let b = p.bool_and(xz, yi);
    p.bool_or(a, b)
}

/// The sign bit of x XOR y, placed on `magnitude`.
fn with_product_sign(p: &mut ExprPool, f: FpFormat, magnitude: f64, x: ExprId, y: ExprId) -> ExprId {
    let sign = p.constant(f.width(), 1u128 << (f.width() - 1));
    let s = p.xor(x, y);
    let s = p.and(s, sign);
    let m = float_const(p, f, magnitude);
    p.or(m, s)
}

fn fmulx(p: &mut ExprPool, f: FpFormat, x: ExprId, y: ExprId) -> ExprId {
    let special = inf_times_zero(p, f, x, y);
    let two = with_product_sign(p, f, 2.0, x, y);
    let prod = p.fbin(FBinOp::Mul, f, x, y);
    let (any_nan, nan) = process_nans(p, f, &[x, y]);
    let r = p.ite(special, two, prod);
    p.ite(any_nan, nan, r)
}

/// FPProcessNaNs(-x, y), with -x the sign-flipped bits (also of a NaN).
fn process_nans_of_negated(p: &mut ExprPool, f: FpFormat, x: ExprId, y: ExprId) -> (ExprId, ExprId) {
    let sign = p.constant(f.width(), 1u128 << (f.width() - 1));
    let flipped = p.xor(x, sign);
    process_nans(p, f, &[flipped, y])
}

/// FRECPS: 2 - x*y with one rounding; 0 * inf gives +2.
fn recip_step(p: &mut ExprPool, f: FpFormat, x: ExprId, y: ExprId) -> ExprId {
    let special = inf_times_zero(p, f, x, y);
    let nx = p.fneg(f, x);
    let two = float_const(p, f, 2.0);
    let r = p.fma(f, nx, y, two);
    // The ARM negates the first operand before processing NaNs, so a NaN
    // there comes back with its sign flipped.
    let (any_nan, nan) = process_nans_of_negated(p, f, x, y);
    let r = p.ite(special, two, r);
    p.ite(any_nan, nan, r)
}

/// FRSQRTS: (3 - x*y) / 2 with one rounding; 0 * inf gives +1.5. Halving
/// an operand first is exact when its exponent field is at least 2, and
/// avoids the overflow of 3 - x*y; when neither can be halved exactly
/// the product is tiny and nothing overflows, and the halving of the
/// fused result is exact (3 - x*y is then 3 rounded, never subnormal).
fn rsqrt_step(p: &mut ExprPool, f: FpFormat, x: ExprId, y: ExprId) -> ExprId {
    let special = inf_times_zero(p, f, x, y);
    let half = float_const(p, f, 0.5);
    let one_half = float_const(p, f, 1.5);
    let three = float_const(p, f, 3.0);
    let halvable = |p: &mut ExprPool, v: ExprId| {
        let frac = f.significand_bits() - 1;
        let e = p.extract(v, frac, f.exponent_bits());
        let two = p.constant(f.exponent_bits(), 2);
        p.cmp(crate::expr::CmpOp::Ule, two, e)
    };
    let nx = p.fneg(f, x);
    let hx = halvable(p, x);
    let hy = halvable(p, y);
    let nx_half = p.fbin(FBinOp::Mul, f, nx, half);
    let y_half = p.fbin(FBinOp::Mul, f, y, half);
    let via_x = p.fma(f, nx_half, y, one_half);
    let via_y = p.fma(f, nx, y_half, one_half);
    let whole = p.fma(f, nx, y, three);
    let tiny = p.fbin(FBinOp::Mul, f, whole, half);
    let r = p.ite(hy, via_y, tiny);
    let r = p.ite(hx, via_x, r);
    let (any_nan, nan) = process_nans_of_negated(p, f, x, y);
    let r = p.ite(special, one_half, r);
    p.ite(any_nan, nan, r)
}

/// FRECPX: a NaN is quieted; otherwise the sign is kept, the fraction
/// cleared and the exponent field inverted, a zero exponent (zeros and
/// subnormals) giving the largest finite exponent.
fn frecpx(p: &mut ExprPool, f: FpFormat, x: ExprId) -> ExprId {
    let w = f.width();
    let frac = f.significand_bits() - 1;
    let eb = f.exponent_bits();
    let e = p.extract(x, frac, eb);
    let zero_e = p.constant(eb, 0);
    let is_zero_e = p.eq(e, zero_e);
    let inverted = p.not(e);
    let max_finite = p.constant(eb, mask(eb) - 1);
    let new_e = p.ite(is_zero_e, max_finite, inverted);
    let sign = p.extract(x, w - 1, 1);
    let body = p.zext(new_e, w - 1);
    let sh = p.constant(w - 1, frac as u128);
    let body = p.bin(crate::expr::BinOp::Shl, body, sh);
    let r = p.concat(sign, body);
    let nan = p.is_nan(f, x);
    let q = quieted(p, f, x);
    p.ite(nan, q, r)
}
