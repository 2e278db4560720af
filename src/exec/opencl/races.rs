//! The executor's side of race detection: it reports accesses to the
//! access log of the running NDRange and turns feasible conflicts into
//! `race` findings with both accesses, their work-items and a witness.

use crate::check::Feasibility;
use crate::exec::engine::executor::Executor;
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::run_log::FindingKey;
use crate::exec::engine::state::State;
use crate::expr::ExprId;
use crate::ir::Loc;
use crate::ir::{GLOBAL_SPACE, LOCAL_SPACE};
use crate::memory::Access;
use crate::race::{AccessKind, AccessLog, AccessRecord, Candidate, Offered, RaceSink, ReportedAccess, WorkItemIds};
use crate::report::{FindingKind, Related};

impl<'m> Executor<'m> {
    /// Records an access for the race detector when a kernel is running.
    pub(in crate::exec) fn observe_access(
        &mut self,
        state: &mut State,
        access: &Access,
        len: u64,
        kind: AccessKind,
        value: Option<Vec<ExprId>>,
        loc: Loc,
    ) {
        let (write, atomic) = (kind.writes(), kind.atomic());
        if state.streams.is_some() && len != crate::race::WHOLE_OBJECT {
            let how = match (atomic, write) {
                (true, _) => crate::exec::opencl::cuda_streams::Use::Atomic,
                (false, true) => crate::exec::opencl::cuda_streams::Use::Write,
                (false, false) => crate::exec::opencl::cuda_streams::Use::Read,
            };
            self.record_stream_access(state, access.object, access.offset, len, how);
        }
        // A compare-and-exchange's read is checked with its write (or, when
        // it can never write, by observe_atomic).
        // A call to a function without a body may or may not touch the
        // object: no access of it is a finding by itself.
        if state.gpu.is_some() && kind != AccessKind::AtomicRead && len != crate::race::WHOLE_OBJECT {
            self.check_host_readable(state, access, len, kind, loc);
        }
        let Some(gpu) = state.gpu.as_mut() else { return };
        let space = state.memory.object(access.object).addr_space;
        if space != GLOBAL_SPACE && space != LOCAL_SPACE {
            return;
        }
        *self.log.coverage.memory_accesses.get_or_insert(0) += 1;
        let cur = gpu.current;
        let item = &gpu.items[cur];
        // An asynchronous copy's accesses are the copy's, reported at the
        // user's call.
        let (async_event, loc) = match item.async_copy {
            Some((event, call)) => (Some(event), call),
            None => (None, self.user_site(&state.stack, loc)),
        };
        let group_key = (gpu.mode == crate::exec::opencl::workitems::RaceMode::Enumerate).then_some(gpu.group);
        let record = ReportedAccess {
            item: cur,
            ids: WorkItemIds { local: item.local, group_key, group: item.group },
            object: access.object,
            space,
            offset: access.offset,
            len,
            write,
            atomic,
            value,
            loc,
            async_event,
        };
        gpu.log.record(record);
    }

    /// Where the user's code made an access at `loc`: inside functions
    /// of a CUDA model header (cuRAND's draws, cl-runtime-model/cuda/),
    /// the user's call that led there.
    fn user_site(&self, stack: &[crate::exec::engine::state::Frame], loc: Loc) -> Loc {
        // Called on every access an OpenCL work-item makes, where no
        // header of the CUDA model can be on the stack: the file-name
        // search is kept for CUDA modules, and after the cheap test.
        if !self.cx.module.is_cuda() {
            return loc;
        }
        let in_header = |l: Loc| self.cx.module.file_name(l).contains("cl-runtime-model/cuda/");
        let mut site = loc;
        for frame in stack.iter().rev() {
            if frame.call_loc.line == 0 || !in_header(self.cx.module.function(frame.func).loc) {
                break;
            }
            site = frame.call_loc;
        }
        site
    }

