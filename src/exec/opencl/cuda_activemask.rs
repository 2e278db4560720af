//! `__activemask()` without `--warp-sync`, and the warp functions given its
//! result as their mask. Since independent thread scheduling (sm_70) the
//! threads of a warp need not run together: `__activemask()` returns the
//! lanes that happen to run the call with the caller, any set of them that
//! includes the caller, and every lane of that set gets the same set. The
//! model keeps every such answer possible:
//!
//! - The mask is an arbitrary value with the caller's bit set and no bit of
//!   a lane the block does not have (which ones ran together is not
//!   followed, so lanes' masks are not tied to each other).
//! - A warp function whose mask is exactly what the lane's last
//!   `__activemask()` returned, or is computed from it alone (constants
//!   and that value: `__activemask() & 0xffff`, so every lane that got
//!   the same mask computes the same one) and is provably a part of it
//!   that names the caller, does not wait: its result is what it gives
//!   for some such set, whatever the other lanes hold (a shuffle from
//!   another lane any value, a vote the caller's own bit and any bits of
//!   the mask, a reduction the caller's value when the mask names only it
//!   and any value otherwise), and `__syncwarp` orders nothing (a set of
//!   the caller alone is one of the answers, and it orders least).
//! - Undefined behaviour: lanes grouped at one `__activemask()` must all
//!   make the same warp calls with that mask. Two lanes of one warp that
//!   ran the same `__activemask()` call between the same barriers may have
//!   run it together; if one then passes the mask to a warp function where
//!   the other passes it to another, or does something else first (another
//!   warp function or mask, a barrier, `__activemask()` again), that is an
//!   `invalid-warp-mask` finding. A lane that exits instead is no wait (as
//!   in warp_meeting.rs).
//!
//! A finding that rests on one of these arbitrary values is not confirmed:
//! the scheduler may never group the lanes as its witness needs. A
//! shuffle's value from another lane is the exception: the caller may
//! always run alone, and its mask then leaves that lane out, whose value
//! is then undefined: any value, whatever the witness needs.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::exec::opencl::cuda_warps::WARP_SIZE;
use crate::exec::opencl::warp_meeting::{shuffle_source, WarpOp};
use crate::exec::opencl::workitems::RaceMode;
use crate::exec::opencl::workitems::{device, device_mut, Gpu};
use crate::expr::value::Value;
use crate::expr::{Expr, ExprId, ExprPool};
use crate::ir::{BlockId, FuncId, Loc};
use crate::report::FindingKind;

/// Why a finding resting on such a value is not confirmed.
pub const ACTIVEMASK_REASON: &str = "it rests on a mask __activemask() returned, or on a warp function given such a mask, which \
                                     symcross lets be any set of lanes that includes the caller; whether the scheduler ever \
                                     groups the threads as the witness needs is not checked";

/// One lane's call of `__activemask()`.
#[derive(Clone, Debug)]
pub struct ActiveMaskCall {
    /// The lane, by its index in the block.
    pub item: usize,
    /// The user's call (its frame's function, block and instruction).
    pub site: (FuncId, BlockId, usize),
    /// The user's call.
    pub loc: Loc,
    /// The block and how many barriers it had released: calls apart by a
    /// barrier cannot run together.
    pub when: (u64, u32),
    /// The mask it returned.
    pub mask: ExprId,
    /// The warp functions the lane then passed it, or a mask computed from
    /// it, to, in order.
    pub uses: Vec<MaskUse>,
    /// What the lane did instead of passing it on (another warp function
    /// or mask, a barrier, `__activemask()` again), after which the mask
    /// is used no more; None while it may still be.
    pub left: Option<String>,
}

/// A warp function given a lane's `__activemask()` result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaskUse {
    /// The CUDA function.
    pub function: &'static str,
    /// None when given the mask itself; else the mask computed from it,
    /// with the mask replaced by one placeholder, so that two lanes'
    /// computations are one expression exactly when they compute the same.
    pub computed: Option<ExprId>,
}

impl MaskUse {
    /// What a lane did with the mask, for messages.
    fn described(&self) -> String {
        match self.computed {
            None => format!("calls {} with its mask", self.function),
            Some(_) => format!("calls {} with a mask computed from it", self.function),
        }
    }
}

