//! The instructions the fast tier runs on raw vectors (raw_lanes.rs):
//! integer arithmetic and comparisons lane by lane, bit casts, integer
//! casts, shuffles, lane extraction and insertion, and loads and stores of
//! constant bytes. Each gives the lanes the general step's constant
//! folding gives, with the same definedness tests as the one-lane
//! operations of run.rs; anything else (a lane that is not a number, an
//! `undef` lane, a division, a shape raw vectors do not hold) is left to
//! the tier's handle path or to the general step, before anything
//! changes.

use super::decode::{CastKind, ConstLanes, Op, Src};
use super::raw_lanes::{fits, vector_shape, Raw, RawRegs};
use super::run::{arith, compare, defined_word, make, number, plain_access, plain_place, put, signed, word};
use crate::exec::engine::state::Frame;
use crate::expr::{BinOp, ExprId, ExprPool};
use crate::ir::{PoisonFlags, Type};
use crate::memory::Memory;

/// What became of an instruction on raw vectors.
pub(super) enum RawStep {
    /// Run: its result is written (raw, or a one-lane handle).
    Done,
    /// The general step must run it (the tier's handle path would stop
    /// there too).
    Stop,
    /// Not for raw vectors: the handle path runs it.
    No,
}

/// The raw value of `src` with its `undef` lanes (bit `i`: lane `i`); a
/// register holding handles of numbers is read into a raw value.
#[inline]
fn raw_src(raw: &RawRegs, consts: &[ConstLanes], frame: &Frame, pool: &ExprPool, src: Src) -> Option<(Raw, u64)> {
    match src {
        Src::Reg(r) => match raw.get(r) {
            Some(v) => Some((v, 0)),
            None => Raw::from_handles(pool, frame.regs[r as usize].as_deref()?).map(|v| (v, 0)),
        },
        Src::Lanes(k) => {
            let c = &consts[k as usize];
            c.raw.map(|v| (v, c.undef))
        }
        Src::Imm(e) => Raw::from_handles(pool, &[e]).map(|v| (v, 0)),
        Src::Num { width, value } if fits(width, 1) => {
            let mut v = Raw::zero(width, 1);
            v.set(0, value);
            Some((v, 0))
        }
        Src::Num { .. } => None,
    }
}

/// Whether lane `i` is set in `undef` (bit `i`: lane `i`, at most 64).
#[inline(always)]
fn is_undef(undef: u64, i: u32) -> bool {
    i < 64 && undef >> i & 1 != 0
}

/// `raw_src` of a value with no `undef` lane.
#[inline]
fn defined_src(raw: &RawRegs, consts: &[ConstLanes], frame: &Frame, pool: &ExprPool, src: Src) -> Option<Raw> {
    raw_src(raw, consts, frame, pool, src).filter(|(_, undef)| *undef == 0).map(|(v, _)| v)
}

