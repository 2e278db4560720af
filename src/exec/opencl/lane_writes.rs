//! "Lane writes are lane writes" for the race detector. Clang compiles a
//! write to one component of a vector in memory (`G[3].x = v` in OpenCL C,
//! `r.f32[i] = x` through a union) as: load the whole vector, insert the
//! lane, store the whole vector back. The load and the store are artefacts
//! of the compilation: the source touches only the lanes inserted. When a
//! load and a store of the same address are joined that way, with no other
//! memory access, call or fence between them in the block, the store is
//! logged as a write of the inserted lanes only and the load as a read of
//! the lanes the code extracts from it (none when it is only the base of
//! the insertions). Likewise a vector load whose lanes are only extracted
//! (`x = G[3].w`) reads those lanes.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::expr::ExprId;
use crate::ir::{Const, Function, Inst, InstKind, Operand, RegId, Terminator, Type};
use crate::memory::Access;
use crate::race::AccessKind;
use rustc_hash::FxHashMap;

/// Per instruction (block, index) of a load or store in the pattern: the
/// lanes it really accesses.
pub type LaneTable = FxHashMap<(u32, u32), Vec<u32>>;

fn const_index(op: &Operand) -> Option<u32> {
    match op {
        Operand::Const(Const::Int { value, .. }) => u32::try_from(*value).ok(),
        _ => None,
    }
}

fn touches_memory(kind: &InstKind) -> bool {
    matches!(
        kind,
        InstKind::Load { .. }
            | InstKind::Store { .. }
            | InstKind::Call { .. }
            | InstKind::AtomicRmw { .. }
            | InstKind::CmpXchg { .. }
            | InstKind::Fence
            | InstKind::Unsupported(_)
    )
}

/// Finds the load/insert/store patterns of `f`.
pub fn analyse(f: &Function) -> LaneTable {
    let mut table = LaneTable::default();
    let mut def: FxHashMap<RegId, (usize, usize)> = FxHashMap::default();
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, inst) in block.insts.iter().enumerate() {
            if let Some(d) = inst.dest {
                def.insert(d, (b, i));
            }
        }
    }
    for (b, block) in f.blocks.iter().enumerate() {
        for (s, store) in block.insts.iter().enumerate() {
            let InstKind::Store { ptr, value: Operand::Reg(v), .. } = &store.kind else { continue };
            // Walk the insertions back to their base.
            let mut lanes = Vec::new();
            let mut cur = *v;
            let load_at = loop {
                let Some(&(db, di)) = def.get(&cur) else { break None };
                if db != b {
                    break None;
                }
                match &block.insts[di].kind {
                    InstKind::InsertElement { vector: Operand::Reg(base), index, .. } => {
                        let Some(k) = const_index(index) else { break None };
                        lanes.push(k);
                        cur = *base;
                    }
                    InstKind::Load { ptr: p, .. } if p == ptr && !lanes.is_empty() => break Some(di),
                    _ => break None,
                }
            };
            let Some(l) = load_at else { continue };
            if l >= s || block.insts[l + 1..s].iter().any(|i| touches_memory(&i.kind)) {
                continue;
            }
            lanes.sort_unstable();
            lanes.dedup();
            table.insert((b as u32, s as u32), lanes);
            let read = lanes_read(f, cur, true);
            if let Some(read) = read {
                table.insert((b as u32, l as u32), read);
            }
        }
    }
    // Other vector loads whose lanes are only extracted: reads of those
    // lanes (`G[3].w` reads one float of a float4).
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, inst) in block.insts.iter().enumerate() {
            if let (InstKind::Load { .. }, Some(d), Type::Vector { .. }) = (&inst.kind, inst.dest, &inst.ty) {
                if let std::collections::hash_map::Entry::Vacant(e) = table.entry((b as u32, i as u32)) {
                    if let Some(read) = lanes_read(f, d, false) {
                        e.insert(read);
                    }
                }
            }
        }
    }
    table
}

/// The lanes read from the loaded vector `r`: those its constant-index
/// extracts take, when every other use is an insertion into it (allowed
/// only for the load of a lane write, whose insertions are stored back);
/// None (every lane) otherwise.
fn lanes_read(f: &Function, r: RegId, insert_base_ok: bool) -> Option<Vec<u32>> {
    let mut read = Vec::new();
    let is_r = |o: &Operand| matches!(o, Operand::Reg(x) if *x == r);
    for block in &f.blocks {
        for inst in &block.insts {
            match &inst.kind {
                InstKind::InsertElement { vector, element, index } if insert_base_ok && is_r(vector) && !is_r(element) && !is_r(index) => {}
                InstKind::ExtractElement { vector, index } if is_r(vector) => read.push(const_index(index)?),
                k => {
                    if k.operands().iter().any(|o| is_r(o)) {
                        return None;
                    }
                }
            }
        }
        let term_uses = match &block.term {
            Terminator::CondBr { cond: o, .. } | Terminator::Switch { value: o, .. } | Terminator::Ret(Some(o)) => is_r(o),
            _ => false,
        };
        if term_uses {
            return None;
        }
    }
    read.sort_unstable();
    read.dedup();
    Some(read)
}

impl<'m> Executor<'m> {
    /// `observe_access` for a load or store, narrowed to the lanes the
    /// source touches when the instruction is part of a lane write.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec) fn observe_lanes(
        &mut self,
        state: &mut State,
        func: &Function,
        inst: &Inst,
        ty: &Type,
        access: &Access,
        len: u64,
        write: bool,
        value: Option<Vec<ExprId>>,
    ) {
        if state.gpu.is_none() {
            return;
        }
        let f = state.frame();
        let key = (f.block.0, (f.pc - 1) as u32);
        let fid = f.func;
        let table = self.models.lane_tables.entry(fid).or_insert_with(|| std::rc::Rc::new(analyse(func))).clone();
        let (Some(lanes), Type::Vector { elem, .. }) = (table.get(&key), ty) else {
            self.observe_access(state, access, len, AccessKind::plain(write), value, inst.loc);
            return;
        };
        if elem.scalar_bits() % 8 != 0 {
            self.observe_access(state, access, len, AccessKind::plain(write), value, inst.loc);
            return;
        };
        let size = elem.size();
        for &k in lanes {
            let off = self.cx.pool.constant(64, (k as u64 * size) as u128);
            let offset = self.cx.pool.add(access.offset, off);
            let part = Access { object: access.object, offset };
            let bytes = value.as_ref().map(|v| v[(k as u64 * size) as usize..((k as u64 + 1) * size) as usize].to_vec());
            self.observe_access(state, &part, size, AccessKind::plain(write), bytes, inst.loc);
        }
    }
}
