//! Contents of kernel memory whose initial value is unknown: unsized
//! (address-only) buffers and uninitialised `__local` memory.
//!
//! An unsized buffer has no byte array; the bytes read or written are
//! remembered by the expression of their offset (`known` for numbers,
//! `known_symbolic` for the others). Every remembered byte holds the
//! buffer's current value at its offset, and two offsets that may be equal
//! hold values that are equal whenever they are:
//!
//! - a read at an offset not yet remembered is
//!   `ite(off == k1, v1, ite(off == k2, v2, ... fresh))` over the remembered
//!   bytes `k_i -> v_i` it may equal, `fresh` (the buffer's arbitrary
//!   initial contents) when it equals none of them; so `b[l]` and `b[0]`
//!   read the same value when `l == 0`, as on a device;
//! - a write of `w` at `off` makes every remembered byte that may be at
//!   `off` `ite(k == off, w, v)`.
//!
//! So a path that needs `b[l] == 0 && b[0] != 0` with `l == 0` is
//! infeasible, and a race on such a path is not reported. The same offset
//! reads the same value until it is written (two atomic increments of one
//! counter return different values; every work-item reading `A[0]` sees
//! one value).
//!
//! Relating a byte to every remembered one costs one comparison each
//! (none for offsets a known distance apart, such as the slots an atomic
//! counter hands out: race/offset_difference.rs tells them apart):
//! past `MAX_ALIASES` of them the byte is taken as arbitrary (a read) or
//! the remembered bytes it may overwrite are forgotten (a write), which
//! over-approximates what the buffer holds. The fresh values that stand
//! for such bytes (those read past the limit, and every byte read later at
//! an offset not remembered, which may hold a forgotten write) are kept
//! with the path (`State::inexact_unsized`): a finding whose path or
//! condition mentions one is not confirmed; the others stand.
//!
//! `__local` memory holds arbitrary values when a work-group starts, not
//! zeros and not what the previous group left: its bytes become fresh
//! values when first read before any write.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::{InexactBytes, State};
use crate::expr::{ExprId, ExprPool};
use crate::ir::LOCAL_SPACE;
use crate::memory::Access;
use crate::memory::Bytes;
use crate::memory::{MemoryObject, ObjectId};

/// The remembered bytes of an unsized buffer, by offset.
type Known = rustc_hash::FxHashMap<ExprId, ExprId>;

/// At most this many remembered bytes are related to one byte read or
/// written at an offset that may equal them (one comparison and one select
/// each); past it the buffer's contents are over-approximated.
pub const MAX_ALIASES: usize = 1024;

impl<'m> Executor<'m> {
    /// Reads `len` bytes of an address-only object.
    pub(in crate::exec) fn read_unsized(&mut self, state: &mut State, access: &Access, len: u64) -> Bytes {
        let keys: Vec<ExprId> = (0..len).map(|k| self.byte_offset(access.offset, k)).collect();
        let o = state.memory.object(access.object);
        if let Some(bytes) = keys.iter().map(|k| remembered(&self.cx.pool, o, *k)).collect::<Option<Bytes>>() {
            self.unsized_local_shadow(state, access, &bytes);
            return bytes;
        }
        let o = state.memory.object(access.object);
        let tracks = self.tracks_unwritten_unsized(state, o);
        let unchecked = !tracks && self.unwritten_unsized_undecided(state, o);
        let base = o.base;
        // What is known written of the buffer, for the bytes pair mode
        // cannot decide (unchecked_local.rs).
        let gaps = if unchecked { state.gpu.as_ref().map(|g| g.local_gaps.clone()) } else { None };
        let o = state.memory.object_mut(access.object);
        let mut inexact = Vec::new();
        let mut out = Bytes::new();
        for k in keys {
            let made = inexact.len();
            let (v, fresh) = self.byte_at(&mut o.known, &mut o.known_symbolic, k, o.forgotten, &mut inexact);
            // The buffer's initial contents at a byte no write is known to
            // have reached: never written in this group, unless the value
            // over-approximates (then it may hold a forgotten write).
            // Pair mode after a barrier: a work-item not modelled may or
            // may not have written the byte (unchecked_local.rs).
            self.note_unread_byte(fresh, tracks && inexact.len() == made, gaps.as_ref().map(|g| (g, base, k)));
            out.push(v);
        }
        InexactBytes::add(&mut state.inexact_unsized, &o.name, inexact);
        self.unsized_local_shadow(state, access, &out);
        out
    }

