//! The work-item side of the path budgets (engine/path_budget.rs): a
//! work-item may run at most `Config::max_item_steps` instructions between
//! two barriers (a kernel loop that never ends), and a loop with a barrier
//! in its body keeps its unrollings past each barrier, so that it still
//! meets the loop bound.

use crate::exec::engine::executor::{Executor, LimitHit};
use crate::exec::engine::state::State;

impl<'m> Executor<'m> {
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

    /// True when the running work-item has run past its step budget since
    /// it last started (kernel start or barrier): it may never terminate.
    /// The caller ends the path.
    pub(in crate::exec) fn work_item_over_budget(&mut self, state: &State) -> bool {
        let (Some(budget), Some(gpu)) = (self.cx.config.max_item_steps, state.gpu.as_ref()) else { return false };
        if state.steps.saturating_sub(gpu.item_started) <= budget {
            return false;
        }
        let who = self.running_item_label(state, state.model.as_ref()).unwrap_or_default();
        let line = state
            .stack
            .last()
            .and_then(|f| self.cx.module.function(f.func).blocks.get(f.block.0 as usize))
            .map(|b| self.cx.location(b.term_loc).line)
            .unwrap_or(0);
        self.cut_path(
            LimitHit::ItemSteps,
            format!("{who} ran {budget} instructions (near line {line}) without reaching a barrier or the end of the kernel: it may never terminate (--max-item-steps {budget})"),
        );
        true
    }
}
