//! The table: each `llvm.x86.*` intrinsic (without the prefix) and the shape
//! of its semantics. Lane counts and widths come from the operands, so one
//! row serves the 128- and 256-bit forms alike.

use crate::expr::{FpFormat, IntRounding};

const S: FpFormat = FpFormat::Single;
const D: FpFormat = FpFormat::Double;

/// Shape of one intrinsic's semantics.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Op {
    /// Fences, pause, vzero*: no value, nothing symcross models changes.
    Nop,
    /// MINPS/MAXPS: the SECOND operand when unordered or equal. `scalar`:
    /// only lane 0, the others come from the first operand.
    MinMax {
        /// `true` for MAXPS/MAXSS..., `false` for MIN.
        max: bool,
        /// Lane format (single or double).
        f: FpFormat,
        /// Only lane 0 is computed; the other lanes pass through from the first operand.
        scalar: bool,
    },
    /// RCP/RSQRT: exact where the hardware is (zeros, infinities, NaNs,
    /// negative square roots), else any value within Intel's documented
    /// relative error (a fresh value per computed lane, bounded).
    Approx {
        /// Only lane 0 is computed; the other lanes pass through from the first operand.
        scalar: bool,
        /// RSQRT (1/sqrt) rather than RCP (1/x).
        rsqrt: bool,
    },
    /// ROUNDPS/SD...: immediate = last operand; scalar takes lane 0 of op 1.
    Round {
        /// Lane format (single or double).
        f: FpFormat,
        /// Only lane 0 is rounded; the other lanes come from the first operand.
        scalar: bool,
    },
    /// CMPSS/CMPSD with a predicate immediate (0..31).
    CmpScalar {
        /// Lane format of the compared operands.
        f: FpFormat,
    },
    /// COMISS/UCOMISS... returning 0/1 for an outcome set.
    Comi {
        /// Lane format of the compared operands.
        f: FpFormat,
        /// The `fcmp` outcome set (an `Outcomes` bit set) that yields 1.
        outcomes: u8,
    },
    /// ADDSUBPS/PD: even lanes subtract, odd lanes add.
    AddSub {
        /// Lane format.
        f: FpFormat,
    },
    /// DPPS/DPPD: dot product under the immediate's lane masks.
    Dp {
        /// Lane format.
        f: FpFormat,
    },
    /// VFMADDSUB: fused a*b-c in even lanes, a*b+c in odd lanes.
    FmAddSub {
        /// Lane format.
        f: FpFormat,
    },
    /// Float to integer; `scalar`: only lane 0, result is an integer.
    CvtToInt {
        /// Source lane format.
        from: FpFormat,
        /// How the float is rounded to an integer.
        rounding: IntRounding,
        /// Only lane 0 is converted and the result is a scalar integer.
        scalar: bool,
    },
    /// Float format conversion of all lanes, upper result lanes zero.
    CvtFp {
        /// Source lane format.
        from: FpFormat,
        /// Result lane format.
        to: FpFormat,
    },
    /// CVTSD2SS: lane 0 of op 1 converted, the rest from op 0.
    CvtScalarFp,
    /// PACKSS/PACKUS: narrow to half width with (un)signed saturation.
    Pack {
        /// PACKUS (unsigned saturation) rather than PACKSS (signed).
        unsigned: bool,
    },
    /// PAVGB/PAVGW: unsigned (a + b + 1) >> 1.
    Avg,
    /// PMADDWD: signed 16-bit products, adjacent pairs summed into 32-bit lanes.
    MaddWd,
    /// PMADDUBSW: unsigned bytes times signed bytes, adjacent pairs summed with signed 16-bit saturation.
    MaddUbSw,
    /// PMULHW/PMULHUW: the high 16 bits of the 32-bit product.
    MulHi {
        /// Signed (PMULHW) or unsigned (PMULHUW) operands.
        signed: bool,
    },
    /// PMULHRSW: (a * b + 2^14) >> 15 of the signed 32-bit product, low 16 bits.
    MulHrs,
    /// PSADBW: sums of absolute byte differences, one per 64-bit lane.
    Sad,
    /// MPSADBW: sums of absolute differences of 4-byte blocks chosen by the immediate.
    Mpsad,
    /// PSIGNB/W/D: the first operand negated, zeroed or kept by the sign of the second.
    Sign,
    /// Uniform shift by a count operand (xmm low 64 bits, or an i32).
    Shift {
        /// Left, logical right or arithmetic right.
        kind: ShiftKind,
    },
    /// Per-lane shift counts.
    ShiftVar {
        /// Left, logical right or arithmetic right.
        kind: ShiftKind,
    },
    /// PSHUFB: byte shuffle within each 128-bit half; an index with the top bit set gives 0.
    Pshufb,
    /// BLENDVPS/PD, PBLENDVB: each lane from the second operand where the mask lane's sign bit is set.
    Blendv,
    /// VPERMILPS/PD with a variable control vector, within each 128-bit half.
    PermilVar {
        /// Lane format.
        f: FpFormat,
    },
    /// VPERMD/VPERMPS: 32-bit lanes permuted across the whole 256-bit register.
    Perm8,
    /// INSERTPS: one lane inserted under the immediate's source, destination and zero mask.
    InsertPs,
    /// Horizontal pairs of each operand, per 128-bit half.
    HAdd {
        /// Which lane operation and lane type.
        kind: HKind,
    },
    /// PHMINPOSUW: the minimum unsigned 16-bit lane and its index.
    Phminpos,
    /// MOVMSKPS/PD, PMOVMSKB: the lanes' sign bits gathered into an integer.
    Movmsk,
    /// PTEST/VTESTPS/PD: a flag of the AND / ANDN of the operands, as 0 or 1.
    Test {
        /// Which flag (ZF, CF or neither) is returned.
        kind: TestKind,
        /// VTESTPS/PD: only the lanes' sign bits are tested (PTEST tests all bits).
        sign_only: bool,
    },
    /// CRC32 (SSE4.2): the CRC-32C of the accumulator and the data operand.
    Crc32,
    /// VMASKMOVPS/PD, VPMASKMOVD/Q loads: each lane read from memory where
    /// its mask lane's sign bit is set, zero elsewhere; a masked-off lane
    /// is not accessed (it cannot fault). Operands: pointer, mask.
    MaskLoad,
    /// The masked stores (VMASKMOVPS/PD, VPMASKMOVD/Q, MASKMOVDQU): each
    /// lane written where its mask lane's sign bit is set; the others are
    /// not accessed. `value_first`: MASKMOVDQU's operand order (value,
    /// mask, pointer) instead of (pointer, mask, value).
    MaskStore {
        /// The operands come as (value, mask, pointer).
        value_first: bool,
    },
    /// Not modelled: lowering reports the reason as unsupported.
    Refused(&'static str),
}

