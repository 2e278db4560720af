//! The shape of an OpenCL launch (`symcross race --local-size ...
//! --num-groups ...`, or a host program's clEnqueueNDRangeKernel): a value
//! of the configuration the executor runs a kernel with.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// The shape of a kernel launch: per dimension, the work-group size and
/// the number of groups (the global size is their product), plus the
/// global offset. Dimensions past `dims` have size 1.
pub struct NdRange {
    /// Dimensions in use, 1 to 3 (`get_work_dim`).
    pub dims: u32,
    /// Work-items per group in each dimension (the local size).
    pub local: [u64; 3],
    /// Work-groups in each dimension (global size / local size).
    pub groups: [u64; 3],
    /// Global work offset (clEnqueueNDRangeKernel's global_work_offset).
    pub offset: [u64; 3],
}

impl NdRange {
    /// Work-items in one group.
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
        self.items_per_group() * self.num_groups()
    }
    /// The number of work-items, or None when it does not fit in 64 bits
    /// (such an NDRange is refused before it is used).
    pub fn checked_total(&self) -> Option<u64> {
        self.local.iter().chain(self.groups.iter()).try_fold(1u64, |acc, &n| acc.checked_mul(n))
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