/// Runs `op` on raw vectors when it is one of those this file runs and
/// its operands are numbers (module comment). `inst_ty`: the
/// instruction's type; `types`: the decoded function's stored types.
#[allow(clippy::too_many_arguments)]
pub(super) fn raw_step(
    op: &Op,
    raw: &mut RawRegs,
    consts: &[ConstLanes],
    frame: &mut Frame,
    pool: &mut ExprPool,
    memory: &mut Memory,
    types: &[Type],
    inst_ty: &Type,
) -> RawStep {
    match op {
        Op::Int { op, flags, dst, a, b } => {
            // Divisions test every divisor before any lane: the handle path's.
            if matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem) {
                return RawStep::No;
            }
            let (Some(x), Some(y)) = (defined_src(raw, consts, frame, pool, *a), defined_src(raw, consts, frame, pool, *b)) else {
                return RawStep::No;
            };
            if x.w != y.w || x.n != y.n || x.n < 2 {
                return RawStep::No;
            }
            if matches!(op, BinOp::And | BinOp::Or | BinOp::Xor) && *flags == PoisonFlags::default() {
                // Bitwise: whole words at once (bits past the lanes stay 0).
                let mut r = x;
                for (z, q) in r.bits.iter_mut().zip(y.bits) {
                    *z = match op {
                        BinOp::And => *z & q,
                        BinOp::Or => *z | q,
                        _ => *z ^ q,
                    };
                }
                raw.write(frame, *dst, r);
                return RawStep::Done;
            }
            let mut r = Raw::zero(x.w, x.n);
            for i in 0..x.n {
                let (p, q) = (x.lane(i), y.lane(i));
                if !defined_word(pool, *op, *flags, x.w, p, q) {
                    return RawStep::Stop;
                }
                r.set(i, arith(*op, x.w, p, q));
            }
            raw.write(frame, *dst, r);
        }
        Op::ICmp { pred, dst, a, b } => {
            let (Some(x), Some(y)) = (defined_src(raw, consts, frame, pool, *a), defined_src(raw, consts, frame, pool, *b)) else {
                return RawStep::No;
            };
            if x.w != y.w || x.n != y.n || x.n < 2 {
                return RawStep::No;
            }
            let mut r = Raw::zero(1, x.n);
            for i in 0..x.n {
                r.set(i, compare(*pred, x.w, x.lane(i), y.lane(i)) as u64);
            }
            raw.write(frame, *dst, r);
        }
        Op::Cast { kind: CastKind::BitCast(to), dst, a } => {
            let Some(x) = defined_src(raw, consts, frame, pool, *a) else { return RawStep::No };
            let Some(r) = x.relaned(*to) else { return RawStep::No };
            if r.n >= 2 {
                raw.write(frame, *dst, r);
            } else {
                // One lane (a scalar type): the handle relane makes of it.
                raw.forget(*dst);
                let e = make(pool, r.w, r.lane(0));
                put(frame, *dst, e);
            }
        }
        Op::Cast { kind, dst, a } => {
            let to = match *kind {
                CastKind::Trunc(to) | CastKind::ZExt(to) | CastKind::SExt(to) | CastKind::Resize(to) => to,
                _ => return RawStep::No,
            };
            let Some(x) = defined_src(raw, consts, frame, pool, *a) else { return RawStep::No };
            if x.n < 2 || !fits(to, x.n) {
                return RawStep::No;
            }
            let sext = matches!(kind, CastKind::SExt(_));
            let mut r = Raw::zero(to, x.n);
            for i in 0..x.n {
                let v = x.lane(i);
                // zext, and truncation to the low bits (resize either way).
                r.set(i, if sext { signed(v, x.w) as u64 } else { v });
            }
            raw.write(frame, *dst, r);
        }
        Op::Shuffle { dst, a, b, mask } => {
            let (Some((x, ux)), Some((y, uy))) = (raw_src(raw, consts, frame, pool, *a), raw_src(raw, consts, frame, pool, *b)) else {
                return RawStep::No;
            };
            let out = mask.len() as u32;
            if x.w != y.w || x.n != y.n || out < 2 || !fits(x.w, out) {
                return RawStep::No;
            }
            let n = x.n as i64;
            let mut r = Raw::zero(x.w, out);
            for (i, &m) in mask.iter().enumerate() {
                // A negative entry or an `undef` lane picked: the result
                // has indeterminate bits, the general step's.
                let m = m as i64;
                let v = if (0..n).contains(&m) && !is_undef(ux, m as u32) {
                    x.lane(m as u32)
                } else if (n..2 * n).contains(&m) && !is_undef(uy, (m - n) as u32) {
                    y.lane((m - n) as u32)
                } else {
                    return RawStep::Stop;
                };
                r.set(i as u32, v);
            }
            raw.write(frame, *dst, r);
        }
        Op::Extract { dst, v, k } => {
            let Some((x, ux)) = raw_src(raw, consts, frame, pool, *v) else { return RawStep::No };
            let Some((_, k)) = number(consts, frame, pool, *k) else { return RawStep::No };
            if x.n < 2 {
                return RawStep::No;
            }
            // An index out of range gives poison in LLVM; the general step
            // reads lane 0 (and lane 0's shadow).
            let i = if k < x.n as u128 { k as u32 } else { 0 };
            if is_undef(ux, i) {
                return RawStep::Stop;
            }
            raw.forget(*dst);
            let e = make(pool, x.w, x.lane(i));
            put(frame, *dst, e);
        }
        Op::Insert { dst, v, e, k } => {
            let Some(mut x) = defined_src(raw, consts, frame, pool, *v) else { return RawStep::No };
            if x.n < 2 {
                return RawStep::No;
            }
            let lane = match word(frame, *e, x.w) {
                Some(l) => l,
                None => match number(consts, frame, pool, *e) {
                    Some((h, l)) if pool.width(h) == x.w => l as u64,
                    _ => return RawStep::No,
                },
            };
            let Some((_, k)) = number(consts, frame, pool, *k) else { return RawStep::No };
            if k < x.n as u128 {
                x.set(k as u32, lane);
            }
            raw.write(frame, *dst, x);
        }
        Op::Load { dst, ptr } => {
            let Some((w, n)) = vector_shape(inst_ty) else { return RawStep::No };
            let len = inst_ty.store_size();
            if n < 2 || !fits(w, n) || w % 8 != 0 || (w * n) as u64 != 8 * len {
                return RawStep::No;
            }
            let Some(addr) = word(frame, *ptr, 64).or_else(|| number(consts, frame, pool, *ptr).map(|(_, a)| a as u64)) else {
                return RawStep::No;
            };
            let Some((obj, off)) = plain_place(memory, addr, len, false) else { return RawStep::No };
            let o = memory.object(obj);
            let written = crate::memory::shadow::tracks_writes(o);
            let mut r = Raw::zero(w, n);
            for (k, word) in r.bits.iter_mut().enumerate().take(len.div_ceil(8) as usize) {
                let at = 8 * k as u64;
                match o.bytes.constant_number(off + at, (len - at).min(8), written) {
                    Some(v) => *word = v,
                    None => return RawStep::No,
                }
            }
            raw.write(frame, *dst, r);
        }
        Op::Store { ptr, val, ty } => {
            let t = &types[*ty as usize];
            let Some((w, n)) = vector_shape(t) else { return RawStep::No };
            let len = t.store_size();
            if n < 2 || w % 8 != 0 || (w * n) as u64 != 8 * len {
                return RawStep::No;
            }
            let Some(x) = defined_src(raw, consts, frame, pool, *val) else { return RawStep::No };
            if x.w * x.n != w * n {
                return RawStep::No;
            }
            let Some(addr) = word(frame, *ptr, 64).or_else(|| number(consts, frame, pool, *ptr).map(|(_, a)| a as u64)) else {
                return RawStep::No;
            };
            let Some((obj, off)) = plain_access(memory, addr, len, true) else { return RawStep::No };
            // A number's bytes, little-endian, as layout.rs lays them out.
            let bytes: smallvec::SmallVec<[Option<ExprId>; 32]> = (0..len as u32).map(|k| Some(ExprId::byte_const(x.byte(k)))).collect();
            memory.object_mut(obj).bytes.write(pool, off, &bytes);
        }
        _ => return RawStep::No,
    }
    RawStep::Done
}
