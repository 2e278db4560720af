//! `llvm.*` intrinsics and the libm functions with exact IEEE semantics.
//! Typed rows map a name (without the type suffix) to its semantics and
//! its arity (checked at the call, calls.rs); libm functions without exact
//! semantics (sin, exp, ...) are uninterpreted: equal arguments give equal
//! results, nothing more.

use crate::exec::engine::arity::Arity;
use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::{scalar, Value};
use crate::expr::{BinOp, CmpOp, ExprId, ExprPool, FBinOp, FUnOp, FpFormat};
use crate::report::FindingKind;

type Outcome = Option<Result<Option<Value>, Step>>;

/// What a libm function computes, by row.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Libm {
    /// An exact IEEE unary operation.
    Unary(FUnOp),
    Fabs,
    Copysign,
    FMin,
    FMax,
    FMod,
    Fma,
    /// No exact semantics: equal arguments give equal results.
    Uninterpreted,
}

/// libm functions by C name (the `f` variant is derived: `sqrtf` is
/// `sqrt` on floats), what they compute and how many arguments they take.
const LIBM_ROWS: &[(&str, Libm, usize)] = &[
    ("sqrt", Libm::Unary(FUnOp::Sqrt), 1),
    ("floor", Libm::Unary(FUnOp::Floor), 1),
    ("ceil", Libm::Unary(FUnOp::Ceil), 1),
    ("trunc", Libm::Unary(FUnOp::Trunc), 1),
    ("rint", Libm::Unary(FUnOp::RoundEven), 1),
    ("nearbyint", Libm::Unary(FUnOp::RoundEven), 1),
    ("round", Libm::Unary(FUnOp::RoundAway), 1),
    ("roundeven", Libm::Unary(FUnOp::RoundEven), 1),
    ("fmin", Libm::FMin, 2),
    ("fmax", Libm::FMax, 2),
    ("fmod", Libm::FMod, 2),
    ("copysign", Libm::Copysign, 2),
    ("fabs", Libm::Fabs, 1),
    ("fma", Libm::Fma, 3),
    ("sin", Libm::Uninterpreted, 1),
    ("cos", Libm::Uninterpreted, 1),
    ("tan", Libm::Uninterpreted, 1),
    ("asin", Libm::Uninterpreted, 1),
    ("acos", Libm::Uninterpreted, 1),
    ("atan", Libm::Uninterpreted, 1),
    ("atan2", Libm::Uninterpreted, 2),
    ("sinh", Libm::Uninterpreted, 1),
    ("cosh", Libm::Uninterpreted, 1),
    ("tanh", Libm::Uninterpreted, 1),
    ("asinh", Libm::Uninterpreted, 1),
    ("acosh", Libm::Uninterpreted, 1),
    ("atanh", Libm::Uninterpreted, 1),
    ("exp", Libm::Uninterpreted, 1),
    ("exp2", Libm::Uninterpreted, 1),
    ("exp10", Libm::Uninterpreted, 1),
    ("expm1", Libm::Uninterpreted, 1),
    ("log", Libm::Uninterpreted, 1),
    ("log2", Libm::Uninterpreted, 1),
    ("log10", Libm::Uninterpreted, 1),
    ("log1p", Libm::Uninterpreted, 1),
    ("pow", Libm::Uninterpreted, 2),
    ("cbrt", Libm::Uninterpreted, 1),
    ("hypot", Libm::Uninterpreted, 2),
    ("erf", Libm::Uninterpreted, 1),
    ("erfc", Libm::Uninterpreted, 1),
    ("tgamma", Libm::Uninterpreted, 1),
    ("lgamma", Libm::Uninterpreted, 1),
    ("logb", Libm::Uninterpreted, 1),
    // OpenCL C functions with error bounds rather than exact results (and
    // ldexp/remainder for double, which have no model of their own).
    ("pown", Libm::Uninterpreted, 2),
    ("powr", Libm::Uninterpreted, 2),
    ("rootn", Libm::Uninterpreted, 2),
    ("rsqrt", Libm::Uninterpreted, 1),
    ("sinpi", Libm::Uninterpreted, 1),
    ("cospi", Libm::Uninterpreted, 1),
    ("tanpi", Libm::Uninterpreted, 1),
    ("asinpi", Libm::Uninterpreted, 1),
    ("acospi", Libm::Uninterpreted, 1),
    ("atanpi", Libm::Uninterpreted, 1),
    ("atan2pi", Libm::Uninterpreted, 2),
    ("remainder", Libm::Uninterpreted, 2),
    ("ldexp", Libm::Uninterpreted, 2),
];

/// Whether argument `k` of the libm function `base` is a C `int` (the
/// exponent of ldexp, pown and rootn); every other argument has the
/// function's floating-point type.
fn libm_integer_parameter(base: &str, k: usize) -> bool {
    k == 1 && matches!(base, "ldexp" | "pown" | "rootn")
}

/// The row of a libm name, and the name without its `f` suffix.
fn libm_row(name: &str) -> Option<(&'static str, Libm, usize)> {
    // No row's name starts with `_`: a mangled name (`_Z13get_global_idj`,
    // asked about on every call of a kernel's built-ins) is answered
    // without comparing it against every row, twice.
    if name.starts_with('_') {
        return None;
    }
    let find = |n: &str| LIBM_ROWS.iter().find(|(row, _, _)| *row == n).copied();
    find(name).or_else(|| find(name.strip_suffix('f')?))
}

/// How many arguments the libm function `name` takes, if symcross
/// implements it.
pub fn libm_arity(name: &str) -> Option<Arity> {
    libm_row(name).map(|(_, _, n)| Arity::Exact(n))
}

/// Signed or unsigned minimum or maximum of integers.
#[derive(Copy, Clone, Debug, PartialEq)]
enum IntMinMax {
    SMin,
    SMax,
    UMin,
    UMax,
}

/// The saturating additions and subtractions.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Saturating {
    SAdd,
    UAdd,
    SSub,
    USub,
}

/// The arithmetic of `llvm.*.with.overflow`.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Overflowing {
    Add,
    Sub,
    Mul,
}

/// The folds of `llvm.vector.reduce.*`.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Reduce {
    /// Sequential FP sum or product from the first argument.
    FAdd,
    FMul,
    Add,
    Mul,
    And,
    Or,
    Xor,
    Int(IntMinMax),
    FMax,
    FMin,
}

