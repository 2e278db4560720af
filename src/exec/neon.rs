//! AArch64 Advanced SIMD intrinsics (`llvm.aarch64.*`) that clang leaves as
//! calls. Their semantics are rows in the neon module; this file only
//! dispatches.

use super::calls::CallCtx;
use super::executor::{Executor, Step};
use super::state::State;
use super::value::Value;
use crate::neon::{lower_neon, Lowered};

impl<'m> Executor<'m> {
    pub(super) fn call_neon(&mut self, state: &mut State, c: &CallCtx) -> Option<Result<Option<Value>, Step>> {
        match lower_neon(&mut self.pool, c.name, &c.args, &c.inst.ty) {
            Lowered::Value(v) => Some(Ok(Some(v))),
            Lowered::Unsupported(msg) => Some(Err(self.unsupported(state, c.inst.loc, msg))),
            Lowered::NotNeon => None,
        }
    }
}
