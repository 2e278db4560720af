//! Running a stretch of instructions on the pre-decoded form (decode.rs).
//! Each instruction either runs exactly as the general step would run it
//! (the same pool calls, or arithmetic that gives the very handles those
//! calls give; the same frame and memory writes; one step counted) or ends
//! the stretch before it changes anything, leaving it to the general step.
//! Arithmetic that can be undefined (division, shifts, `nsw`, `nuw`, `exact`) and
//! conversions run only on constants, where the general step's tests are
//! settled without a query and without a finding; moves of values (phis,
//! selects, stores, calls, returns) carry any expression.

use super::decode::{CastKind, ConstLanes, Edge, FastFunc, Op, Src, Term};
use super::raw_lanes::{Raw, RawRegs};
use super::raw_ops::{raw_step, RawStep};
use crate::exec::engine::device::DeviceState;
use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::{Frame, State};
use crate::exec::ops::int_ops::icmp;
use crate::exec::ops::operand_ranges::signed_bits;
use crate::expr::value::{relane, resize, scalar, Value};
use crate::expr::{BinOp, ExprId, ExprPool};
use crate::ir::{BlockId, Function, ICmpPred, PoisonFlags, RegId};
use crate::memory::{Memory, ObjectId, ObjectKind};
use std::rc::Rc;

/// Why a run in one frame stopped.
enum Exit {
    /// The next instruction is the general step's.
    Stop,
    /// The instruction at the frame's `pc` is a call the tier makes.
    Call,
    /// The block's terminator is a return of this operand.
    Return(Option<Src>),
    /// The instruction at the frame's `pc` is a work-item's load or store
    /// at a constant address inside a `__global` buffer, which
    /// `fast_global_access` runs with the whole state (the race record).
    Access,
}

/// A value read for a move: one lane, or a whole value.
enum Moved {
    Lane(ExprId),
    Wide(Value),
}

/// The value of `src` in `frame`; None for a register not yet assigned
/// (the general step reads it as `undef`).
#[inline(always)]
fn value(consts: &[ConstLanes], frame: &Frame, pool: &mut ExprPool, src: Src) -> Option<Value> {
    match src {
        Src::Reg(r) => match &frame.regs[r as usize] {
            Some(v) if v.len() == 1 => Some(scalar(v[0])),
            Some(v) => Some(Value::from_slice(v)),
            None => None,
        },
        Src::Imm(e) => Some(scalar(e)),
        Src::Num { width, value } => Some(scalar(pool.constant(width, value as u128))),
        Src::Lanes(k) => defined_lanes(consts, k).map(Value::from_slice),
    }
}

/// The lanes of constant `k` when none is `undef`: an `undef` lane has a
/// shadow in the general step, which the tier does not compute.
#[inline]
fn defined_lanes(consts: &[ConstLanes], k: u32) -> Option<&[ExprId]> {
    let c = &consts[k as usize];
    (c.undef == 0).then_some(&c.value[..])
}

/// `value`, without copying a one-lane value into a new `Value`.
#[inline(always)]
fn moved(consts: &[ConstLanes], frame: &Frame, pool: &mut ExprPool, src: Src) -> Option<Moved> {
    match src {
        Src::Reg(r) => match &frame.regs[r as usize] {
            Some(v) if v.len() == 1 => Some(Moved::Lane(v[0])),
            Some(v) => Some(Moved::Wide(Value::from_slice(v))),
            None => None,
        },
        Src::Imm(e) => Some(Moved::Lane(e)),
        Src::Num { width, value } => Some(Moved::Lane(pool.constant(width, value as u128))),
        Src::Lanes(k) => defined_lanes(consts, k).map(|v| Moved::Wide(Value::from_slice(v))),
    }
}

/// The first lane of `src`.
#[inline(always)]
pub(super) fn lane(consts: &[ConstLanes], frame: &Frame, pool: &mut ExprPool, src: Src) -> Option<ExprId> {
    match src {
        Src::Reg(r) => frame.regs[r as usize].as_ref().map(|v| v[0]),
        Src::Imm(e) => Some(e),
        Src::Num { width, value } => Some(pool.constant(width, value as u128)),
        Src::Lanes(k) => defined_lanes(consts, k).map(|v| v[0]),
    }
}

/// The handle and the number of a constant one-lane operand.
#[inline(always)]
pub(super) fn number(consts: &[ConstLanes], frame: &Frame, pool: &mut ExprPool, src: Src) -> Option<(ExprId, u128)> {
    let e = lane(consts, frame, pool, src)?;
    Some((e, pool.as_const(e)?))
}

/// A one-lane operand of `w` (at most 64) bits that is a constant
/// carried inline, as a number; None for anything else.
#[inline(always)]
pub(super) fn word(frame: &Frame, src: Src, w: u32) -> Option<u64> {
    if w > 64 {
        return None;
    }
    match src {
        Src::Reg(r) => frame.regs[r as usize].as_ref()?.first()?.as_word_const(w),
        Src::Imm(e) => e.as_word_const(w),
        Src::Num { .. } | Src::Lanes(_) => None,
    }
}

/// The handle of the constant `v` of `w` (at most 64) bits, as
/// `ExprPool::constant` gives it.
#[inline(always)]
pub(super) fn make(pool: &mut ExprPool, w: u32, v: u64) -> ExprId {
    match ExprId::word_const(w, v) {
        Some(e) => e,
        None => pool.constant(w, v as u128),
    }
}

/// All ones in the low `w` bits (1 to 64).
#[inline(always)]
pub(super) fn ones(w: u32) -> u64 {
    u64::MAX >> (64 - w)
}

/// `v` (of `w` bits) sign-extended.
#[inline(always)]
pub(super) fn signed(v: u64, w: u32) -> i64 {
    ((v << (64 - w)) as i64) >> (64 - w)
}

/// `op` on the `w`-bit numbers `a` and `b`, as fold.rs folds it, for an
/// operation `defined` allows (no division by zero or overflowing signed
/// division, no shift by the width or more).
#[inline(always)]
pub(super) fn arith(op: BinOp, w: u32, a: u64, b: u64) -> u64 {
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::UDiv => a / b,
        BinOp::URem => a % b,
        BinOp::SDiv => signed(a, w).wrapping_div(signed(b, w)) as u64,
        BinOp::SRem => signed(a, w).wrapping_rem(signed(b, w)) as u64,
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Shl => a << b,
        BinOp::LShr => a >> b,
        BinOp::AShr => (signed(a, w) >> b) as u64,
    };
    r & ones(w)
}

/// An integer comparison of the `w`-bit numbers `a` and `b`.
#[inline(always)]
pub(super) fn compare(pred: ICmpPred, w: u32, a: u64, b: u64) -> bool {
    match pred {
        ICmpPred::Eq => a == b,
        ICmpPred::Ne => a != b,
        ICmpPred::Ult => a < b,
        ICmpPred::Ule => a <= b,
        ICmpPred::Ugt => a > b,
        ICmpPred::Uge => a >= b,
        ICmpPred::Slt => signed(a, w) < signed(b, w),
        ICmpPred::Sle => signed(a, w) <= signed(b, w),
        ICmpPred::Sgt => signed(a, w) > signed(b, w),
        ICmpPred::Sge => signed(a, w) >= signed(b, w),
    }
}

/// The width a one-lane cast gives.
#[inline(always)]
fn cast_width(kind: CastKind) -> u32 {
    match kind {
        CastKind::Trunc(w) | CastKind::ZExt(w) | CastKind::SExt(w) | CastKind::Resize(w) | CastKind::BitCast(w) => w,
        CastKind::FpConvert(_, to) | CastKind::IntToFp(_, to) => to.width(),
    }
}

