//! The indeterminate bits of the writes waiting in an object's store log
//! (store_log.rs), kept beside it so that a store of a value with a shadow
//! at a symbolic offset costs the bytes it writes, not a select over every
//! byte and mask of the object (issue 34).
//!
//! The log starts empty at the first such store into an object whose pages
//! are all defined (no never-written byte, no `poison` entry): below its
//! entries every mask is the pages' one. Its entries, newest first:
//! - a write at a symbolic offset: its masks (zero for a defined value);
//! - a write at a number that joined the store log: it defers to the
//!   pages' mask of the byte (`poison`), which whoever writes at a number
//!   keeps as the mask of the newest write there (shadow_mem.rs).
//!
//! A byte's mask is the newest entry that must be there, over the entries
//! that may be (a select on the offset), over the pages' mask: what
//! rewriting every byte at the store would have given, bit for bit.

use crate::expr::{ExprId, ExprPool};
use crate::memory::store_log::{same_position, Alias};
use crate::memory::OriginId;
use std::rc::Rc;

/// Depth to which the low bits of an offset are looked for.
const RESIDUE_DEPTH: u32 = 12;

#[derive(Debug)]
struct Entry {
    offset: ExprId,
    /// The offset when it is a number.
    at: Option<u64>,
    /// The offset's known low bits (offset_residue.rs): `offset ≡ r (mod m)`.
    residue: (u64, u64),
    /// One per byte written (None: left alone).
    masks: Box<[Option<ExprId>]>,
    /// A write at a number: the pages' mask is the byte's.
    defers: bool,
    older: Option<Rc<Entry>>,
}

impl Drop for Entry {
    // A long list drops one entry at a time, not by recursion.
    fn drop(&mut self) {
        let mut next = self.older.take();
        while let Some(e) = next {
            match Rc::try_unwrap(e) {
                Ok(mut e) => next = e.older.take(),
                Err(_) => break,
            }
        }
    }
}

/// The masks of an object's pending writes, newest first, and the origin
/// of their indeterminate bits (the newest store's with a shadow, as the
/// rewrite of every byte gave them).
#[derive(Clone, Debug)]
pub struct MaskLog {
    newest: Option<Rc<Entry>>,
    origin: OriginId,
}

impl MaskLog {
    /// An empty log whose masks come from `origin`.
    pub fn new(origin: OriginId) -> Self {
        MaskLog { newest: None, origin }
    }

    /// Where the indeterminate bits of the log come from.
    pub fn origin(&self) -> OriginId {
        self.origin
    }

    /// Whether both hold the very same entries.
    pub fn same(&self, other: &MaskLog) -> bool {
        self.origin == other.origin
            && match (&self.newest, &other.newest) {
                (None, None) => true,
                (Some(a), Some(b)) => Rc::ptr_eq(a, b),
                _ => false,
            }
    }

    fn entries(&self) -> impl Iterator<Item = &Entry> {
        std::iter::successors(self.newest.as_deref(), |e| e.older.as_deref())
    }

    /// Appends the masks of a write at `offset` (`defers`: a write at a
    /// number, whose masks are the pages'), `origin` the origin of its
    /// indeterminate bits when it has a shadow. A write at the newest
    /// entry's offset covering every byte of it replaces it.
    pub fn push(&mut self, pool: &ExprPool, offset: ExprId, masks: Box<[Option<ExprId>]>, defers: bool, origin: Option<OriginId>) {
        if let Some(o) = origin {
            self.origin = o;
        }
        let residue = crate::memory::offset_residue::residue(pool, offset, RESIDUE_DEPTH);
        let at = pool.as_const(offset).map(|v| v as u64);
        let older = match &self.newest {
            Some(top)
                if top.offset == offset
                    && masks.len() >= top.masks.len()
                    && top.masks.iter().enumerate().all(|(k, m)| m.is_none() || masks[k].is_some()) =>
            {
                top.older.clone()
            }
            _ => self.newest.take(),
        };
        self.newest = Some(Rc::new(Entry { offset, at, residue, masks, defers, older }));
    }

