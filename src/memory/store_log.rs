//! The writes into one object at offsets that are not numbers, kept as a
//! list (newest first) and resolved when a byte is read, instead of
//! rewriting every byte of the object as a select on the offset. A write
//! costs one entry; a read walks the entries back to the newest one that
//! must be at its position, and selects only over those that may be
//! (decided by constant folding and the offsets' known low bits,
//! offset_residue.rs). Writes at numbers that an entry may overlap are
//! entries too, so that the order of writes is kept.
//!
//! The list is shared between forked states (each entry is
//! reference-counted, appending makes a new head), as the pages are.

use crate::expr::log_read::split;
use crate::expr::{ExprId, ExprPool, Update};
use std::rc::Rc;

/// Depth to which the low bits of an offset are looked for.
const RESIDUE_DEPTH: u32 = 12;

/// Lists at least this long are read through as one node (a lazy read,
/// src/expr/log_read.rs) rather than as selects over every write that may
/// be there: a read then costs one node however many writes it may see,
/// and the selects are worked out only if a solver needs them.
const LAZY_READ_WRITES: usize = 8;

/// Whether two byte positions are the same.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Alias {
    /// Never.
    No,
    /// Always.
    Must,
    /// When this 1-bit condition holds.
    May(ExprId),
}

/// The writes of one object not folded into its pages, newest first.
#[derive(Clone, Default, Debug)]
pub struct StoreLog {
    newest: Option<Rc<Update>>,
    len: usize,
}

impl StoreLog {
    /// Whether no write is pending.
    pub fn is_empty(&self) -> bool {
        self.newest.is_none()
    }

    /// How many writes are pending.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether both hold the very same entries (shared, not compared).
    pub fn same(&self, other: &StoreLog) -> bool {
        match (&self.newest, &other.newest) {
            (None, None) => true,
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// Forgets every entry (a write covering the whole object hides them).
    pub fn clear(&mut self) {
        self.newest = None;
        self.len = 0;
    }

    /// Appends a write of `bytes` at `offset`. A write at the very offset
    /// of the newest entry, covering every byte it wrote, replaces it (a
    /// loop updating one slot keeps one entry).
    pub fn push(&mut self, pool: &ExprPool, offset: ExprId, bytes: Box<[Option<ExprId>]>) {
        let residue = crate::memory::offset_residue::residue(pool, offset, RESIDUE_DEPTH);
        if let Some(top) = &self.newest {
            let covers = top.offset == offset
                && bytes.len() >= top.bytes.len()
                && top.bytes.iter().enumerate().all(|(k, b)| b.is_none() || bytes[k].is_some());
            if covers {
                let older = top.older.clone();
                self.newest = Some(Rc::new(Update { offset, residue, bytes, older }));
                return;
            }
        }
        let older = self.newest.take();
        self.newest = Some(Rc::new(Update { offset, residue, bytes, older }));
        self.len += 1;
    }

    fn entries(&self) -> impl Iterator<Item = &Update> {
        std::iter::successors(self.newest.as_deref(), |u| u.older.as_deref())
    }

    /// Whether some entry may write a byte of `off..off + len`.
    pub fn may_touch(&self, pool: &mut ExprPool, off: u64, len: u64) -> bool {
        self.entries().any(|u| {
            let n = u.bytes.len() as u64;
            if let Some(at) = pool.as_const(u.offset) {
                let at = at as u64;
                return at < off + len && off < at.saturating_add(n);
            }
            let (m, r) = u.residue;
            // Entry byte j lands on position p when offset = p - j; the
            // offset's low bits rule most pairs out.
            (0..n).any(|j| u.bytes[j as usize].is_some() && lands_in(off, len, j, m, r))
        })
    }

    /// Byte `p` (a number), whose value before every entry is `base`.
    pub fn byte_at(&self, pool: &mut ExprPool, p: u64, base: ExprId) -> ExprId {
        self.byte_or_mark_at(pool, p, base, None)
    }

    /// `written` where some entry wrote byte `p` (a number), `base` where
    /// none did: which bytes the pending writes cover.
    pub fn written_mark_at(&self, pool: &mut ExprPool, p: u64, base: ExprId, written: ExprId) -> ExprId {
        self.byte_or_mark_at(pool, p, base, Some(written))
    }

    /// Byte `p`, each entry's byte counting as `mark` when it is given.
    fn byte_or_mark_at(&self, pool: &mut ExprPool, p: u64, base: ExprId, mark: Option<ExprId>) -> ExprId {
        let mut hits: Vec<(ExprId, ExprId)> = Vec::new();
        let mut value = base;
        'walk: for u in self.entries() {
            if let Some(at) = pool.as_const(u.offset) {
                let at = at as u64;
                if p >= at && p - at < u.bytes.len() as u64 {
                    if let Some(b) = u.bytes[(p - at) as usize] {
                        value = mark.unwrap_or(b);
                        break 'walk;
                    }
                }
                continue;
            }
            let (m, r) = u.residue;
            // Newer bytes of one entry first does not matter: one offset
            // puts at most one of its bytes at `p`.
            for (j, b) in u.bytes.iter().enumerate() {
                let Some(b) = b else { continue };
                let j = j as u64;
                if p < j || (p - j) % m != r % m {
                    continue;
                }
                let at = pool.constant(64, (p - j) as u128);
                let c = pool.eq(u.offset, at);
                match pool.as_const(c) {
                    Some(0) => {}
                    Some(_) => {
                        value = mark.unwrap_or(*b);
                        break 'walk;
                    }
                    None => hits.push((c, mark.unwrap_or(*b))),
                }
            }
        }
        for (c, b) in hits.into_iter().rev() {
            value = pool.ite(c, b, value);
        }
        value
    }

    /// Byte `k` of an access at the symbolic `offset`, whose value before
    /// every entry is `base`.
    pub fn byte_at_symbolic(&self, pool: &mut ExprPool, offset: ExprId, k: u64, base: ExprId) -> ExprId {
        let offset_residue = crate::memory::offset_residue::residue(pool, offset, RESIDUE_DEPTH);
        let mut hits: Vec<(ExprId, ExprId)> = Vec::new();
        let mut value = base;
        'walk: for u in self.entries() {
            for (j, b) in u.bytes.iter().enumerate() {
                let Some(b) = b else { continue };
                match same_position_known(pool, (offset, offset_residue), k, (u.offset, u.residue), j as u64) {
                    Alias::No => {}
                    Alias::Must => {
                        value = *b;
                        break 'walk;
                    }
                    Alias::May(c) => hits.push((c, *b)),
                }
            }
        }
        for (c, b) in hits.into_iter().rev() {
            value = pool.ite(c, b, value);
        }
        value
    }

