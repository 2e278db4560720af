//! What a mismatch looks like under its witness, element by element: the
//! type the compared buffers hold (their allocated type, else the kind of
//! value the failing element computes), the two values of the first
//! differing element in that type, and every element that differs. A
//! `size_t` array prints as integers, a float array as floats.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::expr::{evaluate, Assignment, ElementType, Expr, ExprId, ExprPool, FpFormat};
use crate::report::ElementDifference;

/// At most this many differing elements are listed (the JSON report and
/// the text alike); the count says how many there were.
const MAX_LISTED: usize = 64;
/// Buffers longer than this are not compared element by element.
const MAX_ELEMENTS: u64 = 1 << 16;

impl<'m> Executor<'m> {
    /// The element type of the buffer `ptr` points into, when the buffer's
    /// type says so and the element size agrees.
    pub(in crate::exec) fn buffer_element(&self, state: &State, ptr: ExprId, elem_size: u64) -> Option<ElementType> {
        let addr = self.cx.pool.as_const(ptr)? as u64;
        let o = state.memory.object(state.memory.object_near(addr)?);
        o.element.filter(|t| t.size() as u64 == elem_size)
    }

    /// The elements of `a` and `b` (`count` of `elem` bytes) that differ
    /// under `witness`: index, left and right value in type `t`. `None`
    /// when the buffers cannot be read concretely (symbolic pointers,
    /// unbounded buffers).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec) fn differing_elements(
        &mut self,
        state: &State,
        a: ExprId,
        b: ExprId,
        elem: u64,
        count: u64,
        t: ElementType,
        witness: &Assignment,
    ) -> Option<(u64, Vec<ElementDifference>)> {
        if count > MAX_ELEMENTS || elem == 0 || elem > 16 {
            return None;
        }
        let mut read = |ptr: ExprId, k: u64| -> Option<u128> {
            let addr = self.cx.pool.as_const(ptr)? as u64 + k * elem;
            let o = state.memory.object(state.memory.object_near(addr)?);
            let off = addr.checked_sub(o.base)?;
            if o.address_only || off + elem > o.size {
                return None;
            }
            let mut v = 0u128;
            for i in 0..elem {
                let byte = o.bytes.get(&mut self.cx.pool, off + i);
                let byte = evaluate(&self.cx.pool, byte, witness) & 0xff;
                v |= byte << (8 * i);
            }
            Some(v)
        };
        let mut differing = 0;
        let mut listed = Vec::new();
        for k in 0..count {
            let (l, r) = (read(a, k)?, read(b, k)?);
            if l != r {
                differing += 1;
                if listed.len() < MAX_LISTED {
                    listed.push(ElementDifference { index: k, left: t.show_bits(l), right: t.show_bits(r) });
                }
            }
        }
        Some((differing, listed))
    }
}

/// The floating-point format of the value `e` computes, when its top
/// operation says (an FP operation, a conversion to FP, or a choice between
/// such values); `None` for integers and raw bytes.
pub fn fp_result_format(pool: &ExprPool, e: ExprId) -> Option<FpFormat> {
    let mut cur = e;
    for _ in 0..64 {
        match &*pool.get(cur) {
            Expr::FBin(_, f, ..) | Expr::FUn(_, f, _) | Expr::Fma(f, ..) => return Some(*f),
            Expr::IntToFp { to, .. } | Expr::FpConvert { to, .. } => return Some(*to),
            Expr::Ite(_, t, _) => cur = *t,
            _ => return None,
        }
    }
    None
}
