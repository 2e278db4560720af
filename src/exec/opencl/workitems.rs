//! OpenCL work-items inside one state. Each work-item has its own stack;
//! the running one's stack is `State::stack`. Work-items of a group run in
//! a canonical order, each up to its next barrier (papers/klee-cl.txt
//! section 7); when every work-item of the group waits, the barrier is
//! checked for divergence and released, and the race detector checks the
//! interval that just ended.
//!
//! Two modes: `Enumerate` runs every work-item of every group with concrete
//! ids; `Pair` runs two work-items whose ids are symbolic, which covers
//! every pair of work-items of an NDRange of any size at once (in the style
//! of papers/gpuverify.txt): shared memory is havocked at each barrier,
//! since the other work-items' writes are not modelled.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::{Frame, State};
use crate::expr::value::Value;
use crate::expr::{CmpOp, ExprId};
use crate::ir::{BlockId, FuncId, Loc};
use crate::race::AccessLog;
use crate::report::FindingKind;

/// The NDRange of a state running a kernel. Every caller runs inside a
/// kernel (a work-item function, a barrier, a work-item's end), where the
/// state carries its device: one without is an engine bug, not an input's.
/// It takes the state's `gpu` field, so that the state's other fields stay
/// free to borrow.
pub(in crate::exec) fn device(gpu: &Option<Box<Gpu>>) -> &Gpu {
    gpu.as_deref().expect("a state running a kernel carries its NDRange")
}

/// `device`, for changing it.
pub(in crate::exec) fn device_mut(gpu: &mut Option<Box<Gpu>>) -> &mut Gpu {
    gpu.as_deref_mut().expect("a state running a kernel carries its NDRange")
}

/// OpenCL fence flag `CLK_LOCAL_MEM_FENCE`: a barrier with it orders
/// accesses to `__local` memory.
pub const LOCAL_FENCE: u32 = 1;
/// OpenCL fence flag `CLK_GLOBAL_MEM_FENCE`: a barrier with it orders
/// accesses to `__global` memory.
pub const GLOBAL_FENCE: u32 = 2;

pub use crate::config::NdRange;

/// Enumerate every work-item or two symbolic ones; the report's type,
/// so a report names the mode that ran.
pub use crate::report::RaceMode;

/// What a barrier completes besides the group's meeting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Waits {
    /// A plain barrier.
    Nothing,
    /// `wait_group_events`: the asynchronous copies of these events
    /// (sorted; 0 for a handle no copy returned).
    Events(Vec<u64>),
    /// `wait_group_events` with a number of events that is not fixed on
    /// the path: once the group is known to agree on it (it is a
    /// work-group function argument, group_calls.rs), which copies it
    /// completes is not modelled.
    UnknownCount,
    /// The grid barrier of CUDA cooperative groups: the whole grid meets
    /// (cuda_grid_sync.rs).
    Grid,
}

#[derive(Clone, Debug, PartialEq, Eq)]
/// Where a work-item stands in its group's round to the next barrier.
pub enum ItemStatus {
    /// Runnable: it has not yet reached the next barrier or the kernel's end.
    Running,
    /// Waiting at a barrier; `waits` says which asynchronous copies it
    /// completes (wait_group_events).
    AtBarrier {
        /// The barrier call as function, block and instruction index: work-items
        /// agree on a barrier when their sites are equal.
        site: (FuncId, BlockId, usize),
        /// The barrier's source location, for reports.
        loc: Loc,
        /// Its fence bits (`LOCAL_FENCE`, `GLOBAL_FENCE`), made concrete.
        flags: u32,
        /// The events of a `wait_group_events`.
        waits: Waits,
    },
    /// Waiting for the lanes of its warp at a CUDA warp-level call
    /// (warp_meeting.rs).
    AtWarp(Box<crate::exec::opencl::warp_meeting::WarpCall>),
    /// Returned from the kernel.
    Done {
        /// The return's source location.
        loc: Loc,
    },
    /// Never terminates: it came back to a loop in a state it was in
    /// before (nontermination.rs), so it loops there for ever.
    Spinning {
        /// The loop block it repeats at.
        loc: Loc,
    },
}

