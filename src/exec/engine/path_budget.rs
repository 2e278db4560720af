//! Budgets that end one path, not the run, counted in steps, never in
//! time: a loop whose exit test stays symbolic is unrolled at most
//! `Config::loop_bound` times on one path, and a work-item may run at most
//! `Config::max_item_steps` instructions between two barriers (a kernel
//! loop that never ends). Either cut makes the run inconclusive, with the
//! limit named and each cut described; the paths that stayed within the
//! budgets are still explored and their findings are exact. A loop whose
//! body holds a barrier is bounded too: its unrollings are carried past
//! each barrier, where its merge regions close. The work-item side (the
//! step budget, carrying unrollings) is opencl/item_budget.rs; this file
//! sees the device through `DeviceState` and `ModelHooks` only.

use crate::exec::engine::device::DeviceState;
use crate::exec::engine::executor::{Executor, LimitHit};
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::run_log::NoteKind;
use crate::exec::engine::state::State;
use crate::ir::{BlockId, Loc};

impl<'m> Executor<'m> {
    /// True when branching at `block` would unroll a symbolic loop past
    /// the bound: the loop is then summarised (loop_summary.rs) or the path
    /// ends here (`loop_bound_cut`). The unrolling count is the number of
    /// regions this branch opened that are still open (merge.rs), so a
    /// branch inside the loop body, whose region closes every iteration,
    /// does not count.
    pub(in crate::exec) fn loop_bound_reached(&self, state: &State, block: BlockId) -> bool {
        self.cx
            .config
            .loop_bound
            .is_some_and(|bound| self.unrolled(state, block) + unrolled_before_barriers(state, block) >= bound as usize)
    }

    /// Ends the path at a loop test past the bound, noting the limit.
    pub(in crate::exec) fn loop_bound_cut(&mut self, state: &State, loc: Loc) {
        let bound = self.cx.config.loop_bound.unwrap_or(0);
        let who = self.running_unit(state, state.model.as_ref()).map(|w| format!(" ({w})")).unwrap_or_default();
        let line = self.cx.location(loc).line;
        self.cut_path(
            LimitHit::LoopBound,
            format!("the loop at line {line}{who} was unrolled {bound} times with its exit still depending on the input; longer trip counts were not explored (--loop-bound {bound})"),
        );
    }

    /// Notes a cut that ended one path: the limit, and what the cut was.
    pub(in crate::exec) fn cut_path(&mut self, limit: LimitHit, note: String) {
        self.log.path_limit.get_or_insert(limit);
        self.log.note(NoteKind::PathCut, note);
    }
}

/// Unrollings of the loop test at `block` (running function and depth)
/// that the running work-item made before barriers it has passed.
fn unrolled_before_barriers(state: &State, block: BlockId) -> usize {
    let (Some(device), Some(f)) = (state.gpu.as_ref(), state.stack.last()) else { return 0 };
    device.unrollings_before_barriers(f.func, block, state.stack.len())
}
