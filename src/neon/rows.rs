//! The table: each `llvm.aarch64.neon.*` intrinsic (without the prefix and
//! type suffixes) and the shape of its semantics. Lane counts and widths
//! come from the operands and the result type, so one row serves every
//! arrangement (8B, 16B, 4H, ..., and the scalar forms).

use crate::expr::FUnOp;

/// Saturating integer operations: the exact result clamped to the range of
/// the lane type (signed or unsigned, by the instruction's result).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SatKind {
    /// SQADD: signed saturating addition.
    SqAdd,
    /// UQADD: unsigned saturating addition.
    UqAdd,
    /// SQSUB: signed saturating subtraction.
    SqSub,
    /// UQSUB: unsigned saturating subtraction.
    UqSub,
    /// SUQADD: signed + unsigned, signed result.
    SuqAdd,
    /// USQADD: unsigned + signed, unsigned result.
    UsqAdd,
    /// SQABS: absolute value; the most negative value saturates to the maximum.
    SqAbs,
    /// SQNEG: negation; the most negative value saturates to the maximum.
    SqNeg,
}

/// Narrowing with saturation: SQXTN (signed to signed), UQXTN (unsigned to
/// unsigned), SQXTUN (signed to unsigned); `Truncate` keeps the low half
/// (RSHRN).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Narrowing {
    /// Keep the low half of each lane, no saturation.
    Truncate,
    /// SQXTN: signed lanes to the signed half-width range.
    SignedToSigned,
    /// UQXTN: unsigned lanes to the unsigned half-width range.
    UnsignedToUnsigned,
    /// SQXTUN: signed lanes to the unsigned half-width range.
    SignedToUnsigned,
}

/// The lane operation of pairwise and across-vector instructions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LaneOp {
    /// ADD: wrapping integer addition.
    Add,
    /// Signed integer maximum.
    SMax,
    /// Signed integer minimum.
    SMin,
    /// Unsigned integer maximum.
    UMax,
    /// Unsigned integer minimum.
    UMin,
    /// Floating-point addition, rounded once per step.
    FAdd,
    /// FMAX: NaN propagates.
    FMax,
    /// FMIN: NaN propagates.
    FMin,
    /// FMAXNM: a quiet NaN beside a number gives the number.
    FMaxNm,
    /// FMINNM: a quiet NaN beside a number gives the number.
    FMinNm,
}

/// How a float is rounded to an integer before conversion.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CvtRounding {
    /// Truncation (FCVTZS/FCVTZU).
    TowardZero,
    /// Rounding by the given float unary op first (nearest-even, ties away, floor, ceiling).
    Rounded(FUnOp),
}

