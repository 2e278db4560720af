//! AArch64 Advanced SIMD intrinsics (`llvm.aarch64.*`) that clang leaves as
//! calls. Lane semantics are rows in the neon module; the structured loads
//! and stores (vld3, vst4, vld2_lane...) touch memory, so they are
//! performed here, with neon::memory saying which element goes where.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::ExprId;
use crate::ir::Type;
use crate::memory::layout::{bytes_to_value, value_to_bytes};
use crate::neon::memory::{form, memory_from_registers, registers_from_memory, MemoryForm};
use crate::neon::{base_name, lower_neon, Lowered};

impl<'m> Executor<'m> {
    pub(in crate::exec) fn call_neon(&mut self, state: &mut State, c: &CallCtx) -> Option<Result<Option<Value>, Step>> {
        if let Some(f) = c.name.strip_prefix("llvm.aarch64.neon.").map(base_name).and_then(form) {
            return Some(match self.neon_memory(state, c, f) {
                Ok(v) => Ok(v),
                Err(Ok(msg)) => Err(self.unsupported(state, c.inst.loc, format!("{}: {msg}", c.name))),
                Err(Err(step)) => Err(step),
            });
        }
        match lower_neon(&mut self.cx.pool, c.name, &c.args, &c.inst.ty) {
            Lowered::Value(v) => Some(Ok(Some(v))),
            Lowered::Unsupported(msg) => Some(Err(self.unsupported(state, c.inst.loc, msg))),
            Lowered::NotNeon => None,
        }
    }

    /// Performs a structured load or store. `Err(Ok(why))`: refused.
    fn neon_memory(&mut self, state: &mut State, c: &CallCtx, f: MemoryForm) -> Result<Option<Value>, Result<String, Step>> {
        let loc = c.inst.loc;
        let ptr_of = |k: usize| c.args.get(k).and_then(|v| v.first().copied()).ok_or_else(|| Ok("missing pointer operand".to_string()));
        let lane_of = |p: &crate::expr::ExprPool, k: usize| {
            c.args
                .get(k)
                .and_then(|v| v.first())
                .and_then(|&l| p.as_const(l))
                .map(|l| l as usize)
                .ok_or_else(|| Ok("lane number is not a constant".to_string()))
        };
        match f {
            MemoryForm::Load { regs, interleaved } => {
                let (elem, lanes) = loaded_vector(&c.inst.ty, regs)?;
                let elems = self.load_elements(state, ptr_of(0)?, &elem, regs * lanes, loc)?;
                Ok(Some(registers_from_memory(&elems, regs, interleaved)))
            }
            MemoryForm::LoadReplicate { regs } => {
                let (elem, lanes) = loaded_vector(&c.inst.ty, regs)?;
                let elems = self.load_elements(state, ptr_of(0)?, &elem, regs, loc)?;
                Ok(Some(elems.iter().flat_map(|&e| std::iter::repeat_n(e, lanes)).collect()))
            }
            MemoryForm::LoadLane { regs } => {
                let (elem, lanes) = loaded_vector(&c.inst.ty, regs)?;
                let lane = lane_of(&self.cx.pool, regs)?;
                if lane >= lanes || c.args.len() < regs + 2 || c.args[..regs].iter().any(|r| r.len() != lanes) {
                    return Err(Ok(format!("lane {lane} or operands do not fit {regs} registers of {lanes} lanes")));
                }
                let elems = self.load_elements(state, ptr_of(regs + 1)?, &elem, regs, loc)?;
                let mut out = Value::new();
                for (k, reg) in c.args[..regs].iter().enumerate() {
                    out.extend(reg.iter().enumerate().map(|(j, &l)| if j == lane { elems[k] } else { l }));
                }
                Ok(Some(out))
            }
            MemoryForm::Store { regs, interleaved } => {
                if c.args.len() < regs + 1 {
                    return Err(Ok("missing operands".into()));
                }
                let all: Vec<ExprId> = c.args[..regs].iter().flat_map(|r| r.iter().copied()).collect();
                let elems = memory_from_registers(&all, regs, interleaved);
                self.store_elements(state, ptr_of(regs)?, &elems, loc)?;
                Ok(None)
            }
            MemoryForm::StoreLane { regs } => {
                let lane = lane_of(&self.cx.pool, regs)?;
                if c.args.len() < regs + 2 || c.args[..regs].iter().any(|r| lane >= r.len()) {
                    return Err(Ok(format!("lane {lane} out of range")));
                }
                let elems: Vec<ExprId> = c.args[..regs].iter().map(|r| r[lane]).collect();
                self.store_elements(state, ptr_of(regs + 1)?, &elems, loc)?;
                Ok(None)
            }
        }
    }

    fn load_elements(
        &mut self,
        state: &mut State,
        ptr: ExprId,
        elem: &Type,
        n: usize,
        loc: crate::ir::Loc,
    ) -> Result<Vec<ExprId>, Result<String, Step>> {
        let t = Type::Vector { elem: Box::new(elem.clone()), len: n as u32 };
        let access = self.resolve(state, ptr, t.store_size(), loc, false).map_err(Err)?;
        let bytes = self.read_bytes(state, &access, t.store_size(), loc);
        Ok(bytes_to_value(&mut self.cx.pool, &t, &bytes).to_vec())
    }

    fn store_elements(
        &mut self,
        state: &mut State,
        ptr: ExprId,
        elems: &[ExprId],
        loc: crate::ir::Loc,
    ) -> Result<(), Result<String, Step>> {
        let w = elems.first().map(|&e| self.cx.pool.width(e)).ok_or_else(|| Ok("no lanes to store".to_string()))?;
        let t = Type::Vector { elem: Box::new(Type::Int(w)), len: elems.len() as u32 };
        let bytes = value_to_bytes(&mut self.cx.pool, &t, elems);
        let access = self.resolve(state, ptr, bytes.len() as u64, loc, true).map_err(Err)?;
        self.write_bytes(state, &access, &bytes);
        Ok(())
    }
}

/// The element type and lane count of the registers a structured load
/// returns (a struct of `regs` equal vectors).
fn loaded_vector(t: &Type, regs: usize) -> Result<(Type, usize), Result<String, Step>> {
    match t {
        Type::Struct { fields, .. } if fields.len() == regs => match &fields[0] {
            Type::Vector { elem, len } if fields.iter().all(|f| f == &fields[0]) => Ok(((**elem).clone(), *len as usize)),
            _ => Err(Ok("result is not a struct of equal vectors".into())),
        },
        _ => Err(Ok(format!("result is not a struct of {regs} vectors"))),
    }
}