/// The value of `src` when every lane is a constant.
#[inline]
fn constant(consts: &[ConstLanes], frame: &Frame, pool: &mut ExprPool, src: Src) -> Option<Value> {
    match src {
        Src::Reg(r) => {
            let v = frame.regs[r as usize].as_ref()?;
            v.iter().all(|l| pool.is_const(*l)).then(|| Value::from_slice(v))
        }
        Src::Imm(e) => Some(scalar(e)),
        Src::Num { width, value } => Some(scalar(pool.constant(width, value as u128))),
        Src::Lanes(k) => defined_lanes(consts, k).map(Value::from_slice),
    }
}

/// The lane of `src` when it is one constant lane: `constant` for the
/// scalar paths, which then build no `Value` for their operands or their
/// result (a host loop's float arithmetic is one lane at a time).
#[inline(always)]
fn constant_lane(consts: &[ConstLanes], frame: &Frame, pool: &mut ExprPool, src: Src) -> Option<ExprId> {
    match src {
        Src::Reg(r) => match frame.regs[r as usize].as_deref() {
            Some(&[l]) if pool.is_const(l) => Some(l),
            _ => None,
        },
        Src::Imm(e) => Some(e),
        Src::Num { width, value } => Some(pool.constant(width, value as u128)),
        Src::Lanes(k) => match defined_lanes(consts, k) {
            Some(&[l]) => Some(l),
            _ => None,
        },
    }
}

/// The lanes of a register (holding no indeterminate bits, checked by the
/// caller) or of a constant, with the constant's `undef` lanes (bit `i`:
/// lane `i`).
#[inline]
fn lanes_of<'a>(consts: &'a [ConstLanes], frame: &'a Frame, src: Src) -> Option<(&'a [ExprId], u64)> {
    match src {
        Src::Reg(r) => frame.regs[r as usize].as_ref().map(|v| (&v[..], 0)),
        Src::Lanes(k) => Some((&consts[k as usize].value[..], consts[k as usize].undef)),
        Src::Imm(_) | Src::Num { .. } => None,
    }
}

/// Whether `src` is a register holding indeterminate bits.
#[inline]
fn is_shadowed(frame: &Frame, src: Src) -> bool {
    matches!(src, Src::Reg(r) if frame.shadows.contains_key(&RegId(r)))
}

/// Writes a one-lane result, in place when the register holds one lane.
#[inline(always)]
pub(super) fn put(frame: &mut Frame, dst: u32, e: ExprId) {
    match &mut frame.regs[dst as usize] {
        Some(v) if v.len() == 1 => v[0] = e,
        slot => *slot = Some(scalar(e)),
    }
}

#[inline(always)]
fn put_moved(frame: &mut Frame, dst: u32, m: Moved) {
    match m {
        Moved::Lane(e) => put(frame, dst, e),
        Moved::Wide(v) => frame.regs[dst as usize] = Some(v),
    }
}

/// `relane` of lanes that are all constants (of at most 128 bits, into
/// lanes of at most 128): the very pool calls it makes (`constant` for
/// each piece it extracts and each partial concatenation, in its order),
/// without its walk through the general `extract` and `concat` and the
/// vector of pieces each lane builds. None when a lane is not a constant.
fn relane_numbers(pool: &mut ExprPool, lanes: &[ExprId], to_bits: u32) -> Option<Value> {
    if to_bits == 0 || to_bits > 128 {
        return None;
    }
    if let Some(words) = relane_words(pool, lanes, to_bits) {
        return words;
    }
    let mut numbers: smallvec::SmallVec<[(u32, u128); 16]> = smallvec::SmallVec::new();
    for l in lanes {
        numbers.push((pool.width(*l), pool.as_const(*l)?));
    }
    if numbers.iter().all(|(w, _)| *w == to_bits) {
        return Some(lanes.iter().copied().collect());
    }
    let total: u32 = numbers.iter().map(|(w, _)| *w).sum();
    let mut out = Value::new();
    let mut start = 0;
    while start + to_bits <= total {
        let end = start + to_bits;
        // `bit_range`: the pieces low first, each joined above the ones
        // before it; (handle, width, value) of the bits joined so far.
        let mut acc: Option<(ExprId, u32, u128)> = None;
        let mut lane_lo = 0;
        for (k, &(w, v)) in numbers.iter().enumerate() {
            let lane_hi = lane_lo + w;
            let (lo, hi) = (start.max(lane_lo), end.min(lane_hi));
            if lo < hi {
                let (off, pw) = (lo - lane_lo, hi - lo);
                // `extract`: the lane itself when whole, else a constant.
                let piece =
                    if off == 0 && pw == w { (lanes[k], v) } else { (pool.constant(pw, v >> off), (v >> off) & crate::expr::mask(pw)) };
                acc = Some(match acc {
                    None => (piece.0, pw, piece.1),
                    // `concat`: the constant of both.
                    Some((_, aw, av)) => {
                        let joined = (piece.1 << aw) | av;
                        (pool.constant(pw + aw, joined), pw + aw, joined & crate::expr::mask(pw + aw))
                    }
                });
            }
            lane_lo = lane_hi;
            if lane_lo >= end {
                break;
            }
        }
        out.push(acc?.0);
        start = end;
    }
    Some(out)
}

/// `relane_numbers` for the common bit casts of SIMD code: lanes of `w`
/// bits (at most 64, all alike) into lanes of `to_bits` (at most 64), one
/// width a multiple of the other. There every constant `relane_numbers`
/// makes but the results is narrow enough to be carried inline (a join
/// short of the result has at most `to_bits - w <= 56` bits; a piece of a
/// wider lane is a result), so making only the results, in order, leaves
/// the pool as its calls leave it. The lanes are streamed through one
/// bit buffer instead of rescanned for each result. None when the cast is
/// not of that shape; `Some(None)` when a lane is not a constant.
fn relane_words(pool: &mut ExprPool, lanes: &[ExprId], to_bits: u32) -> Option<Option<Value>> {
    let w = pool.width(*lanes.first()?);
    let joins = to_bits.is_multiple_of(w) && to_bits - w <= 56;
    let splits = w.is_multiple_of(to_bits);
    if w > 64 || to_bits > 64 || !(joins || splits) {
        return None;
    }
    // Every lane a constant before anything is made, as `relane_numbers`
    // reads them all first.
    let mut numbers: smallvec::SmallVec<[u64; 16]> = smallvec::SmallVec::new();
    for l in lanes {
        if pool.width(*l) != w {
            return None;
        }
        match l.as_word_const(w).or_else(|| pool.as_const(*l).map(|v| v as u64)) {
            Some(v) => numbers.push(v),
            None => return Some(None),
        }
    }
    if w == to_bits {
        return Some(Some(lanes.iter().copied().collect()));
    }
    let mut out = Value::with_capacity(numbers.len() * w as usize / to_bits as usize);
    let (mut buffer, mut held) = (0u128, 0u32);
    for v in numbers {
        buffer |= (v as u128) << held;
        held += w;
        while held >= to_bits {
            out.push(make(pool, to_bits, (buffer as u64) & ones(to_bits)));
            buffer >>= to_bits;
            held -= to_bits;
        }
    }
    Some(Some(out))
}

/// What an integer operation on vectors of constant lanes gives.
enum WordLanes {
    /// Every lane defined: the results, the handles `pool.bin` gives.
    Defined(Value),
    /// A lane the general step must look at (a flag broken, a shift too far).
    Undefined,
    /// Not lanes of constants of at most 64 bits, or a division: left to
    /// the lane-by-lane path.
    Other,
}

