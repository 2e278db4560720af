//! Coalescing of global accesses: a warp's access is served in aligned
//! segments of `segment` bytes (32 on current NVIDIA hardware, within
//! 128-byte cache lines); it costs one transaction per distinct segment
//! its work-items touch. The ideal is the fewest segments that could hold
//! the distinct bytes touched. Buffers are taken to start at a segment
//! boundary, as every OpenCL and CUDA allocator aligns them (256 bytes or
//! more).

use super::distinct_count;
use crate::config::{PerfConfig, CACHE_LINE};
use crate::expr::{BinOp, CmpOp, ExprId, ExprPool};
use std::collections::BTreeSet;

/// The transactions of one warp access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transactions {
    /// Distinct segments touched.
    pub segments: u64,
    /// Distinct 128-byte lines touched.
    pub lines: u64,
    /// The fewest segments the distinct bytes touched could fit in.
    pub ideal: u64,
    /// Two work-items whose accesses lie furthest apart among neighbours
    /// in thread order, and the distance between their first bytes.
    pub apart: Option<(u32, u32, u64)>,
}

/// The transactions of a warp access whose lanes are `(thread, offset)`
/// at concrete offsets, each accessing `len` bytes.
pub fn transactions(lanes: &[(u32, u64)], len: u64, cfg: &PerfConfig) -> Transactions {
    let seg = u64::from(cfg.segment.max(1));
    let line = u64::from(CACHE_LINE);
    let len = len.max(1);
    let mut bytes: BTreeSet<u64> = BTreeSet::new();
    let mut segments: BTreeSet<u64> = BTreeSet::new();
    let mut lines: BTreeSet<u64> = BTreeSet::new();
    for &(_, offset) in lanes {
        for b in offset..offset + len {
            bytes.insert(b);
        }
        for b in [offset, offset + len - 1] {
            segments.insert(b / seg);
            lines.insert(b / line);
        }
        // A lane longer than two segments touches the ones between too.
        let mut s = offset / seg;
        while s < (offset + len - 1) / seg {
            segments.insert(s);
            s += 1;
        }
    }
    let mut sorted: Vec<(u32, u64)> = lanes.to_vec();
    sorted.sort_unstable();
    let apart = sorted.windows(2).map(|w| (w[0].0, w[1].0, w[0].1.abs_diff(w[1].1))).max_by_key(|&(a, _, d)| (d, std::cmp::Reverse(a)));
    Transactions { segments: segments.len() as u64, lines: lines.len() as u64, ideal: (bytes.len() as u64).div_ceil(seg), apart }
}

/// That the warp access with lanes `(offset, active)`, each of `len`
/// bytes, touches at least `k` distinct segments (counted at each lane's
/// first and last byte).
pub fn segments_at_least(pool: &mut ExprPool, lanes: &[(ExprId, ExprId)], len: u64, k: u64, cfg: &PerfConfig) -> ExprId {
    let Some(&(first, _)) = lanes.first() else { return pool.bool_const(false) };
    let w = pool.width(first);
    let seg = pool.constant(w, u128::from(cfg.segment.max(1)));
    let last = pool.constant(w, u128::from(len.max(1) - 1));
    let mut keys = Vec::new();
    for &(off, active) in lanes {
        keys.push((pool.bin(BinOp::UDiv, off, seg), active));
        let end = pool.add(off, last);
        keys.push((pool.bin(BinOp::UDiv, end, seg), active));
    }
    let count = distinct_count(pool, &keys, 32);
    let need = pool.constant(32, u128::from(k));
    pool.cmp(CmpOp::Ule, need, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contiguous_float_read_is_ideal() {
        let lanes: Vec<(u32, u64)> = (0..32).map(|t| (t, u64::from(t) * 4)).collect();
        let t = transactions(&lanes, 4, &PerfConfig::default());
        assert_eq!((t.segments, t.lines, t.ideal), (4, 1, 4));
    }

    #[test]
    fn a_stride_of_sixteen_floats_needs_a_segment_per_thread() {
        let lanes: Vec<(u32, u64)> = (0..32).map(|t| (t, u64::from(t) * 64)).collect();
        let t = transactions(&lanes, 4, &PerfConfig::default());
        assert_eq!((t.segments, t.lines, t.ideal, t.apart), (32, 16, 4, Some((0, 1, 64))));
    }

    #[test]
    fn a_misaligned_contiguous_read_needs_one_more() {
        let lanes: Vec<(u32, u64)> = (0..32).map(|t| (t, 4 + u64::from(t) * 4)).collect();
        let t = transactions(&lanes, 4, &PerfConfig::default());
        assert_eq!((t.segments, t.ideal), (5, 4));
    }

    #[test]
    fn a_broadcast_is_one_transaction() {
        let lanes: Vec<(u32, u64)> = (0..32).map(|t| (t, 12)).collect();
        let t = transactions(&lanes, 4, &PerfConfig::default());
        assert_eq!((t.segments, t.ideal), (1, 1));
    }
}
