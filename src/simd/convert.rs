//! Conversions: CVT(T)PS2DQ & co. (out-of-range and NaN give the "integer
//! indefinite" value, only the sign bit set), CVTPD2PS, CVTSD2SS, CVTSS2SI.

use super::rows::Op;
use super::Lowering;
use crate::expr::value::{scalar, Value};
use crate::expr::ExprPool;
use crate::ir::Type;

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value], ret: &Type) -> Lowering {
    let out_lanes = ret.lanes() as usize;
    let out_bits = ret.scalar_bits();
    if out_bits == 0 {
        return Err(format!("unexpected result type {ret:?}"));
    }
    match op {
        Op::CvtToInt { from, rounding, scalar: true } => Ok(scalar(p.fp_to_int(true, rounding, from, a[0][0], out_bits))),
        Op::CvtToInt { from, rounding, scalar: false } => {
            Ok(fill(p, out_lanes, out_bits, a[0].len(), |p, i| p.fp_to_int(true, rounding, from, a[0][i], out_bits)))
        }
        Op::CvtFp { from, to } => Ok(fill(p, out_lanes, out_bits, a[0].len(), |p, i| p.fp_convert(from, to, a[0][i]))),
        Op::CvtScalarFp => {
            let mut out = a[0].clone();
            out[0] = p.fp_convert(crate::expr::FpFormat::Double, crate::expr::FpFormat::Single, a[1][0]);
            Ok(out)
        }
        _ => Err("not a conversion row".into()),
    }
}

/// `n` converted lanes, then zero lanes up to the result's lane count
/// (CVTPD2DQ fills only the low half of its xmm result).
fn fill(p: &mut ExprPool, lanes: usize, bits: u32, n: usize, mut g: impl FnMut(&mut ExprPool, usize) -> crate::expr::ExprId) -> Value {
    let zero = p.constant(bits, 0);
    (0..lanes).map(|i| if i < n { g(p, i) } else { zero }).collect()
}