/// Direction and kind of an x86 shift.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ShiftKind {
    /// Shift left, zeros in.
    Shl,
    /// Logical shift right, zeros in.
    LShr,
    /// Arithmetic shift right, sign bits in.
    AShr,
}

/// The lane operation of a horizontal add/subtract (PHADD, HADDPS...).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HKind {
    /// Float addition in the given format.
    FAdd(FpFormat),
    /// Float subtraction in the given format.
    FSub(FpFormat),
    /// Wrapping integer addition.
    Add,
    /// Wrapping integer subtraction.
    Sub,
    /// Signed saturating addition (PHADDSW).
    AddSat,
    /// Signed saturating subtraction (PHSUBSW).
    SubSat,
}

/// Which flag a PTEST/VTEST intrinsic returns.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TestKind {
    /// ZF: (a & b) == 0.
    Z,
    /// CF: (!a & b) == 0.
    C,
    /// !ZF && !CF.
    Nzc,
}

impl Op {
    /// Index of the operand that must be an immediate, if any.
    pub fn immediate_arg(&self) -> Option<usize> {
        match self {
            Op::Round { scalar: false, .. } => Some(1),
            Op::Round { scalar: true, .. } | Op::CmpScalar { .. } | Op::Dp { .. } | Op::Mpsad | Op::InsertPs => Some(2),
            _ => None,
        }
    }
}

