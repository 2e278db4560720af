//! The executor's side of the performance diagnostics (`symcross race
//! --perf`, race/perf/): at the end of each barrier interval, every warp
//! instruction of the interval is measured on the path's inputs, and
//! where its addresses or conditions depend on the inputs the solver is
//! asked for a worse case, within `PerfConfig::max_queries` per interval.
//! Each source access or branch is reported once, with the worst case
//! found over warps, groups and paths, and the inputs that give it.

use crate::check::Feasibility;
use crate::config::PerfConfig;
use crate::exec::engine::executor::Executor;
use crate::exec::engine::run_log::NoteKind;
use crate::exec::engine::state::State;
use crate::expr::{Assignment, ExprId, ExprPool};
use crate::ir::{Loc, LOCAL_SPACE};
use crate::race::perf::{bank, coalescing, divergence, thread_list, BranchRecord, Lane, WarpAccess, WarpBranch};
use crate::report::{FindingKind, RaceMode};

/// The solver work of one interval's measures, and what it left short.
struct PerfBudget {
    asked: u64,
    max: u64,
    /// Source lines whose worst case was not searched to the end.
    short: Vec<Loc>,
}

impl<'m> Executor<'m> {
    /// The running work-item branches on `cond` at `loc`: kept for the
    /// divergence measure of its warp.
    pub(in crate::exec) fn note_branch_for_perf(&mut self, state: &mut State, cond: ExprId, loc: Loc) {
        if self.cx.config.perf.is_none() {
            return;
        }
        let Some(gpu) = state.gpu.as_mut() else { return };
        if gpu.mode != RaceMode::Enumerate {
            return;
        }
        let item = gpu.current;
        let group_ids = gpu.items[item].group;
        gpu.log.perf.branch(BranchRecord { group_key: gpu.group, item, group_ids, loc, cond });
    }

    /// Measures the warp instructions of the interval that just ended.
    pub(in crate::exec) fn check_perf(&mut self, state: &mut State) {
        let Some(cfg) = self.cx.config.perf else { return };
        let Some(gpu) = state.gpu.as_mut() else { return };
        if gpu.mode != RaceMode::Enumerate {
            self.log.note(
                NoteKind::PerfIncomplete,
                "--perf measures whole warps, which only enumerate mode runs: the kernel ran in pair mode (two symbolic work-items), \
                 so no bank conflict, coalescing or divergence was measured (--mode enumerate runs every work-item)"
                    .into(),
            );
            return;
        }
        let window = gpu.log.take_perf_window(cfg.warp_size);
        let mut budget = PerfBudget { asked: 0, max: cfg.max_queries, short: Vec::new() };
        for a in &window.accesses {
            if a.space == LOCAL_SPACE {
                // The banks serve `banks` lanes at a time: a wider warp (a
                // wavefront of 64 over 32 banks) is served in parts, and a
                // conflict is between the lanes of one part.
                let part = |l: &Lane| (l.thread % cfg.warp_size) / cfg.banks.max(1);
                let mut parts: Vec<WarpAccess> = Vec::new();
                for l in &a.lanes {
                    match parts.iter_mut().find(|p| part(&p.lanes[0]) == part(l)) {
                        Some(p) => p.lanes.push(*l),
                        None => parts.push(WarpAccess { lanes: vec![*l], ..a.clone() }),
                    }
                }
                for p in &parts {
                    self.measure_bank_conflict(state, p, &cfg, &mut budget);
                }
            } else {
                self.measure_coalescing(state, a, &cfg, &mut budget);
            }
        }
        for b in &window.branches {
            self.measure_divergence(state, b, &cfg, &mut budget);
        }
        if window.dropped_branches > 0 {
            self.log.note(
                NoteKind::PerfIncomplete,
                format!(
                    "--perf: a barrier interval ran more than {} branches (work-items looping long between barriers); the {} past \
                     them were not measured for warp divergence",
                    crate::race::perf::MAX_BRANCH_RECORDS,
                    window.dropped_branches
                ),
            );
        }
        for loc in budget.short {
            let line = self.cx.location(loc);
            self.log.note(
                NoteKind::PerfIncomplete,
                format!(
                    "--perf: the worst case at {}:{} depends on the inputs and was not searched to the end (the {} solver queries of a \
                     barrier interval ran out, --perf-queries, or the solver gave no answer): the warning there, if any, gives a \
                     lower bound",
                    line.file, line.line, cfg.max_queries
                ),
            );
        }
    }