    /// Whether bytes of the unsized `__local` buffer `o` (a version of it
    /// on `state`'s path) that no write reached are told apart as
    /// indeterminate: a kernel's, unless `--local-memory arbitrary`, and
    /// not in pair mode after a barrier (the other work-items' writes are
    /// not modelled: any byte may hold one).
    fn tracks_unwritten_unsized(&self, state: &State, o: &MemoryObject) -> bool {
        let Some(gpu) = state.gpu.as_ref() else { return false };
        o.addr_space == LOCAL_SPACE && !self.cx.config.local_memory_arbitrary && !o.forgotten && gpu.log.havoc_fresh_from.is_none()
    }

    /// Whether bytes of the unsized `__local` buffer `o` that no
    /// remembered write reached may or may not have been written by a
    /// work-item pair mode does not model: after a barrier, unless
    /// `--local-memory arbitrary` (unchecked_local.rs).
    fn unwritten_unsized_undecided(&self, state: &State, o: &MemoryObject) -> bool {
        let Some(gpu) = state.gpu.as_ref() else { return false };
        o.addr_space == LOCAL_SPACE && !self.cx.config.local_memory_arbitrary && gpu.log.havoc_fresh_from.is_some()
    }

    /// Leaves in `self.shadow.last_read` the masks of `bytes`, just read
    /// from an unsized `__local` buffer: all bits of a byte that holds the
    /// buffer's initial contents (see `read_unsized`) are indeterminate,
    /// their origin the buffer, as for a sized `__local` variable.
    /// Bytes that may be initial contents only where pair mode cannot tell
    /// (`models.unsized_local_unchecked`) get an unchecked origin: a use is
    /// a warning, not a finding (unchecked_local.rs).
    fn unsized_local_shadow(&mut self, state: &State, access: &Access, bytes: &[ExprId]) {
        let o = state.memory.object(access.object);
        if o.addr_space != LOCAL_SPACE {
            return;
        }
        for unchecked in [false, true] {
            let none =
                if unchecked { self.models.unsized_local_unchecked.is_empty() } else { self.models.unsized_local_initial.is_empty() };
            if none {
                continue;
            }
            let mut memo = rustc_hash::FxHashMap::default();
            let masks: Bytes = bytes.iter().map(|b| self.initial_contents_mask(*b, unchecked, &mut memo)).collect();
            if masks.iter().all(|m| self.cx.pool.as_const(*m) == Some(0)) {
                continue;
            }
            let origin = if unchecked {
                self.unchecked_local_origin(o)
            } else {
                // Named as races name it: the argument is a buffer of local memory.
                let what = format!("local buffer `{}`", o.name);
                self.shadow.intern(what, None, "allocated here")
            };
            self.shadow.last_read = Some((masks, origin));
            return;
        }
    }

    /// The mask of a byte value of an unsized `__local` buffer: all ones
    /// where it is the buffer's initial contents (`unchecked`: the bits
    /// that may be, pair mode cannot tell), through the selects over
    /// remembered bytes that reads and writes build (a select the kernel
    /// stored is followed too); anything else counts as defined.
    fn initial_contents_mask(&mut self, v: ExprId, unchecked: bool, memo: &mut rustc_hash::FxHashMap<ExprId, ExprId>) -> ExprId {
        if let Some(m) = memo.get(&v) {
            return *m;
        }
        let known = if unchecked {
            self.models.unsized_local_unchecked.get(&v).copied()
        } else {
            self.models.unsized_local_initial.contains(&v).then(|| self.cx.pool.constant(8, 0xff))
        };
        let m = if let Some(m) = known {
            m
        } else if let crate::expr::Expr::Ite(c, a, b) = *self.cx.pool.get(v) {
            let (ma, mb) = (self.initial_contents_mask(a, unchecked, memo), self.initial_contents_mask(b, unchecked, memo));
            self.cx.pool.ite(c, ma, mb)
        } else {
            self.cx.pool.constant(8, 0)
        };
        memo.insert(v, m);
        m
    }