    /// Whether some entry not deferring to the pages may write a byte of
    /// `off..off + len` (bytes no entry can reach have the pages' masks).
    pub fn may_touch(&self, off: u64, len: u64) -> bool {
        self.entries().filter(|e| !e.defers).any(|e| {
            let n = e.masks.len() as u64;
            if let Some(at) = e.at {
                return at < off.saturating_add(len) && off < at.saturating_add(n);
            }
            let (m, r) = e.residue;
            (0..n).any(|j| e.masks[j as usize].is_some() && lands_in(off, len, j, m, r))
        })
    }

    /// The mask of byte `p` (a number), whose pages' mask is `page`.
    pub fn mask_at(&self, pool: &mut ExprPool, p: u64, page: ExprId) -> ExprId {
        let mut hits: Vec<(ExprId, ExprId)> = Vec::new();
        let mut value = page;
        'walk: for e in self.entries() {
            if let Some(at) = e.at {
                if p >= at && p - at < e.masks.len() as u64 {
                    if let Some(m) = e.masks[(p - at) as usize] {
                        value = if e.defers { page } else { m };
                        break 'walk;
                    }
                }
                continue;
            }
            let (md, r) = e.residue;
            for (j, m) in e.masks.iter().enumerate() {
                let Some(m) = m else { continue };
                let j = j as u64;
                if p < j || (p - j) % md != r % md {
                    continue;
                }
                let here = pool.constant(64, u128::from(p - j));
                let c = pool.eq(e.offset, here);
                match pool.as_const(c) {
                    Some(0) => {}
                    Some(_) => {
                        value = *m;
                        break 'walk;
                    }
                    None => hits.push((c, *m)),
                }
            }
        }
        for (c, m) in hits.into_iter().rev() {
            value = pool.ite(c, m, value);
        }
        value
    }

    /// The mask of byte `k` of an access at the symbolic `offset`, whose
    /// pages' mask there is `base`; `page(q)` is the pages' mask of byte
    /// `q` (a number), for entries deferring to the pages.
    pub fn mask_at_symbolic(
        &self,
        pool: &mut ExprPool,
        offset: ExprId,
        k: u64,
        base: ExprId,
        page: &mut dyn FnMut(&mut ExprPool, u64) -> ExprId,
    ) -> ExprId {
        let mut hits: Vec<(ExprId, ExprId)> = Vec::new();
        let mut value = base;
        'walk: for e in self.entries() {
            for (j, m) in e.masks.iter().enumerate() {
                let Some(m) = m else { continue };
                let j = j as u64;
                let mask = |pool: &mut ExprPool, page: &mut dyn FnMut(&mut ExprPool, u64) -> ExprId| match (e.defers, e.at) {
                    (true, Some(at)) => page(pool, at.wrapping_add(j)),
                    _ => *m,
                };
                match same_position(pool, offset, k, e.offset, j) {
                    Alias::No => {}
                    Alias::Must => {
                        value = mask(pool, page);
                        break 'walk;
                    }
                    Alias::May(c) => {
                        let v = mask(pool, page);
                        hits.push((c, v));
                    }
                }
            }
        }
        for (c, m) in hits.into_iter().rev() {
            value = pool.ite(c, m, value);
        }
        value
    }
}

