//! Legacy CUDA texture references: `texture<T, dim, mode>` variables read
//! with `tex1Dfetch`, `tex1D`, `tex2D` and `tex3D` (header
//! symcross_cuda.h). clang gives a texture variable to device code as a
//! handle (`llvm.nvvm.texsurf.handle.internal`); the header's reads pass it
//! to `__symcross_texture_fetch<T>`, answered here.
//!
//! The memory a texture reads is bound by the host (`cudaBindTexture`),
//! which a kernel run alone does not see: a fetch returns any value of its
//! type, afresh at each fetch. That covers every memory the host could
//! bind, so nothing is hidden; but two fetches of one element may then
//! differ where a device's could not, so a finding resting on a fetched
//! value is not confirmed (`declared_result_doubt`). A fetch is not an
//! access of the kernel's buffers: the texture path is read-only, and a
//! kernel writing the memory it also fetches reads undefined values (the
//! CUDA programming guide), which is not checked.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::Expr;

/// The header's fetch function, by its unmangled name.
const TEXTURE_FETCH: &str = "__symcross_texture_fetch";

/// The intrinsic that gives device code a texture variable's handle.
const TEXTURE_HANDLE: &str = "llvm.nvvm.texsurf.handle.internal.";

/// What `declared_results` records a fetched value as.
pub(in crate::exec) const FETCHED_VALUE: &str = "a texture fetch";

impl<'m> Executor<'m> {
    /// A texture variable's handle (its address), or a fetch through it;
    /// None for any other call.
    pub(in crate::exec) fn call_cuda_texture(&mut self, state: &mut State, c: &CallCtx) -> Option<Result<Option<Value>, Step>> {
        if c.name.starts_with(TEXTURE_HANDLE) {
            return Some(Ok(c.args.first().cloned()));
        }
        let (base, _) = crate::ir::demangle(c.name)?;
        if base != TEXTURE_FETCH {
            return None;
        }
        if state.gpu.is_none() {
            let what = "a texture fetch outside a kernel run (the host binds no texture memory in symcross)".to_string();
            return Some(Err(self.unsupported(state, c.inst.loc, what)));
        }
        let mut out = Value::new();
        for w in crate::exec::engine::step::leaf_widths(&c.inst.ty) {
            let v = self.cx.pool.fresh(w);
            if let Expr::Fresh { id, .. } = *self.cx.pool.get(v) {
                self.declared_results.insert(id, FETCHED_VALUE.to_string());
            }
            out.push(v);
        }
        Some(Ok(Some(out)))
    }
}
