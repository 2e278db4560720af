//! Which instructions may run on a path where the original program would
//! not have run them. Speculating an instruction is sound here when running
//! it has no effect besides defining its register: no memory write, no
//! finding the executor could report, no path split, no path end. Floating
//! point qualifies because symcross models no FP exceptions (KLEE-CL's
//! "unsafe" phi-node folding, papers/klee-cl.txt section 5). Loads are
//! decided separately (load_safety.rs): whether they are safe depends on
//! where the block sits, not on the instruction alone.

use crate::expr::BinOp;
use crate::ir::{Callee, Const, InstKind, Operand, Type};

/// Whether `kind` (with result type `ty`) can run unconditionally. Loads
/// answer false here; see `load_safety::load_is_safe`.
pub fn is_speculatable(kind: &InstKind, ty: &Type) -> bool {
    // A type the executor does not model makes the instruction an
    // `unsupported` finding that ends the path, so never introduce one.
    if has_unsupported(ty) {
        return false;
    }
    match kind {
        InstKind::Int { op, rhs, .. } => int_op_is_safe(*op, rhs),
        // `approximate` FP ops give a fresh value at each dynamic
        // occurrence; one more occurrence whose value is discarded by the
        // select changes nothing.
        InstKind::Float { .. } | InstKind::FNeg(_) => true,
        InstKind::ICmp { .. } | InstKind::FCmp { .. } | InstKind::Cast { .. } | InstKind::Select { .. } => true,
        // Address arithmetic only: the GEP itself never touches memory.
        InstKind::Gep { .. } => true,
        InstKind::ExtractElement { .. }
        | InstKind::InsertElement { .. }
        | InstKind::ShuffleVector { .. }
        | InstKind::ExtractValue { .. }
        | InstKind::InsertValue { .. }
        | InstKind::Freeze(_) => true,
        InstKind::Call { callee: Callee::Intrinsic(name), .. } => is_pure_intrinsic(name),
        InstKind::Call { .. }
        | InstKind::Load { .. }
        | InstKind::Store { .. }
        | InstKind::Alloca { .. }
        | InstKind::AtomicRmw { .. }
        | InstKind::CmpXchg { .. }
        | InstKind::Fence
        | InstKind::Phi { .. }
        | InstKind::Unsupported(_) => false,
    }
}

fn has_unsupported(ty: &Type) -> bool {
    match ty {
        Type::Unsupported(_) => true,
        Type::Vector { elem, .. } | Type::Array { elem, .. } => has_unsupported(elem),
        Type::Struct { fields, .. } => fields.iter().any(has_unsupported),
        _ => false,
    }
}

/// Division and remainder report `division-by-zero` when the divisor can be
/// zero, and signed division overflows for MIN / -1; both are safe only
/// with a constant divisor (every lane) that is neither.
fn int_op_is_safe(op: BinOp, divisor: &Operand) -> bool {
    let signed = match op {
        BinOp::UDiv | BinOp::URem => false,
        BinOp::SDiv | BinOp::SRem => true,
        _ => return true,
    };
    match divisor {
        Operand::Const(c) => const_divisor_is_safe(c, signed),
        Operand::Reg(_) => false,
    }
}

fn const_divisor_is_safe(c: &Const, signed: bool) -> bool {
    match c {
        Const::Int { width, value } => {
            let mask = if *width >= 128 { u128::MAX } else { (1u128 << width) - 1 };
            let v = value & mask;
            v != 0 && !(signed && v == mask)
        }
        Const::Vector(lanes) => !lanes.is_empty() && lanes.iter().all(|l| const_divisor_is_safe(l, signed)),
        _ => false,
    }
}

/// `llvm.*` intrinsics that compute a value from their arguments only, by
/// the name without `llvm.` and without the type suffixes.
const PURE_LLVM: &[&str] = &[
    "fabs",
    "copysign",
    "minnum",
    "maxnum",
    "minimum",
    "maximum",
    "sqrt",
    "floor",
    "ceil",
    "trunc",
    "rint",
    "nearbyint",
    "round",
    "roundeven",
    "fma",
    "fmuladd",
    "smin",
    "smax",
    "umin",
    "umax",
    "sadd.sat",
    "uadd.sat",
    "ssub.sat",
    "usub.sat",
    "abs",
    "ctpop",
    "ctlz",
    "cttz",
    "bswap",
    "bitreverse",
    "fshl",
    "fshr",
    "sadd.with.overflow",
    "uadd.with.overflow",
    "ssub.with.overflow",
    "usub.with.overflow",
    "smul.with.overflow",
    "umul.with.overflow",
    "expect",
    "vector.reduce.add",
    "vector.reduce.mul",
    "vector.reduce.and",
    "vector.reduce.or",
    "vector.reduce.xor",
    "vector.reduce.smax",
    "vector.reduce.smin",
    "vector.reduce.umax",
    "vector.reduce.umin",
    "vector.reduce.fmax",
    "vector.reduce.fmin",
    "vector.reduce.fadd",
    "vector.reduce.fmul",
];

