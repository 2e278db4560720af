//! Executing one instruction: operand evaluation and dispatch to the
//! per-family files (int_ops, fp_ops, cast_ops, vector_ops, mem_ops,
//! control, calls).

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::state::State;
use crate::expr::value::{scalar, Value};
use crate::expr::ExprId;
use crate::ir::{Const, Function, Inst, InstKind, Operand, RegId, Type};

impl<'m> Executor<'m> {
    /// Executes the running frame's next instruction, or its block's
    /// terminator when the instructions are done. Both count as steps.
    pub(in crate::exec) fn step(&mut self, state: &mut State) -> Step {
        if state.gpu.is_some() {
            self.before_kernel_instruction(state);
        }
        let module = self.cx.module;
        let frame = state.frame();
        let func = module.function(frame.func);
        let block = &func.blocks[frame.block.0 as usize];
        if frame.pc < block.insts.len() {
            let inst = &block.insts[frame.pc];
            state.frame_mut().pc += 1;
            state.steps += 1;
            self.log.stats.instructions += 1;
            self.exec_inst(state, func, inst)
        } else {
            // Terminators count as steps too: `while (1) {}` is one block
            // with a branch to itself (path_budget.rs).
            let (from, depth) = (frame.block, state.stack.len());
            state.steps += 1;
            self.log.stats.instructions += 1;
            let step = self.exec_terminator(state, func, &block.term, block.term_loc);
            // Every cycle of a CFG has an edge to a block at or before its
            // source in block order: those are the back edges watched.
            if matches!(step, Step::Continue) && state.gpu.is_some() && state.stack.len() == depth && state.frame().block.0 <= from.0 {
                return self.loop_back_edge(state).unwrap_or(step);
            }
            step
        }
    }

    fn exec_inst(&mut self, state: &mut State, func: &'m Function, inst: &'m Inst) -> Step {
        // Indeterminate bits (shadow.rs): uses are checked before, the
        // result's shadow computed after.
        let shadowed = self.shadow_active(state);
        if shadowed && !self.check_inst_uses(state, func, inst) {
            return Step::Terminated;
        }
        let result = match &inst.kind {
            InstKind::Int { op, lhs, rhs, flags } => self.exec_int(state, func, inst, *op, lhs, rhs, *flags),
            InstKind::Float { op, lhs, rhs, approximate, contract } => {
                self.exec_float(state, func, inst, *op, lhs, rhs, *approximate, *contract)
            }
            InstKind::FNeg(a) => self.exec_fneg(state, func, inst, a),
            InstKind::ICmp { pred, lhs, rhs } => self.exec_icmp(state, func, *pred, lhs, rhs),
            InstKind::FCmp { outcomes, lhs, rhs } => self.exec_fcmp(state, func, inst, *outcomes, lhs, rhs),
            InstKind::Cast { op, value, flags } => self.exec_cast(state, func, inst, *op, value, *flags),
            InstKind::Select { cond, then, otherwise, .. } => self.exec_select(state, func, cond, then, otherwise),
            // Phi nodes were assigned on entry to the block.
            InstKind::Phi { .. } => return Step::Continue,
            InstKind::Alloca { elem_size, count, align, element } => {
                self.exec_alloca(state, func, inst, *elem_size, count, *align, *element)
            }
            InstKind::Load { ptr, .. } => self.exec_load(state, func, inst, ptr),
            InstKind::Store { ptr, value, .. } => return self.exec_store(state, func, inst, ptr, value),
            InstKind::Gep { base, offset, terms, bounds, flags } => {
                self.exec_gep(state, func, base, *offset, terms, bounds, *flags, inst.loc)
            }
            InstKind::Call { callee, args } => return self.exec_call(state, func, inst, callee, args),
            InstKind::ExtractElement { vector, index } => self.exec_extract_element(state, func, vector, index),
            InstKind::InsertElement { vector, element, index } => self.exec_insert_element(state, func, vector, element, index),
            InstKind::ShuffleVector { a, b, mask } => self.exec_shuffle(state, func, inst, a, b, mask),
            InstKind::ExtractValue { aggregate, indices } => self.exec_extract_value(state, func, aggregate, indices),
            InstKind::InsertValue { aggregate, value, indices } => self.exec_insert_value(state, func, aggregate, value, indices),
            InstKind::Freeze(v) => Ok(self.operand(state, func, v)),
            InstKind::AtomicRmw { op, ptr, value } => self.exec_atomic_rmw(state, func, inst, *op, ptr, value),
            InstKind::CmpXchg { ptr, expected, new } => self.exec_cmpxchg(state, func, inst, ptr, expected, new),
            InstKind::Fence => return Step::Continue,
            InstKind::Unsupported(what) => return self.unsupported(state, inst.loc, what.clone()),
        };
        match result {
            Ok(v) => {
                if let Some(d) = inst.dest {
                    self.set_reg(state, d, v);
                    if shadowed {
                        self.shadow_result(state, func, inst, d);
                    }
                    // The lanes an undefined operation made poison
                    // (exec/ops/undefined.rs).
                    if self.shadow.poison.is_some() {
                        self.merge_poison(state, d);
                    }
                }
                Step::Continue
            }
            Err(step) => {
                self.shadow.poison = None;
                step
            }
        }
    }

