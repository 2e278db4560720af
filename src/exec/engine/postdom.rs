//! Immediate post-dominators of a function's blocks: where the two sides of
//! a branch are sure to meet again, the join point for state merging.

use crate::ir::{BlockId, Function};

/// Distinct successors of each block, by index: the adjacency the
/// post-dominator fixpoint (and OpenCL loop summaries) walk. The edges
/// themselves come from the one definition, `passes::cfg::successors`.
pub fn successors(f: &Function) -> Vec<Vec<usize>> {
    f.blocks
        .iter()
        .map(|b| {
            let mut v: Vec<usize> = crate::passes::cfg::successors(&b.term).into_iter().map(|t| t.0 as usize).collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect()
}

/// The immediate post-dominator of every block (`None` when the block's
/// paths meet only at the function's exit, or never reach it).
pub fn immediate_post_dominators(f: &Function) -> Vec<Option<BlockId>> {
    let n = f.blocks.len();
    let words = n.div_ceil(64).max(1);
    let succ = successors(f);
    let full = vec![u64::MAX; words];
    // pdom[b]: blocks on every path from b to the exit (b included).
    let mut pdom: Vec<Vec<u64>> = (0..n)
        .map(|b| {
            if succ[b].is_empty() {
                let mut s = vec![0u64; words];
                s[b / 64] |= 1 << (b % 64);
                s
            } else {
                full.clone()
            }
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            if succ[b].is_empty() {
                continue;
            }
            let mut acc = full.clone();
            for &s in &succ[b] {
                for (a, x) in acc.iter_mut().zip(&pdom[s]) {
                    *a &= x;
                }
            }
            acc[b / 64] |= 1 << (b % 64);
            if acc != pdom[b] {
                pdom[b] = acc;
                changed = true;
            }
        }
    }
    let count = |s: &Vec<u64>| s.iter().map(|w| w.count_ones()).sum::<u32>();
    let member = |s: &Vec<u64>, k: usize| s[k / 64] & (1 << (k % 64)) != 0;
    (0..n)
        .map(|b| {
            // Blocks that never reach an exit keep the full set: no join.
            if !succ[b].is_empty() && pdom[b] == full {
                return None;
            }
            // The closest strict post-dominator has the largest set.
            (0..n).filter(|&d| d != b && member(&pdom[b], d)).max_by_key(|&d| count(&pdom[d])).map(|d| BlockId(d as u32))
        })
        .collect()
}
