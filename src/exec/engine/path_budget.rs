//! Budgets that end one path, not the run, counted in steps, never in
//! time: a loop whose exit test stays symbolic is unrolled at most
//! `Config::loop_bound` times on one path, and a work-item may run at most
//! `Config::max_item_steps` instructions between two barriers (a kernel
//! loop that never ends). Either cut makes the run inconclusive, with the
//! limit named and each cut described; the paths that stayed within the
//! budgets are still explored and their findings are exact. A loop whose
//! body holds a barrier is bounded too: its unrollings are carried past
//! each barrier, where its merge regions close.

use crate::exec::engine::executor::{Executor, LimitHit};
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
        self.config.loop_bound.is_some_and(|bound| self.unrolled(state, block) + unrolled_before_barriers(state, block) >= bound as usize)
    }

    /// The running work-item reached a barrier. Merge regions never span a
    /// barrier (merge.rs), so the regions its loop tests opened in this
    /// interval are about to close without their unrollings having ended;
    /// they are counted here, so that a loop with a barrier in its body and
    /// a symbolic trip count still meets the loop bound.
    ///
    /// A count is kept until the work-item's path ends: two symbolic loops
    /// nested around a barrier add up the inner loop's unrollings of every
    /// outer iteration. That can only end a path sooner, inconclusive and
    /// naming the limit.
    pub(in crate::exec) fn carry_unrollings_past_barrier(&self, state: &mut State) {
        let Some(gpu) = state.gpu.as_mut() else { return };
        let epoch = (gpu.current, gpu.group, gpu.log.barriers_released());
        let item = &mut gpu.items[gpu.current];
        for tag in state.merge.iter().filter(|t| t.epoch == Some(epoch)) {
            let key = (tag.func, tag.site, tag.depth);
            match item.barrier_unrollings.iter_mut().find(|(k, _)| *k == key) {
                Some((_, n)) => *n += 1,
                None => item.barrier_unrollings.push((key, 1)),
            }
        }
    }

    /// Ends the path at a loop test past the bound, noting the limit.
    pub(in crate::exec) fn loop_bound_cut(&mut self, state: &State, loc: Loc) {
        let bound = self.config.loop_bound.unwrap_or(0);
        let who = self.running_item(state).map(|w| format!(" (work-item {w})")).unwrap_or_default();
        let line = self.location(loc).line;
        self.cut_path(
            LimitHit::LoopBound,
            format!("the loop at line {line}{who} was unrolled {bound} times with its exit still depending on the input; longer trip counts were not explored (--loop-bound {bound})"),
        );
    }

    /// True when the running work-item has run past its step budget since
    /// it last started (kernel start or barrier): it may never terminate.
    /// The caller ends the path.
    pub(in crate::exec) fn work_item_over_budget(&mut self, state: &State) -> bool {
        let (Some(budget), Some(gpu)) = (self.config.max_item_steps, state.gpu.as_ref()) else { return false };
        if state.steps.saturating_sub(gpu.item_started) <= budget {
            return false;
        }
        let who = self.running_item(state).unwrap_or_default();
        let line = state
            .stack
            .last()
            .and_then(|f| self.module.function(f.func).blocks.get(f.block.0 as usize))
            .map(|b| self.location(b.term_loc).line)
            .unwrap_or(0);
        self.cut_path(
            LimitHit::ItemSteps,
            format!("work-item {who} ran {budget} instructions (near line {line}) without reaching a barrier or the end of the kernel: it may never terminate (--max-item-steps {budget})"),
        );
        true
    }

    /// `(x,y,z) of group (a,b,c)` for the running work-item of a kernel.
    fn running_item(&self, state: &State) -> Option<String> {
        let g = state.gpu.as_ref()?;
        Some(self.item_label(g.items.get(g.current)?, state.model.as_ref()))
    }

    fn cut_path(&mut self, limit: LimitHit, note: String) {
        self.path_limit.get_or_insert(limit);
        // A few examples say enough; symbolic work-items make many labels.
        if self.path_limit_notes.len() < 4 && !self.path_limit_notes.contains(&note) {
            self.path_limit_notes.push(note);
        }
    }
}

/// Unrollings of the loop test at `block` (running function and depth)
/// that the running work-item made before barriers it has passed.
fn unrolled_before_barriers(state: &State, block: BlockId) -> usize {
    let (Some(gpu), Some(f)) = (state.gpu.as_ref(), state.stack.last()) else { return 0 };
    let key = (f.func, block, state.stack.len());
    gpu.items.get(gpu.current).and_then(|w| w.barrier_unrollings.iter().find(|(k, _)| *k == key)).map_or(0, |(_, n)| *n as usize)
}