/// Whether byte `j` of a write at an offset `≡ r (mod m)` can land in
/// `off..off + len`.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{evaluate, Assignment};

    /// The masks a read gets through the log are those of rewriting every
    /// byte at each store (a select on the offset per byte), under every
    /// value of the offsets.
    #[test]
    fn masks_read_through_the_log_are_those_of_the_rewrite_of_every_byte() {
        let mut pool = ExprPool::new();
        let size = 16u64;
        let zero = pool.constant(8, 0);
        let i = pool.fresh(64);
        let four = pool.constant(64, 4);
        let slot = pool.mul(i, four);
        let j = pool.fresh(64);
        let u = pool.fresh(8);
        let mut log = MaskLog::new(OriginId(3));
        // Rewrite: the masks of every byte after each write.
        let mut all = vec![zero; size as usize];
        let store = |pool: &mut ExprPool, all: &mut Vec<ExprId>, at: ExprId, masks: &[ExprId]| {
            // One position at most holds the write: the selects chain.
            for p in 0..=(size - masks.len() as u64) {
                let c = pool.constant(64, u128::from(p));
                let hit = pool.eq(at, c);
                for (k, m) in masks.iter().enumerate() {
                    all[p as usize + k] = pool.ite(hit, *m, all[p as usize + k]);
                }
            }
        };
        // A word with a maybe-indeterminate low byte at slot i.
        let ff = pool.constant(8, 0xff);
        let masks = [u, ff, zero, zero];
        log.push(&pool, slot, masks.iter().map(|m| Some(*m)).collect(), false, Some(OriginId(5)));
        store(&mut pool, &mut all, slot, &masks);
        // A defined byte at j.
        log.push(&pool, j, vec![Some(zero)].into_boxed_slice(), false, None);
        store(&mut pool, &mut all, j, &[zero]);
        // A write at number 9 whose mask the pages keep (0x0f).
        let nine = pool.constant(64, 9);
        log.push(&pool, nine, vec![Some(zero)].into_boxed_slice(), true, None);
        let page9 = pool.constant(8, 0x0f);
        let c9 = pool.constant(64, 9);
        store(&mut pool, &mut all, c9, &[page9]);
        let page = |pool: &mut ExprPool, q: u64| if q == 9 { pool.constant(8, 0x0f) } else { pool.constant(8, 0) };
        assert_eq!(log.origin(), OriginId(5));
        let r = pool.fresh(64);
        for iv in 0..5u128 {
            for jv in 0..17u128 {
                for uv in [0u128, 0x80] {
                    for rv in 0..13u128 {
                        let mut a = Assignment::default();
                        for (e, v) in [(i, iv), (j, jv), (u, uv), (r, rv)] {
                            let crate::expr::Expr::Fresh { id, .. } = *pool.get(e) else { unreachable!() };
                            a.fresh.insert(id, v);
                        }
                        for p in 0..size {
                            let base = if p == 9 { page9 } else { zero };
                            let got = log.mask_at(&mut pool, p, base);
                            assert_eq!(evaluate(&pool, got, &a), evaluate(&pool, all[p as usize], &a), "byte {p}, i {iv}, j {jv}");
                        }
                        // At a symbolic offset r, bytes r..r + 4.
                        for k in 0..4u64 {
                            let mut pg = page;
                            let got = log.mask_at_symbolic(&mut pool, r, k, zero, &mut pg);
                            let want = if rv + u128::from(k) < u128::from(size) {
                                evaluate(&pool, all[(rv + u128::from(k)) as usize], &a)
                            } else {
                                continue;
                            };
                            // Below the log the pages' masks are zero but
                            // at 9, whose write at a number is in the log.
                            let got = evaluate(&pool, got, &a);
                            assert_eq!(got, want, "read at {rv} byte {k}, i {iv}, j {jv}");
                        }
                    }
                }
            }
        }
        // Slots of 4 put their masks at every byte; the write at 9 defers.
        assert!(log.may_touch(1, 1));
        let mut words = MaskLog::new(OriginId(0));
        words.push(&pool, slot, vec![Some(u)].into_boxed_slice(), false, Some(OriginId(1)));
        words.push(&pool, nine, vec![Some(zero)].into_boxed_slice(), true, None);
        assert!(!words.may_touch(5, 3) && words.may_touch(5, 4) && !words.may_touch(9, 1));
    }
}
