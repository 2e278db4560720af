//! Exact semantics of the AArch64 Advanced SIMD (NEON) intrinsics that
//! clang leaves as `llvm.aarch64.neon.*` calls, as the Arm ARM defines
//! them under the default Linux FPCR (round to nearest even, no flush to
//! zero, default-NaN off). Most NEON intrinsics lower to plain IR (add,
//! mul, shufflevector, llvm.fma, llvm.ctpop...), which the executor
//! already models; only these calls need a model of their own.
//!
//! `rows.rs` maps each intrinsic name (without the type suffixes) to an
//! [`rows::Op`]; the families live in their own files. `coverage.tsv`
//! lists every intrinsic clang 19 emits for arm_neon.h with its status,
//! and tests/neon_coverage.rs keeps the list and the rows in agreement.

mod convert;
pub use convert::saturating_to_int;
mod estimate;
mod fp;
mod int_arith;
pub mod memory;
pub mod nan;
mod narrow;
mod pairwise;
pub mod rows;
mod shifts;
mod table;

use crate::expr::value::Value;
use crate::expr::ExprPool;
use crate::ir::Type;
use rows::Op;

/// Result of lowering one `llvm.aarch64.neon.*` call.
#[derive(Clone, Debug, PartialEq)]
pub enum Lowered {
    /// The result lanes.
    Value(Value),
    /// A known intrinsic symcross refuses, with the reason.
    Unsupported(String),
    /// Not an `llvm.aarch64.*` name.
    NotNeon,
}

/// Error text of a refused lowering.
pub(crate) type Lowering = Result<Value, String>;

/// The intrinsic's base name: `sqadd.v16i8` -> `sqadd`,
/// `fcvtzs.v4i32.v4f32` -> `fcvtzs`, `sqdmulh.lane.v4i16.v4i16` ->
/// `sqdmulh.lane` (type suffixes are dropped from the end).
pub fn base_name(rest: &str) -> &str {
    let mut end = rest.len();
    while let Some(dot) = rest[..end].rfind('.') {
        if !is_type_suffix(&rest[dot + 1..end]) {
            break;
        }
        end = dot;
    }
    &rest[..end]
}

/// `v16i8`, `i32`, `f64`, `v2f32`, `p0` (a pointer)...
fn is_type_suffix(s: &str) -> bool {
    if s.strip_prefix('p').is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())) {
        return true;
    }
    let t = match s.strip_prefix('v') {
        Some(r) => r.trim_start_matches(|c: char| c.is_ascii_digit()),
        None => s,
    };
    let Some(bits) = t.strip_prefix('i').or_else(|| t.strip_prefix('f')) else { return false };
    !bits.is_empty() && bits.chars().all(|c| c.is_ascii_digit())
}

/// Lowers the call `name(args)` returning `ret`. Shift amounts and lane
/// numbers must be constants; a symbolic one is refused, not guessed.
pub fn lower_neon(pool: &mut ExprPool, name: &str, args: &[Value], ret: &Type) -> Lowered {
    let Some(rest) = name.strip_prefix("llvm.aarch64.") else {
        return Lowered::NotNeon;
    };
    let Some(rest) = rest.strip_prefix("neon.") else {
        return Lowered::Unsupported(format!("{name}: AArch64 intrinsic outside Advanced SIMD not modelled"));
    };
    let op = match rows::lookup(base_name(rest)) {
        Some(Op::Refused(why)) => return Lowered::Unsupported(format!("{name}: {why}")),
        Some(op) => op,
        None => return Lowered::Unsupported(format!("{name}: NEON intrinsic not modelled")),
    };
    if args.iter().any(|a| a.is_empty()) {
        return Lowered::Unsupported(format!("{name}: operand without lanes"));
    }
    if let Some(k) = op.constant_arg() {
        match args.get(k) {
            Some(v) if v.iter().all(|&l| pool.is_const(l)) => {}
            _ => return Lowered::Unsupported(format!("{name}: operand {k} (a shift or lane number) is not a constant")),
        }
    }
    let arity_ok = args.len() >= op.arity();
    if !arity_ok {
        return Lowered::Unsupported(format!("{name}: expected {} operands, got {}", op.arity(), args.len()));
    }
    match dispatch(pool, op, args, ret) {
        Ok(v) => Lowered::Value(v),
        Err(why) => Lowered::Unsupported(format!("{name}: {why}")),
    }
}

fn dispatch(p: &mut ExprPool, op: Op, a: &[Value], ret: &Type) -> Lowering {
    match op {
        Op::Sat(_) | Op::Halving { .. } | Op::AbsDiff { .. } | Op::Abs | Op::MinMax { .. } | Op::Cls => int_arith::lower(p, op, a),
        Op::MulLong { .. } | Op::SqDMulL | Op::SqDMulH { .. } => int_arith::lower_mul(p, op, a, ret),
        Op::Shl { .. } | Op::SqShlU | Op::ShiftInsert { .. } => shifts::lower(p, op, a),
        Op::NarrowShift { .. } | Op::NarrowSat(_) | Op::HighNarrow { .. } => narrow::lower(p, op, a, ret),
        Op::Pairwise(_) | Op::AddLongPairwise { .. } | Op::Reduce { .. } => pairwise::lower(p, op, a, ret),
        Op::FMinMax { .. } | Op::FAbd | Op::FAbsCmp { .. } | Op::FMulX | Op::FRecpS | Op::FRsqrtS | Op::FRecpX => fp::lower(p, op, a),
        Op::FRecpE | Op::FRsqrtE | Op::URecpE | Op::URsqrtE => estimate::lower(p, op, a),
        Op::FCvt { .. } | Op::FixToFp { .. } | Op::FpToFix { .. } => convert::lower(p, op, a, ret),
        Op::Tbl { .. } => table::lower(p, op, a),
        Op::Refused(why) => Err(why.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_suffixes_are_dropped() {
        assert_eq!(base_name("sqadd.v16i8"), "sqadd");
        assert_eq!(base_name("fcvtzs.v4i32.v4f32"), "fcvtzs");
        assert_eq!(base_name("sqdmulh.lane.v4i16.v4i16"), "sqdmulh.lane");
        assert_eq!(base_name("scalar.sqxtn.i32.i64"), "scalar.sqxtn");
        assert_eq!(base_name("sqdmulls.scalar"), "sqdmulls.scalar");
        assert_eq!(base_name("ld1x2.v16i8.p0"), "ld1x2");
    }
}
