//! Kernel pointer arguments no instruction can write through: a read-only
//! input (`__global const uchar *bytes`) that pair mode's barrier havoc
//! may leave alone, since no work-item can change it. Without this, a
//! 1 MiB input got a fresh value per byte at every barrier, and a read of
//! it at a symbolic slot after the barrier selected over a million of
//! them (issue 34).
//!
//! The analysis follows addresses from the kernel's parameters through
//! what a kernel compiled at -O0 does with them: spilled to a stack slot
//! and loaded back, offset by `getelementptr`, cast, chosen by `select`
//! or `phi`, folded into integers and back, passed to functions of the
//! module (their parameters then hold what the calls pass) and returned.
//! A store, atomic or compare-exchange through an address, or a call to a
//! function without a body taking it (a built-in's `atomic_inc`, a block
//! copy), writes the parameters it may come from. An address it does not
//! follow (loaded from a buffer or a global, returned by a function
//! without a body, made from a plain number, read from a stack slot whose
//! address was given away) may be any: a write through one, or an
//! indirect call, makes every parameter written. So it is sound: anything
//! it cannot follow counts as a write.
//!
//! A `getelementptr`'s indices are not followed: an address stays in its
//! object's account. An access whose index takes it out of its object and
//! into another is the executor's (mem_ops.rs): into an object the havoc
//! spares, such a write is reported out of bounds rather than run there,
//! so the first write that could change a spared object is a finding.

use crate::ir::{CastOp, Const, FuncId, InstKind, Module, Operand, RegId, Terminator};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// Which parameters of a kernel may be written through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::exec) enum ParamWrites {
    /// Only those (`true` by index); the others no instruction writes
    /// through.
    Only(Vec<bool>),
    /// Any: a write through an address the analysis does not follow.
    Any,
}

impl ParamWrites {
    /// Whether parameter `k` may be written through.
    pub(in crate::exec) fn may_write(&self, k: usize) -> bool {
        match self {
            ParamWrites::Only(w) => w.get(k).copied().unwrap_or(true),
            ParamWrites::Any => true,
        }
    }
}

/// What a register may hold, as far as addresses go.
#[derive(Clone, Default, Debug, PartialEq, Eq)]
struct Holds {
    /// The kernel parameters whose value it may carry (sorted).
    params: SmallVec<[u32; 2]>,
    /// The stack slots (function, `alloca` register) it may point into
    /// (sorted).
    slots: SmallVec<[(u32, u32); 2]>,
    /// An address the analysis does not follow: any.
    unknown: bool,
    /// A global's or a function's address.
    other: bool,
}

impl Holds {
    fn unknown() -> Holds {
        Holds { unknown: true, ..Holds::default() }
    }

    /// Adds what `o` may hold; whether anything was new.
    fn join(&mut self, o: &Holds) -> bool {
        let mut grew = false;
        for p in &o.params {
            if let Err(at) = self.params.binary_search(p) {
                self.params.insert(at, *p);
                grew = true;
            }
        }
        for s in &o.slots {
            if let Err(at) = self.slots.binary_search(s) {
                self.slots.insert(at, *s);
                grew = true;
            }
        }
        grew |= (o.unknown && !self.unknown) || (o.other && !self.other);
        self.unknown |= o.unknown;
        self.other |= o.other;
        grew
    }

    /// Whether it points only into stack slots the analysis follows.
    fn only_slots(&self) -> bool {
        !self.slots.is_empty() && self.params.is_empty() && !self.unknown && !self.other
    }

    /// Whether it carries no address at all (a plain number).
    fn nothing(&self) -> bool {
        self.params.is_empty() && self.slots.is_empty() && !self.unknown && !self.other
    }
}

/// The analysis' state: what registers, stack slots and returns of the
/// functions reachable from the kernel may hold, and what is written.
struct Flow<'m> {
    module: &'m Module,
    /// By (function, register); a function's parameters hold what its
    /// calls pass.
    regs: FxHashMap<(u32, u32), Holds>,
    /// What was stored into each stack slot.
    slots: FxHashMap<(u32, u32), Holds>,
    /// What each function may return.
    returns: FxHashMap<u32, Holds>,
    /// The kernel parameters written through (this pass).
    written: Vec<bool>,
    /// A write through an address not followed (this pass).
    any: bool,
    /// A call not followed (an indirect call, inline assembly).
    opaque_call: bool,
    grew: bool,
}

/// Intrinsics that take an address without reading or writing what it
/// points to.
fn harmless_intrinsic(name: &str) -> bool {
    ["llvm.lifetime.", "llvm.dbg.", "llvm.assume", "llvm.experimental.noalias.scope.decl", "llvm.invariant."]
        .iter()
        .any(|p| name.starts_with(p))
}

