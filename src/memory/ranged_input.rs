//! The range the host promised for every element of a buffer's arbitrary
//! contents (`--arg in=BYTES:range:LO:HI`), and which elements the path
//! already says lie in it. An element is constrained when it is first
//! read, not when the buffer is made: a buffer of a million elements read
//! at a few places costs a few constraints, not a million (the executor
//! adds them, exec/opencl/buffer_inputs.rs). Constraining any element is
//! sound whatever the object holds since: it speaks of the input, which
//! the host filled within the range.

use rustc_hash::FxHashSet;
use std::rc::Rc;

/// The buffer's input array, its elements' size and range, and the
/// elements constrained on this path.
#[derive(Clone, Debug)]
pub struct RangedInput {
    /// The input array holding the buffer's bytes from offset 0.
    pub array: u32,
    /// Bytes per element (1, 2, 4 or 8).
    pub size: u32,
    /// Inclusive unsigned bounds of an element's bits; one must hold.
    pub intervals: Rc<[(u128, u128)]>,
    /// Indices of the elements constrained (shared between forked states).
    constrained: Rc<FxHashSet<u64>>,
    /// Whether every element is constrained.
    all: bool,
}

impl RangedInput {
    /// A range over an input array none of whose elements is constrained yet.
    pub fn new(array: u32, size: u32, intervals: &[(u128, u128)]) -> Self {
        RangedInput { array, size, intervals: intervals.into(), constrained: Default::default(), all: false }
    }

    /// The elements of an object of `object_size` bytes that bytes
    /// `off..off + len` overlap and that are not constrained yet (None:
    /// every element), without marking them.
    fn missing(&self, object_size: u64, range: Option<(u64, u64)>) -> Vec<u64> {
        if self.all {
            return Vec::new();
        }
        let size = u64::from(self.size);
        let count = object_size / size;
        let (first, end) = match range {
            Some((off, len)) if len > 0 => (off / size, (off.saturating_add(len) - 1) / size + 1),
            Some(_) => (0, 0),
            None => (0, count),
        };
        (first..end.min(count)).filter(|k| !self.constrained.contains(k)).collect()
    }

    /// Whether some element `missing` lists exists (cheap: asked before
    /// the object is taken for writing).
    pub fn has_missing(&self, object_size: u64, range: Option<(u64, u64)>) -> bool {
        if self.all {
            return false;
        }
        match range {
            None => true,
            Some(_) => !self.missing(object_size, range).is_empty(),
        }
    }

    /// Marks and returns the elements `missing` lists.
    pub fn take_missing(&mut self, object_size: u64, range: Option<(u64, u64)>) -> Vec<u64> {
        let missing = self.missing(object_size, range);
        if range.is_none() {
            self.all = true;
            self.constrained = Default::default();
        } else if !missing.is_empty() {
            Rc::make_mut(&mut self.constrained).extend(missing.iter().copied());
        }
        missing
    }

    /// Puts the range's lowest value into every element of `bytes` (the
    /// input array of an object of `object_size` bytes, in a witness)
    /// that lies outside the range. A witness satisfies its path, which
    /// constrains every element it reads: such an element was never read
    /// there, and the host would not have passed that value.
    pub fn fill_out_of_range(&self, object_size: u64, bytes: &mut Vec<u8>) {
        let size = self.size as usize;
        let count = (object_size / u64::from(self.size)) as usize;
        if bytes.len() < count * size {
            bytes.resize(count * size, 0);
        }
        let low = self.intervals.first().map_or(0, |i| i.0).to_le_bytes();
        for element in bytes[..count * size].chunks_mut(size) {
            let mut v = [0u8; 16];
            v[..size].copy_from_slice(element);
            let v = u128::from_le_bytes(v);
            if !self.intervals.iter().any(|&(lo, hi)| lo <= v && v <= hi) {
                element.copy_from_slice(&low[..size]);
            }
        }
    }

    /// Whether both have constrained the same elements (shared, or equal).
    pub fn same(&self, other: &RangedInput) -> bool {
        self.all == other.all && (Rc::ptr_eq(&self.constrained, &other.constrained) || self.constrained == other.constrained)
    }

    /// The elements both constrained: after two paths merge, an element
    /// one of them did not constrain is unconstrained on one side of the
    /// merged path.
    pub fn meet(&self, other: &RangedInput) -> RangedInput {
        let constrained: FxHashSet<u64> = match (self.all, other.all) {
            (true, true) => Default::default(),
            (true, false) => (*other.constrained).clone(),
            (false, true) => (*self.constrained).clone(),
            (false, false) => self.constrained.intersection(&other.constrained).copied().collect(),
        };
        RangedInput { constrained: Rc::new(constrained), all: self.all && other.all, ..self.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_constrains_the_elements_it_overlaps_once() {
        let mut r = RangedInput::new(0, 4, &[(0, 99)]);
        // Bytes 6..10 overlap elements 1 and 2.
        assert!(r.has_missing(400, Some((6, 4))));
        assert_eq!(r.take_missing(400, Some((6, 4))), vec![1, 2]);
        assert!(!r.has_missing(400, Some((4, 8))));
        assert_eq!(r.take_missing(400, Some((4, 12))), vec![3]);
        // A trailing partial element is no element.
        assert_eq!(r.take_missing(402, Some((398, 4))), vec![99]);
        assert_eq!(r.take_missing(402, Some((400, 2))), Vec::<u64>::new());
        // Every element: those not constrained yet.
        assert_eq!(r.take_missing(20, None), vec![0, 4]);
        assert!(!r.has_missing(20, None) && !r.has_missing(20, Some((0, 20))));
    }

    #[test]
    fn a_witness_gets_the_lowest_value_in_the_elements_outside_the_range() {
        let r = RangedInput::new(0, 2, &[(0x0105, 0x0200), (0x0300, 0x0300)]);
        let mut bytes = vec![9, 9, 7, 1, 0, 3];
        r.fill_out_of_range(8, &mut bytes);
        assert_eq!(bytes, vec![5, 1, 7, 1, 0, 3, 5, 1]);
    }

    #[test]
    fn merged_paths_keep_the_elements_both_constrained() {
        let mut a = RangedInput::new(0, 1, &[(1, 2)]);
        let mut b = a.clone();
        a.take_missing(10, Some((0, 3)));
        b.take_missing(10, Some((2, 3)));
        assert!(!a.same(&b));
        let mut m = a.meet(&b);
        assert_eq!(m.take_missing(10, Some((0, 5))), vec![0, 1, 3, 4]);
        let mut all = RangedInput::new(0, 1, &[(1, 2)]);
        all.take_missing(10, None);
        let mut m = all.meet(&b);
        assert_eq!(m.take_missing(10, Some((0, 6))), vec![0, 1, 5]);
    }
}
