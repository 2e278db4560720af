//! The shadow of memory (see shadow.rs). A byte of a stack or heap object
//! that was never written is entirely indeterminate, its origin the object
//! itself. A byte written with indeterminate bits (a copy of such a byte, a
//! store of a partly undefined vector) keeps an entry in the object's
//! `poison` table: its mask (an 8-bit expression) and the origin of those
//! bits. Every other byte is defined. Objects of the other kinds (globals,
//! buffers) start defined.

use crate::exec::engine::executor::Executor;
use crate::expr::ExprId;
use crate::memory::shadow::{range_is_defined, tracks_writes};
use crate::memory::Bytes;
use crate::memory::MemoryObject;
use crate::memory::OriginId;

impl<'m> Executor<'m> {
    /// The mask of byte `k` of `o` and the origin of its indeterminate bits.
    fn byte_shadow(&mut self, o: &MemoryObject, k: u64) -> (ExprId, Option<OriginId>) {
        let (page, origin) = self.page_byte_shadow(o, k);
        // Writes at symbolic offsets with a shadow wait in the mask log
        // above the pages (memory/mask_log.rs).
        match o.bytes.mask_log() {
            Some(log) if log.may_touch(k, 1) => {
                let m = log.mask_at(&mut self.cx.pool, k, page);
                let origin = match self.cx.pool.as_const(m) {
                    Some(0) => None,
                    _ => origin.or(Some(log.origin())),
                };
                (m, origin)
            }
            _ => (page, origin),
        }
    }

    /// The mask of byte `k` in the pages of `o`, below the store log's
    /// writes at symbolic offsets, and its origin.
    pub(in crate::exec) fn page_byte_shadow(&mut self, o: &MemoryObject, k: u64) -> (ExprId, Option<OriginId>) {
        if tracks_writes(o) && !o.bytes.is_written(k) {
            let origin = self.object_origin(o);
            return (self.cx.pool.constant(8, 0xff), Some(origin));
        }
        match o.poison.get(&k) {
            Some((m, origin)) => (*m, Some(*origin)),
            None => (self.cx.pool.constant(8, 0), None),
        }
    }

    /// The masks of bytes `[off, off + len)` of `o`, None when all are
    /// defined.
    pub(in crate::exec) fn range_shadow(&mut self, o: &MemoryObject, off: u64, len: u64) -> Option<(Bytes, OriginId)> {
        if range_is_defined(o, off, len) {
            return None;
        }
        let mut origin = None;
        let mut out = Bytes::with_capacity(len as usize);
        for k in off..off + len {
            let (m, from) = self.byte_shadow(o, k);
            // An unchecked origin names the mix (see `propagate_shadow`).
            origin = match (origin, from) {
                (Some(a), Some(b)) if !self.shadow.is_unchecked(a) && self.shadow.is_unchecked(b) => Some(b),
                _ => origin.or(from),
            };
            out.push(m);
        }
        Some((out, origin?))
    }

    /// The masks of every byte of `o`, None when all are defined.
    pub(in crate::exec) fn object_shadow(&mut self, o: &MemoryObject) -> Option<(Vec<ExprId>, OriginId)> {
        self.range_shadow(o, 0, o.size).map(|(b, origin)| (b.into_vec(), origin))
    }

    /// Sets the masks of bytes `off..` of `o` (None entries are left
    /// alone: struct padding); the bytes count as written.
    pub(in crate::exec) fn set_range_shadow(&mut self, o: &mut MemoryObject, off: u64, masks: &[Option<ExprId>], origin: Option<OriginId>) {
        for (k, m) in masks.iter().enumerate() {
            let Some(m) = m else { continue };
            let at = off + k as u64;
            match (self.cx.pool.as_const(*m), origin) {
                (Some(0), _) | (_, None) => {
                    if !o.poison.is_empty() {
                        o.poison.remove(&at);
                    }
                }
                (_, Some(origin)) => {
                    o.poison.insert(at, (*m, origin));
                }
            }
        }
    }
}

impl<'m> Executor<'m> {
    /// `len` bytes at `ptr` are used (compared by a check): an
    /// `uninitialized-read` finding when some of their bits can be
    /// indeterminate.
    pub(in crate::exec) fn use_bytes(
        &mut self,
        state: &mut crate::exec::engine::state::State,
        ptr: ExprId,
        len: u64,
        loc: crate::ir::Loc,
        what: &str,
    ) -> Result<(), crate::exec::engine::executor::Step> {
        if len == 0 {
            return Ok(());
        }
        let access = self.resolve(state, ptr, len, loc, false)?;
        self.read_bytes(state, &access, len, loc);
        if let Some((masks, origin)) = self.shadow.last_read.take() {
            let s = crate::memory::shadow::Shadow { mask: masks.into_iter().collect(), origin };
            if !self.uninit_use(state, &s, loc, what) {
                return Err(crate::exec::engine::executor::Step::Terminated);
            }
        }
        Ok(())
    }
}