/// What an `llvm.*` intrinsic (other than x86 and AArch64 ones, which
/// have their own tables) does, by row.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Llvm {
    MemCopy,
    MemSet,
    /// Hints that return their first argument unchanged.
    PassThrough,
    /// Its result only feeds `llvm.invariant.end`.
    InvariantStart,
    /// Checks that may be switched on or off: on.
    SwitchedOn,
    ObjectSize,
    PtrMask,
    GetRounding,
    Assume,
    /// Nothing to do and no result.
    NoEffect,
    StackSave,
    IsConstant,
    Powi,
    Trap,
    /// clang's trap for a failed UndefinedBehaviorSanitizer test; its
    /// argument says which test.
    UbsanTrap,
    VaStart,
    VaCopy,
    IsFpClass,
    Fabs,
    Copysign,
    /// minnum/maxnum: the number when one operand is NaN.
    FMinMaxNum {
        max: bool,
    },
    /// minimum/maximum: NaN when either operand is.
    FMinimumMaximum {
        max: bool,
    },
    Canonicalize,
    Fma,
    FMulAdd,
    FUnary(FUnOp),
    IntMinMax(IntMinMax),
    Saturating(Saturating),
    Abs,
    Ctpop,
    Ctlz,
    Cttz,
    Bswap,
    BitReverse,
    Funnel {
        left: bool,
    },
    WithOverflow {
        signed: bool,
        op: Overflowing,
    },
    /// fptosi.sat/fptoui.sat: toward zero, saturating, NaN gives 0.
    FpToIntSat {
        signed: bool,
    },
    Reduce(Reduce),
}

/// `llvm.*` intrinsics by name without the type suffix (`smax.v4i32` is
/// `smax`), what they do and their LLVM arity (metadata operands count:
/// the IR keeps them as empty operands).
const LLVM_ROWS: &[(&str, Llvm, usize)] = &[
    ("memcpy", Llvm::MemCopy, 4),
    ("memmove", Llvm::MemCopy, 4),
    ("memcpy.inline", Llvm::MemCopy, 4),
    ("memset", Llvm::MemSet, 4),
    ("memset.inline", Llvm::MemSet, 4),
    ("expect", Llvm::PassThrough, 2),
    ("expect.with.probability", Llvm::PassThrough, 3),
    ("ssa.copy", Llvm::PassThrough, 1),
    ("launder.invariant.group", Llvm::PassThrough, 1),
    ("strip.invariant.group", Llvm::PassThrough, 1),
    ("threadlocal.address", Llvm::PassThrough, 1),
    ("annotation", Llvm::PassThrough, 4),
    ("ptr.annotation", Llvm::PassThrough, 5),
    ("arithmetic.fence", Llvm::PassThrough, 1),
    ("invariant.start", Llvm::InvariantStart, 2),
    ("experimental.widenable.condition", Llvm::SwitchedOn, 0),
    ("allow.runtime.check", Llvm::SwitchedOn, 1),
    ("allow.ubsan.check", Llvm::SwitchedOn, 1),
    ("objectsize", Llvm::ObjectSize, 4),
    ("ptrmask", Llvm::PtrMask, 2),
    ("get.rounding", Llvm::GetRounding, 0),
    ("assume", Llvm::Assume, 1),
    // The intrinsics without any effect are dropped when the IR is
    // translated (ir::NO_EFFECT_INTRINSICS).
    ("va_end", Llvm::NoEffect, 1),
    ("stackrestore", Llvm::NoEffect, 1),
    ("stacksave", Llvm::StackSave, 0),
    ("is.constant", Llvm::IsConstant, 1),
    ("powi", Llvm::Powi, 2),
    ("trap", Llvm::Trap, 0),
    ("ubsantrap", Llvm::UbsanTrap, 1),
    ("debugtrap", Llvm::Trap, 0),
    ("va_start", Llvm::VaStart, 1),
    ("va_copy", Llvm::VaCopy, 2),
    ("is.fpclass", Llvm::IsFpClass, 2),
    ("fabs", Llvm::Fabs, 1),
    ("copysign", Llvm::Copysign, 2),
    ("minnum", Llvm::FMinMaxNum { max: false }, 2),
    ("maxnum", Llvm::FMinMaxNum { max: true }, 2),
    ("minimum", Llvm::FMinimumMaximum { max: false }, 2),
    ("maximum", Llvm::FMinimumMaximum { max: true }, 2),
    ("canonicalize", Llvm::Canonicalize, 1),
    ("fma", Llvm::Fma, 3),
    ("fmuladd", Llvm::FMulAdd, 3),
    ("sqrt", Llvm::FUnary(FUnOp::Sqrt), 1),
    ("floor", Llvm::FUnary(FUnOp::Floor), 1),
    ("ceil", Llvm::FUnary(FUnOp::Ceil), 1),
    ("trunc", Llvm::FUnary(FUnOp::Trunc), 1),
    ("rint", Llvm::FUnary(FUnOp::RoundEven), 1),
    ("nearbyint", Llvm::FUnary(FUnOp::RoundEven), 1),
    ("roundeven", Llvm::FUnary(FUnOp::RoundEven), 1),
    ("round", Llvm::FUnary(FUnOp::RoundAway), 1),
    ("smin", Llvm::IntMinMax(IntMinMax::SMin), 2),
    ("smax", Llvm::IntMinMax(IntMinMax::SMax), 2),
    ("umin", Llvm::IntMinMax(IntMinMax::UMin), 2),
    ("umax", Llvm::IntMinMax(IntMinMax::UMax), 2),
    ("sadd.sat", Llvm::Saturating(Saturating::SAdd), 2),
    ("uadd.sat", Llvm::Saturating(Saturating::UAdd), 2),
    ("ssub.sat", Llvm::Saturating(Saturating::SSub), 2),
    ("usub.sat", Llvm::Saturating(Saturating::USub), 2),
    // The second operand says whether INT_MIN is poison: either way the
    // result for it is INT_MIN.
    ("abs", Llvm::Abs, 2),
    ("ctpop", Llvm::Ctpop, 1),
    // The second operand says whether zero is poison: either way the
    // result for zero is the width.
    ("ctlz", Llvm::Ctlz, 2),
    ("cttz", Llvm::Cttz, 2),
    ("bswap", Llvm::Bswap, 1),
    ("bitreverse", Llvm::BitReverse, 1),
    ("fshl", Llvm::Funnel { left: true }, 3),
    ("fshr", Llvm::Funnel { left: false }, 3),
    ("sadd.with.overflow", Llvm::WithOverflow { signed: true, op: Overflowing::Add }, 2),
    ("uadd.with.overflow", Llvm::WithOverflow { signed: false, op: Overflowing::Add }, 2),
    ("ssub.with.overflow", Llvm::WithOverflow { signed: true, op: Overflowing::Sub }, 2),
    ("usub.with.overflow", Llvm::WithOverflow { signed: false, op: Overflowing::Sub }, 2),
    ("smul.with.overflow", Llvm::WithOverflow { signed: true, op: Overflowing::Mul }, 2),
    ("umul.with.overflow", Llvm::WithOverflow { signed: false, op: Overflowing::Mul }, 2),
    ("fptosi.sat", Llvm::FpToIntSat { signed: true }, 1),
    ("fptoui.sat", Llvm::FpToIntSat { signed: false }, 1),
    ("vector.reduce.fadd", Llvm::Reduce(Reduce::FAdd), 2),
    ("vector.reduce.fmul", Llvm::Reduce(Reduce::FMul), 2),
    ("vector.reduce.add", Llvm::Reduce(Reduce::Add), 1),
    ("vector.reduce.mul", Llvm::Reduce(Reduce::Mul), 1),
    ("vector.reduce.and", Llvm::Reduce(Reduce::And), 1),
    ("vector.reduce.or", Llvm::Reduce(Reduce::Or), 1),
    ("vector.reduce.xor", Llvm::Reduce(Reduce::Xor), 1),
    ("vector.reduce.smax", Llvm::Reduce(Reduce::Int(IntMinMax::SMax)), 1),
    ("vector.reduce.smin", Llvm::Reduce(Reduce::Int(IntMinMax::SMin)), 1),
    ("vector.reduce.umax", Llvm::Reduce(Reduce::Int(IntMinMax::UMax)), 1),
    ("vector.reduce.umin", Llvm::Reduce(Reduce::Int(IntMinMax::UMin)), 1),
    ("vector.reduce.fmax", Llvm::Reduce(Reduce::FMax), 1),
    ("vector.reduce.fmin", Llvm::Reduce(Reduce::FMin), 1),
];