    /// A read of `len` bytes (at most 16) resolved a word at a time: each
    /// entry that may be there must write exactly those bytes, lined up
    /// (the same offset puts its byte k at the read's byte k, and no other
    /// of its bytes can land in the read), as updates of one array slot
    /// do. The select is then over whole words, not over each byte (whose
    /// selects a later join of the bytes would rebuild). None when an
    /// entry overlaps otherwise: the caller goes byte by byte.
    /// `diagonal(pool, entry offset and residue)` is the condition that the
    /// entry is lined up with the read; `can_meet(pool, entry offset and
    /// residue, k, j)` whether entry byte j may land on read byte k.
    fn read_words(
        &self,
        pool: &mut ExprPool,
        base: &[ExprId],
        mut diagonal: impl FnMut(&mut ExprPool, (ExprId, (u64, u64))) -> Alias,
        mut can_meet: impl FnMut(&mut ExprPool, (ExprId, (u64, u64)), u64, u64) -> bool,
    ) -> Option<Vec<ExprId>> {
        let len = base.len();
        if !(2..=16).contains(&len) {
            return None;
        }
        let mut hits: Vec<(ExprId, &[Option<ExprId>])> = Vec::new();
        let mut top: Option<&[Option<ExprId>]> = None;
        for u in self.entries() {
            let lined_up = u.bytes.len() == len && u.bytes.iter().all(|b| b.is_some());
            for k in 0..len as u64 {
                for j in 0..u.bytes.len() as u64 {
                    if (k != j || !lined_up) && u.bytes[j as usize].is_some() && can_meet(pool, (u.offset, u.residue), k, j) {
                        return None;
                    }
                }
            }
            if !lined_up {
                continue;
            }
            match diagonal(pool, (u.offset, u.residue)) {
                Alias::No => {}
                Alias::Must => {
                    top = Some(&u.bytes);
                    break;
                }
                Alias::May(c) => hits.push((c, &u.bytes)),
            }
        }
        let join = |pool: &mut ExprPool, bytes: &mut dyn Iterator<Item = ExprId>| -> ExprId {
            let mut word: Option<ExprId> = None;
            for b in bytes {
                // Little-endian: later bytes are higher.
                word = Some(match word {
                    None => b,
                    Some(w) => pool.concat(b, w),
                });
            }
            word.expect("two bytes or more")
        };
        let mut word = match top {
            Some(bytes) => join(pool, &mut bytes.iter().flatten().copied()),
            None => join(pool, &mut base.iter().copied()),
        };
        for (c, bytes) in hits.into_iter().rev() {
            let w = join(pool, &mut bytes.iter().flatten().copied());
            word = pool.ite(c, w, word);
        }
        Some((0..len as u32).map(|k| pool.extract(word, 8 * k, 8)).collect())
    }

