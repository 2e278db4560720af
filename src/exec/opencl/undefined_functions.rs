//! A plain C function that an OpenCL kernel's source declares but does not
//! define (its body is in another program or library). symcross cannot
//! run it. As GPUVerify assumes, it returns an arbitrary value and touches
//! no memory of the file, but only where that over-approximates what the
//! file's own code can observe:
//!
//! - no argument is a pointer the callee could write through (`__global`,
//!   `__local` or private alike: a write to a private variable can change
//!   an index just as well), a `byval` aggregate being the callee's own
//!   copy, and
//! - the file defines no writable program-scope variable another file
//!   could name (OpenCL C 2.0's `global int counter;`), so the callee
//!   reaches none of the file's memory.
//!
//! Otherwise the call is `unsupported`, naming the function and the
//! argument or variable: havocking what the callee could reach would also
//! have to count its unseen accesses as racing, which the race log cannot
//! record for memory whose addresses are not known. A finding that depends
//! on the arbitrary result is not confirmed (`declared_result_doubt`): the
//! real body may never return the value its witness needs.
//!
//! Only plain C names qualify: an OpenCL built-in (an overloaded, mangled
//! `_Z...` name) or a reserved `__` name that symcross does not model
//! stays an `unsupported` finding of the engine.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::Expr;
use crate::ir::{demangle, Function, Module, Type};
use crate::ir::{CONSTANT_SPACE, GLOBAL_SPACE, LOCAL_SPACE};

/// Why a kernel's undefined function cannot be modelled as "arbitrary
/// result, no effect on the file's memory", if it cannot.
pub(in crate::exec) fn reason_not_modelled(module: &Module, callee: &Function) -> Option<String> {
    if callee.varargs {
        return Some("it takes variable arguments, which may be pointers it writes through".into());
    }
    if let Some((k, p)) = callee.params.iter().enumerate().find(|(_, p)| p.byval.is_none() && pointer_in(&p.ty).is_some()) {
        let space = pointer_in(&p.ty).map(space_word).unwrap_or("");
        let name = if p.name.is_empty() { String::new() } else { format!(" (`{}`)", p.name) };
        let whole = if matches!(p.ty, Type::Ptr { .. }) { "is" } else { "holds" };
        return Some(format!(
            "its argument {}{name} {whole} a {space}pointer, through which it may write memory symcross cannot see",
            k + 1
        ));
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

/// The address space of the first pointer a value of type `t` holds.
fn pointer_in(t: &Type) -> Option<u32> {
    match t {
        Type::Ptr { addr_space } => Some(*addr_space),
        Type::Vector { elem, .. } | Type::Array { elem, .. } => pointer_in(elem),
        Type::Struct { fields, .. } => fields.iter().find_map(pointer_in),
        _ => None,
    }
}

/// An address space as OpenCL C spells it, with a trailing space; empty
/// for private and generic pointers.
fn space_word(space: u32) -> &'static str {
    match space {
        GLOBAL_SPACE => "`__global` ",
        LOCAL_SPACE => "`__local` ",
        CONSTANT_SPACE => "`__constant` ",
        _ => "",
    }
}

impl<'m> Executor<'m> {
    /// A call in a kernel to a function its source declares but never
    /// defines: an arbitrary result when that is sound (module doc),
    /// otherwise an `unsupported` finding naming the function and why.
    /// None for calls this does not judge (on the host, a built-in's or
    /// reserved name, a function symcross has no declaration of).
    pub(in crate::exec) fn call_undefined_in_kernel(&mut self, state: &State, c: &CallCtx) -> Option<Result<Option<Value>, Step>> {
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
    use crate::ir::Global;

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
    fn only_functions_that_cannot_reach_the_programs_memory_are_modelled() {
        let module = Module::default();
        assert_eq!(reason_not_modelled(&module, &declared(vec![(Type::Int(32), None)])), None);
        // A byval struct is the callee's own copy.
        assert_eq!(reason_not_modelled(&module, &declared(vec![(Type::Ptr { addr_space: 0 }, Some((8, 4)))])), None);
        let why = reason_not_modelled(&module, &declared(vec![(Type::Int(32), None), (Type::Ptr { addr_space: GLOBAL_SPACE }, None)]));
        assert!(why.as_deref().is_some_and(|w| w.starts_with("its argument 2 is a `__global` pointer")), "{why:?}");
        let private = reason_not_modelled(&module, &declared(vec![(Type::Ptr { addr_space: 0 }, None)]));
        assert!(private.as_deref().is_some_and(|w| w.starts_with("its argument 1 is a pointer")), "{private:?}");
        let pair = Type::Struct { fields: vec![Type::Int(32), Type::Ptr { addr_space: LOCAL_SPACE }], offsets: vec![0, 8], size: 16 };
        let held = reason_not_modelled(&module, &declared(vec![(pair, None)]));
        assert!(held.as_deref().is_some_and(|w| w.starts_with("its argument 1 holds a `__local` pointer")), "{held:?}");
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