    /// Records an atomic operation: a read-modify-write, or, when it writes
    /// only under `written_when` (a compare-and-exchange whose compare
    /// succeeds), its read and a write that happens only then. A failed
    /// compare writes nothing, so it races with no plain read.
    pub(in crate::exec) fn observe_atomic(&mut self, state: &mut State, access: &Access, len: u64, written_when: Option<ExprId>, loc: Loc) {
        let Some(guard) = written_when else {
            self.observe_access(state, access, len, AccessKind::Atomic, None, loc);
            return;
        };
        self.observe_access(state, access, len, AccessKind::AtomicRead, None, loc);
        if self.cx.pool.as_const(guard) == Some(0) {
            if state.gpu.is_some() {
                self.check_host_readable(state, access, len, AccessKind::Atomic, loc);
            }
            return;
        }
        let before = state.gpu.as_ref().map(|g| g.log.record_count());
        self.observe_access(state, access, len, AccessKind::Atomic, None, loc);
        if let Some(gpu) = state.gpu.as_mut() {
            if Some(gpu.log.record_count()) != before && self.cx.pool.as_const(guard).is_none() {
                gpu.log.guard_last(guard);
            }
        }
    }

    /// Records a plain write of `value` that happens only when `guard`
    /// holds.
    pub(in crate::exec) fn observe_guarded_write(
        &mut self,
        state: &mut State,
        access: &Access,
        len: u64,
        value: Vec<ExprId>,
        guard: ExprId,
        loc: Loc,
    ) {
        let before = state.gpu.as_ref().map(|g| g.log.record_count());
        self.observe_access(state, access, len, AccessKind::Write, Some(value), loc);
        if let Some(gpu) = state.gpu.as_mut() {
            if Some(gpu.log.record_count()) != before && self.cx.pool.as_const(guard).is_none() {
                gpu.log.guard_last(guard);
            }
        }
    }

    /// Asks about every candidate conflict and reports the feasible ones.
    pub(in crate::exec) fn check_races(&mut self, state: &mut State, final_check: bool) {
        let Some(mut gpu) = state.gpu.take() else { return };
        let mut log = std::mem::take(&mut gpu.log);
        let read_write = self.cx.config.benign_read_write;
        let mut budget = QueryBudget::default();
        let mut sink = RaceQueries { exec: self, state, gpu: &gpu, budget: &mut budget, undecided: 0 };
        log.check(&mut sink, final_check, crate::race::Tolerance { write_write: gpu.allow_benign, read_write });
        let undecided = sink.undecided;
        let asked = budget.asked;
        gpu.log = log;
        state.gpu = Some(gpu);
        if !final_check {
            self.check_perf(state);
        }
        if undecided > 0 {
            // The pairs past the budget were never asked about: no
            // race-free verdict may rest on them.
            let max = self.cx.config.max_race_queries;
            let who = self.running_unit(state, state.model.as_ref()).map(|w| format!(" (at {w})")).unwrap_or_default();
            self.cut_path(
                crate::exec::engine::executor::LimitHit::RaceQueries,
                format!(
                    "a race check{who} asked {asked} solver queries about pairs of accesses and left {undecided} pairs undecided (--max-race-queries {max})"
                ),
            );
        }
    }

    /// A limit stopped the run inside a kernel: the accesses made so far
    /// are still judged, within the group and across groups.
    pub(in crate::exec) fn check_races_at_limit(&mut self, state: &mut State) {
        if state.gpu.is_some() {
            self.check_races(state, false);
            self.check_races(state, true);
        }
    }