/// `Op::Int` on vectors whose lanes are all constants of one width (at
/// most 64 bits), by the same arithmetic and definedness tests as a
/// one-lane `Op::Int1`, without a pool call per lane. Divisions are left
/// to the general path, which tests every divisor before any lane.
fn word_lanes(pool: &mut ExprPool, op: BinOp, flags: PoisonFlags, a: &Value, b: &Value) -> WordLanes {
    if matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem) || a.len() != b.len() {
        return WordLanes::Other;
    }
    let Some(first) = a.first() else { return WordLanes::Other };
    let w = pool.width(*first);
    if w > 64 {
        return WordLanes::Other;
    }
    let mut pairs: smallvec::SmallVec<[(u64, u64); 16]> = smallvec::SmallVec::new();
    for (x, y) in a.iter().zip(b.iter()) {
        let number = |pool: &ExprPool, e: &ExprId| e.as_word_const(w).or_else(|| pool.as_const(*e).map(|v| v as u64));
        let (Some(x), Some(y)) = (number(pool, x), number(pool, y)) else { return WordLanes::Other };
        pairs.push((x, y));
    }
    if !pairs.iter().all(|&(x, y)| defined_word(pool, op, flags, w, x, y)) {
        return WordLanes::Undefined;
    }
    WordLanes::Defined(pairs.into_iter().map(|(x, y)| make(pool, w, arith(op, w, x, y))).collect())
}

/// `f` lane by lane, as the general step's `map2`.
fn map2(pool: &mut ExprPool, a: &Value, b: &Value, mut f: impl FnMut(&mut ExprPool, ExprId, ExprId) -> ExprId) -> Value {
    a.iter().zip(b.iter()).map(|(x, y)| f(pool, *x, *y)).collect()
}

/// How many bits the constant `v` of `w` bits needs as a signed number,
/// as operand_ranges.rs counts them.
#[inline]
fn signed_bits_of(v: u128, w: u32) -> u32 {
    let s = crate::expr::to_signed(v, w);
    let magnitude = if s < 0 { !s } else { s };
    (129 - magnitude.leading_zeros().min(128)).clamp(1, w)
}

/// Whether integer `op` on the constants `x` and `y` (`w` bits) is
/// defined, so that the general step would neither report nor mark
/// anything: no division by zero or of the minimum by -1, no shift by the
/// width or more, no signed overflow of an `nsw` operation as the general
/// step rules it out (from the operands' signed bits; anything else is
/// left to it), and every `nuw` or `exact` promise kept.
#[inline]
fn defined(pool: &mut ExprPool, op: BinOp, flags: PoisonFlags, w: u32, x: u128, y: u128) -> bool {
    if !crate::exec::ops::undefined::flags_kept(op, flags, w, x, y) {
        return false;
    }
    match op {
        BinOp::UDiv | BinOp::URem => y != 0,
        BinOp::SDiv | BinOp::SRem => {
            let min = 1u128 << (w - 1);
            // The general step builds the minimum to compare with; a wide
            // one is a pool entry, made here in the same order.
            if y != 0 {
                pool.constant(w, min);
            }
            y != 0 && !(y == crate::expr::mask(w) && x == min)
        }
        BinOp::Shl | BinOp::LShr | BinOp::AShr => y < w as u128,
        BinOp::Add | BinOp::Sub if flags.nsw => signed_bits_of(x, w).max(signed_bits_of(y, w)) < w,
        BinOp::Mul if flags.nsw => signed_bits_of(x, w) + signed_bits_of(y, w) <= w,
        _ => true,
    }
}

/// Whether the constant `v` of `from` bits keeps the promises of a
/// one-lane cast's flags (a broken one is the general step's poison).
fn promises_kept(kind: CastKind, flags: PoisonFlags, from: u32, v: u128) -> bool {
    use crate::exec::ops::cast_promises::cast_flags_kept;
    match kind {
        CastKind::Trunc(to) => cast_flags_kept(crate::ir::CastOp::Trunc, flags, from, to, v),
        CastKind::ZExt(to) => cast_flags_kept(crate::ir::CastOp::ZExt, flags, from, to, v),
        _ => true,
    }
}

/// `defined` for numbers of `w` (at most 64) bits.
#[inline(always)]
pub(super) fn defined_word(pool: &mut ExprPool, op: BinOp, flags: PoisonFlags, w: u32, x: u64, y: u64) -> bool {
    // Signed bits as operand_ranges.rs counts them.
    let bits = |v: u64| {
        let s = signed(v, w);
        let magnitude = if s < 0 { !s } else { s };
        (65 - magnitude.leading_zeros()).max(1).min(w)
    };
    if (flags.nuw || flags.exact || flags.disjoint || (flags.nsw && op == BinOp::Shl))
        && !crate::exec::ops::undefined::flags_kept(op, flags, w, x as u128, y as u128)
    {
        return false;
    }
    match op {
        BinOp::Add | BinOp::Sub if flags.nsw => bits(x).max(bits(y)) < w,
        BinOp::Mul if flags.nsw => bits(x) + bits(y) <= w,
        BinOp::UDiv | BinOp::URem => y != 0,
        BinOp::SDiv | BinOp::SRem => defined(pool, op, flags, w, x as u128, y as u128),
        BinOp::Shl | BinOp::LShr | BinOp::AShr => y < w as u64,
        _ => true,
    }
}

/// `defined` lane by lane, divisors first (the general step's order).
fn lanes_defined(pool: &mut ExprPool, op: BinOp, flags: PoisonFlags, a: &Value, b: &Value) -> bool {
    if matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem) && b.iter().any(|d| pool.as_const(*d) == Some(0)) {
        return false;
    }
    a.iter().zip(b.iter()).all(|(x, y)| {
        let (Some(xv), Some(yv)) = (pool.as_const(*x), pool.as_const(*y)) else { return false };
        let w = pool.width(*x);
        if !crate::exec::ops::undefined::flags_kept(op, flags, w, xv, yv) {
            return false;
        }
        if flags.nsw && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) {
            // Through the general step's own count, for expressions too.
            let (sa, sb) = (signed_bits(pool, *x), signed_bits(pool, *y));
            return match op {
                BinOp::Mul => sa + sb <= w,
                _ => sa.max(sb) < w,
            };
        }
        defined(pool, op, flags, w, xv, yv)
    })
}

/// The object and offset of a `len`-byte access at `addr` when it stays
/// inside a live object whose bytes there are all defined (for a write:
/// not read-only, and no indeterminate bytes to clear): the general step
/// then resolves it to the same place with no finding and no shadow.
#[inline]
pub(super) fn plain_access(memory: &Memory, addr: u64, len: u64, write: bool) -> Option<(ObjectId, u64)> {
    let (obj, off) = plain_place(memory, addr, len, write)?;
    if write {
        return Some((obj, off));
    }
    crate::memory::shadow::range_is_defined(memory.object(obj), off, len).then_some((obj, off))
}

/// `plain_access` but for the bytes read being defined, which the caller
/// checks.
#[inline]
pub(super) fn plain_place(memory: &Memory, addr: u64, len: u64, write: bool) -> Option<(ObjectId, u64)> {
    let obj = memory.object_near(addr)?;
    let o = memory.object(obj);
    if o.freed || o.kind == ObjectKind::Function || o.address_only || o.size < len || !o.poison.is_empty() {
        return None;
    }
    // Device memory (an OpenCL buffer, a cudaMalloc block) is the models'
    // to watch: a host access to it may be a finding (host code
    // dereferencing a CUDA device pointer), so the general step makes it.
    if o.addr_space != crate::ir::PRIVATE_SPACE {
        return None;
    }
    let off = addr.wrapping_sub(o.base);
    if off > o.size - len {
        return None;
    }
    (!write || !o.read_only).then_some((obj, off))
}

/// Where a kernel's work-item's load or store at a constant address
/// goes on the tier.
pub(super) enum DevicePlace {
    /// A private object (a variable of the work-item's, an `-O0`
    /// argument's slot): the general step's hooks observe nothing there
    /// (the race log keeps `__global` and `__local` accesses; only a
    /// buffer is ever write-only), so it runs as the host's does.
    Private,
    /// A `__global` buffer: run with the race record (`Exit::Access`).
    Global,
    /// Anything else (`__local`, `__constant`, no object, a misaligned
    /// address): the general step's.
    No,
}

