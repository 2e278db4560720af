//! The values of the work-item functions (`get_local_id`,
//! `get_global_linear_id`, ...) for one work-item, as expressions: constants
//! when its ids are (enumerate mode), terms over its symbolic ids in pair
//! mode. OpenCL 2.0 section 6.13.1 defines them, non-uniform work-groups
//! included: `get_local_size` is the size of the work-item's own group
//! (the last of a dimension may be smaller), `get_enqueued_local_size` the
//! size asked for, and `get_global_id` is `group * enqueued size + local
//! id + offset`.

use crate::config::NdRange;
use crate::expr::{ExprId, ExprPool};

/// A work-item function: which id or size it reads.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(in crate::exec) enum WorkItemFn {
    WorkDim,
    LocalId,
    GroupId,
    GlobalId,
    /// The size of the work-item's group.
    LocalSize,
    /// The local size the NDRange was enqueued with.
    EnqueuedLocalSize,
    NumGroups,
    GlobalSize,
    GlobalOffset,
    /// `get_global_linear_id()`: the global id minus the offset, flattened
    /// with x fastest.
    GlobalLinearId,
    /// `get_local_linear_id()`: the local id flattened over the group's
    /// own sizes.
    LocalLinearId,
}

impl WorkItemFn {
    /// Whether the function takes a dimension argument.
    pub(in crate::exec) fn takes_dimension(self) -> bool {
        !matches!(self, WorkItemFn::WorkDim | WorkItemFn::GlobalLinearId | WorkItemFn::LocalLinearId)
    }
}

/// The ids of one work-item (64-bit expressions per dimension).
pub(in crate::exec) struct ItemIds {
    /// `get_local_id` per dimension.
    pub local: [ExprId; 3],
    /// `get_group_id` per dimension.
    pub group: [ExprId; 3],
}

/// The size of the group whose id in dimension `d` is `group`: the
/// enqueued local size, or the remainder for the last group when the
/// groups are not uniform there.
pub(in crate::exec) fn group_size_expr(p: &mut ExprPool, nd: &NdRange, group: ExprId, d: usize) -> ExprId {
    let full = p.constant(64, nd.local[d] as u128);
    let last = nd.last_group_size(d);
    if last == nd.local[d] {
        return full;
    }
    let last_group = p.constant(64, (nd.groups[d] - 1) as u128);
    let is_last = p.eq(group, last_group);
    let rest = p.constant(64, last as u128);
    p.ite(is_last, rest, full)
}

/// The value of `which` for the work-item `ids` of `nd`, in dimension
/// `dim` for the functions that take one (ids and offsets are 0 and sizes
/// 1 past `nd.dims`, as OpenCL says).
pub(in crate::exec) fn work_item_value(p: &mut ExprPool, nd: &NdRange, ids: &ItemIds, which: WorkItemFn, dim: u64) -> ExprId {
    let k = |p: &mut ExprPool, v: u64| p.constant(64, v as u128);
    match which {
        WorkItemFn::WorkDim => return p.constant(32, nd.dims as u128),
        WorkItemFn::GlobalLinearId => {
            // ((z * gy) + y) * gx + x over the global ids less the offset.
            let mut acc = k(p, 0);
            for d in (0..nd.dims as usize).rev() {
                let size = k(p, nd.global[d]);
                let scaled = p.mul(acc, size);
                let id = global_id(p, nd, ids, d);
                let offset = k(p, nd.offset[d]);
                let from_offset = p.sub(id, offset);
                acc = p.add(scaled, from_offset);
            }
            return acc;
        }
        WorkItemFn::LocalLinearId => {
            let mut acc = k(p, 0);
            for d in (0..nd.dims as usize).rev() {
                let size = group_size_expr(p, nd, ids.group[d], d);
                let scaled = p.mul(acc, size);
                acc = p.add(scaled, ids.local[d]);
            }
            return acc;
        }
        _ => {}
    }
    if dim >= nd.dims as u64 {
        return match which {
            WorkItemFn::GlobalId | WorkItemFn::LocalId | WorkItemFn::GroupId | WorkItemFn::GlobalOffset => k(p, 0),
            _ => k(p, 1),
        };
    }
    let d = dim as usize;
    match which {
        WorkItemFn::LocalId => ids.local[d],
        WorkItemFn::GroupId => ids.group[d],
        WorkItemFn::GlobalId => global_id(p, nd, ids, d),
        WorkItemFn::LocalSize => group_size_expr(p, nd, ids.group[d], d),
        WorkItemFn::EnqueuedLocalSize => k(p, nd.local[d]),
        WorkItemFn::NumGroups => k(p, nd.groups[d]),
        WorkItemFn::GlobalSize => k(p, nd.global[d]),
        WorkItemFn::GlobalOffset => k(p, nd.offset[d]),
        WorkItemFn::WorkDim | WorkItemFn::GlobalLinearId | WorkItemFn::LocalLinearId => unreachable!("answered above"),
    }
}

