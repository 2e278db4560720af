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

/// The header's read of a texture object the model made but does not
/// follow (`__symcross_texture_unfollowed<T>(object, why)`): any value of
/// its type, as a fetch, recorded as `UNFOLLOWED_READS[why - 1]`.
const TEXTURE_UNFOLLOWED: &str = "__symcross_texture_unfollowed";

/// What each read the model does not follow is, by the header's `why`
/// (symcross_cuda.h): said in the reason a finding resting on it is not
/// confirmed, in place of a generic "approximate operation".
pub(in crate::exec) const UNFOLLOWED_READS: [&str; 6] = [
    "a texture read with linear filtering (the hardware's 9-bit fixed-point interpolation weights are not modelled)",
    "a texture read in cudaReadModeNormalizedFloat (the conversion to float is not modelled)",
    "a texture read whose element type's size is not the channel format's",
    "a texture read at a coordinate the model does not follow (a NaN, or wrap or mirror addressing with unnormalised coordinates)",
    "a texture read of a border colour other than zero",
    "a level-of-detail texture read (tex2DLod; mipmaps are not modelled)",
];

/// Why a finding resting on the recorded value `what` (a
/// `declared_results` entry) is not confirmed, when it is a texture read;
/// None for any other value.
pub(in crate::exec) fn texture_read_reason(what: &str) -> Option<String> {
    if what == FETCHED_VALUE {
        return Some(
            "it depends on a value read from a texture, which symcross lets be any value (the host binds the texture's memory); two \
             reads of one element may differ in the witness where a device's could not"
                .to_string(),
        );
    }
    UNFOLLOWED_READS.contains(&what).then(|| {
        format!(
            "it depends on {what}, which symcross models as any value of its type; a device's read has one value, which the witness \
             may not show"
        )
    })
}

impl<'m> Executor<'m> {
    /// Why a difference of `roots` under `witness` is not confirmed, when
    /// the open value it runs through (the one the check names as an
    /// approximate operation's result) is a texture read: the read, named.
    pub(in crate::exec) fn texture_read_through(&self, roots: &[crate::expr::ExprId], witness: &crate::expr::Assignment) -> Option<String> {
        if self.declared_results.is_empty() {
            return None;
        }
        let id = crate::check::confirm::fresh_value_named(&self.cx.pool, roots, witness)?;
        texture_read_reason(self.declared_results.get(&id)?)
    }

    /// A texture variable's handle (its address), or a fetch through it;
    /// None for any other call.
    pub(in crate::exec) fn call_cuda_texture(&mut self, state: &mut State, c: &CallCtx) -> Option<Result<Option<Value>, Step>> {
        if c.name.starts_with(TEXTURE_HANDLE) {
            return Some(Ok(c.args.first().cloned()));
        }
        let (base, _) = crate::ir::demangle(c.name)?;
        let recorded = match base {
            TEXTURE_FETCH => FETCHED_VALUE,
            // The header passes a constant; any other value is still any
            // value read, only named generically.
            TEXTURE_UNFOLLOWED => c
                .args
                .get(1)
                .and_then(|why| self.cx.pool.as_const(why[0]))
                .and_then(|why| UNFOLLOWED_READS.get((why as usize).wrapping_sub(1)))
                .copied()
                .unwrap_or(FETCHED_VALUE),
            _ => return None,
        };
        if state.gpu.is_none() {
            let what = "a texture fetch outside a kernel run (the host binds no texture memory in symcross)".to_string();
            return Some(Err(self.unsupported(state, c.inst.loc, what)));
        }
        let mut out = Value::new();
        for w in crate::exec::engine::step::leaf_widths(&c.inst.ty) {
            let v = self.cx.pool.fresh(w);
            if let Expr::Fresh { id, .. } = *self.cx.pool.get(v) {
                self.declared_results.insert(id, recorded.to_string());
            }
            out.push(v);
        }
        Some(Ok(Some(out)))
    }
}
