//! Lane plumbing shared by the families: re-slicing a value into lanes of
//! another width, immediates, saturation and 128-bit halves.

use super::rows::Op;
use crate::expr::value::Value;
use crate::expr::{mask, CmpOp, ExprId, ExprPool, Width};

/// Refuses calls whose immediate operand is not a constant.
pub fn check_args(p: &ExprPool, op: &Op, args: &[Value]) -> Result<(), String> {
    let Some(k) = op.immediate_arg() else {
        return Ok(());
    };
    match args.get(k) {
        Some(v) if v.len() == 1 && p.is_const(v[0]) => Ok(()),
        Some(_) => Err(format!("immediate operand {k} is not a constant")),
        None => Err(format!("missing immediate operand {k}")),
    }
}

/// The constant value of an immediate (checked by `check_args`).
pub fn imm(p: &ExprPool, v: &Value) -> u32 {
    p.as_const(v[0]).unwrap_or(0) as u32
}

/// Re-slices `v` into lanes of `width` bits (lane 0 in the lowest bits),
/// so that e.g. a `<2 x i64>` count operand can be read as one 64-bit word.
pub fn relane(p: &mut ExprPool, v: &[ExprId], width: Width) -> Vec<ExprId> {
    let lw = p.width(v[0]);
    if lw == width {
        return v.to_vec();
    }
    let total = lw * v.len() as Width;
    let mut out = Vec::new();
    let mut start = 0;
    while start + width <= total {
        let mut pieces = Vec::new();
        let mut bit = start;
        while bit < start + width {
            let (lane, off) = ((bit / lw) as usize, bit % lw);
            let take = (lw - off).min(start + width - bit);
            pieces.push(p.extract(v[lane], off, take));
            bit += take;
        }
        let mut acc = pieces[0];
        for &hi in &pieces[1..] {
            acc = p.concat(hi, acc);
        }
        out.push(acc);
        start += width;
    }
    out
}

/// Number of lanes of `v` that fit in 128 bits.
pub fn per_128(p: &ExprPool, v: &[ExprId]) -> usize {
    (128 / p.width(v[0])) as usize
}

/// Clamps the signed value `x` to the signed range of `to` bits and truncates.
pub fn sat_signed(p: &mut ExprPool, x: ExprId, to: Width) -> ExprId {
    let w = p.width(x);
    let lo = p.constant(w, (1u128 << (to - 1)).wrapping_neg());
    let hi = p.constant(w, (1u128 << (to - 1)) - 1);
    clamp(p, x, lo, hi, to)
}

/// Clamps the signed value `x` to the unsigned range of `to` bits.
pub fn sat_unsigned(p: &mut ExprPool, x: ExprId, to: Width) -> ExprId {
    let w = p.width(x);
    let lo = p.constant(w, 0);
    let hi = p.constant(w, mask(to));
    clamp(p, x, lo, hi, to)
}

fn clamp(p: &mut ExprPool, x: ExprId, lo: ExprId, hi: ExprId, to: Width) -> ExprId {
    let below = p.cmp(CmpOp::Slt, x, lo);
    let above = p.cmp(CmpOp::Slt, hi, x);
    let c = p.ite(above, hi, x);
    let c = p.ite(below, lo, c);
    p.trunc(c, to)
}

/// The sign bit of a lane, as a 1-bit value.
pub fn sign_bit(p: &mut ExprPool, x: ExprId) -> ExprId {
    let w = p.width(x);
    p.extract(x, w - 1, 1)
}

/// All-ones of the lane width where `c` holds, else zero (SSE mask lanes).
pub fn mask_of(p: &mut ExprPool, c: ExprId, width: Width) -> ExprId {
    p.sext(c, width)
}

/// |a - b| of two unsigned values, widened by one bit first.
pub fn abs_diff(p: &mut ExprPool, a: ExprId, b: ExprId, width: Width) -> ExprId {
    let (x, y) = (p.zext(a, width), p.zext(b, width));
    let lt = p.cmp(CmpOp::Ult, x, y);
    let d1 = p.sub(y, x);
    let d2 = p.sub(x, y);
    p.ite(lt, d1, d2)
}

/// Selects `table[index & (len-1)]` with a tree of selects on the index bits
/// (the index may be symbolic); `len` is a power of two.
pub fn select_lane(p: &mut ExprPool, table: &[ExprId], index: ExprId) -> ExprId {
    let bits = table.len().trailing_zeros();
    let mut level: Vec<ExprId> = table.to_vec();
    for b in 0..bits {
        let bit = p.extract(index, b, 1);
        level = level.chunks(2).map(|pair| p.ite(bit, pair[1], pair[0])).collect();
    }
    level[0]
}