/// The row of `rest`, an intrinsic's name after `llvm.`.
fn llvm_row(rest: &str) -> Option<(Llvm, usize)> {
    let base = intrinsic_base(rest);
    LLVM_ROWS.iter().find(|(name, _, _)| *name == base).map(|(_, op, n)| (*op, *n))
}

/// How many arguments the intrinsic `llvm.{rest}` takes, if this table
/// implements it (x86 and AArch64 intrinsics are checked by their own
/// tables).
pub fn llvm_arity(rest: &str) -> Option<Arity> {
    if rest.starts_with("x86.") || rest.starts_with("aarch64.") {
        return None;
    }
    llvm_row(rest).map(|(_, n)| Arity::Exact(n))
}

/// Whether the call `name` (with its `llvm.` prefix) is a hint that
/// returns its first argument unchanged (the `PassThrough` rows): its
/// result carries that argument's shadow (exec/memory/shadow.rs).
pub fn returns_first_argument(name: &str) -> bool {
    name.strip_prefix("llvm.").and_then(llvm_row).is_some_and(|(op, _)| op == Llvm::PassThrough)
}

fn lanes_fmt(c: &CallCtx) -> Option<FpFormat> {
    c.inst.ty.is_float()
}

impl<'m> Executor<'m> {
    pub(in crate::exec) fn call_intrinsic(&mut self, state: &mut State, c: &CallCtx) -> Outcome {
        if let Some(rest) = c.name.strip_prefix("llvm.") {
            if rest.starts_with("x86.") {
                return self.call_x86(state, c);
            }
            if rest.starts_with("aarch64.") {
                return self.call_neon(state, c);
            }
            let (op, _) = llvm_row(rest)?;
            return self.call_llvm(state, c, op);
        }
        if let Some(why) = self.libm_signature_mismatch(c) {
            return Some(Err(self.unsupported(state, c.inst.loc, why)));
        }
        self.libm(c).map(|v| Ok(Some(v)))
    }

    /// A C call of a libm function declared with other types than the C
    /// library's (`float sqrtf(double)`): natively the callee reads its
    /// argument registers as its own types, which symcross does not model,
    /// so the call is an `unsupported` finding naming both signatures.
    /// The count of arguments was checked at the call (arity.rs).
    fn libm_signature_mismatch(&self, c: &CallCtx) -> Option<String> {
        let (base, _, _) = libm_row(c.name)?;
        let (format, c_type) = if base == c.name { (FpFormat::Double, "double") } else { (FpFormat::Single, "float") };
        let expected_width = |k: usize| if libm_integer_parameter(base, k) { 32 } else { format.width() };
        let widths: Vec<u32> = c.args.iter().map(|v| v.first().map_or(0, |&e| self.cx.pool.width(e))).collect();
        let arguments_fit = c.args.iter().zip(&widths).enumerate().all(|(k, (v, &w))| v.len() == 1 && w == expected_width(k));
        let returns_format = c.inst.ty == crate::ir::Type::Float(format);
        if returns_format && arguments_fit {
            return None;
        }
        // Only the widths are known here (a float and an int both pass 32
        // bits), so the message names those.
        let expected: Vec<&str> = (0..c.args.len()).map(|k| if libm_integer_parameter(base, k) { "int" } else { c_type }).collect();
        let given: Vec<String> = c
            .args
            .iter()
            .zip(&widths)
            .map(|(v, w)| if v.len() == 1 { format!("{w}-bit") } else { format!("{}-lane vector", v.len()) })
            .collect();
        Some(format!(
            "`{}` declared with other types than the C library's: called with ({}) returning {}, but it takes ({}) and returns {c_type}, so it would read its arguments as other types",
            c.name,
            given.join(", "),
            match &c.inst.ty {
                crate::ir::Type::Float(f) => f.name().to_string(),
                other => format!("{}-bit", other.size() * 8),
            },
            expected.join(", ")
        ))
    }

    /// Whether `name` is a libm function symcross computes (exactly or as
    /// an uninterpreted function).
    pub(in crate::exec) fn is_libm(&self, name: &str) -> bool {
        libm_row(name).is_some()
    }

