//! Work-group functions must be called alike by the whole group. OpenCL
//! 1.2 section 6.12.10: `async_work_group_copy` and
//! `async_work_group_strided_copy` "must be encountered by all work-items
//! in a work-group executing the kernel with the same argument values";
//! otherwise the behaviour is undefined. Each work-item keeps the copies it
//! started since the last barrier (call site and argument values); when
//! the group meets at a barrier or the end, every work-item's list is
//! compared with the first one's. A copy that only some work-items reach,
//! or whose arguments can differ between two of them (a source pointer
//! computed from the local id, an event chosen by the work-item), is a
//! `barrier-divergence` finding, as a barrier reached non-uniformly is.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::exec::opencl::workitems::RaceMode;
use crate::expr::ExprId;
use crate::ir::Loc;

/// One call of a work-group function by one work-item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupCall {
    /// The function's OpenCL name, for reports.
    pub name: String,
    /// The user's call site.
    pub loc: Loc,
    /// Every argument's value, lanes flattened, in order.
    pub args: Vec<ExprId>,
}

impl<'m> Executor<'m> {
    /// Notes that the running work-item called a work-group function at
    /// `loc`: the running frame is the function's own, so its parameters
    /// hold the arguments.
    pub(in crate::exec) fn note_group_call(&mut self, state: &mut State, loc: Loc) {
        let frame = state.frame();
        let func = self.cx.module.function(frame.func);
        let args: Vec<ExprId> =
            func.params.iter().filter_map(|p| frame.regs.get(p.reg.0 as usize).cloned().flatten()).flat_map(|v| v.into_iter()).collect();
        let name = crate::ir::demangle(&func.name).map_or(func.name.as_str(), |(n, _)| n).to_string();
        self.record_group_call(state, &name, loc, args);
    }

    /// Notes that the running work-item called a work-group function at
    /// `loc` with `args` (those the group must agree on).
    pub(in crate::exec) fn record_group_call(&mut self, state: &mut State, name: &str, loc: Loc, args: Vec<ExprId>) {
        let Some(gpu) = state.gpu.as_mut() else { return };
        let cur = gpu.current;
        gpu.items[cur].group_calls.push(GroupCall { name: name.to_string(), loc, args });
    }

    /// At a barrier or the group's end: true when every work-item made the
    /// same work-group function calls with the same arguments since the
    /// last barrier; otherwise a finding is reported and false returned.
    pub(in crate::exec) fn group_calls_agree(&mut self, state: &mut State) -> bool {
        let gpu = crate::exec::opencl::workitems::device(&state.gpu);
        if gpu.items.iter().all(|i| i.group_calls.is_empty()) {
            return true;
        }
        let pair = gpu.mode == RaceMode::Pair;
        let items = gpu.items.clone();
        let first = &items[0];
        for other in &items[1..] {
            // In pair mode the two work-items may be in different groups.
            let same_group =
                if pair { crate::race::same_group(&mut self.cx.pool, &first.group, &other.group) } else { self.cx.pool.bool_const(true) };
            let (a, b) = (&first.group_calls, &other.group_calls);
            // The first call of the two lists that can differ on this path.
            let mut found = None;
            for k in 0..a.len().max(b.len()) {
                let (call, differ, both_called) = match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) if x.loc == y.loc && x.args.len() == y.args.len() => {
                        let mut differ = self.cx.pool.bool_const(false);
                        for (&p, &q) in x.args.iter().zip(&y.args) {
                            let e = self.cx.pool.eq(p, q);
                            let ne = self.cx.pool.not(e);
                            differ = self.cx.pool.or(differ, ne);
                        }
                        (x, differ, true)
                    }
                    (Some(x), _) | (None, Some(x)) => (x, self.cx.pool.bool_const(true), false),
                    (None, None) => break,
                };
                let condition = self.cx.pool.and(same_group, differ);
                match self.cx.decider.feasible(&self.cx.pool, &state.path, condition) {
                    crate::check::Feasibility::Unsat => continue,
                    crate::check::Feasibility::Sat(m) => found = Some((call.clone(), both_called, condition, Some(m))),
                    crate::check::Feasibility::Unknown(_) => found = Some((call.clone(), both_called, condition, None)),
                }
                break;
            }
            let Some((call, both_called, condition, witness)) = found else { continue };
            let (ida, idb) = (self.item_label(first, witness.as_ref()), self.item_label(other, witness.as_ref()));
            let (line, name, loc) = (self.cx.location(call.loc).line, call.name, call.loc);
            let msg = if both_called {
                format!(
                    "barrier divergence: work-items {ida} and {idb} call the work-group function {name} at line {line} with \
                     different arguments (every work-item of a group must make the same call)"
                )
            } else {
                format!(
                    "barrier divergence: the work-group function {name} at line {line} is called by one of work-items {ida} and \
                     {idb} but not by the other (every work-item of a group must make the same call)"
                )
            };
            // Where each stopped, for the report's picture.
            let calls = |item: &crate::exec::opencl::workitems::WorkItem| {
                if item.group_calls.iter().any(|c| c.loc == loc) {
                    format!("calls {name} at line {line}")
                } else {
                    format!("does not call {name} at line {line}")
                }
            };
            let stops = [(first, calls(first)), (other, calls(other))];
            self.report_divergence(state, loc, msg, witness.as_ref(), condition, stops);
            return false;
        }
        true
    }
}