impl ItemStatus {
    /// Will not reach another barrier: returned, or loops for ever.
    pub fn is_final(&self) -> bool {
        matches!(self, ItemStatus::Done { .. } | ItemStatus::Spinning { .. })
    }
}

#[derive(Clone)]
/// One work-item of the running group (enumerate mode) or of the pair:
/// its stack while another runs, its ids and where it stands.
pub struct WorkItem {
    /// Its call stack while it is not running; it is swapped with
    /// `State::stack` when it starts or stops running.
    pub stack: Vec<Frame>,
    /// Local id per dimension (`get_local_id`): 64-bit constants in
    /// enumerate mode, symbolic (and constrained to the NDRange) in pair mode.
    pub local: [ExprId; 3],
    /// Group id per dimension (`get_group_id`), constant or symbolic as
    /// `local` is.
    pub group: [ExprId; 3],
    /// Running, waiting at a barrier, or finished.
    pub status: ItemStatus,
    /// Inside an asynchronous copy: its event and the user's call site.
    pub async_copy: Option<(u64, Loc)>,
    /// Asynchronous copies started, which numbers their events.
    pub async_started: u64,
    /// The events its asynchronous copies returned that no
    /// `wait_group_events` has released yet (events.rs).
    pub live_events: Vec<u64>,
    /// The events `wait_group_events` released, with where.
    pub released_events: Vec<(u64, Loc)>,
    /// Unrollings of symbolic loop tests whose merge regions a barrier
    /// closed (path_budget.rs): by function, test block and stack depth.
    pub barrier_unrollings: Vec<((FuncId, BlockId, usize), u32)>,
    /// Watches its states at loop back edges for a repeat (nontermination.rs).
    pub cycle_watch: Option<Box<crate::exec::opencl::nontermination::CycleWatch>>,
    /// Work-group functions (asynchronous copies) it called since the last
    /// barrier, which the whole group must call alike (group_calls.rs).
    pub group_calls: Vec<crate::exec::opencl::group_calls::GroupCall>,
}

impl WorkItem {
    /// The work-item `WorkItem::new` makes, in this one's place (the next
    /// group's work-item at its index): its lists keep their allocation.
    fn restart(&mut self, stack: Vec<Frame>, local: [ExprId; 3], group: [ExprId; 3]) {
        self.stack = stack;
        self.local = local;
        self.group = group;
        self.status = ItemStatus::Running;
        self.async_copy = None;
        self.async_started = 0;
        self.live_events.clear();
        self.released_events.clear();
        self.barrier_unrollings.clear();
        self.cycle_watch = None;
        self.group_calls.clear();
    }

    /// A runnable work-item with these ids, whose `stack` starts at the
    /// kernel's entry.
    pub fn new(stack: Vec<Frame>, local: [ExprId; 3], group: [ExprId; 3]) -> WorkItem {
        WorkItem {
            stack,
            local,
            group,
            status: ItemStatus::Running,
            async_copy: None,
            async_started: 0,
            live_events: Vec::new(),
            released_events: Vec::new(),
            barrier_unrollings: Vec::new(),
            cycle_watch: None,
            group_calls: Vec::new(),
        }
    }
}

