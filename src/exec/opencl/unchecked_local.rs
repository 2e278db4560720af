//! `__local` bytes whose definedness pair mode cannot decide. At a barrier
//! pair mode havocks shared memory: the work-items it does not run may
//! have written any byte they can write (havoc.rs). A `__local` byte that
//! was indeterminate on the modelled work-items' path before the barrier
//! (never written, or written at an index that may miss it) may still be
//! one no work-item wrote; which it is depends on the paths of the other
//! work-items, which are not followed. Such a byte keeps its mask across
//! the barrier under an origin of its own, marked unchecked, as do the
//! bytes pair mode reads afresh from an unsized `__local` buffer after a
//! barrier. A use of them where an indeterminate value is a finding (a
//! branch, an address, a divisor, a store into a `__global` buffer) is a
//! `local-read-unchecked` warning naming the line, never a finding by
//! itself: the work-group of the solver's witness is then enumerated
//! (driver/group_recheck.rs), and an uninitialised read that enumeration
//! finds is a confirmed finding; while the warning stands, a run that
//! found nothing is inconclusive.
//!
//! Two kinds of bytes are not a gap, so that tiled kernels stay quiet:
//!
//! - a byte the modelled work-items wrote before the barrier. A sized
//!   variable keeps their masks across it (havoc.rs); an unsized buffer,
//!   whose remembered bytes the havoc forgets, keeps here, per byte offset
//!   written, which bits were defined (`LocalGaps::written_unsized`);
//! - a byte every work-item of every group writes: a store of a value
//!   defined for every work-item (its mask cannot be set on the path)
//!   made on a path whose constraints past the launch's mention
//!   only constants and scalar arguments (so every work-item, whatever its
//!   ids, takes that path and makes the store before the same barrier), at
//!   an offset that is a function of the local ids alone (`tile[l]`,
//!   `tile[ly][lx]`). Evaluating the offset at every local id of the
//!   smallest group gives the bytes written in every group
//!   (`LocalGaps::group_writes`). Bytes another work-item writes are
//!   taken as defined, as the havoc takes them.

use crate::check::Feasibility;
use crate::exec::engine::executor::Executor;
use crate::exec::engine::run_log::NoteKind;
use crate::exec::engine::state::State;
use crate::expr::{Expr, ExprId, ExprPool};
use crate::ir::{Function, Inst, InstKind, Loc, LOCAL_SPACE};
use crate::memory::shadow::Shadow;
use crate::memory::{Access, MemoryObject, OriginId};

/// Solver work units for asking whether an unchecked byte can be used
/// (deterministic, not seconds; the probe of single_offset.rs uses as many).
const GAP_QUERY_UNITS: u32 = 2_000_000;
/// Nodes (lazy reads counted as their encoding) above which the masks are
/// not sent to the solver and the gap is named.
const GAP_QUERY_NODES: usize = 20_000;
/// Stores every work-item makes kept per path; past it a store is not
/// kept, which only leaves more bytes named as a gap.
const MAX_GROUP_WRITES: usize = 64;
/// Work-items of the smallest group above which a store's bytes are not
/// evaluated for each local id (the store is not kept).
const MAX_COVER_ITEMS: u64 = 4096;
/// Offsets of unsized `__local` buffers written before a barrier kept per
/// path; past it the others are not kept (more bytes named as a gap).
const MAX_WRITTEN_UNSIZED: usize = 256;

/// What pair mode knows on a path of the `__local` bytes written before
/// its barriers, beyond the masks of sized variables (see the module
/// comment). Part of the path's device state: forks copy it, a merge
/// keeps what both sides know.
#[derive(Clone, Debug, Default)]
pub struct LocalGaps {
    /// The path's constraints from the launch (the two work-items' id
    /// ranges, their distinctness): the others decide whether a store is
    /// one every work-item makes.
    pub launch_constraints: usize,
    /// How far the path's constraints were found uniform, by length and
    /// last constraint (a merge may rewrite the path's end).
    uniform_upto: (usize, Option<ExprId>),
    /// Stores every work-item of every group makes.
    group_writes: Vec<GroupWrite>,
    /// Unsized `__local` buffers: by the object's base address, a byte
    /// offset written before a barrier and the mask of its indeterminate
    /// bits then.
    written_unsized: Vec<(u64, ExprId, ExprId)>,
}