    fn measure_bank_conflict(&mut self, state: &mut State, a: &WarpAccess, cfg: &PerfConfig, budget: &mut PerfBudget) {
        let kind = FindingKind::BankConflict;
        let max = a.lanes.len() as u64;
        if max < 2 || self.perf_worst_at(kind, a.loc) >= max {
            return;
        }
        let len = a.len;
        let found = self.worst_case(
            state,
            &a.lanes,
            a.loc,
            budget,
            max,
            |lanes| bank::conflict(lanes, len, cfg),
            |c| u64::from(c.degree),
            |pool, lanes, k| bank::degree_at_least(pool, lanes, k as u32, cfg),
        );
        let Some((c, witness)) = found else { return };
        if c.degree < 2 {
            return;
        }
        let name = state.memory.object(a.object).name.clone();
        let rw = if a.write { "write" } else { "read" };
        let message = format!(
            "{}-way bank conflict: threads {} of warp {} of {} hit bank {} at {} different words of {} buffer `{name}` ({rw}; \
             {} banks of {} bytes, warp size {})",
            c.degree,
            thread_list(&c.threads),
            a.warp,
            self.group_label(&a.group_ids),
            c.bank,
            c.degree,
            if self.cx.module.is_cuda() { "shared" } else { "local" },
            cfg.banks,
            cfg.bank_width,
            cfg.warp_size
        );
        self.report_perf(state, kind, a.loc, u64::from(c.degree), message, witness);
    }

    fn measure_coalescing(&mut self, state: &mut State, a: &WarpAccess, cfg: &PerfConfig, budget: &mut PerfBudget) {
        let kind = FindingKind::UncoalescedAccess;
        let max = 2 * a.lanes.len() as u64;
        if self.perf_worst_at(kind, a.loc) >= max {
            return;
        }
        let len = a.len;
        let found = self.worst_case(
            state,
            &a.lanes,
            a.loc,
            budget,
            max,
            |lanes| coalescing::transactions(lanes, len, cfg),
            |t| t.segments,
            |pool, lanes, k| coalescing::segments_at_least(pool, lanes, len, k, cfg),
        );
        let Some((t, witness)) = found else { return };
        if t.segments <= t.ideal {
            return;
        }
        let name = state.memory.object(a.object).name.clone();
        let rw = if a.write { "write to" } else { "read of" };
        let apart = match t.apart {
            Some((x, y, d)) => {
                format!("; threads {x} and {y} of warp {} of {} access bytes {d} apart", a.warp, self.group_label(&a.group_ids))
            }
            None => String::new(),
        };
        let message = format!(
            "uncoalesced access: a warp's {rw} global buffer `{name}` needs {} transactions of {} bytes ({} lines of {} bytes) where {} \
             would do{apart} (warp size {})",
            t.segments,
            cfg.segment,
            t.lines,
            crate::config::CACHE_LINE,
            t.ideal,
            cfg.warp_size
        );
        self.report_perf(state, kind, a.loc, t.segments, message, witness);
    }

    fn measure_divergence(&mut self, state: &mut State, b: &WarpBranch, cfg: &PerfConfig, budget: &mut PerfBudget) {
        let kind = FindingKind::WarpDivergence;
        if b.lanes.len() < 2 || self.perf_worst_at(kind, b.loc) >= 1 {
            return;
        }
        let constant: Option<Vec<(u32, bool)>> =
            b.lanes.iter().map(|l| self.cx.pool.as_const(l.value).map(|v| (l.thread, v != 0))).collect();
        let (pair, witness) = match constant {
            Some(directions) => (divergence::split(&directions), None),
            None => {
                let model = self.current_model(state);
                let under = |m: &Assignment, pool: &ExprPool| -> Vec<(u32, bool)> {
                    b.lanes.iter().map(|l| (l.thread, crate::expr::evaluate(pool, l.value, m) & 1 != 0)).collect()
                };
                match model.as_ref().and_then(|m| divergence::split(&under(m, &self.cx.pool))) {
                    Some(p) => (Some(p), model),
                    None if budget.asked >= budget.max => {
                        budget.short.push(b.loc);
                        (None, None)
                    }
                    None => {
                        budget.asked += 1;
                        let q = divergence::diverges(&mut self.cx.pool, &b.lanes);
                        match self.cx.decider.feasible(&self.cx.pool, &state.path, q) {
                            Feasibility::Sat(m) => (divergence::split(&under(&m, &self.cx.pool)), Some(m)),
                            Feasibility::Unsat => (None, None),
                            Feasibility::Unknown(_) => {
                                budget.short.push(b.loc);
                                (None, None)
                            }
                        }
                    }
                }
            }
        };
        let Some((taken, not_taken)) = pair else { return };
        let message = format!(
            "warp divergence: threads {taken} and {not_taken} of warp {} of {} take different directions at this branch (thread \
             {taken} takes it, thread {not_taken} does not), so the warp runs both sides (warp size {})",
            b.warp,
            self.group_label(&b.group_ids),
            cfg.warp_size
        );
        self.report_perf(state, kind, b.loc, 1, message, witness);
    }