/// Where a load or store (aligned to `align`) of a work-item at the
/// constant address `addr` runs. A misaligned address is the general
/// step's finding: at an aligned one (or an alignment of at most 1)
/// `check_alignment` reports nothing, and the general step skips it.
#[inline]
pub(super) fn device_place(memory: &Memory, align: u64, addr: u64) -> DevicePlace {
    // IR alignments are powers of two: a mask, not a division per access.
    let misaligned = if align.is_power_of_two() { addr & (align - 1) != 0 } else { align > 1 && !addr.is_multiple_of(align) };
    if misaligned {
        return DevicePlace::No;
    }
    let Some(obj) = memory.object_near(addr) else { return DevicePlace::No };
    match memory.object(obj).addr_space {
        crate::ir::PRIVATE_SPACE => DevicePlace::Private,
        crate::ir::GLOBAL_SPACE => DevicePlace::Global,
        _ => DevicePlace::No,
    }
}

/// The value of the `width`-bit scalar of type `ty` that `bytes` hold:
/// concrete bytes make the number directly, as layout.rs does.
#[inline]
pub(super) fn value_of_bytes(pool: &mut ExprPool, ty: &crate::ir::Type, width: u32, bytes: &crate::memory::Bytes) -> ExprId {
    let mut v: u128 = 0;
    for byte in bytes.iter().rev() {
        match byte.as_byte_const() {
            Some(x) => v = (v << 8) | x as u128,
            None => return crate::memory::layout::bytes_to_value(pool, ty, bytes)[0],
        }
    }
    pool.constant(width, v)
}

/// The bytes a store of the one-lane value `x` of type `t` (`len` bytes)
/// writes: a number's, little-endian, as layout.rs lays them out.
#[inline]
pub(super) fn stored_bytes(pool: &mut ExprPool, t: &crate::ir::Type, x: ExprId, len: u32) -> smallvec::SmallVec<[Option<ExprId>; 32]> {
    let w = t.scalar_bits();
    match x.as_word_const(w).filter(|_| w <= 64 && w.div_ceil(8) == len) {
        Some(v) => (0..len).map(|k| Some(ExprId::byte_const((v >> (8 * k)) as u8))).collect(),
        None => crate::memory::layout::value_to_bytes(pool, t, std::slice::from_ref(&x)),
    }
}

/// Whether an `inbounds` GEP from `base` to `addr` keeps to the base's
/// object (or the base is in none): else the general step marks the
/// breach (exec/ops/gep_promises.rs).
#[inline(always)]
fn keeps_to_object(memory: &Memory, pool: &ExprPool, base: ExprId, addr: ExprId) -> bool {
    let number = |e: ExprId| e.as_word_const(64).or_else(|| pool.as_const(e).map(|v| v as u64));
    let (Some(b), Some(a)) = (number(base), number(addr)) else { return false };
    // The usual case, a base inside an object (a loop's array), answered
    // from the memory's last extent without a lookup.
    if let Some((lo, end)) = memory.extent_holding(b) {
        return lo <= a && a <= end;
    }
    let Some(obj) = memory.object_near(b) else { return true };
    let o = memory.object(obj);
    let end = o.base + o.size;
    !(o.base..=end).contains(&b) || (o.base..=end).contains(&a)
}

/// A GEP on constants computed as one sum, when the general step's
/// sequence of pool calls would give the same handle with no pool entry
/// made on the way (every partial result carried inline). Inlined: a
/// call per address computation cost a quarter of it.
#[inline(always)]
fn gep_numbers(frame: &Frame, pool: &mut ExprPool, base: ExprId, offset: i64, terms: &[(Src, i64, u32)]) -> Option<ExprId> {
    // `carried_inline` for 64 bits: a 56-bit value sign-extended.
    let inline = |v: u64| ((v << 8) as i64 >> 8) as u64 == v;
    if !inline(offset as u64) {
        return None;
    }
    // None unless the base is a 64-bit constant carried inline.
    let mut addr = base.as_word_const(64)?.wrapping_add(offset as u64);
    if !inline(addr) {
        return None;
    }
    for (t, scale, w) in terms {
        let i64v = match *w {
            w @ 1..=63 => signed(word(frame, *t, w)?, w) as u64,
            64 => word(frame, *t, 64)?,
            _ => return None,
        };
        let term = i64v.wrapping_mul(*scale as u64);
        addr = addr.wrapping_add(term);
        if !(inline(i64v) && inline(*scale as u64) && inline(term) && inline(addr)) {
            return None;
        }
    }
    Some(make(pool, 64, addr))
}

/// Moves `frame` along `edge`, its phi moves all read before any is
/// written (the general step's `jump`). False, with nothing changed, when
/// an operand is one the tier does not build or a register not yet
/// assigned. `SHADOWED`: the frame holds indeterminate registers;
/// `VECTORS`: the function may hold registers raw.
#[inline(always)]
fn take<const SHADOWED: bool, const VECTORS: bool>(
    consts: &[ConstLanes],
    frame: &mut Frame,
    pool: &mut ExprPool,
    raw: &mut RawRegs,
    edge: &Edge,
) -> bool {
    if SHADOWED && edge.moves.iter().any(|(_, s)| s.is_some_and(|s| is_shadowed(frame, s))) {
        return false;
    }
    match &edge.moves[..] {
        [] => {}
        // Vectors held raw move raw (one-lane moves never touch them).
        moves if VECTORS && raw.used && !edge.scalar => {
            if !move_raw(consts, frame, pool, raw, moves) {
                return false;
            }
        }
        moves if edge.scalar => {
            // One lane each (the usual loop counters and sums, known when
            // decoded): read into a small array, then written.
            let mut read = [ExprId::byte_const(0); 8];
            for (k, (_, s)) in moves.iter().enumerate() {
                read[k] = match *s {
                    Some(Src::Reg(r)) => match &frame.regs[r as usize] {
                        Some(v) if v.len() == 1 => v[0],
                        _ => return false,
                    },
                    Some(Src::Imm(e)) => e,
                    Some(Src::Num { width, value }) => pool.constant(width, value as u128),
                    Some(Src::Lanes(_)) | None => return false,
                };
            }
            for (k, (d, _)) in moves.iter().enumerate() {
                put(frame, *d, read[k]);
            }
        }
        [(d, s)] => {
            let Some(m) = s.and_then(|s| moved(consts, frame, pool, s)) else { return false };
            put_moved(frame, *d, m);
        }
        moves if moves.len() <= 8 && moves.iter().all(|(_, s)| matches!(s, Some(Src::Imm(_))) || one_lane(frame, *s)) => {
            // One lane each (the usual loop counters and sums): read into a
            // small array, then written.
            let mut read = [(0u32, None::<ExprId>); 8];
            for (k, (d, s)) in moves.iter().enumerate() {
                read[k] = (*d, s.and_then(|s| lane(consts, frame, pool, s)));
            }
            for (d, e) in &read[..moves.len()] {
                if let Some(e) = e {
                    put(frame, *d, *e);
                }
            }
        }
        moves => {
            let mut read: smallvec::SmallVec<[(u32, Moved); 6]> = smallvec::SmallVec::new();
            for (d, s) in moves {
                let Some(m) = s.and_then(|s| moved(consts, frame, pool, s)) else { return false };
                read.push((*d, m));
            }
            for (d, m) in read {
                put_moved(frame, d, m);
            }
        }
    }
    if SHADOWED {
        // Each phi took a value with no indeterminate bits.
        for (d, _) in edge.moves.iter() {
            frame.shadows.remove(&RegId(*d));
        }
    }
    frame.prev_block = Some(frame.block);
    frame.block = BlockId(edge.target);
    frame.pc = 0;
    true
}

