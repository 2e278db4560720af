//! When a load may be hoisted out of a branch side into the branching block.
//!
//! Executing a load the program would not have executed must not add a
//! finding (out-of-bounds, use-after-free, uninitialized-read, race) or
//! split the path. A load of `N` bytes at address `p`, hoisted to the end of
//! block `A`, is accepted when one of these holds:
//!
//! 1. **Dominating access.** Some block `D` dominating `A` (possibly `A`)
//!    contains a load or store of at least `N` bytes at an address that is
//!    provably the same as `p`, and no instruction that could free memory or
//!    end an OpenCL epoch (any call other than a pure intrinsic, any fence
//!    or atomic) can run after that access and before the end of `A`. The
//!    earlier access already proved the bytes in bounds and alive on this
//!    path, and already recorded the same read (or a write, which conflicts
//!    with more) for the race detector.
//!    "Provably the same" means: the same register or constant, or both
//!    built by the same pure address arithmetic (GEP, cast, integer ops)
//!    from the same operands, or both resolving to the same alloca or
//!    global at the same constant offset. SSA guarantees that such
//!    expressions have equal values wherever both are defined.
//! 2. **Known object.** `p` is a constant offset into an object of known
//!    size, with the `N` bytes inside it:
//!    - a global with an initializer, outside OpenCL global and local
//!      memory (those accesses are race-logged); globals are never subject
//!      to the uninitialized-read check and live for the whole run;
//!    - an `alloca` of this function with a constant count, which lives as
//!      long as the frame, provided a dominating block wrote at least one
//!      byte of the range at a constant offset (a store, memset or memcpy),
//!      (a rule from when reading never-written bytes was itself a
//!      finding; now only using them is, see exec/memory/shadow.rs, so the rule
//!      is stricter than needed).
//!
//! Anything else keeps its branch.

use super::cfg::Cfg;
use super::speculation::is_pure_intrinsic;
use crate::ir::{BlockId, Callee, Const, Function, Global, InstKind, Operand, RegId, Type};

/// Where each register is defined: (block, index in the block).
pub struct Defs {
    at: Vec<Option<(BlockId, usize)>>,
}

impl Defs {
    pub fn new(f: &Function) -> Defs {
        let mut at = vec![None; f.num_regs as usize];
        for (b, block) in f.blocks.iter().enumerate() {
            for (i, inst) in block.insts.iter().enumerate() {
                if let Some(d) = inst.dest {
                    if let Some(slot) = at.get_mut(d.0 as usize) {
                        *slot = Some((BlockId(b as u32), i));
                    }
                }
            }
        }
        Defs { at }
    }

    fn kind<'f>(&self, f: &'f Function, r: RegId) -> Option<&'f InstKind> {
        let (b, i) = (*self.at.get(r.0 as usize)?)?;
        Some(&f.blocks[b.0 as usize].insts[i].kind)
    }
}

/// The context a load is judged in: the module's globals, the function,
/// its graph, and the branching block `A` the load would move to.
pub struct LoadCtx<'a> {
    pub globals: &'a [Global],
    pub func: &'a Function,
    pub cfg: &'a Cfg,
    pub defs: &'a Defs,
    pub branch_block: BlockId,
}

/// How deep address expressions are compared; deeper ones are "different".
const MAX_DEPTH: u32 = 8;