    /// Decides one candidate conflict, within the run's budget of queries
    /// per check.
    fn decide_race(
        &mut self,
        state: &mut State,
        gpu: &crate::exec::opencl::workitems::Gpu,
        log: &crate::race::AccessLog,
        c: Candidate,
        budget: &mut QueryBudget,
    ) -> Decision {
        let (mut a, mut b) = (&log.records[c.a], &log.records[c.b]);
        // --only-warp: a pair of two warps or blocks is no candidate;
        // --no-warp: a pair of one warp is none.
        let mut c = c;
        if self.cx.config.only_warp || self.cx.config.no_warp {
            let same_warp = self.same_warp_condition(log, a, b, gpu.ndrange.local);
            let wanted = if self.cx.config.only_warp { same_warp } else { self.cx.pool.not(same_warp) };
            if self.cx.pool.as_const(wanted) == Some(0) {
                return Decision::NoRace;
            }
            c.condition = self.cx.pool.and(c.condition, wanted);
        }
        // Report from the earlier source line, so that the same race found
        // on several paths (or in both orders) is reported once.
        let key = log.location_key(a, b);
        if key.0 != log.loc(a) {
            std::mem::swap(&mut a, &mut b);
        }
        // A race is reported once per source line: when a confirmed one is
        // already reported at `a`'s, this pair's report would be dropped,
        // so it is not asked about (its values may be huge expressions
        // whose queries cost more than the whole run). An unconfirmed one
        // there is replaced by a confirmed one (`report`), so the pair is
        // asked about unless it cannot be confirmed either (below).
        let line_key = FindingKey::of(FindingKind::Race, log.loc(a), "");
        if self.log.was_confirmed(&line_key) {
            return Decision::Race(Offered::SettledForPath);
        }
        // Benign write-write races store equal values: with
        // --allow-benign-races only a pair that can store different values
        // is a race.
        // A read-write pair carries `differ` only under the read-write
        // tolerance (--allow-benign-read-write): the write must store a
        // value other than the one read.
        // Pair mode: values read from memory havocked at a barrier are the
        // same fresh bytes for both work-items, even when they are in
        // different groups, whose `__local` memories differ. Equal values
        // there prove nothing: the race is reported, unconfirmed.
        let may_tolerate = if a.write && b.write { gpu.allow_benign } else { c.differ.is_some() };
        let values_havocked = (may_tolerate || a.write && b.write)
            && log.havoc_fresh_from.is_some_and(|from| {
                let (va, vb) = (a.value(), b.value());
                let values = va.iter().chain(vb.iter()).flat_map(|v| v.iter().copied());
                crate::exec::opencl::havoc::mentions_fresh_from(&self.cx.pool, values, from)
            });
        let tolerated = may_tolerate && !values_havocked;
        if self.log.was_reported(&line_key) && self.race_stays_unconfirmed(state, gpu, log, a, b, c.condition, values_havocked) {
            return Decision::Race(Offered::SettledForCheck);
        }
        let condition = match (tolerated, c.differ) {
            (true, Some(d)) => {
                // The accesses must meet before their values matter: that
                // is an integer question, while the values may be floats
                // (`p[i] + 1.0f`) that only the slower floating-point
                // solver decides, and may time out on.
                if self.cx.pool.as_const(c.condition).is_none() {
                    if budget.never.contains(&c.condition) {
                        return Decision::NoRace;
                    }
                    if budget.asked >= self.cx.config.max_race_queries {
                        return Decision::Undecided;
                    }
                    budget.asked += 1;
                    if matches!(self.cx.decider.feasible(&self.cx.pool, &state.path, c.condition), Feasibility::Unsat) {
                        budget.never.insert(c.condition);
                        return Decision::NoRace;
                    }
                }
                self.cx.pool.and(c.condition, d)
            }
            _ => c.condition,
        };
        // Why the solver left the race undecided, if it did: said in the
        // finding and its `decided_by`, so that a race resting on a query
        // that ran out of time or of Bitwuzla's CPU budget is told apart
        // (the suite's result cache does not keep it: another machine may
        // confirm it or rule it out).
        let mut gave_up: Option<crate::solver::Unknown> = None;
        let witness = if self.cx.pool.as_const(condition) == Some(1) && !state.unconfirmed_path {
            self.current_model(state).map(Some)
        } else {
            if budget.never.contains(&condition) {
                return Decision::NoRace;
            }
            if budget.asked >= self.cx.config.max_race_queries {
                return Decision::Undecided;
            }
            budget.asked += 1;
            match self.cx.decider.feasible(&self.cx.pool, &state.path, condition) {
                Feasibility::Sat(m) => Some(Some(m)),
                Feasibility::Unsat => {
                    budget.never.insert(condition);
                    None
                }
                Feasibility::Unknown(why) => {
                    gave_up = Some(why);
                    Some(None)
                }
            }
        };
        let Some(witness) = witness else { return Decision::NoRace };
        // Whether both writes store the same value is a note on a race
        // already found, so its query gets a work budget: the values may be
        // huge expressions (counters summed over a whole group).
        let benign = match c.differ {
            _ if tolerated || values_havocked => Some(false),
            None => Some(false),
            Some(d) => match self.cx.pool.as_const(d) {
                Some(v) => Some(v == 0),
                None => {
                    let both = self.cx.pool.and(c.condition, d);
                    if crate::check::dag_size(&self.cx.pool, &[both], BENIGN_QUERY_NODES + 1) > BENIGN_QUERY_NODES {
                        None
                    } else {
                        match self.cx.decider.backend.check_budgeted(&self.cx.pool, &state.path, both, BENIGN_QUERY_BUDGET) {
                            Feasibility::Unsat => Some(true),
                            Feasibility::Sat(_) => Some(false),
                            Feasibility::Unknown(_) => None,
                        }
                    }
                }
            },
        };
        // A race reported only because havocked values could not be told
        // equal may be benign after all: never confirmed.
        let havocked = (may_tolerate && values_havocked) || self.depends_on_havoc(state, log.havoc_fresh_from, condition);
        let doubt = self.doubt_of_shared_finding(
            state,
            havocked,
            gpu.ndrange.groups,
            &[log.group_ids(a), log.group_ids(b)],
            witness.as_ref(),
            condition,
        );
        // A race on the path of a declared function's result is judged by
        // `report`; one whose condition alone reads it, here.
        let doubt = doubt.or_else(|| {
            self.declared_result_doubt(state.path.iter().copied())
                .is_none()
                .then(|| self.declared_result_doubt(std::iter::once(condition)))
                .flatten()
        });
        let doubt = doubt.or_else(|| whole_object_doubt(a, b)).or_else(|| self.activemask_doubt(gpu, state, condition));
        let warp_note = self.warp_lockstep_note(log, a, b, gpu.ndrange.local, gpu.lockstep.as_ref().map(|l| l.width()), witness.as_ref());
        let benign_note = match benign {
            Some(true) => " (benign: both write the same value; --allow-benign-races hides it)".to_string(),
            Some(false) => String::new(),
            None => format!(
                " (whether both write the same value is undecided: past the budget of that question, {BENIGN_QUERY_NODES} expression nodes and \
                 {BENIGN_QUERY_BUDGET} solver work units)"
            ),
        };
        // A path through a summarised loop confirms no finding, but this
        // race may stand apart from the summaries' made-up values.
        let apart_from_summaries = state.abstracted && !gpu.summaries.race_may_rest_on_summary(&self.cx.pool, log, a, b);
        // Asking again at a later barrier of the path would not confirm a
        // race the solver could not decide (its query may take seconds).
        let undecided = witness.is_none();
        let undecided_note = match &gave_up {
            Some(why) => format!("; not confirmed: the solver did not decide whether the two accesses can meet ({why})"),
            None => String::new(),
        };
        let decided_by = gave_up.map(|why| crate::exec::checks::check_equal::undecided_by(why.kind));
        let note = format!("{benign_note}{warp_note}{undecided_note}");
        self.report_race(state, &gpu.ndrange, log, a, b, &note, witness, doubt, apart_from_summaries, decided_by);
        if undecided || self.log.was_confirmed(&line_key) {
            Decision::Race(Offered::SettledForPath)
        } else {
            Decision::Race(Offered::SettledForCheck)
        }
    }

