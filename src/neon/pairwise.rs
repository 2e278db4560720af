//! Pairwise operations (ADDP, SMAXP, FADDP, FMINNMP...), long pairwise
//! adds (SADDLP/UADDLP) and across-vector reductions (ADDV, SADDLV, SMAXV,
//! FMAXV, FMINNMV, and the FADDP sequence clang emits for vaddvq_f32).
//!
//! A reduction follows the Arm ARM's Reduce: the lanes are split in two
//! halves, each reduced, and the two results combined, so for floats the
//! order of additions is ((l0+l1)+(l2+l3)), as the FADDP pair computes.

use super::fp::min_max;
use super::int_arith::ext;
use super::rows::{LaneOp, Op};
use super::Lowering;
use crate::expr::value::{scalar, Value};
use crate::expr::{CmpOp, ExprId, ExprPool, FBinOp, FpFormat};
use crate::ir::Type;

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value], ret: &Type) -> Lowering {
    match op {
        Op::Pairwise(lop) => {
            let all: Vec<ExprId> = a[0].iter().chain(a[1].iter()).copied().collect();
            if !all.len().is_multiple_of(2) {
                return Err("odd number of lanes".into());
            }
            let mut out = Value::new();
            for pair in all.chunks(2) {
                out.push(lane_op(p, lop, pair[0], pair[1])?);
            }
            Ok(out)
        }
        Op::AddLongPairwise { signed } => {
            let rw = ret.scalar_bits();
            let mut out = Value::new();
            for pair in a[0].chunks(2) {
                let x = ext(p, signed, pair[0], rw);
                let y = ext(p, signed, *pair.get(1).ok_or("odd number of lanes")?, rw);
                out.push(p.add(x, y));
            }
            Ok(out)
        }
        Op::Reduce { op: lop, long, signed } => {
            let rw = ret.scalar_bits();
            let lanes: Vec<ExprId> = if long { a[0].iter().map(|&l| ext(p, signed, l, rw)).collect() } else { a[0].to_vec() };
            if !lanes.len().is_power_of_two() {
                return Err("lane count is not a power of two".into());
            }
            let r = reduce(p, lop, &lanes)?;
            let w = p.width(r);
            // A narrow result (ADDV, SMAXV of bytes) comes back in an i32
            // zero-extended, as the machine's FMOV from the B/H register
            // leaves it (only the low bits mean anything to C code).
            let r = if w < rw { p.zext(r, rw) } else { r };
            Ok(scalar(r))
        }
        _ => Err("not a pairwise row".into()),
    }
}

fn reduce(p: &mut ExprPool, lop: LaneOp, lanes: &[ExprId]) -> Result<ExprId, String> {
    if lanes.len() == 1 {
        return Ok(lanes[0]);
    }
    let (lo, hi) = lanes.split_at(lanes.len() / 2);
    let l = reduce(p, lop, lo)?;
    let h = reduce(p, lop, hi)?;
    lane_op(p, lop, l, h)
}

/// One application of the lane operation.
pub fn lane_op(p: &mut ExprPool, lop: LaneOp, x: ExprId, y: ExprId) -> Result<ExprId, String> {
    let int_pick = |p: &mut ExprPool, cmp: CmpOp, max: bool| {
        let lt = p.cmp(cmp, x, y);
        if max {
            p.ite(lt, y, x)
        } else {
            p.ite(lt, x, y)
        }
    };
    let float = |p: &ExprPool| {
        let w = p.width(x);
        FpFormat::from_width(w).filter(|f| *f != FpFormat::Half).ok_or_else(|| format!("{w}-bit float lanes not modelled"))
    };
    Ok(match lop {
        LaneOp::Add => p.add(x, y),
        LaneOp::SMax => int_pick(p, CmpOp::Slt, true),
        LaneOp::SMin => int_pick(p, CmpOp::Slt, false),
        LaneOp::UMax => int_pick(p, CmpOp::Ult, true),
        LaneOp::UMin => int_pick(p, CmpOp::Ult, false),
        LaneOp::FAdd => {
            let f = float(p)?;
            p.fbin(FBinOp::Add, f, x, y)
        }
        LaneOp::FMax => min_max(p, float(p)?, true, false, x, y),
        LaneOp::FMin => min_max(p, float(p)?, false, false, x, y),
        LaneOp::FMaxNm => min_max(p, float(p)?, true, true, x, y),
        LaneOp::FMinNm => min_max(p, float(p)?, false, true, x, y),
    })
}
