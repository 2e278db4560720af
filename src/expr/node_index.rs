//! The hash-consing index of the expression pool: which node, if any,
//! already holds a given `Expr`. A slot keeps only the node's number (4
//! bytes) and lookups compare against the pool's own nodes, rather than a
//! map keeping a second copy of every node as its key: on runs that build
//! millions of nodes (a histogram's table read through thousands of
//! symbolic-slot updates) that copy, and the moment its table doubled,
//! were most of the peak memory.

use super::Expr;
use std::hash::{Hash, Hasher};

/// An open-addressing table, probed linearly: `tags[k]` is 0 for an empty
/// slot, else 8 bits of the hash of the node numbered `nodes[k]`, so that
/// a probe compares a node (a likely cache miss) only when the tags agree.
/// Five bytes a slot, up to seven eighths full. Nodes are never removed.
#[derive(Default)]
pub(crate) struct NodeIndex {
    tags: Vec<u8>,
    nodes: Vec<u32>,
    len: usize,
}

/// Where `e` is, or where it goes.
pub(crate) enum Lookup {
    /// Node number of an equal node.
    Found(usize),
    /// The slot claimed for the node the caller now appends.
    Claimed,
}

/// The hash of `e`, mixed so that its high bits depend on all of it.
fn hash_of(e: &Expr) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    e.hash(&mut h);
    h.finish().wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The first slot to probe in a table of `size` (a power of two) slots:
/// the hash's high bits.
fn home(hash: u64, size: usize) -> usize {
    (hash >> (64 - size.trailing_zeros())) as usize
}

/// The tag kept for a hash: bits below those `home` uses, never 0.
fn tag(hash: u64) -> u8 {
    ((hash >> 24) as u8).max(1)
}

impl NodeIndex {
    /// The node equal to `e` among `nodes`, or, when there is none, claims
    /// a slot for node number `nodes.len()`, which the caller must append
    /// (as `e`) before the next call.
    pub(crate) fn find_or_claim(&mut self, nodes: &[Expr], e: &Expr) -> Lookup {
        // Grow at seven eighths full (counting the slot claimed now).
        if (self.len + 1) * 8 > self.tags.len() * 7 {
            self.grow(nodes);
        }
        let hash = hash_of(e);
        let want = tag(hash);
        let mask = self.tags.len() - 1;
        let mut at = home(hash, self.tags.len());
        loop {
            match self.tags[at] {
                0 => {
                    self.tags[at] = want;
                    self.nodes[at] = u32::try_from(nodes.len()).expect("fewer than 2^32 expression nodes");
                    self.len += 1;
                    return Lookup::Claimed;
                }
                t if t == want && nodes[self.nodes[at] as usize] == *e => return Lookup::Found(self.nodes[at] as usize),
                _ => {}
            }
            at = (at + 1) & mask;
        }
    }

    /// Doubles the table and places every indexed node again.
    fn grow(&mut self, nodes: &[Expr]) {
        let size = (self.tags.len() * 2).max(1024);
        let (mut tags, mut slots) = (vec![0u8; size], vec![0u32; size]);
        let mask = size - 1;
        for (k, &t) in self.tags.iter().enumerate() {
            if t == 0 {
                continue;
            }
            let n = self.nodes[k];
            let hash = hash_of(&nodes[n as usize]);
            let mut at = home(hash, size);
            while tags[at] != 0 {
                at = (at + 1) & mask;
            }
            tags[at] = tag(hash);
            slots[at] = n;
        }
        self.tags = tags;
        self.nodes = slots;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BinOp, ExprId, ExprPool};

    #[test]
    fn equal_nodes_are_found_across_growth_and_distinct_ones_are_not() {
        let mut nodes: Vec<Expr> = Vec::new();
        let mut index = NodeIndex::default();
        let mut pool = ExprPool::new();
        let x = pool.fresh(32);
        let make = |k: u64| Expr::Bin(BinOp::Add, x, ExprId::pooled(k as usize));
        for k in 0..5000 {
            assert!(matches!(index.find_or_claim(&nodes, &make(k)), Lookup::Claimed));
            nodes.push(make(k));
        }
        for k in 0..5000 {
            assert!(matches!(index.find_or_claim(&nodes, &make(k)), Lookup::Found(n) if n == k as usize));
        }
        assert_eq!(index.len, 5000);
        assert!(index.tags.len() * 7 >= 5000 * 8);
    }
}
