//! Control flow: branches (forking on symbolic conditions), switch, phi
//! nodes on block entry, calls and returns.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::ExprId;
use crate::ir::{BlockId, FuncId, Function, InstKind, Loc, Operand, Terminator};

/// Emptied register vectors kept for work-items' entry frames: a
/// work-group's worth of the largest groups (OpenCL devices allow 1024).
const MAX_SPARE_ENTRY_REGS: usize = 1024;

impl<'m> Executor<'m> {
    pub(in crate::exec) fn exec_terminator(&mut self, state: &mut State, func: &'m Function, term: &'m Terminator, loc: Loc) -> Step {
        match term {
            Terminator::Br(target) => {
                self.jump(state, func, *target);
                Step::Continue
            }
            Terminator::CondBr { cond, then, otherwise } => {
                let here = state.frame().func;
                self.note_branch(state, here, *then, *otherwise);
                if !self.check_operand_use(state, func, cond, loc, "a branch condition") {
                    return Step::Terminated;
                }
                let c = self.operand1(state, func, cond);
                self.branch_condition(state, c, loc);
                self.cond_branch(state, func, c, *then, *otherwise, loc)
            }
            Terminator::Switch { value, default, cases } => {
                if !self.check_operand_use(state, func, value, loc, "the value of a switch") {
                    return Step::Terminated;
                }
                self.exec_switch(state, func, value, *default, cases)
            }
            Terminator::Ret(v) => {
                let value = v.as_ref().map(|v| self.operand(state, func, v));
                let shadow = match v {
                    Some(v) if self.shadow_active(state) => self.operand_shadow(state, func, v, loc),
                    _ => None,
                };
                if let Some(s) = &shadow {
                    if state.stack.len() == 1 && state.gpu.is_none() {
                        let what = format!("the value returned by `{}` (the exit status)", func.name);
                        if !self.uninit_use(state, s, loc, &what) {
                            return Step::Terminated;
                        }
                    }
                }
                self.exec_return(state, value, shadow)
            }
            Terminator::Unreachable => self.unsupported(state, loc, "reached an `unreachable` instruction".into()),
            Terminator::Unsupported(what) => self.unsupported(state, loc, format!("unsupported terminator: {what}")),
        }
    }

    fn cond_branch(&mut self, state: &mut State, func: &'m Function, c: ExprId, then: BlockId, otherwise: BlockId, loc: Loc) -> Step {
        // The test of a summarised loop, run once more: leave the loop
        // where the havocked variables let the path leave it.
        let f = state.frame();
        if state.forced_exit.as_ref().is_some_and(|e| e.func == f.func && e.header == f.block && e.depth == state.stack.len()) {
            let forced = state.forced_exit.take().expect("checked above");
            let (leave, stay) = if forced.exit == then { (c, self.cx.pool.not(c)) } else { (self.cx.pool.not(c), c) };
            let mut leave = leave;
            for fact in self.counter_facts(state, &forced.counters, stay) {
                leave = self.cx.pool.bool_and(leave, fact);
            }
            if !self.assume(state, leave) {
                return Step::Terminated;
            }
            self.jump(state, func, forced.exit);
            return Step::Continue;
        }
        if let Some(v) = self.cx.pool.as_const(c) {
            self.jump(state, func, if v != 0 { then } else { otherwise });
            return Step::Continue;
        }
        // A test the path already decided: no copy of the state (a kernel
        // state holds every work-item's stack).
        if let Some(truth) = self.decided_by_path(state, c) {
            state.depth += 1;
            self.jump(state, func, if truth { then } else { otherwise });
            return Step::Continue;
        }
        // In a kernel, a loop whose test depends on symbolic floating point
        // would need the bit-precise solver at every trip, seconds each and
        // for every work-item (an escape loop on approximate divisions), and
        // each trip's exit would be a path of its own: a loop that
        // qualifies (it touches no shared memory, loop_summary.rs) is
        // summarised at its first such test, as it would be after
        // --loop-bound trips (so only where that bound applies: `symcross
        // race`). Its paths' findings are then unconfirmed.
        if state.gpu.is_some() && self.cx.config.loop_bound.is_some() && self.cx.pool.mentions_fp(c) {
            let here = state.frame().block;
            if self.summarise_loop_at_bound(state, func, here, then, otherwise) {
                tracing::debug!(function = %func.name, line = self.cx.location(loc).line, state = state.id, "loop summarised: its test needs the floating-point solver");
                return Step::Continue;
            }
        }
        let (t, f) = self.branch(state, c);
        // A failure the ladder ruled out is a check it proved.
        if let Some(by) = self.ruled_out_by.take() {
            let failing = if t.is_none() { then } else { otherwise };
            if self.failure_blocks.contains(&(state.frame().func, failing)) {
                self.log.check_stats.record(&[by]);
            }
        }
        match (t, f) {
            (Some(mut t), Some(mut f)) => {
                let (here, func_id) = (state.frame().block, state.frame().func);
                let at_bound = self.loop_bound_reached(state, here);
                // `state` is still the one before the branch.
                if !at_bound {
                    if let Some(step) = self.leave_loop_without_effects(state, func, here, false) {
                        return step;
                    }
                }
                if at_bound {
                    if self.summarise_loop_at_bound(state, func, here, then, otherwise) {
                        tracing::debug!(function = %func.name, line = self.cx.location(loc).line, state = state.id, "loop bound: loop summarised");
                        return Step::Continue;
                    }
                    if let Some(step) = self.leave_loop_without_effects(state, func, here, true) {
                        return step;
                    }
                    self.loop_bound_cut(state, loc);
                    tracing::debug!(function = %func.name, line = self.cx.location(loc).line, state = state.id, "path ended: loop bound");
                    return Step::Terminated;
                }
                self.open_region(&mut t, &mut f, func_id, here, state.path.len());
                f.id = self.fork_id();
                tracing::trace!(
                    function = %func.name,
                    block = here.0,
                    line = self.cx.location(loc).line,
                    condition_nodes = crate::check::dag_size(&self.cx.pool, &[c], crate::check::LOGGED_SIZE_CAP),
                    path_constraints = state.path.len(),
                    state = t.id,
                    new_state = f.id,
                    "fork"
                );
                self.jump(&mut t, func, then);
                self.jump(&mut f, func, otherwise);
                *state = t;
                Step::Fork(vec![f])
            }
            (Some(mut t), None) => {
                self.jump(&mut t, func, then);
                *state = t;
                Step::Continue
            }
            (None, Some(mut f)) => {
                self.jump(&mut f, func, otherwise);
                *state = f;
                Step::Continue
            }
            (None, None) => {
                self.log.stats.pruned += 1;
                tracing::trace!(state = state.id, "path ended: neither side of the branch is feasible");
                Step::Terminated
            }
        }
    }

