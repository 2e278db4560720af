//! KLEE's harness API beyond `klee_make_symbolic`/`klee_assume`/`klee_assert`
//! (which share the symcross built-ins): `klee_int`, `klee_range`,
//! `klee_silent_exit`, `klee_is_symbolic`, and the hints that only shape
//! KLEE's choice of witness (`klee_prefer_cex`, `klee_warning`, ...), which
//! are accepted and ignored. Header: cl-runtime-model/klee/klee.h.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::{scalar, Value};
use crate::expr::CmpOp;

impl<'m> Executor<'m> {
    /// `klee_int(name)`: a fresh symbolic int, a witness input of its own.
    pub(in crate::exec) fn builtin_klee_int(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let name = self.klee_name(state, c, 0)?;
        Ok(Some(scalar(self.symbolic_int(&name))))
    }

    /// `klee_range(begin, end, name)`: a symbolic int in [begin, end),
    /// compared as signed ints; `begin` itself when the range has one value.
    pub(in crate::exec) fn builtin_klee_range(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let (begin, end) = (c.args[0][0], c.args[1][0]);
        let one = self.cx.pool.constant(32, 1);
        let next = self.cx.pool.add(begin, one);
        if self.cx.pool.eq(next, end) == self.cx.pool.bool_const(true) {
            return Ok(Some(scalar(begin)));
        }
        let name = self.klee_name(state, c, 2)?;
        let x = self.symbolic_int(&name);
        let from = self.cx.pool.cmp(CmpOp::Sle, begin, x);
        let below = self.cx.pool.cmp(CmpOp::Slt, x, end);
        let within = self.cx.pool.bool_and(from, below);
        if self.assume(state, within) {
            Ok(Some(scalar(x)))
        } else {
            // An empty range: KLEE reports it as an error of the harness.
            let msg = "klee_range with an empty range (begin >= end)".to_string();
            self.report(state, crate::report::FindingKind::Unsupported, c.inst.loc, msg, None, None);
            Err(Step::Terminated)
        }
    }

    /// `klee_silent_exit(status)`: the path ends, nothing is reported.
    pub(in crate::exec) fn builtin_klee_silent_exit(&mut self, _state: &mut State, _c: &CallCtx) -> Result<Option<Value>, Step> {
        Err(Step::Finished)
    }

    /// `klee_is_symbolic(n)`: 1 when `n` depends on an input.
    pub(in crate::exec) fn builtin_klee_is_symbolic(&mut self, _state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let symbolic = !self.cx.pool.is_const(c.args[0][0]);
        Ok(Some(scalar(self.cx.pool.constant(32, symbolic as u128))))
    }

    fn klee_name(&mut self, state: &mut State, c: &CallCtx, arg: usize) -> Result<String, Step> {
        match c.args.get(arg) {
            Some(p) if self.cx.pool.as_const(p[0]) != Some(0) => self.read_c_string(state, p[0], c.inst.loc),
            _ => Ok("input".to_string()),
        }
    }

    /// A 32-bit value read from a new 4-byte input array called `name`.
    fn symbolic_int(&mut self, name: &str) -> crate::expr::ExprId {
        self.log.coverage.symbolic_inputs += 1;
        let array = self.cx.pool.new_array(name, 4);
        self.cx.pool.set_element_type(array, crate::expr::ElementType::Int(4));
        self.cx.pool.input_word(array, 0, 32)
    }
}
