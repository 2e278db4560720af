//! What the host gives a kernel run alone about its buffers (`symcross
//! race --arg NAME=...`): their contents, wholly or partly (a file's
//! bytes, a fill value, listed elements, every element within a range,
//! the rest arbitrary), and the access the host allowed (a buffer created
//! `CL_MEM_READ_ONLY` or `CL_MEM_WRITE_ONLY`). OpenCL 1.2 section 5.2.1:
//! writing a read-only buffer or reading a write-only one inside a kernel
//! is undefined, so either is a finding (`write-to-read-only`,
//! `read-from-write-only`).

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::expr::{CmpOp, ExprId};
use crate::ir::Loc;
use crate::memory::{Access, ObjectId};
use crate::race::AccessKind;
use crate::report::FindingKind;

/// The contents the host gave a buffer. Every byte that no run of
/// `fixed` covers is arbitrary (a symbolic input named after the
/// parameter), within `range` when it is given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BufferContents {
    /// Runs of concrete bytes by offset (a file's, a fill's, listed
    /// elements'), in increasing order, not overlapping.
    pub fixed: Vec<(u64, Vec<u8>)>,
    /// Each element of the buffer outside `fixed` lies in this range.
    pub range: Option<ElementRange>,
}

/// The values an element may take: its bits, read little-endian from
/// `size` bytes, lie in one of `intervals` (unsigned, inclusive). A
/// signed or floating-point range becomes one or two such intervals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementRange {
    /// The element's size in bytes (1, 2, 4 or 8).
    pub size: u32,
    /// Inclusive bounds of the element's bits, as unsigned numbers.
    pub intervals: Vec<(u128, u128)>,
}

/// What the host allowed a kernel to do with a buffer (clCreateBuffer's
/// `CL_MEM_READ_WRITE`, `CL_MEM_READ_ONLY`, `CL_MEM_WRITE_ONLY`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum HostAccess {
    /// Read and written (the default).
    #[default]
    ReadWrite,
    /// Only read: a write is a `write-to-read-only` finding.
    ReadOnly,
    /// Only written: a read is a `read-from-write-only` finding.
    WriteOnly,
}

impl<'m> Executor<'m> {
    /// Lays `contents` into the buffer `obj` of `bytes` bytes, named
    /// `name`: fixed bytes as constants, the others, in order, the bytes of
    /// a symbolic input of that name (none when every byte is fixed; a
    /// witness lists only them), whose elements the path constrains to the
    /// range (given only for buffers without fixed bytes) as they are read.
    pub(in crate::exec) fn fill_buffer(&mut self, state: &mut State, obj: ObjectId, name: &str, bytes: u64, contents: &BufferContents) {
        // The bytes no run covers, as (offset, length).
        let mut gaps = Vec::new();
        let mut at = 0;
        for (off, run) in &contents.fixed {
            if *off > at {
                gaps.push((at, off - at));
            }
            at = at.max(off + run.len() as u64);
        }
        if at < bytes {
            gaps.push((at, bytes - at));
        }
        let arbitrary: u64 = gaps.iter().map(|(_, len)| len).sum();
        // The runs laid out, for reads at symbolic offsets of a buffer
        // partly given (mem_ops.rs): its input's bytes at a symbolic
        // position between the given ones.
        // More given bytes than a select over them affords are read as
        // one given array a run (exact: the solvers hold their guesses to
        // the given bytes), whatever their number.
        let given: u64 = contents.fixed.iter().map(|(_, run)| run.len() as u64).sum();
        let many = bytes > crate::exec::memory::mem_ops::INPUT_AT_BYTES && given > crate::exec::memory::mem_ops::GIVEN_SELECT_BYTES;
        let mut runs: Vec<crate::memory::object_bytes::Run> = Vec::with_capacity(contents.fixed.len() + 1);
        for (k, (off, run)) in contents.fixed.iter().enumerate() {
            let array = (many && run.len() as u64 > crate::exec::memory::mem_ops::INPUT_AT_BYTES).then(|| {
                let label = if contents.fixed.len() == 1 { format!("{name}.given") } else { format!("{name}.given{k}") };
                self.cx.pool.new_given_array(&label, run)
            });
            runs.push(crate::memory::object_bytes::Run::Fixed { off: *off, bytes: run.as_slice().into(), array });
        }
        if arbitrary > 0 {
            let array = self.cx.pool.new_array(name, arbitrary as u32);
            let mut first = 0;
            for (off, len) in gaps {
                state.memory.object_mut(obj).bytes.fill_input(&mut self.cx.pool, off, len, array, first);
                runs.push(crate::memory::object_bytes::Run::Input { off, len, array, first });
                first += len as u32;
            }
            // Each element is constrained to the range when first read
            // (`constrain_read_elements`), not all of them here.
            if let Some(range) = contents.range.as_ref().filter(|_| contents.fixed.is_empty()) {
                let ranged = crate::memory::ranged_input::RangedInput::new(array, range.size, &range.intervals);
                state.memory.object_mut(obj).ranged = Some(ranged);
            }
        }
        for (off, run) in &contents.fixed {
            let consts: Vec<Option<ExprId>> = run.iter().map(|&b| Some(self.cx.pool.constant(8, b as u128))).collect();
            state.memory.object_mut(obj).bytes.write(&mut self.cx.pool, *off, &consts);
        }
        // Only a buffer both given and arbitrary in parts needs its runs:
        // one wholly arbitrary is one input in order, one wholly given is
        // constants. Runs not covering it exactly are not kept.
        // One wholly given is constants, but past a select's reach its
        // reads at symbolic offsets take the given array: its one run.
        if (arbitrary > 0 && !contents.fixed.is_empty()) || many {
            runs.sort_by_key(|r| r.off());
            state.memory.object_mut(obj).bytes.set_layout(runs);
        }
    }

