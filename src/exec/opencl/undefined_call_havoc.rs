//! What a call to a function without a body (OpenCL C or CUDA device code)
//! may do to the memory its pointer arguments reach. symcross cannot run
//! the body, so it assumes the worst the C rules allow: the callee may
//! read and write every byte of every object a pointer argument points
//! into (not only the bytes after the pointer: nothing stops `p[-1]`
//! inside the object).
//!
//! - For race detection the call is one access of the calling work-item
//!   that may touch any byte of each such object (`race::WHOLE_OBJECT`):
//!   it meets every other work-item's access of the object. Two
//!   work-items whose calls reach the same buffer therefore race even if
//!   the real bodies touch disjoint elements: disjointness is never
//!   claimed. Such races are not confirmed, and say why.
//! - After the call each such object holds fresh arbitrary bytes, counted
//!   as the callee's results (`declared_result_doubt`), and no byte of it
//!   is indeterminate any more (the body may have written every one): a
//!   read of a byte the body in fact left unwritten is not reported.
//!
//! This bounds what the callee reaches only when it cannot follow a
//! pointer stored in memory to a further object. `unbounded_reach` checks
//! that syntactically: pointers are kept only in private variables whose
//! address is never passed on, no pointer becomes an integer, and no
//! program-scope variable holds an address. OpenCL buffers hold no device
//! pointers (there is no shared virtual memory here); a CUDA buffer may, so
//! a CUDA call reaching one is modelled only when the debug information
//! types its elements as holding no pointer. Otherwise the call stays
//! `unsupported`, saying why.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::{evaluate, CmpOp, Expr, ExprId};
use crate::ir::debug_types::{CType, DebugTypes};
use crate::ir::{CastOp, Const, Function, InstKind, Module, Operand, RegId, Reloc, Type};
use crate::ir::{GLOBAL_SPACE, LOCAL_SPACE};
use crate::memory::{Access, ObjectId, ObjectKind};
use crate::race::AccessKind;
use rustc_hash::{FxHashMap, FxHashSet};

/// Whether a value of type `t` holds a pointer.
pub(in crate::exec) fn holds_pointer(t: &Type) -> bool {
    match t {
        Type::Ptr { .. } => true,
        Type::Vector { elem, .. } | Type::Array { elem, .. } => holds_pointer(elem),
        Type::Struct { fields, .. } => fields.iter().any(holds_pointer),
        _ => false,
    }
}

/// Why a function without a body could reach memory beyond the objects its
/// pointer arguments point into, by following a pointer stored in memory,
/// if it could (module doc).
pub(in crate::exec) fn unbounded_reach(module: &Module) -> Option<String> {
    for g in &module.globals {
        if g.relocs.iter().any(|(_, r)| matches!(r, Reloc::Global { .. })) {
            return Some(format!("the program-scope variable `{}` holds an address", g.name));
        }
    }
    module.functions.iter().filter(|f| !f.is_declaration()).find_map(stored_pointers_escape)
}

/// Why pointers stored by `f` may be found by a callee: stored outside a
/// private variable, loaded from such memory, turned into an integer, or
/// kept in a private variable whose address is passed on.
fn stored_pointers_escape(f: &Function) -> Option<String> {
    let derived = addresses_of_private_variables(f);
    let variables_of = |o: &Operand| -> Vec<RegId> {
        match o {
            Operand::Reg(r) => derived.get(r).map(|s| s.iter().copied().collect()).unwrap_or_default(),
            Operand::Const(_) => Vec::new(),
        }
    };
    let type_of = |o: &Operand| match o {
        Operand::Reg(r) => holds_pointer(&f.reg_types[r.0 as usize]),
        Operand::Const(c) => const_holds_address(c),
    };
    let mut holding: FxHashSet<RegId> = FxHashSet::default();
    let mut escaped: FxHashSet<RegId> = FxHashSet::default();
    let at = |line: u32| format!("in `{}` at line {line}", f.name);
    for inst in f.blocks.iter().flat_map(|b| b.insts.iter()) {
        match &inst.kind {
            InstKind::Cast { op: CastOp::PtrToInt, .. } => {
                return Some(format!("a pointer is turned into an integer {}", at(inst.loc.line)));
            }
            InstKind::Store { ptr, value, .. } if type_of(value) => {
                let vars = variables_of(ptr);
                if vars.is_empty() {
                    return Some(format!("a pointer is stored outside a private variable {}", at(inst.loc.line)));
                }
                holding.extend(vars);
            }
            InstKind::Load { ptr, .. } if holds_pointer(&inst.ty) && variables_of(ptr).is_empty() => {
                return Some(format!("a pointer is loaded from memory other than a private variable {}", at(inst.loc.line)));
            }
            InstKind::AtomicRmw { .. } | InstKind::CmpXchg { .. } if holds_pointer(&inst.ty) => {
                return Some(format!("a pointer is exchanged atomically {}", at(inst.loc.line)));
            }
            _ => {}
        }
        let passed_on = keeps_address(&inst.kind);
        for (k, o) in inst.kind.operands().into_iter().enumerate() {
            if !passed_on(k) {
                escaped.extend(variables_of(o));
            }
        }
    }
    for b in &f.blocks {
        for o in b.term.operands() {
            escaped.extend(variables_of(o));
        }
    }
    let mut both: Vec<RegId> = holding.intersection(&escaped).copied().collect();
    both.sort_unstable_by_key(|r| r.0);
    both.first().map(|r| {
        let name = f.reg_names.get(r.0 as usize).filter(|n| !n.is_empty()).map(|n| format!(" `{n}`")).unwrap_or_default();
        format!("the address of the private variable{name} of `{}`, which holds a pointer, is passed on", f.name)
    })
}