/// Which parameters of `kernel` (a function of `module`) may be written
/// through by the kernel or the functions it calls.
pub(in crate::exec) fn param_writes(module: &Module, kernel: FuncId) -> ParamWrites {
    let n = module.function(kernel).params.len();
    let mut flow = Flow {
        module,
        regs: FxHashMap::default(),
        slots: FxHashMap::default(),
        returns: FxHashMap::default(),
        written: vec![false; n],
        any: false,
        opaque_call: false,
        grew: false,
    };
    for (k, p) in module.function(kernel).params.iter().enumerate() {
        let h = Holds { params: smallvec::smallvec![k as u32], ..Holds::default() };
        flow.regs.entry((kernel.0, p.reg.0)).or_default().join(&h);
    }
    let reachable = reachable_functions(module, kernel);
    // What registers hold only grows, to a fixed point; the writes are
    // those of the last pass, made with the final values (an earlier pass
    // may see a slot before its store and take its load for a number).
    loop {
        flow.grew = false;
        flow.written.iter_mut().for_each(|w| *w = false);
        flow.any = false;
        for &f in &reachable {
            flow.function(f);
        }
        if flow.opaque_call {
            return ParamWrites::Any;
        }
        if !flow.grew {
            break;
        }
    }
    if flow.any {
        ParamWrites::Any
    } else {
        ParamWrites::Only(flow.written)
    }
}

/// `kernel` and the functions with bodies it may call, directly or
/// through others.
fn reachable_functions(module: &Module, kernel: FuncId) -> Vec<FuncId> {
    let mut seen = vec![kernel];
    let mut at = 0;
    while at < seen.len() {
        let f = module.function(seen[at]);
        at += 1;
        for inst in f.blocks.iter().flat_map(|b| b.insts.iter()) {
            if let InstKind::Call { callee: crate::ir::Callee::Direct(g), .. } = &inst.kind {
                if !module.function(*g).blocks.is_empty() && !seen.contains(g) {
                    seen.push(*g);
                }
            }
        }
    }
    seen
}

