//! A kernel's work-item's scalar load or store at a constant address
//! inside a `__global` buffer, on the tier. Every work-item of an
//! enumerated NDRange reads and writes its buffers so (its ids are
//! numbers); through the general step each access left the tier, built
//! its operands and bytes as values, and went through the models' hooks
//! for what only a few of them do. Here it runs with the whole state, as
//! the general step runs it when nothing is to be reported: the place
//! `resolve` gives (the object, the offset as the constant its
//! subtraction folds to), the elements a ranged buffer's read constrains,
//! the bytes, and the race log's record of the access, made through the
//! models' hook for a whole access (`ModelHooks::bulk_access`: for one
//! scalar it records what the general step's per-lane hook records, with
//! the bytes written, or those read when the read-write tolerance wants
//! them; the engine names no model). Anything that would make the general step report, shadow or
//! decide something (no sized live object there, bytes out of bounds or
//! indeterminate, a read-only or write-only buffer, CUDA streams) is
//! left to it, with nothing changed.

use super::decode::{FastFunc, Op, Src};
use super::run::{lane, number, put, stored_bytes, value_of_bytes, word};
use crate::exec::engine::executor::Executor;
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::state::State;
use crate::ir::{Function, RegId};
use crate::memory::{Access, Memory, ObjectId, ObjectKind};

/// The object and offset of a `len`-byte access at `addr` when it lies
/// inside one sized live `__global` object whose bytes there are all
/// defined and whose write (`write`) or read the general step makes with
/// no finding (not read-only for a write, not write-only for a read).
#[inline]
fn global_place(memory: &Memory, addr: u64, len: u64, write: bool) -> Option<(ObjectId, u64)> {
    let obj = memory.object_near(addr)?;
    let o = memory.object(obj);
    if o.freed
        || o.kind == ObjectKind::Function
        || o.address_only
        || o.size < len
        || o.addr_space != crate::ir::GLOBAL_SPACE
        || !o.poison.is_empty()
    {
        return None;
    }
    // An address below the base wraps to an offset past the end.
    let off = addr.wrapping_sub(o.base);
    if off > o.size - len {
        return None;
    }
    if write {
        return (!o.read_only).then_some((obj, off));
    }
    (!o.write_only && crate::memory::shadow::range_is_defined(o, off, len)).then_some((obj, off))
}

impl<'m> Executor<'m> {
    /// The load or store at the running frame's `pc` (a work-item's, at a
    /// constant aligned address, `run::device_place`) run as the general
    /// step runs it; false, with nothing changed, when it may do more
    /// than read or write the bytes and record the access.
    pub(super) fn fast_global_access(&mut self, state: &mut State, code: &FastFunc, func: &'m Function) -> bool {
        // CUDA's stream bookkeeping sees accesses too (never set in the
        // OpenCL code the tier runs: checked all the same).
        if state.streams.is_some() || state.gpu.is_none() {
            return false;
        }
        let consts = &code.consts[..];
        let frame = state.frame();
        let (b, pc) = (frame.block.0 as usize, frame.pc);
        let inst = &func.blocks[b].insts[pc];
        let pool = &mut self.cx.pool;
        let addr_of = |pool: &mut crate::expr::ExprPool, ptr: Src| {
            word(frame, ptr, 64).or_else(|| number(consts, frame, pool, ptr).map(|(_, a)| a as u64))
        };
        match &code.blocks[b].ops[pc] {
            Op::Load1 { dst, ptr, width, len, .. } => {
                let (dst, len) = (*dst, *len as u64);
                let Some(addr) = addr_of(pool, *ptr) else { return false };
                let Some((obj, off)) = global_place(&state.memory, addr, len, false) else { return false };
                // `resolve`'s offset, then `read_bytes`: a ranged buffer's
                // elements read are constrained before their bytes are used.
                let offset = self.cx.pool.constant(64, off as u128);
                self.shadow.last_read = None;
                self.constrain_read_elements(state, obj, Some((off, len)));
                let o = state.memory.object(obj);
                // The value read matters only to the read-write tolerance.
                let (r, seen) = match o.bytes.constant_number(off, len, crate::memory::shadow::tracks_writes(o)) {
                    Some(v) if !self.cx.config.benign_read_write => (self.cx.pool.constant(*width, v as u128), None),
                    _ => {
                        let mut bytes = crate::memory::Bytes::new();
                        o.bytes.read(&mut self.cx.pool, off, len, &mut bytes);
                        let seen = self.cx.config.benign_read_write.then(|| bytes.to_vec());
                        (value_of_bytes(&mut self.cx.pool, &inst.ty, *width, &bytes), seen)
                    }
                };
                self.bulk_access(state, &Access { object: obj, offset }, len, false, seen, inst.loc);
                let frame = state.frame_mut();
                put(frame, dst, r);
                // A defined result: the general step drops its register's shadow.
                if !frame.shadows.is_empty() {
                    frame.shadows.remove(&RegId(dst));
                }
                frame.pc += 1;
                true
            }
            Op::Store1 { ptr, val, ty, len, .. } => {
                let Some(addr) = addr_of(pool, *ptr) else { return false };
                let Some(x) = lane(consts, frame, pool, *val) else { return false };
                let Some((obj, off)) = global_place(&state.memory, addr, *len as u64, true) else { return false };
                let t = &code.types[*ty as usize];
                let bytes = stored_bytes(pool, t, x, *len);
                let offset = self.cx.pool.constant(64, off as u128);
                let written: Option<Vec<_>> = bytes.iter().copied().collect();
                self.bulk_access(state, &Access { object: obj, offset }, *len as u64, true, written, inst.loc);
                let w = t.scalar_bits();
                let o = &mut state.memory.object_mut(obj).bytes;
                match x.as_word_const(w).filter(|_| w <= 64 && w.div_ceil(8) == *len) {
                    // A number's bytes (those `stored_bytes` made), as the
                    // host's stores write them (run.rs `Store1`).
                    Some(v) => o.write_number(&mut self.cx.pool, off, *len as usize, v),
                    None => o.write(&mut self.cx.pool, off, &bytes),
                }
                state.frame_mut().pc += 1;
                true
            }
            _ => false,
        }
    }
}