/// Whether a constant holds the address of a global.
fn const_holds_address(c: &Const) -> bool {
    match c {
        Const::GlobalAddr { .. } | Const::FuncAddr(_) => true,
        Const::Vector(cs) | Const::Aggregate(cs) => cs.iter().any(const_holds_address),
        _ => false,
    }
}

/// Which operands (by position in `InstKind::operands`) may hold a private
/// variable's address without handing it to anything that could keep it:
/// the address of a load or store, and the operands whose address the
/// result carries on (followed by `addresses_of_private_variables`).
fn keeps_address(kind: &InstKind) -> fn(usize) -> bool {
    match kind {
        InstKind::Load { .. } | InstKind::Store { .. } | InstKind::Gep { .. } => |k| k == 0,
        InstKind::Cast { op: CastOp::BitCast | CastOp::AddrSpaceCast, .. } | InstKind::Freeze(_) => |k| k == 0,
        InstKind::Select { .. } => |k| k == 1 || k == 2,
        InstKind::Phi { .. } | InstKind::ICmp { .. } => |_| true,
        _ => |_| false,
    }
}

/// The private variables (`alloca` registers) whose address each register
/// of `f` may hold, through address arithmetic, casts, selects and phis.
fn addresses_of_private_variables(f: &Function) -> FxHashMap<RegId, FxHashSet<RegId>> {
    let mut derived: FxHashMap<RegId, FxHashSet<RegId>> = FxHashMap::default();
    for inst in f.blocks.iter().flat_map(|b| b.insts.iter()) {
        if let (InstKind::Alloca { .. }, Some(d)) = (&inst.kind, inst.dest) {
            derived.entry(d).or_default().insert(d);
        }
    }
    loop {
        let mut grew = false;
        for inst in f.blocks.iter().flat_map(|b| b.insts.iter()) {
            let Some(dest) = inst.dest else { continue };
            let Some(sources) = inst.kind.address_operands() else { continue };
            let found: Vec<RegId> = sources
                .into_iter()
                .filter_map(|o| match o {
                    Operand::Reg(r) => derived.get(r),
                    Operand::Const(_) => None,
                })
                .flatten()
                .copied()
                .collect();
            if found.is_empty() {
                continue;
            }
            let set = derived.entry(dest).or_default();
            for v in found {
                grew |= set.insert(v);
            }
        }
        if !grew {
            return derived;
        }
    }
}

/// Whether the elements of the buffer parameter `name` surely hold no
/// pointer, as the debug information types them.
fn buffer_holds_no_pointer(types: &DebugTypes, name: &str) -> bool {
    let mut seen = false;
    for t in types.of(name) {
        seen = true;
        let CType::Pointer { pointee: Some(p) } = strip_typedefs(t) else { return false };
        if ctype_may_hold_pointer(p) {
            return false;
        }
    }
    seen
}

fn strip_typedefs(t: &CType) -> &CType {
    match t {
        CType::Typedef { base, .. } => strip_typedefs(base),
        _ => t,
    }
}