/// The NDRange being executed and the race detector's records.
#[derive(Clone)]
pub struct Gpu {
    /// The NDRange being executed.
    pub ndrange: NdRange,
    /// Enumerate every work-item, or run two with symbolic ids (README,
    /// OpenCL).
    pub mode: RaceMode,
    /// The work-items of the group running (enumerate mode) or the two of
    /// the pair; replaced when the next group starts.
    pub items: Vec<WorkItem>,
    /// Index in `items` of the running work-item, whose stack is
    /// `State::stack`.
    pub current: usize,
    /// Enumerate mode: flat index of the group running now.
    pub group: u64,
    /// The kernel function every work-item runs.
    pub kernel: FuncId,
    /// The kernel's argument values, the same for every work-item.
    pub args: Vec<Value>,
    /// The race detector's record of accesses and barriers, checked at each
    /// barrier and when a group ends.
    pub log: AccessLog,
    /// Write-write races that store equal values are not reported
    /// (`--allow-benign-races`).
    pub allow_benign: bool,
    /// Objects in local memory: reset when a new group starts.
    pub local_objects: Vec<crate::memory::ObjectId>,
    /// The path's step count when the running work-item last started
    /// running (path_budget.rs).
    pub item_started: u64,
    /// Enumerate mode: the flat indices of the only groups run, in that
    /// order (`NdRangeSetup::only_groups`); `None`: every group.
    pub only_groups: Option<Vec<u64>>,
    /// The loops summarised on the path, by work-item (summary_marks.rs).
    pub summaries: crate::exec::opencl::summary_marks::SummaryMarks,
    /// `--warp-sync`: the warps of the block run in lockstep
    /// (cuda_lockstep.rs); None: each thread runs to its next barrier.
    pub lockstep: Option<crate::exec::opencl::cuda_lockstep::Lockstep>,
    /// A CUDA kernel that may reach a grid barrier, run in enumerate mode
    /// over every block: the blocks waiting at it (cuda_grid_sync.rs).
    pub grid: Option<crate::exec::opencl::cuda_grid_sync::GridPhases>,
    /// What `__activemask()` returned on the path and what the lanes did
    /// with it (cuda_activemask.rs).
    pub activemask: crate::exec::opencl::cuda_activemask::ActiveMasks,
    /// Pair mode: the `__local` bytes known written before its barriers
    /// beyond the masks of sized variables (unchecked_local.rs).
    pub local_gaps: crate::exec::opencl::unchecked_local::LocalGaps,
    /// Enumerate mode: the entry frame every work-item of every group
    /// starts in, built from the launch's arguments at the first group
    /// (None until then, and always for a kernel with a by-value argument,
    /// whose work-items each get their own copy of its bytes).
    pub entry_frame: Option<std::rc::Rc<Frame>>,
    /// The unsized `__local` objects among the first `.0` objects of the
    /// state's memory (objects are only ever added), which each group
    /// starts without knowledge of: found once, not by a walk over every
    /// object of the memory per group.
    pub unsized_locals: (usize, Vec<crate::memory::ObjectId>),
    /// A work-item of the launch waited at a warp-level call: until one
    /// does, a finished work-item completes no warp meeting.
    pub warp_calls: bool,
}

impl<'m> Executor<'m> {
    /// Starts the kernel: the first group (enumerate) or the pair.
    pub(in crate::exec) fn start_kernel(&mut self, state: &mut State) {
        let gpu = state.gpu.as_ref().expect("start_kernel without an NDRange");
        match gpu.mode {
            RaceMode::Enumerate => {
                let first = gpu.only_groups.as_ref().and_then(|g| g.first().copied()).unwrap_or(0);
                self.start_group(state, first)
            }
            RaceMode::Pair => self.start_pair(state),
        }
    }

