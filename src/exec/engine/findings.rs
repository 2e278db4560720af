//! Reporting a finding: de-duplicated by its key (run_log.rs; a confirmed
//! race takes the place of an unconfirmed one of its key), confirmed
//! by a witness unless something on the path over-approximated (a
//! summarised loop, an unsized buffer's forgotten bytes, an `unknown`
//! solver answer, the device's havoc), and placed with its call stack.

use crate::exec::engine::device::DeviceState;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::run_log::FindingKey;
use crate::exec::engine::state::State;
use crate::expr::Assignment;
use crate::ir::Loc;
use crate::report::{DecidedBy, Finding, FindingKind, Related, Status};

impl<'m> Executor<'m> {
    /// Records a finding at `loc` unless the same one was already reported.
    /// The witness, if any, decides the status.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec) fn report(
        &mut self,
        state: &State,
        kind: FindingKind,
        loc: Loc,
        message: String,
        witness: Option<&Assignment>,
        decided_by: Option<DecidedBy>,
    ) -> Option<&mut Finding> {
        // Before the de-duplication: every faulting path counts.
        self.keep_faulted_path(state, kind);
        // A finding inside a function of a CUDA model header (the loop of
        // cooperative groups' memcpy_async) is the user's call's: reported
        // there, as its races are, not at the header's line.
        let (loc, header_frames) = match self.cx.module.is_cuda() {
            true => {
                let (site, user_frame) = self.user_call_frame(state, loc);
                (site, state.stack.len().saturating_sub(1) - user_frame)
            }
            false => (loc, 0),
        };
        // A finding of a key already reported is dropped, except that a
        // confirmed race takes the place of an unconfirmed one at its line
        // (`replacing`): a race is reported once per line, and the first
        // path to reach it may have been one that confirms nothing.
        self.log.settle_upgrade();
        let key = FindingKey::of(kind, loc, &message);
        let replacing = match self.log.first_of(key.clone()) {
            true => None,
            false if kind == FindingKind::Race => Some(self.log.upgradable(&key)?),
            false => return None,
        };
        let witness = witness.or(if state.unconfirmed_path { None } else { state.model.as_ref() });
        // A kernel's path may have no model yet (pair mode's symbolic ids
        // constrained, no branch taken on them): a finding that holds on
        // the whole path is made by the work-item any of its models names.
        // Races and barrier divergences hold under a condition of their
        // own, which gives their witness.
        let path_model;
        let own_condition = matches!(kind, FindingKind::Race | FindingKind::BarrierDivergence | FindingKind::Unsupported);
        let witness = match witness {
            None if state.gpu.is_some() && !state.unconfirmed_path && !own_condition => {
                let t = self.cx.pool.bool_const(true);
                path_model = match self.cx.decider.feasible(&self.cx.pool, &state.path, t) {
                    crate::check::Feasibility::Sat(m) => Some(m),
                    _ => None,
                };
                path_model.as_ref()
            }
            w => w,
        };
        let in_range;
        let witness = match witness {
            Some(w) if state.memory.objects().any(|(_, o)| o.ranged.is_some()) => {
                in_range = ranged_elements_in_range(state, w);
                Some(&in_range)
            }
            w => w,
        };
        let mut message = message;
        // A kernel finding names the work-item that made it; races and
        // barrier divergences name their two work-items themselves, and a
        // performance diagnostic is about a whole warp.
        if !matches!(kind, FindingKind::Race | FindingKind::BarrierDivergence | FindingKind::Unsupported) && !kind.is_performance() {
            if let Some(who) = self.running_unit(state, witness).filter(|who| !message.contains(who.as_str())) {
                message.push_str(&format!(", by {who}"));
            }
        }
        let mut status = if witness.is_some() { Status::Confirmed } else { Status::Unconfirmed };
        if state.abstracted && kind != FindingKind::Unsupported {
            status = Status::Unconfirmed;
            message.push_str(
                "; not confirmed: the path went through a loop summarised after --loop-bound unrollings, at its first floating-point \
                 test in a kernel, or, having no effect, at its first test (its variables were given arbitrary values; it may never end)",
            );
        }
        // Races and barrier divergences are judged by their own condition
        // too (`inexact_note`); any other finding's condition is not known
        // here, so any over-approximated byte on the path unconfirms it.
        let judged_by_condition = matches!(kind, FindingKind::Race | FindingKind::BarrierDivergence);
        if let Some(inexact) = state.inexact_unsized.as_ref().filter(|_| kind != FindingKind::Unsupported) {
            if !judged_by_condition || inexact.mentioned_in(&self.cx.pool, state.path.iter().copied()) {
                status = Status::Unconfirmed;
                message.push_str(&Self::inexact_unsized_note(&inexact.buffer));
            }
        }
        if let Some(why) = witness.and_then(|w| self.cx.decider.path_unconfirmed_because(&self.cx.pool, &state.path, w)) {
            status = Status::Unconfirmed;
            message.push_str(&format!("; not confirmed: {why}"));
        }
        if let Some(why) = self.declared_result_doubt(state.path.iter().copied()).filter(|_| kind != FindingKind::Unsupported) {
            status = Status::Unconfirmed;
            message.push_str(&why);
        }
        // Races and barrier divergence weigh the device's over-approximation
        // against their own condition (they hold it apart from the path).
        let judged_by_device = !matches!(kind, FindingKind::Unsupported | FindingKind::Race | FindingKind::BarrierDivergence);
        if let Some(why) = state.gpu.as_ref().filter(|_| judged_by_device).and_then(|d| d.unconfirmable_because(&self.cx.pool, &state.path))
        {
            if status == Status::Confirmed {
                status = Status::Unconfirmed;
                message.push_str(&format!("; not confirmed: {why}"));
                self.unconfirmed_by_device(state, witness, why);
            }
        }
        if replacing.is_some() && status != Status::Confirmed {
            return None;
        }
        tracing::debug!(kind = kind.name(), ?status, line = loc.line, "finding: {message}");
        let related = state
            .stack
            .iter()
            .rev()
            .skip(1)
            .zip(state.stack.iter().rev())
            .skip(header_frames)
            .map(|(caller, callee)| Related {
                message: format!("called from {}", self.cx.module.function(caller.func).name),
                location: self.cx.location(callee.call_loc),
            })
            .collect();
        let finding = Finding {
            witness: witness.map(|w| self.cx.witness(w)),
            witness_values: witness.map(|w| self.cx.witness_values(w)).filter(|v| !v.is_empty()),
            decided_by,
            related,
            ..Finding::new(kind, status, message, self.cx.location(loc))
        };
        if let Some(i) = replacing {
            return Some(self.log.upgrade(i, finding));
        }
        self.log.findings.push(finding);
        self.log.findings.last_mut()
    }

    /// Stops the path with an `unsupported` finding naming the construct
    /// and the function it is in (the location gives the source line). The
    /// path ends here: nothing after the construct can be trusted.
    pub(in crate::exec) fn unsupported(&mut self, state: &State, loc: Loc, what: String) -> Step {
        let message = match state.stack.last() {
            Some(frame) => format!("{what}, in function `{}`", self.cx.module.function(frame.func).name),
            None => what,
        };
        self.report(state, FindingKind::Unsupported, loc, message, None, None);
        Step::Terminated
    }
}

/// The witness with the elements of ranged buffers that lie outside their
/// range put in it (memory/ranged_input.rs): the path constrains each
/// element it reads, so these were never read, and a host would not pass
/// such values.
fn ranged_elements_in_range(state: &State, witness: &Assignment) -> Assignment {
    let mut w = witness.clone();
    for (_, o) in state.memory.objects() {
        if let Some(r) = &o.ranged {
            r.fill_out_of_range(o.size, w.arrays.entry(r.array).or_default());
        }
    }
    w
}