fn ctype_may_hold_pointer(t: &CType) -> bool {
    match t {
        CType::Basic { .. } => false,
        CType::Typedef { base, .. } => ctype_may_hold_pointer(base),
        CType::Pointer { .. } => true,
        CType::Array { element, .. } => ctype_may_hold_pointer(element),
        // A struct whose members were not read may hold anything.
        CType::Record { members, bytes, .. } => {
            members.is_empty() && *bytes > 0 || members.iter().any(|(_, _, m)| ctype_may_hold_pointer(m))
        }
    }
}

impl<'m> Executor<'m> {
    /// The call `c` to `function` (without a body, named so in messages)
    /// may read and write all of every object its pointer arguments point
    /// into: records that as an access of the running work-item and gives
    /// those objects fresh contents (module doc). An `unsupported` finding
    /// when what the callee reaches cannot be bounded; `why_not` words the
    /// reason after the callee's description.
    pub(in crate::exec) fn havoc_through_pointer_arguments(
        &mut self,
        state: &mut State,
        c: &CallCtx,
        callee: &Function,
        function: &str,
        describe: &dyn Fn(&str) -> String,
    ) -> Result<(), Step> {
        let pointers: Vec<usize> =
            (0..callee.params.len()).filter(|&k| callee.params[k].byval.is_none() && holds_pointer(&callee.params[k].ty)).collect();
        if pointers.is_empty() {
            return Ok(());
        }
        let loc = c.inst.loc;
        let arg_name = |k: usize| {
            let p = &callee.params[k].name;
            if p.is_empty() {
                format!("its argument {}", k + 1)
            } else {
                format!("its argument {} (`{p}`)", k + 1)
            }
        };
        if let Some(&k) = pointers.iter().find(|&&k| !matches!(callee.params[k].ty, Type::Ptr { .. })) {
            let what = describe(&format!("{} holds a pointer inside an aggregate, which symcross does not follow", arg_name(k)));
            return Err(self.unsupported(state, loc, what));
        }
        let module = self.cx.module;
        let unbounded = self.models.unbounded_pointer_reach.get_or_insert_with(|| std::rc::Rc::new(unbounded_reach(module))).clone();
        if let Some(why) = unbounded.as_ref() {
            let what = describe(&format!(
                "{} is a pointer, and {why}, so what the function may reach through stored pointers is not bounded",
                arg_name(pointers[0])
            ));
            return Err(self.unsupported(state, loc, what));
        }
        let mut reached: Vec<ObjectId> = Vec::new();
        for &k in &pointers {
            let Some(&addr) = c.args.get(k).and_then(|v| v.first()) else { continue };
            let addr = self.split_pointer_select(state, addr)?;
            if self.cx.pool.as_const(addr) == Some(0) {
                continue;
            }
            let candidate = match self.cx.pool.as_const(addr) {
                Some(a) => Some(a as u64),
                None => self.current_model(state).map(|m| evaluate(&self.cx.pool, addr, &m) as u64),
            };
            let object = candidate.and_then(|a| state.memory.object_near(a));
            let Some(object) = object.filter(|&o| state.memory.object(o).kind != ObjectKind::Function) else {
                let what = describe(&format!("{} may point into no object of the program's memory", arg_name(k)));
                return Err(self.unsupported(state, loc, what));
            };
            let o = state.memory.object(object);
            let (base, size, name, kind, address_only) = (o.base, o.size, o.name.clone(), o.kind, o.address_only);
            if !address_only {
                // One past the end is a pointer into the object too.
                let base_e = self.cx.pool.constant(64, base as u128);
                let offset = self.cx.pool.sub(addr, base_e);
                let last = self.cx.pool.constant(64, size as u128);
                let inside = self.cx.pool.cmp(CmpOp::Ule, offset, last);
                match self.branch(state, inside) {
                    (Some(s), None) => *state = s,
                    _ => {
                        let what = describe(&format!("{} may point outside `{name}`, into an object symcross cannot name", arg_name(k)));
                        return Err(self.unsupported(state, loc, what));
                    }
                }
            }
            if self.cx.module.is_cuda()
                && matches!(kind, ObjectKind::Buffer | ObjectKind::Heap)
                && !buffer_holds_no_pointer(&self.cx.module.debug_types, &name)
            {
                let what = describe(&format!(
                    "{} points into `{name}`, whose elements may hold pointers to further memory (their type is not known to hold none)",
                    arg_name(k)
                ));
                return Err(self.unsupported(state, loc, what));
            }
            if !reached.contains(&object) {
                reached.push(object);
            }
        }
        for object in reached {
            self.havoc_reached_object(state, object, function, loc)?;
        }
        Ok(())
    }

