//! Warp-level meetings of CUDA threads: `__syncwarp(mask)`, the shuffles
//! (`__shfl_sync`, `_up`, `_down`, `_xor`), the votes (`__ballot_sync`,
//! `__all_sync`, `__any_sync`), the matches (`__match_any_sync`,
//! `__match_all_sync`) and the reductions (`__reduce_*_sync`). A warp is 32 threads of one block by linear
//! thread index. A thread that calls one waits (like at a barrier, but
//! only for its warp); once every thread named in the mask is waiting at
//! the same function with the same mask, or has exited, the meeting is
//! released and the values are exchanged. As the CUDA programming guide
//! and the PTX ISA (`shfl.sync`, `vote.sync`, `bar.warp.sync`) say: a
//! calling thread must be named in the mask, and every non-exited thread
//! named in it must make the same call with the same mask; otherwise the
//! behaviour is undefined, reported as an `invalid-warp-mask` finding.
//! Different call sites may meet (sm_70 and later). Only `__syncwarp`
//! orders memory, and only between the lanes that met
//! (race/warp_order.rs); shuffles and votes order nothing.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::exec::opencl::cuda_warps::WARP_SIZE;
use crate::exec::opencl::workitems::{device, device_mut, ItemStatus, RaceMode};
use crate::expr::value::Value;
use crate::expr::ExprId;
use crate::ir::{Loc, RegId};
use crate::memory::shadow::Shadow;
use crate::memory::OriginId;
use crate::report::FindingKind;

/// Which lane a shuffle reads (PTX `shfl.sync` modes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ShuffleMode {
    /// `__shfl_sync`: a lane given by index.
    Idx,
    /// `__shfl_up_sync`: the lane `delta` below.
    Up,
    /// `__shfl_down_sync`: the lane `delta` above.
    Down,
    /// `__shfl_xor_sync`: the lane whose index differs by the bits given.
    Xor,
}

/// A warp-level function that makes the lanes of its mask meet.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WarpOp {
    /// `__syncwarp`.
    Sync,
    /// A shuffle.
    Shuffle(ShuffleMode),
    /// `__ballot_sync`.
    Ballot,
    /// `__all_sync`.
    All,
    /// `__any_sync`.
    Any,
    /// `__match_any_sync`: the lanes whose value equals the caller's.
    MatchAny,
    /// `__match_all_sync`: the mask when every lane's value is equal.
    MatchAll,
    /// A `__reduce_*_sync`.
    Reduce(ReduceOp),
}

/// What a `__reduce_*_sync` combines the lanes' values with (PTX
/// `redux.sync`, on 32 bits).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ReduceOp {
    /// `__reduce_add_sync`: the sum, modulo 2^32.
    Add,
    /// `__reduce_min_sync` on `int`.
    Min,
    /// `__reduce_min_sync` on `unsigned`.
    UMin,
    /// `__reduce_max_sync` on `int`.
    Max,
    /// `__reduce_max_sync` on `unsigned`.
    UMax,
    /// `__reduce_and_sync`.
    And,
    /// `__reduce_or_sync`.
    Or,
    /// `__reduce_xor_sync`.
    Xor,
}

/// Indeterminate bits of a warp call's operand (a mask, or one bit) and
/// their origin; None when the operand is fully defined.
pub type Indeterminate = Option<(ExprId, OriginId)>;

/// One thread's call of a warp-level function, while it waits for its
/// warp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarpCall {
    /// What it does.
    pub op: WarpOp,
    /// The CUDA function's name, for reports.
    pub function: &'static str,
    /// The lanes that take part.
    pub mask: u32,
    /// The value shuffled, matched or reduced, or the vote's predicate
    /// (one bit).
    pub value: Option<ExprId>,
    /// A shuffle's source lane, delta or lane mask (PTX operand `b`).
    pub source: Option<ExprId>,
    /// A shuffle's clamp and segment mask (PTX operand `c`), from `width`.
    pub clamp: u32,
    /// The register that receives the result.
    pub dest: Option<RegId>,
    /// The call's source location.
    pub loc: Loc,
    /// A shuffle's value's indeterminate bits (its shadow's one mask) and
    /// their origin: the lanes that read this lane receive them.
    pub value_shadow: Indeterminate,
    /// One bit, set where a shuffle's source lane operand has an
    /// indeterminate bit, and its origin: which lane is read is then not
    /// determined, so every bit of the result counts as indeterminate.
    pub source_shadow: Indeterminate,
}

