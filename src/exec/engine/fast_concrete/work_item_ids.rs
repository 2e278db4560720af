//! A work-item's call of a work-item function (`get_global_id(0)` and
//! the others: ids, sizes, offsets, in any dimension) on the tier. Every
//! work-item of an enumerated NDRange asks for its ids, and each such
//! call left the tier for a general step: its operands built as values,
//! the call routed by name, the models asked, and a turn of the run
//! loop on each side of it. Here the answer is the models' own
//! (`ModelHooks::answer_id_call`, the same pool calls `call_model` makes,
//! so the same handles), from the running work-item's concrete ids; the
//! engine names no model. A call the general step would treat in any
//! other way (a row's handler, an intrinsic, an argument count the
//! function's arity refuses, indeterminate bits in the frame) is left to
//! it, with nothing changed.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::model_hooks::{IdCall, ModelHooks};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::ir::{Callee, Function, InstKind};

impl<'m> Executor<'m> {
    /// The call at the running frame's `pc`, when it is a work-item
    /// function's, run as the general step runs it (`exec_call`: the
    /// result in its register, the next instruction next); false, with
    /// nothing changed, for any other instruction.
    pub(super) fn fast_id_call(&mut self, state: &mut State, func: &'m Function) -> bool {
        let frame = state.frame();
        // A frame that tracks indeterminate bits checks the arguments'
        // and gives the result a shadow: the general step's.
        if frame.shadow_on || !frame.shadows.is_empty() {
            return false;
        }
        let Some(inst) = func.blocks[frame.block.0 as usize].insts.get(frame.pc) else { return false };
        let InstKind::Call { callee: Callee::External(name), args } = &inst.kind else { return false };
        let Some(call) = self.id_call_of(name) else { return false };
        let values: smallvec::SmallVec<[Value; 1]> = args.iter().map(|a| self.operand(state, func, a)).collect();
        let Some(v) = self.answer_id_call(state, call, &values) else { return false };
        // What exec_call takes after any call (set only by intrinsics).
        self.shadow.result_from_argument = None;
        let frame = state.frame_mut();
        if let Some(d) = inst.dest {
            frame.regs[d.0 as usize] = Some(v);
        }
        frame.pc += 1;
        true
    }

    /// Whether a call of the declared function `name` is a work-item
    /// function's as `exec_call` routes it: no engine row, `llvm.*` or
    /// libm intrinsic claims the name (`call_route`), and the models
    /// answer its call from the ids alone (`ModelHooks::id_call`).
    /// Worked out once per name (keyed, as `call_route` keys it, by the
    /// module's string).
    fn id_call_of(&mut self, name: &'m str) -> Option<IdCall> {
        let key = (name.as_ptr() as usize, name.len());
        if let Some(known) = self.id_calls.get(&key) {
            return *known;
        }
        let routed_to_models = !name.starts_with("llvm.") && crate::exec::ops::intrinsics::libm_arity(name).is_none();
        // The engine's own rows (malloc, memcpy, the checks...) are plain
        // C names; `id_call` answers only mangled OpenCL ones, and
        // refuses a name any models' row claims.
        let call = if routed_to_models { Self::id_call(name) } else { None };
        self.id_calls.insert(key, call);
        call
    }
}