/// The phi moves of an edge while some vector is held raw: each read
/// before any is written, a raw vector copied raw. False, with nothing
/// changed, as `take`.
fn move_raw(consts: &[ConstLanes], frame: &mut Frame, pool: &mut ExprPool, raw: &mut RawRegs, moves: &[(u32, Option<Src>)]) -> bool {
    let mut read: smallvec::SmallVec<[(u32, Result<Raw, Moved>); 6]> = smallvec::SmallVec::new();
    for (d, s) in moves {
        let x = match *s {
            Some(Src::Reg(r)) if raw.get(r).is_some() => Ok(raw.get(r).expect("checked")),
            Some(s) => match moved(consts, frame, pool, s) {
                Some(m) => Err(m),
                None => return false,
            },
            None => return false,
        };
        read.push((*d, x));
    }
    for (d, x) in read {
        match x {
            Ok(v) => raw.write(frame, d, v),
            Err(m) => {
                raw.forget(d);
                put_moved(frame, d, m);
            }
        }
    }
    true
}

/// Runs the leading phi nodes of the block just entered (assigned by the
/// edge taken; each is a step that does nothing) as far as `max` allows.
#[inline(always)]
fn skip_phis(frame: &mut Frame, code: &FastFunc, block: u32, n: &mut u32, max: u32) {
    let lead = code.blocks[block as usize].lead;
    if lead > 0 && *n + lead <= max {
        frame.pc = lead as usize;
        *n += lead;
    }
}

/// Whether `src` is a register holding one lane.
#[inline(always)]
fn one_lane(frame: &Frame, src: Option<Src>) -> bool {
    match src {
        Some(Src::Reg(r)) => frame.regs[r as usize].as_ref().is_some_and(|v| v.len() == 1),
        _ => false,
    }
}

/// `take` for a switch's target, whose moves come from the phi table.
fn jump(frame: &mut Frame, pool: &mut ExprPool, raw: &mut RawRegs, code: &FastFunc, target: u32) -> bool {
    let consts = &code.consts[..];
    let from = frame.block.0;
    if raw.used {
        // Rare (a switch into phis of vectors): handles for all of them.
        for phi in code.blocks[target as usize].phis.iter() {
            if let Some((_, Some(Src::Reg(r)))) = phi.incoming.iter().find(|(b, _)| *b == from) {
                raw.sync(frame, pool, *r);
            }
        }
        for phi in code.blocks[target as usize].phis.iter() {
            raw.forget(phi.dst);
        }
    }
    let shadowed = !frame.shadows.is_empty();
    let mut read: smallvec::SmallVec<[(u32, Moved); 6]> = smallvec::SmallVec::new();
    for phi in code.blocks[target as usize].phis.iter() {
        if let Some((_, src)) = phi.incoming.iter().find(|(b, _)| *b == from) {
            if shadowed && src.is_some_and(|s| is_shadowed(frame, s)) {
                return false;
            }
            let Some(m) = src.and_then(|s| moved(consts, frame, pool, s)) else { return false };
            read.push((phi.dst, m));
        }
    }
    for (d, m) in read {
        if shadowed {
            frame.shadows.remove(&RegId(d));
        }
        put_moved(frame, d, m);
    }
    frame.prev_block = Some(frame.block);
    frame.block = BlockId(target);
    frame.pc = 0;
    true
}

/// Whether a kernel's work-item runs `op` (of `inst`) on the tier: the
/// pure instructions, whose results depend only on their operands, and
/// scalar loads and stores at constant addresses, aligned, in private
/// memory or a `__global` buffer (`device_place`; the race detector's
/// record made as the general step makes it). Other loads and stores
/// (`__local` ones, vectors, aggregates), calls (the work-item functions, barriers)
/// and address computations with sub-object bounds (checked in device
/// code only, subobject_bounds.rs) are the general step's.
#[inline(always)]
fn device_op(op: &Op) -> bool {
    match op {
        Op::Gep { bounded, .. } => !bounded,
        Op::Nop
        | Op::Int { .. }
        | Op::Int1 { .. }
        | Op::ICmp { .. }
        | Op::ICmp1 { .. }
        | Op::Float { .. }
        | Op::FCmp { .. }
        | Op::FNeg { .. }
        | Op::Cast { .. }
        | Op::Cast1 { .. }
        | Op::Copy { .. }
        | Op::Select { .. }
        | Op::Extract { .. }
        | Op::Insert { .. }
        | Op::Shuffle { .. } => true,
        // Scalar loads and stores: `device_place` decides.
        Op::Load1 { .. } | Op::Store1 { .. } => true,
        Op::Slow | Op::Load { .. } | Op::Store { .. } | Op::Call { .. } => false,
    }
}

impl<'m> Executor<'m> {
    /// Runs up to `max` instructions of `state` on the fast tier and
    /// returns how many ran (each counted as a step, as the general step
    /// counts it); 0 when the next instruction needs the general step.
    pub(in crate::exec) fn concrete_stretch(&mut self, state: &mut State, max: u32) -> u32 {
        let device = match state.gpu.as_deref() {
            None => false,
            Some(gpu) if self.device_code_runs_fast(gpu) => true,
            Some(_) => return 0,
        };
        if !self.fast.enabled
            || !state.merge.is_empty()
            || state.forced_exit.is_some()
            || self.shadow.poison.is_some()
            || self.cx.config.shard.is_some()
        {
            return 0;
        }
        let module = self.cx.module;
        let mut done = 0;
        while done < max {
            let fid = state.frame().func;
            let func = module.function(fid);
            let code = self.fast_code(fid);
            let went_on = match self.run_frame(state, &code, func, max, &mut done, device) {
                // A work-item's call of get_global_id & co. (the run stops
                // at every call of a declared function): work_item_ids.rs.
                Exit::Stop => device && done < max && self.fast_id_call(state, func),
                Exit::Call => self.fast_call(state, &code, func),
                Exit::Return(v) => self.fast_return(state, &code, v),
                Exit::Access => self.fast_global_access(state, &code, func),
            };
            if !went_on {
                break;
            }
            done += 1;
        }
        state.steps += done as u64;
        self.log.stats.instructions += done as u64;
        done
    }

    /// Whether a kernel's work-item runs on the tier: one of an enumerated
    /// OpenCL NDRange (constant ids), with no per-instruction bookkeeping
    /// of its own (no warp lockstep, grid barrier or `--perf` branch
    /// records). Only its pure instructions and its scalar loads and
    /// stores at constant addresses run here (`device_op`, the race
    /// record made as the general step's hook makes it): other accesses,
    /// calls, returns and back edges, which the race detector, the
    /// work-item switch and the loop watch see, are the general step's. Device rules are host rules with fewer undefined cases
    /// (int_ops.rs, cast_ops.rs: only `nsw` overflow), so an operation the
    /// tier runs, defined by the host's, gives the device's result too.
    fn device_code_runs_fast(&self, gpu: &crate::exec::models::Device) -> bool {
        gpu.items_run_alone_on_concrete_ids() && !self.cx.module.is_cuda() && self.cx.config.perf.is_none()
    }

    /// Runs the running frame's instructions while they are the tier's,
    /// counting them in `done` (up to `max`), until a call or a return
    /// that changes frames or an instruction left to the general step;
    /// `device`: the frame is a kernel's work-item's (`device_op`).
    fn run_frame(&mut self, state: &mut State, code: &FastFunc, func: &'m Function, max: u32, done: &mut u32, device: bool) -> Exit {
        // A frame's indeterminate registers only go away during its run
        // here (results of clean operands drop theirs; nothing here makes
        // one), so a frame that holds none runs without looking for them.
        // Scalar code (no instruction that may run on raw vectors) runs
        // without the raw registers' bookkeeping.
        match (state.frame().shadows.is_empty(), code.vectors) {
            (true, false) => self.run_frame_in::<false, false>(state, code, func, max, done, device),
            (true, true) => self.run_frame_in::<false, true>(state, code, func, max, done, device),
            (false, false) => self.run_frame_in::<true, false>(state, code, func, max, done, device),
            (false, true) => self.run_frame_in::<true, true>(state, code, func, max, done, device),
        }
    }

