//! The events of asynchronous copies. OpenCL 1.2 section 6.12.10: an
//! `event_t` comes from `async_work_group_copy` or
//! `async_work_group_strided_copy`, and `wait_group_events` releases the
//! events it waits for. Waiting for a handle no copy of the work-item
//! returned (a zero, an uninitialised or made-up value), or for one
//! already released, is undefined: an `invalid-event` finding. Each
//! work-item keeps the events its copies returned and not yet waited for
//! (`WorkItem::live_events`) and those it released.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::ExprId;
use crate::ir::Loc;
use crate::report::FindingKind;

impl<'m> Executor<'m> {
    /// Checks the handles `wait_group_events` at `loc` read from its list
    /// (`handles`, in order): each must be a live event of the running
    /// work-item. A symbolic handle that can be none of them is a finding
    /// too, with the witness. On success the events are released and
    /// their numbers returned (0 for a symbolic handle that is surely
    /// live but not fixed: it completes no copy in particular).
    pub(in crate::exec) fn wait_for_events(&mut self, state: &mut State, handles: &[ExprId], loc: Loc) -> Result<Vec<u64>, Step> {
        let gpu = crate::exec::opencl::workitems::device(&state.gpu);
        let item = &gpu.items[gpu.current];
        let (live, released) = (item.live_events.clone(), item.released_events.clone());
        let mut events = Vec::new();
        for (k, &h) in handles.iter().enumerate() {
            let event = match self.cx.pool.as_const(h) {
                Some(e) if live.contains(&(e as u64)) => e as u64,
                Some(e) => {
                    let why = match released.iter().find(|(r, _)| *r == e as u64) {
                        Some((_, at)) => format!(
                            "was already waited for at line {} (wait_group_events releases the events it waits for)",
                            self.cx.location(*at).line
                        ),
                        None => "was returned by no async_work_group_copy or async_work_group_strided_copy of this work-item".into(),
                    };
                    // Handles symcross gives out are numbered from 2^48.
                    let what = if e >> 48 == 1 { "the event of an asynchronous copy".to_string() } else { format!("event {e}") };
                    let model = self.current_model(state);
                    let always = self.cx.pool.bool_const(true);
                    return Err(self.invalid_event(state, loc, k, &what, why, model, always));
                }
                None => {
                    // Can the handle be none of the live events?
                    let mut none = self.cx.pool.bool_const(true);
                    for &e in &live {
                        let c = self.cx.pool.constant(self.cx.pool.width(h), e as u128);
                        let eq = self.cx.pool.eq(h, c);
                        let ne = self.cx.pool.not(eq);
                        none = self.cx.pool.and(none, ne);
                    }
                    if let crate::check::Feasibility::Sat(m) = self.cx.decider.feasible(&self.cx.pool, &state.path, none) {
                        state.path.push(none);
                        state.model = Some(m.clone());
                        let why = "can be a value no asynchronous copy of this work-item returned";
                        return Err(self.invalid_event(state, loc, k, "an event computed from the input", why.into(), Some(m), none));
                    }
                    0
                }
            };
            events.push(event);
        }
        let gpu = crate::exec::opencl::workitems::device_mut(&mut state.gpu);
        let cur = gpu.current;
        let item = &mut gpu.items[cur];
        for e in &events {
            item.live_events.retain(|x| x != e);
            if *e != 0 && !item.released_events.iter().any(|(r, _)| r == e) {
                item.released_events.push((*e, loc));
            }
        }
        Ok(events)
    }

    /// Reports the `invalid-event` finding of the `k`th handle, found
    /// under `condition`, and ends the path. In pair mode, a finding whose
    /// path or condition rests on memory havocked at a barrier (a handle
    /// kept in `__local` memory) may need values no device holds: it is
    /// not confirmed.
    #[allow(clippy::too_many_arguments)]
    fn invalid_event(
        &mut self,
        state: &mut State,
        loc: Loc,
        k: usize,
        what: &str,
        why: String,
        model: Option<crate::expr::Assignment>,
        condition: ExprId,
    ) -> Step {
        let gpu = crate::exec::opencl::workitems::device(&state.gpu);
        let havocked = self.depends_on_havoc(state, gpu.log.havoc_fresh_from, condition);
        let label = self.item_label(&gpu.items[gpu.current], model.as_ref());
        let line = self.cx.location(loc).line;
        let msg = format!("wait_group_events at line {line}: {what} (element {k} of its list), waited for by work-item {label}, {why}");
        if let Some(f) = self.report(state, FindingKind::InvalidEvent, loc, msg, model.as_ref(), None) {
            if havocked {
                f.doubt(
                    "the handle or the path depends on memory havocked at a barrier (pair mode), which may hold values no device holds",
                );
            }
        }
        Step::Terminated
    }
}
