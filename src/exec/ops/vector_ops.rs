//! Vector and aggregate operations: extract/insert element (with symbolic
//! indices as select chains), shufflevector, extract/insert value.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::exec::ops::int_ops::Exec;
use crate::ir::{Function, Inst, Operand, Type};

impl<'m> Executor<'m> {
    pub(in crate::exec) fn exec_extract_element(&mut self, state: &mut State, func: &Function, vector: &Operand, index: &Operand) -> Exec {
        let v = self.operand(state, func, vector);
        let i = self.operand1(state, func, index);
        if let Some(k) = self.cx.pool.as_const(i) {
            // Out-of-range indices give poison in LLVM; modelled as lane 0.
            return Ok(smallvec::smallvec![*v.get(k as usize).unwrap_or(&v[0])]);
        }
        let mut acc = v[0];
        for (k, lane) in v.iter().enumerate().skip(1) {
            let kc = self.cx.pool.constant(self.cx.pool.width(i), k as u128);
            let hit = self.cx.pool.eq(i, kc);
            acc = self.cx.pool.ite(hit, *lane, acc);
        }
        Ok(smallvec::smallvec![acc])
    }

    pub(in crate::exec) fn exec_insert_element(
        &mut self,
        state: &mut State,
        func: &Function,
        vector: &Operand,
        element: &Operand,
        index: &Operand,
    ) -> Exec {
        let mut v = self.operand(state, func, vector);
        let e = self.operand1(state, func, element);
        let i = self.operand1(state, func, index);
        if let Some(k) = self.cx.pool.as_const(i) {
            if let Some(lane) = v.get_mut(k as usize) {
                *lane = e;
            }
            return Ok(v);
        }
        for (k, lane) in v.iter_mut().enumerate() {
            let kc = self.cx.pool.constant(self.cx.pool.width(i), k as u128);
            let hit = self.cx.pool.eq(i, kc);
            *lane = self.cx.pool.ite(hit, e, *lane);
        }
        Ok(v)
    }

    pub(in crate::exec) fn exec_shuffle(
        &mut self,
        state: &mut State,
        func: &Function,
        inst: &Inst,
        a: &Operand,
        b: &Operand,
        mask: &[i32],
    ) -> Exec {
        let va = self.operand(state, func, a);
        let vb = self.operand(state, func, b);
        let lane_bits = inst.ty.scalar_bits();
        let n = va.len();
        Ok(mask
            .iter()
            .map(|&m| match m {
                m if m < 0 => self.cx.pool.constant(lane_bits, 0),
                m if (m as usize) < n => va[m as usize],
                m => vb[m as usize - n],
            })
            .collect())
    }

    pub(in crate::exec) fn exec_extract_value(&mut self, state: &mut State, func: &Function, aggregate: &Operand, indices: &[u32]) -> Exec {
        let t = self.operand_type(func, aggregate);
        let v = self.operand(state, func, aggregate);
        let (start, len) = leaf_range(&t, indices);
        Ok(v[start..start + len].iter().copied().collect())
    }

    pub(in crate::exec) fn exec_insert_value(
        &mut self,
        state: &mut State,
        func: &Function,
        aggregate: &Operand,
        value: &Operand,
        indices: &[u32],
    ) -> Exec {
        let t = self.operand_type(func, aggregate);
        let mut v = self.operand(state, func, aggregate);
        let x = self.operand(state, func, value);
        let (start, len) = leaf_range(&t, indices);
        v[start..start + len].copy_from_slice(&x[..len]);
        Ok(v)
    }
}

/// The leaves of `t` that `indices` select: (first leaf, number of leaves).
pub fn leaf_range(t: &Type, indices: &[u32]) -> (usize, usize) {
    let Some((&first, rest)) = indices.split_first() else {
        return (0, t.lanes() as usize);
    };
    match t {
        Type::Struct { fields, .. } => {
            let before: u32 = fields[..first as usize].iter().map(|f| f.lanes()).sum();
            let (s, l) = leaf_range(&fields[first as usize], rest);
            (before as usize + s, l)
        }
        Type::Array { elem, .. } | Type::Vector { elem, .. } => {
            let before = elem.lanes() * first;
            let (s, l) = leaf_range(elem, rest);
            (before as usize + s, l)
        }
        _ => (0, 1),
    }
}