/// A store every work-item of every group makes (`LocalGaps`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct GroupWrite {
    /// The base address of the `__local` object written.
    base: u64,
    /// The store's offset, a function of the running work-item's local ids.
    offset: ExprId,
    /// Bytes stored.
    len: u64,
    /// The byte ranges `[start, end)` the work-items of any one group
    /// write, sorted and disjoint.
    covered: Vec<(u64, u64)>,
}

impl LocalGaps {
    /// What both sides of a merge know.
    pub fn intersect(&mut self, other: &LocalGaps) {
        self.group_writes.retain(|w| other.group_writes.contains(w));
        self.written_unsized.retain(|w| other.written_unsized.contains(w));
        self.uniform_upto = (0, None);
    }

    /// Whether every work-item of every group writes byte `k` of the
    /// object at `base`.
    fn group_written(&self, base: u64, k: u64) -> bool {
        self.group_writes.iter().any(|w| w.base == base && w.covered.iter().any(|&(a, b)| a <= k && k < b))
    }
}

impl<'m> Executor<'m> {
    /// The origin of `o`'s bytes that pair mode cannot tell written or
    /// not after a barrier.
    pub(in crate::exec) fn unchecked_local_origin(&mut self, o: &MemoryObject) -> OriginId {
        let kind = if o.address_only { "buffer" } else { "variable" };
        let what = format!("`__local` {kind} `{}` after a barrier", o.name);
        self.shadow.intern_unchecked(what, o.alloc_line)
    }

    /// `what` at `loc` uses bits of `s`, whose origin is unchecked: when
    /// some of them can be set on this path, a warning says the use was
    /// not checked (once per line), and the work-group of the witness is
    /// noted for enumerating (driver/group_recheck.rs), which reports the
    /// uninitialised read if that group makes it.
    pub(in crate::exec) fn unchecked_local_use(&mut self, state: &mut State, s: &Shadow, loc: Loc, what: &str) {
        if self.models.unchecked_local_lines.contains(&loc) {
            return;
        }
        let any = s.any_set(&mut self.cx.pool);
        let (possible, witness) = match self.cx.pool.as_const(any) {
            Some(v) => (v != 0, None),
            // Only whether to name the gap is asked, so the solver gets a
            // budget, and masks that select over much of a large array (a
            // histogram's table at slots read from a 64 KiB buffer: a
            // gigabyte to encode) are not asked about at all. Unknown: the
            // gap may be there, so it is named.
            None if crate::check::dag_size(&self.cx.pool, &[any], GAP_QUERY_NODES) >= GAP_QUERY_NODES => (true, None),
            None => match self.cx.decider.backend.check_budgeted(&self.cx.pool, &state.path, any, GAP_QUERY_UNITS) {
                Feasibility::Unsat => (false, None),
                Feasibility::Sat(m) => (true, Some(m)),
                Feasibility::Unknown(_) => (true, None),
            },
        };
        if !possible {
            return;
        }
        self.models.unchecked_local_lines.insert(loc);
        let origin = self.shadow.origin(s.origin);
        let line = self.cx.location(loc).line;
        let note = format!(
            "line {line}: {what} depends on bytes of {} that may be ones no work-item wrote; pair mode does not model the other \
             work-items' writes, so whether one wrote them was not checked and an uninitialised read there is reported only if \
             enumerating the work-group of a witness finds it (--mode enumerate checks it)",
            origin.what
        );
        self.log.note(NoteKind::UncheckedLocalRead, note);
        // The group whose work-items would have to leave the bytes
        // unwritten: enumerating it decides the read there.
        let witness = match witness {
            Some(m) => Some(m),
            None => self.current_model(state),
        };
        self.note_havoc_doubt_of_running_item(state, witness.as_ref(), crate::exec::opencl::havoc::HAVOC_REASON);
    }