impl LoadCtx<'_> {
    /// Whether a load of `ty` through `ptr` may run at the end of `A`.
    pub fn load_is_safe(&self, ptr: &Operand, ty: &Type) -> bool {
        let size = ty.size();
        size > 0 && (self.dominating_access(ptr, size) || self.known_object(ptr, size))
    }

    fn dominating_access(&self, ptr: &Operand, size: u64) -> bool {
        let a = self.branch_block;
        for d in self.cfg.dominators(a) {
            let insts = &self.func.blocks[d.0 as usize].insts;
            // The last matching access in the block is the best witness.
            let hit = insts.iter().rposition(|inst| match &inst.kind {
                InstKind::Load { ptr: q, .. } => inst.ty.size() >= size && self.same_address(ptr, q),
                InstKind::Store { ptr: q, value, .. } => self.operand_size(value).is_some_and(|s| s >= size) && self.same_address(ptr, q),
                _ => false,
            });
            if let Some(k) = hit {
                return !self.clobbered_after(d, k);
            }
        }
        false
    }

    /// Whether something that may free memory or end an epoch can run after
    /// instruction `k` of `d` and before the end of `A`.
    fn clobbered_after(&self, d: BlockId, k: usize) -> bool {
        let f = self.func;
        let after_in_d = f.blocks[d.0 as usize].insts[k + 1..].iter();
        if after_in_d.map(|i| &i.kind).any(is_clobber) {
            return true;
        }
        if d == self.branch_block {
            return false;
        }
        self.cfg.blocks_between(d, self.branch_block).iter().any(|b| f.blocks[b.0 as usize].insts.iter().any(|i| is_clobber(&i.kind)))
    }

    fn same_address(&self, a: &Operand, b: &Operand) -> bool {
        if self.same_value(a, b, 0) {
            return true;
        }
        match (self.object_offset(a, 0), self.object_offset(b, 0)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
    }

    /// Structural equality of pure, deterministic expressions.
    fn same_value(&self, a: &Operand, b: &Operand, depth: u32) -> bool {
        if a == b {
            return true;
        }
        let (Operand::Reg(ra), Operand::Reg(rb)) = (a, b) else { return false };
        if depth >= MAX_DEPTH || self.func.reg_types.get(ra.0 as usize) != self.func.reg_types.get(rb.0 as usize) {
            return false;
        }
        let (Some(ka), Some(kb)) = (self.defs.kind(self.func, *ra), self.defs.kind(self.func, *rb)) else { return false };
        let same = |x: &Operand, y: &Operand| self.same_value(x, y, depth + 1);
        match (ka, kb) {
            (InstKind::Gep { base: b1, offset: o1, terms: t1, .. }, InstKind::Gep { base: b2, offset: o2, terms: t2, .. }) => {
                o1 == o2 && same(b1, b2) && t1.len() == t2.len() && t1.iter().zip(t2).all(|((x, s1), (y, s2))| s1 == s2 && same(x, y))
            }
            (InstKind::Cast { op: o1, value: v1, .. }, InstKind::Cast { op: o2, value: v2, .. }) => o1 == o2 && same(v1, v2),
            (InstKind::Int { op: o1, lhs: l1, rhs: r1, .. }, InstKind::Int { op: o2, lhs: l2, rhs: r2, .. }) => {
                o1 == o2 && same(l1, l2) && same(r1, r2)
            }
            _ => false,
        }
    }

    /// `(object, constant byte offset)` when the address is a constant
    /// offset into an alloca of this function or a global.
    fn object_offset(&self, op: &Operand, depth: u32) -> Option<(Object, i64)> {
        if depth >= MAX_DEPTH {
            return None;
        }
        match op {
            Operand::Const(Const::GlobalAddr { global, offset }) => Some((Object::Global(global.0), *offset)),
            Operand::Const(_) => None,
            Operand::Reg(r) => match self.defs.kind(self.func, *r)? {
                InstKind::Alloca { .. } => Some((Object::Alloca(r.0), 0)),
                InstKind::Cast { op: crate::ir::CastOp::BitCast | crate::ir::CastOp::AddrSpaceCast, value, .. } => {
                    self.object_offset(value, depth + 1)
                }
                InstKind::Gep { base, offset, terms, .. } => {
                    let (obj, start) = self.object_offset(base, depth + 1)?;
                    let mut total = start.checked_add(*offset)?;
                    for (index, scale) in terms {
                        total = total.checked_add(const_i64(index)?.checked_mul(*scale)?)?;
                    }
                    Some((obj, total))
                }
                _ => None,
            },
        }
    }

    fn known_object(&self, ptr: &Operand, size: u64) -> bool {
        let Some((obj, offset)) = self.object_offset(ptr, 0) else { return false };
        let Ok(start) = u64::try_from(offset) else { return false };
        let Some(end) = start.checked_add(size) else { return false };
        match obj {
            Object::Global(g) => {
                let Some(global) = self.globals.get(g as usize) else { return false };
                // Address spaces 1 and 3 are OpenCL global and local memory,
                // whose accesses the race detector logs.
                global.init.is_some() && !matches!(global.addr_space, 1 | 3) && end <= global.size
            }
            Object::Alloca(r) => {
                let Some(InstKind::Alloca { elem_size, count, .. }) = self.defs.kind(self.func, RegId(r)) else { return false };
                let Some(n) = const_i64(count).and_then(|n| u64::try_from(n).ok()) else { return false };
                elem_size.checked_mul(n).is_some_and(|total| end <= total) && self.written_before(obj, start, end)
            }
        }
    }

    /// Whether a block dominating `A` writes at least one byte of
    /// `[start, end)` of `obj` at a constant offset. Stack bytes never go
    /// back to unwritten, so no clobber check is needed.
    fn written_before(&self, obj: Object, start: u64, end: u64) -> bool {
        let overlaps = |dest: &Operand, len: Option<u64>| -> bool {
            let (Some((o, off)), Some(len)) = (self.object_offset(dest, 0), len) else { return false };
            let Ok(off) = u64::try_from(off) else { return false };
            o == obj && off < end && start < off.saturating_add(len)
        };
        self.cfg.dominators(self.branch_block).iter().any(|d| {
            self.func.blocks[d.0 as usize].insts.iter().any(|inst| match &inst.kind {
                InstKind::Store { ptr, value, .. } => overlaps(ptr, self.operand_size(value)),
                InstKind::Call { callee: Callee::Intrinsic(name), args } if is_mem_write_intrinsic(name) => {
                    let len = args.get(2).and_then(const_i64).and_then(|l| u64::try_from(l).ok());
                    args.first().is_some_and(|dest| overlaps(dest, len))
                }
                _ => false,
            })
        })
    }

    fn operand_size(&self, op: &Operand) -> Option<u64> {
        match op {
            Operand::Reg(r) => self.func.reg_types.get(r.0 as usize).map(Type::size),
            Operand::Const(c) => const_size(c),
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Object {
    Global(u32),
    Alloca(u32),
}

fn is_mem_write_intrinsic(name: &str) -> bool {
    ["llvm.memset.", "llvm.memcpy.", "llvm.memmove.", "llvm.memset.inline.", "llvm.memcpy.inline."].iter().any(|p| name.starts_with(p))
}

/// Instructions after which an earlier access no longer vouches for a
/// later one: calls may free memory or hit an OpenCL barrier.
fn is_clobber(kind: &InstKind) -> bool {
    match kind {
        InstKind::Call { callee: Callee::Intrinsic(name), .. } => !is_pure_intrinsic(name) && !is_mem_write_intrinsic(name),
        InstKind::Call { .. } | InstKind::Fence | InstKind::AtomicRmw { .. } | InstKind::CmpXchg { .. } => true,
        _ => false,
    }
}

/// A constant integer operand as a sign-extended i64.
fn const_i64(op: &Operand) -> Option<i64> {
    let Operand::Const(Const::Int { width, value }) = op else { return None };
    let w = (*width).clamp(1, 64);
    let v = (*value as u64) << (64 - w);
    Some((v as i64) >> (64 - w))
}

fn const_size(c: &Const) -> Option<u64> {
    match c {
        Const::Int { width, .. } => Some(Type::Int(*width).size()),
        Const::Float { format, .. } => Some(Type::Float(*format).size()),
        Const::Null | Const::GlobalAddr { .. } | Const::FuncAddr(_) => Some(8),
        Const::Undef(t) => Some(t.size()),
        Const::Vector(_) | Const::Aggregate(_) => None,
    }
}
