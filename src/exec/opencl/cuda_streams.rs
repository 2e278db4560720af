//! Races between CUDA streams. The runtime model (cuda_runtime.c) runs
//! every stream operation (a copy, a memset, a kernel launch) to its end
//! when it is issued, in program order; that is one order a GPU may run
//! them in, and the only one whose results differ from no other when no
//! two operations that nothing orders touch the same bytes in a
//! conflicting way. So each operation records its footprint (the bytes
//! of device-visible memory it read and wrote: a copy's two ranges, every
//! access of a kernel's threads), and when it ends its footprint is
//! compared with that of every earlier operation of another stream it is
//! not ordered after (the model's `after` row says which). A conflict on
//! some byte is a race naming both operations; footprints shown disjoint
//! prove that the program order stands for every order; what the solver
//! cannot decide, or footprints too large to compare, make the result
//! inconclusive with the limit named.

use crate::check::Feasibility;
use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::{Assignment, CmpOp, ExprId};
use crate::ir::Loc;
use crate::memory::{Access, ObjectId};
use crate::report::{FindingKind, Related};
use std::collections::BTreeMap;
use std::rc::Rc;

/// Accesses at a symbolic offset one operation keeps for the comparison;
/// past this its footprint is not comparable (named, inconclusive).
const MAX_SYMBOLIC_ACCESSES: usize = 4096;

/// Solver questions asked to compare two operations' footprints; past
/// this the pair is undecided (named, inconclusive).
const MAX_OVERLAP_QUERIES: usize = 256;

/// How an operation used a byte: two uses conflict unless both read or
/// both are atomic.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(in crate::exec) enum Use {
    Read,
    Write,
    Atomic,
}

impl Use {
    fn conflicts_with(self, other: Use) -> bool {
        !(self == other && self != Use::Write)
    }

    fn verb(self) -> &'static str {
        match self {
            Use::Read => "reads",
            Use::Write => "writes",
            Use::Atomic => "updates atomically",
        }
    }
}

/// Byte ranges `[start, end)`, merged when they touch.
#[derive(Clone, Debug, Default)]
struct Ranges(BTreeMap<u64, u64>);

impl Ranges {
    fn insert(&mut self, mut start: u64, mut end: u64) {
        // A range starting at or before `end` that reaches `start` merges.
        while let Some((&s, &e)) = self.0.range(..=end).next_back() {
            if e < start {
                break;
            }
            start = start.min(s);
            end = end.max(e);
            self.0.remove(&s);
        }
        self.0.insert(start, end);
    }

