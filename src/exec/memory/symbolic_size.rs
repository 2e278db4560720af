//! Sizes that depend on the input (`memcpy(d, s, n)` with a symbolic `n`,
//! `malloc(n)`, a variable-length array `float buf[n]`, a check's element
//! count). The executor needs a concrete
//! size, so it takes the model's value on this path and forks the rest of
//! the path (`size != value`) to run the call again with the next value:
//! every feasible size is explored, one path each. A size with more than
//! `MAX_SIZE_VALUES` values at one call site stops forking there and says
//! so, which leaves the verdict inconclusive rather than silently fixed.
//!
//! Small values come first: the model's own choice is often huge (a
//! kernel's `len` argument may be any 64-bit number), a huge copy only ends
//! the run at the memory limit, and the bugs a length causes show a few
//! bytes past a boundary. The length of a copy or fill that cannot be below
//! `MAX_EXPLORED_LENGTH` is named and its path ends.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::{evaluate, CmpOp, ExprId};
use crate::ir::Loc;
use crate::report::FindingKind;

/// Values of one symbolic size explored per call site.
pub const MAX_SIZE_VALUES: u32 = 64;

/// Bands tried in turn for the next value of a symbolic size: the value
/// comes from the smallest band the path allows.
const SIZE_BANDS: [u128; 4] = [1 << 4, 1 << 8, 1 << 16, 1 << 24];

/// Bytes of a `memcpy`/`memset` of symbolic length above which no value is
/// explored (the path ends with an `unsupported` finding saying so).
pub const MAX_EXPLORED_LENGTH: u128 = 1 << 24;

/// What a symbolic size counts, for its cap.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Counts {
    /// Bytes a copy or fill touches: capped at `MAX_EXPLORED_LENGTH`.
    CopiedBytes,
    /// Anything else (allocation sizes, masks, flags, element counts).
    Other,
}

impl<'m> Executor<'m> {
    /// A concrete size for `v`: its value in the path's model. Other
    /// feasible values are explored on a forked path that re-runs the call.
    pub(in crate::exec) fn concrete_size(&mut self, state: &mut State, v: ExprId, loc: Loc, what: &str) -> Result<u64, Step> {
        self.concrete_count(state, v, loc, what, Counts::Other)
    }

    /// A concrete byte count for a `memcpy`/`memset` of length `v`, as
    /// `concrete_size`; a length that cannot be below
    /// `MAX_EXPLORED_LENGTH` on this path is named and ends it.
    pub(in crate::exec) fn concrete_length(&mut self, state: &mut State, v: ExprId, loc: Loc, what: &str) -> Result<u64, Step> {
        self.concrete_count(state, v, loc, what, Counts::CopiedBytes)
    }

    fn concrete_count(&mut self, state: &mut State, v: ExprId, loc: Loc, what: &str, counts: Counts) -> Result<u64, Step> {
        if let Some(c) = self.cx.pool.as_const(v) {
            return Ok(c as u64);
        }
        // The value explored first depends on the model (shard.rs).
        self.freeze_route(state);
        let m = self.current_model(state).ok_or(Step::Terminated)?;
        let c = self.smallest_band_value(state, v, evaluate(&self.cx.pool, v, &m));
        if counts == Counts::CopiedBytes && c >= MAX_EXPLORED_LENGTH {
            let msg = format!(
                "{what} depends on the input and no value below {MAX_EXPLORED_LENGTH} bytes was found for it \
                 on this path (the solver's value is {c}); lengths this large are not explored"
            );
            self.report(state, FindingKind::Unsupported, loc, msg, None, None);
            return Err(Step::Terminated);
        }
        let ce = self.cx.pool.constant(self.cx.pool.width(v), c);
        let is_c = self.cx.pool.eq(v, ce);
        let other = self.cx.pool.not(is_c);
        let explored = self.size_values.entry(loc).or_insert(0);
        *explored += 1;
        if *explored < MAX_SIZE_VALUES {
            let (_, rest) = self.branch(state, is_c);
            if let Some(mut rest) = rest {
                rest.frame_mut().pc -= 1;
                self.pending.push(rest);
            }
        } else if *explored == MAX_SIZE_VALUES {
            if let crate::check::Feasibility::Sat(_) = self.cx.decider.feasible(&self.cx.pool, &state.path, other) {
                let msg = format!(
                    "{what} depends on the input and takes more than {MAX_SIZE_VALUES} values here; \
                     the values after the first {MAX_SIZE_VALUES} were not explored"
                );
                self.report(state, FindingKind::Unsupported, loc, msg, None, None);
            }
        }
        if self.assume(state, is_c) {
            Ok(c as u64)
        } else {
            Err(Step::Terminated)
        }
    }

    /// `modelled`, the model's value of `v`, or a value from the smallest
    /// band of `SIZE_BANDS` the path allows when `modelled` is above it.
    /// A band the solver cannot decide is passed over.
    fn smallest_band_value(&mut self, state: &State, v: ExprId, modelled: u128) -> u128 {
        let width = self.cx.pool.width(v);
        for band in SIZE_BANDS {
            if modelled < band || (width < 128 && band >> width != 0) {
                return modelled;
            }
            let bound = self.cx.pool.constant(width, band);
            let below = self.cx.pool.cmp(CmpOp::Ult, v, bound);
            if let crate::check::Feasibility::Sat(m) = self.cx.decider.feasible(&self.cx.pool, &state.path, below) {
                return evaluate(&self.cx.pool, v, &m);
            }
        }
        modelled
    }
}

impl<'m> Executor<'m> {
    /// The location of the instruction the top frame is executing (its pc
    /// has already moved past it).
    pub(in crate::exec) fn current_inst_loc(&self, state: &State) -> Option<Loc> {
        let frame = state.stack.last()?;
        let func = self.cx.module.function(frame.func);
        let block = func.blocks.get(frame.block.0 as usize)?;
        block.insts.get(frame.pc.checked_sub(1)?).map(|i| i.loc)
    }
}