    /// A libm call; its arity was checked at the call (OpenCL math
    /// built-ins reach here lane by lane, with the arity of their row).
    pub(in crate::exec) fn libm(&mut self, c: &CallCtx) -> Option<Value> {
        let f = lanes_fmt(c)?;
        let (base, op, arity) = libm_row(c.name)?;
        if c.args.len() != arity {
            return None;
        }
        let a = |k: usize| c.args[k][0];
        let ties = self.min_max_ties(MinMaxCode::Libm);
        let p = &mut self.cx.pool;
        let r = match op {
            Libm::Unary(u) => p.fun(u, f, a(0)),
            Libm::Fabs => p.fabs(f, a(0)),
            Libm::Copysign => p.copysign(f, a(0), a(1)),
            Libm::FMin => min_max_num(p, ties, false, f, a(0), a(1)),
            Libm::FMax => min_max_num(p, ties, true, f, a(0), a(1)),
            Libm::FMod => p.fbin(FBinOp::Rem, f, a(0), a(1)),
            Libm::Fma => p.fma(f, a(0), a(1), a(2)),
            Libm::Uninterpreted => {
                let args: Vec<ExprId> = c.args.iter().map(|v| v[0]).collect();
                if self.cx.config.native_libm {
                    let values: Option<Vec<u128>> = args.iter().map(|a| self.cx.pool.as_const(*a)).collect();
                    if let Some(bits) = values.and_then(|v| native_libm(base, f, &v)) {
                        return Some(scalar(self.cx.pool.constant(f.width(), bits)));
                    }
                }
                self.cx.pool.apply(&format!("{base}.{}", f.name()), args, f.width())
            }
        };
        Some(scalar(r))
    }

    /// An `llvm.*` intrinsic of the table; the call has the row's arity.
    fn call_llvm(&mut self, state: &mut State, c: &CallCtx, op: Llvm) -> Outcome {
        let loc = c.inst.loc;
        let arg = |k: usize| c.args[k].clone();
        let r: Value = match op {
            Llvm::MemCopy => {
                return Some(
                    self.concrete_length(state, c.args[2][0], loc, "the size of a memcpy")
                        .and_then(|n| self.copy_bytes(state, c.args[0][0], c.args[1][0], n, loc).map(|_| None)),
                );
            }
            Llvm::MemSet => {
                return Some(
                    self.concrete_length(state, c.args[2][0], loc, "the size of a memset")
                        .and_then(|n| self.fill_bytes(state, c.args[0][0], c.args[1][0], n, loc).map(|_| None)),
                );
            }
            Llvm::PassThrough => arg(0),
            Llvm::InvariantStart => scalar(self.cx.pool.constant(64, 0)),
            Llvm::SwitchedOn => scalar(self.cx.pool.bool_const(true)),
            // Object size unknown: -1 for the maximum, 0 for the minimum.
            Llvm::ObjectSize => {
                let min = self.cx.pool.as_const(c.args[1][0]) == Some(1);
                let w = c.inst.ty.scalar_bits();
                scalar(self.cx.pool.constant(w, if min { 0 } else { crate::expr::mask(w) }))
            }
            Llvm::PtrMask => scalar(self.cx.pool.and(c.args[0][0], c.args[1][0])),
            // FLT_ROUNDS: to nearest, the only rounding mode modelled.
            Llvm::GetRounding => scalar(self.cx.pool.constant(32, 1)),
            Llvm::Assume => {
                let ok = self.assume(state, c.args[0][0]);
                return Some(if ok { Ok(None) } else { Err(Step::Terminated) });
            }
            Llvm::NoEffect => return Some(Ok(None)),
            Llvm::StackSave => scalar(self.cx.pool.constant(64, 0)),
            // __builtin_constant_p at -O0: nothing is known to be constant.
            Llvm::IsConstant => scalar(self.cx.pool.bool_const(false)),
            // x^n by repeated multiplication, in an unspecified order: no
            // exact result, so an uninterpreted function.
            Llvm::Powi => {
                let f = lanes_fmt(c)?;
                let args = vec![c.args[0][0], c.args[1][0]];
                scalar(self.cx.pool.apply(&format!("powi.{}", f.name()), args, f.width()))
            }
            Llvm::Trap => {
                self.report(state, FindingKind::Mismatch, loc, "llvm.trap reached".into(), None, None);
                return Some(Err(Step::Terminated));
            }
            Llvm::UbsanTrap => {
                let check = self.cx.pool.as_const(c.args[0][0]);
                self.sanitizer_trap(state, loc, check);
                return Some(Err(Step::Terminated));
            }
            Llvm::VaStart => return Some(self.va_start(state, c.args[0][0], loc).map(|_| None)),
            Llvm::VaCopy => return Some(self.copy_bytes(state, c.args[0][0], c.args[1][0], 24, loc).map(|_| None)),
            _ => {
                let r = self.llvm_value_intrinsic(c, op)?;
                // The flag of abs/ctlz/cttz says the special operand is
                // poison (undefined.rs); host code only, as for `nsw`'s
                // kin: OpenCL C defines abs and clz for every value.
                let count = match op {
                    Llvm::Ctlz => Some("leading"),
                    Llvm::Cttz => Some("trailing"),
                    _ => None,
                };
                let flagged = matches!(op, Llvm::Abs | Llvm::Ctlz | Llvm::Cttz)
                    && c.args.get(1).and_then(|f| f.first()).and_then(|f| self.cx.pool.as_const(*f)) == Some(1);
                if flagged && state.gpu.is_none() {
                    self.flagged_intrinsic_poison(loc, count, &c.args[0], &r);
                }
                r
            }
        };
        Some(Ok(Some(r)))
    }

