//! The last few writes at symbolic offsets into an object that is not
//! wholly defined (its bytes are rewritten as selects on the offset, and
//! so are their masks), kept so that a read at the offset of one of them
//! takes that write's bytes and masks directly: store-to-load forwarding.
//! Without it the read is a select over every byte of the object and its
//! masks, and asking whether those masks can be non-zero was a hard
//! question for the solver, though the answer is the write's own masks.
//!
//! The list is valid only while the object is not changed otherwise:
//! `Memory::object_mut` empties it, and the write that adds an entry keeps
//! the entries from before it (`Memory::record_symbolic_write`).

use crate::expr::{ExprId, ExprPool};
use crate::memory::store_log::{same_position, Alias};
use crate::memory::OriginId;
use std::rc::Rc;

/// How many writes are kept: a read needing an older one reads the object.
const KEPT: usize = 4;

/// Reads longer than this are not forwarded (a pair of bytes is compared
/// per entry byte and read byte).
const LONGEST_READ: u64 = 16;

/// One write at a symbolic offset, as it was stored.
#[derive(Debug)]
pub struct RecentWrite {
    /// Byte offset in the object (64 bits).
    pub offset: ExprId,
    /// The bytes written (None: left alone, such as struct padding).
    pub bytes: Box<[Option<ExprId>]>,
    /// Their masks of indeterminate bits (zero where defined), laid out as
    /// `bytes`.
    pub masks: Box<[ExprId]>,
    /// The origin of those bits, when some may be set.
    pub origin: Option<OriginId>,
}

/// The writes, oldest first.
#[derive(Clone, Debug, Default)]
pub struct RecentWrites {
    entries: Vec<Rc<RecentWrite>>,
}

/// What a forwarded read gives: the bytes, their masks and the origin of
/// the bits the masks may set (None: every mask is zero).
pub struct Forwarded {
    /// The bytes read.
    pub bytes: Vec<ExprId>,
    /// One mask per byte.
    pub masks: Vec<ExprId>,
    /// Where indeterminate bits come from, if any may be.
    pub origin: Option<OriginId>,
}

impl RecentWrites {
    /// Whether no write is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Adds `write` as the newest, dropping the oldest beyond `KEPT`.
    pub fn push(&mut self, write: RecentWrite) {
        if self.entries.len() == KEPT {
            self.entries.remove(0);
        }
        self.entries.push(Rc::new(write));
    }

    /// The `len` bytes at the symbolic `offset`, when every one of them is
    /// surely at a byte some kept write stored: each is that write's byte
    /// under the newer writes that may be at it (a select on their offset).
    /// None when a byte may hold what the object held before the kept
    /// writes: the caller reads the object.
    pub fn read(&self, pool: &mut ExprPool, offset: ExprId, len: u64) -> Option<Forwarded> {
        if self.entries.is_empty() || len == 0 || len > LONGEST_READ {
            return None;
        }
        let zero = pool.constant(8, 0);
        let mut out = Forwarded { bytes: Vec::with_capacity(len as usize), masks: Vec::with_capacity(len as usize), origin: None };
        for i in 0..len {
            // (condition, byte, mask, origin) of the newer writes that may be here.
            let mut hits: Vec<(ExprId, ExprId, ExprId, Option<OriginId>)> = Vec::new();
            let mut found = None;
            'walk: for w in self.entries.iter().rev() {
                for (j, b) in w.bytes.iter().enumerate() {
                    let Some(b) = b else { continue };
                    match same_position(pool, offset, i, w.offset, j as u64) {
                        Alias::No => {}
                        Alias::Must => {
                            found = Some((*b, w.masks[j], w.origin));
                            break 'walk;
                        }
                        Alias::May(c) => hits.push((c, *b, w.masks[j], w.origin)),
                    }
                }
            }
            let (mut byte, mut mask, origin) = found?;
            let keep_origin = |m: ExprId, o: Option<OriginId>, out: &mut Forwarded| {
                if m != zero && out.origin.is_none() {
                    out.origin = o;
                }
            };
            keep_origin(mask, origin, &mut out);
            for (c, b, m, o) in hits.into_iter().rev() {
                byte = pool.ite(c, b, byte);
                mask = pool.ite(c, m, mask);
                keep_origin(m, o, &mut out);
            }
            out.bytes.push(byte);
            out.masks.push(mask);
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(pool: &mut ExprPool, offset: ExprId, values: &[u8], mask: u8, origin: Option<OriginId>) -> RecentWrite {
        RecentWrite {
            offset,
            bytes: values.iter().map(|v| Some(pool.constant(8, *v as u128))).collect(),
            masks: values.iter().map(|_| pool.constant(8, mask as u128)).collect(),
            origin,
        }
    }

    #[test]
    fn a_read_at_the_offset_of_the_last_write_takes_its_bytes_and_masks() {
        let mut pool = ExprPool::new();
        let i = pool.fresh(64);
        let sixteen = pool.constant(64, 16);
        let slot = pool.mul(i, sixteen);
        let four = pool.constant(64, 4);
        let field = pool.add(slot, four);
        let mut recent = RecentWrites::default();
        let w = write(&mut pool, field, &[1, 2, 3, 4], 0, None);
        recent.push(w);
        let got = recent.read(&mut pool, field, 4).expect("forwarded");
        let want: Vec<ExprId> = (1..=4).map(|v| pool.constant(8, v)).collect();
        assert_eq!(got.bytes, want);
        assert!(got.masks.iter().all(|m| pool.as_const(*m) == Some(0)) && got.origin.is_none());
        // Two bytes further in: bytes 2 and 3 only; the next two may be
        // anything the object held.
        let six = pool.constant(64, 6);
        let later = pool.add(slot, six);
        assert_eq!(recent.read(&mut pool, later, 2).map(|f| f.bytes), Some(want[2..].to_vec()));
        assert!(recent.read(&mut pool, later, 4).is_none());
        // A slot of another index may or may not be this one.
        let k = pool.fresh(64);
        let other = pool.mul(k, sixteen);
        let other = pool.add(other, four);
        assert!(recent.read(&mut pool, other, 4).is_none());
    }

    #[test]
    fn a_newer_write_that_may_be_there_is_selected_over_the_forwarded_one() {
        let mut pool = ExprPool::new();
        let (i, k) = (pool.fresh(64), pool.fresh(64));
        let mut recent = RecentWrites::default();
        let older = write(&mut pool, i, &[7], 0, None);
        recent.push(older);
        let newer = write(&mut pool, k, &[9], 0xff, Some(OriginId(3)));
        recent.push(newer);
        let got = recent.read(&mut pool, i, 1).expect("forwarded");
        let same = pool.eq(i, k);
        let (seven, nine) = (pool.constant(8, 7), pool.constant(8, 9));
        let (zero, all) = (pool.constant(8, 0), pool.constant(8, 0xff));
        assert_eq!(got.bytes, vec![pool.ite(same, nine, seven)]);
        assert_eq!(got.masks, vec![pool.ite(same, all, zero)]);
        assert_eq!(got.origin, Some(OriginId(3)));
    }

    #[test]
    fn only_the_last_few_writes_are_kept() {
        let mut pool = ExprPool::new();
        let first = pool.fresh(64);
        let mut recent = RecentWrites::default();
        let w = write(&mut pool, first, &[1], 0, None);
        recent.push(w);
        for _ in 0..KEPT {
            let x = pool.fresh(64);
            let w = write(&mut pool, x, &[2], 0, None);
            recent.push(w);
        }
        assert!(recent.read(&mut pool, first, 1).is_none());
    }
}
