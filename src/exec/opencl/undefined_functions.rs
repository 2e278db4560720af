//! A plain C function that an OpenCL kernel's source declares but does not
//! define (its body is in another program or library). symcross cannot
//! run it. Its result is arbitrary, chosen afresh at each call, and it
//! may read and write every object its pointer arguments point into
//! (`__global`, `__local` or private alike: a write to a private variable
//! can change an index just as well), as undefined_call_havoc.rs models:
//! an access of the whole object for race detection and fresh contents
//! after the call. A `byval` aggregate is the callee's own copy.
//!
//! The call stays `unsupported`, naming the function and why, when that
//! does not bound what it can do: it takes variable arguments, the file
//! defines a writable program-scope variable another file could name
//! (OpenCL C 2.0's `global int counter;`), or it could follow a pointer
//! stored in memory (undefined_call_havoc.rs). A finding that depends on
//! its result or on the contents it may have written is not confirmed
//! (`declared_result_doubt`): the real body may never produce what the
//! witness needs.
//!
//! Only plain C names qualify: an OpenCL built-in (an overloaded, mangled
//! `_Z...` name) or a reserved `__` name that symcross does not model
//! stays an `unsupported` finding of the engine.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::Expr;
use crate::ir::CONSTANT_SPACE;
use crate::ir::{demangle, Function, Module};

/// Why a kernel's undefined function cannot be modelled at all, if it
/// cannot: what it could write is not bounded by its arguments (module
/// doc). Pointer arguments are judged at the call.
pub(in crate::exec) fn reason_not_modelled(module: &Module, callee: &Function) -> Option<String> {
    if callee.varargs {
        return Some("it takes variable arguments, which may be pointers it writes through".into());
    }
    // clang names a kernel's `__local` variables and a function's statics
    // `function.variable`: a '.' no source identifier holds, so no other
    // file can name them.
    let nameable = |g: &&crate::ir::Global| {
        !g.constant && g.addr_space != CONSTANT_SPACE && !g.name.contains('.') && !g.name.starts_with("__symcross")
    };
    if let Some(g) = module.globals.iter().find(nameable) {
        return Some(format!("it could write the program-scope variable `{}` from its own file", g.name));
    }
    None
}

impl<'m> Executor<'m> {
    /// A call in a kernel to a function its source declares but never
    /// defines: an arbitrary result when that is sound (module doc),
    /// otherwise an `unsupported` finding naming the function and why.
    /// None for calls this does not judge (on the host, a built-in's or
    /// reserved name, a function symcross has no declaration of).
    pub(in crate::exec) fn call_undefined_in_kernel(&mut self, state: &mut State, c: &CallCtx) -> Option<Result<Option<Value>, Step>> {
        state.gpu.as_ref()?;
        if demangle(c.name).is_some() || c.name.starts_with("__") || c.name.starts_with("llvm.") {
            return None;
        }
        let module = self.cx.module;
        let callee = module.find_function(c.name).map(|id| module.function(id)).filter(|f| f.is_declaration())?;
        if let Some(why) = reason_not_modelled(module, callee) {
            let what = format!("call to `{}`, a function declared without a body in this program: {why}", c.name);
            return Some(Err(self.unsupported(state, c.inst.loc, what)));
        }
        let describe = |why: &str| format!("call to `{}`, a function declared without a body in this program: {why}", c.name);
        if let Err(step) = self.havoc_through_pointer_arguments(state, c, callee, c.name, &describe) {
            return Some(Err(step));
        }
        let widths = crate::exec::engine::step::leaf_widths(&c.inst.ty);
        let mut out = Value::new();
        for w in widths {
            let v = self.cx.pool.fresh(w);
            if let Expr::Fresh { id, .. } = *self.cx.pool.get(v) {
                self.declared_results.insert(id, c.name.to_string());
            }
            out.push(v);
        }
        Some(Ok((!out.is_empty()).then_some(out)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Global, Type, GLOBAL_SPACE, LOCAL_SPACE};

    fn declared(params: Vec<(Type, Option<(u64, u64)>)>) -> Function {
        Function::declared_for_test("lookup", params)
    }

    fn global(name: &str, constant: bool, addr_space: u32) -> Global {
        Global {
            name: name.into(),
            size: 4,
            align: 4,
            init: None,
            relocs: Vec::new(),
            constant,
            addr_space,
            loc: Default::default(),
            element: None,
        }
    }

    #[test]
    fn pointer_arguments_are_left_to_the_call() {
        let module = Module::default();
        assert_eq!(reason_not_modelled(&module, &declared(vec![(Type::Int(32), None)])), None);
        let global = declared(vec![(Type::Int(32), None), (Type::Ptr { addr_space: GLOBAL_SPACE }, None)]);
        assert_eq!(reason_not_modelled(&module, &global), None);
        let mut varargs = declared(vec![]);
        varargs.varargs = true;
        assert!(reason_not_modelled(&module, &varargs).is_some_and(|w| w.contains("variable arguments")));
    }

    #[test]
    fn only_program_scope_variables_another_file_can_name_count() {
        let mut module = Module {
            globals: vec![global("scan.tile", false, LOCAL_SPACE), global("table", true, CONSTANT_SPACE), global(".str", true, 2)],
            ..Module::default()
        };
        assert_eq!(reason_not_modelled(&module, &declared(vec![])), None);
        module.globals.push(global("counter", false, GLOBAL_SPACE));
        let why = reason_not_modelled(&module, &declared(vec![]));
        assert!(why.as_deref().is_some_and(|w| w.contains("`counter`")), "{why:?}");
    }
}
