//! `<fenv.h>`: the floating-point environment. symcross computes with
//! round-to-nearest-even and does not model exception flags, so saving,
//! restoring and clearing the environment change nothing it computes:
//! those calls succeed (return 0). Libraries call them around comparisons
//! that must not raise flags (SIMDe's `_mm_ucomieq_ss`). Reading the flags
//! (`fetestexcept`) or choosing another rounding mode has effects symcross
//! cannot model, so those stay unsupported, with the reason.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;

/// `FE_TONEAREST` on x86 (glibc's <fenv.h>).
const FE_TONEAREST: u128 = 0;

impl<'m> Executor<'m> {
    /// feholdexcept, fesetenv, feupdateenv, fegetenv, feclearexcept,
    /// fegetround: success, or round-to-nearest.
    pub(in crate::exec) fn builtin_fenv_unchanged(&mut self, _state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let v = if c.name == "fegetround" { FE_TONEAREST } else { 0 };
        Ok(Some(smallvec::smallvec![self.cx.pool.constant(32, v)]))
    }

    /// fesetround: only round-to-nearest (what symcross computes with).
    pub(in crate::exec) fn builtin_fesetround(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        match self.cx.pool.as_const(c.args[0][0]) {
            Some(FE_TONEAREST) => Ok(Some(smallvec::smallvec![self.cx.pool.constant(32, 0)])),
            _ => Err(self.unsupported(
                state,
                c.inst.loc,
                "fesetround to a mode other than FE_TONEAREST: symcross computes with round-to-nearest-even only".into(),
            )),
        }
    }
}
