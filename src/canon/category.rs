//! KLEE-CL's category analysis (section 6.2(2)): a crude abstract
//! interpretation that says which of NaN, -inf, negative, zero, positive,
//! +inf a floating-point value may be. Side conditions such as `not-nan(?x)`
//! or `never-lt(?x, ?y)` read it to normalise comparisons. Every transfer
//! function over-approximates: when unsure, it answers "any category".

use crate::expr::{mask, FBinOp, FUnOp, FpFormat};

/// A set of categories (bits below).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Categories(pub u8);

impl Categories {
    /// Any NaN.
    pub const NAN: u8 = 1;
    /// Negative infinity.
    pub const NINF: u8 = 2;
    /// Negative finite, not zero (subnormals included).
    pub const NEG: u8 = 4;
    /// Zero of either sign.
    pub const ZERO: u8 = 8;
    /// Positive finite, not zero (subnormals included).
    pub const POS: u8 = 16;
    /// Positive infinity.
    pub const PINF: u8 = 32;
    /// Every category: nothing is known.
    pub const ALL: Categories = Categories(63);
    const NEG_SIDE: u8 = Self::NINF | Self::NEG;
    const POS_SIDE: u8 = Self::POS | Self::PINF;

    /// Whether any of `bits` may be the case.
    pub fn has(self, bits: u8) -> bool {
        self.0 & bits != 0
    }

    /// The exact category of a constant.
    pub fn of_const(f: FpFormat, bits: u128) -> Categories {
        let s = f.significand_bits() - 1;
        let e = f.exponent_bits();
        let exp = (bits >> s) & mask(e);
        let frac = bits & mask(s);
        let neg = (bits >> (f.width() - 1)) & 1 == 1;
        let c = if exp == mask(e) {
            if frac != 0 {
                Self::NAN
            } else if neg {
                Self::NINF
            } else {
                Self::PINF
            }
        } else if exp == 0 && frac == 0 {
            Self::ZERO
        } else if neg {
            Self::NEG
        } else {
            Self::POS
        };
        Categories(c)
    }

    /// Result categories of a binary operation.
    pub fn fbin(op: FBinOp, a: Categories, b: Categories) -> Categories {
        let any_nan = a.has(Self::NAN) || b.has(Self::NAN);
        let (an, ap, bn, bp) = (a.has(Self::NEG_SIDE), a.has(Self::POS_SIDE), b.has(Self::NEG_SIDE), b.has(Self::POS_SIDE));
        let sides = |neg: bool, pos: bool| (if neg { Self::NEG_SIDE } else { 0 }) | (if pos { Self::POS_SIDE } else { 0 });
        let r = match op {
            FBinOp::Add | FBinOp::Sub => {
                let (bn, bp) = if op == FBinOp::Sub { (bp, bn) } else { (bn, bp) };
                let (binf_n, binf_p) =
                    if op == FBinOp::Sub { (b.has(Self::PINF), b.has(Self::NINF)) } else { (b.has(Self::NINF), b.has(Self::PINF)) };
                let nan = any_nan || (a.has(Self::PINF) && binf_n) || (a.has(Self::NINF) && binf_p);
                Self::nan_bit(nan) | Self::ZERO | sides(an || bn, ap || bp)
            }
            FBinOp::Mul | FBinOp::Div => {
                let inf = |c: Categories| c.has(Self::NINF | Self::PINF);
                let zero = |c: Categories| c.has(Self::ZERO);
                let nan = any_nan
                    || if op == FBinOp::Mul {
                        (inf(a) && zero(b)) || (zero(a) && inf(b))
                    } else {
                        (inf(a) && inf(b)) || (zero(a) && zero(b))
                    };
                Self::nan_bit(nan) | Self::ZERO | sides((an && bp) || (ap && bn), (ap && bp) || (an && bn))
            }
            FBinOp::Min | FBinOp::Max => {
                let both_nan = a.has(Self::NAN) && b.has(Self::NAN);
                ((a.0 | b.0) & !Self::NAN) | Self::nan_bit(both_nan)
            }
            FBinOp::Rem => return Self::ALL,
        };
        Categories(r)
    }

    /// The categories `op` can give on an operand in `a`.
    pub fn fun(op: FUnOp, a: Categories) -> Categories {
        match op {
            FUnOp::Sqrt => {
                let nan = a.has(Self::NAN | Self::NEG | Self::NINF);
                Categories(Self::nan_bit(nan) | (a.0 & (Self::ZERO | Self::POS | Self::PINF)) | Self::ZERO)
            }
            // Rounding to an integral value keeps the sign and can reach zero.
            _ => Categories(a.0 | Self::ZERO),
        }
    }

    /// Integer to float: never NaN; infinite only if the integer range
    /// reaches the format's overflow threshold.
    pub fn int_to_fp(signed: bool, from: u32, to: FpFormat) -> Categories {
        let max_exp = if signed { from - 1 } else { from };
        // Largest finite value is below 2^(emax+1); emax+1 = 16, 128, 1024.
        let overflow_exp = match to {
            FpFormat::Half => 16,
            FpFormat::Single => 128,
            FpFormat::Double => 1024,
        };
        // 2^max_exp - 1 may round up to 2^max_exp; be generous by one bit.
        let may_overflow = max_exp + 1 >= overflow_exp;
        let mut c = Self::ZERO | Self::POS;
        if signed {
            c |= Self::NEG;
        }
        if may_overflow {
            c |= Self::PINF | if signed { Self::NINF } else { 0 };
        }
        Categories(c)
    }

    /// Float-to-float conversion: `widening` keeps every value exact; narrowing can underflow to zero and overflow to infinity.
    pub fn convert(a: Categories, widening: bool) -> Categories {
        if widening {
            a
        } else {
            // Narrowing can underflow to zero and overflow to infinity.
            let mut c = a.0 | Self::ZERO;
            if a.has(Self::NEG) {
                c |= Self::NINF;
            }
            if a.has(Self::POS) {
                c |= Self::PINF;
            }
            Categories(c)
        }
    }

    fn nan_bit(b: bool) -> u8 {
        if b {
            Self::NAN
        } else {
            0
        }
    }

    /// Ordered categories as intervals: (rank, is a single value).
    fn ranks(self) -> impl Iterator<Item = (u8, bool)> {
        let table = [(Self::NINF, 0, true), (Self::NEG, 1, false), (Self::ZERO, 2, true), (Self::POS, 3, false), (Self::PINF, 4, true)];
        table.into_iter().filter(move |(bit, _, _)| self.has(*bit)).map(|(_, r, single)| (r, single))
    }

    /// Can `x < y` hold for some x in `self`, y in `other`?
    pub fn may_lt(self, other: Categories) -> bool {
        self.ranks().any(|(rx, sx)| other.ranks().any(|(ry, _)| rx < ry || (rx == ry && !sx)))
    }

    /// Can `x == y` hold (numerically)?
    pub fn may_eq(self, other: Categories) -> bool {
        self.ranks().any(|(rx, _)| other.ranks().any(|(ry, _)| rx == ry))
    }
}