/// Shape of one NEON intrinsic's semantics, applied lane by lane unless stated.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Op {
    /// Saturating add, subtract, absolute value or negation.
    Sat(SatKind),
    /// SHADD/UHADD/SRHADD/URHADD/SHSUB/UHSUB: the exact sum or difference
    /// (plus one when rounding) halved, in one bit more than the lanes.
    Halving {
        /// Signed (SHADD...) or unsigned (UHADD...) lanes.
        signed: bool,
        /// Difference rather than sum.
        sub: bool,
        /// Add one before halving (SRHADD/URHADD).
        round: bool,
    },
    /// SABD/UABD: |a - b| of the exact difference, truncated to the lane.
    AbsDiff {
        /// Signed (SABD) or unsigned (UABD) lanes.
        signed: bool,
    },
    /// ABS: wrapping (ABS of the most negative value is itself).
    Abs,
    /// SMAX/SMIN/UMAX/UMIN.
    MinMax {
        /// Signed lanes.
        signed: bool,
        /// Maximum rather than minimum.
        max: bool,
    },
    /// CLS: leading bits equal to the sign bit, not counting it.
    Cls,
    /// SMULL/UMULL: exact product in lanes of twice the width.
    MulLong {
        /// Signed (SMULL) or unsigned (UMULL) lanes.
        signed: bool,
    },
    /// SQDMULL: 2ab saturated to twice the width.
    SqDMulL,
    /// SQDMULH/SQRDMULH: high half of 2ab (+ 2^(w-1) when rounding),
    /// saturated; `lane`: the second operand is one lane of a vector
    /// chosen by the third (a constant).
    SqDMulH {
        /// Add 2^(w-1) before taking the high half (SQRDMULH).
        round: bool,
        /// The second operand is one lane, chosen by the constant third operand.
        lane: bool,
    },
    /// Register shifts (SSHL, URSHL, SQRSHL...): the shift is the signed
    /// low byte of the second operand's lane, negative shifting right.
    Shl {
        /// Signed lanes (arithmetic right shifts).
        signed: bool,
        /// Saturate on overflow (SQSHL, UQSHL...).
        saturating: bool,
        /// Round right shifts to nearest (SRSHL, URSHL...).
        rounding: bool,
    },
    /// SQSHLU: signed input shifted left, saturated to unsigned.
    SqShlU,
    /// SLI/SRI: shift the second operand, keep the first's bits the
    /// shift vacated.
    ShiftInsert {
        /// Shift left (SLI) rather than right (SRI).
        left: bool,
    },
    /// RSHRN, SQSHRN, SQRSHRUN...: right shift by a constant, then narrow.
    NarrowShift {
        /// Signed lanes (arithmetic right shift).
        signed: bool,
        /// Round the right shift to nearest.
        round: bool,
        /// How the shifted lanes are narrowed.
        narrowing: Narrowing,
    },
    /// SQXTN/UQXTN/SQXTUN: narrow each lane to half width with saturation.
    NarrowSat(Narrowing),
    /// RADDHN/RSUBHN: high half of a ± b + 2^(w/2-1), modulo 2^w.
    HighNarrow {
        /// Subtract (RSUBHN) rather than add (RADDHN).
        sub: bool,
    },
    /// ADDP, SMAXP, FADDP, FMAXNMP...: operation on adjacent pairs of the
    /// concatenation of both operands.
    Pairwise(LaneOp),
    /// SADDLP/UADDLP: sum of adjacent pairs in lanes of twice the width.
    AddLongPairwise {
        /// Signed (SADDLP) or unsigned (UADDLP) lanes.
        signed: bool,
    },
    /// ADDV, SMAXV, FMAXV, SADDLV...: the operation over all lanes, as a
    /// balanced tree (the Arm ARM's Reduce); `long`: the lanes are
    /// extended (signed or not) and summed in the result width.
    Reduce {
        /// The lane operation.
        op: LaneOp,
        /// Extend the lanes and sum in the wider result (SADDLV/UADDLV).
        long: bool,
        /// Sign-extend (rather than zero-extend) when `long`.
        signed: bool,
    },
    /// FMAX/FMIN (NaN propagates, -0 < +0) and FMAXNM/FMINNM (a quiet NaN
    /// beside a number gives the number).
    FMinMax {
        /// FMAX/FMAXNM rather than FMIN/FMINNM.
        max: bool,
        /// The NM form: a quiet NaN beside a number gives the number.
        num: bool,
    },
    /// FABD: |a - b| rounded once.
    FAbd,
    /// FACGE/FACGT: |a| >= |b| (or >) as an all-ones mask.
    FAbsCmp {
        /// FACGT (strict) rather than FACGE.
        gt: bool,
    },
    /// FMULX: a * b, except 0 * inf = 2 with the product's sign.
    FMulX,
    /// FRECPS: 2 - a*b, fused.
    FRecpS,
    /// FRSQRTS: (3 - a*b) / 2, fused.
    FRsqrtS,
    /// FRECPX: exponent inverted, fraction cleared.
    FRecpX,
    /// FRECPE/FRSQRTE/URECPE/URSQRTE: the Arm ARM's estimate tables.
    FRecpE,
    /// FRSQRTE: reciprocal square root estimate.
    FRsqrtE,
    /// URECPE: unsigned reciprocal estimate.
    URecpE,
    /// URSQRTE: unsigned reciprocal square root estimate.
    URsqrtE,
    /// FCVTZS, FCVTNS, FCVTAU...: round, then convert with saturation
    /// (NaN gives 0).
    FCvt {
        /// Signed result (FCVTxS) or unsigned (FCVTxU).
        signed: bool,
        /// How the float is rounded before conversion.
        rounding: CvtRounding,
    },
    /// SCVTF/UCVTF with fractional bits: int / 2^n, rounded once.
    FixToFp {
        /// Signed (SCVTF) or unsigned (UCVTF) input.
        signed: bool,
    },
    /// FCVTZS/FCVTZU with fractional bits: x * 2^n toward zero, saturated.
    FpToFix {
        /// Signed (FCVTZS) or unsigned (FCVTZU) result.
        signed: bool,
    },
    /// TBL/TBX with `tables` 16-byte registers; out-of-range indices give
    /// 0 (TBL) or keep the destination lane (TBX, `extend`).
    Tbl {
        /// Number of 16-byte table registers (1 to 4).
        tables: usize,
        /// TBX: out-of-range indices keep the destination lane.
        extend: bool,
    },
    /// Not modelled: lowering reports the reason as unsupported.
    Refused(&'static str),
}

