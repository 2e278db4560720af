//! Dynamic state merging (issue: path explosion of per-element branches).
//! When a symbolic branch forks, both children are tagged with a merge
//! region whose join is the branch block's immediate post-dominator. A
//! state reaching the join waits there; when no state of the region is
//! still on its way, the waiting states are merged into one: registers and
//! memory bytes become selects on the side's path condition, and the path
//! condition becomes `prefix /\ (sideA \/ sideB)`. Findings inside the
//! region were reported by the individual states before merging, with
//! their own path conditions and witnesses, so they stay exact.
//!
//! Kernels merge too (papers/klee-cl.txt: without it, a branch on each
//! work-item's own data makes 2^work-items paths). A region belongs to the
//! work-item that branched and to the interval between two barriers: the
//! join counts only when that work-item reaches it before any barrier is
//! released, so the other work-items are untouched on both sides and only
//! the access logs differ; their own records keep their side's condition
//! (race/log_merge.rs).

use crate::exec::engine::device::DeviceState;
use crate::exec::engine::executor::Executor;
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::ExprId;
use crate::ir::{BlockId, FuncId};

/// Membership of a state in an open merge region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeTag {
    pub region: u32,
    /// Stack depth and function of the branch.
    pub depth: usize,
    pub func: FuncId,
    pub join: BlockId,
    /// Length of the path condition before the branch.
    pub prefix: usize,
    /// The block that branched (a loop's exit test, when the region nests
    /// in itself: see `unrolled`).
    pub site: BlockId,
    /// In a kernel: the work-item that branched and where it was.
    pub epoch: Option<KernelEpoch>,
    /// In a kernel: how many access records the state had at the branch.
    pub log_len: usize,
}

/// Where a work-item stands: its index, its group (enumerate mode) and the
/// barriers released so far. It changes at every barrier and work-item
/// switch, so a region never spans one.
pub type KernelEpoch = (usize, u64, u32);

fn kernel_epoch(s: &State) -> Option<KernelEpoch> {
    s.gpu.as_ref().map(|g| g.epoch())
}

/// States of a region: how many are still running toward the join, and
/// those that arrived (merged as far as possible).
#[derive(Default)]
pub struct Region {
    pub live: u32,
    pub waiting: Vec<State>,
}

impl<'m> Executor<'m> {
    /// Tags both sides of a fork at a branch with a new region, when the
    /// branch has a join point.
    pub(in crate::exec) fn open_region(&mut self, a: &mut State, b: &mut State, func: FuncId, block: BlockId, prefix: usize) {
        if !self.cx.config.merge {
            return;
        }
        let f = self.cx.module.function(func);
        let ipdom = self.postdoms.entry(func).or_insert_with(|| crate::exec::engine::postdom::immediate_post_dominators(f));
        let Some(join) = ipdom.get(block.0 as usize).copied().flatten() else { return };
        let id = self.next_region;
        self.next_region += 1;
        // The second side is counted when it reaches the searcher.
        self.regions.insert(id, Region { live: 1, waiting: Vec::new() });
        let log_len = a.gpu.as_ref().map_or(0, |g| g.record_count());
        let tag = MergeTag { region: id, depth: a.stack.len(), func, join, prefix, site: block, epoch: kernel_epoch(a), log_len };
        a.merge.push(tag.clone());
        b.merge.push(tag);
    }

    /// A state was added to the searcher next to its parent.
    pub(in crate::exec) fn count_new_state(&mut self, s: &State) {
        for t in &s.merge {
            if let Some(r) = self.regions.get_mut(&t.region) {
                r.live += 1;
            }
        }
    }

    /// Whether `s` stands at the entry of its innermost region's join.
    pub(in crate::exec) fn at_join(&self, s: &State) -> bool {
        let Some(t) = s.merge.last() else { return false };
        let f = s.frame();
        s.stack.len() == t.depth && f.func == t.func && f.block == t.join && f.pc == 0 && t.epoch == kernel_epoch(s)
    }

    /// How many regions opened at `block` of the running function, by the
    /// same work-item in the same interval, are still open: the times a
    /// symbolic loop test has been unrolled on this path without either
    /// side leaving the loop.
    pub(in crate::exec) fn unrolled(&self, s: &State, block: BlockId) -> usize {
        let Some(f) = s.stack.last() else { return 0 };
        let epoch = kernel_epoch(s);
        s.merge.iter().filter(|t| t.site == block && t.func == f.func && t.depth == s.stack.len() && t.epoch == epoch).count()
    }