impl ActiveMaskCall {
    /// How two lanes' uses of masks of one `__activemask()` call disagree,
    /// when they do: the lane that makes a call, that call, and what the
    /// other did instead.
    /// The uses' masks are undefined behaviour only where one names the
    /// other lane: both uses when both lanes made one, the lane's that
    /// passed it on otherwise.
    fn disagreement<'a>(&'a self, other: &'a ActiveMaskCall) -> Option<Disagreement<'a>> {
        let n = self.uses.len().min(other.uses.len());
        if let Some(i) = (0..n).find(|&i| self.uses[i] != other.uses[i]) {
            return Some(Disagreement {
                passer: self,
                other,
                used: self.uses[i],
                other_used: Some(other.uses[i]),
                did: other.uses[i].described(),
            });
        }
        for (a, b) in [(self, other), (other, self)] {
            if let (Some(&next), Some(what)) = (a.uses.get(n), &b.left) {
                return Some(Disagreement { passer: a, other: b, used: next, other_used: None, did: what.clone() });
            }
        }
        None
    }
}

/// Two lanes that may have got one mask and then used it differently.
struct Disagreement<'a> {
    /// The lane that passed the mask to `used`.
    passer: &'a ActiveMaskCall,
    /// The lane that did something else: `other_used`, or `did`.
    other: &'a ActiveMaskCall,
    used: MaskUse,
    other_used: Option<MaskUse>,
    did: String,
}

/// `__activemask()`'s results on a path.
#[derive(Clone, Debug, Default)]
pub struct ActiveMasks {
    /// The fresh values (by number) standing for masks and for results of
    /// warp functions given one: findings resting on them are unconfirmed.
    pub fresh: Vec<u32>,
    /// Shuffles' values from another lane (by number): undefined when the
    /// caller runs alone, so a finding resting on them alone stands.
    pub undefined: Vec<u32>,
    /// The calls of the running kernel, by lane.
    pub calls: Vec<ActiveMaskCall>,
    /// Sites whose undefined behaviour was reported.
    reported: Vec<(FuncId, BlockId, usize)>,
    /// The value standing for "the mask" in `MaskUse::computed`.
    placeholder: Option<ExprId>,
}

impl ActiveMasks {
    /// Whether an expression below `roots` is one of the fresh values.
    pub fn mentioned_in(&self, pool: &ExprPool, roots: impl Iterator<Item = ExprId>) -> bool {
        !self.fresh.is_empty() && pool.any_below(roots, |_, e| matches!(e, Expr::Fresh { id, .. } if self.fresh.contains(id)))
    }

    /// The running lane's call whose mask is still unused.
    fn pending(&self, item: usize) -> Option<usize> {
        self.calls.iter().rposition(|c| c.item == item && c.left.is_none())
    }
}

/// `e` with `pending` replaced by `placeholder`; None when `e` has a leaf
/// other than `pending` and constants.
fn shape_of(
    pool: &mut ExprPool,
    e: ExprId,
    pending: ExprId,
    placeholder: ExprId,
    memo: &mut rustc_hash::FxHashMap<ExprId, ExprId>,
) -> Option<ExprId> {
    if e == pending {
        return Some(placeholder);
    }
    if pool.as_const(e).is_some() {
        return Some(e);
    }
    if let Some(&r) = memo.get(&e) {
        return Some(r);
    }
    let children = pool.children(e);
    if children.is_empty() {
        return None;
    }
    let mut shaped = smallvec::SmallVec::<[ExprId; 3]>::new();
    for c in children {
        shaped.push(shape_of(pool, c, pending, placeholder, memo)?);
    }
    let r = pool.rebuild(e, &shaped);
    memo.insert(e, r);
    Some(r)
}

impl<'m> Executor<'m> {
    /// A fresh value of `width` bits that findings resting on it name as
    /// coming from `__activemask()`.
    fn activemask_fresh(&mut self, state: &mut State, width: u32) -> ExprId {
        let v = self.cx.pool.fresh(width);
        if let Expr::Fresh { id, .. } = *self.cx.pool.get(v) {
            device_mut(&mut state.gpu).activemask.fresh.push(id);
        }
        v
    }

    /// A shuffle's value from another lane: any value (fresh), which the
    /// caller running alone gives too.
    fn undefined_shuffle_value(&mut self, state: &mut State, width: u32) -> ExprId {
        let v = self.cx.pool.fresh(width);
        if let Expr::Fresh { id, .. } = *self.cx.pool.get(v) {
            device_mut(&mut state.gpu).activemask.undefined.push(id);
        }
        v
    }

