//! Natural alignment: OpenCL C requires every load and store to be aligned
//! to its type (OpenCL C 6.1.5); a device faults or returns other bytes
//! otherwise. An access whose address is not a multiple of the alignment
//! its instruction declares (clang gives the type's, and less for packed
//! structs) is a `misaligned` finding where the models ask for it (OpenCL
//! device code): x86 C code reads unaligned data legitimately.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::state::State;
use crate::expr::ExprId;
use crate::ir::Loc;
use crate::memory::Access;
use crate::report::FindingKind;

impl<'m> Executor<'m> {
    /// Reports an access of `len` bytes at `access` (address `addr`) that
    /// may not be a multiple of `align`. Decided from the offset's known
    /// low bits when they settle it, else by the solver. In a CUDA
    /// launch's kernel the misaligned inputs end the path there (the GPU
    /// faults): Err when no input is left.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec) fn check_alignment(
        &mut self,
        state: &mut State,
        addr: ExprId,
        access: &Access,
        len: u64,
        align: u64,
        write: bool,
        loc: Loc,
    ) -> Result<(), Step> {
        if align <= 1 || !align.is_power_of_two() || !self.device_code_rules(state) {
            return Ok(());
        }
        let base = state.memory.object(access.object).base;
        let (m, r) = crate::memory::offset_residue::residue(&self.cx.pool, access.offset, 8);
        let mut misaligned_when = None;
        let model = if m >= align {
            if (base.wrapping_add(r)) % align == 0 {
                return Ok(());
            }
            if self.cx.pool.is_const(addr) {
                None
            } else {
                self.current_model(state)
            }
        } else {
            let mask = self.cx.pool.constant(64, (align - 1) as u128);
            let low = self.cx.pool.and(addr, mask);
            let zero = self.cx.pool.constant(64, 0);
            let aligned = self.cx.pool.eq(low, zero);
            let misaligned = self.cx.pool.not(aligned);
            misaligned_when = Some(misaligned);
            match self.cx.decider.feasible(&self.cx.pool, &state.path, misaligned) {
                crate::check::Feasibility::Sat(m) => Some(m),
                _ => return Ok(()),
            }
        };
        let o = state.memory.object(access.object);
        let at = match model.as_ref() {
            Some(m) => crate::expr::evaluate(&self.cx.pool, access.offset, m) as u64,
            None => self.cx.pool.as_const(access.offset).unwrap_or(r as u128) as u64,
        };
        let what = if write { "store" } else { "load" };
        let msg = format!(
            "misaligned {len}-byte {what} at byte offset {at} of {} `{}`: the address must be a multiple of {align}",
            o.describe(),
            o.name
        );
        self.report(state, FindingKind::Misaligned, loc, msg, model.as_ref(), None);
        self.misaligned_fails_launch(state, misaligned_when, model.as_ref())
    }
}