    /// Adds to the path that the elements of a ranged buffer (`obj`) that
    /// bytes `off..off + len` overlap (None: every element, for a read that
    /// selects over the whole object) lie in the host's range, for those
    /// not constrained yet. Reads call it before their bytes enter any
    /// expression.
    pub(in crate::exec) fn constrain_read_elements(&mut self, state: &mut State, obj: ObjectId, range: Option<(u64, u64)>) {
        let o = state.memory.object(obj);
        let size = o.size;
        if !o.ranged.as_ref().is_some_and(|r| r.has_missing(size, range)) {
            return;
        }
        let r = state.memory.object_mut(obj).ranged.as_mut().expect("checked above");
        let missing = r.take_missing(size, range);
        let (array, width, intervals) = (r.array, r.size, r.intervals.clone());
        for k in missing {
            let element = self.cx.pool.input_word(array, (k * u64::from(width)) as u32, width * 8);
            let within = self.within_intervals(element, &intervals);
            self.add_range_fact(state, within);
        }
    }

    /// Adds to the path that the elements of a ranged buffer (`obj`)
    /// that a read of `len` bytes at the symbolic position `at` of its
    /// input overlaps lie in the host's range, each as a word of the input
    /// read at a symbolic position (`ExprPool::input_at`): exact, and only
    /// the elements the read may touch, whatever the buffer's size. A read
    /// of whole elements at element boundaries (known low bits of `at`)
    /// constrains those elements; any other read constrains the element
    /// holding each byte.
    pub(in crate::exec) fn constrain_elements_at(&mut self, state: &mut State, obj: ObjectId, at: ExprId, len: u64) {
        let Some(r) = state.memory.object(obj).ranged.as_ref() else { return };
        let (array, size, intervals) = (r.array, u64::from(r.size), r.intervals.clone());
        let (m, residue) = crate::memory::offset_residue::residue(&self.cx.pool, at, 12);
        let aligned = len.is_multiple_of(size) && m.is_multiple_of(size) && residue.is_multiple_of(size);
        let mut starts: Vec<ExprId> = Vec::new();
        if aligned {
            for k in (0..len).step_by(size as usize) {
                let k = self.cx.pool.constant(64, u128::from(k));
                starts.push(self.cx.pool.add(at, k));
            }
        } else {
            // The element holding byte k starts at (at + k) rounded down
            // to a multiple of the element's size (a power of two).
            let down = self.cx.pool.constant(64, u128::from(!(size - 1)));
            for k in 0..len {
                let k = self.cx.pool.constant(64, u128::from(k));
                let p = self.cx.pool.add(at, k);
                let start = self.cx.pool.and(p, down);
                if !starts.contains(&start) {
                    starts.push(start);
                }
            }
        }
        for start in starts {
            // Little-endian: later bytes are higher.
            let mut word = self.cx.pool.input_at(array, start);
            for j in 1..size {
                let j = self.cx.pool.constant(64, u128::from(j));
                let p = self.cx.pool.add(start, j);
                let b = self.cx.pool.input_at(array, p);
                word = self.cx.pool.concat(b, word);
            }
            let within = self.within_intervals(word, &intervals);
            if !state.path.contains(&within) {
                self.add_range_fact(state, within);
            }
        }
    }