    pub(in crate::exec) fn start_group(&mut self, state: &mut State, group: u64) {
        let gpu = device_mut(&mut state.gpu);
        let nd = gpu.ndrange;
        let kernel = gpu.kernel;
        let g = NdRange::unflatten(group, nd.groups);
        // The last group of a dimension may be smaller (non-uniform
        // work-groups, OpenCL 2.0).
        let size = nd.group_size(g);
        let count = size.iter().product::<u64>() as usize;
        // Every work-item starts in the same entry frame: the arguments are
        // the launch's, so it is built at the first group and copied, unless
        // a by-value argument gives each its own copy of the bytes
        // (kernel_frame).
        let byval = self.cx.module.function(kernel).params.iter().any(|p| p.byval.is_some());
        if !byval && gpu.entry_frame.is_none() {
            let args = gpu.args.clone();
            let frame = self.kernel_frame(&mut state.memory, kernel, &args).pop();
            device_mut(&mut state.gpu).entry_frame = frame.map(std::rc::Rc::new);
        }
        let gpu = device_mut(&mut state.gpu);
        let template = gpu.entry_frame.clone();
        let args = if template.is_none() { gpu.args.clone() } else { Vec::new() };
        let group_ids = g.map(|v| self.cx.pool.constant(64, v as u128));
        // The last group's work-items are reused: their stacks keep their
        // allocation, so a group costs no allocation per work-item beyond
        // its frame's registers.
        let mut items = std::mem::take(&mut gpu.items);
        items.truncate(count);
        for flat in 0..count {
            let l = NdRange::unflatten(flat as u64, size);
            let mut stack = items.get_mut(flat).map(|old| std::mem::take(&mut old.stack)).unwrap_or_default();
            stack.clear();
            match &template {
                Some(frame) => stack.push(entry_frame_copy(frame, self.spare_entry_regs.pop().unwrap_or_default())),
                None => stack.extend(self.kernel_frame(&mut state.memory, kernel, &args)),
            }
            let local = l.map(|v| self.cx.pool.constant(64, v as u128));
            match items.get_mut(flat) {
                Some(slot) => slot.restart(stack, local, group_ids),
                None => items.push(WorkItem::new(stack, local, group_ids)),
            }
        }
        let gpu = device_mut(&mut state.gpu);
        gpu.items = items;
        gpu.current = 0;
        gpu.item_started = state.steps;
        gpu.group = group;
        // Each group's local memory starts uninitialised: arbitrary values
        // (given on first read), nothing carried over from the last group.
        for &obj in &gpu.local_objects {
            state.memory.object_mut(obj).bytes.set_all_written(false);
        }
        // So does an unsized `__local` argument (kernel_memory.rs): what the
        // last group's work-items read or wrote there is forgotten, else
        // this group would read it back and miss paths a device can take.
        let (scanned, unsized_locals) = &mut gpu.unsized_locals;
        for (id, o) in state.memory.objects().skip(*scanned) {
            *scanned += 1;
            if o.address_only && o.addr_space == crate::ir::LOCAL_SPACE {
                unsized_locals.push(id);
            }
        }
        for &id in unsized_locals.iter() {
            let o = state.memory.object(id);
            if !(o.known.is_empty() && o.known_symbolic.is_empty()) {
                let o = state.memory.object_mut(id);
                o.known.clear();
                o.known_symbolic.clear();
            }
        }
        std::mem::swap(&mut state.stack, &mut gpu.items[0].stack);
        tracing::debug!(group, work_items = gpu.items.len(), state = state.id, "work-group started");
    }

    /// Two work-items with symbolic ids, distinct, each within the NDRange.
    fn start_pair(&mut self, state: &mut State) {
        let gpu = device(&state.gpu);
        let nd = gpu.ndrange;
        let (kernel, args) = (gpu.kernel, gpu.args.clone());
        let mut items = Vec::new();
        let mut ids: Vec<[ExprId; 6]> = Vec::new();
        for k in 1..=2 {
            let array = self.cx.pool.new_array(&format!("work_item_{k}"), 48);
            let word = |p: &mut crate::expr::ExprPool, w: u32| p.input_word(array, w * 8, 64);
            let local: [ExprId; 3] = [0, 1, 2].map(|d| word(&mut self.cx.pool, d));
            let group: [ExprId; 3] = [3, 4, 5].map(|d| word(&mut self.cx.pool, d));
            for d in 0..3 {
                let lim = crate::exec::opencl::work_item_ids::group_size_expr(&mut self.cx.pool, &nd, group[d], d);
                let ok = self.cx.pool.cmp(CmpOp::Ult, local[d], lim);
                state.path.push(ok);
                let glim = self.cx.pool.constant(64, nd.groups[d] as u128);
                let gok = self.cx.pool.cmp(CmpOp::Ult, group[d], glim);
                state.path.push(gok);
            }
            ids.push([local[0], local[1], local[2], group[0], group[1], group[2]]);
            let stack = self.kernel_frame(&mut state.memory, kernel, &args);
            items.push(WorkItem::new(stack, local, group));
        }
        let mut same = self.cx.pool.bool_const(true);
        for (&a, &b) in ids[0].iter().zip(&ids[1]).take(6) {
            let e = self.cx.pool.eq(a, b);
            same = self.cx.pool.and(same, e);
        }
        let distinct = self.cx.pool.not(same);
        state.path.push(distinct);
        state.model = None;
        // Local memory starts uninitialised: arbitrary values.
        for obj in gpu.local_objects.clone() {
            state.memory.object_mut(obj).bytes.set_all_written(false);
        }
        let gpu = device_mut(&mut state.gpu);
        gpu.items = items;
        gpu.current = 0;
        gpu.item_started = state.steps;
        // The constraints so far hold for every pair; those added later
        // decide which work-items a path stands for (unchecked_local.rs).
        gpu.local_gaps.launch_constraints = state.path.len();
        std::mem::swap(&mut state.stack, &mut gpu.items[0].stack);
        tracing::debug!(state = state.id, "pair mode: two symbolic work-items started");
    }