impl Flow<'_> {
    /// What operand `o` of function `f` may hold.
    fn value(&self, f: u32, o: &Operand) -> Holds {
        match o {
            Operand::Reg(r) => self.regs.get(&(f, r.0)).cloned().unwrap_or_default(),
            Operand::Const(c) => Holds { other: holds_address(c), ..Holds::default() },
        }
    }

    fn set(&mut self, f: u32, r: RegId, h: &Holds) {
        let grew = self.regs.entry((f, r.0)).or_default().join(h);
        self.grew |= grew;
    }

    /// A write through an address that may hold `at`.
    fn write_through(&mut self, at: &Holds) {
        for p in &at.params {
            if let Some(w) = self.written.get_mut(*p as usize) {
                *w = true;
            }
        }
        // An address made from a plain number may be any object's.
        self.any |= at.unknown || at.nothing();
    }

    /// What a load through an address that may hold `at` gives.
    fn load_through(&self, at: &Holds) -> Holds {
        let mut out = Holds { unknown: !at.only_slots(), ..Holds::default() };
        for s in &at.slots {
            if let Some(h) = self.slots.get(s) {
                out.join(h);
            }
        }
        out
    }

    /// `value` stored where `at` points: into the stack slots followed;
    /// anywhere else it is given away (what is loaded from there is
    /// unknown, but a slot whose address went there may be written by
    /// code not followed).
    fn store_value(&mut self, at: &Holds, value: &Holds) {
        for s in &at.slots {
            let grew = self.slots.entry(*s).or_default().join(value);
            self.grew |= grew;
        }
        if !at.only_slots() {
            self.give_away(value);
        }
    }

    /// The stack slots `h` points into may be written by code not
    /// followed: they may hold any address.
    fn give_away(&mut self, h: &Holds) {
        let unknown = Holds::unknown();
        for s in &h.slots {
            let grew = self.slots.entry(*s).or_default().join(&unknown);
            self.grew |= grew;
        }
    }

    fn function(&mut self, fid: FuncId) {
        let module = self.module;
        let f = module.function(fid);
        let fi = fid.0;
        for inst in f.blocks.iter().flat_map(|b| b.insts.iter()) {
            let result: Option<Holds> = match &inst.kind {
                InstKind::Alloca { .. } => inst.dest.map(|d| Holds { slots: smallvec::smallvec![(fi, d.0)], ..Holds::default() }),
                InstKind::Load { ptr, .. } => Some(self.load_through(&self.value(fi, ptr))),
                InstKind::Store { ptr, value, .. } | InstKind::AtomicRmw { ptr, value, .. } | InstKind::CmpXchg { ptr, new: value, .. } => {
                    let (at, v) = (self.value(fi, ptr), self.value(fi, value));
                    self.write_through(&at);
                    self.store_value(&at, &v);
                    Some(self.load_through(&at))
                }
                InstKind::Gep { base, .. } => Some(self.value(fi, base)),
                InstKind::ICmp { .. } | InstKind::FCmp { .. } | InstKind::Fence | InstKind::Unsupported(_) => None,
                InstKind::Call { callee, args } => self.call(fi, callee, args),
                InstKind::Cast { op: CastOp::BitCast | CastOp::AddrSpaceCast, .. }
                | InstKind::Freeze(_)
                | InstKind::Select { .. }
                | InstKind::Phi { .. } => {
                    let mut h = Holds::default();
                    for o in inst.kind.address_operands().into_iter().flatten() {
                        h.join(&self.value(fi, o));
                    }
                    Some(h)
                }
                // Arithmetic, other casts (an address made a number and
                // back), lanes and fields: whatever the operands hold.
                _ => {
                    let mut h = Holds::default();
                    for o in inst.kind.operands() {
                        h.join(&self.value(fi, o));
                    }
                    Some(h)
                }
            };
            if let (Some(d), Some(h)) = (inst.dest, result) {
                self.set(fi, d, &h);
            }
        }
        for b in &f.blocks {
            if let Terminator::Ret(Some(v)) = &b.term {
                let h = self.value(fi, v);
                let grew = self.returns.entry(fi).or_default().join(&h);
                self.grew |= grew;
            }
        }
    }

    /// A call from function `fi`; what it returns.
    fn call(&mut self, fi: u32, callee: &crate::ir::Callee, args: &[Operand]) -> Option<Holds> {
        use crate::ir::Callee;
        let module = self.module;
        match callee {
            Callee::Direct(g) if !module.function(*g).blocks.is_empty() => {
                let params: Vec<RegId> = module.function(*g).params.iter().map(|p| p.reg).collect();
                for (k, a) in args.iter().enumerate() {
                    let h = self.value(fi, a);
                    match params.get(k) {
                        Some(r) => self.set(g.0, *r, &h),
                        // A variable argument, read through a `va_list`
                        // the analysis does not follow.
                        None => {
                            let mut any = h.clone();
                            any.unknown = true;
                            self.write_through(&any);
                            self.give_away(&h);
                        }
                    }
                }
                Some(self.returns.get(&g.0).cloned().unwrap_or_default())
            }
            Callee::Intrinsic(name) if harmless_intrinsic(name) => None,
            Callee::Direct(_) | Callee::External(_) | Callee::Intrinsic(_) => {
                // A function without a body may write through every
                // address it is given, and store any address there. A
                // number it is given (a value to add, an index) it cannot
                // use as an address: its declaration types it so.
                let f = module.function(FuncId(fi));
                for a in args {
                    let h = self.value(fi, a);
                    if carries_address(f, a) {
                        self.write_through(&h);
                        self.give_away(&h);
                    }
                }
                Some(Holds::unknown())
            }
            Callee::Indirect(_) | Callee::InlineAsm => {
                self.opaque_call = true;
                None
            }
        }
    }
}

/// Whether operand `o` of `f` has a type that holds an address (a
/// pointer, or vectors and aggregates of them), or is a constant that
/// holds one (a null pointer holds none).
fn carries_address(f: &crate::ir::Function, o: &Operand) -> bool {
    match o {
        Operand::Reg(r) => f.reg_types.get(r.0 as usize).is_none_or(type_holds_pointer),
        Operand::Const(c) => holds_address(c),
    }
}

fn type_holds_pointer(t: &crate::ir::Type) -> bool {
    use crate::ir::Type;
    match t {
        Type::Ptr { .. } => true,
        Type::Vector { elem, .. } | Type::Array { elem, .. } => type_holds_pointer(elem),
        Type::Struct { fields, .. } => fields.iter().any(type_holds_pointer),
        _ => false,
    }
}

