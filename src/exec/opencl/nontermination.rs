//! Work-items that provably never terminate. A work-item that comes back
//! along a loop's back edge in exactly the state it was in before (the
//! same registers in every frame, the very same memory objects, the same
//! path condition) will do the same thing again for ever: nothing it could
//! read has changed, and the other work-items do not run while it does
//! (they wait for it at the next barrier, workitems.rs). Its accesses in
//! one trip round the cycle are all it will ever make, and they are
//! already in the access log, so the work-item is set aside as `Spinning`
//! and the group goes on: races are still checked, a barrier the others
//! wait at is a divergence (they would wait for ever), and a kernel whose
//! work-items only spin or finish is race-free, with a warning that names
//! the loop. GPUVerify proves partial correctness and passes such kernels;
//! without this, the step budget (item_budget.rs) ends them inconclusive.
//!
//! The states met at back edges are watched with Brent's cycle-finding
//! method: the state is saved at the 1st, 2nd, 4th, 8th... back edge and
//! every back edge is compared with the saved one, so a cycle of any
//! period is found within about twice its length and its start. Watching
//! starts only after `WATCH_AFTER_STEPS` instructions since the work-item
//! last started, so ordinary loops pay nothing. Comparing is
//! conservative: memory counts as unchanged only when no object was
//! written at all (copy-on-write), so a loop that rewrites the same value
//! is not recognised, and the step budget stays its limit.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::{Frame, State};
use crate::exec::opencl::workitems::ItemStatus;
use crate::expr::ExprId;
use crate::memory::Memory;

/// Instructions a work-item runs since it last started (kernel start or
/// barrier) before its back edges are watched.
pub const WATCH_AFTER_STEPS: u64 = 100_000;

/// What a work-item's state was at one back edge, and when to save the
/// next one (Brent's method).
#[derive(Clone)]
pub struct CycleWatch {
    /// The work-item's start (`Gpu::item_started`) this watch belongs to:
    /// a barrier since then makes the saved state stale.
    started: u64,
    saved: SavedState,
    /// Back edges to go before the state is saved again; doubles each time.
    period: u32,
    since_saved: u32,
}

/// The parts of a state that decide what a work-item does next.
#[derive(Clone)]
struct SavedState {
    stack: Vec<Frame>,
    memory: Memory,
    path_len: usize,
    path_last: Option<ExprId>,
    open_regions: usize,
    async_started: u64,
}

impl SavedState {
    fn of(state: &State, async_started: u64) -> SavedState {
        SavedState {
            stack: state.stack.clone(),
            memory: state.memory.clone(),
            path_len: state.path.len(),
            path_last: state.path.last().copied(),
            open_regions: state.merge.len(),
            async_started,
        }
    }

    /// Whether `state` would run exactly as the saved one did.
    fn same_as(&self, state: &State, async_started: u64) -> bool {
        // The path condition only grows along one path: the same length
        // and last constraint is the same condition.
        self.path_len == state.path.len()
            && self.path_last == state.path.last().copied()
            && self.open_regions == state.merge.len()
            && self.async_started == async_started
            && self.stack.len() == state.stack.len()
            && self.stack.iter().zip(&state.stack).all(|(a, b)| same_frame(a, b))
            && self.memory.shares_every_object_with(&state.memory)
    }
}

/// Whether two frames hold the same position and registers.
fn same_frame(a: &Frame, b: &Frame) -> bool {
    a.func == b.func
        && a.block == b.block
        && a.prev_block == b.prev_block
        && a.pc == b.pc
        && a.ret_dest == b.ret_dest
        && a.varargs == b.varargs
        && a.allocas == b.allocas
        && a.regs == b.regs
        && a.shadows == b.shadows
}

impl<'m> Executor<'m> {
    /// The running work-item took a loop's back edge. When its state
    /// repeats one it was in before, it never terminates: it is set aside
    /// (`ItemStatus::Spinning`) and the group goes on without it.
    pub(in crate::exec) fn work_item_back_edge(&mut self, state: &mut State) -> Option<Step> {
        let gpu = state.gpu.as_ref()?;
        if state.steps.saturating_sub(gpu.item_started) < WATCH_AFTER_STEPS {
            return None;
        }
        let (cur, started) = (gpu.current, gpu.item_started);
        let async_started = gpu.items[cur].async_started;
        let repeats = match &gpu.items[cur].cycle_watch {
            Some(w) if w.started == started => w.saved.same_as(state, async_started),
            _ => false,
        };
        if !repeats {
            self.watch_further(state, started, async_started);
            return None;
        }
        let f = state.frame();
        let block = &self.cx.module.function(f.func).blocks[f.block.0 as usize];
        // Phi nodes carry no line: the block's first instruction that does.
        let loc = block.insts.iter().map(|i| i.loc).find(|l| l.line != 0).unwrap_or(block.term_loc);
        let who = self.running_item_label(state, state.model.as_ref()).unwrap_or_default();
        let line = self.cx.location(loc).line;
        let note = format!(
            "{who} never terminates: it came back to the loop at line {line} with the same values, memory and path \
             condition, so it loops there for ever; its accesses before and in the loop were checked"
        );
        tracing::debug!(state = state.id, line, "work-item never terminates: its state repeats");
        self.log.note(crate::exec::engine::run_log::NoteKind::Nonterminating, note);
        let gpu = crate::exec::opencl::workitems::device_mut(&mut state.gpu);
        gpu.items[cur].cycle_watch = None;
        gpu.items[cur].status = ItemStatus::Spinning { loc };
        Some(self.switch_work_item(state))
    }

    /// Brent's step: count this back edge, and save the state when the
    /// period is reached (or when the watch is new or stale).
    fn watch_further(&mut self, state: &mut State, started: u64, async_started: u64) {
        let cur = crate::exec::opencl::workitems::device(&state.gpu).current;
        // Taken out while the state is read (its snapshot), put back after.
        let watch = crate::exec::opencl::workitems::device_mut(&mut state.gpu).items[cur].cycle_watch.take();
        let watch = match watch {
            Some(mut w) if w.started == started => {
                w.since_saved += 1;
                if w.since_saved >= w.period {
                    w.saved = SavedState::of(state, async_started);
                    w.period = w.period.saturating_mul(2);
                    w.since_saved = 0;
                }
                w
            }
            _ => Box::new(CycleWatch { started, saved: SavedState::of(state, async_started), period: 1, since_saved: 0 }),
        };
        crate::exec::opencl::workitems::device_mut(&mut state.gpu).items[cur].cycle_watch = Some(watch);
    }
}
