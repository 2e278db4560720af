//! What is known of one bit-vector's value: an interval of its unsigned
//! reading and one of its signed reading, both exact integers.
//!
//! Only widths up to 64 bits are tracked, so every bound and every sum or
//! product of two bounds fits an `i128` (checked: an overflow gives up,
//! which only loses knowledge).

use crate::expr::Width;

/// Widest value whose ranges are tracked.
pub const TRACKED_WIDTH: Width = 64;

/// A closed interval of integers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Interval {
    /// Smallest value.
    pub lo: i128,
    /// Largest value.
    pub hi: i128,
}

impl Interval {
    /// `[lo, hi]` (callers keep `lo <= hi`).
    pub fn new(lo: i128, hi: i128) -> Interval {
        debug_assert!(lo <= hi, "interval [{lo}, {hi}]");
        Interval { lo, hi }
    }

    /// The one value `v`.
    pub fn point(v: i128) -> Interval {
        Interval { lo: v, hi: v }
    }

    /// Every unsigned value of `w` bits.
    pub fn unsigned_full(w: Width) -> Interval {
        Interval::new(0, (1i128 << w) - 1)
    }

    /// Every signed value of `w` bits.
    pub fn signed_full(w: Width) -> Interval {
        Interval::new(-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    }

    /// Whether every value of `self` is in `other`.
    pub fn within(self, other: Interval) -> bool {
        other.lo <= self.lo && self.hi <= other.hi
    }

    /// Both bounds at once (None when they do not overlap: the facts
    /// contradict each other, so the path is infeasible; keeping the
    /// first is still sound).
    pub fn meet(self, other: Interval) -> Option<Interval> {
        let (lo, hi) = (self.lo.max(other.lo), self.hi.min(other.hi));
        (lo <= hi).then_some(Interval { lo, hi })
    }

    /// The smallest interval holding both.
    pub fn join(self, other: Interval) -> Interval {
        Interval { lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }

    /// Number of values minus one (how wide the interval is).
    pub fn span(self) -> i128 {
        self.hi.saturating_sub(self.lo)
    }

    /// `{x + y}` (None on overflow).
    pub fn plus(self, other: Interval) -> Option<Interval> {
        Some(Interval { lo: self.lo.checked_add(other.lo)?, hi: self.hi.checked_add(other.hi)? })
    }

    /// `{c * x}` for the integer `c`.
    pub fn scale(self, c: i128) -> Option<Interval> {
        let (a, b) = (self.lo.checked_mul(c)?, self.hi.checked_mul(c)?);
        Some(Interval { lo: a.min(b), hi: a.max(b) })
    }

    /// `{x * y}` (None on overflow).
    pub fn times(self, other: Interval) -> Option<Interval> {
        let corners = [
            self.lo.checked_mul(other.lo)?,
            self.lo.checked_mul(other.hi)?,
            self.hi.checked_mul(other.lo)?,
            self.hi.checked_mul(other.hi)?,
        ];
        Some(Interval { lo: *corners.iter().min()?, hi: *corners.iter().max()? })
    }

    /// Bits needed to hold every value as a signed number.
    pub fn signed_bits(self) -> Width {
        let bits = |v: i128| {
            let m = if v < 0 { !v } else { v };
            (128 - m.leading_zeros()) + 1
        };
        bits(self.lo).max(bits(self.hi))
    }

    /// Bits needed to hold every value as an unsigned number (None when
    /// a value is negative).
    pub fn unsigned_bits(self) -> Option<Width> {
        (self.lo >= 0).then(|| (128 - self.hi.leading_zeros()).max(1))
    }
}

/// The two readings of a value of `width` bits.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Range {
    /// Width of the value.
    pub width: Width,
    /// Bounds of its unsigned reading.
    pub unsigned: Interval,
    /// Bounds of its signed reading.
    pub signed: Interval,
}

impl Range {
    /// Nothing known of a `width`-bit value.
    pub fn full(width: Width) -> Range {
        let w = width.clamp(1, TRACKED_WIDTH);
        Range { width, unsigned: Interval::unsigned_full(w), signed: Interval::signed_full(w) }
    }