    /// The facts a summarised loop's counters give its exit: each counter
    /// lies beyond its start, when no trip can overflow it. A trip that
    /// overflows starts (the loop test `stay` holding) with the counter
    /// beyond its start and within one step of the type's end; when the
    /// solver rules that out, every trip stepped the counter without
    /// wrapping. Otherwise (or undecided) the counter stays arbitrary.
    fn counter_facts(&mut self, state: &State, counters: &[crate::exec::engine::state::SummaryCounter], stay: ExprId) -> Vec<ExprId> {
        let mut facts = Vec::new();
        for counter in counters {
            let mut path = state.path.clone();
            path.push(stay);
            path.push(counter.beyond_start);
            let feasibility = self.cx.decider.decide_branch(&mut self.cx.pool, &path, counter.next_overflows);
            let held = matches!(feasibility, crate::check::Feasibility::Unsat);
            tracing::debug!(state = state.id, held, "summarised loop: counter beyond its start");
            if held {
                facts.push(counter.beyond_start);
            }
        }
        facts
    }

    fn exec_switch(&mut self, state: &mut State, func: &'m Function, value: &Operand, default: BlockId, cases: &[(u128, BlockId)]) -> Step {
        let v = self.operand1(state, func, value);
        let w = self.cx.pool.width(v);
        if let Some(x) = self.cx.pool.as_const(v) {
            let target = cases.iter().find(|(c, _)| *c == x).map(|(_, b)| *b).unwrap_or(default);
            self.jump(state, func, target);
            return Step::Continue;
        }
        // Peel off one case at a time: `v == c` or the rest.
        let mut rest = state.clone();
        let mut forks = Vec::new();
        for (c, target) in cases {
            let ce = self.cx.pool.constant(w, *c);
            let hit = self.cx.pool.eq(v, ce);
            let (t, f) = self.branch(&mut rest, hit);
            if let Some(mut t) = t {
                self.jump(&mut t, func, *target);
                forks.push(t);
            }
            match f {
                Some(f) => rest = f,
                None => {
                    return self.finish_switch(state, forks);
                }
            }
        }
        self.jump(&mut rest, func, default);
        forks.push(rest);
        self.finish_switch(state, forks)
    }

    fn finish_switch(&mut self, state: &mut State, mut forks: Vec<State>) -> Step {
        let Some(first) = forks.pop() else {
            self.log.stats.pruned += 1;
            return Step::Terminated;
        };
        *state = first;
        for f in forks.iter_mut() {
            f.id = self.fork_id();
        }
        tracing::trace!(state = state.id, states = forks.len() + 1, "fork at a switch");
        if forks.is_empty() {
            Step::Continue
        } else {
            Step::Fork(forks)
        }
    }