impl WarpCall {
    /// Whether two calls can meet: the same operation (and shuffle mode)
    /// with the same mask.
    fn meets(&self, other: &WarpCall) -> bool {
        self.op == other.op && self.mask == other.mask
    }
}

/// The lane a shuffle of `mode` by `lane` reads, with operands `b` and
/// `c`, as the PTX ISA defines `shfl.sync`: out of the lane's segment
/// (`width`) or past the clamp, a lane reads its own value.
pub fn shuffle_source(mode: ShuffleMode, lane: u32, b: u32, c: u32) -> u32 {
    let b = b & 31;
    let segment = (c >> 8) & 31;
    let clamp = c & 31;
    let max_lane = (lane & segment) | (clamp & !segment);
    let min_lane = lane & segment;
    let (j, valid) = match mode {
        ShuffleMode::Up => {
            let j = lane as i32 - b as i32;
            (j, j >= max_lane as i32)
        }
        ShuffleMode::Down => {
            let j = (lane + b) as i32;
            (j, j <= max_lane as i32)
        }
        ShuffleMode::Xor => {
            let j = (lane ^ b) as i32;
            (j, j <= max_lane as i32)
        }
        ShuffleMode::Idx => {
            let j = (min_lane | (b & !segment)) as i32;
            (j, j <= max_lane as i32)
        }
    };
    if valid {
        j as u32
    } else {
        lane
    }
}

impl<'m> Executor<'m> {
    /// The running thread calls a warp-level function: it checks the mask
    /// names the thread, then waits for its warp.
    pub(in crate::exec) fn arrive_at_warp_meeting(&mut self, state: &mut State, c: &CallCtx, op: WarpOp, function: &'static str) -> Step {
        let loc = self.user_call_site(state, c.inst.loc);
        let arg = |k: usize| c.args.get(k).and_then(|v| v.first().copied());
        let operands = match op {
            WarpOp::Sync => 1,
            WarpOp::Shuffle(_) => 4,
            _ => 2,
        };
        // `redux.sync` takes its value first, then the mask.
        let (mask_at, value_at) = if matches!(op, WarpOp::Reduce(_)) { (1, 0) } else { (0, 1) };
        if c.args.len() < operands || (0..operands).any(|k| arg(k).is_none()) {
            return self.unsupported(state, loc, format!("{function} ({}) with {} arguments", c.name, c.args.len()));
        }
        let gpu = device(&state.gpu);
        if gpu.mode == RaceMode::Pair {
            let msg = format!(
                "{function}: pair mode runs two threads with symbolic ids, not whole warps, so the threads of a warp cannot meet; a grid \
                 small enough to enumerate (--max-work-items) is checked thread by thread"
            );
            return self.unsupported(state, loc, msg);
        }
        let Some(mask) = self.forced_word(state, arg(mask_at).expect("checked above")) else {
            let msg = self.unmodelled_mask_reason(state, arg(mask_at).expect("checked above"), function);
            return self.unsupported(state, loc, msg);
        };
        let clamp = match op {
            WarpOp::Shuffle(_) => match self.forced_word(state, arg(3).expect("checked above")) {
                Some(v) => v,
                None => return self.unsupported(state, loc, format!("{function} with a width that depends on the input")),
            },
            _ => 0,
        };
        let cur = device(&state.gpu).current;
        let lane = cur as u64 % WARP_SIZE;
        if mask & (1 << lane) == 0 {
            let item = device(&state.gpu).items[cur].clone();
            let who = format!("{} {}", self.item_noun(), self.item_label(&item, None));
            let msg = format!(
                "invalid warp mask: {who} calls {function} at line {} with mask {mask:#010x}, which leaves out its own lane {lane} (a \
                 calling thread must be named in the mask; undefined behaviour)",
                self.cx.location(loc).line
            );
            let witness = self.current_model(state);
            self.report(state, FindingKind::InvalidWarpMask, loc, msg, witness.as_ref(), None);
            return Step::Terminated;
        }
        let (value, source) = match op {
            WarpOp::Sync => (None, None),
            WarpOp::Shuffle(_) => (arg(1), arg(2)),
            _ => (arg(value_at), None),
        };
        let line = self.cx.location(loc).line;
        self.activemask_left(state, format!("calls {function} at line {line} with mask {mask:#010x}"));
        let (value_shadow, source_shadow) = match op {
            WarpOp::Shuffle(_) if self.shadow_active(state) => self.shuffle_operand_shadows(state, c),
            _ => (None, None),
        };
        let call = WarpCall { op, function, mask, value, source, clamp, dest: c.inst.dest, loc, value_shadow, source_shadow };
        device_mut(&mut state.gpu).items[cur].status = ItemStatus::AtWarp(Box::new(call));
        self.switch_work_item(state)
    }

