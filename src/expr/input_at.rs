//! A byte of a symbolic input read at a symbolic position, kept as one
//! node (`Expr::InputAt`): the input's bytes are one solver array, read
//! with a select, so a read at a data-dependent offset of a 4 MiB input
//! costs one node and one select, not a select over four million bytes.
//! The input's own byte variables are that array's elements (the solver
//! encodings tie them together), so a witness still gives every input
//! byte and findings resting on such reads are exact.
//!
//! Meaning, bit for bit: byte `index` of the input when `index` is below
//! the input's declared size, else 0 (the executor builds the node only
//! for in-bounds reads; the 0 keeps evaluation and encodings total and
//! equal).

use super::{Expr, ExprId, ExprPool};

impl ExprPool {
    /// The byte of input `array` at the 64-bit position `index` (module
    /// comment). A position that is a number gives the input's byte
    /// itself.
    pub fn input_at(&mut self, array: u32, index: ExprId) -> ExprId {
        debug_assert_eq!(self.width(index), 64, "a 64-bit position");
        if let Some(at) = self.as_const(index) {
            let size = self.arrays().get(array as usize).map_or(0, |a| a.size);
            // Given bytes are numbers (`InputArray::given`).
            if let Some(b) = self.given_bytes(array) {
                let b = usize::try_from(at).ok().and_then(|i| b.get(i)).copied().unwrap_or(0);
                return self.constant(8, u128::from(b));
            }
            return match u32::try_from(at) {
                Ok(i) if i < size => self.input_byte(array, i),
                _ => self.constant(8, 0),
            };
        }
        self.intern(Expr::InputAt { array, index })
    }

    /// The input arrays read at a symbolic position below `roots`
    /// (`Expr::InputAt`), in increasing order.
    pub fn arrays_read_at(&self, roots: &[ExprId]) -> Vec<u32> {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut out = std::collections::BTreeSet::new();
        let mut stack: Vec<ExprId> = roots.to_vec();
        while let Some(e) = stack.pop() {
            if self.is_const(e) || !seen.insert(e) {
                continue;
            }
            if let Expr::InputAt { array, .. } = *self.get(e) {
                out.insert(array);
            }
            stack.extend(self.children(e));
        }
        out.into_iter().collect()
    }

    /// The input bytes that the reads at symbolic positions below `root`
    /// take under `asg`, as (input, position): what changing "the byte
    /// read" changes.
    pub fn positions_read_at(&self, root: ExprId, asg: &super::Assignment) -> Vec<(u32, u32)> {
        let mut reads = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![root];
        while let Some(e) = stack.pop() {
            if self.is_const(e) || !seen.insert(e) {
                continue;
            }
            // Given bytes cannot change (`InputArray::given`).
            if let Expr::InputAt { array, index } = *self.get(e) {
                if self.given_bytes(array).is_none() {
                    reads.push((array, index));
                }
            }
            stack.extend(self.children(e));
        }
        if reads.is_empty() {
            return Vec::new();
        }
        let values = super::evaluate_all(self, &reads.iter().map(|r| r.1).collect::<Vec<_>>(), asg);
        let mut out: Vec<(u32, u32)> = reads
            .into_iter()
            .filter_map(|(array, index)| {
                let size = self.arrays().get(array as usize).map_or(0, |a| a.size);
                u32::try_from(values[&index]).ok().filter(|i| *i < size).map(|i| (array, i))
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{evaluate, Assignment};

    #[test]
    fn a_read_at_a_number_is_the_byte_and_past_the_end_is_zero() {
        let mut p = ExprPool::new();
        let a = p.new_array("in", 10);
        let three = p.constant(64, 3);
        assert_eq!(p.input_at(a, three), p.input_byte(a, 3));
        let ten = p.constant(64, 10);
        assert_eq!(p.input_at(a, ten), p.constant(8, 0));
        let i = p.fresh(64);
        let read = p.input_at(a, i);
        assert_eq!(p.width(read), 8);
        assert_eq!(p.arrays_read_at(&[read]), vec![a]);
        let mut m = Assignment::default();
        m.arrays.insert(a, (0..10).map(|k| 100 + k).collect());
        let Expr::Fresh { id, .. } = *p.get(i) else { panic!("a fresh value") };
        for (at, want) in [(0u128, 100u128), (9, 109), (10, 0), (u64::MAX as u128, 0)] {
            m.fresh.insert(id, at);
            assert_eq!(evaluate(&p, read, &m), want, "at {at}");
        }
    }

    #[test]
    fn given_bytes_read_anywhere_are_the_given_ones_whatever_the_assignment() {
        let mut p = ExprPool::new();
        let g = p.new_given_array("table.given", &[5, 6, 7]);
        assert!(!p.arrays()[g as usize].is_input());
        let one = p.constant(64, 1);
        assert_eq!(p.input_at(g, one), p.constant(8, 6), "a number at a number");
        let i = p.fresh(64);
        let read = p.input_at(g, i);
        let Expr::Fresh { id, .. } = *p.get(i) else { panic!("a fresh value") };
        let mut m = Assignment::default();
        // An assignment's bytes for it do not count.
        m.arrays.insert(g, vec![0, 0, 0]);
        for (at, want) in [(0u128, 5u128), (2, 7), (3, 0)] {
            m.fresh.insert(id, at);
            assert_eq!(evaluate(&p, read, &m), want, "at {at}");
        }
        // Nothing to change by changing a byte read.
        m.fresh.insert(id, 1);
        assert!(p.positions_read_at(read, &m).is_empty());
    }
}