    /// The callee may have read and written any byte of `object`.
    fn havoc_reached_object(&mut self, state: &mut State, object: ObjectId, function: &str, loc: crate::ir::Loc) -> Result<(), Step> {
        let o = state.memory.object(object);
        // A read-only object (`__constant`, a string) cannot be written,
        // and reads never race with reads. A host program's buffer may be
        // read-only for a kernel in part only (host_access.rs).
        if o.read_only && !self.partly_writable(object, o.size) {
            return Ok(());
        }
        let (space, size, address_only) = (o.addr_space, o.size, o.address_only);
        if matches!(space, GLOBAL_SPACE | LOCAL_SPACE) && state.gpu.is_some() {
            let start = self.cx.pool.constant(64, 0);
            let access = Access { object, offset: start };
            self.observe_access(state, &access, crate::race::WHOLE_OBJECT, AccessKind::Write, None, loc);
        }
        if address_only {
            // Every byte read from now on is fresh and, as a byte that may
            // hold a forgotten write, not a host input a witness can set.
            let o = state.memory.object_mut(object);
            o.known.clear();
            o.known_symbolic.clear();
            o.forgotten = true;
            return Ok(());
        }
        self.admit_expressions(size)?;
        let mut fresh: Vec<Option<ExprId>> = Vec::with_capacity(size as usize);
        for _ in 0..size {
            let v = self.cx.pool.fresh(8);
            if let Expr::Fresh { id, .. } = *self.cx.pool.get(v) {
                self.declared_results.insert(id, function.to_string());
            }
            fresh.push(Some(v));
        }
        let o = state.memory.object_mut(object);
        o.bytes.write(&mut self.cx.pool, 0, &fresh);
        o.poison.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Block, Inst, Terminator};

    fn inst(kind: InstKind, dest: Option<u32>, ty: Type) -> Inst {
        Inst { kind, dest: dest.map(RegId), ty, loc: Default::default() }
    }

    /// `f(p)`: stores its pointer argument (register 0) into a private
    /// variable (register 1) and, when `pass_on`, hands the variable's
    /// address to a call.
    fn function(pass_on: bool) -> Function {
        let ptr = Type::Ptr { addr_space: 0 };
        let mut insts = vec![
            inst(
                InstKind::Alloca { elem_size: 8, count: Operand::Const(Const::Int { width: 32, value: 1 }), align: 8, element: None },
                Some(1),
                ptr.clone(),
            ),
            inst(
                InstKind::Store { ptr: Operand::Reg(RegId(1)), value: Operand::Reg(RegId(0)), align: 8, volatile: false },
                None,
                Type::Void,
            ),
        ];
        if pass_on {
            insts.push(inst(
                InstKind::Call { callee: crate::ir::Callee::External("keep".into()), args: vec![Operand::Reg(RegId(1))] },
                None,
                Type::Void,
            ));
        }
        Function {
            name: "k".into(),
            blocks: vec![Block { name: String::new(), insts, term: Terminator::Ret(None), term_loc: Default::default() }],
            num_regs: 2,
            reg_types: vec![ptr.clone(), ptr],
            reg_names: vec!["p".into(), "p.addr".into()],
            ..Function::declared_for_test("k", vec![])
        }
    }

    #[test]
    fn a_pointer_kept_in_a_private_variable_is_bounded_until_its_address_is_passed_on() {
        assert_eq!(stored_pointers_escape(&function(false)), None);
        let why = stored_pointers_escape(&function(true));
        assert!(why.as_deref().is_some_and(|w| w.contains("`p.addr`") && w.contains("passed on")), "{why:?}");
    }

    #[test]
    fn only_element_types_without_pointers_bound_a_buffer() {
        let int = CType::Basic { name: "int".into(), bytes: 4, encoding: crate::ir::debug_types::Encoding::Signed };
        let var = |name: &str, ty: CType| crate::ir::debug_types::DebugVariable { name: name.into(), ty };
        let types = DebugTypes {
            variables: vec![
                var("data", CType::Pointer { pointee: Some(Box::new(int.clone())) }),
                var("rows", CType::Pointer { pointee: Some(Box::new(CType::Pointer { pointee: Some(Box::new(int)) })) }),
            ],
            ..Default::default()
        };
        assert!(buffer_holds_no_pointer(&types, "data"));
        assert!(!buffer_holds_no_pointer(&types, "rows"));
        assert!(!buffer_holds_no_pointer(&types, "unknown"));
    }
}