const MMX: &str = "MMX (__m64) operands are not modelled";
const MEMORY: &str = "memory access by an x86 intrinsic is not modelled";
const STRINGS: &str = "SSE4.2 string comparison (pcmpXstrX) is not modelled";
const MXCSR: &str = "MXCSR access is not modelled (symcross assumes the default MXCSR)";

/// Rows by exact name. Prefix refusals (`mmx.`, gathers, string compares)
/// are in `lookup`.
const ROWS: &[(&str, Op)] = &[
    ("sse.sfence", Op::Nop),
    ("sse2.lfence", Op::Nop),
    ("sse2.mfence", Op::Nop),
    ("sse2.pause", Op::Nop),
    ("avx.vzeroall", Op::Nop),
    ("avx.vzeroupper", Op::Nop),
    ("sse.min.ps", Op::MinMax { max: false, f: S, scalar: false }),
    ("sse.max.ps", Op::MinMax { max: true, f: S, scalar: false }),
    ("sse.min.ss", Op::MinMax { max: false, f: S, scalar: true }),
    ("sse.max.ss", Op::MinMax { max: true, f: S, scalar: true }),
    ("sse2.min.pd", Op::MinMax { max: false, f: D, scalar: false }),
    ("sse2.max.pd", Op::MinMax { max: true, f: D, scalar: false }),
    ("sse2.min.sd", Op::MinMax { max: false, f: D, scalar: true }),
    ("sse2.max.sd", Op::MinMax { max: true, f: D, scalar: true }),
    ("avx.min.ps.256", Op::MinMax { max: false, f: S, scalar: false }),
    ("avx.max.ps.256", Op::MinMax { max: true, f: S, scalar: false }),
    ("avx.min.pd.256", Op::MinMax { max: false, f: D, scalar: false }),
    ("avx.max.pd.256", Op::MinMax { max: true, f: D, scalar: false }),
    ("sse.rcp.ps", Op::Approx { scalar: false, rsqrt: false }),
    ("sse.rsqrt.ps", Op::Approx { scalar: false, rsqrt: true }),
    ("sse.rcp.ss", Op::Approx { scalar: true, rsqrt: false }),
    ("sse.rsqrt.ss", Op::Approx { scalar: true, rsqrt: true }),
    ("avx.rcp.ps.256", Op::Approx { scalar: false, rsqrt: false }),
    ("avx.rsqrt.ps.256", Op::Approx { scalar: false, rsqrt: true }),
    ("sse41.round.ps", Op::Round { f: S, scalar: false }),
    ("sse41.round.pd", Op::Round { f: D, scalar: false }),
    ("sse41.round.ss", Op::Round { f: S, scalar: true }),
    ("sse41.round.sd", Op::Round { f: D, scalar: true }),
    ("avx.round.ps.256", Op::Round { f: S, scalar: false }),
    ("avx.round.pd.256", Op::Round { f: D, scalar: false }),
    ("sse.cmp.ss", Op::CmpScalar { f: S }),
    ("sse2.cmp.sd", Op::CmpScalar { f: D }),
    ("sse3.addsub.ps", Op::AddSub { f: S }),
    ("sse3.addsub.pd", Op::AddSub { f: D }),
    ("avx.addsub.ps.256", Op::AddSub { f: S }),
    ("avx.addsub.pd.256", Op::AddSub { f: D }),
    ("sse41.dpps", Op::Dp { f: S }),
    ("sse41.dppd", Op::Dp { f: D }),
    ("avx.dp.ps.256", Op::Dp { f: S }),
    ("fma.vfmaddsub.ps", Op::FmAddSub { f: S }),
    ("fma.vfmaddsub.pd", Op::FmAddSub { f: D }),
    ("fma.vfmaddsub.ps.256", Op::FmAddSub { f: S }),
    ("fma.vfmaddsub.pd.256", Op::FmAddSub { f: D }),
    ("sse2.cvtps2dq", Op::CvtToInt { from: S, rounding: IntRounding::NearestEven, scalar: false }),
    ("sse2.cvttps2dq", Op::CvtToInt { from: S, rounding: IntRounding::TowardZero, scalar: false }),
    ("sse2.cvtpd2dq", Op::CvtToInt { from: D, rounding: IntRounding::NearestEven, scalar: false }),
    ("sse2.cvttpd2dq", Op::CvtToInt { from: D, rounding: IntRounding::TowardZero, scalar: false }),
    ("avx.cvt.ps2dq.256", Op::CvtToInt { from: S, rounding: IntRounding::NearestEven, scalar: false }),
    ("avx.cvtt.ps2dq.256", Op::CvtToInt { from: S, rounding: IntRounding::TowardZero, scalar: false }),
    ("avx.cvt.pd2dq.256", Op::CvtToInt { from: D, rounding: IntRounding::NearestEven, scalar: false }),
    ("avx.cvtt.pd2dq.256", Op::CvtToInt { from: D, rounding: IntRounding::TowardZero, scalar: false }),
    ("sse.cvtss2si", Op::CvtToInt { from: S, rounding: IntRounding::NearestEven, scalar: true }),
    ("sse.cvttss2si", Op::CvtToInt { from: S, rounding: IntRounding::TowardZero, scalar: true }),
    ("sse.cvtss2si64", Op::CvtToInt { from: S, rounding: IntRounding::NearestEven, scalar: true }),
    ("sse.cvttss2si64", Op::CvtToInt { from: S, rounding: IntRounding::TowardZero, scalar: true }),
    ("sse2.cvtsd2si", Op::CvtToInt { from: D, rounding: IntRounding::NearestEven, scalar: true }),
    ("sse2.cvttsd2si", Op::CvtToInt { from: D, rounding: IntRounding::TowardZero, scalar: true }),
    ("sse2.cvtsd2si64", Op::CvtToInt { from: D, rounding: IntRounding::NearestEven, scalar: true }),
    ("sse2.cvttsd2si64", Op::CvtToInt { from: D, rounding: IntRounding::TowardZero, scalar: true }),
    ("sse2.cvtpd2ps", Op::CvtFp { from: D, to: S }),
    ("avx.cvt.pd2.ps.256", Op::CvtFp { from: D, to: S }),
    ("sse2.cvtsd2ss", Op::CvtScalarFp),
    ("sse2.packsswb.128", Op::Pack { unsigned: false }),
    ("sse2.packssdw.128", Op::Pack { unsigned: false }),
    ("sse2.packuswb.128", Op::Pack { unsigned: true }),
    ("sse41.packusdw", Op::Pack { unsigned: true }),
    ("avx2.packsswb", Op::Pack { unsigned: false }),
    ("avx2.packssdw", Op::Pack { unsigned: false }),
    ("avx2.packuswb", Op::Pack { unsigned: true }),
    ("avx2.packusdw", Op::Pack { unsigned: true }),
    ("sse2.pavg.b", Op::Avg),
    ("sse2.pavg.w", Op::Avg),
    ("avx2.pavg.b", Op::Avg),
    ("avx2.pavg.w", Op::Avg),
    ("sse2.pmadd.wd", Op::MaddWd),
    ("avx2.pmadd.wd", Op::MaddWd),
    ("ssse3.pmadd.ub.sw.128", Op::MaddUbSw),
    ("avx2.pmadd.ub.sw", Op::MaddUbSw),
    ("sse2.pmulh.w", Op::MulHi { signed: true }),
    ("sse2.pmulhu.w", Op::MulHi { signed: false }),
    ("avx2.pmulh.w", Op::MulHi { signed: true }),
    ("avx2.pmulhu.w", Op::MulHi { signed: false }),
    ("ssse3.pmul.hr.sw.128", Op::MulHrs),
    ("avx2.pmul.hr.sw", Op::MulHrs),
    ("sse2.psad.bw", Op::Sad),
    ("avx2.psad.bw", Op::Sad),
    ("sse41.mpsadbw", Op::Mpsad),
    ("avx2.mpsadbw", Op::Mpsad),
    ("ssse3.psign.b.128", Op::Sign),
    ("ssse3.psign.w.128", Op::Sign),
    ("ssse3.psign.d.128", Op::Sign),
    ("avx2.psign.b", Op::Sign),
    ("avx2.psign.w", Op::Sign),
    ("avx2.psign.d", Op::Sign),
    ("ssse3.pshuf.b.128", Op::Pshufb),
    ("avx2.pshuf.b", Op::Pshufb),
    ("sse41.blendvps", Op::Blendv),
    ("sse41.blendvpd", Op::Blendv),
    ("sse41.pblendvb", Op::Blendv),
    ("avx.blendv.ps.256", Op::Blendv),
    ("avx.blendv.pd.256", Op::Blendv),
    ("avx2.pblendvb", Op::Blendv),
    ("avx.vpermilvar.ps", Op::PermilVar { f: S }),
    ("avx.vpermilvar.pd", Op::PermilVar { f: D }),
    ("avx.vpermilvar.ps.256", Op::PermilVar { f: S }),
    ("avx.vpermilvar.pd.256", Op::PermilVar { f: D }),
    ("avx2.permd", Op::Perm8),
    ("avx2.permps", Op::Perm8),
    ("sse41.insertps", Op::InsertPs),
    ("sse3.hadd.ps", Op::HAdd { kind: HKind::FAdd(S) }),
    ("sse3.hadd.pd", Op::HAdd { kind: HKind::FAdd(D) }),
    ("sse3.hsub.ps", Op::HAdd { kind: HKind::FSub(S) }),
    ("sse3.hsub.pd", Op::HAdd { kind: HKind::FSub(D) }),
    ("avx.hadd.ps.256", Op::HAdd { kind: HKind::FAdd(S) }),
    ("avx.hadd.pd.256", Op::HAdd { kind: HKind::FAdd(D) }),
    ("avx.hsub.ps.256", Op::HAdd { kind: HKind::FSub(S) }),
    ("avx.hsub.pd.256", Op::HAdd { kind: HKind::FSub(D) }),
    ("ssse3.phadd.w.128", Op::HAdd { kind: HKind::Add }),
    ("ssse3.phadd.d.128", Op::HAdd { kind: HKind::Add }),
    ("ssse3.phadd.sw.128", Op::HAdd { kind: HKind::AddSat }),
    ("ssse3.phsub.w.128", Op::HAdd { kind: HKind::Sub }),
    ("ssse3.phsub.d.128", Op::HAdd { kind: HKind::Sub }),
    ("ssse3.phsub.sw.128", Op::HAdd { kind: HKind::SubSat }),
    ("avx2.phadd.w", Op::HAdd { kind: HKind::Add }),
    ("avx2.phadd.d", Op::HAdd { kind: HKind::Add }),
    ("avx2.phadd.sw", Op::HAdd { kind: HKind::AddSat }),
    ("avx2.phsub.w", Op::HAdd { kind: HKind::Sub }),
    ("avx2.phsub.d", Op::HAdd { kind: HKind::Sub }),
    ("avx2.phsub.sw", Op::HAdd { kind: HKind::SubSat }),
    ("sse41.phminposuw", Op::Phminpos),
    ("sse.movmsk.ps", Op::Movmsk),
    ("sse2.movmsk.pd", Op::Movmsk),
    ("sse2.pmovmskb.128", Op::Movmsk),
    ("avx.movmsk.ps.256", Op::Movmsk),
    ("avx.movmsk.pd.256", Op::Movmsk),
    ("avx2.pmovmskb", Op::Movmsk),
    ("sse42.crc32.32.8", Op::Crc32),
    ("sse42.crc32.32.16", Op::Crc32),
    ("sse42.crc32.32.32", Op::Crc32),
    ("sse42.crc32.64.64", Op::Crc32),
    ("sse.ldmxcsr", Op::Refused(MXCSR)),
    ("sse.stmxcsr", Op::Refused(MXCSR)),
    ("sse2.clflush", Op::Refused(MEMORY)),
    ("sse2.maskmov.dqu", Op::MaskStore { value_first: true }),
    ("sse3.ldu.dq", Op::Refused(MEMORY)),
    ("avx.ldu.dq.256", Op::Refused(MEMORY)),
    ("sse3.monitor", Op::Refused(MEMORY)),
    ("sse3.mwait", Op::Refused("MWAIT (thread wait) is not modelled")),
];

