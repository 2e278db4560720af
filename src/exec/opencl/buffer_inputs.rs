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
    /// witness lists only them), whose elements the path then constrains
    /// to the range (given only for buffers without fixed bytes).
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
        if arbitrary > 0 {
            let array = self.cx.pool.new_array(name, arbitrary as u32);
            let mut first = 0;
            for (off, len) in gaps {
                state.memory.object_mut(obj).bytes.fill_input(&mut self.cx.pool, off, len, array, first);
                first += len as u32;
            }
            if let Some(range) = contents.range.as_ref().filter(|_| contents.fixed.is_empty()) {
                for k in 0..bytes / range.size as u64 {
                    let element = self.cx.pool.input_word(array, (k * range.size as u64) as u32, range.size * 8);
                    let within = self.within_intervals(element, &range.intervals);
                    state.path.push(within);
                }
            }
        }
        for (off, run) in &contents.fixed {
            let consts: Vec<Option<ExprId>> = run.iter().map(|&b| Some(self.cx.pool.constant(8, b as u128))).collect();
            state.memory.object_mut(obj).bytes.write(&mut self.cx.pool, *off, &consts);
        }
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