    /// `run_frame`; `SHADOWED`: the frame holds indeterminate registers;
    /// `VECTORS`: the function has instructions that may run on raw
    /// vectors (without them no register is ever written raw, so `raw`
    /// stays unused, as every run leaves it).
    fn run_frame_in<const SHADOWED: bool, const VECTORS: bool>(
        &mut self,
        state: &mut State,
        code: &FastFunc,
        func: &'m Function,
        max: u32,
        done: &mut u32,
        device: bool,
    ) -> Exit {
        let State { stack, memory, checked, .. } = state;
        let frame = stack.last_mut().expect("state with an empty stack");
        let pool = &mut self.cx.pool;
        let raw = &mut self.fast.raw;
        if VECTORS {
            raw.begin(frame.regs.len());
        }
        let consts = &code.consts[..];
        let mut n = *done;
        // The running block and position, held here while the run stays in
        // the block; the frame's `pc` is written back when it stops.
        let mut b = frame.block.0 as usize;
        let mut block = &code.blocks[b];
        let mut pc = frame.pc;
        let exit = loop {
            if n >= max {
                break Exit::Stop;
            }
            let Some(op) = block.ops.get(pc) else {
                match &block.term {
                    Term::Slow => break Exit::Stop,
                    Term::Br(edge) => {
                        if device && edge.target as usize <= b {
                            break Exit::Stop;
                        }
                        if !take::<SHADOWED, VECTORS>(consts, frame, pool, raw, edge) {
                            break Exit::Stop;
                        }
                        n += 1;
                        skip_phis(frame, code, edge.target, &mut n, max);
                    }
                    Term::CondBr { c, then, otherwise, check } => {
                        let Some(v) = word(frame, *c, 1) else { break Exit::Stop };
                        if SHADOWED && is_shadowed(frame, *c) {
                            break Exit::Stop;
                        }
                        let edge = if v != 0 { then } else { otherwise };
                        if device && edge.target as usize <= b {
                            break Exit::Stop;
                        }
                        if !take::<SHADOWED, VECTORS>(consts, frame, pool, raw, edge) {
                            break Exit::Stop;
                        }
                        if *check {
                            // The general step's `note_checks` for a branch
                            // with a failing side.
                            self.log.coverage.checks += 1;
                            *checked = true;
                        }
                        n += 1;
                        skip_phis(frame, code, edge.target, &mut n, max);
                    }
                    Term::Switch { v, default, cases } => {
                        let Some((_, x)) = number(consts, frame, pool, *v) else { break Exit::Stop };
                        if SHADOWED && is_shadowed(frame, *v) {
                            break Exit::Stop;
                        }
                        let target = cases.iter().find(|(c, _)| *c == x).map(|(_, b)| *b).unwrap_or(*default);
                        if device && target as usize <= b {
                            break Exit::Stop;
                        }
                        if !jump(frame, pool, raw, code, target) {
                            break Exit::Stop;
                        }
                        n += 1;
                    }
                    // A work-item's return may end it (the work-item
                    // switch): the general step's.
                    Term::Ret(_) if device => break Exit::Stop,
                    Term::Ret(v) => break Exit::Return(*v),
                }
                // A new block: `take` and `jump` set the frame's position.
                b = frame.block.0 as usize;
                block = &code.blocks[b];
                pc = frame.pc;
                continue;
            };
            if device && !device_op(op) {
                break Exit::Stop;
            }
            // In a frame with indeterminate registers, an instruction that
            // reads none of them has a result with no shadow: the general
            // step's shadow of it is dropped (shadow.rs), as below.
            if SHADOWED && op.reads(|s| is_shadowed(frame, s)) {
                break Exit::Stop;
            }
            if VECTORS && op.on_vectors() {
                match raw_step(op, raw, consts, frame, pool, memory, &code.types, &func.blocks[b].insts[pc].ty) {
                    RawStep::Done => {
                        if matches!(op, Op::Load { .. }) {
                            self.shadow.last_read = None;
                        }
                        if SHADOWED {
                            if let Some(d) = op.dst() {
                                frame.shadows.remove(&RegId(d));
                            }
                        }
                        pc += 1;
                        n += 1;
                        continue;
                    }
                    RawStep::Stop => break Exit::Stop,
                    RawStep::No => {}
                }
            }
            if VECTORS && raw.used {
                // The handles of every raw operand, for the paths below.
                op.reads(|s| {
                    if let Src::Reg(r) = s {
                        raw.sync(frame, pool, r);
                    }
                    false
                });
            }
            match op {
                Op::Slow => break Exit::Stop,
                Op::Call { .. } => break Exit::Call,
                Op::Nop => {}
                Op::Int1 { op, flags, w, dst, a, b } => {
                    let r = if let (Some(x), Some(y)) = (word(frame, *a, *w), word(frame, *b, *w)) {
                        if !defined_word(pool, *op, *flags, *w, x, y) {
                            break Exit::Stop;
                        }
                        make(pool, *w, arith(*op, *w, x, y))
                    } else {
                        let (Some((x, xv)), Some((y, yv))) = (number(consts, frame, pool, *a), number(consts, frame, pool, *b)) else {
                            break Exit::Stop;
                        };
                        let w = pool.width(x);
                        if !defined(pool, *op, *flags, w, xv, yv) {
                            break Exit::Stop;
                        }
                        pool.bin(*op, x, y)
                    };
                    put(frame, *dst, r);
                }
                Op::ICmp1 { pred, w, dst, a, b } => {
                    let r = if let (Some(x), Some(y)) = (word(frame, *a, *w), word(frame, *b, *w)) {
                        make(pool, 1, compare(*pred, *w, x, y) as u64)
                    } else {
                        let (Some((x, _)), Some((y, _))) = (number(consts, frame, pool, *a), number(consts, frame, pool, *b)) else {
                            break Exit::Stop;
                        };
                        icmp(pool, *pred, x, y)
                    };
                    put(frame, *dst, r);
                }
                Op::Cast1 { kind, flags, from, dst, a } => {
                    let to = cast_width(*kind);
                    if *flags != PoisonFlags::default() {
                        let v = match word(frame, *a, *from) {
                            Some(v) => v as u128,
                            None => {
                                let Some((_, v)) = number(consts, frame, pool, *a) else { break Exit::Stop };
                                v
                            }
                        };
                        if !promises_kept(*kind, *flags, *from, v) {
                            break Exit::Stop;
                        }
                    }
                    let r = if let Some(v) = word(frame, *a, *from).filter(|_| to <= 64) {
                        let r = match *kind {
                            CastKind::SExt(_) => signed(v, *from) as u64 & ones(to),
                            // zext, and truncation to the low bits (resize either way).
                            _ => v & ones(to),
                        };
                        make(pool, to, r)
                    } else {
                        let Some((x, _)) = number(consts, frame, pool, *a) else { break Exit::Stop };
                        match *kind {
                            CastKind::Trunc(w) => pool.trunc(x, w),
                            CastKind::ZExt(w) => pool.zext(x, w),
                            CastKind::SExt(w) => pool.sext(x, w),
                            CastKind::Resize(w) => resize(pool, x, w),
                            _ => break Exit::Stop,
                        }
                    };
                    put(frame, *dst, r);
                }
                Op::Extract { dst, v, k } => {
                    let Some((_, k)) = number(consts, frame, pool, *k) else { break Exit::Stop };
                    let Some((lanes, undef)) = lanes_of(consts, frame, *v) else { break Exit::Stop };
                    // An index out of range gives poison in LLVM; the
                    // general step reads lane 0 (and lane 0's shadow).
                    let i = if (k as usize) < lanes.len() { k as usize } else { 0 };
                    if undef >> i & 1 != 0 {
                        break Exit::Stop;
                    }
                    let r = lanes[i];
                    put(frame, *dst, r);
                }
                Op::Insert { dst, v, e, k } => {
                    let (Some(mut v), Some(e), Some((_, k))) =
                        (value(consts, frame, pool, *v), lane(consts, frame, pool, *e), number(consts, frame, pool, *k))
                    else {
                        break Exit::Stop;
                    };
                    if let Some(l) = v.get_mut(k as usize) {
                        *l = e;
                    }
                    frame.regs[*dst as usize] = Some(v);
                }
                Op::Shuffle { dst, a, b, mask } => {
                    let (Some((va, ua)), Some((vb, ub))) = (lanes_of(consts, frame, *a), lanes_of(consts, frame, *b)) else {
                        break Exit::Stop;
                    };
                    let n = va.len();
                    let mut r = Value::new();
                    // Every lane picked must be defined: a negative entry
                    // or an `undef` lane gives the result a shadow.
                    for &m in mask.iter() {
                        let m = m as usize;
                        let lane = match m {
                            m if m < n && ua >> m & 1 == 0 => va[m],
                            m if m >= n && m - n < vb.len() && ub >> (m - n) & 1 == 0 => vb[m - n],
                            _ => break,
                        };
                        r.push(lane);
                    }
                    if r.len() != mask.len() {
                        break Exit::Stop;
                    }
                    frame.regs[*dst as usize] = Some(r);
                }
                Op::Gep { dst, base, offset, terms, inbounds, .. } => {
                    let Some(base) = lane(consts, frame, pool, *base) else { break Exit::Stop };
                    let r = match gep_numbers(frame, pool, base, *offset, terms) {
                        Some(r) => r,
                        None => {
                            let mut index = smallvec::SmallVec::<[ExprId; 4]>::new();
                            for (t, _, _) in terms.iter() {
                                let Some(i) = lane(consts, frame, pool, *t) else { break };
                                index.push(i);
                            }
                            if index.len() != terms.len() {
                                break Exit::Stop;
                            }
                            // The general step's sequence of pool calls (exec_gep).
                            let off = pool.constant(64, *offset as u64 as u128);
                            let mut addr = pool.add(base, off);
                            for (i, (_, scale, _)) in index.into_iter().zip(terms.iter()) {
                                let i = if pool.width(i) < 64 { pool.sext(i, 64) } else { pool.trunc(i, 64) };
                                let s = pool.constant(64, *scale as u64 as u128);
                                let term = pool.mul(i, s);
                                addr = pool.add(addr, term);
                            }
                            addr
                        }
                    };
                    if *inbounds && !keeps_to_object(memory, pool, base, r) {
                        break Exit::Stop;
                    }
                    put(frame, *dst, r);
                }
                Op::Load1 { dst, ptr, width, len, align } => {
                    let Some(addr) = word(frame, *ptr, 64).or_else(|| number(consts, frame, pool, *ptr).map(|(_, a)| a as u64)) else {
                        break Exit::Stop;
                    };
                    if device {
                        match device_place(memory, *align, addr) {
                            DevicePlace::Private => {}
                            DevicePlace::Global => break Exit::Access,
                            DevicePlace::No => break Exit::Stop,
                        }
                    }
                    let Some((obj, off)) = plain_place(memory, addr, *len as u64, false) else { break Exit::Stop };
                    let o = memory.object(obj);
                    // Written constant bytes (a table the program filled): the
                    // number without building the bytes.
                    if let Some(v) = o.bytes.constant_number(off, *len as u64, crate::memory::shadow::tracks_writes(o)) {
                        self.shadow.last_read = None;
                        let r = pool.constant(*width, v as u128);
                        put(frame, *dst, r);
                        if SHADOWED {
                            frame.shadows.remove(&RegId(*dst));
                        }
                        pc += 1;
                        n += 1;
                        continue;
                    }
                    if !crate::memory::shadow::range_is_defined(o, off, *len as u64) {
                        break Exit::Stop;
                    }
                    let mut bytes = crate::memory::Bytes::new();
                    o.bytes.read(pool, off, *len as u64, &mut bytes);
                    self.shadow.last_read = None;
                    let r = value_of_bytes(pool, &func.blocks[b].insts[pc].ty, *width, &bytes);
                    put(frame, *dst, r);
                }
                Op::Store1 { ptr, val, ty, len, align } => {
                    let Some(addr) = word(frame, *ptr, 64).or_else(|| number(consts, frame, pool, *ptr).map(|(_, a)| a as u64)) else {
                        break Exit::Stop;
                    };
                    let Some(x) = lane(consts, frame, pool, *val) else { break Exit::Stop };
                    if device {
                        match device_place(memory, *align, addr) {
                            DevicePlace::Private => {}
                            DevicePlace::Global => break Exit::Access,
                            DevicePlace::No => break Exit::Stop,
                        }
                    }
                    let Some((obj, off)) = plain_access(memory, addr, *len as u64, true) else { break Exit::Stop };
                    let t = &code.types[*ty as usize];
                    let w = t.scalar_bits();
                    match x.as_word_const(w).filter(|_| w <= 64 && w.div_ceil(8) == *len) {
                        // A number's bytes, little-endian, as layout.rs lays them out.
                        Some(v) => memory.object_mut(obj).bytes.write_number(pool, off, *len as usize, v),
                        None => {
                            let bytes = crate::memory::layout::value_to_bytes(pool, t, std::slice::from_ref(&x));
                            memory.object_mut(obj).bytes.write(pool, off, &bytes);
                        }
                    }
                }
                Op::Load { dst, ptr } => {
                    let Some((_, addr)) = number(consts, frame, pool, *ptr) else { break Exit::Stop };
                    let ty = &func.blocks[b].insts[pc].ty;
                    let len = ty.store_size();
                    let Some((obj, off)) = plain_access(memory, addr as u64, len, false) else { break Exit::Stop };
                    let mut bytes = crate::memory::Bytes::new();
                    memory.object(obj).bytes.read(pool, off, len, &mut bytes);
                    self.shadow.last_read = None;
                    frame.regs[*dst as usize] = Some(crate::memory::layout::bytes_to_value(pool, ty, &bytes));
                }
                Op::Store { ptr, val, ty } => {
                    let Some((_, addr)) = number(consts, frame, pool, *ptr) else { break Exit::Stop };
                    let Some(v) = value(consts, frame, pool, *val) else { break Exit::Stop };
                    let t = &code.types[*ty as usize];
                    let Some((obj, off)) = plain_access(memory, addr as u64, t.store_size(), true) else { break Exit::Stop };
                    let bytes = crate::memory::layout::value_to_bytes(pool, t, &v);
                    memory.object_mut(obj).bytes.write(pool, off, &bytes);
                }
                Op::Int { op, flags, dst, a, b } => {
                    let (Some(x), Some(y)) = (constant(consts, frame, pool, *a), constant(consts, frame, pool, *b)) else {
                        break Exit::Stop;
                    };
                    let r = match word_lanes(pool, *op, *flags, &x, &y) {
                        WordLanes::Defined(r) => r,
                        WordLanes::Undefined => break Exit::Stop,
                        WordLanes::Other => {
                            if !lanes_defined(pool, *op, *flags, &x, &y) {
                                break Exit::Stop;
                            }
                            map2(pool, &x, &y, |p, x, y| p.bin(*op, x, y))
                        }
                    };
                    frame.regs[*dst as usize] = Some(r);
                }
                Op::ICmp { pred, dst, a, b } => {
                    let (Some(x), Some(y)) = (constant(consts, frame, pool, *a), constant(consts, frame, pool, *b)) else {
                        break Exit::Stop;
                    };
                    frame.regs[*dst as usize] = Some(map2(pool, &x, &y, |p, x, y| icmp(p, *pred, x, y)));
                }
                Op::Float { op, f, dst, a, b } => {
                    if let (Some(x), Some(y)) = (constant_lane(consts, frame, pool, *a), constant_lane(consts, frame, pool, *b)) {
                        let r = pool.fbin(*op, *f, x, y);
                        put(frame, *dst, r);
                    } else {
                        let (Some(x), Some(y)) = (constant(consts, frame, pool, *a), constant(consts, frame, pool, *b)) else {
                            break Exit::Stop;
                        };
                        frame.regs[*dst as usize] = Some(map2(pool, &x, &y, |p, x, y| p.fbin(*op, *f, x, y)));
                    }
                }
                Op::FCmp { set, f, dst, a, b } => {
                    if let (Some(x), Some(y)) = (constant_lane(consts, frame, pool, *a), constant_lane(consts, frame, pool, *b)) {
                        let r = pool.fcmp(*set, *f, x, y);
                        put(frame, *dst, r);
                    } else {
                        let (Some(x), Some(y)) = (constant(consts, frame, pool, *a), constant(consts, frame, pool, *b)) else {
                            break Exit::Stop;
                        };
                        frame.regs[*dst as usize] = Some(map2(pool, &x, &y, |p, x, y| p.fcmp(*set, *f, x, y)));
                    }
                }
                Op::FNeg { f, dst, a } => {
                    let Some(x) = constant(consts, frame, pool, *a) else { break Exit::Stop };
                    frame.regs[*dst as usize] = Some(x.iter().map(|l| pool.fneg(*f, *l)).collect());
                }
                Op::Cast { kind: CastKind::BitCast(to), dst, a } => {
                    let Some(x) = value(consts, frame, pool, *a) else { break Exit::Stop };
                    let r = relane_numbers(pool, &x, *to).unwrap_or_else(|| relane(pool, &x, *to));
                    frame.regs[*dst as usize] = Some(r);
                }
                Op::Cast { kind, dst, a } => {
                    let cast = |pool: &mut ExprPool, l: ExprId| match *kind {
                        CastKind::Trunc(w) => pool.trunc(l, w),
                        CastKind::ZExt(w) => pool.zext(l, w),
                        CastKind::SExt(w) => pool.sext(l, w),
                        CastKind::Resize(w) => resize(pool, l, w),
                        CastKind::FpConvert(from, to) => pool.fp_convert(from, to, l),
                        CastKind::IntToFp(signed, to) => pool.int_to_fp(signed, to, l),
                        CastKind::BitCast(_) => unreachable!("bit casts are matched above"),
                    };
                    if let Some(x) = constant_lane(consts, frame, pool, *a) {
                        let r = cast(pool, x);
                        put(frame, *dst, r);
                    } else {
                        let Some(x) = constant(consts, frame, pool, *a) else { break Exit::Stop };
                        let r = x.iter().map(|l| cast(pool, *l)).collect();
                        frame.regs[*dst as usize] = Some(r);
                    }
                }
                Op::Copy { dst, a } => {
                    let Some(m) = moved(consts, frame, pool, *a) else { break Exit::Stop };
                    put_moved(frame, *dst, m);
                }
                Op::Select { dst, c, t, e } => {
                    let (Some(c), Some(t), Some(e)) =
                        (moved(consts, frame, pool, *c), moved(consts, frame, pool, *t), moved(consts, frame, pool, *e))
                    else {
                        break Exit::Stop;
                    };
                    match (c, t, e) {
                        (Moved::Lane(c), Moved::Lane(t), Moved::Lane(e)) => {
                            let r = pool.ite(c, t, e);
                            put(frame, *dst, r);
                        }
                        (c, t, e) => {
                            let wide = |m: Moved| match m {
                                Moved::Lane(x) => scalar(x),
                                Moved::Wide(v) => v,
                            };
                            let (c, t, e) = (wide(c), wide(t), wide(e));
                            if c.len() != 1 && c.len() < t.len().min(e.len()) {
                                break Exit::Stop;
                            }
                            // A scalar condition selects whole vectors.
                            let r = t
                                .iter()
                                .zip(e.iter())
                                .enumerate()
                                .map(|(i, (x, y))| pool.ite(if c.len() == 1 { c[0] } else { c[i] }, *x, *y))
                                .collect();
                            frame.regs[*dst as usize] = Some(r);
                        }
                    }
                }
            }
            if SHADOWED {
                if let Some(d) = op.dst() {
                    frame.shadows.remove(&RegId(d));
                }
            }
            if VECTORS && raw.used {
                // A vector register written as handles: its raw value is gone.
                if let Some(d) = op.dst() {
                    raw.forget(d);
                }
            }
            pc += 1;
            n += 1;
        };
        frame.pc = pc;
        *done = n;
        if VECTORS {
            raw.flush(frame, pool);
        }
        exit
    }