    /// Bytes `p..p + base.len()` (numbers), whose values before every
    /// entry are `base`.
    pub fn read_at(&self, pool: &mut ExprPool, p: u64, base: &[ExprId]) -> Vec<ExprId> {
        let at = pool.constant(64, p as u128);
        if let Some(bytes) = self.lazy_read(pool, at, base) {
            return bytes;
        }
        let words = self.read_words(
            pool,
            base,
            |pool, (offset, _)| {
                let at = pool.constant(64, p as u128);
                let c = pool.eq(offset, at);
                match pool.as_const(c) {
                    Some(0) => Alias::No,
                    Some(_) => Alias::Must,
                    None => Alias::May(c),
                }
            },
            |pool, (offset, (m, r)), k, j| match pool.as_const(offset) {
                Some(at) => (at as u64).wrapping_add(j) == p.wrapping_add(k),
                None => p + k >= j && (p + k - j) % m == r % m,
            },
        );
        words.unwrap_or_else(|| base.iter().enumerate().map(|(k, b)| self.byte_at(pool, p + k as u64, *b)).collect())
    }

    /// Bytes of an access at the symbolic `offset`, whose values before
    /// every entry are `base`.
    pub fn read_at_symbolic(&self, pool: &mut ExprPool, offset: ExprId, base: &[ExprId]) -> Vec<ExprId> {
        if let Some(bytes) = self.lazy_read(pool, offset, base) {
            return bytes;
        }
        let read = (offset, crate::memory::offset_residue::residue(pool, offset, RESIDUE_DEPTH));
        let mut met: Vec<((ExprId, u64), bool)> = Vec::new();
        let words = self.read_words(
            pool,
            base,
            |pool, entry| same_position_known(pool, read, 0, entry, 0),
            |pool, entry, k, j| {
                let at = entry.0;
                // One entry asks for every pair of bytes: the answer depends
                // on k - j only.
                let d = k.wrapping_sub(j);
                if met.first().is_some_and(|((o, _), _)| *o != at) {
                    met.clear();
                }
                if let Some(&(_, v)) = met.iter().find(|(key, _)| *key == (at, d)) {
                    return v;
                }
                let v = same_position_possible(pool, read, k, entry, j);
                met.push(((at, d), v));
                v
            },
        );
        words.unwrap_or_else(|| base.iter().enumerate().map(|(k, b)| self.byte_at_symbolic(pool, offset, k as u64, *b)).collect())
    }

    /// Bytes `offset..offset + base.len()` (at most 16) as one lazy read
    /// of the list, when some byte may be at `LAZY_READ_WRITES` written
    /// bytes or more. A read that fewer writes may reach (most reads at
    /// numbers: writes surely there or surely not decide them) keeps its
    /// selects, which fold.
    fn lazy_read(&self, pool: &mut ExprPool, offset: ExprId, base: &[ExprId]) -> Option<Vec<ExprId>> {
        if self.len < LAZY_READ_WRITES || !(1..=16).contains(&base.len()) {
            return None;
        }
        let newest = self.newest.clone()?;
        let mut word = base[0];
        for b in &base[1..] {
            // Little-endian: later bytes are higher.
            word = pool.concat(*b, word);
        }
        let residue = crate::memory::offset_residue::residue(pool, offset, RESIDUE_DEPTH);
        let read = crate::expr::LogRead { newest, offset, residue, base: word };
        let many = (0..base.len() as u64).any(|k| crate::expr::log_read::byte_sources(pool, &read, k).0.len() >= LAZY_READ_WRITES);
        if !many {
            return None;
        }
        let read = pool.log_read(read.newest, offset, residue, word);
        Some((0..base.len() as u32).map(|k| pool.extract(read, 8 * k, 8)).collect())
    }

