//! Concrete vectors as plain bits while a stretch runs. SIMD code spends
//! most of its instructions re-slicing one 128- or 256-bit value into
//! lanes of another width (`<2 x i64>` to `<8 x i16>` and back around
//! every intrinsic) and computing lane by lane; as expression handles,
//! every 64-bit lane that does not fit inline is a pool constant made per
//! operation, and every vector a list of handles to decode and allocate.
//! Here a vector register of numbers is up to 256 bits with a lane width:
//! a bit cast only changes the width, an operation works on numbers.
//!
//! The frame's register holds no value while its raw form is the newer
//! (it is `None`, which every reader that does not know the raw form takes
//! for a register it cannot read, ending the stretch), and the raw form
//! is turned into the handles the general step would have built (the same
//! lanes, each `ExprPool::constant`) when an instruction that does not
//! compute on raw lanes reads it and when the stretch leaves the frame.
//! Only the constants that outlive a stretch are therefore made, which
//! leaves every node numbered as the general step numbers it (the pool
//! keeps wide constants apart from its nodes, expr/mod.rs).

use super::decode::ConstLanes;
use super::run::{make, ones};
use crate::exec::engine::state::Frame;
use crate::expr::value::Value;
use crate::expr::{ExprId, ExprPool};
use crate::ir::Type;

/// The most bits a raw vector holds (AVX2's registers).
const RAW_WORDS: usize = 4;

/// A vector of `n` lanes of `w` bits, lane `i` at bits `i * w` of
/// `bits` (little-endian over the words); bits past the last lane are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Raw {
    pub bits: [u64; RAW_WORDS],
    pub w: u32,
    pub n: u32,
}

/// Whether `n` lanes of `w` bits are held raw: widths that divide a word
/// (a lane never straddles two), at most 256 bits in all.
#[inline(always)]
pub(super) fn fits(w: u32, n: u32) -> bool {
    matches!(w, 1 | 8 | 16 | 32 | 64) && n >= 1 && n * w <= 64 * RAW_WORDS as u32
}

impl Raw {
    /// `n` lanes of `w` bits, all 0.
    #[inline(always)]
    pub fn zero(w: u32, n: u32) -> Raw {
        Raw { bits: [0; RAW_WORDS], w, n }
    }

    /// Lane `i`.
    #[inline(always)]
    pub fn lane(&self, i: u32) -> u64 {
        let at = i * self.w;
        (self.bits[(at / 64) as usize] >> (at % 64)) & ones(self.w)
    }

    /// Sets lane `i` to the low `w` bits of `v`.
    #[inline(always)]
    pub fn set(&mut self, i: u32, v: u64) {
        let at = i * self.w;
        let (word, shift, m) = ((at / 64) as usize, at % 64, ones(self.w));
        self.bits[word] = (self.bits[word] & !(m << shift)) | ((v & m) << shift);
    }

    /// The same bits as lanes of `to` bits, when they divide them evenly.
    #[inline]
    pub fn relaned(self, to: u32) -> Option<Raw> {
        let total = self.w * self.n;
        (to > 0 && total.is_multiple_of(to) && fits(to, total / to)).then_some(Raw { bits: self.bits, w: to, n: total / to })
    }

    /// Byte `k` of the vector as memory holds it (little-endian).
    #[inline(always)]
    pub fn byte(&self, k: u32) -> u8 {
        (self.bits[(k / 8) as usize] >> (8 * (k % 8))) as u8
    }

    /// The lanes of constant handles, all of one width that `fits`; None
    /// when a lane is not a constant.
    #[inline]
    pub fn from_handles(pool: &ExprPool, lanes: &[ExprId]) -> Option<Raw> {
        let w = pool.width(*lanes.first()?);
        let n = lanes.len() as u32;
        if !fits(w, n) {
            return None;
        }
        let mut out = Raw::zero(w, n);
        for (i, l) in lanes.iter().enumerate() {
            let v = match l.as_word_const(w) {
                Some(v) => v,
                None if pool.width(*l) == w => pool.as_const(*l)? as u64,
                None => return None,
            };
            out.set(i as u32, v);
        }
        Some(out)
    }

    /// The handles the general step holds for these lanes.
    pub fn handles(&self, pool: &mut ExprPool) -> Value {
        (0..self.n).map(|i| make(pool, self.w, self.lane(i))).collect()
    }
}

/// Lane width and count of a vector of integers or floats.
#[inline]
pub(super) fn vector_shape(t: &Type) -> Option<(u32, u32)> {
    match t {
        Type::Vector { elem, len } => match **elem {
            Type::Int(w) => Some((w, *len)),
            Type::Float(f) => Some((f.width(), *len)),
            _ => None,
        },
        _ => None,
    }
}

/// The raw form of a constant operand of several lanes, with its `undef`
/// lanes (read as 0, as in `ConstLanes::value`).
pub(super) fn const_raw(pool: &ExprPool, c: &ConstLanes) -> Option<Raw> {
    Raw::from_handles(pool, &c.value)
}

/// The raw registers of the running frame during one stretch. A
/// register's raw value is current while its stamp is the stretch's;
/// `pending` lists the registers whose frame slot does not hold it yet.
#[derive(Default)]
pub(in crate::exec) struct RawRegs {
    values: Vec<Raw>,
    stamps: Vec<u32>,
    /// A register's raw value is also in its frame slot (stamp as above).
    synced: Vec<u32>,
    pending: Vec<u32>,
    /// A register is in `pending` (stamp as above).
    listed: Vec<u32>,
    epoch: u32,
    /// Some register was written raw in this stretch.
    pub used: bool,
}