    /// The call at the running frame's `pc`: its frame pushed as the
    /// general step's `call_function` pushes it (the callee has neither
    /// variadic nor by-value parameters, decode.rs). False, with nothing
    /// changed, when an argument is a register not yet assigned or the
    /// stack is at the general step's depth limit.
    fn fast_call(&mut self, state: &mut State, code: &Rc<FastFunc>, func: &'m Function) -> bool {
        let caller = state.frame();
        let (b, pc) = (caller.block.0 as usize, caller.pc);
        let Op::Call { callee, dst, args } = &code.blocks[b].ops[pc] else { return false };
        if state.stack.len() >= 10_000 {
            return false;
        }
        let target = self.cx.module.function(*callee);
        let consts = &code.consts[..];
        let mut regs = self.fast.spare_regs.pop().unwrap_or_default();
        regs.clear();
        regs.resize(target.num_regs as usize, None);
        for (p, a) in target.params.iter().zip(args.iter()) {
            match value(consts, caller, &mut self.cx.pool, *a) {
                Some(v) => regs[p.reg.0 as usize] = Some(v),
                None => {
                    self.fast.spare_regs.push(regs);
                    return false;
                }
            }
        }
        let call_loc = func.blocks[b].insts[pc].loc;
        state.frame_mut().pc += 1;
        state.stack.push(Frame {
            func: *callee,
            block: BlockId(0),
            prev_block: None,
            pc: 0,
            regs,
            allocas: Vec::new(),
            ret_dest: dst.map(RegId),
            call_loc,
            varargs: None,
            shadows: Default::default(),
            shadow_on: self.shadow.mentions_undef(*callee),
        });
        true
    }