    /// Whether anything is tracked for this width.
    pub fn tracked(width: Width) -> bool {
        (1..=TRACKED_WIDTH).contains(&width)
    }

    /// The value `v` (the bits of a `width`-bit constant).
    pub fn constant(width: Width, v: u128) -> Range {
        if !Range::tracked(width) {
            return Range::full(width);
        }
        let u = (v & ((1u128 << width) - 1)) as i128;
        let s = crate::expr::to_signed(v, width);
        Range { width, unsigned: Interval::point(u), signed: Interval::point(s) }
    }

    /// The range of a value whose exact integer reading (either one) lies
    /// in `exact`: each reading it fits is known.
    pub fn from_exact(width: Width, exact: Interval) -> Range {
        let mut r = Range::full(width);
        r.narrow_by_exact(exact);
        r
    }

    /// Narrows by an exact integer interval that one of the value's
    /// readings lies in (only a reading the whole interval fits is
    /// narrowed, since a wrapped value tells nothing).
    pub fn narrow_by_exact(&mut self, exact: Interval) {
        if !Range::tracked(self.width) {
            return;
        }
        if exact.within(Interval::unsigned_full(self.width)) {
            self.narrow_unsigned(exact);
        }
        if exact.within(Interval::signed_full(self.width)) {
            self.narrow_signed(exact);
        }
    }

    /// Narrows the unsigned reading, and the signed one with it.
    pub fn narrow_unsigned(&mut self, u: Interval) {
        if let Some(m) = self.unsigned.meet(u) {
            self.unsigned = m;
        }
        self.sync();
    }

    /// Narrows the signed reading, and the unsigned one with it.
    pub fn narrow_signed(&mut self, s: Interval) {
        if let Some(m) = self.signed.meet(s) {
            self.signed = m;
        }
        self.sync();
    }

    /// Each reading tells the other what it can: values below 2^(w-1)
    /// read the same both ways.
    fn sync(&mut self) {
        let half = 1i128 << (self.width.min(TRACKED_WIDTH) - 1);
        if self.unsigned.hi < half {
            if let Some(m) = self.signed.meet(self.unsigned) {
                self.signed = m;
            }
        } else if self.unsigned.lo >= half {
            let shifted = Interval::new(self.unsigned.lo - 2 * half, self.unsigned.hi - 2 * half);
            if let Some(m) = self.signed.meet(shifted) {
                self.signed = m;
            }
        }
        if self.signed.lo >= 0 {
            if let Some(m) = self.unsigned.meet(self.signed) {
                self.unsigned = m;
            }
        } else if self.signed.hi < 0 {
            let shifted = Interval::new(self.signed.lo + 2 * half, self.signed.hi + 2 * half);
            if let Some(m) = self.unsigned.meet(shifted) {
                self.unsigned = m;
            }
        }
    }

    /// Whether the value is never negative as a signed number.
    pub fn non_negative(&self) -> bool {
        self.signed.lo >= 0
    }

    /// The narrower of the two readings (the signed one on a tie), and
    /// whether it is the signed one.
    pub fn tightest(&self) -> (Interval, bool) {
        if self.unsigned.span() < self.signed.span() {
            (self.unsigned, false)
        } else {
            (self.signed, true)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_inform_each_other() {
        let mut r = Range::full(16);
        r.narrow_signed(Interval::new(-255, 255));
        assert_eq!(r.unsigned, Interval::unsigned_full(16));
        r.narrow_signed(Interval::new(0, 255));
        assert_eq!(r.unsigned, Interval::new(0, 255));
        let mut r = Range::full(8);
        r.narrow_unsigned(Interval::new(0x80, 0xff));
        assert_eq!(r.signed, Interval::new(-128, -1));
        assert_eq!(Range::constant(8, 0xff).signed, Interval::point(-1));
    }

    #[test]
    fn bits_needed() {
        assert_eq!(Interval::new(-255, 255).signed_bits(), 9);
        assert_eq!(Interval::new(0, 255).signed_bits(), 9);
        assert_eq!(Interval::new(-128, 127).signed_bits(), 8);
        assert_eq!(Interval::new(0, 255).unsigned_bits(), Some(8));
        assert_eq!(Interval::new(-1, 255).unsigned_bits(), None);
    }
}