impl RawRegs {
    /// Starts a stretch in a frame of `regs` registers: no register raw.
    #[inline]
    pub fn begin(&mut self, regs: usize) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            // Stamps of 0 mean "never": start the numbering again.
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.synced.iter_mut().for_each(|s| *s = 0);
            self.listed.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        if self.values.len() < regs {
            self.values.resize(regs, Raw::zero(8, 1));
            self.stamps.resize(regs, 0);
            self.synced.resize(regs, 0);
            self.listed.resize(regs, 0);
        }
        self.pending.clear();
        self.used = false;
    }

    /// The raw value of register `r`, if current.
    #[inline(always)]
    pub fn get(&self, r: u32) -> Option<Raw> {
        (self.used && self.stamps[r as usize] == self.epoch).then(|| self.values[r as usize])
    }

    /// Whether register `r` is raw and its frame slot lacks the value.
    #[inline(always)]
    fn unsynced(&self, r: u32) -> bool {
        self.stamps[r as usize] == self.epoch && self.synced[r as usize] != self.epoch
    }

    /// Register `r` takes `v`; its frame slot is emptied until `sync`.
    #[inline]
    pub fn write(&mut self, frame: &mut Frame, r: u32, v: Raw) {
        let i = r as usize;
        if self.listed[i] != self.epoch {
            self.listed[i] = self.epoch;
            self.pending.push(r);
        }
        self.values[i] = v;
        self.stamps[i] = self.epoch;
        self.synced[i] = 0;
        self.used = true;
        frame.regs[i] = None;
    }

    /// Register `r` took a value in its frame slot: its raw value is gone.
    #[inline(always)]
    pub fn forget(&mut self, r: u32) {
        if self.used {
            self.stamps[r as usize] = 0;
        }
    }

    /// Puts the handles of register `r`'s raw value in its frame slot,
    /// when it lacks them.
    #[inline]
    pub fn sync(&mut self, frame: &mut Frame, pool: &mut ExprPool, r: u32) {
        if self.used && self.unsynced(r) {
            frame.regs[r as usize] = Some(self.values[r as usize].handles(pool));
            self.synced[r as usize] = self.epoch;
        }
    }

    /// Puts every raw value in its frame slot (the stretch leaves the
    /// frame, or an instruction goes to the general step).
    pub fn flush(&mut self, frame: &mut Frame, pool: &mut ExprPool) {
        if !self.used {
            return;
        }
        for k in 0..self.pending.len() {
            let r = self.pending[k];
            self.sync(frame, pool, r);
        }
        self.pending.clear();
        self.used = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_are_little_endian_bits_and_a_bit_cast_changes_only_the_width() {
        let mut v = Raw::zero(64, 2);
        v.set(0, 0x0123_4567_89ab_cdef);
        v.set(1, 0xfedc_ba98_7654_3210);
        let h = v.relaned(16).expect("8 lanes of 16 bits");
        assert_eq!((h.w, h.n), (16, 8));
        assert_eq!((0..8).map(|i| h.lane(i)).collect::<Vec<_>>(), [0xcdef, 0x89ab, 0x4567, 0x0123, 0x3210, 0x7654, 0xba98, 0xfedc]);
        assert_eq!(v.byte(0), 0xef);
        assert_eq!(v.byte(15), 0xfe);
        let bits = v.relaned(1).expect("128 lanes of 1 bit");
        assert_eq!((bits.lane(0), bits.lane(4), bits.lane(127)), (1, 0, 1));
        assert_eq!(v.relaned(128), None, "128-bit lanes are not held raw");
        assert_eq!(v.relaned(24), None);
        // Setting a lane keeps to its width and leaves its neighbours.
        let mut b = h;
        b.set(3, 0x1_ffff);
        assert_eq!((b.lane(2), b.lane(3), b.lane(4)), (0x4567, 0xffff, 0x3210));
    }

    #[test]
    fn handles_and_raw_lanes_give_each_other_back() {
        let mut pool = ExprPool::new();
        // 64-bit lanes too wide to be carried inline, and one that is.
        let lanes: Value = [0xffee_ddcc_bbaa_9988u64, 5, 0x8000_0000_0000_0000].iter().map(|v| pool.constant(64, *v as u128)).collect();
        let raw = Raw::from_handles(&pool, &lanes).expect("numbers");
        assert_eq!((raw.w, raw.n, raw.lane(0), raw.lane(2)), (64, 3, 0xffee_ddcc_bbaa_9988, 1 << 63));
        assert_eq!(raw.handles(&mut pool), lanes, "the very handles the pool gives");
        let x = pool.input_byte(0, 0);
        let x = pool.zext(x, 64);
        assert_eq!(Raw::from_handles(&pool, &[lanes[0], x]), None, "a lane that is not a number");
        let narrow = pool.constant(32, 1);
        assert_eq!(Raw::from_handles(&pool, &[lanes[0], narrow]), None, "lanes of two widths");
        let five: Value = (0..5).map(|_| pool.constant(64, 1)).collect();
        assert_eq!(Raw::from_handles(&pool, &five), None, "more than 256 bits");
    }
}