    /// A plain store of `len` bytes at `access` by the running work-item
    /// of a pair: kept in `LocalGaps::group_writes` when every work-item of
    /// every group makes it (see the module comment).
    pub(in crate::exec) fn note_group_write(&mut self, state: &mut State, func: &Function, inst: &Inst, access: &Access, len: u64) {
        let Some(gpu) = state.gpu.as_deref() else { return };
        if gpu.mode != crate::exec::opencl::workitems::RaceMode::Pair || self.cx.config.local_memory_arbitrary {
            return;
        }
        let o = state.memory.object(access.object);
        if o.addr_space != LOCAL_SPACE {
            return;
        }
        let base = o.base;
        let kept = &gpu.local_gaps.group_writes;
        if kept.len() >= MAX_GROUP_WRITES || kept.iter().any(|w| w.base == base && w.offset == access.offset && w.len == len) {
            return;
        }
        let (nd, local) = (gpu.ndrange, gpu.items[gpu.current].local);
        let InstKind::Store { value, .. } = &inst.kind else { return };
        let Some(ids) = input_array_of(&self.cx.pool, local[0]) else { return };
        if !only_local_ids(&self.cx.pool, access.offset, ids) || !self.path_uniform(state) {
            return;
        }
        // The value must be defined whatever the ids. The path mentions
        // no id past the launch's ranges, so a mask that can be set on it
        // (`l + 1`'s overflow poison) is asked about for every work-item.
        if self.shadow_active(state) {
            if let Some(s) = self.operand_shadow(state, func, value, inst.loc) {
                let any = s.any_set(&mut self.cx.pool);
                let defined = match self.cx.pool.as_const(any) {
                    Some(v) => v == 0,
                    None => {
                        crate::check::dag_size(&self.cx.pool, &[any], GAP_QUERY_NODES) < GAP_QUERY_NODES
                            && matches!(
                                self.cx.decider.backend.check_budgeted(&self.cx.pool, &state.path, any, GAP_QUERY_UNITS),
                                Feasibility::Unsat
                            )
                    }
                };
                if !defined {
                    return;
                }
            }
        }
        let Some(covered) = bytes_every_group_writes(&self.cx.pool, &nd, local, ids, access.offset, len) else { return };
        let gaps = &mut crate::exec::opencl::workitems::device_mut(&mut state.gpu).local_gaps;
        gaps.group_writes.push(GroupWrite { base, offset: access.offset, len, covered });
    }

    /// Whether every constraint of `state`'s path past the launch's
    /// mentions only constants and the kernel's scalar arguments: then
    /// every work-item, whatever its ids, is on this path (a branch the
    /// path took without a constraint was decided by these too).
    /// Remembered as far as it was checked.
    fn path_uniform(&mut self, state: &mut State) -> bool {
        let gpu = crate::exec::opencl::workitems::device_mut(&mut state.gpu);
        let (upto, last) = gpu.local_gaps.uniform_upto;
        let start = if upto > gpu.local_gaps.launch_constraints && upto <= state.path.len() && Some(state.path[upto - 1]) == last {
            upto
        } else {
            gpu.local_gaps.launch_constraints
        };
        if start > state.path.len() {
            return false;
        }
        if start == state.path.len() {
            return true;
        }
        let pool = &self.cx.pool;
        let mut scalars = rustc_hash::FxHashSet::default();
        pool.any_below(gpu.args.iter().flatten().copied(), |_, e| {
            if let Expr::Input { array, .. } = e {
                scalars.insert(*array);
            }
            false
        });
        let uniform = !pool.any_below(state.path[start..].iter().copied(), |_, e| match e {
            Expr::Input { array, .. } | Expr::InputAt { array, .. } => !scalars.contains(array),
            Expr::Fresh { .. } | Expr::LogRead(_) => true,
            _ => false,
        });
        if uniform {
            gpu.local_gaps.uniform_upto = (state.path.len(), state.path.last().copied());
        }
        uniform
    }

    /// The bytes of the sized `__local` object `o` that `undecided`
    /// (havoc.rs) names, less those every work-item of every group wrote:
    /// None when none are left.
    pub(in crate::exec) fn without_group_written(
        &self,
        state: &State,
        o: &MemoryObject,
        undecided: Option<(OriginId, Vec<(u64, ExprId)>)>,
    ) -> Option<(OriginId, Vec<(u64, ExprId)>)> {
        let (origin, mut masks) = undecided?;
        if let Some(gpu) = state.gpu.as_deref() {
            masks.retain(|(k, _)| !gpu.local_gaps.group_written(o.base, *k));
        }
        (!masks.is_empty()).then_some((origin, masks))
    }

