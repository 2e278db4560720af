//! OpenCL 2.0's `atomic_compare_exchange_strong` and `_weak` (and their
//! `_explicit` forms, whose memory orders and scope change nothing for a
//! sequentially consistent model): the object is read atomically, written
//! with `desired` only when it holds what `*expected` holds, and on a
//! failed compare the value found is stored into `*expected`. The weak
//! form may also fail when the values are equal (a spurious failure), so
//! its outcome is an arbitrary choice when they are.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::{scalar, Value};
use crate::memory::layout::{bytes_to_value, value_to_bytes};
use crate::race::AccessKind;

impl<'m> Executor<'m> {
    /// `bool atomic_compare_exchange_*(A *object, C *expected, C desired, ...)`.
    pub(in crate::exec) fn compare_exchange(&mut self, state: &mut State, c: &CallCtx, weak: bool) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let desired = c.args[2][0];
        let w = self.cx.pool.width(desired);
        let ty = crate::ir::Type::Int(w);
        let len = ty.store_size();
        let object = self.resolve(state, c.args[0][0], len, loc, true)?;
        let found = self.read_bytes(state, &object, len, loc);
        let old = bytes_to_value(&mut self.cx.pool, &ty, &found)[0];
        let expected_at = self.resolve(state, c.args[1][0], len, loc, true)?;
        let wanted = self.read_bytes(state, &expected_at, len, loc);
        self.observe_access(state, &expected_at, len, AccessKind::Read, None, loc);
        let expected = bytes_to_value(&mut self.cx.pool, &ty, &wanted)[0];
        let mut ok = self.cx.pool.eq(old, expected);
        if weak {
            let succeeds = self.cx.pool.fresh(1);
            ok = self.cx.pool.and(ok, succeeds);
        }
        let stored = self.cx.pool.ite(ok, desired, old);
        let out = value_to_bytes(&mut self.cx.pool, &ty, &[stored]);
        self.observe_atomic(state, &object, len, Some(ok), loc);
        self.write_bytes(state, &object, &out);
        // `*expected` is written (with the value found) only on failure.
        let failed = self.cx.pool.not(ok);
        if self.cx.pool.as_const(failed) != Some(0) {
            let back = self.cx.pool.ite(ok, expected, old);
            let out = value_to_bytes(&mut self.cx.pool, &ty, &[back]);
            let written: Vec<_> = out.iter().flatten().copied().collect();
            self.observe_guarded_write(state, &expected_at, len, written, failed, loc);
            self.write_bytes(state, &expected_at, &out);
        }
        let result = if c.inst.ty.scalar_bits() == 1 { ok } else { self.cx.pool.zext(ok, c.inst.ty.scalar_bits()) };
        Ok(Some(scalar(result)))
    }
}