    /// Each entry's offset and which bytes it writes, oldest first (for a
    /// log kept beside this one, mask_log.rs, started after some entries).
    pub fn written_places(&self) -> Vec<(ExprId, Box<[bool]>)> {
        let mut places: Vec<(ExprId, Box<[bool]>)> =
            self.entries().map(|u| (u.offset, u.bytes.iter().map(Option::is_some).collect())).collect();
        places.reverse();
        places
    }

    /// The bytes every entry writes, for a caller asking whether they all
    /// hold one value.
    pub fn written_values(&self) -> impl Iterator<Item = ExprId> + '_ {
        self.entries().flat_map(|u| u.bytes.iter().flatten().copied())
    }
}

/// Whether byte `j` of a write at an offset `≡ r (mod m)` can land in
/// `off..off + len`: some position `p` there with `p - j ≡ r (mod m)`.
fn lands_in(off: u64, len: u64, j: u64, m: u64, r: u64) -> bool {
    let lo = off.max(j);
    let end = off.saturating_add(len);
    if lo >= end {
        return false;
    }
    let want = (r % m + j % m) % m;
    let first = lo + (want + m - lo % m) % m;
    first < end
}

/// Whether byte `i` of an access at `a` and byte `j` of one at `b` may be
/// the same byte, without building the condition.
fn same_position_possible(
    pool: &ExprPool,
    (a, (ma, ra)): (ExprId, (u64, u64)),
    i: u64,
    (b, (mb, rb)): (ExprId, (u64, u64)),
    j: u64,
) -> bool {
    let ((xa, ca), (xb, cb)) = (split(pool, a), split(pool, b));
    if xa == xb {
        return ca.wrapping_add(i) == cb.wrapping_add(j);
    }
    let m = ma.min(mb);
    ra.wrapping_add(i) % m == rb.wrapping_add(j) % m
}

/// Whether byte `i` of an access at `a` and byte `j` of one at `b` (64-bit
/// offsets) are the same byte of the object.
pub fn same_position(pool: &mut ExprPool, a: ExprId, i: u64, b: ExprId, j: u64) -> Alias {
    let ra = crate::memory::offset_residue::residue(pool, a, RESIDUE_DEPTH);
    let rb = crate::memory::offset_residue::residue(pool, b, RESIDUE_DEPTH);
    same_position_known(pool, (a, ra), i, (b, rb), j)
}

