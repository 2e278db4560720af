//! Horizontal operations: HADDPS/HSUBPS, PHADD/PHSUB(SW) per 128-bit half,
//! and PHMINPOSUW.

use super::lanes::{per_128, sat_signed};
use super::rows::{HKind, Op};
use super::Lowering;
use crate::expr::value::Value;
use crate::expr::{CmpOp, ExprId, ExprPool, FBinOp};

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value]) -> Lowering {
    match op {
        Op::HAdd { kind } => Ok(hadd(p, kind, &a[0], &a[1])),
        Op::Phminpos => Ok(phminpos(p, &a[0])),
        _ => Err("not a horizontal row".into()),
    }
}

/// Each half: pairs (x0 op x1, x2 op x3, ...) of a, then those of b.
fn hadd(p: &mut ExprPool, kind: HKind, a: &[ExprId], b: &[ExprId]) -> Value {
    let per = per_128(p, a);
    let mut out = Value::new();
    for base in (0..a.len()).step_by(per) {
        for src in [a, b] {
            for i in (base..base + per).step_by(2) {
                out.push(pair(p, kind, src[i], src[i + 1]));
            }
        }
    }
    out
}

fn pair(p: &mut ExprPool, kind: HKind, x: ExprId, y: ExprId) -> ExprId {
    let w = p.width(x);
    match kind {
        HKind::FAdd(f) => p.fbin(FBinOp::Add, f, x, y),
        HKind::FSub(f) => p.fbin(FBinOp::Sub, f, x, y),
        HKind::Add => p.add(x, y),
        HKind::Sub => p.sub(x, y),
        HKind::AddSat | HKind::SubSat => {
            let (x, y) = (p.sext(x, w + 1), p.sext(y, w + 1));
            let r = if kind == HKind::AddSat { p.add(x, y) } else { p.sub(x, y) };
            sat_signed(p, r, w)
        }
    }
}

/// Lane 0: the least unsigned word; lane 1: the index of its first
/// occurrence; the other lanes zero.
fn phminpos(p: &mut ExprPool, x: &[ExprId]) -> Value {
    let (mut min, mut idx) = (x[0], p.constant(16, 0));
    for (i, &v) in x.iter().enumerate().skip(1) {
        let less = p.cmp(CmpOp::Ult, v, min);
        let iv = p.constant(16, i as u128);
        min = p.ite(less, v, min);
        idx = p.ite(less, iv, idx);
    }
    let zero = p.constant(16, 0);
    let mut out: Value = smallvec::smallvec![min, idx];
    out.extend(std::iter::repeat_n(zero, x.len() - 2));
    out
}