    /// Writes bytes of an address-only object (`None` bytes are unchanged).
    /// Every remembered byte that may be at a written offset becomes the
    /// written value when it is there.
    pub(in crate::exec) fn write_unsized(&mut self, state: &mut State, access: &Access, bytes: &[Option<ExprId>]) {
        let keys: Vec<ExprId> = (0..bytes.len() as u64).map(|k| self.byte_offset(access.offset, k)).collect();
        let o = state.memory.object_mut(access.object);
        for (k, b) in keys.into_iter().zip(bytes) {
            if let Some(w) = b {
                if !self.store_byte(&mut o.known, &mut o.known_symbolic, k, *w) {
                    o.forgotten = true;
                }
            }
        }
    }

    /// The value of the byte at `key`, remembered from now on. When it
    /// could not be related to the remembered bytes it may equal, or the
    /// buffer `forgot` some (so the byte may hold a write no longer
    /// remembered), its fresh part is an over-approximation: it is pushed
    /// on `inexact`.
    /// The fresh value, when one was made (the value may not use it),
    /// comes second.
    fn byte_at(
        &mut self,
        known: &mut Known,
        known_symbolic: &mut Known,
        key: ExprId,
        forgot: bool,
        inexact: &mut Vec<ExprId>,
    ) -> (ExprId, Option<ExprId>) {
        let concrete = self.cx.pool.is_const(key);
        if let Some(v) = if concrete { known.get(&key) } else { known_symbolic.get(&key) } {
            return (*v, None);
        }
        // A number equals no other number: only symbolic offsets may alias it.
        let mut others: Vec<(ExprId, ExprId)> = known_symbolic.iter().map(|(k, v)| (*k, *v)).collect();
        if !concrete {
            others.extend(known.iter().map(|(k, v)| (*k, *v)));
        }
        // A fixed order: the same run builds the same expressions.
        others.sort_unstable();
        let fresh = self.cx.pool.fresh(8);
        let exact = others.len() <= MAX_ALIASES && self.admit_expressions(2 * others.len() as u64).is_ok();
        let mut value = fresh;
        if exact {
            for (k, v) in others.into_iter().rev() {
                match self.same_offset(k, key) {
                    Same::No => {}
                    Same::Yes => {
                        value = v;
                        break;
                    }
                    Same::If(c) => value = self.cx.pool.ite(c, v, value),
                }
            }
        }
        if !exact || forgot {
            inexact.push(fresh);
        }
        if concrete { known } else { known_symbolic }.insert(key, value);
        (value, Some(fresh))
    }

    /// Stores `w` at `key`; false when remembered bytes that may be at
    /// `key` had to be forgotten (too many to relate).
    fn store_byte(&mut self, known: &mut Known, known_symbolic: &mut Known, key: ExprId, w: ExprId) -> bool {
        let concrete = self.cx.pool.is_const(key);
        let count = known_symbolic.len() + if concrete { 0 } else { known.len() };
        let exact = count <= MAX_ALIASES && self.admit_expressions(2 * count as u64).is_ok();
        if !exact {
            known_symbolic.clear();
            if !concrete {
                known.clear();
            }
        } else {
            let mut maps: Vec<&mut Known> = vec![&mut *known_symbolic];
            if !concrete {
                maps.push(&mut *known);
            }
            for map in maps {
                for (k, v) in map.iter_mut() {
                    match self.same_offset(*k, key) {
                        Same::No => {}
                        Same::Yes => *v = w,
                        Same::If(c) => *v = self.cx.pool.ite(c, w, *v),
                    }
                }
            }
        }
        if concrete { known } else { known_symbolic }.insert(key, w);
        exact
    }

    /// Whether two byte offsets are the same: `x + c1` and `x + c2` are
    /// decided without a comparison (the bytes of one access).
    fn same_offset(&mut self, a: ExprId, b: ExprId) -> Same {
        if a == b {
            return Same::Yes;
        }
        // Offsets a known distance apart (`x + c1` and `x + c2`, the bytes
        // of one access; slots of an atomic counter) need no comparison
        // (race/offset_difference.rs).
        if let Some(d) = crate::race::offset_difference::differences(&self.cx.pool, a, b, crate::race::offset_difference::MAX_DEPTH) {
            if !d.contains(&0) {
                return Same::No;
            }
            if d.iter().all(|&x| x == 0) {
                return Same::Yes;
            }
        }
        let c = self.cx.pool.eq(a, b);
        match self.cx.pool.as_const(c) {
            Some(0) => Same::No,
            Some(_) => Same::Yes,
            None => Same::If(c),
        }
    }