    /// The indeterminate bits of a shuffle's value (operand 1, its one
    /// mask) and of its source lane operand (operand 2, folded to one bit),
    /// each with its origin; None where fully defined.
    fn shuffle_operand_shadows(&mut self, state: &State, c: &CallCtx) -> (Indeterminate, Indeterminate) {
        let crate::ir::InstKind::Call { args, .. } = &c.inst.kind else { return (None, None) };
        let func = self.cx.module.function(state.frame().func);
        let shadow_of = |this: &mut Self, k: usize| args.get(k).and_then(|op| this.operand_shadow(state, func, op, c.inst.loc));
        let value = shadow_of(self, 1).map(|s| {
            // A shuffle moves one 32-bit lane; a mask of another shape is
            // folded over-approximately to "any bit indeterminate".
            let mask = match s.mask.as_slice() {
                [m] => *m,
                lanes => {
                    let any = Shadow { mask: lanes.iter().copied().collect(), origin: s.origin }.any_set(&mut self.cx.pool);
                    crate::memory::shadow::smear(&mut self.cx.pool, any, 32)
                }
            };
            (mask, s.origin)
        });
        let source = shadow_of(self, 2).map(|s| (s.any_set(&mut self.cx.pool), s.origin));
        (value, source)
    }

    /// Where the user called the warp function: the header's wrapper
    /// (`__shfl_down_sync` calling its NVVM built-in) is called from there.
    pub(in crate::exec) fn user_call_site(&self, state: &State, loc: Loc) -> Loc {
        self.user_call_frame(state, loc).0
    }

    /// The user's call that reached `loc` (in the running frame) through
    /// functions of the shipped CUDA headers (a cooperative group's
    /// `sync()`, `__syncthreads_count`, a warp function's wrapper): its
    /// location and the index of the user's frame in the stack. `loc` and
    /// the running frame when `loc` is the user's own.
    pub(in crate::exec) fn user_call_frame(&self, state: &State, mut loc: Loc) -> (Loc, usize) {
        let mut k = state.stack.len().saturating_sub(1);
        while k > 0 && crate::ir::is_shipped_cuda_header(self.cx.module.file_name(loc)) {
            loc = state.stack[k].call_loc;
            k -= 1;
        }
        (loc, k)
    }

