//! The grid barrier of CUDA cooperative groups (`this_grid().sync()` in a
//! cooperative launch): every thread of every block of the grid meets it,
//! and it orders all their accesses before it, in shared and global
//! memory, before all their accesses after it.
//!
//! Blocks run one after another (workitems.rs). A block whose threads all
//! wait at the grid barrier is parked: its threads (stacks and status) and
//! its `__shared__` memory are put aside, and the next block runs. Once
//! every block of the grid waits there, the phase ends: the accesses of
//! the phase are checked for races between blocks (as at the kernel's
//! end), then dropped, since the barrier orders them before everything
//! after it; the blocks resume in order, each from where it waited, with
//! its own shared memory. A block that ends while another waits at the
//! grid barrier leaves it waiting for ever (the launch hangs): a barrier
//! divergence.
//!
//! Pair mode runs two threads, not whole blocks: a grid barrier there is
//! `unsupported`. So is a run of some blocks only (they would wait for
//! the others).

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::exec::opencl::workitems::{device, device_mut, ItemStatus, RaceMode, Waits, WorkItem};
use crate::memory::{MemoryObject, ObjectId};

/// The function the CUDA header's `grid_group::sync` calls when the grid
/// has more than one block.
pub const GRID_SYNC: &str = "__symcross_grid_sync";

/// A block waiting at the grid barrier.
#[derive(Clone)]
pub struct ParkedBlock {
    /// Flat index of the block.
    group: u64,
    /// Its threads, each with its stack, waiting at the barrier.
    items: Vec<WorkItem>,
    /// Its `__shared__` objects as it left them.
    shared: Vec<(ObjectId, MemoryObject)>,
}

/// The phases of a kernel that reached a grid barrier.
#[derive(Clone, Default)]
pub struct GridPhases {
    /// Grid barriers released so far.
    released: u32,
    /// Blocks of this phase waiting at the grid barrier, in order.
    parked: Vec<ParkedBlock>,
    /// Blocks waiting from the last phase, to resume in this one, in order.
    to_resume: std::collections::VecDeque<ParkedBlock>,
    /// A thread of a block that ended in this phase.
    ended: Option<WorkItem>,
}

impl<'m> Executor<'m> {
    /// `__symcross_grid_sync()`: the running thread waits at the grid
    /// barrier.
    pub(in crate::exec) fn arrive_at_grid_barrier(&mut self, state: &mut State, c: &CallCtx) -> Step {
        let gpu = device(&state.gpu);
        if gpu.mode == RaceMode::Pair {
            return self.unsupported(
                state,
                c.inst.loc,
                "the grid barrier (cooperative groups' grid sync): pair mode runs two threads, not whole blocks (--mode enumerate \
                 runs every block)"
                    .into(),
            );
        }
        if gpu.only_groups.is_some() {
            return self.unsupported(state, c.inst.loc, "the grid barrier in a run of some blocks only".into());
        }
        let both = self.cx.pool.constant(32, 3);
        let loc = self.user_call_site(state, c.inst.loc);
        self.work_item_barrier(state, both, loc, Waits::Grid)
    }

    /// Every thread of the running block waits at the grid barrier (they
    /// agree, workitems.rs): the block's interval is checked, the block
    /// parked, and the next block runs (or the barrier is released).
    pub(in crate::exec) fn park_block_at_grid_barrier(&mut self, state: &mut State) -> Step {
        self.check_races(state, false);
        let gpu = device_mut(&mut state.gpu);
        let items = std::mem::take(&mut gpu.items);
        let shared = shared_objects(state).into_iter().map(|id| (id, state.memory.object(id).clone())).collect();
        let gpu = device_mut(&mut state.gpu);
        let group = gpu.group;
        gpu.grid.get_or_insert_with(Default::default).parked.push(ParkedBlock { group, items, shared });
        self.next_block_of_phase(state)
    }