    /// The running work-item returned from the kernel.
    pub(in crate::exec) fn work_item_finished(&mut self, state: &mut State, loc: Loc) -> Step {
        let gpu = device_mut(&mut state.gpu);
        let cur = gpu.current;
        gpu.items[cur].status = ItemStatus::Done { loc };
        self.switch_work_item(state)
    }

    /// The running work-item reached `barrier(flags)`. Symbolic flags are
    /// forked on: each side goes on with the fence bits it has.
    pub(in crate::exec) fn work_item_barrier(&mut self, state: &mut State, flags: ExprId, loc: Loc, waits: Waits) -> Step {
        let flags = match self.cx.pool.as_const(flags) {
            Some(v) => v as u32,
            None => match self.concrete_fence_flags(state, flags) {
                Some(v) => v,
                None => return Step::Terminated,
            },
        };
        self.carry_unrollings_past_barrier(state);
        // A barrier inside a shipped CUDA header's function (a cooperative
        // group's `sync()`) is the user's call of it: its line, and its
        // identity, so two calls at different lines are two barriers.
        let (loc, user_frame) = if self.cx.module.is_cuda() { self.user_call_frame(state, loc) } else { (loc, state.stack.len() - 1) };
        let f = &state.stack[user_frame];
        let site = (f.func, f.block, f.pc);
        let line = self.cx.location(loc).line;
        self.activemask_left(state, format!("waits at the barrier at line {line}"));
        let gpu = device_mut(&mut state.gpu);
        let cur = gpu.current;
        gpu.items[cur].status = ItemStatus::AtBarrier { site, loc, flags, waits };
        tracing::trace!(state = state.id, item = cur, line = self.cx.location(loc).line, "work-item waits at a barrier");
        self.switch_work_item(state)
    }

    /// The fence bits of symbolic barrier flags on this path: each bit
    /// that can be both set and clear splits the path, and the other side
    /// re-runs the barrier call with that bit decided.
    fn concrete_fence_flags(&mut self, state: &mut State, flags: ExprId) -> Option<u32> {
        let w = self.cx.pool.width(flags);
        let mut out = 0;
        for bit in [LOCAL_FENCE, GLOBAL_FENCE] {
            let b = self.cx.pool.constant(w, bit as u128);
            let masked = self.cx.pool.and(flags, b);
            let zero = self.cx.pool.constant(w, 0);
            let clear = self.cx.pool.eq(masked, zero);
            let set = self.cx.pool.not(clear);
            match self.branch(state, set) {
                (Some(t), Some(mut f)) => {
                    f.frame_mut().pc -= 1;
                    self.pending.push(f);
                    *state = t;
                    out |= bit;
                }
                (Some(t), None) => {
                    *state = t;
                    out |= bit;
                }
                (None, Some(f)) => *state = f,
                (None, None) => return None,
            }
        }
        Some(out)
    }