    /// The only value `e` (32 bits) can take on the path, if there is one.
    fn forced_word(&mut self, state: &mut State, e: ExprId) -> Option<u32> {
        if let Some(v) = self.cx.pool.as_const(e) {
            return Some(v as u32);
        }
        let model = self.current_model(state)?;
        let v = crate::expr::evaluate(&self.cx.pool, e, &model);
        let width = self.cx.pool.width(e);
        let k = self.cx.pool.constant(width, v);
        let same = self.cx.pool.eq(e, k);
        let other = self.cx.pool.not(same);
        match self.cx.decider.feasible(&self.cx.pool, &state.path, other) {
            crate::check::Feasibility::Unsat => Some(v as u32),
            _ => None,
        }
    }

    /// Why a warp function's mask that can take more than one value is
    /// not modelled: a mask `__activemask()` returned depends on the
    /// schedule, any other on the input.
    fn unmodelled_mask_reason(&self, state: &State, mask: ExprId, function: &str) -> String {
        if !device(&state.gpu).activemask.mentioned_in(&self.cx.pool, std::iter::once(mask)) {
            return format!("{function} with a mask that depends on the input");
        }
        format!(
            "{function} with a mask computed from what __activemask() returned: without --warp-sync that mask is any set of the \
             warp's threads that includes the caller (independent thread scheduling, sm_70), and a warp function is modelled for it \
             only when given the mask exactly as the lane's last __activemask() returned it, or a part of it computed from it and \
             constants alone that always names the caller (--warp-sync N checks the code as written for warps in lockstep)"
        )
    }

    /// After thread `cur` stopped (at a warp-level call, or for good):
    /// releases the meeting of its warp that now has every lane it names.
    pub(in crate::exec) fn release_warp_meeting(&mut self, state: &mut State, cur: usize) {
        let gpu = device(&state.gpu);
        if !matches!(gpu.items[cur].status, ItemStatus::AtWarp(_) | ItemStatus::Done { .. }) {
            return;
        }
        let first = cur - cur % WARP_SIZE as usize;
        let end = (first + WARP_SIZE as usize).min(gpu.items.len());
        let ready = (first..end).find_map(|i| match &gpu.items[i].status {
            ItemStatus::AtWarp(call) => {
                let named = (first..end).filter(|j| call.mask & (1 << (j - first)) != 0);
                let all_there = named.clone().all(|j| match &gpu.items[j].status {
                    ItemStatus::AtWarp(other) => other.meets(call),
                    ItemStatus::Done { .. } => true,
                    _ => false,
                });
                all_there
                    .then(|| (call.clone(), named.filter(|&j| matches!(gpu.items[j].status, ItemStatus::AtWarp(_))).collect::<Vec<_>>()))
            }
            _ => None,
        });
        let Some((call, met)) = ready else { return };
        self.exchange(state, first, &call, &met);
    }