    /// Hands states to `push`, first letting each one that stands at its
    /// region's join arrive there (a side may start at the join, and a
    /// state released from an inner region may stand at an outer one's).
    pub(in crate::exec) fn settle(&mut self, s: State, push: &mut dyn FnMut(State)) {
        let mut todo = vec![s];
        while let Some(s) = todo.pop() {
            if self.at_join(&s) {
                todo.extend(self.arrive(s));
            } else {
                push(s);
            }
        }
    }

    /// `s` reached its join: it waits, merged with the others already
    /// there. Returns the states to run when the region is complete.
    pub(in crate::exec) fn arrive(&mut self, s: State) -> Vec<State> {
        let tag = s.merge.last().cloned().expect("arrive without a region");
        let region = self.regions.get_mut(&tag.region).expect("open region");
        region.live -= 1;
        let mut waiting = std::mem::take(&mut region.waiting);
        match waiting.iter().position(|w| compatible(w, &s)) {
            Some(p) => {
                let base = waiting.swap_remove(p);
                let started = std::time::Instant::now();
                match self.merge_pair(base, &s, &tag) {
                    Ok(m) => {
                        tracing::debug!(
                            region = tag.region,
                            state = m.id,
                            absorbed = s.id,
                            path_constraints = m.path.len(),
                            seconds = started.elapsed().as_secs_f64(),
                            "states merged"
                        );
                        waiting.push(m);
                        self.log.stats.merged += 1;
                        // Two states became one: outer regions wait for one fewer.
                        for t in &s.merge[..s.merge.len() - 1] {
                            if let Some(r) = self.regions.get_mut(&t.region) {
                                r.live -= 1;
                            }
                        }
                    }
                    Err(base) => {
                        tracing::debug!(region = tag.region, state = base.id, other = s.id, "states not merged: incompatible");
                        waiting.push(base);
                        waiting.push(s);
                    }
                }
            }
            None => waiting.push(s),
        }
        self.finish_region(tag.region, waiting)
    }

    /// A work-item state passed a barrier or switched work-items: the
    /// regions it opened before can no longer be joined by it, so it
    /// leaves them, and states waiting there need not wait for it.
    pub(in crate::exec) fn leave_stale_regions(&mut self, s: &mut State) -> Vec<State> {
        let epoch = kernel_epoch(s);
        let mut released = Vec::new();
        while s.merge.last().is_some_and(|t| t.epoch != epoch) {
            let Some(t) = s.merge.pop() else { break };
            let Some(r) = self.regions.get_mut(&t.region) else { continue };
            r.live = r.live.saturating_sub(1);
            let waiting = std::mem::take(&mut r.waiting);
            released.extend(self.finish_region(t.region, waiting));
        }
        released
    }

    /// Whether `s` has left the interval its innermost region belongs to.
    pub(in crate::exec) fn in_stale_region(&self, s: &State) -> bool {
        s.merge.last().is_some_and(|t| t.epoch.is_some() && t.epoch != kernel_epoch(s))
    }

    /// A state of these regions ended without reaching the join.
    pub(in crate::exec) fn leave_regions(&mut self, s: &State) -> Vec<State> {
        let mut released = Vec::new();
        for t in s.merge.iter().rev() {
            let Some(r) = self.regions.get_mut(&t.region) else { continue };
            r.live -= 1;
            let waiting = std::mem::take(&mut r.waiting);
            released.extend(self.finish_region(t.region, waiting));
        }
        released
    }

    fn finish_region(&mut self, id: u32, waiting: Vec<State>) -> Vec<State> {
        let region = self.regions.get_mut(&id).expect("open region");
        if region.live > 0 {
            region.waiting = waiting;
            return Vec::new();
        }
        self.regions.remove(&id);
        tracing::trace!(region = id, states = waiting.len(), "region joined");
        waiting
            .into_iter()
            .map(|mut s| {
                s.merge.pop();
                s
            })
            .collect()
    }