    /// Moves to the next runnable work-item, or releases the barrier, or
    /// ends the group.
    pub(in crate::exec) fn switch_work_item(&mut self, state: &mut State) -> Step {
        let gpu = device_mut(&mut state.gpu);
        let cur = gpu.current;
        std::mem::swap(&mut state.stack, &mut gpu.items[cur].stack);
        // A warp meeting is completed by a lane arriving at it, or by one
        // finishing while others of its warp wait there: none can be while
        // no work-item of the launch has waited at a warp-level call (which
        // always stops it here), and the walk over the warp is skipped.
        match gpu.items[cur].status {
            ItemStatus::AtWarp(_) => {
                gpu.warp_calls = true;
                self.release_warp_meeting(state, cur);
            }
            ItemStatus::Done { .. } if gpu.warp_calls => self.release_warp_meeting(state, cur),
            _ => {}
        }
        let gpu = device_mut(&mut state.gpu);
        let n = gpu.items.len();
        let next = if gpu.lockstep.is_some() {
            self.next_lockstep_lane(state, cur)
        } else {
            (1..=n).map(|k| (cur + k) % n).find(|i| gpu.items[*i].status == ItemStatus::Running)
        };
        let gpu = device_mut(&mut state.gpu);
        if let Some(next) = next {
            gpu.current = next;
            gpu.item_started = state.steps;
            std::mem::swap(&mut state.stack, &mut gpu.items[next].stack);
            tracing::trace!(state = state.id, from = cur, to = next, "work-item switch");
            self.lockstep_entered(state, cur, next);
            return Step::Continue;
        }
        let all_done = gpu.items.iter().all(|i| i.status.is_final());
        if self.stuck_warp_meeting(state) || !self.barrier_agreement(state) || !self.group_calls_agree(state) {
            return Step::Terminated;
        }
        let unknown_count = gpu_items_waiting(state).find_map(|(loc, w)| (*w == Waits::UnknownCount).then_some(loc));
        if let Some(loc) = unknown_count {
            self.unsupported(state, loc, "wait_group_events with a number of events that depends on the input".into());
            return Step::Terminated;
        }
        let gpu = device(&state.gpu);
        if gpu.grid.is_some() {
            if all_done {
                return self.block_ended_in_grid_phase(state);
            }
            if matches!(gpu.items[0].status, ItemStatus::AtBarrier { waits: Waits::Grid, .. }) {
                return self.park_block_at_grid_barrier(state);
            }
        }
        if all_done {
            return self.group_finished(state);
        }
        self.release_barrier(state)
    }

    /// Checks that all work-items of the group wait at the same barrier
    /// (or all finished); a feasible disagreement is a finding.
    fn barrier_agreement(&mut self, state: &mut State) -> bool {
        let gpu = device(&state.gpu);
        // The common case, every work-item at the same barrier or all
        // finished, is settled without copying the group's work-items (an
        // enumerated NDRange ends every group here).
        if gpu.items[1..].iter().all(|other| statuses_agree(&gpu.items[0].status, &other.status)) {
            return true;
        }
        let items = gpu.items.clone();
        let pair = gpu.mode == RaceMode::Pair;
        let first = &items[0];
        for other in &items[1..] {
            let mut events_differ = false;
            let mut flags_differ = None;
            let differ = match (&first.status, &other.status) {
                (
                    ItemStatus::AtBarrier { site: a, waits: wa, flags: fa, .. },
                    ItemStatus::AtBarrier { site: b, waits: wb, flags: fb, .. },
                ) => {
                    events_differ = a == b && wa != wb;
                    // OpenCL C: "the values of flags and scope must be the
                    // same for all work-items in the work-group". Oclgrind
                    // reports such a barrier as divergent too; a device
                    // (PoCL) runs it as a barrier fencing either set, so a
                    // race across it is never seen.
                    if a == b && wa == wb && fa != fb {
                        flags_differ = Some((*fa, *fb));
                    }
                    a != b || wa != wb || fa != fb
                }
                // A work-item that loops for ever reaches no barrier, as
                // one that returned: the two agree.
                (a, b) if a.is_final() && b.is_final() => false,
                _ => true,
            };
            if !differ {
                continue;
            }
            // In pair mode the two work-items may be in different groups,
            // where barriers need not agree.
            let mut witness = None;
            if pair {
                let same = crate::race::same_group(&mut self.cx.pool, &first.group, &other.group);
                match self.cx.decider.feasible(&self.cx.pool, &state.path, same) {
                    crate::check::Feasibility::Unsat => continue,
                    crate::check::Feasibility::Sat(m) => {
                        state.path.push(same);
                        witness = Some(m);
                    }
                    crate::check::Feasibility::Unknown(_) => {}
                }
            } else {
                witness = self.current_model(state);
            }
            let describe = |s: &ItemStatus, this: &Executor| match s {
                ItemStatus::AtBarrier { loc, .. } => format!("waits at the barrier at line {}", this.cx.location(*loc).line),
                ItemStatus::Done { .. } => "finished the kernel".to_string(),
                ItemStatus::Spinning { loc } => format!("never terminates (it loops for ever at line {})", this.cx.location(*loc).line),
                ItemStatus::Running => "is running".to_string(),
                ItemStatus::AtWarp(call) => format!("waits at {} at line {}", call.function, this.cx.location(call.loc).line),
            };
            let (a_desc, b_desc) = (describe(&first.status, self), describe(&other.status, self));
            let ida = self.item_label(first, witness.as_ref());
            let idb = self.item_label(other, witness.as_ref());
            let loc = match (&first.status, &other.status) {
                (ItemStatus::AtBarrier { loc, .. }, _) | (_, ItemStatus::AtBarrier { loc, .. }) => *loc,
                _ => Loc::default(),
            };
            let msg = if let Some((fa, fb)) = flags_differ {
                format!(
                    "barrier divergence: work-items {ida} and {idb} pass different flags to the barrier at line {} ({} and {}); every \
                     work-item of a group must pass the same",
                    self.cx.location(loc).line,
                    fence_flags_name(fa),
                    fence_flags_name(fb)
                )
            } else if events_differ {
                format!(
                    "barrier divergence: work-items {ida} and {idb} call wait_group_events at line {} with different events",
                    self.cx.location(loc).line
                )
            } else {
                let who = self.item_noun();
                format!("barrier divergence: {who} {ida} {a_desc} while {who} {idb} {b_desc}")
            };
            // Pair mode: which barrier each work-item reached may hang on
            // memory havocked at an earlier barrier (havoc.rs).
            let always = self.cx.pool.bool_const(true);
            self.report_divergence(state, loc, msg, witness.as_ref(), always, [(first, a_desc), (other, b_desc)]);
            return false;
        }
        true
    }