    /// A range of bytes both hold, if any.
    fn first_common(&self, other: &Ranges) -> Option<(u64, u64)> {
        let (small, large) = if self.0.len() <= other.0.len() { (self, other) } else { (other, self) };
        for (&s, &e) in &small.0 {
            // [s, e) meets `large` if and only if the last range of `large`
            // starting before `e` ends after `s` (the earlier ones end
            // before it starts).
            if let Some((&ls, &le)) = large.0.range(..e).next_back() {
                if le > s {
                    return Some((s.max(ls), e.min(le)));
                }
            }
        }
        None
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// What one operation touched in memory the device can see.
#[derive(Clone, Debug, Default)]
struct Footprint {
    exact: BTreeMap<(ObjectId, Use), Ranges>,
    symbolic: Vec<(ObjectId, ExprId, u64, Use)>,
    /// More symbolic accesses than `MAX_SYMBOLIC_ACCESSES`: not comparable.
    overflowed: bool,
}

/// One stream operation.
#[derive(Clone, Debug)]
struct StreamOp {
    slot: u32,
    /// Its place among its stream's operations (0 for the first).
    index: u64,
    what: String,
    loc: Loc,
    touched: Footprint,
}

/// The stream operations of one host path: those done, the one running.
#[derive(Clone, Debug, Default)]
pub struct StreamWork {
    done: Vec<Rc<StreamOp>>,
    /// The running operation and the earlier ones (indices in `done`)
    /// nothing orders it after.
    open: Option<(StreamOp, Vec<usize>)>,
    /// Where each stream slot was created (the default streams are not).
    created: Vec<(u32, Loc)>,
}

impl StreamWork {
    fn describe_stream(&self, slot: u32) -> String {
        match self.created.iter().rev().find(|(s, _)| *s == slot) {
            _ if slot == 0 => "the default stream".to_string(),
            Some((_, at)) => format!("stream {slot} (created at line {})", at.line),
            None => "the per-thread default stream".to_string(),
        }
    }
}

/// What comparing two footprints found.
enum Overlap {
    None,
    /// The object, the first bytes in conflict (when known), the later
    /// operation's use and the earlier one's, and a witness when the
    /// bytes rest on inputs.
    Conflict {
        object: ObjectId,
        bytes: Option<(u64, u64)>,
        later: Use,
        earlier: Use,
        witness: Option<Assignment>,
    },
    Undecided(String),
}

impl<'m> Executor<'m> {
    /// Records an access of the running stream operation, if any (every
    /// load and store of the engine comes here, the host's inside the
    /// runtime's copies and the kernel's threads alike); only memory the
    /// device can see counts: pageable host memory is copied at the call
    /// or waited for by the host, so program order orders it.
    pub(in crate::exec) fn record_stream_access(&mut self, state: &mut State, object: ObjectId, offset: ExprId, len: u64, how: Use) {
        let Some((op, _)) = state.streams.as_mut().and_then(|w| w.open.as_mut()) else { return };
        let space = state.memory.object(object).addr_space;
        if space != crate::ir::GLOBAL_SPACE && space != crate::ir::CONSTANT_SPACE || len == 0 {
            return;
        }
        let fp = &mut op.touched;
        match self.cx.pool.as_const(offset) {
            Some(off) => {
                let off = off as u64;
                fp.exact.entry((object, how)).or_default().insert(off, off.saturating_add(len));
            }
            None if fp.symbolic.len() < MAX_SYMBOLIC_ACCESSES => fp.symbolic.push((object, offset, len, how)),
            None => fp.overflowed = true,
        }
    }

    /// `void __symcross_cuda_stream_created(unsigned slot)`: names the
    /// stream in race reports by the user's line.
    pub(in crate::exec) fn cuda_stream_created(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let slot = self.concrete_arg(state, c.args[0][0])? as u32;
        let at = self.cuda_call_loc(state, c.inst.loc);
        state.streams.get_or_insert_with(Default::default).created.push((slot, at));
        Ok(None)
    }

    /// `void __symcross_cuda_op_begin(unsigned slot, const unsigned long
    /// *after, unsigned slots, const char *what)`: an operation issued to
    /// stream `slot`, ordered after the first `after[t]` operations of each
    /// stream t; its accesses are recorded until `__symcross_cuda_op_end`.
    pub(in crate::exec) fn cuda_op_begin(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let slot = self.concrete_arg(state, c.args[0][0])? as u32;
        let slots = self.concrete_arg(state, c.args[2][0])? as usize;
        let after = self.read_words(state, c.args[1][0], slots, c.inst.loc)?;
        let what = self.read_c_string(state, c.args[3][0], c.inst.loc)?;
        let loc = self.cuda_call_loc(state, c.inst.loc);
        let work = state.streams.get_or_insert_with(Default::default);
        let index = work.done.iter().filter(|o| o.slot == slot).count() as u64;
        let unordered = work
            .done
            .iter()
            .enumerate()
            .filter(|(_, o)| o.slot != slot && o.index >= after.get(o.slot as usize).copied().unwrap_or(0))
            .map(|(k, _)| k)
            .collect();
        work.open = Some((StreamOp { slot, index, what, loc, touched: Footprint::default() }, unordered));
        Ok(None)
    }

    /// `void __symcross_cuda_op_end(void)`: the running operation is done;
    /// its footprint is compared with the earlier operations it may
    /// overlap.
    pub(in crate::exec) fn cuda_op_end(&mut self, state: &mut State, _c: &CallCtx) -> Result<Option<Value>, Step> {
        let Some((op, unordered)) = state.streams.as_mut().and_then(|w| w.open.take()) else { return Ok(None) };
        let earlier: Vec<Rc<StreamOp>> =
            unordered.iter().filter_map(|&k| state.streams.as_ref().and_then(|w| w.done.get(k)).cloned()).collect();
        for other in earlier {
            match self.footprints_overlap(state, &op.touched, &other.touched) {
                Overlap::None => {}
                Overlap::Conflict { object, bytes, later, earlier, witness } => {
                    self.report_stream_race(state, &op, &other, object, bytes, (later, earlier), witness)
                }
                Overlap::Undecided(why) => {
                    let work = state.streams.as_deref().cloned().unwrap_or_default();
                    let message = format!(
                        "not checked: whether {} on {} and {} (line {}) on {}, which nothing orders, touch the same bytes: {why}",
                        op.what,
                        work.describe_stream(op.slot),
                        other.what,
                        other.loc.line,
                        work.describe_stream(other.slot)
                    );
                    self.report(state, FindingKind::Unsupported, op.loc, message, None, None);
                }
            }
        }
        if let Some(w) = state.streams.as_mut() {
            w.done.push(Rc::new(op));
        }
        Ok(None)
    }

    /// Host code touching managed or pinned memory (`access`, `len`
    /// bytes) while stream work it has not waited for may still run: the
    /// access is compared with what that work touched. A conflict is a
    /// race finding; true when the access is settled (clear of that work,
    /// or reported), false when undecided, which the caller names.
    pub(in crate::exec) fn host_access_clear_of_streams(
        &mut self,
        state: &mut State,
        access: &Access,
        len: u64,
        write: bool,
        loc: Loc,
    ) -> bool {
        let Some(waited) = self.runtime_words(state, HOST_AFTER, 8) else { return false };
        let Some(work) = state.streams.as_deref() else { return false };
        let pending: Vec<Rc<StreamOp>> =
            work.done.iter().filter(|o| o.index >= waited.get(o.slot as usize).copied().unwrap_or(0)).cloned().collect();
        let how = if write { Use::Write } else { Use::Read };
        let mut mine = Footprint::default();
        match self.cx.pool.as_const(access.offset) {
            Some(off) => mine.exact.entry((access.object, how)).or_default().insert(off as u64, off as u64 + len),
            None => mine.symbolic.push((access.object, access.offset, len, how)),
        }
        for op in pending {
            match self.footprints_overlap(state, &mine, &op.touched) {
                Overlap::None => {}
                Overlap::Conflict { object, bytes, later, earlier, witness } => {
                    let stream = state.streams.as_deref().map(|w| w.describe_stream(op.slot)).unwrap_or_default();
                    let message = format!(
                        "race between host code and CUDA stream work: host code {} {} of {} that {} at line {} on {stream} {}, and the \
                         host has not waited for it (no cudaDeviceSynchronize, cudaStreamSynchronize or cudaEventSynchronize since)",
                        later.verb(),
                        byte_range(bytes),
                        self.device_memory_name(state.memory.object(object)),
                        op.what,
                        op.loc.line,
                        earlier.verb()
                    );
                    let site = self.cx.location(op.loc);
                    if let Some(f) = self.report(state, FindingKind::Race, loc, message, witness.as_ref(), None) {
                        f.related.push(Related { message: format!("{} on {stream}", op.what), location: site });
                    }
                    return true;
                }
                Overlap::Undecided(_) => return false,
            }
        }
        true
    }

    /// Whether the later footprint `a` and the earlier `b` touch a byte in
    /// conflicting ways on this path.
    fn footprints_overlap(&mut self, state: &mut State, a: &Footprint, b: &Footprint) -> Overlap {
        for (&(obj, ua), ra) in &a.exact {
            for (&(objb, ub), rb) in b.exact.range((obj, Use::Read)..=(obj, Use::Atomic)) {
                debug_assert_eq!(obj, objb);
                if ua.conflicts_with(ub) {
                    if let Some(bytes) = ra.first_common(rb) {
                        let witness = if state.unconfirmed_path { None } else { self.current_model(state) };
                        return Overlap::Conflict { object: obj, bytes: Some(bytes), later: ua, earlier: ub, witness };
                    }
                }
            }
        }
        let touches_object = |f: &Footprint, obj: ObjectId| f.exact.keys().any(|k| k.0 == obj) || f.symbolic.iter().any(|s| s.0 == obj);
        if (a.overflowed && (!b.exact.is_empty() || !b.symbolic.is_empty()))
            || (b.overflowed && (!a.exact.is_empty() || !a.symbolic.is_empty()))
        {
            return Overlap::Undecided(format!(
                "one of them made more than {MAX_SYMBOLIC_ACCESSES} accesses at offsets that depend on the input, too many to compare"
            ));
        }
        // Pairs with an access at a symbolic offset: asked of the solver.
        let mut questions: Vec<(ObjectId, ExprId, u64, Use, ExprId, u64, Use)> = Vec::new();
        let mut too_many = false;
        let mut ask = |q: (ObjectId, ExprId, u64, Use, ExprId, u64, Use), questions: &mut Vec<_>| {
            if questions.len() >= MAX_OVERLAP_QUERIES {
                too_many = true;
            } else {
                questions.push(q);
            }
        };
        let pool = &mut self.cx.pool;
        for &(obj, off, len, ua) in &a.symbolic {
            if !touches_object(b, obj) {
                continue;
            }
            for &(objb, offb, lenb, ub) in &b.symbolic {
                if objb == obj && ua.conflicts_with(ub) {
                    ask((obj, off, len, ua, offb, lenb, ub), &mut questions);
                }
            }
            for (&(_, ub), rb) in b.exact.range((obj, Use::Read)..=(obj, Use::Atomic)) {
                if ua.conflicts_with(ub) {
                    for (&s, &e) in &rb.0 {
                        let at = pool.constant(64, s as u128);
                        ask((obj, off, len, ua, at, e - s, ub), &mut questions);
                    }
                }
            }
        }
        for &(obj, offb, lenb, ub) in &b.symbolic {
            for (&(_, ua), ra) in a.exact.range((obj, Use::Read)..=(obj, Use::Atomic)) {
                if ua.conflicts_with(ub) {
                    for (&s, &e) in &ra.0 {
                        let at = pool.constant(64, s as u128);
                        ask((obj, at, e - s, ua, offb, lenb, ub), &mut questions);
                    }
                }
            }
        }
        let mut undecided = too_many;
        for (obj, off, len, ua, offb, lenb, ub) in questions {
            let both = self.ranges_meet(off, len, offb, lenb);
            match self.cx.decider.feasible(&self.cx.pool, &state.path, both) {
                Feasibility::Unsat => {}
                Feasibility::Sat(m) => {
                    let start = crate::expr::value_in(&self.cx.pool, off, Some(&m)).map(|v| v as u64);
                    let startb = crate::expr::value_in(&self.cx.pool, offb, Some(&m)).map(|v| v as u64);
                    let bytes = start.zip(startb).map(|(s, sb)| (s.max(sb), (s + len).min(sb + lenb)));
                    let witness = (!state.unconfirmed_path).then_some(m);
                    return Overlap::Conflict { object: obj, bytes, later: ua, earlier: ub, witness };
                }
                Feasibility::Unknown(_) => undecided = true,
            }
        }
        if undecided {
            let why = if too_many {
                format!("more than {MAX_OVERLAP_QUERIES} pairs of accesses at offsets that depend on the input, too many to ask the solver about")
            } else {
                "the solver did not decide whether two accesses at offsets that depend on the input meet".to_string()
            };
            return Overlap::Undecided(why);
        }
        Overlap::None
    }

    /// `[a, a + la)` and `[b, b + lb)` share a byte (offsets of one object,
    /// which stay far below 2^63, so the sums do not wrap).
    fn ranges_meet(&mut self, a: ExprId, la: u64, b: ExprId, lb: u64) -> ExprId {
        let pool = &mut self.cx.pool;
        let (la, lb) = (pool.constant(64, la as u128), pool.constant(64, lb as u128));
        let a_end = pool.add(a, la);
        let b_end = pool.add(b, lb);
        let a_before_b_end = pool.cmp(CmpOp::Ult, a, b_end);
        let b_before_a_end = pool.cmp(CmpOp::Ult, b, a_end);
        pool.and(a_before_b_end, b_before_a_end)
    }

    #[allow(clippy::too_many_arguments)]
    fn report_stream_race(
        &mut self,
        state: &State,
        later: &StreamOp,
        earlier: &StreamOp,
        object: ObjectId,
        bytes: Option<(u64, u64)>,
        uses: (Use, Use),
        witness: Option<Assignment>,
    ) {
        let work = state.streams.as_deref().cloned().unwrap_or_default();
        let o = state.memory.object(object);
        let at = byte_range(bytes);
        let message = format!(
            "race between CUDA streams: {} at line {} on {} {} {at} of {} that {} at line {} on {} {}, and nothing orders the two (no \
             cudaStreamSynchronize, cudaEventSynchronize, cudaStreamWaitEvent or cudaDeviceSynchronize between them, and neither \
             stream waits for the other)",
            later.what,
            later.loc.line,
            work.describe_stream(later.slot),
            uses.0.verb(),
            self.device_memory_name(o),
            earlier.what,
            earlier.loc.line,
            work.describe_stream(earlier.slot),
            uses.1.verb(),
        );
        let site = self.cx.location(earlier.loc);
        if let Some(f) = self.report(state, FindingKind::Race, later.loc, message, witness.as_ref(), None) {
            f.related.push(Related { message: format!("{} on {}", earlier.what, work.describe_stream(earlier.slot)), location: site });
        }
    }

    /// How a race between streams names device-visible memory: an
    /// allocation by its line (its object's name), a variable as declared.
    fn device_memory_name(&self, o: &crate::memory::MemoryObject) -> String {
        if o.kind == crate::memory::ObjectKind::Heap {
            o.name.clone()
        } else if self.is_managed_variable(o.base) {
            format!("managed variable `{}`", o.name)
        } else if o.addr_space == crate::ir::CONSTANT_SPACE {
            format!("`__constant__` variable `{}`", o.name)
        } else {
            format!("`__device__` variable `{}`", o.name)
        }
    }
}

/// The runtime model's count of each stream's operations the host waited
/// for (cuda_runtime.c).
const HOST_AFTER: &str = "__symcross_cuda_host_after";

/// "bytes 4 to 7", "byte 4", or "bytes" when not known.
fn byte_range(bytes: Option<(u64, u64)>) -> String {
    match bytes {
        Some((s, e)) if e == s + 1 => format!("byte {s}"),
        Some((s, e)) => format!("bytes {s} to {}", e - 1),
        None => "bytes".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_merge_and_meet() {
        let mut a = Ranges::default();
        a.insert(0, 4);
        a.insert(8, 12);
        a.insert(4, 8);
        assert_eq!(a.0.len(), 1);
        assert_eq!(a.0.get(&0), Some(&12));
        let mut b = Ranges::default();
        b.insert(12, 16);
        assert_eq!(a.first_common(&b), None);
        b.insert(10, 11);
        assert_eq!(a.first_common(&b), Some((10, 11)));
        let mut c = Ranges::default();
        for k in 0..8 {
            c.insert(k * 8, k * 8 + 4);
        }
        let mut d = Ranges::default();
        for k in 0..8 {
            d.insert(k * 8 + 4, k * 8 + 8);
        }
        assert_eq!(c.len(), 8);
        assert_eq!(c.first_common(&d), None);
        d.insert(30, 34);
        assert_eq!(c.first_common(&d), Some((32, 34)));
    }

    #[test]
    fn only_reads_and_only_atomics_do_not_conflict() {
        assert!(!Use::Read.conflicts_with(Use::Read));
        assert!(!Use::Atomic.conflicts_with(Use::Atomic));
        assert!(Use::Write.conflicts_with(Use::Write));
        assert!(Use::Read.conflicts_with(Use::Write));
        assert!(Use::Atomic.conflicts_with(Use::Read));
    }
}
