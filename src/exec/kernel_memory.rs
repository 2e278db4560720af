//! Contents of kernel memory whose initial value is unknown: unsized
//! (address-only) buffers and uninitialised `__local` memory.
//!
//! An unsized buffer has no byte array; the bytes read or written are
//! remembered by offset, so that the same offset reads the same value until
//! it is written (two atomic increments of one counter return different
//! values; every work-item reading `A[0]` sees one value). A write at an
//! offset that may alias others forgets what it may have overwritten.
//!
//! `__local` memory holds arbitrary values when a work-group starts, not
//! zeros and not what the previous group left: its bytes become fresh
//! values when first read before any write.

use super::executor::Executor;
use super::mem_ops::{Access, Bytes};
use super::memory::ObjectId;
use super::state::State;
use crate::expr::ExprId;
use crate::race::LOCAL_SPACE;

impl<'m> Executor<'m> {
    /// Reads `len` bytes of an address-only object.
    pub(super) fn read_unsized(&mut self, state: &mut State, access: &Access, len: u64) -> Bytes {
        let concrete = self.pool.is_const(access.offset);
        let keys: Vec<ExprId> = (0..len).map(|k| self.byte_offset(access.offset, k)).collect();
        let o = state.memory.object(access.object);
        let map = if concrete { &o.known } else { &o.known_symbolic };
        if keys.iter().all(|k| map.contains_key(k)) {
            return keys.iter().map(|k| map[k]).collect();
        }
        let o = state.memory.object_mut(access.object);
        let map = if concrete { &mut o.known } else { &mut o.known_symbolic };
        keys.into_iter().map(|k| *map.entry(k).or_insert_with(|| self.pool.fresh(8))).collect()
    }

    /// Writes bytes of an address-only object (`None` bytes are unchanged).
    /// A concrete write may overwrite any byte read at a symbolic offset; a
    /// symbolic write any byte at all.
    pub(super) fn write_unsized(&mut self, state: &mut State, access: &Access, bytes: &[Option<ExprId>]) {
        let concrete = self.pool.is_const(access.offset);
        let keys: Vec<ExprId> = (0..bytes.len() as u64).map(|k| self.byte_offset(access.offset, k)).collect();
        let o = state.memory.object_mut(access.object);
        o.known_symbolic.clear();
        if !concrete {
            o.known.clear();
        }
        let map = if concrete { &mut o.known } else { &mut o.known_symbolic };
        for (k, b) in keys.into_iter().zip(bytes) {
            match b {
                Some(b) => map.insert(k, *b),
                None => map.remove(&k),
            };
        }
    }

    fn byte_offset(&mut self, offset: ExprId, k: u64) -> ExprId {
        if k == 0 {
            return offset;
        }
        let c = self.pool.constant(64, k as u128);
        self.pool.add(offset, c)
    }

    /// Gives the never-written bytes of a `__local` object in `range` (all
    /// of it when `None`) fresh values, so that they read as arbitrary.
    pub(super) fn fill_unwritten_local(&mut self, state: &mut State, object: ObjectId, range: Option<std::ops::Range<usize>>) {
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
        let o = state.memory.object_mut(object);
        for i in unwritten {
            let fresh = self.pool.fresh(8);
            o.bytes.set(&mut self.pool, i, fresh);
        }
    }
}
