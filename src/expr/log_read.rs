//! A read from an object whose writes at symbolic offsets wait in a list
//! (newest first, shared between reads), kept as one node: the list's head,
//! the read's offset and what the object held before every write. Building
//! the read as selects over every write that may be there costs a
//! condition per write and per read; a histogram whose counters are read
//! and incremented at data-dependent slots then grows with the square of
//! its increments. The node costs one entry whatever the list's length;
//! evaluation, the solvers and any rewrite that needs the selects work
//! them out from the list (`byte_sources`, `expand_with`).
//!
//! Meaning, bit for bit: byte `k` of the read is byte `j` of the newest
//! write whose offset is the read's offset plus `k - j` (64-bit offsets,
//! wrapping); byte `k` of `base` when no write is there.

use super::{BinOp, Expr, ExprId, ExprPool};
use std::rc::Rc;

/// One write of the list: `bytes` (None: left alone) at byte `offset`.
#[derive(Debug)]
pub struct Update {
    /// The write's byte offset (64 bits).
    pub offset: ExprId,
    /// The offset's known low bits, `(m, r)`: the offset is `r` modulo `m`.
    pub residue: (u64, u64),
    /// The bytes written, lowest address first.
    pub bytes: Box<[Option<ExprId>]>,
    /// The write before this one.
    pub older: Option<Rc<Update>>,
}

impl Drop for Update {
    /// Unlinks the older entries one by one: dropping a long list
    /// recursively would overflow the stack.
    fn drop(&mut self) {
        let mut next = self.older.take();
        while let Some(rc) = next {
            match Rc::try_unwrap(rc) {
                Ok(mut u) => next = u.older.take(),
                Err(_) => break,
            }
        }
    }
}

/// `newest` and every write before it, newest first.
pub fn updates(newest: &Update) -> impl Iterator<Item = &Update> {
    std::iter::successors(Some(newest), |u| u.older.as_deref())
}

/// A read of `width(base) / 8` bytes at `offset` through the writes from
/// `newest` back (module comment).
#[derive(Clone)]
pub struct LogRead {
    /// The newest write the read sees.
    pub newest: Rc<Update>,
    /// The read's byte offset (64 bits).
    pub offset: ExprId,
    /// The offset's known low bits, as `Update::residue`.
    pub residue: (u64, u64),
    /// What the read's bytes held before every write, little-endian.
    pub base: ExprId,
}

impl PartialEq for LogRead {
    /// The same list (shared, not compared), offset and base.
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.newest, &other.newest) && self.offset == other.offset && self.base == other.base
    }
}

impl Eq for LogRead {}

impl std::hash::Hash for LogRead {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        // The node keeps its list alive, so no other list takes its address.
        (Rc::as_ptr(&self.newest) as usize).hash(h);
        self.offset.hash(h);
        self.base.hash(h);
    }
}

impl std::fmt::Debug for LogRead {
    /// The list by its address and length: printing it whole could be huge.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "LogRead {{ writes: {:p} ({} of them), offset: {:?}, base: {:?} }}",
            Rc::as_ptr(&self.newest),
            updates(&self.newest).count(),
            self.offset,
            self.base
        )
    }
}

impl LogRead {
    /// How many bytes the read takes.
    pub fn len(&self, pool: &ExprPool) -> u64 {
        pool.width(self.base) as u64 / 8
    }

    /// Every expression the read's value depends on, in a fixed order: the
    /// offset, the base, then each write's offset and bytes, newest first.
    pub fn operands(&self) -> smallvec::SmallVec<[ExprId; 3]> {
        let mut out: smallvec::SmallVec<[ExprId; 3]> = smallvec::smallvec![self.offset, self.base];
        for u in updates(&self.newest) {
            out.push(u.offset);
            out.extend(u.bytes.iter().flatten().copied());
        }
        out
    }
}

/// A byte of a write that is byte `k` of the read when
/// `read offset + delta == at` (64 bits, wrapping).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The write's offset.
    pub at: ExprId,
    /// `k - j` for the write's byte `j` (wrapping).
    pub delta: u64,
    /// The byte written.
    pub byte: ExprId,
}

/// Byte `k` of the read: the writes' bytes that may be there, newest first,
/// and what it is when none of them is: the byte of a write surely there,
/// or None for byte `k` of the base. Pairs whose offsets differ by a known
/// number, or whose known low bits differ, are decided here.
pub fn byte_sources(pool: &ExprPool, read: &LogRead, k: u64) -> (Vec<Candidate>, Option<ExprId>) {
    let (xa, ca) = split(pool, read.offset);
    let (ma, ra) = read.residue;
    let mut out = Vec::new();
    for u in updates(&read.newest) {
        let (xb, cb) = split(pool, u.offset);
        let (mb, rb) = u.residue;
        for (j, b) in u.bytes.iter().enumerate() {
            let Some(b) = *b else { continue };
            let j = j as u64;
            if xa == xb {
                if ca.wrapping_add(k) == cb.wrapping_add(j) {
                    return (out, Some(b));
                }
                continue;
            }
            let m = ma.min(mb).max(1);
            if ra.wrapping_add(k) % m != rb.wrapping_add(j) % m {
                continue;
            }
            out.push(Candidate { at: u.offset, delta: k.wrapping_sub(j), byte: b });
        }
    }
    (out, None)
}

/// `e` as a symbolic part plus a number (`x + c`); the part is None for a
/// number.
pub fn split(pool: &ExprPool, e: ExprId) -> (Option<ExprId>, u64) {
    if let Some(c) = pool.as_const(e) {
        return (None, c as u64);
    }
    if let Expr::Bin(BinOp::Add, a, b) = *pool.get(e) {
        if let Some(c) = pool.as_const(b) {
            return (Some(a), c as u64);
        }
        if let Some(c) = pool.as_const(a) {
            return (Some(b), c as u64);
        }
    }
    (Some(e), 0)
}

