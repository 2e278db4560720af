//! The promises of `getelementptr` (README, "Undefined behaviour"):
//! `inbounds` says that the base and the result lie in one object (or one
//! past its end), C's rule for pointer arithmetic; `nuw` that no offset
//! addition wraps around as an unsigned number. clang writes `inbounds` on
//! nearly every address computation, at every optimisation level. Where a
//! promise is broken the result is poison, marked as the other undefined
//! operations' (undefined.rs): computing `a + 10` of `int a[4]` and
//! throwing it away is no finding, but comparing it, passing it to a
//! library function, or moving it back (`a + 10 - 8`) and reading through
//! it is one, `out-of-bounds-pointer-arithmetic`, placed at the GEP.
//!
//! An access through a pointer that is still outside its object is the
//! access's own `out-of-bounds` finding, which AddressSanitizer reproduces:
//! so a load or store checks the poison of its address only after the
//! access was resolved (exec/memory/mem_ops.rs), on the inputs for which
//! it lands inside an object, and needs no query when it lands inside the
//! object the GEP left (the access's bounds contradict the GEP's breach).
//!
//! Objects are found by address (each is followed by a gap, so one past
//! the end belongs to it): the base's object is the one its value lies in,
//! read from a constant, from the base's interval range, or from the
//! path's model. With the model, the test covers that object only: a
//! pointer that may be in several is checked against the one the model
//! picks, never blamed for leaving another (no false finding; a breach
//! through another object may go unseen).
//!
//! Kernels and the runtime model's own code keep their results, as for
//! the other promises (cast_promises.rs).

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::{evaluate, CmpOp, ExprId, ExprPool};
use crate::ir::{Function, Loc, Operand, PoisonFlags};
use crate::memory::{Access, ObjectKind};
use crate::ranges::{PathRanges, RangeAnalysis};

/// The ranges a GEP's test reads: from structure, and from the facts of
/// the path (with its constraints).
type GepRanges<'a> = (&'a mut RangeAnalysis, &'a mut PathRanges, &'a [ExprId]);
use crate::report::UndefinedOperation;

/// One addition of a GEP: the address before it, the term added (an
/// index times its scale, or the constant offset), and for an index, the
/// index and its scale.
pub(in crate::exec) struct GepStep {
    pub before: ExprId,
    pub after: ExprId,
    pub index: Option<(ExprId, i64)>,
}

impl<'m> Executor<'m> {
    /// Marks the result `addr` of a GEP from `base` poison where its
    /// `inbounds` or `nuw` promise is broken. `steps` are its additions in
    /// order.
    pub(in crate::exec) fn gep_promise_poison(
        &mut self,
        state: &mut State,
        loc: Loc,
        flags: PoisonFlags,
        base: ExprId,
        addr: ExprId,
        steps: &[GepStep],
    ) {
        if state.gpu.is_some() || self.in_runtime_model(loc) {
            return;
        }
        let r = smallvec::smallvec![addr];
        if flags.inbounds {
            if let Some((start, end)) = self.base_object(state, base) {
                let (p, ranges) = (&mut self.cx.pool, &mut self.shadow.operand_ranges);
                let on_path = &mut self.shadow.path_ranges;
                let broken = left_object(p, (ranges, on_path, &state.path), base, addr, start, end);
                let what = format!(
                    "pointer arithmetic (an `inbounds` address computation) that leaves its object of {} bytes: only addresses inside it or one past its end may be computed",
                    end - start
                );
                self.record_poison(loc, UndefinedOperation::OutOfBoundsPointerArithmetic, what, &[broken], &r);
            }
        }
        if flags.nuw {
            let p = &mut self.cx.pool;
            let mut broken = p.bool_const(false);
            for s in steps {
                let wrapped = p.cmp(CmpOp::Ult, s.after, s.before);
                broken = p.or(broken, wrapped);
                if let Some((i, scale)) = s.index.filter(|(_, k)| *k > 1) {
                    let limit = p.constant(64, (u64::MAX / scale as u64) as u128);
                    let over = p.cmp(CmpOp::Ult, limit, i);
                    broken = p.or(broken, over);
                }
            }
            let what = "an address computation marked `nuw` whose offsets wrap around as unsigned numbers (a negative index)".to_string();
            self.record_poison(loc, UndefinedOperation::BrokenPromise, what, &[broken], &r);
        }
    }

