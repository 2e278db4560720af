//! A `__device__` function that the `.cu` file declares but does not
//! define (its body is in another translation unit). symcross cannot run
//! it. Its result is arbitrary, chosen afresh at each call by each thread,
//! and it may read and write every object its pointer arguments point
//! into, as undefined_call_havoc.rs models (a `byval` aggregate is the
//! callee's own copy).
//!
//! The call stays `unsupported`, saying why, when that does not bound what
//! it can do: it takes variable arguments, the file defines a writable
//! global another translation unit could name (a `__device__` variable),
//! or it could follow a pointer stored in memory (undefined_call_havoc.rs;
//! a buffer whose elements may be pointers, for one).

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::{Expr, ExprId};
use crate::ir::{demangle, local_static_name, Callee, Function, InstKind};

/// Why a declared-only function cannot be modelled at all, if it cannot
/// (module doc). Pointer arguments are judged at the call.
pub(in crate::exec) fn reason_not_pure(module: &crate::ir::Module, callee: &Function) -> Option<String> {
    if callee.varargs {
        return Some("it takes variable arguments, which may be pointers it writes through".into());
    }
    // A kernel's own `__shared__` arrays are function-local statics,
    // which no other file can name.
    let nameable = |g: &&crate::ir::Global| {
        !g.constant && !g.name.starts_with('.') && !g.name.starts_with("__symcross") && local_static_name(&g.name).is_none()
    };
    if let Some(g) = module.globals.iter().find(nameable) {
        return Some(format!("it could write the file's global `{}` from its own file", g.name));
    }
    None
}

/// The source name of a mangled `__device__` function (`_Z6nondetv` →
/// `nondet`), or the symbol itself.
fn source_name(symbol: &str) -> &str {
    demangle(symbol).map(|(base, _)| base).unwrap_or(symbol)
}

impl<'m> Executor<'m> {
    /// A call in CUDA device code to a user's `__device__` function with
    /// no body: an arbitrary result when that is sound (module doc),
    /// otherwise an `unsupported` finding naming the function and why.
    /// None for calls this does not judge (not CUDA, not a user's C++
    /// function, a reserved or LLVM name).
    pub(in crate::exec) fn call_declared_device_function(&mut self, state: &mut State, c: &CallCtx) -> Option<Result<Option<Value>, Step>> {
        if !self.cx.module.is_cuda() || !c.name.starts_with("_Z") || source_name(c.name).starts_with("__") {
            return None;
        }
        let InstKind::Call { callee: Callee::External(name), .. } = &c.inst.kind else { return None };
        let module = self.cx.module;
        let callee = module.functions.iter().find(|f| &f.name == name && f.is_declaration())?;
        if let Some(why) = reason_not_pure(module, callee) {
            let what = format!("call to `{}`, a __device__ function declared without a body in this file: {why}", source_name(c.name));
            return Some(Err(self.unsupported(state, c.inst.loc, what)));
        }
        let function = source_name(c.name);
        let describe = |why: &str| format!("call to `{function}`, a __device__ function declared without a body in this file: {why}");
        if let Err(step) = self.havoc_through_pointer_arguments(state, c, callee, function, &describe) {
            return Some(Err(step));
        }
        let widths = crate::exec::engine::step::leaf_widths(&c.inst.ty);
        if widths.is_empty() {
            return Some(Ok(None));
        }
        let mut out = Value::new();
        for w in widths {
            let v = self.cx.pool.fresh(w);
            if let Expr::Fresh { id, .. } = *self.cx.pool.get(v) {
                self.declared_results.insert(id, source_name(c.name).to_string());
            }
            out.push(v);
        }
        Some(Ok(Some(out)))
    }

    /// Why a finding whose path or condition (`roots`) depends on the
    /// arbitrary result of a declared-only function is not confirmed: the
    /// function's real body may never return the value the witness needs.
    pub(in crate::exec) fn declared_result_doubt(&self, roots: impl Iterator<Item = ExprId>) -> Option<String> {
        if self.declared_results.is_empty() {
            return None;
        }
        let mut name = None;
        self.cx.pool.any_below(roots, |_, e| match e {
            Expr::Fresh { id, .. } => {
                name = self.declared_results.get(id).cloned();
                name.is_some()
            }
            _ => false,
        });
        name.map(|f| {
            if let Some(why) = crate::exec::opencl::cuda_textures::texture_read_reason(&f) {
                return format!("; not confirmed: {why}");
            }
            format!(
                "; not confirmed: it depends on the result of `{f}`, a function declared without a body, which symcross lets return any \
                 value; its real body may never return the value the witness needs"
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Type;

    fn declared(params: Vec<(Type, Option<(u64, u64)>)>) -> Function {
        Function::declared_for_test("_Z3barv", params)
    }

    #[test]
    fn pointer_arguments_are_left_to_the_call() {
        let module = crate::ir::Module::default();
        assert_eq!(reason_not_pure(&module, &declared(vec![(Type::Int(32), None)])), None);
        assert_eq!(reason_not_pure(&module, &declared(vec![(Type::Ptr { addr_space: 1 }, None)])), None);
        let mut varargs = declared(vec![]);
        varargs.varargs = true;
        assert!(reason_not_pure(&module, &varargs).is_some());
        assert_eq!(source_name("_Z6nondetv"), "nondet");
    }
}