    /// `__activemask()` without lockstep: an arbitrary value with the
    /// caller's bit set and no bit of a lane the block does not have,
    /// recorded as the lane's pending mask.
    pub(in crate::exec) fn active_mask(&mut self, state: &mut State, c: &CallCtx) -> Value {
        let gpu = device(&state.gpu);
        let (cur, n) = (gpu.current as u64, gpu.items.len() as u64);
        let first = cur - cur % WARP_SIZE;
        let lanes = (n - first).min(WARP_SIZE);
        let existing = if lanes == 32 { u32::MAX } else { (1u32 << lanes) - 1 };
        let any = self.activemask_fresh(state, 32);
        let within = self.cx.pool.constant(32, existing as u128);
        let own = self.cx.pool.constant(32, 1u128 << (cur % WARP_SIZE));
        let some = self.cx.pool.and(any, within);
        let mask = self.cx.pool.or(some, own);
        let (loc, frame) = self.user_call_frame(state, c.inst.loc);
        let line = self.cx.location(loc).line;
        self.activemask_left(state, format!("calls __activemask() again at line {line}"));
        let f = &state.stack[frame];
        let site = (f.func, f.block, f.pc);
        let gpu = device_mut(&mut state.gpu);
        let when = (gpu.group, gpu.log.barriers_released());
        gpu.activemask.calls.push(ActiveMaskCall { item: cur as usize, site, loc, when, mask, uses: Vec::new(), left: None });
        smallvec::smallvec![mask]
    }

    /// The running lane does `what` (a barrier, a warp function with
    /// another mask) while the mask of its last `__activemask()` is
    /// unused: lanes that may have got that mask with it cannot meet it.
    pub(in crate::exec) fn activemask_left(&mut self, state: &mut State, what: String) {
        let Some(gpu) = state.gpu.as_deref_mut() else { return };
        let Some(k) = gpu.activemask.pending(gpu.current) else { return };
        gpu.activemask.calls[k].left = Some(what);
        self.check_activemask_site(state, k);
    }