    /// Whether a race between `a` and `b` under `condition` would surely be
    /// unconfirmed, told before any solver query: the path rests on an
    /// unknown answer or a declared function's result, the values or the
    /// condition on havocked memory, or the accesses on a loop summary.
    #[allow(clippy::too_many_arguments)]
    fn race_stays_unconfirmed(
        &self,
        state: &State,
        gpu: &crate::exec::opencl::workitems::Gpu,
        log: &crate::race::AccessLog,
        a: &AccessRecord,
        b: &AccessRecord,
        condition: ExprId,
        values_havocked: bool,
    ) -> bool {
        state.unconfirmed_path
            || a.whole_object()
            || b.whole_object()
            || values_havocked
            || self.depends_on_havoc(state, log.havoc_fresh_from, condition)
            || self.declared_result_doubt(state.path.iter().copied().chain([condition])).is_some()
            || (state.abstracted && gpu.summaries.race_may_rest_on_summary(&self.cx.pool, log, a, b))
    }

    #[allow(clippy::too_many_arguments)]
    fn report_race(
        &mut self,
        state: &State,
        ndrange: &crate::config::NdRange,
        log: &AccessLog,
        a: &AccessRecord,
        b: &AccessRecord,
        note: &str,
        witness: Option<crate::expr::Assignment>,
        doubt: Option<String>,
        apart_from_summaries: bool,
        decided_by: Option<crate::report::DecidedBy>,
    ) {
        let o = state.memory.object(a.object);
        let space = match (a.space() == LOCAL_SPACE, self.cx.module.is_cuda()) {
            (true, true) => "shared",
            (true, false) => "local",
            (false, _) => "global",
        };
        let kind = match (a.write, b.write) {
            (true, true) => "write-write",
            _ => "read-write",
        };
        let offset_of = |r: &AccessRecord| crate::expr::value_in(&self.cx.pool, r.offset, witness.as_ref()).map(|v| v as u64 as i64);
        // The element both accesses touch: where the later of the two
        // starts, when the witness gives both and they overlap there (a
        // block copy of two elements starts at one its neighbour's does
        // not write). Else the first access's start, as before.
        let shared = match (offset_of(a).filter(|_| !a.whole_object()), offset_of(b).filter(|_| !b.whole_object())) {
            (Some(x), Some(y)) => {
                let start = x.max(y);
                let end = x.saturating_add(a.size() as i64).min(y.saturating_add(b.size() as i64));
                (start < end).then(|| (start, (end - start) as u64))
            }
            _ => None,
        };
        let element = match (shared, offset_of(a)) {
            (Some((off, len)), _) => format!(" at {} (byte offset {off})", self.element_at(o, off, len)),
            (None, Some(off)) if !a.whole_object() => format!(" at {} (byte offset {off})", self.element_at(o, off, a.size())),
            (None, _) => match offset_of(b) {
                Some(off) if !b.whole_object() => format!(" at {} (byte offset {off})", self.element_at(o, off, b.size())),
                _ => String::new(),
            },
        };
        let describe = |r: &AccessRecord, this: &Executor| {
            let item = crate::exec::opencl::workitems::WorkItem::new(Vec::new(), log.local_ids(r), log.group_ids(r));
            let rw = if r.whole_object() {
                "read or write of any byte (a call to a function without a body)"
            } else if r.write {
                if r.atomic {
                    "atomic write"
                } else {
                    "write"
                }
            } else {
                "read"
            };
            // A CUDA block copy is a thread's as an OpenCL one is a work-item's.
            let by = if r.async_event().is_some() {
                format!("the asynchronous copy (not yet waited for) of {}", this.item_noun())
            } else {
                this.item_noun().to_string()
            };
            format!("{rw} by {by} {}", this.item_label(&item, witness.as_ref()))
        };
        let first = describe(a, self);
        let second = describe(b, self);
        let msg = format!("{kind} race on {space} buffer `{}`{element}: {first} and {second}{note}", o.name);
        let related = Related { message: second, location: self.cx.location(log.loc(b)) };
        let site = self.race_site(ndrange, log, a, b, o.name.clone(), space, witness.as_ref(), o.size);
        let mut s = state.clone();
        s.stack.clear();
        if apart_from_summaries {
            s.abstracted = false;
        }
        if let Some(f) = self.report(&s, FindingKind::Race, log.loc(a), msg, witness.as_ref(), decided_by) {
            f.related = vec![related];
            f.race = Some(site);
            if witness.is_none() {
                f.status = crate::report::Status::Unconfirmed;
            }
            // The witness gives values to havocked or over-approximated
            // bytes that no device may hold: it is kept for reading, but
            // proves nothing.
            if let Some(why) = doubt {
                f.doubt(&why);
            }
        }
    }
}

