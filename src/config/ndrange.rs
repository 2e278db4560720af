//! The shape of an OpenCL launch (`symcross race --local-size ...
//! --num-groups ...`, or a host program's clEnqueueNDRangeKernel): a value
//! of the configuration the executor runs a kernel with.
//!
//! OpenCL 2.0 lets the global size be any number of work-items, not only
//! a multiple of the local size (non-uniform work-groups, section 3.2):
//! the last group of a dimension then holds the remainder. `local` is the
//! size asked for (`get_enqueued_local_size`); a group's own size
//! (`get_local_size`) is `group_size`.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// The shape of a kernel launch: per dimension, the work-group size, the
/// number of groups and the global size (at most their product; less
/// when the last group is smaller), plus the global offset. Dimensions
/// past `dims` have size 1.
pub struct NdRange {
    /// Dimensions in use, 1 to 3 (`get_work_dim`).
    pub dims: u32,
    /// Work-items per group in each dimension, as enqueued (the local
    /// size; the last group of a dimension may hold fewer).
    pub local: [u64; 3],
    /// Work-groups in each dimension (the global size divided by the
    /// local size, rounded up).
    pub groups: [u64; 3],
    /// Work-items in each dimension (`get_global_size`).
    pub global: [u64; 3],
    /// Global work offset (clEnqueueNDRangeKernel's global_work_offset).
    pub offset: [u64; 3],
}

impl NdRange {
    /// The launch of `groups` groups of `local` work-items per dimension
    /// (uniform: every group full).
    pub fn of_groups(dims: u32, local: [u64; 3], groups: [u64; 3]) -> NdRange {
        let global = [0, 1, 2].map(|d| local[d].saturating_mul(groups[d]));
        NdRange { dims, local, groups, global, offset: [0; 3] }
    }

    /// The launch of `global` work-items per dimension in groups of
    /// `local` (each at least 1); the last group of a dimension holds the
    /// remainder when `local` does not divide `global`.
    pub fn of_global(dims: u32, local: [u64; 3], global: [u64; 3]) -> NdRange {
        let groups = [0, 1, 2].map(|d| global[d].div_ceil(local[d].max(1)));
        NdRange { dims, local, groups, global, offset: [0; 3] }
    }

    /// Whether every group is full (the local size divides the global
    /// size in every dimension), as OpenCL 1.2 requires.
    pub fn is_uniform(&self) -> bool {
        (0..3).all(|d| self.global[d] == self.local[d].saturating_mul(self.groups[d]))
    }

    /// Work-items of the last group in dimension `d` (the enqueued local
    /// size when the groups are uniform there).
    pub fn last_group_size(&self, d: usize) -> u64 {
        self.global[d] - self.local[d] * (self.groups[d].max(1) - 1)
    }

    /// The size of the group with coordinates `group` (`get_local_size`).
    pub fn group_size(&self, group: [u64; 3]) -> [u64; 3] {
        [0, 1, 2].map(|d| if group[d] + 1 == self.groups[d] { self.last_group_size(d) } else { self.local[d] })
    }

    /// Work-items in one full group (the enqueued local size's product).
    pub fn items_per_group(&self) -> u64 {
        self.local.iter().product()
    }
    /// Work-groups in the NDRange.
    pub fn num_groups(&self) -> u64 {
        self.groups.iter().product()
    }
    /// Work-items in the NDRange. Wraps past 64 bits: sizes from the user
    /// are first checked with `checked_total`.
    pub fn total(&self) -> u64 {
        self.global.iter().product()
    }
    /// The number of work-items, or None when it, or the number of slots
    /// of full groups, does not fit in 64 bits (such an NDRange is refused
    /// before it is used).
    pub fn checked_total(&self) -> Option<u64> {
        self.local.iter().chain(self.groups.iter()).try_fold(1u64, |acc, &n| acc.checked_mul(n))?;
        self.global.iter().try_fold(1u64, |acc, &n| acc.checked_mul(n))
    }
    /// Splits a flat index into 3 coordinates (x fastest).
    pub fn unflatten(flat: u64, sizes: [u64; 3]) -> [u64; 3] {
        [flat % sizes[0], (flat / sizes[0]) % sizes[1], flat / (sizes[0] * sizes[1])]
    }

    /// The flat index of `id` in a grid of `sizes` (inverse of `unflatten`).
    pub fn flatten(id: [u64; 3], sizes: [u64; 3]) -> u64 {
        id[0] + sizes[0] * (id[1] + sizes[1] * id[2])
    }
}

#[cfg(test)]
mod tests {
    use super::NdRange;

    #[test]
    fn the_last_group_holds_the_remainder() {
        let nd = NdRange::of_global(2, [4, 3, 1], [10, 6, 1]);
        assert_eq!(nd.groups, [3, 2, 1]);
        assert!(!nd.is_uniform());
        assert_eq!(nd.group_size([0, 0, 0]), [4, 3, 1]);
        assert_eq!(nd.group_size([2, 1, 0]), [2, 3, 1]);
        assert_eq!(nd.total(), 60);
        assert_eq!(nd.items_per_group(), 12);
    }

    #[test]
    fn groups_of_a_multiple_are_full() {
        let nd = NdRange::of_global(1, [4, 1, 1], [12, 1, 1]);
        assert_eq!(nd, NdRange::of_groups(1, [4, 1, 1], [3, 1, 1]));
        assert!(nd.is_uniform());
        assert_eq!(nd.group_size([2, 0, 0]), [4, 1, 1]);
    }
}