/// `same_position` for offsets whose known low bits (`(m, r)`) are given.
fn same_position_known(
    pool: &mut ExprPool,
    (a, (ma, ra)): (ExprId, (u64, u64)),
    i: u64,
    (b, (mb, rb)): (ExprId, (u64, u64)),
    j: u64,
) -> Alias {
    let ((xa, ca), (xb, cb)) = (split(pool, a), split(pool, b));
    if xa == xb {
        return if ca.wrapping_add(i) == cb.wrapping_add(j) { Alias::Must } else { Alias::No };
    }
    let m = ma.min(mb);
    if ra.wrapping_add(i) % m != rb.wrapping_add(j) % m {
        return Alias::No;
    }
    let lhs = if i == j {
        a
    } else {
        let d = pool.constant(64, i.wrapping_sub(j) as u128);
        pool.add(a, d)
    };
    let c = pool.eq(lhs, b);
    match pool.as_const(c) {
        Some(0) => Alias::No,
        Some(_) => Alias::Must,
        None => Alias::May(c),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::Expr;

    fn word(pool: &mut ExprPool, v: u8) -> Box<[Option<ExprId>]> {
        (0..4).map(|k| Some(pool.constant(8, (v + k) as u128))).collect()
    }

    #[test]
    fn a_read_at_a_number_selects_only_over_writes_that_may_be_there() {
        let mut pool = ExprPool::new();
        let i = pool.fresh(64);
        let four = pool.constant(64, 4);
        let slot = pool.mul(i, four);
        let mut log = StoreLog::default();
        let w = word(&mut pool, 10);
        log.push(&pool, slot, w);
        let zero = pool.constant(8, 0);
        // Byte 8 is byte 0 of the word when i = 2; byte 9 byte 1.
        let b8 = log.byte_at(&mut pool, 8, zero);
        let two = pool.constant(64, 8);
        let hit = pool.eq(slot, two);
        let ten = pool.constant(8, 10);
        assert_eq!(b8, pool.ite(hit, ten, zero));
        // A write at number 8 after it hides it at bytes 8..12 only.
        let w = word(&mut pool, 50);
        let eight = pool.constant(64, 8);
        log.push(&pool, eight, w);
        assert_eq!(log.byte_at(&mut pool, 9, zero), pool.constant(8, 51));
        assert!(log.may_touch(&mut pool, 13, 1));
        let mut numbers = StoreLog::default();
        let w = word(&mut pool, 1);
        numbers.push(&pool, eight, w);
        assert!(!numbers.may_touch(&mut pool, 12, 100) && numbers.may_touch(&mut pool, 11, 1));
        // Words at multiples of 4 never put their byte 0 at an odd position.
        let mut slots = StoreLog::default();
        let first_bytes: Box<[Option<ExprId>]> = vec![Some(ten), None].into_boxed_slice();
        slots.push(&pool, slot, first_bytes);
        assert!(!slots.may_touch(&mut pool, 5, 3) && slots.may_touch(&mut pool, 5, 4));
    }

    #[test]
    fn offsets_a_known_distance_apart_need_no_comparison() {
        let mut pool = ExprPool::new();
        let x = pool.fresh(64);
        let four = pool.constant(64, 4);
        let x4 = pool.add(x, four);
        assert_eq!(same_position(&mut pool, x, 4, x4, 0), Alias::Must);
        assert_eq!(same_position(&mut pool, x, 0, x4, 0), Alias::No);
        let y = pool.fresh(64);
        let (y4, x4m) = (pool.mul(y, four), pool.mul(x, four));
        assert_eq!(same_position(&mut pool, y4, 1, x4m, 0), Alias::No);
        assert!(matches!(same_position(&mut pool, y4, 1, x4m, 1), Alias::May(_)));
    }

    #[test]
    fn only_a_read_that_many_writes_may_reach_is_one_lazy_node() {
        let mut pool = ExprPool::new();
        let four = pool.constant(64, 4);
        let mut log = StoreLog::default();
        for k in 0..20 {
            let i = pool.fresh(64);
            let slot = pool.mul(i, four);
            let w = word(&mut pool, k);
            log.push(&pool, slot, w);
        }
        let eight = pool.constant(64, 8);
        let w = word(&mut pool, 50);
        log.push(&pool, eight, w);
        let zero = pool.constant(8, 0);
        let base = [zero; 4];
        // The newest write is surely there: its bytes, folded.
        let want: Vec<ExprId> = (50..54).map(|v| pool.constant(8, v)).collect();
        assert_eq!(log.read_at(&mut pool, 8, &base), want);
        // Elsewhere each of the 20 writes at symbolic slots may be there.
        let lazy = |pool: &ExprPool, b: ExprId| match &*pool.get(b) {
            Expr::Extract { value, .. } => matches!(*pool.get(*value), Expr::LogRead(_)),
            _ => false,
        };
        let got = log.read_at(&mut pool, 12, &base);
        assert!(got.iter().all(|b| lazy(&pool, *b)), "one lazy read");
        let j = pool.fresh(64);
        let at = pool.mul(j, four);
        let got = log.read_at_symbolic(&mut pool, at, &base);
        assert!(got.iter().all(|b| lazy(&pool, *b)), "one lazy read");
        // A shorter list keeps its selects.
        let mut short = StoreLog::default();
        for k in 0..3 {
            let i = pool.fresh(64);
            let slot = pool.mul(i, four);
            let w = word(&mut pool, k);
            short.push(&pool, slot, w);
        }
        let got = short.read_at_symbolic(&mut pool, at, &base);
        assert!(got.iter().all(|b| !lazy(&pool, *b)), "selects");
    }

    #[test]
    fn a_long_list_drops_without_recursion() {
        let mut pool = ExprPool::new();
        let mut log = StoreLog::default();
        let b = pool.constant(8, 1);
        for k in 0..200_000u64 {
            let x = pool.fresh(64);
            let _ = k;
            log.push(&pool, x, vec![Some(b)].into_boxed_slice());
        }
        assert_eq!(log.len(), 200_000);
        drop(log);
    }
}
