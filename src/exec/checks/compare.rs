//! `memcmp` as a built-in. Tests often compare whole buffers with
//! `assert(memcmp(a, b, n) == 0)`; the byte loop of a C memcmp would branch
//! on every byte, each branch a solver query, where `symcross_check_equal`
//! decides whole elements with the ladder. Here, 16-byte chunks that the
//! ladder proves equal on the current path drop out (their bytes cannot
//! decide the result), and the rest becomes the usual first-difference
//! value: `a[k] - b[k]` for the first differing byte k, else 0.

use crate::check::CheckOutcome;
use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::ExprId;

/// Bytes decided together: one SSE vector, four floats.
const CHUNK: u64 = 16;

impl<'m> Executor<'m> {
    pub(in crate::exec) fn builtin_memcmp(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let n = self.concrete_size(state, c.args[2][0], loc, "the size of a memcmp")?;
        let zero = self.cx.pool.constant(32, 0);
        if n == 0 {
            return Ok(Some(smallvec::smallvec![zero]));
        }
        // Comparing bytes never written is a use of them (shadow_mem.rs).
        for side in [c.args[0][0], c.args[1][0]] {
            self.use_bytes(state, side, n, loc, "the comparison of memcmp")?;
        }
        let left = self.resolve(state, c.args[0][0], n, loc, false)?;
        let left = self.read_bytes(state, &left, n, loc).into_vec();
        let right = self.resolve(state, c.args[1][0], n, loc, false)?;
        let right = self.read_bytes(state, &right, n, loc).into_vec();
        let mut result = zero;
        for start in (0..n).step_by(CHUNK as usize).collect::<Vec<_>>().into_iter().rev() {
            let end = (start + CHUNK).min(n) as usize;
            let (a, b) = (&left[start as usize..end], &right[start as usize..end]);
            if self.chunk_proved_equal(state, a, b) {
                continue;
            }
            for k in (0..a.len()).rev() {
                let differ = self.cx.pool.eq(a[k], b[k]);
                let differ = self.cx.pool.not(differ);
                let (x, y) = (self.cx.pool.zext(a[k], 32), self.cx.pool.zext(b[k], 32));
                let diff = self.cx.pool.sub(x, y);
                result = self.cx.pool.ite(differ, diff, result);
            }
        }
        Ok(Some(smallvec::smallvec![result]))
    }

    /// Whether the ladder proves two runs of bytes equal on this path.
    fn chunk_proved_equal(&mut self, state: &State, a: &[ExprId], b: &[ExprId]) -> bool {
        if a == b {
            return true;
        }
        let join =
            |pool: &mut crate::expr::ExprPool, bytes: &[ExprId]| bytes.iter().skip(1).fold(bytes[0], |acc, byte| pool.concat(*byte, acc));
        let (wa, wb) = (join(&mut self.cx.pool, a), join(&mut self.cx.pool, b));
        matches!(self.cx.decider.check_equal(&mut self.cx.pool, &state.path, wa, wb), CheckOutcome::Proved(_))
    }
}
