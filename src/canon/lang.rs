//! The e-graph language: the expression DAG's node kinds as text operators.
//!
//! Why a separate language: egg patterns are text, so every parameter that
//! distinguishes two DAG nodes (a width, a format, a rounding) must live in
//! the operator symbol: `fadd.f32`, `extract.8.16`, `sitofp.32.f64`. Integer
//! bit operations carry no width (it follows from their operands), so one
//! rule covers every width. The outcome set of a floating-point comparison is
//! *not* in the symbol but a literal child (`(fcmp.f32 olt ?x ?y)`): that way
//! the set algebra of KLEE-CL Table 3 (union, intersection, complement, swap)
//! is four text rules over set variables, folded by the analysis, instead of
//! hundreds of rules, one per pair of sets.

use crate::expr::{BinOp, CmpOp, FBinOp, FUnOp, FpFormat, IntRounding, Width};
use std::fmt;
use std::str::FromStr;

egg::define_language! {
    /// One e-node: `Lit`, a literal (no children), or `Node`, an operator
    /// applied to children. (egg's macro takes no attributes on variants,
    /// hence the variants are documented here and the lint is allowed.)
    #[allow(missing_docs)]
    pub enum CanonLang {
        Lit(Literal),
        Node(Op, Vec<egg::Id>),
    }
}

/// Leaves: bit-vector constants, input bytes, fresh values, outcome sets.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Literal {
    /// `0x3f800000:32`
    Const {
        /// Width in bits.
        width: Width,
        /// The value, in the low `width` bits.
        value: u128,
    },
    /// `in.A.I`: byte I of input array A.
    Input {
        /// The input array's number.
        array: u32,
        /// Byte offset within the array.
        index: u32,
    },
    /// `fresh.ID.W`
    Fresh {
        /// Identity of the fresh value.
        id: u32,
        /// Width in bits.
        width: Width,
    },
    /// `olt`, `une`, ...: an outcome set (KLEE-CL Table 1 names).
    Set(u8),
}

/// Outcome-set names indexed by the set's bits (`<`=1, `=`=2, `>`=4, uno=8).
pub const SET_NAMES: [&str; 16] =
    ["never", "olt", "oeq", "ole", "ogt", "one", "oge", "ord", "uno", "ult", "ueq", "ule", "ugt", "une", "uge", "always"];

/// Operators with their parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// A two-operand bit-vector operation.
    Bin(BinOp),
    /// Bitwise complement.
    Not,
    /// Integer comparison, giving a 1-bit value.
    Cmp(CmpOp),
    /// If-then-else. Children: 1-bit condition, then, else.
    Ite,
    /// Concatenation. Children: high part, low part.
    Concat,
    /// A bit range of the child.
    Extract {
        /// Bit offset of the lowest extracted bit.
        offset: Width,
        /// Number of bits extracted.
        width: Width,
    },
    /// Zero extension to the given width.
    ZExt(Width),
    /// Sign extension to the given width.
    SExt(Width),
    /// Binary float operation in the given format.
    FBin(FBinOp, FpFormat),
    /// Unary float operation.
    FUn(FUnOp, FpFormat),
    /// Fused multiply-add, rounded once.
    Fma(FpFormat),
    /// Children: outcome set, left, right.
    FCmp(FpFormat),
    /// Float to integer conversion.
    FpToInt {
        /// Signed rather than unsigned result.
        signed: bool,
        /// How the float is rounded to an integer.
        rounding: IntRounding,
        /// Source float format.
        from: FpFormat,
        /// Result width in bits.
        width: Width,
    },
    /// Integer to float conversion, rounded to nearest-even.
    IntToFp {
        /// Signed rather than unsigned source.
        signed: bool,
        /// Source width in bits.
        from: Width,
        /// Result float format.
        to: FpFormat,
    },
    /// Float format conversion.
    FpConvert {
        /// Source float format.
        from: FpFormat,
        /// Result float format.
        to: FpFormat,
    },
    /// An uninterpreted function: equal arguments give equal results, nothing more.
    Apply {
        /// The function's name (a libm function).
        function: String,
        /// Result width in bits.
        width: Width,
    },
    /// Outcome-set algebra, folded to a `Set` literal by the analysis.
    SetOp(SetOp),
}