/// Families named by operand kind rather than one by one.
fn family(rest: &str) -> Option<Op> {
    let test = |k: &str| match k {
        "z" => Some(TestKind::Z),
        "c" => Some(TestKind::C),
        "nzc" => Some(TestKind::Nzc),
        _ => None,
    };
    if let Some(k) = rest.strip_prefix("sse41.ptest").or_else(|| rest.strip_prefix("avx.ptest")) {
        return test(k.trim_end_matches(".256")).map(|kind| Op::Test { kind, sign_only: false });
    }
    if let Some(k) = rest.strip_prefix("avx.vtest") {
        let k = k.split('.').next()?;
        return test(k).map(|kind| Op::Test { kind, sign_only: true });
    }
    if let Some((isa, op)) = rest.split_once('.') {
        if let Some(op) = comi(isa, op) {
            return Some(op);
        }
        if let Some(op) = shift(isa, op) {
            return Some(op);
        }
    }
    None
}

/// COMI/UCOMI: signalling and quiet forms give the same value.
fn comi(isa: &str, op: &str) -> Option<Op> {
    let f = match isa {
        "sse" => S,
        "sse2" => D,
        _ => return None,
    };
    let pred = op.strip_prefix("comi").or_else(|| op.strip_prefix("ucomi"))?;
    let pred = pred.strip_suffix(if f == S { ".ss" } else { ".sd" })?;
    let outcomes = match pred {
        "eq" => 2,
        "lt" => 1,
        "le" => 3,
        "gt" => 4,
        "ge" => 6,
        // Unordered compares not-equal.
        "neq" => 13,
        _ => return None,
    };
    Some(Op::Comi { f, outcomes })
}