    /// The worst measure of a warp access over the inputs of the path:
    /// exact when the offsets are constants; otherwise the measure on the
    /// path's own inputs, raised by asking the solver for inputs with a
    /// larger metric until none exist (or the budget ends). The inputs of
    /// the worst case come with it when they matter.
    #[allow(clippy::too_many_arguments)]
    fn worst_case<M>(
        &mut self,
        state: &mut State,
        lanes: &[Lane],
        loc: Loc,
        budget: &mut PerfBudget,
        max: u64,
        measure: impl Fn(&[(u32, u64)]) -> M,
        metric: impl Fn(&M) -> u64,
        at_least: impl Fn(&mut ExprPool, &[(ExprId, ExprId)], u64) -> ExprId,
    ) -> Option<(M, Option<Assignment>)> {
        if let Some(concrete) = concrete_lanes(&self.cx.pool, lanes, None) {
            return Some((measure(&concrete), None));
        }
        let model = self.current_model(state);
        let mut best = model.and_then(|m| concrete_lanes(&self.cx.pool, lanes, Some(&m)).map(|c| (measure(&c), Some(m))));
        let yes = self.cx.pool.bool_const(true);
        let pairs: Vec<(ExprId, ExprId)> = lanes.iter().map(|l| (l.value, l.guard.unwrap_or(yes))).collect();
        loop {
            let k = best.as_ref().map_or(1, |(m, _)| metric(m) + 1);
            if k > max {
                break;
            }
            if budget.asked >= budget.max {
                budget.short.push(loc);
                break;
            }
            let q = at_least(&mut self.cx.pool, &pairs, k);
            if self.cx.pool.as_const(q) == Some(0) {
                break;
            }
            budget.asked += 1;
            match self.cx.decider.feasible(&self.cx.pool, &state.path, q) {
                Feasibility::Sat(m) => {
                    let Some(c) = concrete_lanes(&self.cx.pool, lanes, Some(&m)) else { break };
                    let found = measure(&c);
                    if metric(&found) < k {
                        // The model does not show what the query promised:
                        // keep what is shown.
                        budget.short.push(loc);
                        break;
                    }
                    best = Some((found, Some(m)));
                }
                Feasibility::Unsat => break,
                Feasibility::Unknown(_) => {
                    budget.short.push(loc);
                    break;
                }
            }
        }
        best
    }

    /// The worst measure reported so far at `loc` (0: none).
    fn perf_worst_at(&self, kind: FindingKind, loc: Loc) -> u64 {
        self.models.perf_worst.get(&(kind, loc)).map_or(0, |w| w.0)
    }

    /// Reports a performance finding, or makes the one already reported at
    /// `loc` say this worse case.
    fn report_perf(&mut self, state: &mut State, kind: FindingKind, loc: Loc, metric: u64, message: String, witness: Option<Assignment>) {
        let witness = witness.or_else(|| self.current_model(state));
        if let Some(&(old, index)) = self.models.perf_worst.get(&(kind, loc)) {
            if metric <= old {
                return;
            }
            let location = self.cx.location(loc);
            let (w, values) = (witness.as_ref().map(|m| self.cx.witness(m)), witness.as_ref().map(|m| self.cx.witness_values(m)));
            if let Some(f) = self.log.findings.get_mut(index).filter(|f| f.kind == kind && f.location == location) {
                f.message = message;
                if w.is_some() {
                    f.witness = w;
                    f.witness_values = values.filter(|v| !v.is_empty());
                }
                self.models.perf_worst.insert((kind, loc), (metric, index));
            }
            return;
        }
        let mut s = state.clone();
        s.stack.clear();
        if self.report(&s, kind, loc, message, witness.as_ref(), None).is_some() {
            let index = self.log.findings.len() - 1;
            self.models.perf_worst.insert((kind, loc), (metric, index));
        }
    }

    /// `group (x,y,z)` of a group whose ids are constants (enumerate
    /// mode); `block (x,y,z)` in CUDA code.
    fn group_label(&self, ids: &[ExprId; 3]) -> String {
        let v: Vec<String> = ids.iter().map(|&e| self.cx.pool.as_const(e).map_or("?".into(), |v| v.to_string())).collect();
        let noun = if self.cx.module.is_cuda() { "block" } else { "group" };
        format!("{noun} ({})", v.join(","))
    }
}

/// The active lanes of a warp access as `(thread, offset)`, evaluated under
/// `model` where they are not constants; None when some lane needs a model
/// and there is none.
fn concrete_lanes(pool: &ExprPool, lanes: &[Lane], model: Option<&Assignment>) -> Option<Vec<(u32, u64)>> {
    let value = |e: ExprId| match pool.as_const(e) {
        Some(v) => Some(v),
        None => model.map(|m| crate::expr::evaluate(pool, e, m)),
    };
    let mut out = Vec::with_capacity(lanes.len());
    for l in lanes {
        if let Some(g) = l.guard {
            if value(g)? & 1 == 0 {
                continue;
            }
        }
        out.push((l.thread, value(l.value)? as u64));
    }
    Some(out)
}