/// The value of the read from the values of its operands (`v`).
pub fn evaluate(pool: &ExprPool, read: &LogRead, v: impl Fn(&ExprId) -> u128) -> u128 {
    let offset = v(&read.offset) as u64;
    let base = v(&read.base);
    let mut out = 0u128;
    for k in 0..read.len(pool) {
        let (candidates, otherwise) = byte_sources(pool, read, k);
        let hit = candidates.iter().find(|c| offset.wrapping_add(c.delta) == v(&c.at) as u64);
        let byte = match (hit, otherwise) {
            (Some(c), _) => v(&c.byte),
            (None, Some(b)) => v(&b),
            (None, None) => (base >> (8 * k)) & 0xff,
        };
        out |= (byte & 0xff) << (8 * k);
    }
    out
}

/// The read as selects over the writes that may be there, its operands
/// mapped through `map` (the identity, or a rewrite of them).
pub fn expand_with(pool: &mut ExprPool, read: &LogRead, map: impl Fn(ExprId) -> ExprId) -> ExprId {
    let offset = map(read.offset);
    let base = map(read.base);
    let mut word: Option<ExprId> = None;
    for k in 0..read.len(pool) {
        let (candidates, otherwise) = byte_sources(pool, read, k);
        let mut byte = match otherwise {
            Some(b) => map(b),
            None => pool.extract(base, 8 * k as u32, 8),
        };
        for c in candidates.into_iter().rev() {
            let d = pool.constant(64, c.delta as u128);
            let there = pool.add(offset, d);
            let at = map(c.at);
            let cond = pool.eq(there, at);
            let b = map(c.byte);
            byte = pool.ite(cond, b, byte);
        }
        // Little-endian: later bytes are higher.
        word = Some(match word {
            None => byte,
            Some(w) => pool.concat(byte, w),
        });
    }
    word.expect("a read of one byte or more")
}

impl ExprPool {
    /// A read of `base`'s bytes at `offset` (whose known low bits are
    /// `residue`) through the writes from `newest` back (module comment).
    pub fn log_read(&mut self, newest: Rc<Update>, offset: ExprId, residue: (u64, u64), base: ExprId) -> ExprId {
        self.intern(Expr::LogRead(Box::new(LogRead { newest, offset, residue, base })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{evaluate as eval_expr, Assignment};

    fn write(pool: &mut ExprPool, offset: ExprId, residue: (u64, u64), values: &[u8], older: Option<Rc<Update>>) -> Rc<Update> {
        let bytes = values.iter().map(|v| Some(pool.constant(8, *v as u128))).collect();
        Rc::new(Update { offset, residue, bytes, older })
    }

    /// The node and its selects agree under every value of the offsets.
    #[test]
    fn a_lazy_read_evaluates_as_its_selects() {
        let mut p = ExprPool::new();
        let arr = p.new_array("slots", 2);
        let (a, b) = (p.input_byte(arr, 0), p.input_byte(arr, 1));
        let four = p.constant(64, 4);
        let (za, zb) = (p.zext(a, 64), p.zext(b, 64));
        let (wa, wb) = (p.mul(za, four), p.mul(zb, four));
        let older = write(&mut p, wa, (4, 0), &[1, 2, 3, 4], None);
        let newest = write(&mut p, wb, (4, 0), &[9, 8, 7, 6], Some(older));
        let base = p.constant(32, 0x5555_5555);
        let read = p.log_read(newest.clone(), wa, (4, 0), base);
        let Expr::LogRead(r) = p.get(read).into_owned() else { panic!("a log read") };
        let eager = expand_with(&mut p, &r, |e| e);
        let two = p.constant(64, 2);
        let unaligned = p.add(wa, two);
        let off = p.log_read(newest, unaligned, (4, 2), base);
        let Expr::LogRead(s) = p.get(off).into_owned() else { panic!("a log read") };
        let eager_off = expand_with(&mut p, &s, |e| e);
        for (x, y) in [(0u8, 0u8), (0, 1), (1, 0), (3, 3), (200, 17)] {
            let mut m = Assignment::default();
            m.arrays.insert(arr, vec![x, y]);
            let (lazy, sel) = (eval_expr(&p, read, &m), eval_expr(&p, eager, &m));
            assert_eq!(lazy, sel, "{x} {y}");
            assert_eq!(lazy, if x == y { 0x0607_0809 } else { 0x0403_0201 });
            let (lazy, sel) = (eval_expr(&p, off, &m), eval_expr(&p, eager_off, &m));
            assert_eq!(lazy, sel, "{x} {y} at +2");
            let want = match (x == y, y == x + 1) {
                (true, _) => 0x5555_0607,
                (_, true) => 0x0809_0403,
                _ => 0x5555_0403,
            };
            assert_eq!(lazy, want, "{x} {y} at +2");
        }
    }

    /// One node per read, however long the list: the same read is the
    /// same node.
    #[test]
    fn the_same_read_is_one_node() {
        let mut p = ExprPool::new();
        let x = p.fresh(64);
        let mut newest = write(&mut p, x, (1, 0), &[1], None);
        for _ in 0..1000 {
            let y = p.fresh(64);
            newest = write(&mut p, y, (1, 0), &[2], Some(newest));
        }
        let base = p.constant(8, 0);
        let before = p.len();
        let r1 = p.log_read(newest.clone(), x, (1, 0), base);
        let r2 = p.log_read(newest, x, (1, 0), base);
        assert_eq!(r1, r2);
        assert_eq!(p.len(), before + 1);
        assert_eq!(p.children(r1).len(), 2 + 2 * 1001);
    }
}
