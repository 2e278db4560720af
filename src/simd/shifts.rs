//! PSLL/PSRL/PSRA by a uniform count (the low 64 bits of an xmm operand, or
//! an i32 for the immediate forms) and PSLLV & co. by per-lane counts.
//! Counts at or beyond the lane width give 0, or all sign bits for PSRA.

use super::lanes::relane;
use super::rows::{Op, ShiftKind};
use super::Lowering;
use crate::expr::value::Value;
use crate::expr::{BinOp, CmpOp, ExprId, ExprPool};

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value]) -> Lowering {
    let x = &a[0];
    let w = p.width(x[0]);
    match op {
        Op::Shift { kind } => {
            let count = uniform_count(p, &a[1], w);
            Ok(x.iter().map(|&lane| p.bin(bin(kind), lane, count)).collect())
        }
        // Per-lane counts have the lane width; BinOp already saturates them.
        Op::ShiftVar { kind } => Ok((0..x.len()).map(|i| p.bin(bin(kind), x[i], a[1][i])).collect()),
        _ => Err("not a shift row".into()),
    }
}

fn bin(kind: ShiftKind) -> BinOp {
    match kind {
        ShiftKind::Shl => BinOp::Shl,
        ShiftKind::LShr => BinOp::LShr,
        ShiftKind::AShr => BinOp::AShr,
    }
}

/// The count as a lane-width value, clamped to the width when the whole
/// (64-bit or unsigned 32-bit) count is at least the width.
fn uniform_count(p: &mut ExprPool, count: &Value, w: u32) -> ExprId {
    let c = if count.len() == 1 { count[0] } else { relane(p, count, 64)[0] };
    let cw = p.width(c);
    let wide = cw.max(w);
    let c = p.zext(c, wide);
    let limit = p.constant(wide, w as u128);
    let small = p.cmp(CmpOp::Ult, c, limit);
    let low = p.trunc(c, w);
    let clamped = p.constant(w, w as u128);
    p.ite(small, low, clamped)
}
