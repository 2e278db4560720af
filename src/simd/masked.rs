//! Masked loads and stores (AVX VMASKMOVPS/PD, AVX2 VPMASKMOVD/Q, SSE2
//! MASKMOVDQU): which lanes are accessed is the sign bit of each mask lane,
//! and a lane that is masked off is not accessed at all, so it cannot be
//! out of bounds. The memory itself is the executor's: this file only says
//! what is accessed (`MaskedAccess`), and `exec/ops/masked_access.rs` does it.

use super::lanes::relane;
use super::rows::Op;
use crate::expr::value::Value;
use crate::expr::{ExprId, ExprPool};
use crate::ir::Type;

/// The accesses of one masked load or store.
#[derive(Clone, Debug, PartialEq)]
pub struct MaskedAccess {
    /// The address of lane 0; lane `i` is at `pointer + i * lane_bytes`.
    pub pointer: ExprId,
    /// Bytes of one lane.
    pub lane_bytes: u64,
    /// Per lane, 1 bit: whether the lane is accessed (the mask lane's sign).
    pub enabled: Vec<ExprId>,
    /// The lanes to write (a store), each `8 * lane_bytes` bits wide; empty
    /// for a load.
    pub values: Value,
}

impl MaskedAccess {
    /// Whether the access writes memory.
    pub fn is_store(&self) -> bool {
        !self.values.is_empty()
    }
}

/// What `op` (a masked load or store) with operands `a` accesses; `ret` is
/// the call's result type (the loaded vector).
pub fn describe(p: &mut ExprPool, op: Op, a: &[Value], ret: &Type) -> Result<MaskedAccess, String> {
    let operand = |k: usize| a.get(k).filter(|v| !v.is_empty()).ok_or(format!("missing operand {k}"));
    let (pointer, mask, values) = match op {
        Op::MaskLoad => (operand(0)?[0], operand(1)?.clone(), Value::new()),
        Op::MaskStore { value_first: false } => (operand(0)?[0], operand(1)?.clone(), operand(2)?.clone()),
        Op::MaskStore { value_first: true } => (operand(2)?[0], operand(1)?.clone(), operand(0)?.clone()),
        _ => return Err("not a masked load or store".into()),
    };
    let lane_bits = if values.is_empty() { ret.scalar_bits() } else { p.width(values[0]) };
    if lane_bits == 0 || lane_bits % 8 != 0 {
        return Err(format!("lanes of {lane_bits} bits"));
    }
    let mask = relane(p, &mask, lane_bits);
    let enabled = mask.iter().map(|&m| p.extract(m, lane_bits - 1, 1)).collect();
    Ok(MaskedAccess { pointer, lane_bytes: u64::from(lane_bits / 8), enabled, values })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::FpFormat;

    #[test]
    fn the_sign_bit_of_each_mask_lane_enables_it() {
        let mut p = ExprPool::new();
        let ptr = p.constant(64, 0x1000);
        let mask: Value = [0x8000_0000u128, 0x7fff_ffff, 0xffff_ffff, 0].iter().map(|&m| p.constant(32, m)).collect();
        let ret = Type::Vector { elem: Box::new(Type::Float(FpFormat::Single)), len: 4 };
        let m = describe(&mut p, Op::MaskLoad, &[smallvec::smallvec![ptr], mask], &ret).unwrap();
        let on: Vec<Option<u128>> = m.enabled.iter().map(|&e| p.as_const(e)).collect();
        assert_eq!(on, vec![Some(1), Some(0), Some(1), Some(0)]);
        assert_eq!((m.pointer, m.lane_bytes, m.is_store()), (ptr, 4, false));
    }

    #[test]
    fn maskmovdqu_takes_byte_lanes_and_its_own_operand_order() {
        let mut p = ExprPool::new();
        let ptr = p.constant(64, 0x2000);
        let bytes: Value = (0..16).map(|i| p.constant(8, i)).collect();
        let mask: Value = (0..16).map(|i| p.constant(8, if i % 3 == 0 { 0x80 } else { 0x7f })).collect();
        let m =
            describe(&mut p, Op::MaskStore { value_first: true }, &[bytes.clone(), mask, smallvec::smallvec![ptr]], &Type::Void).unwrap();
        assert_eq!((m.pointer, m.lane_bytes, m.values.clone()), (ptr, 1, bytes));
        assert_eq!(p.as_const(m.enabled[3]), Some(1));
        assert_eq!(p.as_const(m.enabled[4]), Some(0));
    }
}
