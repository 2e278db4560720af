//! The leaves an expression reads: bytes of symbolic inputs and fresh
//! values. Solvers, model checks, sweeping and sampling all walk them, and
//! each treats the two kinds differently (a byte lives in an input array, a
//! fresh value has its own width), so the kind is part of the type rather
//! than a reserved array number.

use super::{Expr, ExprId, ExprPool, Width};
use rustc_hash::FxHashSet;

/// One leaf of an expression. Inputs order before fresh values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Leaf {
    /// Byte `index` of symbolic input array `array` (`Expr::Input`).
    Input {
        /// The input array's number.
        array: u32,
        /// The byte's offset in it.
        index: u32,
    },
    /// Every byte of symbolic input array `array`: the expression reads it
    /// at a symbolic position (`Expr::InputAt`), so any byte may matter.
    /// A model gives the bytes such reads take (the solvers are asked the
    /// position and the byte of each read); the others are free.
    Array {
        /// The input array's number.
        array: u32,
    },
    /// Fresh value `id` (`Expr::Fresh`): havocked memory, unmodelled
    /// results.
    Fresh {
        /// The fresh value's number.
        id: u32,
        /// Its width in bits.
        width: Width,
    },
}

impl ExprPool {
    /// Adds to `out` the leaves `id` depends on.
    pub fn leaves_of(&self, id: ExprId, out: &mut FxHashSet<Leaf>) {
        let mut seen = FxHashSet::default();
        let mut stack = vec![id];
        while let Some(e) = stack.pop() {
            if !seen.insert(e) {
                continue;
            }
            match &*self.get(e) {
                Expr::Input { array, index } => {
                    out.insert(Leaf::Input { array: *array, index: *index });
                }
                Expr::Fresh { id, width } => {
                    out.insert(Leaf::Fresh { id: *id, width: *width });
                }
                Expr::InputAt { array, index } => {
                    out.insert(Leaf::Array { array: *array });
                    stack.push(*index);
                }
                _ => stack.extend(self.children(e)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::BinOp;

    #[test]
    fn leaves_tell_input_bytes_from_fresh_values() {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 2);
        let byte = p.input_word(arr, 1, 8);
        let fresh = p.fresh(8);
        let Expr::Fresh { id, .. } = *p.get(fresh) else { panic!("fresh() builds a fresh value") };
        let sum = p.bin(BinOp::Add, byte, fresh);
        let mut leaves = FxHashSet::default();
        p.leaves_of(sum, &mut leaves);
        let mut leaves: Vec<Leaf> = leaves.into_iter().collect();
        leaves.sort();
        // Inputs sort before fresh values (sampling relies on the order).
        assert_eq!(leaves, [Leaf::Input { array: arr, index: 1 }, Leaf::Fresh { id, width: 8 }]);
    }
}
