//! x86 SIMD intrinsics (`llvm.x86.*`) that clang leaves as calls. Their
//! semantics are rows in the simd module; this file only dispatches.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::simd::{lower_x86, Lowered};

impl<'m> Executor<'m> {
    pub(in crate::exec) fn call_x86(&mut self, state: &mut State, c: &CallCtx) -> Option<Result<Option<Value>, Step>> {
        match lower_x86(&mut self.cx.pool, c.name, &c.args, &c.inst.ty) {
            // Intrinsics without a result (fences, vzeroupper) give no lanes.
            Lowered::Value(v) if v.is_empty() => Some(Ok(None)),
            Lowered::Value(v) => Some(Ok(Some(v))),
            Lowered::Masked(m) => Some(self.masked_access(state, c, m)),
            Lowered::Unsupported(msg) => Some(Err(self.unsupported(state, c.inst.loc, msg))),
            Lowered::NotX86 => None,
        }
    }
}