    /// Reports a barrier divergence at `loc`, found under `condition`: not
    /// confirmed when the path or the condition depends on memory havocked
    /// at an earlier barrier (pair mode, havoc.rs).
    pub(in crate::exec) fn report_divergence(
        &mut self,
        state: &State,
        loc: Loc,
        msg: String,
        witness: Option<&crate::expr::Assignment>,
        condition: ExprId,
        items: [(&WorkItem, String); 2],
    ) {
        let groups = [items[0].0.group, items[1].0.group];
        let site = self.divergence_site(state, items, witness);
        let mut s = state.clone();
        s.stack.clear();
        let gpu = device(&state.gpu);
        let (havoc_fresh_from, sizes) = (gpu.log.havoc_fresh_from, gpu.ndrange.groups);
        let havocked = self.depends_on_havoc(state, havoc_fresh_from, condition);
        let doubt = self.doubt_of_shared_finding(state, havocked, sizes, &groups, witness, condition);
        if let Some(f) = self.report(&s, FindingKind::BarrierDivergence, loc, msg, witness, None) {
            f.kernel_site = site;
            if let Some(why) = doubt {
                f.doubt(&why);
            }
        }
    }

    /// `(lx,ly,lz) of group (gx,gy,gz)` (`of block` in CUDA code), with
    /// values from `model` when the ids are symbolic.
    pub(in crate::exec) fn item_label(&self, item: &WorkItem, model: Option<&crate::expr::Assignment>) -> String {
        let val = |e: ExprId| crate::expr::value_in(&self.cx.pool, e, model).map_or_else(|| "?".to_string(), |v| v.to_string());
        let l: Vec<String> = item.local.iter().map(|e| val(*e)).collect();
        let g: Vec<String> = item.group.iter().map(|e| val(*e)).collect();
        let group = if self.cx.module.is_cuda() { "block" } else { "group" };
        format!("({}) of {group} ({})", l.join(","), g.join(","))
    }

