//! Register values. A scalar is one lane; a vector holds one expression per
//! lane (lane 0 first); structs and arrays hold their leaves flattened in
//! order. Keeping lanes apart (rather than one wide bit-vector) makes
//! elementwise operations direct and keeps every expression <= 128 bits.

use crate::expr::{ExprId, ExprPool};
use smallvec::SmallVec;

/// A register's value: one expression per lane or leaf, as the module
/// docs say. Four lanes fit without a heap allocation.
pub type Value = SmallVec<[ExprId; 4]>;

/// A one-lane value.
pub fn scalar(e: ExprId) -> Value {
    smallvec::smallvec![e]
}

/// Applies `f` to each lane. Scalars (one lane) take a direct path: this
/// runs for nearly every instruction of concrete code.
pub fn map1(v: &Value, mut f: impl FnMut(ExprId) -> ExprId) -> Value {
    if v.len() == 1 {
        return smallvec::smallvec![f(v[0])];
    }
    let mut out = Value::with_capacity(v.len());
    for x in v {
        out.push(f(*x));
    }
    out
}

/// Zero-extends or truncates to `w` bits.
pub fn resize(p: &mut ExprPool, x: ExprId, w: u32) -> ExprId {
    let have = p.width(x);
    if have >= w {
        p.trunc(x, w)
    } else {
        p.zext(x, w)
    }
}

/// Re-slices `lanes` (lane 0 in the lowest bits) into lanes of `to_bits`.
pub fn relane(p: &mut ExprPool, lanes: &[ExprId], to_bits: u32) -> Value {
    let total: u32 = lanes.iter().map(|l| p.width(*l)).sum();
    if lanes.iter().all(|l| p.width(*l) == to_bits) {
        return lanes.iter().copied().collect();
    }
    let mut out = Value::new();
    let mut start = 0;
    while start + to_bits <= total {
        out.push(bit_range(p, lanes, start, to_bits));
        start += to_bits;
    }
    out
}

/// Bits `[start, start + width)` of the concatenation of `lanes`.
pub fn bit_range(p: &mut ExprPool, lanes: &[ExprId], start: u32, width: u32) -> ExprId {
    let mut pieces: Vec<ExprId> = Vec::new(); // low piece first
    let mut lane_lo = 0;
    for l in lanes {
        let w = p.width(*l);
        let lane_hi = lane_lo + w;
        let lo = start.max(lane_lo);
        let hi = (start + width).min(lane_hi);
        if lo < hi {
            pieces.push(p.extract(*l, lo - lane_lo, hi - lo));
        }
        lane_lo = lane_hi;
        if lane_lo >= start + width {
            break;
        }
    }
    let mut acc = pieces[0];
    for piece in &pieces[1..] {
        acc = p.concat(*piece, acc);
    }
    acc
}