    /// At a barrier, before the havoc forgets the remembered bytes of the
    /// unsized `__local` buffers `objects`: which bits of each byte
    /// offset written were defined, kept in `LocalGaps::written_unsized`
    /// (a byte once written stays written; the havoc only changes its
    /// value).
    pub(in crate::exec) fn remember_unsized_local_writes(&mut self, state: &mut State, objects: &[crate::memory::ObjectId]) {
        if self.cx.config.local_memory_arbitrary || state.gpu.is_none() {
            return;
        }
        let mut found = Vec::new();
        for &id in objects {
            let o = state.memory.object(id);
            if o.addr_space != LOCAL_SPACE {
                continue;
            }
            let mut bytes: Vec<(ExprId, ExprId)> = o.known.iter().chain(o.known_symbolic.iter()).map(|(k, v)| (*k, *v)).collect();
            // A fixed order: the same run builds the same expressions.
            bytes.sort_unstable();
            for (k, v) in bytes {
                let m = self.unsized_local_mask(v);
                // A byte whose bits may all be indeterminate tells nothing.
                if self.cx.pool.as_const(m) != Some(0xff) {
                    found.push((o.base, k, m));
                }
            }
        }
        let gaps = &mut crate::exec::opencl::workitems::device_mut(&mut state.gpu).local_gaps;
        for w in found {
            if gaps.written_unsized.len() >= MAX_WRITTEN_UNSIZED {
                break;
            }
            if !gaps.written_unsized.contains(&w) {
                gaps.written_unsized.push(w);
            }
        }
    }

    /// The indeterminate bits of a byte of the unsized `__local` buffer at
    /// `base`, read at offset `key` after a barrier where no remembered
    /// byte holds it: all, but for the bits defined where the modelled
    /// work-items wrote that offset before a barrier, and none where
    /// every work-item of the group writes it.
    pub(in crate::exec) fn unchecked_unsized_mask(&mut self, gaps: &LocalGaps, base: u64, key: ExprId) -> ExprId {
        let all = self.cx.pool.constant(8, 0xff);
        let zero = self.cx.pool.constant(8, 0);
        let mut m = all;
        for &(b, k, mk) in &gaps.written_unsized {
            if b != base {
                continue;
            }
            let same = self.cx.pool.eq(k, key);
            let here = self.cx.pool.ite(same, mk, all);
            m = self.cx.pool.and(m, here);
        }
        for w in gaps.group_writes.iter().filter(|w| w.base == base) {
            for &(a, b) in &w.covered {
                let (ca, cb) = (self.cx.pool.constant(64, a as u128), self.cx.pool.constant(64, b as u128));
                let from = self.cx.pool.cmp(crate::expr::CmpOp::Ule, ca, key);
                let to = self.cx.pool.cmp(crate::expr::CmpOp::Ult, key, cb);
                let inside = self.cx.pool.and(from, to);
                m = self.cx.pool.ite(inside, zero, m);
            }
        }
        m
    }
}

/// The input array of the running work-item's ids, below its local id.
fn input_array_of(pool: &ExprPool, local: ExprId) -> Option<u32> {
    let mut found = None;
    pool.any_below(std::iter::once(local), |_, e| {
        if let Expr::Input { array, .. } = e {
            found = Some(*array);
            return true;
        }
        false
    });
    found
}

/// Whether `offset` depends on nothing but constants and the local ids
/// (the first 24 bytes) of the work-item ids array `ids`.
fn only_local_ids(pool: &ExprPool, offset: ExprId, ids: u32) -> bool {
    !pool.any_below(std::iter::once(offset), |_, e| match e {
        Expr::Input { array, index } => *array != ids || *index >= 24,
        Expr::Fresh { .. } | Expr::LogRead(_) | Expr::Apply(_) | Expr::InputAt { .. } => true,
        _ => false,
    })
}

