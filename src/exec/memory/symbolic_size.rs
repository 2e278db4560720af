//! Sizes that depend on the input (`memcpy(d, s, n)` with a symbolic `n`,
//! `malloc(n)`, a variable-length array `float buf[n]`, a check's element
//! count). The executor needs a concrete
//! size, so it takes the model's value on this path and forks the rest of
//! the path (`size != value`) to run the call again with the next value:
//! every feasible size is explored, one path each. A size with more than
//! `MAX_SIZE_VALUES` values at one call site stops forking there and says
//! so, which leaves the verdict inconclusive rather than silently fixed.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::{evaluate, ExprId};
use crate::ir::Loc;
use crate::report::FindingKind;

/// Values of one symbolic size explored per call site.
pub const MAX_SIZE_VALUES: u32 = 64;

impl<'m> Executor<'m> {
    /// A concrete size for `v`: its value in the path's model. Other
    /// feasible values are explored on a forked path that re-runs the call.
    pub(in crate::exec) fn concrete_size(&mut self, state: &mut State, v: ExprId, loc: Loc, what: &str) -> Result<u64, Step> {
        if let Some(c) = self.cx.pool.as_const(v) {
            return Ok(c as u64);
        }
        // The value explored first is the model's (shard.rs).
        self.freeze_route(state);
        let m = self.current_model(state).ok_or(Step::Terminated)?;
        let c = evaluate(&self.cx.pool, v, &m);
        let ce = self.cx.pool.constant(self.cx.pool.width(v), c);
        let is_c = self.cx.pool.eq(v, ce);
        let other = self.cx.pool.not(is_c);
        let explored = self.size_values.entry(loc).or_insert(0);
        *explored += 1;
        if *explored < MAX_SIZE_VALUES {
            let (_, rest) = self.branch(state, is_c);
            if let Some(mut rest) = rest {
                rest.frame_mut().pc -= 1;
                self.pending.push(rest);
            }
        } else if *explored == MAX_SIZE_VALUES {
            if let crate::check::Feasibility::Sat(_) = self.cx.decider.feasible(&self.cx.pool, &state.path, other) {
                let msg = format!(
                    "{what} depends on the input and takes more than {MAX_SIZE_VALUES} values here; \
                     the values after the first {MAX_SIZE_VALUES} were not explored"
                );
                self.report(state, FindingKind::Unsupported, loc, msg, None, None);
            }
        }
        if self.assume(state, is_c) {
            Ok(c as u64)
        } else {
            Err(Step::Terminated)
        }
    }
}

impl<'m> Executor<'m> {
    /// The location of the instruction the top frame is executing (its pc
    /// has already moved past it).
    pub(in crate::exec) fn current_inst_loc(&self, state: &State) -> Option<Loc> {
        let frame = state.stack.last()?;
        let func = self.cx.module.function(frame.func);
        let block = func.blocks.get(frame.block.0 as usize)?;
        block.insts.get(frame.pc.checked_sub(1)?).map(|i| i.loc)
    }
}