/// Whether a constant holds an address (a global's or a function's).
fn holds_address(c: &Const) -> bool {
    match c {
        Const::GlobalAddr { .. } | Const::FuncAddr(_) => true,
        Const::Vector(cs) | Const::Aggregate(cs) => cs.iter().any(holds_address),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Block, Callee, Function, Inst, Param, Type};

    const PTR: Type = Type::Ptr { addr_space: 1 };

    fn inst(kind: InstKind, dest: Option<u32>) -> Inst {
        Inst { kind, dest: dest.map(RegId), ty: PTR, loc: Default::default() }
    }

    fn param(k: u32) -> Param {
        Param { reg: RegId(k), ty: PTR, name: format!("p{k}"), byval: None, byval_pointers: Vec::new(), image_dims: None, cl_type: None }
    }

    /// A function with `params` pointer parameters (registers 0..) and
    /// one block of `insts`; registers are pointers but for `ints`.
    fn function(name: &str, params: u32, insts: Vec<Inst>, ints: &[u32]) -> Function {
        let reg_types = (0..16).map(|r| if ints.contains(&r) { Type::Int(32) } else { PTR }).collect();
        Function {
            name: name.into(),
            params: (0..params).map(param).collect(),
            ret: Type::Void,
            varargs: false,
            blocks: vec![Block { name: String::new(), insts, term: Terminator::Ret(None), term_loc: Default::default() }],
            num_regs: 16,
            reg_types,
            reg_names: Vec::new(),
            loc: Default::default(),
            is_kernel: true,
        }
    }

    fn reg(r: u32) -> Operand {
        Operand::Reg(RegId(r))
    }

    fn one() -> Operand {
        Operand::Const(Const::Int { width: 32, value: 1 })
    }

    fn store(ptr: Operand, value: Operand) -> Inst {
        inst(InstKind::Store { ptr, value, align: 4, volatile: false }, None)
    }

    fn load(ptr: Operand, dest: u32) -> Inst {
        inst(InstKind::Load { ptr, align: 4, volatile: false }, Some(dest))
    }

    fn gep(base: Operand, index: u32, dest: u32) -> Inst {
        let kind = InstKind::Gep { base, offset: 0, terms: vec![(reg(index), 4)], bounds: Vec::new(), flags: Default::default() };
        inst(kind, Some(dest))
    }

    fn alloca(dest: u32) -> Inst {
        inst(InstKind::Alloca { elem_size: 8, count: one(), align: 8, element: None }, Some(dest))
    }

    fn writes(functions: Vec<Function>) -> ParamWrites {
        let m = Module { functions, ..Module::default() };
        param_writes(&m, FuncId(0))
    }

    #[test]
    fn an_input_only_read_is_not_written_through_a_spilled_output_is() {
        // in = p0, out = p1, both spilled to stack slots as at -O0; the
        // index (register 9) is read from the input.
        let insts = vec![
            alloca(2),
            alloca(3),
            store(reg(2), reg(0)),
            store(reg(3), reg(1)),
            load(reg(2), 4),
            gep(reg(4), 9, 5),
            load(reg(5), 9),
            load(reg(3), 6),
            gep(reg(6), 9, 7),
            store(reg(7), reg(9)),
        ];
        assert_eq!(writes(vec![function("k", 2, insts, &[9])]), ParamWrites::Only(vec![false, true]));
    }

    #[test]
    fn a_write_through_an_address_read_from_memory_may_be_any_buffer() {
        // A pointer loaded from the input buffer, then written through.
        let insts = vec![load(reg(0), 2), store(reg(2), one())];
        assert_eq!(writes(vec![function("k", 2, insts, &[])]), ParamWrites::Any);
        // A stack slot whose address a function without a body was given
        // may hold any address afterwards.
        let insts = vec![
            alloca(2),
            store(reg(2), reg(1)),
            inst(InstKind::Call { callee: Callee::External("fill".into()), args: vec![reg(2)] }, None),
            load(reg(2), 3),
            store(reg(3), one()),
        ];
        assert_eq!(writes(vec![function("k", 2, insts, &[])]), ParamWrites::Any);
    }

    #[test]
    fn calls_write_what_they_are_given() {
        // A built-in given the output's address and a number read from the
        // input: only the output is written.
        let atomic = inst(InstKind::Call { callee: Callee::External("atomic_add".into()), args: vec![reg(1), reg(9)] }, None);
        let insts = vec![load(reg(0), 9), atomic];
        assert_eq!(writes(vec![function("k", 2, insts, &[9])]), ParamWrites::Only(vec![false, true]));
        // A helper of the module storing through its parameter writes the
        // argument passed to it, through a cast.
        let cast = inst(InstKind::Cast { op: CastOp::AddrSpaceCast, value: reg(0), flags: Default::default() }, Some(2));
        let call = inst(InstKind::Call { callee: Callee::Direct(FuncId(1)), args: vec![reg(2)] }, None);
        let mut helper = function("helper", 1, vec![store(reg(0), one())], &[]);
        helper.is_kernel = false;
        assert_eq!(writes(vec![function("k", 2, vec![cast, call], &[]), helper]), ParamWrites::Only(vec![true, false]));
        // An indirect call may do anything.
        let indirect = inst(InstKind::Call { callee: Callee::Indirect(reg(3)), args: Vec::new() }, None);
        assert_eq!(writes(vec![function("k", 2, vec![indirect], &[])]), ParamWrites::Any);
    }
}