impl Executor<'_> {
    /// The race's NDRange `nd` and both accesses as values: ids and offsets
    /// read from the witness when symbolic (pair mode), absent without one.
    #[allow(clippy::too_many_arguments)]
    fn race_site(
        &self,
        nd: &crate::config::NdRange,
        log: &AccessLog,
        a: &AccessRecord,
        b: &AccessRecord,
        buffer: String,
        space: &str,
        witness: Option<&crate::expr::Assignment>,
        object_bytes: u64,
    ) -> crate::report::NdrangeSite {
        let access = |r: &AccessRecord| {
            let (local_id, group_id) = self.id_values(&log.local_ids(r), &log.group_ids(r), witness);
            let access = match (r.write, r.atomic) {
                (true, true) => "atomic write",
                (true, false) => "write",
                _ => "read",
            };
            crate::report::SiteAccess {
                access: access.to_string(),
                local_id,
                group_id,
                byte_offset: crate::expr::value_in(&self.cx.pool, r.offset, witness).map(|v| v as u64 as i64),
                bytes: if r.whole_object() { object_bytes } else { r.size() },
            }
        };
        crate::report::NdrangeSite {
            dims: nd.dims,
            local_size: nd.local,
            num_groups: nd.groups,
            buffer,
            space: space.to_string(),
            buffer_bytes: None,
            accesses: vec![access(a), access(b)],
        }
    }
}