/// Operations on outcome sets (never reach the expression DAG).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SetOp {
    /// Union of two sets.
    Union,
    /// Intersection of two sets.
    Inter,
    /// Complement.
    Compl,
    /// The set with `<` and `>` exchanged (the comparison with its operands swapped).
    Swap,
    /// Remove one outcome: the bit to remove.
    Drop(u8),
}

impl SetOp {
    /// Number of set operands.
    pub fn arity(self) -> usize {
        match self {
            SetOp::Union | SetOp::Inter => 2,
            _ => 1,
        }
    }
}

pub fn format_name(f: FpFormat) -> &'static str {
    match f {
        FpFormat::Half => "f16",
        FpFormat::Single => "f32",
        FpFormat::Double => "f64",
    }
}

pub fn parse_format(s: &str) -> Option<FpFormat> {
    match s {
        "f16" => Some(FpFormat::Half),
        "f32" => Some(FpFormat::Single),
        "f64" => Some(FpFormat::Double),
        _ => None,
    }
}

const BIN_NAMES: [(&str, BinOp); 13] = [
    ("add", BinOp::Add),
    ("sub", BinOp::Sub),
    ("mul", BinOp::Mul),
    ("udiv", BinOp::UDiv),
    ("sdiv", BinOp::SDiv),
    ("urem", BinOp::URem),
    ("srem", BinOp::SRem),
    ("and", BinOp::And),
    ("or", BinOp::Or),
    ("xor", BinOp::Xor),
    ("shl", BinOp::Shl),
    ("lshr", BinOp::LShr),
    ("ashr", BinOp::AShr),
];
const CMP_NAMES: [(&str, CmpOp); 5] =
    [("eq", CmpOp::Eq), ("ult", CmpOp::Ult), ("ule", CmpOp::Ule), ("slt", CmpOp::Slt), ("sle", CmpOp::Sle)];
const FBIN_NAMES: [(&str, FBinOp); 7] = [
    ("fadd", FBinOp::Add),
    ("fsub", FBinOp::Sub),
    ("fmul", FBinOp::Mul),
    ("fdiv", FBinOp::Div),
    ("frem", FBinOp::Rem),
    ("fmin", FBinOp::Min),
    ("fmax", FBinOp::Max),
];
const FUN_NAMES: [(&str, FUnOp); 6] = [
    ("fsqrt", FUnOp::Sqrt),
    ("frint", FUnOp::RoundEven),
    ("fround", FUnOp::RoundAway),
    ("ffloor", FUnOp::Floor),
    ("fceil", FUnOp::Ceil),
    ("ftrunc", FUnOp::Trunc),
];
const SET_OP_NAMES: [(&str, SetOp); 8] = [
    ("ounion", SetOp::Union),
    ("ointer", SetOp::Inter),
    ("ocompl", SetOp::Compl),
    ("oswap", SetOp::Swap),
    ("odrop-lt", SetOp::Drop(1)),
    ("odrop-eq", SetOp::Drop(2)),
    ("odrop-gt", SetOp::Drop(4)),
    ("odrop-uno", SetOp::Drop(8)),
];