    /// Intrinsics that compute a value from their arguments, lane by lane.
    fn llvm_value_intrinsic(&mut self, c: &CallCtx, op: Llvm) -> Option<Value> {
        let n = c.args.first().map(|v| v.len()).unwrap_or(0);
        let fmt = c.inst.ty.is_float();
        let lane = |k: usize, i: usize| c.args[k][i];
        let ties = self.min_max_ties(MinMaxCode::Inline);
        let p = &mut self.cx.pool;
        let mut out = Value::new();
        if let Llvm::Reduce(fold) = op {
            return reduce(p, ties, fold, c).map(scalar);
        }
        if op == Llvm::IsFpClass {
            let mask = p.as_const(c.args[1][0])? as u32;
            for i in 0..n {
                let x = lane(0, i);
                let f = FpFormat::from_width(p.width(x))?;
                out.push(is_fpclass(p, f, x, mask));
            }
            return Some(out);
        }
        for i in 0..n {
            let v = match op {
                Llvm::Fabs => p.fabs(fmt?, lane(0, i)),
                Llvm::Copysign => p.copysign(fmt?, lane(0, i), lane(1, i)),
                Llvm::FMinMaxNum { max } => min_max_num(p, ties, max, fmt?, lane(0, i), lane(1, i)),
                Llvm::FMinimumMaximum { max } => {
                    let f = fmt?;
                    let m = p.fbin(if max { FBinOp::Max } else { FBinOp::Min }, f, lane(0, i), lane(1, i));
                    let uno = p.fcmp(crate::expr::Outcomes(crate::expr::Outcomes::UNO), f, lane(0, i), lane(1, i));
                    let nan = p.constant(f.width(), crate::expr::canonical_nan(f));
                    p.ite(uno, nan, m)
                }
                // IEEE mode: the value itself, except that a NaN becomes
                // the canonical quiet NaN.
                Llvm::Canonicalize => {
                    let f = fmt?;
                    let uno = p.fcmp(crate::expr::Outcomes(crate::expr::Outcomes::UNO), f, lane(0, i), lane(0, i));
                    let nan = p.constant(f.width(), crate::expr::canonical_nan(f));
                    p.ite(uno, nan, lane(0, i))
                }
                Llvm::Fma => p.fma(fmt?, lane(0, i), lane(1, i), lane(2, i)),
                // Fused or not, as the code generator chooses (contraction.rs).
                Llvm::FMulAdd => crate::exec::ops::contraction::mul_add(p, fmt?, lane(0, i), lane(1, i), lane(2, i)),
                Llvm::FUnary(u) => p.fun(u, fmt?, lane(0, i)),
                Llvm::IntMinMax(which) => min_max(p, which, lane(0, i), lane(1, i)),
                Llvm::Saturating(kind) => saturating(p, kind, lane(0, i), lane(1, i)),
                Llvm::Abs => {
                    let x = lane(0, i);
                    let zero = p.constant(p.width(x), 0);
                    let neg = p.cmp(CmpOp::Slt, x, zero);
                    let minus = p.sub(zero, x);
                    p.ite(neg, minus, x)
                }
                Llvm::Ctpop => popcount(p, lane(0, i)),
                Llvm::Ctlz => count_zeros(p, lane(0, i), true),
                Llvm::Cttz => count_zeros(p, lane(0, i), false),
                Llvm::Bswap => byte_swap(p, lane(0, i)),
                Llvm::BitReverse => bit_reverse(p, lane(0, i)),
                Llvm::Funnel { left } => funnel_shift(p, left, lane(0, i), lane(1, i), lane(2, i)),
                Llvm::FpToIntSat { signed } => {
                    let x = lane(0, i);
                    let w = c.inst.ty.scalar_bits();
                    let (f, x) = match FpFormat::from_width(p.width(x))? {
                        // Every half is a double.
                        FpFormat::Half => (FpFormat::Double, p.fp_convert(FpFormat::Half, FpFormat::Double, x)),
                        f => (f, x),
                    };
                    crate::neon::saturating_to_int(p, f, signed, x, w)
                }
                Llvm::WithOverflow { signed, op } => {
                    let (r, o) = with_overflow(p, signed, op, lane(0, i), lane(1, i));
                    return Some(smallvec::smallvec![r, o]);
                }
                _ => return None,
            };
            out.push(v);
        }
        Some(out)
    }

    /// x86-64 va_start: all variadic arguments are read from the overflow
    /// area (gp_offset and fp_offset say the register save area is used up).
    fn va_start(&mut self, state: &mut State, list: ExprId, loc: crate::ir::Loc) -> Result<(), Step> {
        let area = state.frame().varargs.map(|o| state.memory.object(o).base).unwrap_or(0);
        let p = &mut self.cx.pool;
        let gp = p.constant(32, 48);
        let fp = p.constant(32, 176);
        let ov = p.constant(64, area as u128);
        let rs = p.constant(64, 0);
        let t = crate::ir::Type::Struct {
            fields: vec![crate::ir::Type::Int(32), crate::ir::Type::Int(32), crate::ir::Type::Int(64), crate::ir::Type::Int(64)],
            offsets: vec![0, 4, 8, 16],
            size: 24,
        };
        let bytes = crate::memory::layout::value_to_bytes(&mut self.cx.pool, &t, &[gp, fp, ov, rs]);
        let access = self.resolve(state, list, 24, loc, true)?;
        self.write_bytes(state, &access, &bytes);
        Ok(())
    }
}

/// `smax.v4i32` -> `smax`, `memcpy.p0.p0.i64` -> `memcpy`.
pub fn intrinsic_base(rest: &str) -> &str {
    let mut end = rest.len();
    for (i, part) in rest.match_indices('.') {
        let suffix = &rest[i + 1..];
        let tok = suffix.split('.').next().unwrap_or("");
        if is_type_token(tok) {
            end = i;
            break;
        }
        let _ = part;
    }
    &rest[..end]
}

fn is_type_token(t: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    match t.chars().next() {
        Some('i') => digits(&t[1..]),
        Some('f') => digits(&t[1..]),
        Some('p') => digits(&t[1..]),
        Some('v') => t[1..].chars().next().is_some_and(|c| c.is_ascii_digit()),
        _ => false,
    }
}

fn min_max(p: &mut ExprPool, which: IntMinMax, a: ExprId, b: ExprId) -> ExprId {
    let (op, take_less) = match which {
        IntMinMax::SMin => (CmpOp::Slt, true),
        IntMinMax::SMax => (CmpOp::Slt, false),
        IntMinMax::UMin => (CmpOp::Ult, true),
        IntMinMax::UMax => (CmpOp::Ult, false),
    };
    let lt = p.cmp(op, a, b);
    if take_less {
        p.ite(lt, a, b)
    } else {
        p.ite(lt, b, a)
    }
}

