//! The work-items of an NDRange as the engine sees a device
//! (engine/device.rs): where the running work-item stands, its access
//! records for path merging, and the loop unrollings it carried past
//! barriers.

use crate::exec::engine::device::DeviceState;
use crate::exec::engine::merge::KernelEpoch;
use crate::exec::opencl::workitems::Gpu;
use crate::expr::{ExprId, ExprPool};
use crate::ir::{BlockId, FuncId};

impl DeviceState for Gpu {
    fn epoch(&self) -> KernelEpoch {
        // Under lockstep (cuda_lockstep.rs) threads take turns at every
        // instruction: a region never spans a turn, since the others moved.
        let turns = self.lockstep.as_ref().map_or(0, |l| l.switches());
        (self.current, self.group, self.log.meetings_released().wrapping_add(turns))
    }

    fn record_count(&self) -> usize {
        self.log.record_count()
    }

    fn merge_records_from(&mut self, other: &Self, since: usize, guard: ExprId, other_guard: ExprId, pool: &mut ExprPool) -> bool {
        // The merge renumbers `other`'s own records to follow `self`'s
        // (race/log_merge.rs); its summaries move with them.
        let (next, theirs) = (self.log.next_seq(), other.log.record_count().saturating_sub(since) as u64);
        let their_first_seq = other.log.next_seq().saturating_sub(theirs);
        if !self.log.merge_from(&other.log, since, guard, other_guard, pool) {
            return false;
        }
        // Either side's summaries may stand behind the merged path's races.
        self.summaries.union(&other.summaries, |seq| if seq >= their_first_seq { next + (seq - their_first_seq) } else { seq });
        // A `__local` byte is known written on the merged path only where
        // both sides wrote it.
        self.local_gaps.intersect(&other.local_gaps);
        true
    }

    /// The other work-items cannot have moved: a merge region ends before
    /// any switch.
    fn same_items_as(&self, other: &Self) -> bool {
        self.epoch() == other.epoch()
            && self.items.len() == other.items.len()
            && self.items.iter().zip(&other.items).all(|(p, q)| {
                p.status == q.status
                    && p.async_copy == q.async_copy
                    && p.async_started == q.async_started
                    && p.live_events == q.live_events
                    && p.released_events == q.released_events
                    && p.stack.len() == q.stack.len()
            })
    }

    fn unrollings_before_barriers(&self, func: FuncId, block: BlockId, depth: usize) -> usize {
        let key = (func, block, depth);
        self.items.get(self.current).and_then(|w| w.barrier_unrollings.iter().find(|(k, _)| *k == key)).map_or(0, |(_, n)| *n as usize)
    }

    /// A `__local` byte a path never wrote holds an arbitrary value
    /// (kernel_memory.rs), not the zero it is stored as.
    fn unwritten_is_arbitrary(&self, addr_space: u32) -> bool {
        addr_space == crate::ir::LOCAL_SPACE
    }

    /// Pair mode: a path that tests memory havocked at a barrier may need
    /// contents no device produces (havoc.rs).
    fn unconfirmable_because(&self, pool: &ExprPool, path: &[ExprId]) -> Option<&'static str> {
        if self.activemask.mentioned_in(pool, path.iter().copied()) {
            return Some(crate::exec::opencl::cuda_activemask::ACTIVEMASK_REASON);
        }
        let from = self.log.havoc_fresh_from?;
        crate::exec::opencl::havoc::mentions_fresh_from(pool, path.iter().copied(), from)
            .then_some(crate::exec::opencl::havoc::HAVOC_REASON)
    }

    fn items_run_alone_on_concrete_ids(&self) -> bool {
        self.mode == crate::report::RaceMode::Enumerate && self.lockstep.is_none() && self.grid.is_none()
    }
}
