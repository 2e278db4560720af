//! `__local` variables that no instruction of the program can write: every
//! use of the variable's address, and of every address derived from it
//! (`getelementptr`, casts, `select`, `phi`), only loads through it. No
//! store, atomic, call (a block copy or fill, `async_work_group_copy`, a
//! helper function) or saved pointer ever gets hold of it.
//!
//! Pair mode havocs shared memory at a barrier, since the work-items it
//! does not run may have written any byte; that also made a never-written
//! byte look defined. A variable no work-item can write keeps its bytes,
//! and their "never written" mark, across barriers instead: its reads stay
//! `uninitialized-read` findings as in enumerate mode. The analysis is
//! syntactic, so it is sound: anything it cannot follow counts as a write.

use crate::ir::LOCAL_SPACE;
use crate::ir::{CastOp, Const, GlobalId, InstKind, Module, Operand, RegId, Reloc};
use rustc_hash::{FxHashMap, FxHashSet};

/// The `__local` globals of `module` that no instruction can write.
pub(in crate::exec) fn unwritten_local_globals(module: &Module) -> FxHashSet<GlobalId> {
    let mut unwritten: FxHashSet<GlobalId> =
        (0..module.globals.len() as u32).map(GlobalId).filter(|g| module.global(*g).addr_space == LOCAL_SPACE).collect();
    // An initializer holding the address saves it where code may load it.
    for g in &module.globals {
        for (_, r) in &g.relocs {
            if let Reloc::Global { global, .. } = r {
                unwritten.remove(global);
            }
        }
    }
    for f in &module.functions {
        if unwritten.is_empty() {
            break;
        }
        let derived = derived_addresses(f, &unwritten);
        let reaches = |o: &Operand| -> Vec<GlobalId> {
            match o {
                Operand::Const(c) => globals_in(c),
                Operand::Reg(r) => derived.get(r).map(|s| s.iter().copied().collect()).unwrap_or_default(),
            }
        };
        for inst in f.blocks.iter().flat_map(|b| b.insts.iter()) {
            let passed_on = passes_address_on(&inst.kind);
            for (k, o) in inst.kind.operands().into_iter().enumerate() {
                if passed_on(k) {
                    continue;
                }
                for g in reaches(o) {
                    unwritten.remove(&g);
                }
            }
        }
        for b in &f.blocks {
            for o in b.term.operands() {
                for g in reaches(o) {
                    unwritten.remove(&g);
                }
            }
        }
    }
    unwritten
}

/// Per `__local` variable, the byte ranges `[start, end)` its stores may
/// write (`constant_offset_writes`).
pub(in crate::exec) type WriteRanges = FxHashMap<GlobalId, Vec<(u64, u64)>>;