    /// Moves to `target`, assigning its phi nodes from the block we leave.
    pub(in crate::exec) fn jump(&mut self, state: &mut State, func: &'m Function, target: BlockId) {
        let from = state.frame().block;
        let block = &func.blocks[target.0 as usize];
        if !matches!(block.insts.first().map(|i| &i.kind), Some(InstKind::Phi { .. })) {
            let frame = state.frame_mut();
            frame.prev_block = Some(from);
            frame.block = target;
            frame.pc = 0;
            return;
        }
        let mut assigned: Vec<(crate::ir::RegId, Value)> = Vec::new();
        let mut shadows = Vec::new();
        let shadowed = self.shadow_active(state);
        for inst in &block.insts {
            let InstKind::Phi { incoming } = &inst.kind else { break };
            if let (Some(dest), Some((_, op))) = (inst.dest, incoming.iter().find(|(b, _)| *b == from)) {
                let v = self.operand(state, func, op);
                assigned.push((dest, v));
                if shadowed {
                    let s = self.operand_shadow(state, func, op, inst.loc);
                    shadows.push((dest, s));
                }
            }
        }
        let frame = state.frame_mut();
        frame.prev_block = Some(from);
        frame.block = target;
        frame.pc = 0;
        for (d, v) in assigned {
            frame.regs[d.0 as usize] = Some(v);
        }
        for (d, s) in shadows {
            self.set_shadow(state, d, s);
        }
    }

    /// Calls a function defined in the module.
    pub(in crate::exec) fn call_function(
        &mut self,
        state: &mut State,
        callee: FuncId,
        args: Vec<Value>,
        dest: Option<crate::ir::RegId>,
        loc: Loc,
    ) -> Step {
        if state.stack.len() >= 10_000 {
            return self.unsupported(state, loc, "call depth above 10000 (unbounded recursion?)".into());
        }
        let f = self.cx.module.function(callee);
        let fixed = f.params.len();
        let extra: Vec<Value> = if f.varargs && args.len() > fixed { args[fixed..].to_vec() } else { Vec::new() };
        self.push_frame(state, callee, args, dest, loc);
        if let Err(step) = self.copy_byval_args(state, loc) {
            return step;
        }
        if f.varargs {
            let area = self.lay_out_varargs(state, &extra);
            state.frame_mut().varargs = Some(area);
        }
        Step::Continue
    }

    fn exec_return(&mut self, state: &mut State, value: Option<Value>, shadow: Option<crate::memory::shadow::Shadow>) -> Step {
        let frame = state.stack.pop().expect("return with an empty stack");
        for obj in frame.allocas {
            let o = state.memory.object_mut(obj);
            o.freed = true;
            o.free_line = Some(frame.call_loc);
        }
        if state.stack.is_empty() {
            // A kernel's work-item ended: its registers serve another's
            // entry frame (Executor::spare_entry_regs).
            if state.gpu.is_some() && self.spare_entry_regs.len() < MAX_SPARE_ENTRY_REGS {
                let mut regs = frame.regs;
                regs.clear();
                self.spare_entry_regs.push(regs);
            }
            return self.bottom_frame_returned(state, frame.call_loc);
        }
        if let (Some(dest), Some(v)) = (frame.ret_dest, value) {
            self.set_reg(state, dest, v);
            if shadow.is_some() || !state.frame().shadows.is_empty() {
                self.set_shadow(state, dest, shadow);
            }
        }
        Step::Continue
    }

    /// Variadic arguments are laid out in 8-byte slots; `va_start` points
    /// the va_list's overflow area at them (see calls.rs).
    fn lay_out_varargs(&mut self, state: &mut State, extra: &[Value]) -> crate::memory::ObjectId {
        let size = 8 * extra.len().max(1) as u64;
        let id = state.memory.allocate(&mut self.cx.pool, size, 16, crate::memory::ObjectKind::Stack, "varargs".into());
        for (k, v) in extra.iter().enumerate() {
            let lane = v[0];
            let w = self.cx.pool.width(lane);
            let wide = if w < 64 { self.cx.pool.zext(lane, 64) } else { self.cx.pool.trunc(lane, 64) };
            let slot: Vec<Option<crate::expr::ExprId>> = (0..8).map(|b| Some(self.cx.pool.extract(wide, b * 8, 8))).collect();
            state.memory.object_mut(id).bytes.write(&mut self.cx.pool, k as u64 * 8, &slot);
        }
        state.memory.object_mut(id).bytes.set_all_written(true);
        state.frame_mut().allocas.push(id);
        id
    }
}