/// Solver work units (Z3 `rlimit`) for deciding whether a write-write
/// race is benign: a count, so the same run always gives the same note.
const BENIGN_QUERY_BUDGET: u32 = 2_000_000;

/// Values larger than this many expression nodes are not asked about
/// (encoding them alone costs seconds and hundreds of MB).
const BENIGN_QUERY_NODES: usize = 20_000;

/// The executor as the race detector's sink: each candidate is decided
/// (solver) and reported as it is found.
struct RaceQueries<'a, 'm> {
    exec: &'a mut Executor<'m>,
    state: &'a mut State,
    gpu: &'a crate::exec::opencl::workitems::Gpu,
    budget: &'a mut QueryBudget,
    /// Candidates left undecided once the queries ran out.
    undecided: u64,
}

/// The solver queries of one race check: how many were asked, and the
/// conditions found infeasible on the path. Conditions are hash-consed, so
/// the many pairs of a loop's accesses that meet under one condition (two
/// work-items' ids equal) cost one query, not one each.
#[derive(Default)]
struct QueryBudget {
    asked: u64,
    never: rustc_hash::FxHashSet<ExprId>,
}

/// What deciding one candidate conflict gave.
enum Decision {
    /// Reported as a race (or left to the race already reported at its
    /// line), and for how long its pair of lines is settled: for the rest
    /// of the path once confirmed or not decidable, for this check only
    /// otherwise, so that a later one may confirm it.
    Race(Offered),
    /// The accesses never conflict on this path.
    NoRace,
    /// Not decided: the check's solver queries ran out.
    Undecided,
}

impl RaceSink for RaceQueries<'_, '_> {
    fn pool(&mut self) -> &mut crate::expr::ExprPool {
        &mut self.exec.cx.pool
    }

    fn offer(&mut self, log: &crate::race::AccessLog, candidate: Candidate) -> Offered {
        match self.exec.decide_race(self.state, self.gpu, log, candidate, self.budget) {
            Decision::Race(settled) => settled,
            Decision::NoRace => Offered::NoRace,
            Decision::Undecided => {
                self.undecided += 1;
                Offered::NoRace
            }
        }
    }
}

/// Why a race with a call to a function without a body is not confirmed:
/// the call stands for every access its body could make.
fn whole_object_doubt(a: &AccessRecord, b: &AccessRecord) -> Option<String> {
    (a.whole_object() || b.whole_object()).then(|| {
        "; not confirmed: a function declared without a body is taken to read and write every byte of every object it can reach \
         from its pointer arguments; its real body may not touch the bytes the other access does"
            .to_string()
    })
}
