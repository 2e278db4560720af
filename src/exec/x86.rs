//! x86 SIMD intrinsics (`llvm.x86.*`) that clang leaves as calls. Their
//! semantics are rows in the simd module; this file only dispatches.

use super::calls::CallCtx;
use super::executor::{Executor, Step};
use super::state::State;
use super::value::Value;

impl<'m> Executor<'m> {
    pub(super) fn call_x86(&mut self, _state: &mut State, _c: &CallCtx) -> Option<Result<Option<Value>, Step>> {
        None
    }
}