    /// What a work-item is called in messages: a `thread` in CUDA code.
    pub(in crate::exec) fn item_noun(&self) -> &'static str {
        if self.cx.module.is_cuda() {
            "thread"
        } else {
            "work-item"
        }
    }

    fn release_barrier(&mut self, state: &mut State) -> Step {
        let started = std::time::Instant::now();
        self.check_races(state, false);
        tracing::debug!(state = state.id, seconds = started.elapsed().as_secs_f64(), "barrier: all work-items arrived, races checked");
        let gpu = device_mut(&mut state.gpu);
        let pair = gpu.mode == RaceMode::Pair;
        let flags: Vec<u32> =
            gpu.items.iter().map(|i| if let ItemStatus::AtBarrier { flags, .. } = i.status { flags } else { 0 }).collect();
        // The work-items agree on the events (barrier_agreement).
        let waits = match &gpu.items[0].status {
            ItemStatus::AtBarrier { waits: Waits::Events(w), .. } => w.clone(),
            _ => Vec::new(),
        };
        gpu.log.barrier(&flags, pair, waits);
        for item in gpu.items.iter_mut() {
            item.status = ItemStatus::Running;
            item.group_calls.clear();
        }
        gpu.current = 0;
        gpu.item_started = state.steps;
        std::mem::swap(&mut state.stack, &mut gpu.items[0].stack);
        if pair {
            self.havoc_shared_memory(state);
        }
        Step::Continue
    }

    fn group_finished(&mut self, state: &mut State) -> Step {
        let started = std::time::Instant::now();
        self.check_races(state, false);
        tracing::debug!(state = state.id, seconds = started.elapsed().as_secs_f64(), "work-group finished, races checked");
        let gpu = device(&state.gpu);
        let next = match &gpu.only_groups {
            Some(list) => list.iter().position(|g| *g == gpu.group).and_then(|k| list.get(k + 1).copied()),
            None => Some(gpu.group + 1).filter(|n| *n < gpu.ndrange.num_groups()),
        };
        if let (RaceMode::Enumerate, Some(next)) = (gpu.mode, next) {
            if let Some(g) = state.gpu.as_mut() {
                g.log.forget_local();
            }
            self.start_group(state, next);
            return Step::Continue;
        }
        self.check_races(state, true);
        Step::Finished
    }
}

/// A copy of a kernel's entry frame for another work-item, its registers
/// in `regs` (an empty vector, most often a finished work-item's:
/// `Executor::spare_entry_regs`). They are copied lane by lane
/// (`Value::from_slice`), which is much faster than the values' generic
/// `clone`; the entry frame holds nothing else to copy (no stack object,
/// no shadow, no variadic area).
fn entry_frame_copy(template: &Frame, mut regs: Vec<Option<Value>>) -> Frame {
    regs.clear();
    regs.extend(template.regs.iter().map(|r| r.as_ref().map(|v| Value::from_slice(v))));
    Frame {
        func: template.func,
        block: template.block,
        prev_block: template.prev_block,
        pc: template.pc,
        regs,
        allocas: template.allocas.clone(),
        ret_dest: template.ret_dest,
        call_loc: template.call_loc,
        varargs: template.varargs,
        shadows: template.shadows.clone(),
        shadow_on: template.shadow_on,
    }
}

/// Whether two work-items of a group agree where they stand: at the same
/// barrier with the same events and flags, or both past their last one
/// (returned, or looping for ever). What `barrier_agreement` reports as a
/// divergence is exactly what this refuses.
fn statuses_agree(a: &ItemStatus, b: &ItemStatus) -> bool {
    match (a, b) {
        (ItemStatus::AtBarrier { site: sa, waits: wa, flags: fa, .. }, ItemStatus::AtBarrier { site: sb, waits: wb, flags: fb, .. }) => {
            sa == sb && wa == wb && fa == fb
        }
        (a, b) => a.is_final() && b.is_final(),
    }
}

/// The barrier location and waits of every work-item standing at a barrier.
fn gpu_items_waiting(state: &State) -> impl Iterator<Item = (Loc, &Waits)> {
    state.gpu.iter().flat_map(|g| g.items.iter()).filter_map(|i| match &i.status {
        ItemStatus::AtBarrier { loc, waits, .. } => Some((*loc, waits)),
        _ => None,
    })
}

/// Barrier flags as OpenCL C spells them (`CLK_LOCAL_MEM_FENCE |
/// CLK_GLOBAL_MEM_FENCE`, `0`).
fn fence_flags_name(flags: u32) -> String {
    let names: Vec<&str> = [(LOCAL_FENCE, "CLK_LOCAL_MEM_FENCE"), (GLOBAL_FENCE, "CLK_GLOBAL_MEM_FENCE")]
        .into_iter()
        .filter(|(bit, _)| flags & bit != 0)
        .map(|(_, name)| name)
        .collect();
    if names.is_empty() {
        "0".to_string()
    } else {
        names.join(" | ")
    }
}
