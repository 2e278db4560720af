//! A pointer chosen between objects (`h = c ? h1 : h2`, possibly plus an
//! offset): the path splits on the choice, so that each side accesses one
//! object at a plain offset. Resolving the select against one object would
//! give an offset that jumps between objects (a race "on the wrong buffer,
//! at a huge negative element") and a symbolic offset for every access.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::{evaluate, Expr, ExprId};

impl<'m> Executor<'m> {
    /// The address to access on this path: `addr` itself, or the arm of a
    /// pointer select it contains, after splitting the path on the select's
    /// condition (the other side re-runs the instruction).
    pub(in crate::exec) fn split_pointer_select(&mut self, state: &mut State, addr: ExprId) -> Result<ExprId, Step> {
        if self.cx.pool.is_const(addr) {
            return Ok(addr);
        }
        let Some((c, t, e)) = self.peel_select(addr, 8) else { return Ok(addr) };
        let Some(m) = self.current_model(state) else { return Ok(addr) };
        let object_of = |this: &Self, x: ExprId| state.memory.object_near(evaluate(&this.cx.pool, x, &m) as u64);
        let (ot, oe) = (object_of(self, t), object_of(self, e));
        if ot == oe || ot.is_none() || oe.is_none() {
            return Ok(addr);
        }
        // Decided already on this path (the usual case: every access of a
        // loop goes through the same select).
        let not_c = self.cx.pool.not(c);
        if state.path.contains(&c) {
            return Ok(t);
        }
        if state.path.contains(&not_c) {
            return Ok(e);
        }
        match self.branch(state, c) {
            (Some(ts), Some(mut fs)) => {
                fs.frame_mut().pc -= 1;
                self.pending.push(fs);
                *state = ts;
                Ok(t)
            }
            (Some(ts), None) => {
                *state = ts;
                Ok(t)
            }
            (None, Some(fs)) => {
                *state = fs;
                Ok(e)
            }
            (None, None) => Err(Step::Terminated),
        }
    }

    /// `addr` as `ite(c, t, e)`, looking through additions, zero
    /// extensions and concatenations (at most `depth` of them): the pool
    /// keeps a choice between two buffers whose bases differ only above
    /// bit 40 as `concat(zext(ite(c, hi_t, hi_e)), 0)`.
    fn peel_select(&mut self, addr: ExprId, depth: u32) -> Option<(ExprId, ExprId, ExprId)> {
        match *self.cx.pool.get(addr) {
            Expr::Ite(c, t, e) => Some((c, t, e)),
            Expr::Bin(crate::expr::BinOp::Add, a, b) if depth > 0 => {
                if let Some((c, t, e)) = self.peel_select(a, depth - 1) {
                    let (t, e) = (self.cx.pool.add(t, b), self.cx.pool.add(e, b));
                    return Some((c, t, e));
                }
                let (c, t, e) = self.peel_select(b, depth - 1)?;
                let (t, e) = (self.cx.pool.add(a, t), self.cx.pool.add(a, e));
                Some((c, t, e))
            }
            Expr::ZExt(a, w) if depth > 0 => {
                let (c, t, e) = self.peel_select(a, depth - 1)?;
                Some((c, self.cx.pool.zext(t, w), self.cx.pool.zext(e, w)))
            }
            Expr::Concat(hi, lo) if depth > 0 => {
                if let Some((c, t, e)) = self.peel_select(hi, depth - 1) {
                    let (t, e) = (self.cx.pool.concat(t, lo), self.cx.pool.concat(e, lo));
                    return Some((c, t, e));
                }
                let (c, t, e) = self.peel_select(lo, depth - 1)?;
                let (t, e) = (self.cx.pool.concat(hi, t), self.cx.pool.concat(hi, e));
                Some((c, t, e))
            }
            _ => None,
        }
    }
}