fn lookup<T: Copy>(table: &[(&str, T)], s: &str) -> Option<T> {
    table.iter().find(|(n, _)| *n == s).map(|(_, v)| *v)
}
fn name_of<T: PartialEq>(table: &[(&'static str, T)], v: &T) -> &'static str {
    table.iter().find(|(_, x)| x == v).map(|(n, _)| *n).expect("every operator has a name")
}

impl Op {
    /// Number of children this operator takes (`None`: any, for `call`).
    pub fn arity(&self) -> Option<usize> {
        Some(match self {
            Op::Bin(_) | Op::Cmp(_) | Op::Concat | Op::FBin(..) => 2,
            Op::Not | Op::Extract { .. } | Op::ZExt(_) | Op::SExt(_) | Op::FUn(..) => 1,
            Op::FpToInt { .. } | Op::IntToFp { .. } | Op::FpConvert { .. } => 1,
            Op::Ite | Op::Fma(_) | Op::FCmp(_) => 3,
            Op::SetOp(s) => s.arity(),
            Op::Apply { .. } => return None,
        })
    }
}

fn num<T: FromStr>(s: &str) -> Result<T, String> {
    s.parse().map_err(|_| format!("`{s}` is not a number"))
}

impl FromStr for Op {
    type Err = String;
    fn from_str(s: &str) -> Result<Op, String> {
        if let Some(op) = lookup(&BIN_NAMES, s) {
            return Ok(Op::Bin(op));
        }
        if let Some(op) = lookup(&CMP_NAMES, s) {
            return Ok(Op::Cmp(op));
        }
        if let Some(op) = lookup(&SET_OP_NAMES, s) {
            return Ok(Op::SetOp(op));
        }
        match s {
            "not" => return Ok(Op::Not),
            "ite" => return Ok(Op::Ite),
            "concat" => return Ok(Op::Concat),
            _ => {}
        }
        let parts: Vec<&str> = s.split('.').collect();
        let fmt = |i: usize| parts.get(i).and_then(|p| parse_format(p)).ok_or_else(|| format!("bad format in `{s}`"));
        let n = |i: usize| parts.get(i).ok_or_else(|| format!("missing width in `{s}`")).and_then(|p| num::<u32>(p));
        let head = parts[0];
        let op = match head {
            "extract" if parts.len() == 3 => Op::Extract { offset: n(1)?, width: n(2)? },
            "zext" if parts.len() == 2 => Op::ZExt(n(1)?),
            "sext" if parts.len() == 2 => Op::SExt(n(1)?),
            "fma" if parts.len() == 2 => Op::Fma(fmt(1)?),
            "fcmp" if parts.len() == 2 => Op::FCmp(fmt(1)?),
            "fptosi" | "fptoui" | "cvtsi" | "cvtui" if parts.len() == 3 => Op::FpToInt {
                signed: head.ends_with("si"),
                rounding: if head.starts_with("cvt") { IntRounding::NearestEven } else { IntRounding::TowardZero },
                from: fmt(1)?,
                width: n(2)?,
            },
            "sitofp" | "uitofp" if parts.len() == 3 => Op::IntToFp { signed: head == "sitofp", from: n(1)?, to: fmt(2)? },
            "fpext" | "fptrunc" if parts.len() == 3 => {
                let (from, to) = (fmt(1)?, fmt(2)?);
                if (head == "fpext") != (from.width() < to.width()) {
                    return Err(format!("`{s}`: {head} goes the wrong way"));
                }
                Op::FpConvert { from, to }
            }
            "call" if parts.len() >= 3 => Op::Apply { width: n(1)?, function: parts[2..].join(".") },
            _ => {
                if let (Some(op), 2) = (lookup(&FBIN_NAMES, head), parts.len()) {
                    Op::FBin(op, fmt(1)?)
                } else if let (Some(op), 2) = (lookup(&FUN_NAMES, head), parts.len()) {
                    Op::FUn(op, fmt(1)?)
                } else {
                    return Err(format!("unknown operator `{s}`"));
                }
            }
        };
        Ok(op)
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::Bin(op) => f.write_str(name_of(&BIN_NAMES, op)),
            Op::Cmp(op) => f.write_str(name_of(&CMP_NAMES, op)),
            Op::SetOp(op) => f.write_str(name_of(&SET_OP_NAMES, op)),
            Op::Not => f.write_str("not"),
            Op::Ite => f.write_str("ite"),
            Op::Concat => f.write_str("concat"),
            Op::Extract { offset, width } => write!(f, "extract.{offset}.{width}"),
            Op::ZExt(w) => write!(f, "zext.{w}"),
            Op::SExt(w) => write!(f, "sext.{w}"),
            Op::FBin(op, fm) => write!(f, "{}.{}", name_of(&FBIN_NAMES, op), format_name(*fm)),
            Op::FUn(op, fm) => write!(f, "{}.{}", name_of(&FUN_NAMES, op), format_name(*fm)),
            Op::Fma(fm) => write!(f, "fma.{}", format_name(*fm)),
            Op::FCmp(fm) => write!(f, "fcmp.{}", format_name(*fm)),
            Op::FpToInt { signed, rounding, from, width } => {
                let head = match (rounding, signed) {
                    (IntRounding::TowardZero, true) => "fptosi",
                    (IntRounding::TowardZero, false) => "fptoui",
                    (IntRounding::NearestEven, true) => "cvtsi",
                    (IntRounding::NearestEven, false) => "cvtui",
                };
                write!(f, "{head}.{}.{width}", format_name(*from))
            }
            Op::IntToFp { signed, from, to } => {
                write!(f, "{}.{from}.{}", if *signed { "sitofp" } else { "uitofp" }, format_name(*to))
            }
            Op::FpConvert { from, to } => {
                let head = if from.width() < to.width() { "fpext" } else { "fptrunc" };
                write!(f, "{head}.{}.{}", format_name(*from), format_name(*to))
            }
            Op::Apply { function, width } => write!(f, "call.{width}.{function}"),
        }
    }
}

impl FromStr for Literal {
    type Err = String;
    fn from_str(s: &str) -> Result<Literal, String> {
        if let Some(i) = SET_NAMES.iter().position(|n| *n == s) {
            return Ok(Literal::Set(i as u8));
        }
        if let Some(rest) = s.strip_prefix("0x") {
            let (hex, w) = rest.split_once(':').ok_or_else(|| format!("constant `{s}` lacks `:width`"))?;
            let width: Width = num(w)?;
            let value = u128::from_str_radix(hex, 16).map_err(|_| format!("bad hex in `{s}`"))?;
            if width == 0 || width > 128 || value & !crate::expr::mask(width) != 0 {
                return Err(format!("constant `{s}` does not fit its width"));
            }
            return Ok(Literal::Const { width, value });
        }
        let parts: Vec<&str> = s.split('.').collect();
        match parts.as_slice() {
            ["in", a, i] => Ok(Literal::Input { array: num(a)?, index: num(i)? }),
            ["fresh", id, w] => Ok(Literal::Fresh { id: num(id)?, width: num(w)? }),
            _ => Err(format!("unknown literal `{s}`")),
        }
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Const { width, value } => write!(f, "0x{value:x}:{width}"),
            Literal::Input { array, index } => write!(f, "in.{array}.{index}"),
            Literal::Fresh { id, width } => write!(f, "fresh.{id}.{width}"),
            Literal::Set(s) => f.write_str(SET_NAMES[*s as usize]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators_round_trip_through_text() {
        for s in [
            "add",
            "fadd.f32",
            "extract.8.16",
            "zext.64",
            "fcmp.f16",
            "fptosi.f64.32",
            "cvtui.f32.16",
            "sitofp.32.f64",
            "fpext.f32.f64",
            "fptrunc.f64.f16",
            "call.32.llvm.sin.f32",
            "odrop-uno",
            "fsqrt.f64",
        ] {
            let op: Op = s.parse().unwrap();
            assert_eq!(op.to_string(), s);
        }
        for s in ["0x3f800000:32", "in.0.3", "fresh.7.32", "olt", "always"] {
            let l: Literal = s.parse().unwrap();
            assert_eq!(l.to_string(), s);
        }
        assert!("fpext.f64.f32".parse::<Op>().is_err());
        assert!("fadd.f31".parse::<Op>().is_err());
        assert!("0x1ff:8".parse::<Literal>().is_err());
    }
}
