//! Float to integer conversions (FCVTZS/ZU, FCVTNS/NU, FCVTAS/AU,
//! FCVTPS/PU, FCVTMS/MU), which saturate and map NaN to 0, and the
//! fixed-point conversions SCVTF/UCVTF/FCVTZS/FCVTZU with fractional bits.

use super::fp::float_const;
use super::rows::{CvtRounding, Op};
use super::Lowering;
use crate::expr::value::Value;
use crate::expr::{mask, ExprId, ExprPool, FBinOp, FpFormat, IntRounding, Outcomes, Width};
use crate::ir::Type;

fn float_of(w: Width) -> Result<FpFormat, String> {
    FpFormat::from_width(w).filter(|f| *f != FpFormat::Half).ok_or_else(|| format!("{w}-bit float lanes not modelled"))
}

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value], ret: &Type) -> Lowering {
    let rw = ret.scalar_bits();
    let fbits = match op {
        Op::FixToFp { .. } | Op::FpToFix { .. } => {
            let n = p.as_const(a[1][0]).ok_or("fractional bits are not a constant")? as u32;
            if !(1..=64).contains(&n) {
                return Err(format!("{n} fractional bits out of range 1..64"));
            }
            n
        }
        _ => 0,
    };
    let mut out = Value::new();
    for &x in a[0].iter() {
        out.push(match op {
            Op::FCvt { signed, rounding } => {
                let f = float_of(p.width(x))?;
                let r = match rounding {
                    CvtRounding::TowardZero => x,
                    CvtRounding::Rounded(u) => p.fun(u, f, x),
                };
                saturating_to_int(p, f, signed, r, rw)
            }
            Op::FpToFix { signed } => {
                let f = float_of(p.width(x))?;
                // Scaling by a power of two is exact (or overflows to an
                // infinity, which saturates as the ARM's unbounded value).
                let scale = float_const(p, f, 2f64.powi(fbits as i32));
                let scaled = p.fbin(FBinOp::Mul, f, x, scale);
                saturating_to_int(p, f, signed, scaled, rw)
            }
            Op::FixToFp { signed } => {
                let f = float_of(rw)?;
                // One rounding: the integer is rounded, then divided by a
                // power of two, exact since |int| >= 1 stays normal.
                let v = p.int_to_fp(signed, f, x);
                let scale = float_const(p, f, 2f64.powi(-(fbits as i32)));
                p.fbin(FBinOp::Mul, f, v, scale)
            }
            _ => return Err("not a conversion row".into()),
        });
    }
    Ok(out)
}

/// FPToFixed with rounding toward zero of an already rounded value: NaN
/// gives 0, values beyond the range give its nearest end. The bounds are
/// tested on `x` itself, not on its truncation (the same thing: the upper
/// bound is a power of two, and below the lower bound `lo` truncation
/// reaches `lo - 1` exactly when x <= lo - 1, or x < lo when lo - 1 is not
/// a float of this format), so the expression is what a scalar C
/// reference with range checks and a cast compiles to.
pub fn saturating_to_int(p: &mut ExprPool, f: FpFormat, signed: bool, x: ExprId, w: Width) -> ExprId {
    let (lo_bits, hi_bits, lo_f, hi_f) = if signed {
        (1u128 << (w - 1), mask(w - 1), -(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1))
    } else {
        (0, mask(w), 0.0, 2f64.powi(w as i32))
    };
    let hi_c = float_const(p, f, hi_f);
    let above = p.fcmp(Outcomes(Outcomes::GT | Outcomes::EQ), f, x, hi_c);
    let below_one = lo_f - 1.0;
    let exact = match f {
        FpFormat::Single => (below_one as f32) as f64 == below_one,
        _ => true,
    } && below_one > -(2f64.powi(53));
    let below = if exact {
        let c = float_const(p, f, below_one);
        p.fcmp(Outcomes(Outcomes::LT | Outcomes::EQ), f, x, c)
    } else {
        let c = float_const(p, f, lo_f);
        p.fcmp(Outcomes(Outcomes::LT), f, x, c)
    };
    let nan = p.is_nan(f, x);
    let conv = p.fp_to_int(signed, IntRounding::TowardZero, f, x, w);
    let hi = p.constant(w, hi_bits);
    let lo = p.constant(w, lo_bits);
    let zero = p.constant(w, 0);
    let r = p.ite(below, lo, conv);
    let r = p.ite(above, hi, r);
    p.ite(nan, zero, r)
}