    /// Why a finding found under `condition` is not confirmed, when the
    /// condition mentions a byte over-approximated on the path (the path
    /// itself is judged when the finding is reported).
    pub(in crate::exec) fn inexact_doubt(&self, state: &State, condition: ExprId) -> Option<String> {
        let inexact = state.inexact_unsized.as_ref()?;
        inexact
            .mentioned_in(&self.cx.pool, std::iter::once(condition))
            .then(|| <Self as crate::exec::engine::model_hooks::ModelHooks>::inexact_unsized_note(&inexact.buffer))
    }

    /// The remembered bytes of two sides of a merge on `state`'s path,
    /// over the same offsets (each side's value of an offset only the
    /// other remembered is read there as above, the buffer's initial
    /// contents when that side tracks them), and the fresh values that
    /// over-approximate bytes (see `byte_at`).
    pub(in crate::exec) fn merge_unsized(
        &mut self,
        state: &State,
        guard: ExprId,
        a: &MemoryObject,
        b: &MemoryObject,
    ) -> (Known, Known, Vec<ExprId>) {
        let tracks = [self.tracks_unwritten_unsized(state, a), self.tracks_unwritten_unsized(state, b)];
        let undecided = self.unwritten_unsized_undecided(state, a);
        let gaps = if undecided { state.gpu.as_ref().map(|g| g.local_gaps.clone()) } else { None };
        let (mut ak, mut asym) = (a.known.clone(), a.known_symbolic.clone());
        let (mut bk, mut bsym) = (b.known.clone(), b.known_symbolic.clone());
        let mut keys: Vec<ExprId> = ak.keys().chain(asym.keys()).chain(bk.keys()).chain(bsym.keys()).copied().collect();
        keys.sort_unstable();
        keys.dedup();
        let (mut known, mut known_symbolic) = (Known::default(), Known::default());
        let mut inexact = Vec::new();
        for key in keys {
            // A byte only one side read or wrote: the other side's fresh
            // value is what that side would have read there, as in
            // `read_unsized`.
            let made = inexact.len();
            let (x, fx) = self.byte_at(&mut ak, &mut asym, key, a.forgotten, &mut inexact);
            self.note_unread_byte(fx, tracks[0] && inexact.len() == made, gaps.as_ref().map(|g| (g, a.base, key)));
            let made = inexact.len();
            let (y, fy) = self.byte_at(&mut bk, &mut bsym, key, b.forgotten, &mut inexact);
            self.note_unread_byte(fy, tracks[1] && inexact.len() == made, gaps.as_ref().map(|g| (g, b.base, key)));
            let v = self.cx.pool.ite(guard, x, y);
            if self.cx.pool.is_const(key) { &mut known } else { &mut known_symbolic }.insert(key, v);
        }
        (known, known_symbolic, inexact)
    }

    /// Records a fresh value made for an unsized `__local` byte as the
    /// buffer's initial contents (`initial`: no write reached it) or as
    /// bytes pair mode cannot decide (`undecided`: what is known written
    /// of the buffer at base address, and the byte's offset; the bits
    /// known written are not undecided), for the shadow of later reads
    /// (see `read_unsized`).
    fn note_unread_byte(
        &mut self,
        fresh: Option<ExprId>,
        initial: bool,
        undecided: Option<(&crate::exec::opencl::unchecked_local::LocalGaps, u64, ExprId)>,
    ) {
        let Some(fresh) = fresh else { return };
        if initial {
            self.models.unsized_local_initial.insert(fresh);
        } else if let Some((gaps, base, key)) = undecided {
            let m = self.unchecked_unsized_mask(gaps, base, key);
            if self.cx.pool.as_const(m) != Some(0) {
                self.models.unsized_local_unchecked.insert(fresh, m);
            }
        }
    }

    /// The indeterminate bits of a byte value of an unsized `__local`
    /// buffer, whether pair mode can decide them or not (see
    /// `initial_contents_mask`).
    pub(in crate::exec) fn unsized_local_mask(&mut self, v: ExprId) -> ExprId {
        let (mut a, mut b) = (rustc_hash::FxHashMap::default(), rustc_hash::FxHashMap::default());
        let initial = self.initial_contents_mask(v, false, &mut a);
        let undecided = self.initial_contents_mask(v, true, &mut b);
        self.cx.pool.or(initial, undecided)
    }