/// The byte ranges a store of `len` bytes at `offset` (a function of the
/// local ids `local`, read from array `ids`) writes when every work-item
/// of a group makes it, for the smallest group of `nd` (a larger one
/// writes those too): evaluated at each local id. None past
/// `MAX_COVER_ITEMS` work-items, or when the ids do not read back as
/// laid out.
fn bytes_every_group_writes(
    pool: &ExprPool,
    nd: &crate::config::NdRange,
    local: [ExprId; 3],
    ids: u32,
    offset: ExprId,
    len: u64,
) -> Option<Vec<(u64, u64)>> {
    let last = [0, 1, 2].map(|d| nd.groups[d].saturating_sub(1));
    let size = nd.group_size(last);
    let n: u64 = size.iter().product();
    if n == 0 || n > MAX_COVER_ITEMS {
        return None;
    }
    let array_size = pool.arrays().get(ids as usize)?.size as usize;
    if array_size < 24 {
        return None;
    }
    let mut ranges = Vec::new();
    for flat in 0..n {
        let l = crate::config::NdRange::unflatten(flat, size);
        let mut bytes = vec![0u8; array_size];
        for d in 0..3 {
            bytes[d * 8..d * 8 + 8].copy_from_slice(&l[d].to_le_bytes());
        }
        let mut asg = crate::expr::Assignment::default();
        asg.arrays.insert(ids, bytes);
        let roots = [offset, local[0], local[1], local[2]];
        let v = crate::expr::evaluate_all(pool, &roots, &asg);
        if (0..3).any(|d| v.get(&local[d]).map(|x| *x as u64) != Some(l[d])) {
            return None;
        }
        let start = *v.get(&offset)? as u64;
        ranges.push((start, start.checked_add(len)?));
    }
    ranges.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::new();
    for (a, b) in ranges {
        match merged.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    Some(merged)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::NdRange;

    /// A pair-mode work-item's ids, laid out as `start_pair` lays them.
    fn ids(pool: &mut ExprPool) -> (u32, [ExprId; 3]) {
        let array = pool.new_array("work_item_1", 48);
        (array, [0, 1, 2].map(|d| pool.input_word(array, d * 8, 64)))
    }

    /// `tile[l ^ 1]` over groups of 64: every byte of the 256 written;
    /// the smallest group of a non-uniform launch (100 = 64 + 36) bounds
    /// what every group writes.
    #[test]
    fn partner_slots_cover_the_tile() {
        let mut pool = ExprPool::new();
        let (array, local) = ids(&mut pool);
        let one = pool.constant(64, 1);
        let four = pool.constant(64, 4);
        let partner = pool.xor(local[0], one);
        let offset = pool.mul(partner, four);
        assert!(only_local_ids(&pool, offset, array));
        let uniform = NdRange::of_groups(1, [64, 1, 1], [128, 1, 1]);
        assert_eq!(bytes_every_group_writes(&pool, &uniform, local, array, offset, 4), Some(vec![(0, 256)]));
        let ragged = NdRange::of_global(1, [64, 1, 1], [100, 1, 1]);
        assert_eq!(bytes_every_group_writes(&pool, &ragged, local, array, offset, 4), Some(vec![(0, 144)]));
    }

    /// `tile[ly][lx]` with rows of 10 ints and 8 x 2 work-items: two runs
    /// of 32 bytes, the padding between them not written.
    #[test]
    fn rows_wider_than_the_group_leave_gaps() {
        let mut pool = ExprPool::new();
        let (array, local) = ids(&mut pool);
        let four = pool.constant(64, 4);
        let row = pool.constant(64, 40);
        let x = pool.mul(local[0], four);
        let y = pool.mul(local[1], row);
        let offset = pool.add(x, y);
        let nd = NdRange::of_groups(2, [8, 2, 1], [4, 4, 1]);
        assert_eq!(bytes_every_group_writes(&pool, &nd, local, array, offset, 4), Some(vec![(0, 32), (40, 72)]));
    }

    /// An offset that reads the group id, another work-item's ids or a
    /// fresh value is not one set by the local ids alone.
    #[test]
    fn only_local_ids_count() {
        let mut pool = ExprPool::new();
        let (array, local) = ids(&mut pool);
        let group = pool.input_word(array, 24, 64);
        let (_, other) = ids(&mut pool);
        let fresh = pool.fresh(64);
        for e in [group, other[0], fresh] {
            let mixed = pool.add(local[0], e);
            assert!(!only_local_ids(&pool, mixed, array));
        }
        assert!(only_local_ids(&pool, local[1], array));
    }

    /// A merge keeps what both sides know.
    #[test]
    fn a_merge_keeps_what_both_sides_wrote() {
        let offset = ExprPool::new().constant(64, 0);
        let w = |base| GroupWrite { base, offset, len: 4, covered: vec![(0, 16)] };
        let mut a = LocalGaps { group_writes: vec![w(1), w(2)], ..Default::default() };
        let b = LocalGaps { group_writes: vec![w(2)], ..Default::default() };
        a.intersect(&b);
        assert!(!a.group_written(1, 0) && a.group_written(2, 15) && !a.group_written(2, 16));
    }
}