/// The bytes of `__local` variables that only stores at constant offsets
/// write (`tile[0] = a; tile[1] = b;`), as byte ranges per variable: the
/// other bytes no instruction can write, so pair mode keeps them, and
/// their "never written" mark, across barriers as it keeps a variable no
/// instruction writes. A variable written any other way (at a symbolic
/// index, atomically, by a call, through an address that is saved, chosen
/// by a `select` or `phi`, or in an initializer's relocation) is absent:
/// any of its bytes may be written.
pub(in crate::exec) fn constant_offset_writes(module: &Module) -> WriteRanges {
    let mut ranges: WriteRanges = (0..module.globals.len() as u32)
        .map(GlobalId)
        .filter(|g| module.global(*g).addr_space == LOCAL_SPACE)
        .map(|g| (g, Vec::new()))
        .collect();
    for g in &module.globals {
        for (_, r) in &g.relocs {
            if let Reloc::Global { global, .. } = r {
                ranges.remove(global);
            }
        }
    }
    for f in &module.functions {
        if ranges.is_empty() {
            break;
        }
        let at = constant_offsets(f, &ranges);
        let resolve = |o: &Operand| -> Option<(GlobalId, Option<i64>)> {
            match o {
                Operand::Const(Const::GlobalAddr { global, offset }) if ranges.contains_key(global) => Some((*global, Some(*offset))),
                Operand::Const(c) => globals_in(c).into_iter().find(|g| ranges.contains_key(g)).map(|g| (g, None)),
                Operand::Reg(r) => at.get(r).copied(),
            }
        };
        let mut any: Vec<GlobalId> = Vec::new();
        let mut written: Vec<(GlobalId, u64, u64)> = Vec::new();
        for inst in f.blocks.iter().flat_map(|b| b.insts.iter()) {
            for (k, o) in inst.kind.operands().into_iter().enumerate() {
                let Some((g, offset)) = resolve(o) else { continue };
                match (&inst.kind, k) {
                    (InstKind::Load { .. } | InstKind::ICmp { .. }, _) => {}
                    (InstKind::Gep { .. }, 0) => {}
                    (InstKind::Cast { op: CastOp::BitCast | CastOp::AddrSpaceCast, .. } | InstKind::Freeze(_), 0) => {}
                    (InstKind::Store { value, .. }, 0) => match (offset, stored_size(f, value)) {
                        (Some(off), Some(len)) if off >= 0 => written.push((g, off as u64, len)),
                        _ => any.push(g),
                    },
                    _ => any.push(g),
                }
            }
        }
        for b in &f.blocks {
            for o in b.term.operands() {
                if let Some((g, _)) = resolve(o) {
                    any.push(g);
                }
            }
        }
        for g in any {
            ranges.remove(&g);
        }
        for (g, off, len) in written {
            if let Some(r) = ranges.get_mut(&g) {
                r.push((off, off + len));
            }
        }
    }
    ranges
}

/// Bytes a store of `value` writes, when its type is plain.
fn stored_size(f: &crate::ir::Function, value: &Operand) -> Option<u64> {
    match value {
        Operand::Reg(r) => f.reg_types.get(r.0 as usize).map(|t| t.store_size()),
        Operand::Const(Const::Int { width, .. }) => Some(u64::from(width.div_ceil(8))),
        Operand::Const(Const::Float { format, .. }) => Some(u64::from(format.width() / 8)),
        _ => None,
    }
}

/// For each register of `f` holding the address of a tracked `__local`
/// variable: the variable and the constant offset into it (None when the
/// offset is not a constant: an index, a `select` or `phi` of addresses).
fn constant_offsets<V>(f: &crate::ir::Function, tracked: &FxHashMap<GlobalId, V>) -> FxHashMap<RegId, (GlobalId, Option<i64>)> {
    let mut at: FxHashMap<RegId, (GlobalId, Option<i64>)> = FxHashMap::default();
    loop {
        let mut grew = false;
        for inst in f.blocks.iter().flat_map(|b| b.insts.iter()) {
            let Some(dest) = inst.dest else { continue };
            let source = |o: &Operand| -> Option<(GlobalId, Option<i64>)> {
                match o {
                    Operand::Const(Const::GlobalAddr { global, offset }) if tracked.contains_key(global) => Some((*global, Some(*offset))),
                    Operand::Const(c) => globals_in(c).into_iter().find(|g| tracked.contains_key(g)).map(|g| (g, None)),
                    Operand::Reg(r) => at.get(r).copied(),
                }
            };
            let found = match &inst.kind {
                InstKind::Gep { base, offset, terms, .. } => {
                    source(base).map(|(g, o)| (g, o.filter(|_| terms.is_empty()).map(|o| o + offset)))
                }
                InstKind::Cast { op: CastOp::BitCast | CastOp::AddrSpaceCast, value, .. } | InstKind::Freeze(value) => source(value),
                InstKind::Select { then, otherwise, .. } => source(then).or_else(|| source(otherwise)).map(|(g, _)| (g, None)),
                InstKind::Phi { incoming } => incoming.iter().find_map(|(_, o)| source(o)).map(|(g, _)| (g, None)),
                _ => None,
            };
            if let Some(v) = found {
                if at.get(&dest) != Some(&v) {
                    // A register that held a constant offset and now may
                    // hold another only loses its offset: the loop ends.
                    let merged = match at.get(&dest) {
                        Some(&(g, o)) if g == v.0 && o == v.1 => v,
                        Some(&(g, _)) => (g, None),
                        None => v,
                    };
                    if at.get(&dest) != Some(&merged) {
                        at.insert(dest, merged);
                        grew = true;
                    }
                }
            }
        }
        if !grew {
            return at;
        }
    }
}