    fn byte_offset(&mut self, offset: ExprId, k: u64) -> ExprId {
        if k == 0 {
            return offset;
        }
        let c = self.cx.pool.constant(64, k as u128);
        self.cx.pool.add(offset, c)
    }

    /// Gives the never-written bytes of a `__local` object in `range` (all
    /// of it when `None`) fresh values, so that they read as arbitrary;
    /// unless `--local-memory arbitrary`, their bits are also indeterminate
    /// (origin: the object), so that a use of them is an
    /// `uninitialized-read` as for a stack variable never written.
    pub(in crate::exec) fn fill_unwritten_local(&mut self, state: &mut State, object: ObjectId, range: Option<std::ops::Range<usize>>) {
        if state.gpu.is_none() {
            return;
        }
        let o = state.memory.object(object);
        if o.addr_space != LOCAL_SPACE || o.address_only {
            return;
        }
        let (off, len) = match range {
            Some(r) => (r.start as u64, (r.end - r.start) as u64),
            None => (0, o.size),
        };
        if o.bytes.all_written(off, len) {
            return;
        }
        // One fresh expression per byte: the memory limit first.
        let n = o.bytes.count_unwritten(off, len);
        if self.admit_expressions(n).is_err() {
            return;
        }
        let unwritten = o.bytes.unwritten(off, len);
        let indeterminate = (!self.cx.config.local_memory_arbitrary).then(|| {
            let o = state.memory.object(object);
            (self.object_origin(o), self.cx.pool.constant(8, 0xff))
        });
        let o = state.memory.object_mut(object);
        for i in unwritten {
            let fresh = self.cx.pool.fresh(8);
            o.bytes.set(&mut self.cx.pool, i, fresh);
            match indeterminate {
                Some((origin, all)) => {
                    o.poison.insert(i, (all, origin));
                }
                // A byte left indeterminate by the last group's store.
                None => {
                    o.poison.remove(&i);
                }
            }
        }
    }
}

impl<'m> Executor<'m> {
    /// A block copy (`llvm.memcpy`, a struct assignment at -O0) from
    /// `from` into a `__global` buffer carried bytes with the
    /// indeterminate bits `masks`: those that hold a member of the
    /// source's type (by debug info) are an `uninitialized-read`, as a
    /// store of them is. Padding is not (a struct assignment copies it
    /// whatever it holds), nor are bytes whose place in a type is unknown:
    /// a source of no known type, or at a symbolic offset.
    pub(in crate::exec) fn copied_indeterminate_bytes(
        &mut self,
        state: &mut State,
        from: &Access,
        to: &Access,
        masks: &[Option<ExprId>],
        origin: crate::memory::OriginId,
        loc: crate::ir::Loc,
    ) {
        let Some(from_off) = self.cx.pool.as_const(from.offset) else { return };
        let o = state.memory.object(from.object);
        let (name, size) = (o.name.clone(), o.size);
        let zero = self.cx.pool.constant(8, 0);
        let types = &self.cx.module.debug_types;
        let kept: crate::expr::value::Value = masks
            .iter()
            .enumerate()
            .map(|(k, m)| match m {
                Some(m) if crate::report::dwarf_witness::holds_member(types, &name, size, from_off as u64 + k as u64) == Some(true) => *m,
                _ => zero,
            })
            .collect();
        if kept.iter().all(|m| self.cx.pool.as_const(*m) == Some(0)) {
            return;
        }
        let d = state.memory.object(to.object);
        let at = match self.cx.pool.as_const(to.offset) {
            Some(off) => format!(" at byte offset {}", off as u64),
            None => String::new(),
        };
        let what = format!("the data copied into {} `{}`{at}", d.describe(), d.name);
        self.uninit_use(state, &crate::memory::shadow::Shadow { mask: kept, origin }, loc, &what);
    }
}

/// Whether two offsets are the same byte.
enum Same {
    No,
    Yes,
    /// When this condition holds.
    If(ExprId),
}

/// The byte of `o` remembered at `key`.
fn remembered(pool: &ExprPool, o: &MemoryObject, key: ExprId) -> Option<ExprId> {
    if pool.is_const(key) { o.known.get(&key) } else { o.known_symbolic.get(&key) }.copied()
}