    /// Merges `b` into `a`, or gives `a` back when they cannot be merged
    /// (different allocations, frames or freed objects).
    // The state given back is the caller's own, moved in and out; boxing
    // it would allocate on every refused merge for no gain.
    #[allow(clippy::result_large_err)]
    fn merge_pair(&mut self, mut a: State, b: &State, tag: &MergeTag) -> Result<State, State> {
        if !compatible(&a, b) {
            return Err(a);
        }
        if !shadows_mergeable(&a, b) {
            return Err(a);
        }
        let guard = self.side_guard(&a, tag.prefix);
        let other_guard = self.side_guard(b, tag.prefix);
        if let (Some(ga), Some(gb)) = (a.gpu.as_mut(), b.gpu.as_ref()) {
            if !ga.merge_records_from(gb, tag.log_len, guard, other_guard, &mut self.cx.pool) {
                return Err(a);
            }
        }
        for (fa, fb) in a.stack.iter_mut().zip(&b.stack) {
            if !fa.shadows.is_empty() || !fb.shadows.is_empty() {
                self.merge_shadows(guard, fa, fb);
            }
            for (ra, rb) in fa.regs.iter_mut().zip(&fb.regs) {
                match (ra.as_mut(), rb) {
                    (Some(va), Some(vb)) if va != vb => *va = self.select_value(guard, va, vb),
                    (None, Some(vb)) => *ra = Some(vb.clone()),
                    _ => {}
                }
            }
        }
        let ids: Vec<_> = a.memory.objects().map(|(id, _)| id).collect();
        // A ranged buffer's elements count as constrained only where both
        // paths constrained them (memory/ranged_input.rs).
        for &id in &ids {
            let met = match (&a.memory.object(id).ranged, &b.memory.object(id).ranged) {
                (Some(ra), Some(rb)) if !ra.same(rb) => Some(ra.meet(rb)),
                _ => None,
            };
            if met.is_some() {
                a.memory.object_mut(id).ranged = met;
            }
        }
        for id in ids {
            let (oa, ob) = (a.memory.object(id), b.memory.object(id));
            if std::ptr::eq(oa, ob)
                || oa.bytes == ob.bytes
                    && oa.poison == ob.poison
                    && oa.known == ob.known
                    && oa.known_symbolic == ob.known_symbolic
                    && oa.forgotten == ob.forgotten
            {
                continue;
            }
            if oa.address_only {
                let (known, known_symbolic, inexact) = self.merge_address_only(&a, guard, oa, ob);
                let forgotten = oa.forgotten || ob.forgotten;
                crate::exec::engine::state::InexactBytes::add(&mut a.inexact_unsized, &oa.name, inexact);
                let o = a.memory.object_mut(id);
                o.known = known;
                o.known_symbolic = known_symbolic;
                o.forgotten = forgotten;
                continue;
            }
            // A byte one side never wrote may hold an arbitrary value there
            // (a kernel's `__local` byte), not the zero it is stored as.
            let arbitrary = a.gpu.as_ref().is_some_and(|g| g.unwritten_is_arbitrary(oa.addr_space));
            // Indeterminate bits: those of the side the path took, by byte
            // of the whole object; past a size that costs too much, the
            // states are kept apart (not merging is always sound).
            let (sa, sb) = (self.object_shadow(oa), self.object_shadow(ob));
            let ob_bytes = ob.bytes.clone();
            let poison = if sa.is_some() || sb.is_some() {
                let size = oa.size as usize;
                let zero = self.cx.pool.constant(8, 0);
                let origin = sa.as_ref().or(sb.as_ref()).map(|(_, o)| *o);
                let (ma, mb) =
                    (sa.map(|(m, _)| m).unwrap_or_else(|| vec![zero; size]), sb.map(|(m, _)| m).unwrap_or_else(|| vec![zero; size]));
                let masks: Vec<Option<ExprId>> = ma.iter().zip(&mb).map(|(x, y)| Some(self.cx.pool.ite(guard, *x, *y))).collect();
                Some((masks, origin))
            } else {
                None
            };
            let o = a.memory.object_mut(id);
            o.bytes.merge(&mut self.cx.pool, &ob_bytes, |pool, x, y, written_a, written_b| {
                let side = |v: ExprId, written: bool, pool: &mut crate::expr::ExprPool| {
                    if arbitrary && written_a != written_b && !written {
                        pool.fresh(8)
                    } else {
                        v
                    }
                };
                let (x, y) = (side(x, written_a, pool), side(y, written_b, pool));
                pool.ite(guard, x, y)
            });
            if let Some((masks, origin)) = poison {
                // The masks were read through each side's mask log: they
                // now all live in the pages.
                o.bytes.masks_moved_to_pages();
                o.poison.clear();
                // A byte never written on either side stays unwritten.
                let masks: Vec<Option<ExprId>> =
                    masks.into_iter().enumerate().map(|(k, m)| m.filter(|_| o.bytes.is_written(k as u64))).collect();
                self.set_range_shadow(o, 0, &masks, origin);
            }
        }
        a.path.truncate(tag.prefix);
        a.implied.clear();
        // The two sides of one branch cover every case: nothing to add.
        let complementary = self.cx.pool.not(guard) == other_guard;
        let either = self.cx.pool.or(guard, other_guard);
        if self.cx.pool.as_const(either) != Some(1) && !complementary {
            a.path.push(either);
        }
        if a.model.is_none() {
            a.model = b.model.clone();
        }
        a.unconfirmed_path = a.model.is_none();
        a.steps = a.steps.max(b.steps);
        a.depth = a.depth.min(b.depth);
        a.checked &= b.checked;
        a.abstracted |= b.abstracted;
        crate::exec::engine::state::InexactBytes::union(&mut a.inexact_unsized, &b.inexact_unsized);
        Ok(a)
    }

