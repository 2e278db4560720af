//! The structured loads and stores (vld1_x2..4, vld2..4 and their `dup`
//! and `lane` forms, vst1_x2..4, vst2..4 and `lane` forms): which form a
//! name is, and how register lanes map to memory elements. The executor
//! (src/exec/ops/neon.rs) does the memory access; this file only says which
//! element goes where.
//!
//! LD1 with several registers reads them one after the other; LD2..LD4
//! de-interleave (element j of register k is memory element j*N + k);
//! LD2R..LD4R read N elements and replicate element k across register k;
//! the lane forms read or write N elements at one lane of each register.

use crate::expr::value::Value;
use crate::expr::ExprId;

/// Which structured load or store an intrinsic is; `regs` is always the
/// number of vector registers (2 to 4).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MemoryForm {
    /// LD1 {..} (`interleaved: false`) or LDn (`true`), `regs` registers.
    Load {
        /// Number of registers read.
        regs: usize,
        /// LDn de-interleaving rather than LD1 consecutive registers.
        interleaved: bool,
    },
    /// LDnR: replicate element k across register k.
    LoadReplicate {
        /// Number of registers (and of elements read).
        regs: usize,
    },
    /// LDn {..}\[lane\]: operands are the registers, the lane, the pointer.
    LoadLane {
        /// Number of registers (and of elements read).
        regs: usize,
    },
    /// ST1 {..} or STn: operands are the registers, then the pointer.
    Store {
        /// Number of registers written.
        regs: usize,
        /// STn interleaving rather than ST1 consecutive registers.
        interleaved: bool,
    },
    /// STn {..}\[lane\]: the registers, the lane, the pointer.
    StoreLane {
        /// Number of registers (and of elements written).
        regs: usize,
    },
}

/// The memory form of an intrinsic base name (`ld3`, `st1x2`, `ld4lane`...).
pub fn form(base: &str) -> Option<MemoryForm> {
    let (load, rest) = match (base.strip_prefix("ld"), base.strip_prefix("st")) {
        (Some(r), _) => (true, r),
        (_, Some(r)) => (false, r),
        _ => return None,
    };
    let digit = |s: &str| s.parse::<usize>().ok().filter(|n| (2..=4).contains(n));
    if let Some(n) = rest.strip_prefix("1x").and_then(digit) {
        return Some(if load {
            MemoryForm::Load { regs: n, interleaved: false }
        } else {
            MemoryForm::Store { regs: n, interleaved: false }
        });
    }
    if let Some(n) = rest.strip_suffix("lane").and_then(digit) {
        return Some(if load { MemoryForm::LoadLane { regs: n } } else { MemoryForm::StoreLane { regs: n } });
    }
    if let Some(n) = rest.strip_suffix('r').and_then(digit) {
        return load.then_some(MemoryForm::LoadReplicate { regs: n });
    }
    let n = digit(rest)?;
    Some(if load { MemoryForm::Load { regs: n, interleaved: true } } else { MemoryForm::Store { regs: n, interleaved: true } })
}

/// Registers (concatenated, `regs` of `lanes` each) from elements in memory
/// order.
pub fn registers_from_memory(elems: &[ExprId], regs: usize, interleaved: bool) -> Value {
    let lanes = elems.len() / regs;
    let mut out = Value::with_capacity(elems.len());
    for k in 0..regs {
        for j in 0..lanes {
            out.push(if interleaved { elems[j * regs + k] } else { elems[k * lanes + j] });
        }
    }
    out
}

/// Elements in memory order from registers (concatenated).
pub fn memory_from_registers(regs_lanes: &[ExprId], regs: usize, interleaved: bool) -> Vec<ExprId> {
    let lanes = regs_lanes.len() / regs;
    let mut out = Vec::with_capacity(regs_lanes.len());
    for i in 0..regs_lanes.len() {
        let (k, j) = if interleaved { (i % regs, i / regs) } else { (i / lanes, i % lanes) };
        out.push(regs_lanes[k * lanes + j]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_permutations() {
        assert_eq!(form("ld3"), Some(MemoryForm::Load { regs: 3, interleaved: true }));
        assert_eq!(form("st1x4"), Some(MemoryForm::Store { regs: 4, interleaved: false }));
        assert_eq!(form("ld2lane"), Some(MemoryForm::LoadLane { regs: 2 }));
        assert_eq!(form("ld4r"), Some(MemoryForm::LoadReplicate { regs: 4 }));
        assert_eq!(form("st3r"), None);
        let mut p = crate::expr::ExprPool::new();
        let e: Vec<ExprId> = (0..6).map(|i| p.constant(8, i)).collect();
        let r = registers_from_memory(&e, 3, true);
        let order: Vec<u128> = r.iter().map(|&x| p.as_const(x).unwrap()).collect();
        assert_eq!(order, [0, 3, 1, 4, 2, 5]);
        assert_eq!(memory_from_registers(&r, 3, true), e);
    }
}
