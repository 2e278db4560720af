//! Exact semantics of the x86 SIMD intrinsics (SSE through AVX2, FMA3) that
//! clang leaves as `llvm.x86.*` calls, lowered to generic lane operations.
//!
//! `rows.rs` maps each intrinsic name to a [`rows::Op`] (the shape is data);
//! the families live in their own files. `coverage.tsv` lists every intrinsic
//! clang 19 emits for those extensions with its status, and a test keeps the
//! list and the rows in agreement.

mod convert;
mod float_ops;
mod horizontal;
pub(crate) mod lanes;
mod mask;
mod masked;
mod multiply;
mod pack;
pub mod rows;
mod shifts;
mod shuffle;

use crate::expr::value::Value;
use crate::expr::ExprPool;
use crate::ir::Type;
pub use masked::MaskedAccess;
use rows::Op;

/// Result of lowering one `llvm.x86.*` call.
#[derive(Clone, Debug, PartialEq)]
pub enum Lowered {
    /// The result lanes (empty for intrinsics without a result, such as fences).
    Value(Value),
    /// A masked load or store: the accesses the executor makes.
    Masked(MaskedAccess),
    /// A known intrinsic symcross refuses, with the reason.
    Unsupported(String),
    /// Not an `llvm.x86.*` name.
    NotX86,
}

/// Lowers the call `name(args)` returning `ret`. Immediates must arrive as
/// constant expressions; a symbolic immediate is refused, not guessed.
pub fn lower_x86(pool: &mut ExprPool, name: &str, args: &[Value], ret: &Type) -> Lowered {
    let Some(rest) = name.strip_prefix("llvm.x86.") else {
        return Lowered::NotX86;
    };
    let op = match rows::lookup(rest) {
        Some(Op::Refused(why)) => return Lowered::Unsupported(format!("{name}: {why}")),
        Some(op) => op,
        None => return Lowered::Unsupported(format!("{name}: x86 intrinsic not modelled")),
    };
    if let Err(why) = lanes::check_args(pool, &op, args) {
        return Lowered::Unsupported(format!("{name}: {why}"));
    }
    if matches!(op, Op::MaskLoad | Op::MaskStore { .. }) {
        return match masked::describe(pool, op, args, ret) {
            Ok(m) => Lowered::Masked(m),
            Err(why) => Lowered::Unsupported(format!("{name}: {why}")),
        };
    }
    let out = dispatch(pool, op, args, ret);
    match out {
        Ok(v) => Lowered::Value(v),
        Err(why) => Lowered::Unsupported(format!("{name}: {why}")),
    }
}

/// Error text of a refused lowering.
pub(crate) type Lowering = Result<Value, String>;

fn dispatch(p: &mut ExprPool, op: Op, a: &[Value], ret: &Type) -> Lowering {
    match op {
        Op::Nop => Ok(Value::new()),
        Op::MinMax { .. } | Op::Approx { .. } | Op::Round { .. } | Op::CmpScalar { .. } | Op::Comi { .. } => float_ops::lower(p, op, a),
        Op::AddSub { .. } | Op::Dp { .. } | Op::FmAddSub { .. } => float_ops::lower(p, op, a),
        Op::CvtToInt { .. } | Op::CvtFp { .. } | Op::CvtScalarFp => convert::lower(p, op, a, ret),
        Op::Pack { .. } => pack::lower(p, op, a),
        Op::Avg | Op::MaddWd | Op::MaddUbSw | Op::MulHi { .. } | Op::MulHrs | Op::Sad | Op::Mpsad | Op::Sign => multiply::lower(p, op, a),
        Op::Shift { .. } | Op::ShiftVar { .. } => shifts::lower(p, op, a),
        Op::Pshufb | Op::Blendv | Op::PermilVar { .. } | Op::Perm8 | Op::InsertPs => shuffle::lower(p, op, a),
        Op::HAdd { .. } | Op::Phminpos => horizontal::lower(p, op, a),
        Op::Movmsk | Op::Test { .. } | Op::Crc32 => mask::lower(p, op, a),
        Op::MaskLoad | Op::MaskStore { .. } => Err("a masked access is the executor's".into()),
        Op::Refused(why) => Err(why.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{FpFormat, Outcomes};

    fn v4(p: &mut ExprPool) -> Value {
        (0..4).map(|_| p.fresh(32)).collect()
    }

    fn f4() -> Type {
        Type::Vector { elem: Box::new(Type::Float(FpFormat::Single)), len: 4 }
    }

    #[test]
    fn minps_is_the_less_than_select() {
        let mut p = ExprPool::new();
        let (a, b) = (v4(&mut p), v4(&mut p));
        let Lowered::Value(r) = lower_x86(&mut p, "llvm.x86.sse.min.ps", &[a.clone(), b.clone()], &f4()) else {
            panic!("minps refused");
        };
        let lt = p.fcmp(Outcomes(Outcomes::LT), FpFormat::Single, a[0], b[0]);
        assert_eq!(r[0], p.ite(lt, a[0], b[0]));
    }

    #[test]
    fn each_rcp_occurrence_is_fresh() {
        let mut p = ExprPool::new();
        let a = v4(&mut p);
        let first = lower_x86(&mut p, "llvm.x86.sse.rcp.ps", std::slice::from_ref(&a), &f4());
        let second = lower_x86(&mut p, "llvm.x86.sse.rcp.ps", &[a], &f4());
        assert_ne!(first, second);
    }
}