/// Substrings that mark an x86 intrinsic as touching memory (or, for
/// `mask`, as possibly being a masked load or store): never speculated.
const X86_MEMORY_WORDS: &[&str] =
    &["load", "store", "mask", "gather", "scatter", "lddqu", "movnt", "clflush", "fence", "rdrand", "rdseed", "rdtsc"];

/// Whether the intrinsic `name` (full name, `llvm.fabs.f32`) is pure.
pub fn is_pure_intrinsic(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("llvm.") else { return false };
    if let Some(x86) = rest.strip_prefix("x86.") {
        return !X86_MEMORY_WORDS.iter().any(|w| x86.contains(w));
    }
    PURE_LLVM.iter().any(|p| rest == *p || (rest.starts_with(p) && rest[p.len()..].starts_with('.')))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(value: u128) -> Operand {
        Operand::Const(Const::Int { width: 32, value })
    }

    #[test]
    fn division_needs_a_safe_constant_divisor() {
        let div = |op, rhs| InstKind::Int { op, lhs: int(7), rhs, flags: Default::default() };
        let t = Type::Int(32);
        assert!(is_speculatable(&div(BinOp::UDiv, int(3)), &t));
        assert!(!is_speculatable(&div(BinOp::UDiv, int(0)), &t));
        assert!(!is_speculatable(&div(BinOp::SDiv, int(0xffff_ffff)), &t), "MIN / -1 overflows");
        assert!(is_speculatable(&div(BinOp::UDiv, int(0xffff_ffff)), &t));
        assert!(!is_speculatable(&div(BinOp::SRem, Operand::Reg(crate::ir::RegId(0))), &t));
        assert!(is_speculatable(&div(BinOp::Add, Operand::Reg(crate::ir::RegId(0))), &t));
    }

    #[test]
    fn intrinsic_names() {
        assert!(is_pure_intrinsic("llvm.fabs.f32"));
        assert!(is_pure_intrinsic("llvm.smax.v4i32"));
        assert!(is_pure_intrinsic("llvm.sadd.with.overflow.i32"));
        assert!(is_pure_intrinsic("llvm.roundeven.f64"));
        assert!(is_pure_intrinsic("llvm.vector.reduce.add.v4i32"));
        assert!(!is_pure_intrinsic("llvm.vector.reduce.fmaximum.v4f32"), "not one the executor models");
        assert!(is_pure_intrinsic("llvm.x86.sse2.pmadd.wd"));
        assert!(!is_pure_intrinsic("llvm.x86.avx.maskload.ps"));
        assert!(!is_pure_intrinsic("llvm.x86.sse2.storeu.dq"));
        assert!(!is_pure_intrinsic("llvm.x86.avx2.gather.d.ps"));
        assert!(!is_pure_intrinsic("llvm.memset.p0.i64"));
        assert!(!is_pure_intrinsic("llvm.assume"));
        assert!(!is_pure_intrinsic("llvm.trap"));
        assert!(!is_pure_intrinsic("llvm.fmaximum.f32"), "prefix of a longer name is not a match");
        assert!(!is_pure_intrinsic("sqrtf"), "libm calls are External, not intrinsics");
    }

    #[test]
    fn side_effects_are_not_speculated() {
        let store = InstKind::Store { ptr: int(0), value: int(0), align: 4, volatile: false };
        assert!(!is_speculatable(&store, &Type::Void));
        let call = InstKind::Call { callee: Callee::External("free".into()), args: vec![] };
        assert!(!is_speculatable(&call, &Type::Void));
        assert!(!is_speculatable(&InstKind::Fence, &Type::Void));
        let fadd = InstKind::Float { op: crate::expr::FBinOp::Div, lhs: int(0), rhs: int(0), approximate: false, contract: false };
        assert!(!is_speculatable(&fadd, &Type::Unsupported("x86_fp80".into())));
    }
}
