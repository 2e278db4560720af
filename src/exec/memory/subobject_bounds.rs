//! Sub-object bounds: C, and OpenCL C with it (C99 6.5.6), makes indexing
//! an array past its declared length undefined even when the address stays
//! inside the enclosing object (`s.b[2]` with `char b[2]` lands in the
//! struct's padding; `g[5]` of `int g[5]` in the next variable), so
//! whole-object bounds do not see it. A GEP that indexes into an array
//! type (ir::ArrayBound) is checked where the models ask for it (OpenCL
//! device code): an index below the length when the address is only
//! loaded or stored through, at most the length (one past the end) when
//! it is also used otherwise. Pointer arithmetic on a decayed pointer
//! (`p = s.b; p[3]`) has no array type and is not checked, nor are
//! trailing arrays of 0 or 1 elements (variable-size structs).

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::state::State;
use crate::expr::{CmpOp, ExprId};
use crate::ir::{ArrayBound, Function, Loc, Operand};
use crate::report::FindingKind;

impl<'m> Executor<'m> {
    /// Checks the array indices `index` (each term's value, 64 bits) of a
    /// GEP against `bounds`: a path where one is outside its array is an
    /// `out-of-bounds` finding and ends; the rest goes on.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec) fn check_array_bounds(
        &mut self,
        state: &mut State,
        func: &Function,
        base: &Operand,
        start: ExprId,
        index: &[(ExprId, i64)],
        bounds: &[ArrayBound],
        loc: Loc,
    ) -> Result<(), Step> {
        if bounds.is_empty() || !self.device_code_rules(state) {
            return Ok(());
        }
        for b in bounds {
            let Some(&(i, scale)) = index.get(b.term) else { continue };
            // An array that is the whole object (a variable indexed
            // directly): the message names the object, as the object's own
            // bounds check does (the index may land in the next variable,
            // where that check sees nothing).
            let whole = self.cx.pool.as_const(start).and_then(|a| state.memory.object_near(a as u64)).and_then(|obj| {
                let o = state.memory.object(obj);
                let spans =
                    self.cx.pool.as_const(start) == Some(o.base as u128) && (b.len as i64).checked_mul(scale) == Some(o.size as i64);
                spans.then(|| format!("{} object `{}` of {} bytes", o.describe(), o.name, o.size))
            });
            let last = if b.dereferenced { b.len - 1 } else { b.len };
            let limit = self.cx.pool.constant(64, last as u128);
            let inside = self.cx.pool.cmp(CmpOp::Ule, i, limit);
            if self.cx.pool.as_const(inside) == Some(1) {
                continue;
            }
            let (within, outside) =
                if self.cx.pool.as_const(inside) == Some(0) { (None, Some(state.clone())) } else { self.branch(state, inside) };
            if let Some(mut out) = outside {
                let model = self.current_model(&mut out);
                let at = crate::expr::value_in(&self.cx.pool, i, model.as_ref()).map_or(-1, |v| v as u64 as i64);
                let name = match base {
                    Operand::Reg(r) => func.reg_names.get(r.0 as usize).filter(|n| !n.is_empty()).map(|n| format!("array `{n}`")),
                    Operand::Const(_) => None,
                }
                .unwrap_or_else(|| "an array".into());
                let what = if b.dereferenced { "an access at" } else { "an address of" };
                let who = self.running_item_phrase(&out, model.as_ref());
                // The rule is the kernel language's (C99 6.5.6 for OpenCL C,
                // the same rule in C++ for CUDA): name the one the user wrote.
                let language = if self.cx.module.is_cuda() { "CUDA C++" } else { "OpenCL C" };
                let msg = match &whole {
                    Some(object) => format!("{what} index {at} of an array of {} elements{who}, outside {object}", b.len),
                    None => format!(
                        "{what} index {at} of {name} of {} elements{who}: outside the array (undefined in {language} even inside the enclosing object)",
                        b.len
                    ),
                };
                self.report(&out, FindingKind::OutOfBounds, loc, msg, model.as_ref(), None);
            }
            match within {
                Some(s) => *state = s,
                None => return Err(Step::Terminated),
            }
        }
        Ok(())
    }
}