/// Which operands (by position in `InstKind::operands`) of an instruction
/// may hold a tracked address without letting anything write through it:
/// a load's pointer, and the operands whose address the result carries on
/// (followed by `derived_addresses`). A comparison of addresses writes
/// nothing either.
fn passes_address_on(kind: &InstKind) -> fn(usize) -> bool {
    match kind {
        InstKind::Load { .. } | InstKind::Gep { .. } => |k| k == 0,
        InstKind::Cast { op: CastOp::BitCast | CastOp::AddrSpaceCast, .. } | InstKind::Freeze(_) => |k| k == 0,
        InstKind::Select { .. } => |k| k == 1 || k == 2,
        InstKind::Phi { .. } | InstKind::ICmp { .. } => |_| true,
        _ => |_| false,
    }
}

/// The tracked globals whose address each register of `f` may hold: the
/// results of address arithmetic, casts, selects and phis on them, to a
/// fixed point (a phi may name a register defined later).
fn derived_addresses(f: &crate::ir::Function, tracked: &FxHashSet<GlobalId>) -> FxHashMap<RegId, FxHashSet<GlobalId>> {
    let mut derived: FxHashMap<RegId, FxHashSet<GlobalId>> = FxHashMap::default();
    loop {
        let mut grew = false;
        for inst in f.blocks.iter().flat_map(|b| b.insts.iter()) {
            let Some(dest) = inst.dest else { continue };
            let Some(sources) = inst.kind.address_operands() else { continue };
            let mut found: Vec<GlobalId> = Vec::new();
            for o in sources {
                match o {
                    Operand::Const(c) => found.extend(globals_in(c).into_iter().filter(|g| tracked.contains(g))),
                    Operand::Reg(r) => found.extend(derived.get(r).into_iter().flatten().copied()),
                }
            }
            if found.is_empty() {
                continue;
            }
            let set = derived.entry(dest).or_default();
            for g in found {
                grew |= set.insert(g);
            }
        }
        if !grew {
            return derived;
        }
    }
}