/// `get_global_id(d)`: the group's first work-item (group id times the
/// enqueued local size), plus the local id and the offset.
fn global_id(p: &mut ExprPool, nd: &NdRange, ids: &ItemIds, d: usize) -> ExprId {
    // Enumerate mode: constant ids give the number directly, the same
    // 64-bit wrapping arithmetic the pool would fold, without its three
    // operations per call (every enumerated work-item asks for its id).
    if let (Some(g), Some(l)) = (p.as_const(ids.group[d]), p.as_const(ids.local[d])) {
        let id = (g as u64).wrapping_mul(nd.local[d]).wrapping_add(l as u64).wrapping_add(nd.offset[d]);
        return p.constant(64, id as u128);
    }
    let size = p.constant(64, nd.local[d] as u128);
    let base = p.mul(ids.group[d], size);
    let id = p.add(base, ids.local[d]);
    let offset = p.constant(64, nd.offset[d] as u128);
    p.add(id, offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values OpenCL 2.0 section 6.13.1 defines for a work-item of a
    /// 10x3 NDRange in groups of 4x2 with offset (1, 2): work-item (1,0)
    /// of group (2,1), the corner group whose sizes are the remainders (2
    /// and 1).
    #[test]
    fn ids_of_a_work_item_in_the_smaller_last_group() {
        let mut p = ExprPool::new();
        let nd = NdRange { offset: [1, 2, 0], ..NdRange::of_global(2, [4, 2, 1], [10, 3, 1]) };
        let c = |p: &mut ExprPool, v: u64| p.constant(64, v as u128);
        let ids = ItemIds { local: [c(&mut p, 1), c(&mut p, 0), c(&mut p, 0)], group: [c(&mut p, 2), c(&mut p, 1), c(&mut p, 0)] };
        let mut value = |which, d| {
            let e = work_item_value(&mut p, &nd, &ids, which, d);
            p.as_const(e).expect("constant ids give constants") as u64
        };
        assert_eq!(value(WorkItemFn::LocalSize, 0), 2);
        assert_eq!(value(WorkItemFn::LocalSize, 1), 1);
        assert_eq!(value(WorkItemFn::EnqueuedLocalSize, 0), 4);
        assert_eq!(value(WorkItemFn::GlobalSize, 0), 10);
        assert_eq!(value(WorkItemFn::NumGroups, 0), 3);
        assert_eq!(value(WorkItemFn::GlobalId, 0), 2 * 4 + 1 + 1);
        assert_eq!(value(WorkItemFn::GlobalId, 1), 2 + 2);
        // (global y - offset y) * 10 + (global x - offset x) = 2 * 10 + 9.
        assert_eq!(value(WorkItemFn::GlobalLinearId, 0), 29);
        // local y * (this group's x size, 2) + local x.
        assert_eq!(value(WorkItemFn::LocalLinearId, 0), 1);
        assert_eq!(value(WorkItemFn::LocalSize, 2), 1);
        assert_eq!(value(WorkItemFn::GlobalId, 2), 0);
    }
}