    /// Every thread of the running block ended, in a kernel that reached a
    /// grid barrier.
    pub(in crate::exec) fn block_ended_in_grid_phase(&mut self, state: &mut State) -> Step {
        self.check_races(state, false);
        let gpu = device_mut(&mut state.gpu);
        let first = gpu.items.first().cloned();
        let grid = gpu.grid.get_or_insert_with(Default::default);
        if grid.ended.is_none() {
            grid.ended = first;
        }
        self.next_block_of_phase(state)
    }

    /// The next block of the phase starts (phase 0) or resumes; after the
    /// last, the grid barrier is released, or the kernel ends.
    fn next_block_of_phase(&mut self, state: &mut State) -> Step {
        let gpu = device_mut(&mut state.gpu);
        gpu.log.forget_local();
        let groups = gpu.ndrange.num_groups();
        let (group, grid) = (gpu.group, gpu.grid.as_mut().expect("grid phases"));
        if grid.released == 0 && group + 1 < groups {
            self.start_group(state, group + 1);
            return Step::Continue;
        }
        if let Some(block) = grid.to_resume.pop_front() {
            self.resume_block(state, block);
            return Step::Continue;
        }
        if grid.parked.is_empty() {
            self.check_races(state, true);
            return Step::Finished;
        }
        if let Some(ended) = grid.ended.clone() {
            let waiting = grid.parked[0].items[0].clone();
            return self.grid_barrier_divergence(state, waiting, ended);
        }
        // Every block waits at the grid barrier: the phase's accesses are
        // checked between blocks, then ordered before all that follows.
        self.check_races(state, true);
        let gpu = device_mut(&mut state.gpu);
        gpu.log.grid_barrier();
        let grid = gpu.grid.as_mut().expect("grid phases");
        grid.released += 1;
        grid.to_resume = std::mem::take(&mut grid.parked).into();
        tracing::debug!(state = state.id, released = grid.released, "grid barrier released");
        let first = grid.to_resume.pop_front().expect("a parked block");
        self.resume_block(state, first);
        Step::Continue
    }

    /// Block `b` goes on from the grid barrier with its threads and shared
    /// memory as it left them.
    fn resume_block(&mut self, state: &mut State, b: ParkedBlock) {
        for (id, object) in b.shared {
            *state.memory.object_mut(id) = object;
        }
        let gpu = device_mut(&mut state.gpu);
        gpu.items = b.items;
        for item in gpu.items.iter_mut() {
            item.status = ItemStatus::Running;
            item.group_calls.clear();
        }
        gpu.group = b.group;
        gpu.current = 0;
        gpu.item_started = state.steps;
        std::mem::swap(&mut state.stack, &mut gpu.items[0].stack);
        tracing::debug!(state = state.id, group = b.group, "block resumed after the grid barrier");
    }

    fn grid_barrier_divergence(&mut self, state: &mut State, waiting: WorkItem, ended: WorkItem) -> Step {
        let loc = match &waiting.status {
            ItemStatus::AtBarrier { loc, .. } => *loc,
            _ => Default::default(),
        };
        let line = self.cx.location(loc).line;
        let witness = self.current_model(state);
        let (a, b) = (self.item_label(&waiting, witness.as_ref()), self.item_label(&ended, witness.as_ref()));
        let a_desc = format!("waits at the grid barrier at line {line}");
        let b_desc = "finished the kernel".to_string();
        let msg = format!(
            "barrier divergence: thread {a} {a_desc} while thread {b} {b_desc}: the grid barrier waits for every thread of the grid, \
             so the launch never ends"
        );
        let always = self.cx.pool.bool_const(true);
        self.report_divergence(state, loc, msg, witness.as_ref(), always, [(&waiting, a_desc), (&ended, b_desc)]);
        Step::Terminated
    }
}

/// The running block's `__shared__` objects: the module's, and unsized
/// ones given as arguments (address-only objects in local memory).
fn shared_objects(state: &State) -> Vec<ObjectId> {
    let gpu = device(&state.gpu);
    let mut ids = gpu.local_objects.clone();
    for (id, o) in state.memory.objects() {
        if o.address_only && o.addr_space == crate::ir::LOCAL_SPACE && !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids
}