/// Every global whose address a constant holds, however deep.
fn globals_in(c: &Const) -> Vec<GlobalId> {
    match c {
        Const::GlobalAddr { global, .. } => vec![*global],
        Const::Vector(cs) | Const::Aggregate(cs) => cs.iter().flat_map(globals_in).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Block, Callee, Function, Global, Inst, Terminator, Type};

    fn local(name: &str) -> Global {
        Global {
            name: name.into(),
            size: 4,
            align: 4,
            init: None,
            relocs: Vec::new(),
            constant: false,
            addr_space: LOCAL_SPACE,
            loc: Default::default(),
            element: None,
        }
    }

    fn inst(kind: InstKind, dest: Option<u32>) -> Inst {
        Inst { kind, dest: dest.map(RegId), ty: Type::Int(32), loc: Default::default() }
    }

    fn module_with(insts: Vec<Inst>) -> Module {
        let mut m = Module { globals: vec![local("k.read"), local("k.written")], ..Module::default() };
        m.functions.push(Function {
            name: "k".into(),
            params: Vec::new(),
            ret: Type::Void,
            varargs: false,
            blocks: vec![Block { name: String::new(), insts, term: Terminator::Ret(None), term_loc: Default::default() }],
            num_regs: 8,
            reg_types: Vec::new(),
            reg_names: Vec::new(),
            loc: Default::default(),
            is_kernel: true,
        });
        m
    }

    fn addr(g: u32) -> Operand {
        Operand::Const(Const::GlobalAddr { global: GlobalId(g), offset: 0 })
    }

    fn load(ptr: Operand, dest: u32) -> Inst {
        inst(InstKind::Load { ptr, align: 4, volatile: false }, Some(dest))
    }

    #[test]
    fn a_variable_only_loaded_is_unwritten() {
        let gep = |base, dest| {
            inst(InstKind::Gep { base, offset: 4, terms: Vec::new(), bounds: Vec::new(), flags: Default::default() }, Some(dest))
        };
        let m = module_with(vec![
            load(addr(0), 0),
            gep(addr(1), 1),
            inst(
                InstKind::Store {
                    ptr: Operand::Reg(RegId(1)),
                    value: Operand::Const(Const::Int { width: 32, value: 1 }),
                    align: 4,
                    volatile: false,
                },
                None,
            ),
        ]);
        assert_eq!(unwritten_local_globals(&m), [GlobalId(0)].into_iter().collect());
    }

    #[test]
    fn an_address_given_away_may_be_written() {
        // Passed to a call (a block fill, a helper), or saved in memory.
        let call = inst(InstKind::Call { callee: Callee::External("fill".into()), args: vec![addr(0)] }, None);
        let saved = inst(InstKind::Store { ptr: Operand::Reg(RegId(5)), value: addr(1), align: 8, volatile: false }, None);
        assert!(unwritten_local_globals(&module_with(vec![call, saved])).is_empty());
        // Through a phi defined before its source.
        let phi = inst(InstKind::Phi { incoming: vec![(crate::ir::BlockId(0), Operand::Reg(RegId(3)))] }, Some(2));
        let cast = inst(InstKind::Cast { op: CastOp::AddrSpaceCast, value: addr(0), flags: Default::default() }, Some(3));
        let atomic = inst(
            InstKind::AtomicRmw {
                op: crate::ir::AtomicOp::Add,
                ptr: Operand::Reg(RegId(2)),
                value: Operand::Const(Const::Int { width: 32, value: 1 }),
            },
            Some(4),
        );
        assert_eq!(unwritten_local_globals(&module_with(vec![phi, cast, atomic])), [GlobalId(1)].into_iter().collect());
    }

    #[test]
    fn only_constant_offset_stores_leave_bytes_no_instruction_writes() {
        let one = Operand::Const(Const::Int { width: 32, value: 1 });
        let store = |ptr: Operand| inst(InstKind::Store { ptr, value: one.clone(), align: 4, volatile: false }, None);
        let at = |g: u32, offset: i64| Operand::Const(Const::GlobalAddr { global: GlobalId(g), offset });
        // A store at byte 4 of `k.written`, and one at byte 8 through a
        // constant address computation; `k.read` is only loaded.
        let gep =
            inst(InstKind::Gep { base: at(1, 0), offset: 8, terms: Vec::new(), bounds: Vec::new(), flags: Default::default() }, Some(1));
        let m = module_with(vec![load(addr(0), 0), store(at(1, 4)), gep, store(Operand::Reg(RegId(1)))]);
        let ranges = constant_offset_writes(&m);
        assert_eq!(ranges.get(&GlobalId(0)), Some(&Vec::new()));
        assert_eq!(ranges.get(&GlobalId(1)), Some(&vec![(4, 8), (8, 12)]));
        // An address chosen by a select may be either variable's: both may
        // be written anywhere.
        let select = inst(InstKind::Select { cond: one.clone(), then: addr(0), otherwise: addr(1), folded: false }, Some(2));
        assert!(constant_offset_writes(&module_with(vec![select, store(Operand::Reg(RegId(2)))])).is_empty());
        // A store at an index.
        let indexed = inst(
            InstKind::Gep {
                base: addr(1),
                offset: 0,
                terms: vec![(Operand::Reg(RegId(7)), 4)],
                bounds: Vec::new(),
                flags: Default::default(),
            },
            Some(3),
        );
        let m = module_with(vec![indexed, store(Operand::Reg(RegId(3)))]);
        assert_eq!(constant_offset_writes(&m).get(&GlobalId(1)), None);
    }
}