    /// Sets register `reg` of the running frame to `v`.
    pub(in crate::exec) fn set_reg(&mut self, state: &mut State, reg: RegId, v: Value) {
        state.frame_mut().regs[reg.0 as usize] = Some(v);
    }

    /// The value of an operand in the current frame.
    pub(in crate::exec) fn operand(&mut self, state: &State, func: &Function, op: &Operand) -> Value {
        match op {
            Operand::Reg(r) => match &state.frame().regs[r.0 as usize] {
                // from_slice copies (ExprId is Copy); clone() goes through
                // the generic, much slower, extend.
                Some(v) if v.len() == 1 => smallvec::smallvec![v[0]],
                Some(v) => Value::from_slice(v),
                // A register read before definition can only come from
                // unreachable-in-practice IR; treat it as undef.
                None => self.undef_value(&func.reg_types[r.0 as usize]),
            },
            Operand::Const(c) => self.const_value(c),
        }
    }

    /// A scalar operand (lane 0).
    pub(in crate::exec) fn operand1(&mut self, state: &State, func: &Function, op: &Operand) -> ExprId {
        self.operand(state, func, op)[0]
    }

    /// The value of a constant: globals and functions as their fixed
    /// addresses, `undef` as zeros, vectors and aggregates flattened.
    pub(in crate::exec) fn const_value(&mut self, c: &Const) -> Value {
        match c {
            Const::Int { width, value } => scalar(self.cx.pool.constant(*width, *value)),
            Const::Float { format, bits } => scalar(self.cx.pool.constant(format.width(), *bits)),
            Const::Null => scalar(self.cx.pool.constant(64, 0)),
            Const::Undef(t) => self.undef_value(t),
            Const::GlobalAddr { global, offset } => {
                let a = self.global_address(*global).wrapping_add(*offset as u64);
                scalar(self.cx.pool.constant(64, a as u128))
            }
            Const::FuncAddr(f) => {
                let a = self.function_base[f.0 as usize];
                scalar(self.cx.pool.constant(64, a as u128))
            }
            Const::Vector(items) | Const::Aggregate(items) => {
                let mut v = Value::new();
                for i in items {
                    v.extend(self.const_value(i));
                }
                v
            }
        }
    }

    /// `undef`/`poison` values are modelled as zero in every lane.
    pub(in crate::exec) fn undef_value(&mut self, t: &Type) -> Value {
        let mut v = Value::new();
        for w in leaf_widths(t) {
            v.push(self.cx.pool.constant(w, 0));
        }
        v
    }

    /// The type of an operand.
    pub(in crate::exec) fn operand_type(&self, func: &Function, op: &Operand) -> Type {
        match op {
            Operand::Reg(r) => func.reg_types[r.0 as usize].clone(),
            Operand::Const(c) => const_type(c),
        }
    }

    /// Applies `f` lane by lane.
    pub(in crate::exec) fn map2(
        &mut self,
        a: &Value,
        b: &Value,
        mut f: impl FnMut(&mut crate::expr::ExprPool, ExprId, ExprId) -> ExprId,
    ) -> Value {
        if a.len() == 1 && b.len() == 1 {
            return smallvec::smallvec![f(&mut self.cx.pool, a[0], b[0])];
        }
        let mut out = Value::with_capacity(a.len());
        for (x, y) in a.iter().zip(b.iter()) {
            out.push(f(&mut self.cx.pool, *x, *y));
        }
        out
    }
}

/// Widths of the leaves of a type, in register order.
pub fn leaf_widths(t: &Type) -> Vec<u32> {
    match t {
        Type::Void => vec![],
        Type::Vector { elem, len } => vec![elem.scalar_bits(); *len as usize],
        Type::Array { elem, len } => {
            let one = leaf_widths(elem);
            (0..*len).flat_map(|_| one.clone()).collect()
        }
        Type::Struct { fields, .. } => fields.iter().flat_map(leaf_widths).collect(),
        t => vec![t.scalar_bits().max(1)],
    }
}

fn const_type(c: &Const) -> Type {
    match c {
        Const::Int { width, .. } => Type::Int(*width),
        Const::Float { format, .. } => Type::Float(*format),
        Const::Null | Const::GlobalAddr { .. } | Const::FuncAddr(_) => Type::Ptr { addr_space: 0 },
        Const::Undef(t) => t.clone(),
        Const::Vector(items) => {
            Type::Vector { elem: Box::new(items.first().map(const_type).unwrap_or(Type::Int(8))), len: items.len() as u32 }
        }
        Const::Aggregate(items) => {
            let fields: Vec<Type> = items.iter().map(const_type).collect();
            let mut offsets = Vec::new();
            let mut size = 0;
            for f in &fields {
                offsets.push(size);
                size += f.size();
            }
            Type::Struct { fields, offsets, size }
        }
    }
}
