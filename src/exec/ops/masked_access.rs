//! Masked loads and stores (`llvm.x86.avx.maskload.*`, `maskstore.*`,
//! `avx2.maskload/maskstore.*`, `sse2.maskmov.dqu`), as `simd/masked.rs`
//! describes them: only the lanes whose mask bit is set are accessed, each
//! one checked as an ordinary access of its size, so a masked-off lane past
//! the end of an object is no finding and a masked-on one is. A mask that
//! depends on the input is explored one value per path, as a symbolic size
//! is (`exec/memory/symbolic_size.rs`).

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::ir::Type;
use crate::memory::layout::value_to_bytes;
use crate::simd::MaskedAccess;

impl<'m> Executor<'m> {
    /// Performs `m` for the call `c`; a load's result is its lanes (zero
    /// where masked off), a store has none.
    pub(in crate::exec) fn masked_access(&mut self, state: &mut State, c: &CallCtx, m: MaskedAccess) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        // The mask bits as one word, lane 0 lowest, made concrete.
        let mut word = m.enabled[0];
        for &bit in &m.enabled[1..] {
            word = self.cx.pool.concat(bit, word);
        }
        let mask = self.concrete_size(state, word, loc, "the mask of a masked load or store")?;
        let lane_type = match &c.inst.ty {
            Type::Vector { elem, .. } if !m.is_store() => (**elem).clone(),
            _ => Type::Int(8 * m.lane_bytes as u32),
        };
        let mut lanes = Value::new();
        for i in 0..m.enabled.len() {
            let on = (mask >> i) & 1 == 1;
            let offset = self.cx.pool.constant(64, u128::from(i as u64 * m.lane_bytes));
            let addr = self.cx.pool.add(m.pointer, offset);
            if m.is_store() {
                if on {
                    let bytes = value_to_bytes(&mut self.cx.pool, &lane_type, &m.values[i..=i]);
                    let access = self.resolve(state, addr, m.lane_bytes, loc, true)?;
                    self.write_bytes(state, &access, &bytes);
                }
            } else if on {
                let v = self.load_value(state, addr, &lane_type, loc)?;
                lanes.push(v[0]);
            } else {
                lanes.push(self.cx.pool.constant(8 * m.lane_bytes as u32, 0));
            }
        }
        Ok((!m.is_store()).then_some(lanes))
    }
}