    /// A warp function called with exactly the mask the running lane's
    /// last `__activemask()` returned: its result for some set of lanes
    /// that mask may be. None when the mask is another value.
    pub(in crate::exec) fn warp_call_with_active_mask(
        &mut self,
        state: &mut State,
        c: &CallCtx,
        op: WarpOp,
        function: &'static str,
    ) -> Option<Result<Option<Value>, Step>> {
        let mask_at = if matches!(op, WarpOp::Reduce(_)) { 1 } else { 0 };
        let mask = c.args.get(mask_at)?.first().copied()?;
        let gpu = state.gpu.as_deref().filter(|g| g.mode == RaceMode::Enumerate)?;
        let k = gpu.activemask.pending(gpu.current)?;
        let pending = gpu.activemask.calls[k].mask;
        let arg = |k: usize| c.args.get(k).and_then(|v| v.first().copied());
        let lane = (gpu.current as u64 % WARP_SIZE) as u32;
        let own_bit = self.cx.pool.constant(32, 1u128 << lane);
        let computed = if mask == pending { None } else { Some(self.computed_mask(state, mask, pending, own_bit)?) };
        let alone = self.cx.pool.eq(mask, own_bit);
        let result: Option<Value> = match op {
            WarpOp::Sync => None,
            WarpOp::Shuffle(mode) => {
                let (Some(v), Some(b), Some(clamp)) = (arg(1), arg(2), arg(3).and_then(|e| self.cx.pool.as_const(e))) else {
                    let loc = self.user_call_site(state, c.inst.loc);
                    return Some(Err(self.unsupported(state, loc, format!("{function} with a width that depends on the input"))));
                };
                let width = self.cx.pool.width(v);
                // A source lane computed from the mask (a leader elected by
                // `__ffs(mask) - 1`) is the caller itself when the caller
                // runs alone: another lane's value is then not undefined
                // in every schedule, only unknown to the model.
                let other = if device(&state.gpu).activemask.mentioned_in(&self.cx.pool, std::iter::once(b)) {
                    self.activemask_fresh(state, width)
                } else {
                    self.undefined_shuffle_value(state, width)
                };
                let own = |b: u32| shuffle_source(mode, lane, b, clamp as u32) == lane;
                let (value, reads_own) = match self.cx.pool.as_const(b) {
                    Some(b) => (if own(b as u32) { v } else { other }, self.cx.pool.bool_const(own(b as u32))),
                    None => {
                        let bw = self.cx.pool.width(b);
                        let low = self.cx.pool.constant(bw, 31);
                        let b5 = self.cx.pool.and(b, low);
                        let mut value = if own(31) { v } else { other };
                        let mut reads_own = self.cx.pool.bool_const(own(31));
                        for k in (0..31).rev() {
                            let kk = self.cx.pool.constant(bw, k as u128);
                            let is_k = self.cx.pool.eq(b5, kk);
                            value = self.cx.pool.ite(is_k, if own(k) { v } else { other }, value);
                            let own_k = self.cx.pool.bool_const(own(k));
                            reads_own = self.cx.pool.ite(is_k, own_k, reads_own);
                        }
                        (value, reads_own)
                    }
                };
                // Indeterminate bits of the caller's value reach the result
                // only when it reads its own lane.
                self.shadow.result_from_argument = Some((1, reads_own));
                Some(smallvec::smallvec![value])
            }
            WarpOp::Ballot | WarpOp::MatchAny => {
                let own = match op {
                    WarpOp::Ballot => {
                        let pred = arg(1)?;
                        let zero = self.cx.pool.constant(32, 0);
                        self.cx.pool.ite(pred, own_bit, zero)
                    }
                    _ => own_bit,
                };
                let any = self.activemask_fresh(state, 32);
                let others_mask = self.cx.pool.constant(32, (!(1u32 << lane)) as u128);
                let in_mask = self.cx.pool.and(any, mask);
                let others = self.cx.pool.and(in_mask, others_mask);
                Some(smallvec::smallvec![self.cx.pool.or(own, others)])
            }
            WarpOp::All | WarpOp::Any => {
                let pred = arg(1)?;
                let others = self.activemask_fresh(state, 1);
                // all: the caller's and every other's predicate (true
                // when it is alone); any: the caller's or another's (none
                // when it is alone).
                let value = if op == WarpOp::All {
                    let others = self.cx.pool.or(others, alone);
                    self.cx.pool.and(pred, others)
                } else {
                    let lone = self.cx.pool.not(alone);
                    let other_true = self.cx.pool.and(others, lone);
                    self.cx.pool.or(pred, other_true)
                };
                Some(smallvec::smallvec![value])
            }
            WarpOp::MatchAll => {
                let any = self.activemask_fresh(state, 1);
                let all_equal = self.cx.pool.or(any, alone);
                let zero = self.cx.pool.constant(32, 0);
                Some(smallvec::smallvec![self.cx.pool.ite(all_equal, mask, zero), all_equal])
            }
            WarpOp::Reduce(_) => {
                let v = arg(0)?;
                let width = self.cx.pool.width(v);
                let any = self.activemask_fresh(state, width);
                Some(smallvec::smallvec![self.cx.pool.ite(alone, v, any)])
            }
        };
        let gpu = device_mut(&mut state.gpu);
        gpu.activemask.calls[k].uses.push(MaskUse { function, computed });
        if op == WarpOp::Sync {
            gpu.log.warp_meeting();
        }
        self.check_activemask_site(state, k);
        Some(Ok(result))
    }

    /// `mask`, computed from the lane's pending `__activemask()` result
    /// `pending` and constants alone, as an expression of a placeholder
    /// for it; None when it is computed otherwise (from the lane's ids,
    /// from memory) or may name a lane outside `pending` or leave out the
    /// caller (`own_bit`): such a mask is not modelled.
    fn computed_mask(&mut self, state: &mut State, mask: ExprId, pending: ExprId, own_bit: ExprId) -> Option<ExprId> {
        if !self.cx.pool.any_below(std::iter::once(mask), |id, _| id == pending) {
            return None;
        }
        let placeholder = match device(&state.gpu).activemask.placeholder {
            Some(p) => p,
            None => {
                let p = self.cx.pool.fresh(32);
                device_mut(&mut state.gpu).activemask.placeholder = Some(p);
                p
            }
        };
        let shape = shape_of(&mut self.cx.pool, mask, pending, placeholder, &mut rustc_hash::FxHashMap::default())?;
        let zero = self.cx.pool.constant(32, 0);
        let outside_bits = {
            let not_pending = self.cx.pool.not(pending);
            self.cx.pool.and(mask, not_pending)
        };
        let names_outside = {
            let none = self.cx.pool.eq(outside_bits, zero);
            self.cx.pool.not(none)
        };
        let leaves_out_caller = {
            let own = self.cx.pool.and(mask, own_bit);
            self.cx.pool.eq(own, zero)
        };
        for bad in [names_outside, leaves_out_caller] {
            if !matches!(self.cx.decider.feasible(&self.cx.pool, &state.path, bad), crate::check::Feasibility::Unsat) {
                return None;
            }
        }
        Some(shape)
    }