impl Op {
    /// The operand that must be a constant (shift amounts, lane numbers,
    /// fractional bits).
    pub fn constant_arg(&self) -> Option<usize> {
        match self {
            Op::SqShlU | Op::NarrowShift { .. } | Op::FixToFp { .. } | Op::FpToFix { .. } => Some(1),
            Op::ShiftInsert { .. } | Op::SqDMulH { lane: true, .. } => Some(2),
            _ => None,
        }
    }

    /// The number of operands the lowering reads.
    pub fn arity(&self) -> usize {
        match self {
            Op::Sat(SatKind::SqAbs | SatKind::SqNeg)
            | Op::Abs
            | Op::Cls
            | Op::NarrowSat(_)
            | Op::AddLongPairwise { .. }
            | Op::Reduce { .. }
            | Op::FRecpX
            | Op::FRecpE
            | Op::FRsqrtE
            | Op::URecpE
            | Op::URsqrtE
            | Op::FCvt { .. }
            | Op::Refused(_) => 1,
            Op::ShiftInsert { .. } | Op::SqDMulH { lane: true, .. } => 3,
            Op::Tbl { tables, extend } => tables + 1 + usize::from(*extend),
            _ => 2,
        }
    }
}

/// Structured loads and stores touch memory, which lowering cannot: the
/// executor performs them (src/exec/ops/neon.rs with super::memory).
pub const MEMORY: &str = "structured load/store: performed by the executor, not a lane operation";
const POLYNOMIAL: &str = "polynomial multiplication not modelled";
const HALF: &str = "half-precision (fp16) conversion not modelled";
const ROUND_ODD: &str = "FCVTXN (round to odd) not modelled";