/// Saturating add/sub: computed one bit wider, then clamped.
pub fn saturating(p: &mut ExprPool, kind: Saturating, a: ExprId, b: ExprId) -> ExprId {
    let w = p.width(a);
    let add = matches!(kind, Saturating::SAdd | Saturating::UAdd);
    if matches!(kind, Saturating::UAdd | Saturating::USub) {
        if !add {
            let below = p.cmp(CmpOp::Ult, a, b);
            let zero = p.constant(w, 0);
            let diff = p.sub(a, b);
            return p.ite(below, zero, diff);
        }
        let (x, y) = (p.zext(a, w + 1), p.zext(b, w + 1));
        let r = p.add(x, y);
        let hi = p.constant(w + 1, crate::expr::mask(w));
        let above = p.cmp(CmpOp::Ult, hi, r);
        let max = p.constant(w, crate::expr::mask(w));
        let low = p.trunc(r, w);
        return p.ite(above, max, low);
    }
    let (x, y) = (p.sext(a, w + 1), p.sext(b, w + 1));
    let r = if add { p.add(x, y) } else { p.sub(x, y) };
    let lo = p.constant(w + 1, (1u128 << (w - 1)).wrapping_neg());
    let hi = p.constant(w + 1, (1u128 << (w - 1)) - 1);
    let below = p.cmp(CmpOp::Slt, r, lo);
    let above = p.cmp(CmpOp::Slt, hi, r);
    let clamped_hi = p.ite(above, hi, r);
    let clamped = p.ite(below, lo, clamped_hi);
    p.trunc(clamped, w)
}

fn popcount(p: &mut ExprPool, x: ExprId) -> ExprId {
    let w = p.width(x);
    let mut acc = p.constant(w, 0);
    for i in 0..w {
        let bit = p.extract(x, i, 1);
        let bit = p.zext(bit, w);
        acc = p.add(acc, bit);
    }
    acc
}

fn count_zeros(p: &mut ExprPool, x: ExprId, leading: bool) -> ExprId {
    let w = p.width(x);
    let mut acc = p.constant(w, w as u128);
    let order: Vec<u32> = if leading { (0..w).collect() } else { (0..w).rev().collect() };
    for i in order {
        let bit = p.extract(x, i, 1);
        let n = p.constant(w, if leading { (w - 1 - i) as u128 } else { i as u128 });
        acc = p.ite(bit, n, acc);
    }
    acc
}

fn byte_swap(p: &mut ExprPool, x: ExprId) -> ExprId {
    let n = p.width(x) / 8;
    let mut acc = p.extract(x, 0, 8);
    for k in 1..n {
        let b = p.extract(x, k * 8, 8);
        acc = p.concat(acc, b);
    }
    acc
}

fn bit_reverse(p: &mut ExprPool, x: ExprId) -> ExprId {
    let w = p.width(x);
    let mut acc = p.extract(x, 0, 1);
    for k in 1..w {
        let b = p.extract(x, k, 1);
        acc = p.concat(acc, b);
    }
    acc
}

fn funnel_shift(p: &mut ExprPool, left: bool, a: ExprId, b: ExprId, s: ExprId) -> ExprId {
    let w = p.width(a);
    let wc = p.constant(w, w as u128);
    let amount = p.bin(BinOp::URem, s, wc);
    let both = p.concat(a, b);
    let amount = p.zext(amount, 2 * w);
    if left {
        let sh = p.bin(BinOp::Shl, both, amount);
        p.extract(sh, w, w)
    } else {
        let sh = p.bin(BinOp::LShr, both, amount);
        p.extract(sh, 0, w)
    }
}

fn with_overflow(p: &mut ExprPool, signed: bool, op: Overflowing, a: ExprId, b: ExprId) -> (ExprId, ExprId) {
    let w = p.width(a);
    let wide = if op == Overflowing::Mul { 2 * w } else { w + 1 };
    let ext = |p: &mut ExprPool, x| if signed { p.sext(x, wide) } else { p.zext(x, wide) };
    let (x, y) = (ext(p, a), ext(p, b));
    let r = match op {
        Overflowing::Add => p.add(x, y),
        Overflowing::Sub => p.sub(x, y),
        Overflowing::Mul => p.mul(x, y),
    };
    let low = p.trunc(r, w);
    let back = ext(p, low);
    let same = p.eq(back, r);
    (low, p.not(same))
}

/// `llvm.vector.reduce.*`: folds the lanes of the last argument. The FP
/// forms without `reassoc` are sequential, starting from the first argument.
/// What fmin/fmax give for two operands that compare equal (+0 and -0,
/// or one value twice).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(in crate::exec) enum MinMaxTies {
    /// The first operand: fmin(+0, -0) is +0, fmin(-0, +0) is -0.
    FirstOperand,
    /// The second operand: fmin(+0, -0) is -0, fmin(-0, +0) is +0.
    SecondOperand,
    /// -0 below +0 whatever the order (the Min/Max expression's own rule).
    NegativeZeroLess,
    /// Either operand, a choice left open (a fresh value decides): the
    /// code that runs is not known, so only what holds for both counts.
    EitherOperand,
}

/// Which code computes an fmin/fmax: they break ties differently on x86-64.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(in crate::exec) enum MinMaxCode {
    /// `llvm.minnum`/`llvm.maxnum`, which clang emits for `fminf` even at
    /// -O0 once <math.h> declares it: x86-64 code returns the first operand
    /// on a tie.
    Inline,
    /// A call of glibc's `fmin`/`fmax` itself (through a function pointer,
    /// or with -fno-builtin): x86-64 glibc returns the second operand on a
    /// tie (its MINSD with the operands the other way round).
    Libm,
}

impl Executor<'_> {
    /// The tie rule of fmin/fmax computed by `code` on the target the module
    /// was compiled for. Measured on this machine with clang-19 and glibc
    /// 2.36 (x86-64); AArch64's FMINNM/FMAXNM, inline or in glibc, order -0
    /// below +0.
    /// CUDA device code runs on an NVIDIA GPU, not on this CPU: neither C
    /// nor NVIDIA's documentation of fminf/fmaxf says which of two zeros
    /// they give, so the tie is left open there (a difference resting on
    /// it is not confirmed).
    pub(in crate::exec) fn min_max_ties(&self, code: MinMaxCode) -> MinMaxTies {
        if self.cx.module.is_cuda() {
            return MinMaxTies::EitherOperand;
        }
        let aarch64 = crate::frontend::target::is_aarch64(&self.cx.module.triple);
        match (aarch64, code) {
            (true, _) => MinMaxTies::NegativeZeroLess,
            (false, MinMaxCode::Inline) => MinMaxTies::FirstOperand,
            (false, MinMaxCode::Libm) => MinMaxTies::SecondOperand,
        }
    }
}

