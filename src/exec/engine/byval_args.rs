//! Arguments passed `byval` (C structs passed by value): the caller passes
//! a pointer, but the callee owns a copy of the pointee, so writes in the
//! callee never reach the caller's object. Kernel arguments copy their
//! launch's template instead (opencl/byval.rs).

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::scalar;
use crate::ir::Loc;
use crate::memory::ObjectKind;

impl<'m> Executor<'m> {
    /// Replaces each `byval` argument of the frame on top of the stack by a
    /// pointer to a fresh copy owned by that frame.
    pub(in crate::exec) fn copy_byval_args(&mut self, state: &mut State, loc: Loc) -> Result<(), Step> {
        let func = self.cx.module.function(state.frame().func);
        for p in &func.params {
            let Some((size, align)) = p.byval else { continue };
            let Some(src) = state.frame().regs[p.reg.0 as usize].as_ref().map(|v| v[0]) else { continue };
            let id = state.memory.allocate(&mut self.cx.pool, size, align, ObjectKind::Stack, format!("argument `{}`", p.name));
            state.memory.object_mut(id).alloc_line = Some(loc);
            state.frame_mut().allocas.push(id);
            let dst = self.cx.pool.constant(64, state.memory.object(id).base as u128);
            self.copy_bytes(state, dst, src, size, loc)?;
            state.frame_mut().regs[p.reg.0 as usize] = Some(scalar(dst));
        }
        Ok(())
    }
}