    /// The extent `[start, end]` (end: one past the last byte) of the
    /// object `base` points into, when one is known: from a constant, the
    /// interval range, or the path's model. None for a pointer into no
    /// object, a function, or an object whose size the models keep.
    fn base_object(&mut self, state: &mut State, base: ExprId) -> Option<(u64, u64)> {
        let at = match self.cx.pool.as_const(base) {
            Some(b) => b as u64,
            None => {
                let r = self.shadow.operand_ranges.range(&self.cx.pool, base).unsigned;
                let (lo, hi) = (r.lo.max(0) as u64, r.hi.min(u64::MAX as i128) as u64);
                let one = state.memory.object_near(lo).filter(|o| state.memory.object_near(hi) == Some(*o));
                match one {
                    Some(_) => lo,
                    None => {
                        let m = self.current_model(state)?;
                        evaluate(&self.cx.pool, base, &m) as u64
                    }
                }
            }
        };
        let o = state.memory.object(state.memory.object_near(at)?);
        if o.address_only || o.kind == ObjectKind::Function {
            return None;
        }
        Some((o.base, o.base + o.size))
    }

    /// Whether an origin is the poison of a GEP that left its object.
    pub(in crate::exec) fn is_breach(&self, origin: crate::memory::OriginId) -> bool {
        self.shadow.origin(origin).undefined == Some(UndefinedOperation::OutOfBoundsPointerArithmetic)
    }

    /// The address `ptr` (value `addr`) of a load or store was resolved to
    /// `access`: a GEP's breach of its object in the address's shadow is
    /// a use now, on the inputs for which the access landed inside an
    /// object (the rest was the access's `out-of-bounds` finding).
    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec) fn breach_after_access(
        &mut self,
        state: &mut State,
        func: &Function,
        ptr: &Operand,
        addr: ExprId,
        access: &Access,
        loc: Loc,
        what: &str,
    ) -> Result<(), Step> {
        if !self.shadow_active(state) {
            return Ok(());
        }
        let Some(s) = self.operand_shadow(state, func, ptr, loc).filter(|s| self.is_breach(s.origin)) else { return Ok(()) };
        let o = state.memory.object(access.object);
        if !o.address_only && self.breach_ruled_out_by_access(&s.mask, addr, o.base, o.size) {
            return Ok(());
        }
        if self.uninit_use(state, &s, loc, what) {
            Ok(())
        } else {
            Err(Step::Terminated)
        }
    }

    /// Whether the poison `mask` of an address just accessed at `addr`,
    /// inside the object `[start, start + size)`, is exactly a GEP's
    /// breach of that object by `addr`: the access's bounds then rule it
    /// out, and no query is needed.
    pub(in crate::exec) fn breach_ruled_out_by_access(&mut self, mask: &[ExprId], addr: ExprId, start: u64, size: u64) -> bool {
        let p = &mut self.cx.pool;
        let [lane] = mask else { return false };
        let out = outside(p, addr, start, start + size);
        let out = p.sext(out, 64);
        out == *lane
    }
}

/// Whether `addr` is outside `[start, end]`.
fn outside(p: &mut ExprPool, addr: ExprId, start: u64, end: u64) -> ExprId {
    let (s, e) = (p.constant(64, start as u128), p.constant(64, end as u128));
    let below = p.cmp(CmpOp::Ult, addr, s);
    let above = p.cmp(CmpOp::Ult, e, addr);
    p.or(below, above)
}

/// Whether a GEP from `base` (in `[start, end]`) to `addr` leaves the
/// object; false without a query where constants or interval ranges keep
/// `addr` inside: from the expressions' structure, then from the facts of
/// the path (`symcross_assume(n <= 8)` bounds `&a[n]`; a path's condition
/// only grows, so they hold wherever the result is used).
fn left_object(p: &mut ExprPool, ranges: GepRanges, base: ExprId, addr: ExprId, start: u64, end: u64) -> ExprId {
    let (structural, on_path, path) = ranges;
    let mut inside = |p: &mut ExprPool, e: ExprId| {
        let within = |r: crate::ranges::Interval| r.lo >= start as i128 && r.hi <= end as i128;
        match p.as_const(e) {
            Some(v) => (start as u128..=end as u128).contains(&v),
            None => within(structural.range(p, e).unsigned) || (!path.is_empty() && within(on_path.on(p, path).range(p, e).unsigned)),
        }
    };
    if inside(p, addr) {
        return p.bool_const(false);
    }
    let base_inside = inside(p, base);
    let out = outside(p, addr, start, end);
    if base_inside {
        return out;
    }
    // A base that may itself be outside (in the gap after its object) is
    // another breach's, or not C's pointer at all: only a base inside
    // makes this GEP the one to blame.
    let base_out = outside(p, base, start, end);
    let base_in = p.not(base_out);
    p.and(base_in, out)
}