/// libm fmin/fmax and llvm.minnum/maxnum under a tie rule: the Min/Max
/// expression (a NaN operand yields the other; -0 below +0), and, when the
/// two operands compare equal, the operand the rule names. LLVM leaves the
/// tie open; what decides it is the code that runs.
pub(in crate::exec) fn min_max_num(p: &mut ExprPool, ties: MinMaxTies, max: bool, f: FpFormat, a: ExprId, b: ExprId) -> ExprId {
    let m = p.fbin(if max { FBinOp::Max } else { FBinOp::Min }, f, a, b);
    match ties {
        MinMaxTies::NegativeZeroLess => m,
        MinMaxTies::FirstOperand => {
            let equal = p.fcmp(crate::expr::Outcomes(crate::expr::Outcomes::EQ), f, a, b);
            p.ite(equal, a, m)
        }
        MinMaxTies::EitherOperand => {
            let equal = p.fcmp(crate::expr::Outcomes(crate::expr::Outcomes::EQ), f, a, b);
            let first = p.fresh(1);
            let tie = p.ite(first, a, b);
            p.ite(equal, tie, m)
        }
        MinMaxTies::SecondOperand => {
            let equal = p.fcmp(crate::expr::Outcomes(crate::expr::Outcomes::EQ), f, a, b);
            let ordered = p.ite(equal, b, m);
            if p.nan_model().is_exact() {
                glibc_min_max_nans(p, f, a, b, ordered)
            } else {
                ordered
            }
        }
    }
}

/// The NaN bits of a call of x86-64 glibc's fmin/fmax (measured): with a
/// signalling operand it returns `a + b`, the first NaN operand quieted;
/// with two quiet NaNs, the first; with one NaN, the other operand (what
/// `otherwise`, the Min/Max expression, gives already).
fn glibc_min_max_nans(p: &mut ExprPool, f: FpFormat, a: ExprId, b: ExprId, otherwise: ExprId) -> ExprId {
    let unordered = crate::expr::Outcomes(crate::expr::Outcomes::UNO);
    let quiet_bit = p.constant(f.width(), crate::expr::nan_rules::quiet_bit(f));
    let zero = p.constant(f.width(), 0);
    let mut parts = Vec::new();
    for x in [a, b] {
        let nan = p.fcmp(unordered, f, x, x);
        let bit = p.and(x, quiet_bit);
        let bit_clear = p.eq(bit, zero);
        let signalling = p.and(nan, bit_clear);
        let quieted = p.or(x, quiet_bit);
        parts.push((nan, signalling, quieted));
    }
    let [(a_nan, a_signalling, a_quieted), (b_nan, b_signalling, b_quieted)] = [parts[0], parts[1]];
    let any_signalling = p.or(a_signalling, b_signalling);
    let first_nan_quieted = p.ite(a_nan, a_quieted, b_quieted);
    let both_nan = p.and(a_nan, b_nan);
    let quiet_case = p.ite(both_nan, a, otherwise);
    p.ite(any_signalling, first_nan_quieted, quiet_case)
}

fn reduce(p: &mut ExprPool, ties: MinMaxTies, fold: Reduce, c: &CallCtx) -> Option<ExprId> {
    let fmt = c.inst.ty.is_float();
    if fold == Reduce::FAdd || fold == Reduce::FMul {
        let f = fmt?;
        let o = if fold == Reduce::FAdd { FBinOp::Add } else { FBinOp::Mul };
        let mut acc = c.args[0][0];
        for l in c.args[1].iter() {
            acc = p.fbin(o, f, acc, *l);
        }
        return Some(acc);
    }
    let lanes = &c.args[0];
    let mut acc = *lanes.first()?;
    for l in lanes.iter().skip(1) {
        acc = match fold {
            Reduce::Add => p.add(acc, *l),
            Reduce::Mul => p.mul(acc, *l),
            Reduce::And => p.and(acc, *l),
            Reduce::Or => p.or(acc, *l),
            Reduce::Xor => p.xor(acc, *l),
            Reduce::Int(which) => min_max(p, which, acc, *l),
            // x86-64 keeps lane 0's zero when all lanes are zeros of
            // either sign (measured): the tie rule, lane by lane in order.
            Reduce::FMax => min_max_num(p, ties, true, fmt?, acc, *l),
            Reduce::FMin => min_max_num(p, ties, false, fmt?, acc, *l),
            Reduce::FAdd | Reduce::FMul => unreachable!("sequential folds are handled above"),
        };
    }
    Some(acc)
}

/// `llvm.is.fpclass(x, mask)`: whether x is in one of the classes of the
/// mask (bit 0 signalling NaN, 1 quiet NaN, 2..5 negative infinity, normal,
/// subnormal, zero, 6..9 positive zero, subnormal, normal, infinity), from
/// the bits of x.
fn is_fpclass(p: &mut ExprPool, f: FpFormat, x: ExprId, mask: u32) -> ExprId {
    let w = f.width();
    let mant = f.significand_bits() - 1;
    let ebits = f.exponent_bits();
    let sign = p.extract(x, w - 1, 1);
    let exp = p.extract(x, mant, ebits);
    let man = p.extract(x, 0, mant);
    let ones = p.constant(ebits, crate::expr::mask(ebits));
    let ezero = p.constant(ebits, 0);
    let mzero = p.constant(mant, 0);
    let exp_ones = p.eq(exp, ones);
    let exp_zero = p.eq(exp, ezero);
    let man_zero = p.eq(man, mzero);
    let man_nonzero = p.not(man_zero);
    let quiet = p.extract(man, mant - 1, 1);
    let signalling = p.not(quiet);
    let negative = sign;
    let positive = p.not(sign);
    let nan = p.and(exp_ones, man_nonzero);
    let snan = p.and(nan, signalling);
    let qnan = p.and(exp_ones, quiet);
    let inf = p.and(exp_ones, man_zero);
    let not_ones = p.not(exp_ones);
    let not_zero = p.not(exp_zero);
    let normal = p.and(not_ones, not_zero);
    let subnormal = p.and(exp_zero, man_nonzero);
    let zero = p.and(exp_zero, man_zero);
    let mut classes = vec![snan, qnan];
    for (magnitude, signs) in [(inf, negative), (normal, negative), (subnormal, negative), (zero, negative)] {
        classes.push(p.and(magnitude, signs));
    }
    for (magnitude, signs) in [(zero, positive), (subnormal, positive), (normal, positive), (inf, positive)] {
        classes.push(p.and(magnitude, signs));
    }
    let mut r = p.bool_const(false);
    for (bit, class) in classes.into_iter().enumerate() {
        if mask & (1 << bit) != 0 {
            r = p.or(r, class);
        }
    }
    r
}