/// The row of an intrinsic base name.
pub fn lookup(base: &str) -> Option<Op> {
    use CvtRounding::*;
    use LaneOp::*;
    use Narrowing::*;
    use SatKind::*;
    let cvt = |signed, rounding| Op::FCvt { signed, rounding };
    let reduce = |op, long, signed| Op::Reduce { op, long, signed };
    Some(match base {
        "sqadd" => Op::Sat(SqAdd),
        "uqadd" => Op::Sat(UqAdd),
        "sqsub" => Op::Sat(SqSub),
        "uqsub" => Op::Sat(UqSub),
        "suqadd" => Op::Sat(SuqAdd),
        "usqadd" => Op::Sat(UsqAdd),
        "sqabs" => Op::Sat(SqAbs),
        "sqneg" => Op::Sat(SqNeg),
        "shadd" => Op::Halving { signed: true, sub: false, round: false },
        "uhadd" => Op::Halving { signed: false, sub: false, round: false },
        "srhadd" => Op::Halving { signed: true, sub: false, round: true },
        "urhadd" => Op::Halving { signed: false, sub: false, round: true },
        "shsub" => Op::Halving { signed: true, sub: true, round: false },
        "uhsub" => Op::Halving { signed: false, sub: true, round: false },
        "sabd" => Op::AbsDiff { signed: true },
        "uabd" => Op::AbsDiff { signed: false },
        "abs" => Op::Abs,
        "smax" => Op::MinMax { signed: true, max: true },
        "smin" => Op::MinMax { signed: true, max: false },
        "umax" => Op::MinMax { signed: false, max: true },
        "umin" => Op::MinMax { signed: false, max: false },
        "cls" => Op::Cls,
        "smull" => Op::MulLong { signed: true },
        "umull" => Op::MulLong { signed: false },
        "sqdmull" | "sqdmulls.scalar" => Op::SqDMulL,
        "sqdmulh" => Op::SqDMulH { round: false, lane: false },
        "sqrdmulh" => Op::SqDMulH { round: true, lane: false },
        "sqdmulh.lane" | "sqdmulh.laneq" => Op::SqDMulH { round: false, lane: true },
        "sqrdmulh.lane" | "sqrdmulh.laneq" => Op::SqDMulH { round: true, lane: true },
        "sshl" => Op::Shl { signed: true, saturating: false, rounding: false },
        "ushl" => Op::Shl { signed: false, saturating: false, rounding: false },
        "srshl" => Op::Shl { signed: true, saturating: false, rounding: true },
        "urshl" => Op::Shl { signed: false, saturating: false, rounding: true },
        "sqshl" => Op::Shl { signed: true, saturating: true, rounding: false },
        "uqshl" => Op::Shl { signed: false, saturating: true, rounding: false },
        "sqrshl" => Op::Shl { signed: true, saturating: true, rounding: true },
        "uqrshl" => Op::Shl { signed: false, saturating: true, rounding: true },
        "sqshlu" => Op::SqShlU,
        "vsli" => Op::ShiftInsert { left: true },
        "vsri" => Op::ShiftInsert { left: false },
        "rshrn" => Op::NarrowShift { signed: false, round: true, narrowing: Truncate },
        "sqshrn" => Op::NarrowShift { signed: true, round: false, narrowing: SignedToSigned },
        "sqrshrn" => Op::NarrowShift { signed: true, round: true, narrowing: SignedToSigned },
        "uqshrn" => Op::NarrowShift { signed: false, round: false, narrowing: UnsignedToUnsigned },
        "uqrshrn" => Op::NarrowShift { signed: false, round: true, narrowing: UnsignedToUnsigned },
        "sqshrun" => Op::NarrowShift { signed: true, round: false, narrowing: SignedToUnsigned },
        "sqrshrun" => Op::NarrowShift { signed: true, round: true, narrowing: SignedToUnsigned },
        "sqxtn" | "scalar.sqxtn" => Op::NarrowSat(SignedToSigned),
        "uqxtn" | "scalar.uqxtn" => Op::NarrowSat(UnsignedToUnsigned),
        "sqxtun" | "scalar.sqxtun" => Op::NarrowSat(SignedToUnsigned),
        "raddhn" => Op::HighNarrow { sub: false },
        "rsubhn" => Op::HighNarrow { sub: true },
        "addp" => Op::Pairwise(Add),
        "smaxp" => Op::Pairwise(SMax),
        "sminp" => Op::Pairwise(SMin),
        "umaxp" => Op::Pairwise(UMax),
        "uminp" => Op::Pairwise(UMin),
        "faddp" => Op::Pairwise(FAdd),
        "fmaxp" => Op::Pairwise(FMax),
        "fminp" => Op::Pairwise(FMin),
        "fmaxnmp" => Op::Pairwise(FMaxNm),
        "fminnmp" => Op::Pairwise(FMinNm),
        "saddlp" => Op::AddLongPairwise { signed: true },
        "uaddlp" => Op::AddLongPairwise { signed: false },
        "saddv" => reduce(Add, false, true),
        "uaddv" => reduce(Add, false, false),
        "saddlv" => reduce(Add, true, true),
        "uaddlv" => reduce(Add, true, false),
        "smaxv" => reduce(SMax, false, true),
        "sminv" => reduce(SMin, false, true),
        "umaxv" => reduce(UMax, false, false),
        "uminv" => reduce(UMin, false, false),
        "faddv" => reduce(FAdd, false, false),
        "fmaxv" => reduce(FMax, false, false),
        "fminv" => reduce(FMin, false, false),
        "fmaxnmv" => reduce(FMaxNm, false, false),
        "fminnmv" => reduce(FMinNm, false, false),
        "fmax" => Op::FMinMax { max: true, num: false },
        "fmin" => Op::FMinMax { max: false, num: false },
        "fmaxnm" => Op::FMinMax { max: true, num: true },
        "fminnm" => Op::FMinMax { max: false, num: true },
        "fabd" => Op::FAbd,
        "facge" => Op::FAbsCmp { gt: false },
        "facgt" => Op::FAbsCmp { gt: true },
        "fmulx" => Op::FMulX,
        "frecps" => Op::FRecpS,
        "frsqrts" => Op::FRsqrtS,
        "frecpx" => Op::FRecpX,
        "frecpe" => Op::FRecpE,
        "frsqrte" => Op::FRsqrtE,
        "urecpe" => Op::URecpE,
        "ursqrte" => Op::URsqrtE,
        "fcvtzs" => cvt(true, TowardZero),
        "fcvtzu" => cvt(false, TowardZero),
        "fcvtns" => cvt(true, Rounded(FUnOp::RoundEven)),
        "fcvtnu" => cvt(false, Rounded(FUnOp::RoundEven)),
        "fcvtas" => cvt(true, Rounded(FUnOp::RoundAway)),
        "fcvtau" => cvt(false, Rounded(FUnOp::RoundAway)),
        "fcvtps" => cvt(true, Rounded(FUnOp::Ceil)),
        "fcvtpu" => cvt(false, Rounded(FUnOp::Ceil)),
        "fcvtms" => cvt(true, Rounded(FUnOp::Floor)),
        "fcvtmu" => cvt(false, Rounded(FUnOp::Floor)),
        "vcvtfxs2fp" => Op::FixToFp { signed: true },
        "vcvtfxu2fp" => Op::FixToFp { signed: false },
        "vcvtfp2fxs" => Op::FpToFix { signed: true },
        "vcvtfp2fxu" => Op::FpToFix { signed: false },
        "tbl1" => Op::Tbl { tables: 1, extend: false },
        "tbl2" => Op::Tbl { tables: 2, extend: false },
        "tbl3" => Op::Tbl { tables: 3, extend: false },
        "tbl4" => Op::Tbl { tables: 4, extend: false },
        "tbx1" => Op::Tbl { tables: 1, extend: true },
        "tbx2" => Op::Tbl { tables: 2, extend: true },
        "tbx3" => Op::Tbl { tables: 3, extend: true },
        "tbx4" => Op::Tbl { tables: 4, extend: true },
        "pmul" | "pmull" | "pmull64" => Op::Refused(POLYNOMIAL),
        "vcvtfp2hf" | "vcvthf2fp" => Op::Refused(HALF),
        "fcvtxn" => Op::Refused(ROUND_ODD),
        b if super::memory::form(b).is_some() => Op::Refused(MEMORY),
        _ => return None,
    })
}