    /// A return into a caller (not the path's last frame, which the
    /// general step ends), as exec_return does it.
    fn fast_return(&mut self, state: &mut State, code: &FastFunc, v: Option<Src>) -> bool {
        let consts = &code.consts[..];
        if state.stack.len() < 2 || v.is_some_and(|s| is_shadowed(state.frame(), s)) {
            return false;
        }
        let value = match v {
            Some(src) => match moved(consts, state.frame(), &mut self.cx.pool, src) {
                Some(x) => Some(x),
                None => return false,
            },
            None => None,
        };
        let frame = state.stack.pop().expect("checked above");
        for obj in &frame.allocas {
            let o = state.memory.object_mut(*obj);
            o.freed = true;
            o.free_line = Some(frame.call_loc);
        }
        if let (Some(dest), Some(v)) = (frame.ret_dest, value) {
            let caller = state.frame_mut();
            // A result with no indeterminate bits: the general step drops
            // the shadow of its register in a caller that holds some.
            if !caller.shadows.is_empty() {
                caller.shadows.remove(&dest);
            }
            put_moved(caller, dest.0, v);
        }
        let mut regs = frame.regs;
        if self.fast.spare_regs.len() < 64 {
            regs.clear();
            self.fast.spare_regs.push(regs);
        }
        true
    }
}