/// `base` (a libm name without its `f` suffix) on concrete arguments, by
/// this machine's C library (Rust's float methods call it for these
/// functions), in format `f`; None for functions Rust computes itself
/// (cbrt, asinh, ...: a differential test showed cbrt 1 ulp off glibc) or
/// not at all.
fn native_libm(base: &str, f: FpFormat, args: &[u128]) -> Option<u128> {
    // One table for both widths: `$t` is f32 or f64, `$bits` its bit type.
    macro_rules! evaluate {
        ($t:ty, $bits:ty) => {{
            let a: Vec<$t> = args.iter().map(|b| <$t>::from_bits(*b as $bits)).collect();
            let x = *a.first()?;
            let r = match (base, a.len()) {
                ("sin", 1) => x.sin(),
                ("cos", 1) => x.cos(),
                ("tan", 1) => x.tan(),
                ("asin", 1) => x.asin(),
                ("acos", 1) => x.acos(),
                ("atan", 1) => x.atan(),
                ("sinh", 1) => x.sinh(),
                ("cosh", 1) => x.cosh(),
                ("tanh", 1) => x.tanh(),
                ("exp", 1) => x.exp(),
                ("exp2", 1) => x.exp2(),
                ("expm1", 1) => x.exp_m1(),
                ("log", 1) => x.ln(),
                ("log2", 1) => x.log2(),
                ("log10", 1) => x.log10(),
                ("log1p", 1) => x.ln_1p(),
                ("atan2", 2) => x.atan2(a[1]),
                ("pow", 2) => x.powf(a[1]),
                ("hypot", 2) => x.hypot(a[1]),
                _ => return None,
            };
            Some(r.to_bits() as u128)
        }};
    }
    match f {
        FpFormat::Double => evaluate!(f64, u64),
        FpFormat::Single => evaluate!(f32, u32),
        FpFormat::Half => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{intrinsic_base, libm_arity, llvm_arity, min_max_num, returns_first_argument, MinMaxTies, LIBM_ROWS, LLVM_ROWS};
    use crate::exec::engine::arity::Arity;
    use crate::expr::{ExprPool, FpFormat};

    /// fmin(+0, -0) and fmin(-0, +0) under each tie rule: the first operand,
    /// the second, -0 always, or a choice left open (not a constant).
    #[test]
    fn fmin_ties_of_signed_zeros() {
        let mut p = ExprPool::new();
        let f = FpFormat::Single;
        let (pos, neg) = (p.constant(32, 0), p.constant(32, 0x8000_0000));
        let fmin = |p: &mut ExprPool, ties, a, b| {
            let e = min_max_num(p, ties, false, f, a, b);
            p.as_const(e)
        };
        assert_eq!(fmin(&mut p, MinMaxTies::FirstOperand, pos, neg), Some(0));
        assert_eq!(fmin(&mut p, MinMaxTies::FirstOperand, neg, pos), Some(0x8000_0000));
        assert_eq!(fmin(&mut p, MinMaxTies::SecondOperand, pos, neg), Some(0x8000_0000));
        assert_eq!(fmin(&mut p, MinMaxTies::SecondOperand, neg, pos), Some(0));
        assert_eq!(fmin(&mut p, MinMaxTies::NegativeZeroLess, pos, neg), Some(0x8000_0000));
        assert_eq!(fmin(&mut p, MinMaxTies::NegativeZeroLess, neg, pos), Some(0x8000_0000));
        assert_eq!(fmin(&mut p, MinMaxTies::EitherOperand, pos, neg), None);
        // Unequal operands leave no choice open.
        let one = p.constant(32, 0x3f80_0000);
        assert_eq!(fmin(&mut p, MinMaxTies::EitherOperand, one, pos), Some(0));
    }

    /// A row is looked up by the name without its type suffix: a row
    /// whose name has a type-like part could never match, and a second
    /// row of the same name would never be reached.
    #[test]
    fn llvm_rows_are_reachable() {
        for (k, (name, _, _)) in LLVM_ROWS.iter().enumerate() {
            assert_eq!(intrinsic_base(name), *name, "row {name} is not a base name");
            assert!(!LLVM_ROWS[..k].iter().any(|(n, _, _)| n == name), "row {name} is listed twice");
        }
        for (k, (name, _, _)) in LIBM_ROWS.iter().enumerate() {
            assert!(!LIBM_ROWS[..k].iter().any(|(n, _, _)| n == name), "libm row {name} is listed twice");
        }
    }

    #[test]
    fn arity_by_full_intrinsic_name() {
        assert_eq!(llvm_arity("memcpy.p0.p0.i64"), Some(Arity::Exact(4)));
        assert_eq!(llvm_arity("smax.v4i32"), Some(Arity::Exact(2)));
        assert_eq!(llvm_arity("vector.reduce.fadd.v4f32"), Some(Arity::Exact(2)));
        assert_eq!(llvm_arity("vector.reduce.add.v4i32"), Some(Arity::Exact(1)));
        assert_eq!(llvm_arity("fshl.i32"), Some(Arity::Exact(3)));
        // Checked by their own tables, unknown ones not at all.
        assert_eq!(llvm_arity("x86.sse.min.ps"), None);
        assert_eq!(llvm_arity("aarch64.neon.smax.v4i32"), None);
        assert_eq!(llvm_arity("no.such.intrinsic"), None);
    }

    /// The hints that pass their first argument through, by full name;
    /// the computing intrinsics and a C function of a hint's name do not.
    #[test]
    fn pass_through_hints_by_full_name() {
        for name in ["llvm.expect.i64", "llvm.expect.with.probability.i1", "llvm.ssa.copy.i32", "llvm.launder.invariant.group.p0"] {
            assert!(returns_first_argument(name), "{name}");
        }
        for name in ["llvm.smax.i32", "llvm.memcpy.p0.p0.i64", "llvm.fabs.f32", "expect", "llvm.x86.sse.min.ps"] {
            assert!(!returns_first_argument(name), "{name}");
        }
    }

    #[test]
    fn libm_arity_covers_the_float_variants() {
        assert_eq!(libm_arity("sqrtf"), Some(Arity::Exact(1)));
        assert_eq!(libm_arity("fma"), Some(Arity::Exact(3)));
        assert_eq!(libm_arity("atan2f"), Some(Arity::Exact(2)));
        assert_eq!(libm_arity("erff"), Some(Arity::Exact(1)));
        assert_eq!(libm_arity("strlen"), None);
        assert_eq!(libm_arity("_Z13get_global_idj"), None);
        // The shortcut for mangled names holds only while no row starts with `_`.
        assert!(LIBM_ROWS.iter().all(|(row, _, _)| !row.starts_with('_')));
    }
}
