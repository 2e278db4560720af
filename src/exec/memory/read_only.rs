//! Writes into read-only objects. An object is read-only when the program
//! declares it immutable: an LLVM `constant` global (a C `const` global or
//! a string literal, placed in read-only pages natively, where a write
//! faults; an OpenCL `__constant` variable). Every write path (stores,
//! atomics, memset/memcpy/strcpy destinations, make_symbolic, intrinsics
//! that store) resolves its address with `resolve(.., is_write = true)`,
//! which asks here before handing out the access, so none of them can
//! change such an object silently.
//!
//! A pointer cast from `const T *` to `T *` is not itself an error in C;
//! only writing through it to an object that is really constant is, so the
//! check is on the object, not on the pointer's type.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::state::State;
use crate::expr::ExprId;
use crate::ir::Loc;
use crate::memory::ObjectId;
use crate::report::FindingKind;

use crate::ir::CONSTANT_SPACE;

impl<'m> Executor<'m> {
    /// Ends the path with a `write-to-read-only` finding when a write of
    /// `len` bytes resolved to `object` at `offset` and that object (or,
    /// for a host program's buffer, those bytes) is read-only; `Ok`
    /// otherwise (reads always pass).
    pub(in crate::exec) fn check_writable(
        &mut self,
        state: &mut State,
        object: ObjectId,
        offset: ExprId,
        len: u64,
        loc: Loc,
        is_write: bool,
    ) -> Result<(), Step> {
        let o = state.memory.object(object);
        if !is_write || !o.read_only {
            return Ok(());
        }
        // Marked by the models (a buffer a host program created
        // read-only, for a kernel's run, in whole or in part).
        if let Some(done) = self.write_into_marked(state, object, offset, len, loc) {
            return done;
        }
        let o = state.memory.object(object);
        let what = if o.addr_space == CONSTANT_SPACE { "`__constant`" } else { "constant" };
        // clang names string literals `.str`, `.str.1`...: no source name.
        let object = if o.name == ".str" || o.name.starts_with(".str.") {
            "a string literal".to_string()
        } else if o.kind == crate::memory::ObjectKind::Buffer && o.addr_space != CONSTANT_SPACE {
            // A kernel's buffer the host created read-only (`--arg NAME=...:ro`).
            format!("buffer `{}` (created CL_MEM_READ_ONLY by the host: `:ro`)", o.name)
        } else {
            format!("{what} {} `{}`", o.describe(), o.name)
        };
        let msg = format!("write of {len} bytes into {object}, which is read-only");
        // The path so far is feasible: its model is the witness.
        let model = self.current_model(state);
        self.report(state, FindingKind::WriteToReadOnly, loc, msg, model.as_ref(), None);
        Err(Step::Terminated)
    }
}