    /// Adds to the path that the elements of a ranged buffer (`obj`) read
    /// as fresh bytes at the symbolic `offset` (`read_arbitrary`) lie in
    /// the host's range, when the read is of whole elements at element
    /// boundaries (the offset's known low bits say so): the fresh bytes
    /// then stand for elements. Otherwise they stay unconstrained, an
    /// over-approximation already noted with the path.
    pub(in crate::exec) fn constrain_fresh_elements(&mut self, state: &mut State, obj: ObjectId, offset: ExprId, fresh: &[ExprId]) {
        let Some(r) = state.memory.object(obj).ranged.as_ref() else { return };
        let (size, intervals) = (r.size as usize, r.intervals.clone());
        let (m, residue) = crate::memory::offset_residue::residue(&self.cx.pool, offset, 12);
        if fresh.is_empty() || !fresh.len().is_multiple_of(size) || !m.is_multiple_of(size as u64) || !residue.is_multiple_of(size as u64) {
            return;
        }
        for element in fresh.chunks(size) {
            // Little-endian: later bytes are higher.
            let mut word = element[0];
            for b in &element[1..] {
                word = self.cx.pool.concat(*b, word);
            }
            let within = self.within_intervals(word, &intervals);
            self.add_range_fact(state, within);
        }
    }

    /// Adds a fact the host's range guarantees to the path; a model that
    /// breaks it is dropped (the next one asked for keeps it).
    fn add_range_fact(&mut self, state: &mut State, fact: ExprId) {
        if self.cx.pool.as_const(fact) == Some(1) {
            return;
        }
        if let Some(m) = &state.model {
            if crate::expr::evaluate(&self.cx.pool, fact, m) == 0 {
                state.model = None;
            }
        }
        state.path.push(fact);
    }

    /// `x` lies in one of `intervals` (unsigned, inclusive).
    fn within_intervals(&mut self, x: ExprId, intervals: &[(u128, u128)]) -> ExprId {
        let w = self.cx.pool.width(x);
        let mut any = self.cx.pool.bool_const(false);
        for &(lo, hi) in intervals {
            let (lo, hi) = (self.cx.pool.constant(w, lo), self.cx.pool.constant(w, hi));
            let above = self.cx.pool.cmp(CmpOp::Ule, lo, x);
            let below = self.cx.pool.cmp(CmpOp::Ule, x, hi);
            let inside = self.cx.pool.and(above, below);
            any = self.cx.pool.or(any, inside);
        }
        any
    }

    /// Reports a kernel's read (or atomic read-modify-write) of a buffer
    /// the host created write-only. The path goes on: what it reads is
    /// arbitrary, as it is on a device.
    pub(in crate::exec) fn check_host_readable(&mut self, state: &mut State, access: &Access, len: u64, kind: AccessKind, loc: Loc) {
        if kind == AccessKind::Write || !state.memory.object(access.object).write_only {
            return;
        }
        // A buffer a host program created write-only (host_access.rs).
        if self.host_view_read(state, access.object, access.offset, len, kind, loc) {
            return;
        }
        let o = state.memory.object(access.object);
        let what = if kind == AccessKind::Atomic { "atomic read-modify-write" } else { "read" };
        let msg = format!(
            "{what} of {len} bytes of {} `{}`, which the host created write-only (CL_MEM_WRITE_ONLY, `:wo`): a kernel may only \
             write it",
            o.describe(),
            o.name
        );
        let model = self.current_model(state);
        self.report(state, FindingKind::ReadFromWriteOnly, loc, msg, model.as_ref(), None);
    }
}