    /// Releases the lanes `met` of the warp starting at thread `first`,
    /// each with its result.
    fn exchange(&mut self, state: &mut State, first: usize, call: &WarpCall, met: &[usize]) {
        let gpu = device(&state.gpu);
        let calls: Vec<WarpCall> = met
            .iter()
            .map(|&i| match &gpu.items[i].status {
                ItemStatus::AtWarp(c) => (**c).clone(),
                _ => unreachable!("every lane that met waits at a warp call"),
            })
            .collect();
        let lanes: u32 = met.iter().fold(0, |m, &i| m | 1 << (i - first));
        let lane_call = |lane: u32| met.iter().position(|&i| i - first == lane as usize).map(|k| &calls[k]);
        let mut results: Vec<Option<ExprId>> = Vec::with_capacity(met.len());
        // A shuffle's result's indeterminate bits, lane by lane (None for
        // the other functions and for defined results).
        let mut result_shadows: Vec<Option<Shadow>> = vec![None; met.len()];
        // `__match_all_sync`'s second result (its `pred`), lane by lane.
        let mut predicate: Option<ExprId> = None;
        match call.op {
            WarpOp::Sync => results.resize(met.len(), None),
            WarpOp::MatchAny => {
                let values: Vec<ExprId> = calls.iter().map(|c| c.value.expect("a match has a value")).collect();
                for &own in &values {
                    let mut bits = self.cx.pool.constant(32, 0);
                    for (&j, &other) in met.iter().zip(&values) {
                        let bit = self.cx.pool.constant(32, 1u128 << (j - first));
                        let zero = self.cx.pool.constant(32, 0);
                        let same = self.cx.pool.eq(own, other);
                        let this = self.cx.pool.ite(same, bit, zero);
                        bits = self.cx.pool.or(bits, this);
                    }
                    results.push(Some(bits));
                }
            }
            WarpOp::MatchAll => {
                let values: Vec<ExprId> = calls.iter().map(|c| c.value.expect("a match has a value")).collect();
                let mut all = self.cx.pool.bool_const(true);
                for &v in &values[1..] {
                    let same = self.cx.pool.eq(v, values[0]);
                    all = self.cx.pool.and(all, same);
                }
                let mask = self.cx.pool.constant(32, call.mask as u128);
                let zero = self.cx.pool.constant(32, 0);
                results.resize(met.len(), Some(self.cx.pool.ite(all, mask, zero)));
                predicate = Some(all);
            }
            WarpOp::Reduce(op) => {
                let mut acc = calls[0].value.expect("a reduction has a value");
                for c in &calls[1..] {
                    let v = c.value.expect("a reduction has a value");
                    acc = self.reduce_step(op, acc, v);
                }
                results.resize(met.len(), Some(acc));
            }
            WarpOp::Ballot | WarpOp::All | WarpOp::Any => {
                let result = match call.op {
                    WarpOp::Ballot => {
                        let mut bits = self.cx.pool.constant(32, 0);
                        for (&i, c) in met.iter().zip(&calls) {
                            let bit = self.cx.pool.constant(32, 1u128 << (i - first));
                            let zero = self.cx.pool.constant(32, 0);
                            let pred = c.value.expect("a vote has a predicate");
                            let this = self.cx.pool.ite(pred, bit, zero);
                            bits = self.cx.pool.or(bits, this);
                        }
                        bits
                    }
                    op => {
                        let all = op == WarpOp::All;
                        let mut acc = self.cx.pool.bool_const(all);
                        for c in &calls {
                            let pred = c.value.expect("a vote has a predicate");
                            acc = if all { self.cx.pool.and(acc, pred) } else { self.cx.pool.or(acc, pred) };
                        }
                        acc
                    }
                };
                results.resize(met.len(), Some(result));
            }
            WarpOp::Shuffle(mode) => {
                for (&i, c) in met.iter().zip(&calls) {
                    let lane = (i - first) as u32;
                    let own = c.value.expect("a shuffle has a value");
                    let width = self.cx.pool.width(own);
                    // A lane that is not taking part (exited, or not in
                    // the mask) gives an undefined value: any value.
                    let read = |this: &mut Executor<'m>, j: u32| match lane_call(j) {
                        Some(src) => src.value.expect("a shuffle has a value"),
                        None => this.cx.pool.fresh(width),
                    };
                    // The source lane's indeterminate bits travel with its
                    // value (a lane not taking part gives an undefined
                    // value, modelled as any defined one).
                    let shadow_of = |j: u32| lane_call(j).and_then(|src| src.value_shadow);
                    let b = c.source.expect("a shuffle has a source lane");
                    let (value, mut shadow) = match self.cx.pool.as_const(b) {
                        Some(b) => {
                            let j = shuffle_source(mode, lane, b as u32, c.clamp);
                            (read(self, j), shadow_of(j))
                        }
                        None => {
                            // A source lane that depends on the input: one
                            // case per value of its five low bits.
                            let bw = self.cx.pool.width(b);
                            let low = self.cx.pool.constant(bw, 31);
                            let b5 = self.cx.pool.and(b, low);
                            let last = shuffle_source(mode, lane, 31, c.clamp);
                            let mut value = read(self, last);
                            let any_shadow = (0..32).any(|k| shadow_of(shuffle_source(mode, lane, k, c.clamp)).is_some());
                            let zero = self.cx.pool.constant(32, 0);
                            let mut mask = shadow_of(last).map_or(zero, |s| s.0);
                            let mut origin = shadow_of(last).map(|s| s.1);
                            for k in (0..31).rev() {
                                let j = shuffle_source(mode, lane, k, c.clamp);
                                let this = read(self, j);
                                let kk = self.cx.pool.constant(bw, k as u128);
                                let is_k = self.cx.pool.eq(b5, kk);
                                value = self.cx.pool.ite(is_k, this, value);
                                if any_shadow {
                                    let this_mask = shadow_of(j).map_or(zero, |s| s.0);
                                    mask = self.cx.pool.ite(is_k, this_mask, mask);
                                    origin = origin.or(shadow_of(j).map(|s| s.1));
                                }
                            }
                            (value, origin.map(|o| (mask, o)))
                        }
                    };
                    if let Some((any, origin)) = c.source_shadow {
                        // Which lane is read is itself indeterminate: every
                        // bit of the result counts as such (an
                        // over-approximation, named by its origin).
                        let all = crate::memory::shadow::smear(&mut self.cx.pool, any, width);
                        shadow = Some(match shadow {
                            Some((m, o)) => (self.cx.pool.or(m, all), o),
                            None => (all, origin),
                        });
                    }
                    let k = results.len();
                    result_shadows[k] = shadow
                        .filter(|(m, _)| self.cx.pool.width(*m) == width)
                        .map(|(m, origin)| Shadow { mask: smallvec::smallvec![m], origin });
                    results.push(Some(value));
                }
            }
        }
        let gpu = device_mut(&mut state.gpu);
        if call.op == WarpOp::Sync {
            gpu.log.warp_sync(first, lanes);
        }
        gpu.log.warp_meeting();
        for (((&i, c), result), shadow) in met.iter().zip(&calls).zip(results).zip(result_shadows) {
            let item = &mut gpu.items[i];
            if let (Some(dest), Some(v), Some(frame)) = (c.dest, result, item.stack.last_mut()) {
                let value: Value = match predicate {
                    Some(p) => smallvec::smallvec![v, p],
                    None => smallvec::smallvec![v],
                };
                frame.regs[dest.0 as usize] = Some(value);
                match shadow.filter(|s| !crate::memory::shadow::is_clean(&self.cx.pool, &s.mask)) {
                    Some(s) => {
                        frame.shadows.insert(dest, s);
                        frame.shadow_on = true;
                    }
                    None => {
                        if !frame.shadows.is_empty() {
                            frame.shadows.remove(&dest);
                        }
                    }
                }
            }
            item.status = ItemStatus::Running;
        }
        tracing::trace!(state = state.id, first, lanes, function = call.function, "warp meeting released");
    }

    /// One step of a `__reduce_*_sync`: `a` combined with `b`.
    fn reduce_step(&mut self, op: ReduceOp, a: ExprId, b: ExprId) -> ExprId {
        use crate::expr::CmpOp;
        // The smaller of the two by `below`, or the larger.
        let pick = |this: &mut Executor<'m>, below: CmpOp, smaller: bool| {
            let a_below = this.cx.pool.cmp(below, a, b);
            if smaller {
                this.cx.pool.ite(a_below, a, b)
            } else {
                this.cx.pool.ite(a_below, b, a)
            }
        };
        match op {
            ReduceOp::Add => self.cx.pool.add(a, b),
            ReduceOp::Min => pick(self, CmpOp::Slt, true),
            ReduceOp::UMin => pick(self, CmpOp::Ult, true),
            ReduceOp::Max => pick(self, CmpOp::Slt, false),
            ReduceOp::UMax => pick(self, CmpOp::Ult, false),
            ReduceOp::And => self.cx.pool.and(a, b),
            ReduceOp::Or => self.cx.pool.or(a, b),
            ReduceOp::Xor => self.cx.pool.xor(a, b),
        }
    }

    /// No thread of the block can run and some wait at a warp-level call:
    /// a lane their mask names will never make the same call. Reports it
    /// as `invalid-warp-mask`; true when there was one.
    pub(in crate::exec) fn stuck_warp_meeting(&mut self, state: &mut State) -> bool {
        let gpu = device(&state.gpu);
        let Some(i) = gpu.items.iter().position(|w| matches!(w.status, ItemStatus::AtWarp(_))) else { return false };
        let items = gpu.items.clone();
        let ItemStatus::AtWarp(call) = &items[i].status else { return false };
        let first = i - i % WARP_SIZE as usize;
        let end = (first + WARP_SIZE as usize).min(items.len());
        let line = |this: &Executor, loc: Loc| this.cx.location(loc).line;
        let absent = (first..end).filter(|j| call.mask & (1 << (j - first)) != 0).find(|&j| match &items[j].status {
            ItemStatus::AtWarp(other) => !other.meets(call),
            ItemStatus::Done { .. } => false,
            _ => true,
        });
        let witness = self.current_model(state);
        let who = |this: &Executor, k: usize| format!("{} {}", this.item_noun(), this.item_label(&items[k], witness.as_ref()));
        let caller = who(self, i);
        let what = match absent.map(|j| (j, &items[j].status)) {
            Some((j, ItemStatus::AtWarp(other))) => format!(
                "{} (lane {}) waits at {} at line {} with mask {:#010x}",
                who(self, j),
                j - first,
                other.function,
                line(self, other.loc),
                other.mask
            ),
            Some((j, ItemStatus::AtBarrier { loc, .. })) => {
                format!("{} (lane {}) waits at the barrier at line {}", who(self, j), j - first, line(self, *loc))
            }
            Some((j, ItemStatus::Spinning { loc })) => {
                format!("{} (lane {}) never terminates (it loops for ever at line {})", who(self, j), j - first, line(self, *loc))
            }
            Some((j, _)) => format!("{} (lane {}) does not reach it", who(self, j), j - first),
            None => "a lane it names does not reach it".to_string(),
        };
        let msg = format!(
            "invalid warp mask: {caller} calls {} at line {} with mask {:#010x}, but {what} (every thread named in the mask that has not \
             exited must call {} with the same mask; undefined behaviour)",
            call.function,
            line(self, call.loc),
            call.mask,
            call.function
        );
        let loc = call.loc;
        let mut s = state.clone();
        s.stack.clear();
        self.report(&s, FindingKind::InvalidWarpMask, loc, msg, witness.as_ref(), None);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::{shuffle_source, ShuffleMode::*};

    /// PTX operand `c` for a width, as the header builds it.
    fn clamp(width: u32) -> u32 {
        ((32 - width) << 8) | 0x1f
    }

    #[test]
    fn shuffles_read_the_lanes_the_guide_names() {
        assert_eq!(shuffle_source(Idx, 7, 3, clamp(32)), 3);
        assert_eq!(shuffle_source(Idx, 7, 35, clamp(32)), 3, "srcLane is taken modulo the width");
        assert_eq!(shuffle_source(Idx, 20, 3, clamp(16)), 19, "lane 3 of the second segment of 16");
        assert_eq!(shuffle_source(Down, 30, 4, clamp(32)), 30, "past the last lane: its own value");
        assert_eq!(shuffle_source(Down, 10, 4, clamp(32)), 14);
        assert_eq!(shuffle_source(Down, 14, 4, clamp(16)), 14, "past its segment: its own value");
        assert_eq!(shuffle_source(Up, 2, 4, (32 - 32) << 8), 2, "below lane 0: its own value");
        assert_eq!(shuffle_source(Up, 17, 2, (32 - 16) << 8), 17, "below its segment: its own value");
        assert_eq!(shuffle_source(Up, 19, 2, (32 - 16) << 8), 17);
        assert_eq!(shuffle_source(Xor, 3, 1, clamp(32)), 2);
        assert_eq!(shuffle_source(Xor, 3, 16, clamp(16)), 3, "outside its segment: its own value");
    }
}