    /// Compares what call `k` did with its mask with what the other lanes
    /// of its warp that ran the same call between the same barriers did:
    /// one passing it to a warp function while another did something else
    /// first is undefined behaviour (reported once per call site).
    fn check_activemask_site(&mut self, state: &mut State, k: usize) {
        let gpu = device(&state.gpu);
        let a = &gpu.activemask.calls[k];
        if gpu.activemask.reported.contains(&a.site) {
            return;
        }
        let warp = a.item as u64 / WARP_SIZE;
        let candidates: Vec<_> = gpu
            .activemask
            .calls
            .iter()
            .filter(|b| b.item != a.item && b.site == a.site && b.when == a.when && b.item as u64 / WARP_SIZE == warp)
            .filter_map(|b| a.disagreement(b))
            .map(|d| (d.passer.item, d.other.item, d.used, d.other_used, d.did))
            .collect();
        let placeholder = device(&state.gpu).activemask.placeholder;
        let found = candidates.into_iter().find(|(passer, other, used, other_used, _)| {
            self.may_name(placeholder, *used, *passer, *other) || other_used.is_some_and(|u| self.may_name(placeholder, u, *other, *passer))
        });
        let Some((passer, other, MaskUse { function, .. }, _, did)) = found else { return };
        let (site, loc) = (a.site, a.loc);
        let who = |this: &Executor, i: usize| {
            let item = &device(&state.gpu).items[i];
            format!("{} {} (lane {})", this.item_noun(), this.item_label(item, None), i as u64 % WARP_SIZE)
        };
        let msg = format!(
            "invalid warp mask: {} and {} both call __activemask() at line {} between the same barriers, so they may run it together \
             and get one mask naming both (independent thread scheduling, sm_70); {} then calls {function} with that mask, while {} \
             {did} (every thread named in the mask that has not exited must call {function} with the same mask; undefined behaviour)",
            who(self, passer),
            who(self, other),
            self.cx.location(loc).line,
            who(self, passer),
            who(self, other),
        );
        device_mut(&mut state.gpu).activemask.reported.push(site);
        let mut s = state.clone();
        s.stack.clear();
        let witness = self.current_model(state);
        self.report(&s, FindingKind::InvalidWarpMask, loc, msg, witness.as_ref(), None);
    }

    /// Whether the mask of `used`, by lane `user`, may name lane `named`
    /// when both got one `__activemask()` result: always for the mask
    /// itself; for a computed one, when some mask naming both makes the
    /// computation name `named` (asked of the solver).
    fn may_name(&mut self, placeholder: Option<ExprId>, used: MaskUse, user: usize, named: usize) -> bool {
        let (Some(shape), Some(p)) = (used.computed, placeholder) else { return true };
        let pool = &mut self.cx.pool;
        let both = pool.constant(32, (1u128 << (user as u64 % WARP_SIZE)) | (1u128 << (named as u64 % WARP_SIZE)));
        let named_bit = pool.constant(32, 1u128 << (named as u64 % WARP_SIZE));
        let zero = pool.constant(32, 0);
        let has_both = {
            let p_both = pool.and(p, both);
            pool.eq(p_both, both)
        };
        let names = {
            let bit = pool.and(shape, named_bit);
            let none = pool.eq(bit, zero);
            pool.not(none)
        };
        let cond = pool.bool_and(has_both, names);
        !matches!(self.cx.decider.feasible(&self.cx.pool, &[], cond), crate::check::Feasibility::Unsat)
    }

    /// Why a race under `condition` on `state` (whose device is `gpu`,
    /// held apart during the race check) is not confirmed: it rests on
    /// `__activemask()`'s arbitrary values.
    pub(in crate::exec) fn activemask_doubt(&self, gpu: &Gpu, state: &State, condition: ExprId) -> Option<String> {
        gpu.activemask
            .mentioned_in(&self.cx.pool, state.path.iter().copied().chain([condition]))
            .then(|| format!("; not confirmed: {ACTIVEMASK_REASON}"))
    }
}
