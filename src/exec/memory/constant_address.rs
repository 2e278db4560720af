//! An access at a constant address that lies inside a sized live object:
//! the place `resolve` finds for it, without the expressions it builds to
//! get there. Every work-item of an enumerated NDRange reads and writes its
//! buffers at constant addresses (its ids are numbers), so a 2^20-item
//! launch makes millions of these; the general path builds the offset's
//! subtraction and the bounds comparison (both fold to constants) and asks
//! the range analysis for the offset's range, for an answer the numbers
//! already give. Anything else (no object, freed, a function, an unsized
//! buffer, out of bounds, a write pair mode's havoc refuses) is left to
//! the general path, which makes the finding.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::ExprId;
use crate::ir::Loc;
use crate::memory::{Access, ObjectKind};

impl<'m> Executor<'m> {
    /// The access of `len` bytes at the constant address `addr` when it is
    /// inside one sized live object: `resolve`'s answer (the object, the
    /// offset as the constant its subtraction folds to, the read-only
    /// check for a write). None: the general path decides.
    pub(super) fn resolve_constant_inside(
        &mut self,
        state: &mut State,
        addr: u64,
        len: u64,
        loc: Loc,
        is_write: bool,
    ) -> Option<Result<Access, Step>> {
        let obj = state.memory.object_near(addr)?;
        let o = state.memory.object(obj);
        if o.freed || o.kind == ObjectKind::Function || o.address_only || o.size < len {
            return None;
        }
        // An address below the base wraps to an offset past the end.
        let off = addr.wrapping_sub(o.base);
        if off > o.size - len {
            return None;
        }
        if is_write && self.stray_write_into_spared(state, obj).is_some() {
            return None;
        }
        let offset = self.cx.pool.constant(64, off as u128);
        Some(self.check_writable(state, obj, offset, len, loc, is_write).map(|()| Access { object: obj, offset }))
    }

    /// Whether `addr` is a constant multiple of `align`: `check_alignment`
    /// then has nothing to report (the offset's low bits and the base's
    /// give the address's, or the solver is asked a constant false), so
    /// the call is skipped.
    pub(super) fn constant_and_aligned(&self, addr: ExprId, align: u64) -> bool {
        align != 0 && self.cx.pool.as_const(addr).is_some_and(|a| (a as u64).is_multiple_of(align))
    }
}

#[cfg(test)]
mod tests {
    use crate::expr::ExprPool;

    /// The offset the fast path gives is the handle the general path's
    /// subtraction of two constants folds to (the race log and the
    /// witness compare offsets by handle).
    #[test]
    fn a_constant_offset_is_the_folded_subtraction() {
        let mut pool = ExprPool::new();
        for (addr, base) in [(0x1_0000_0010u64, 0x1_0000_0000u64), (0xffff_ffff_ffff_fff0, 0x10), (0x2000, 0x2000)] {
            let (a, b) = (pool.constant(64, addr as u128), pool.constant(64, base as u128));
            let folded = pool.sub(a, b);
            assert_eq!(folded, pool.constant(64, addr.wrapping_sub(base) as u128));
        }
    }
}