/// psll/psrl/psra with xmm count, their immediate forms, and psllv & co.
fn shift(isa: &str, op: &str) -> Option<Op> {
    if !matches!(isa, "sse2" | "avx2") {
        return None;
    }
    let op = op.split('.').next()?;
    let kind = |s: &str| match s {
        "psll" => Some(ShiftKind::Shl),
        "psrl" => Some(ShiftKind::LShr),
        "psra" => Some(ShiftKind::AShr),
        _ => None,
    };
    if let Some(base) = op.strip_suffix('v') {
        return kind(base).filter(|_| isa == "avx2").map(|kind| Op::ShiftVar { kind });
    }
    kind(op.strip_suffix('i').unwrap_or(op)).map(|kind| Op::Shift { kind })
}

/// The shape of `rest` (an intrinsic name without `llvm.x86.`).
pub fn lookup(rest: &str) -> Option<Op> {
    if let Some((_, op)) = ROWS.iter().find(|(n, _)| *n == rest) {
        return Some(*op);
    }
    if rest.starts_with("mmx.") || is_mmx_form(rest) {
        return Some(Op::Refused(MMX));
    }
    if rest.starts_with("sse42.pcmpestr") || rest.starts_with("sse42.pcmpistr") {
        return Some(Op::Refused(STRINGS));
    }
    if rest.starts_with("avx2.gather.") {
        return Some(Op::Refused(MEMORY));
    }
    if rest.starts_with("avx.maskload.") || rest.starts_with("avx2.maskload.") {
        return Some(Op::MaskLoad);
    }
    if rest.starts_with("avx.maskstore.") || rest.starts_with("avx2.maskstore.") {
        return Some(Op::MaskStore { value_first: false });
    }
    family(rest)
}

/// SSE/SSSE3 intrinsics whose operands are MMX registers.
fn is_mmx_form(rest: &str) -> bool {
    const SSE_MMX: &[&str] =
        &["sse.cvtpd2pi", "sse.cvtpi2pd", "sse.cvtpi2ps", "sse.cvtps2pi", "sse.cvttpd2pi", "sse.cvttps2pi", "sse.pshuf.w"];
    if SSE_MMX.contains(&rest) {
        return true;
    }
    // SSSE3's 64-bit forms lack the `.128` suffix of their xmm twins.
    rest.starts_with("ssse3.") && !rest.ends_with(".128")
}