    /// The conjunction of a state's constraints after the region's prefix.
    fn side_guard(&mut self, s: &State, prefix: usize) -> ExprId {
        let mut g = self.cx.pool.bool_const(true);
        for c in &s.path[prefix.min(s.path.len())..] {
            g = self.cx.pool.and(g, *c);
        }
        g
    }

    /// Register shadows become selects on the side's guard, as the values.
    fn merge_shadows(&mut self, guard: ExprId, fa: &mut crate::exec::engine::state::Frame, fb: &crate::exec::engine::state::Frame) {
        let mut regs: Vec<crate::ir::RegId> = fa.shadows.keys().chain(fb.shadows.keys()).copied().collect();
        regs.sort();
        regs.dedup();
        for r in regs {
            let (sa, sb) = (fa.shadows.get(&r).cloned(), fb.shadows.get(&r).cloned());
            let origin = sa.as_ref().or(sb.as_ref()).map(|s| s.origin).expect("a shadow on one side");
            let lanes_of = |s: &Option<crate::memory::shadow::Shadow>, v: &Option<Value>, p: &mut crate::expr::ExprPool| match (s, v) {
                (Some(s), _) => Some(s.mask.clone()),
                (None, Some(v)) => Some(crate::memory::shadow::zeros_like(p, v)),
                (None, None) => None,
            };
            let ma = lanes_of(&sa, &fa.regs[r.0 as usize], &mut self.cx.pool);
            let mb = lanes_of(&sb, &fb.regs[r.0 as usize], &mut self.cx.pool);
            let mask = match (ma, mb) {
                (Some(x), Some(y)) if x.len() == y.len() => self.select_value(guard, &x, &y),
                (Some(x), _) => x,
                (None, Some(y)) => y,
                (None, None) => continue,
            };
            if crate::memory::shadow::is_clean(&self.cx.pool, &mask) {
                fa.shadows.remove(&r);
            } else {
                fa.shadows.insert(r, crate::memory::shadow::Shadow { mask, origin });
                fa.shadow_on = true;
            }
        }
    }

    fn select_value(&mut self, guard: ExprId, a: &Value, b: &Value) -> Value {
        a.iter().zip(b.iter()).map(|(x, y)| self.cx.pool.ite(guard, *x, *y)).collect()
    }
}

/// Same frames (function, position, allocations) and the same objects,
/// freed alike.
fn compatible(a: &State, b: &State) -> bool {
    // A path through a summarised loop confirms nothing: merged with an
    // exact one it would make that one's findings unconfirmed too.
    if a.stack.len() != b.stack.len() || a.merge != b.merge || a.abstracted != b.abstracted || !same_work_items(a, b) {
        return false;
    }
    let frames_match = a.stack.iter().zip(&b.stack).all(|(x, y)| {
        x.func == y.func
            && x.block == y.block
            && x.pc == y.pc
            && x.allocas == y.allocas
            && x.ret_dest == y.ret_dest
            && x.varargs == y.varargs
    });
    if !frames_match {
        return false;
    }
    let (ca, cb) = (a.memory.objects().count(), b.memory.objects().count());
    ca == cb
        && a.memory.objects().zip(b.memory.objects()).all(|((_, x), (_, y))| x.base == y.base && x.size == y.size && x.freed == y.freed)
}

/// The largest object whose indeterminate bits are merged byte by byte.
const MAX_SHADOWED_MERGE_BYTES: u64 = 1 << 20;

/// Whether the indeterminate bits of the objects the two states hold
/// differently are small enough to be merged byte by byte.
fn shadows_mergeable(a: &State, b: &State) -> bool {
    a.memory.objects().all(|(id, oa)| {
        let ob = b.memory.object(id);
        oa.size <= MAX_SHADOWED_MERGE_BYTES
            || std::ptr::eq(oa, ob)
            || crate::memory::shadow::range_is_defined(oa, 0, oa.size) && crate::memory::shadow::range_is_defined(ob, 0, ob.size)
    })
}

/// Kernel states: the same work-item running, the others where they were
/// (they cannot have moved: a region ends before any switch).
fn same_work_items(a: &State, b: &State) -> bool {
    match (a.gpu.as_ref(), b.gpu.as_ref()) {
        (None, None) => true,
        (Some(x), Some(y)) => x.same_items_as(y),
        _ => false,
    }
}
