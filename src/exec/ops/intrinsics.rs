//! `llvm.*` intrinsics and the libm functions with exact IEEE semantics.
//! Rows map a name (without the type suffix) to its semantics; libm
//! functions without exact semantics (sin, exp, ...) are uninterpreted:
//! equal arguments give equal results, nothing more.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::exec::engine::value::{scalar, Value};
use crate::expr::{BinOp, CmpOp, ExprId, ExprPool, FBinOp, FUnOp, FpFormat};
use crate::report::FindingKind;

type Outcome = Option<Result<Option<Value>, Step>>;

/// libm functions with exact semantics, by C name (the `f` and `l`
/// variants are derived), and the unary operation they perform.
const LIBM_UNARY: &[(&str, FUnOp)] = &[
    ("sqrt", FUnOp::Sqrt),
    ("floor", FUnOp::Floor),
    ("ceil", FUnOp::Ceil),
    ("trunc", FUnOp::Trunc),
    ("rint", FUnOp::RoundEven),
    ("nearbyint", FUnOp::RoundEven),
    ("round", FUnOp::RoundAway),
    ("roundeven", FUnOp::RoundEven),
];

/// libm functions treated as uninterpreted functions.
const LIBM_UNINTERPRETED: &[&str] = &[
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "exp",
    "exp2",
    "exp10",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "pow",
    "cbrt",
    "hypot",
    "erf",
    "erfc",
    "tgamma",
    "lgamma",
    "logb",
    // OpenCL C functions with error bounds rather than exact results (and
    // ldexp/remainder/remquo for double, which have no model of their own).
    "pown",
    "powr",
    "rootn",
    "rsqrt",
    "sinpi",
    "cospi",
    "tanpi",
    "asinpi",
    "acospi",
    "atanpi",
    "atan2pi",
    "remainder",
    "ldexp",
];

/// Strips `f`/`l` variants of a libm name: `sqrtf` -> `sqrt`.
fn libm_base<'a>(name: &'a str, table: &[&str]) -> Option<&'a str> {
    if table.contains(&name) {
        return Some(name);
    }
    let stem = name.strip_suffix('f')?;
    table.contains(&stem).then_some(stem)
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
            return self.call_llvm(state, c, rest);
        }
        self.libm(c).map(|v| Ok(Some(v)))
    }

    /// Whether `name` is a libm function symcross computes (exactly or as
    /// an uninterpreted function).
    pub(in crate::exec) fn is_libm(&self, name: &str) -> bool {
        let unary: Vec<&str> = LIBM_UNARY.iter().map(|(n, _)| *n).collect();
        let binary: &[&str] = &["fmin", "fmax", "fmod", "copysign", "fabs", "fma"];
        libm_base(name, &unary).is_some() || libm_base(name, binary).is_some() || libm_base(name, LIBM_UNINTERPRETED).is_some()
    }

    pub(in crate::exec) fn libm(&mut self, c: &CallCtx) -> Option<Value> {
        let name = c.name;
        let f = lanes_fmt(c)?;
        let unary_names: Vec<&str> = LIBM_UNARY.iter().map(|(n, _)| *n).collect();
        if let Some(base) = libm_base(name, &unary_names) {
            let op = LIBM_UNARY.iter().find(|(n, _)| *n == base)?.1;
            return Some(scalar(self.pool.fun(op, f, c.args[0][0])));
        }
        let a = |k: usize| c.args[k][0];
        let binary: &[&str] = &["fmin", "fmax", "fmod", "copysign", "fabs", "fma"];
        if let Some(base) = libm_base(name, binary) {
            let p = &mut self.pool;
            return Some(scalar(match base {
                "fmin" => p.fbin(FBinOp::Min, f, a(0), a(1)),
                "fmax" => p.fbin(FBinOp::Max, f, a(0), a(1)),
                "fmod" => p.fbin(FBinOp::Rem, f, a(0), a(1)),
                "copysign" => p.copysign(f, a(0), a(1)),
                "fabs" => p.fabs(f, a(0)),
                _ => p.fma(f, a(0), a(1), a(2)),
            }));
        }
        let base = libm_base(name, LIBM_UNINTERPRETED)?;
        let args: Vec<ExprId> = c.args.iter().map(|v| v[0]).collect();
        if self.config.native_libm {
            let values: Option<Vec<u128>> = args.iter().map(|a| self.pool.as_const(*a)).collect();
            if let Some(bits) = values.and_then(|v| native_libm(base, f, &v)) {
                return Some(scalar(self.pool.constant(f.width(), bits)));
            }
        }
        Some(scalar(self.pool.apply(&format!("{base}.{}", f.name()), args, f.width())))
    }

    fn call_llvm(&mut self, state: &mut State, c: &CallCtx, rest: &str) -> Outcome {
        let base = intrinsic_base(rest);
        let loc = c.inst.loc;
        let arg = |k: usize| c.args[k].clone();
        let r: Value = match base {
            "memcpy" | "memmove" | "memcpy.inline" => {
                return Some(
                    self.concrete_size(state, c.args[2][0], loc, "the size of a memcpy")
                        .and_then(|n| self.copy_bytes(state, c.args[0][0], c.args[1][0], n, loc).map(|_| None)),
                );
            }
            "memset" | "memset.inline" => {
                return Some(
                    self.concrete_size(state, c.args[2][0], loc, "the size of a memset")
                        .and_then(|n| self.fill_bytes(state, c.args[0][0], c.args[1][0], n, loc).map(|_| None)),
                );
            }
            // Hints that return their first argument unchanged.
            "expect"
            | "expect.with.probability"
            | "ssa.copy"
            | "launder.invariant.group"
            | "strip.invariant.group"
            | "threadlocal.address"
            | "annotation"
            | "ptr.annotation"
            | "arithmetic.fence" => arg(0),
            // Its result only feeds `llvm.invariant.end`.
            "invariant.start" => scalar(self.pool.constant(64, 0)),
            // Checks that may be switched on or off: on.
            "experimental.widenable.condition" | "allow.runtime.check" | "allow.ubsan.check" => scalar(self.pool.bool_const(true)),
            // Object size unknown: -1 for the maximum, 0 for the minimum.
            "objectsize" => {
                let min = self.pool.as_const(c.args[1][0]) == Some(1);
                let w = c.inst.ty.scalar_bits();
                scalar(self.pool.constant(w, if min { 0 } else { crate::expr::mask(w) }))
            }
            "ptrmask" => scalar(self.pool.and(c.args[0][0], c.args[1][0])),
            // FLT_ROUNDS: to nearest, the only rounding mode modelled.
            "get.rounding" => scalar(self.pool.constant(32, 1)),
            "assume" => {
                let ok = self.assume(state, c.args[0][0]);
                return Some(if ok { Ok(None) } else { Err(Step::Terminated) });
            }
            // The intrinsics without any effect are dropped when the IR is
            // translated (ir::NO_EFFECT_INTRINSICS).
            "va_end" | "stackrestore" => return Some(Ok(None)),
            "stacksave" => scalar(self.pool.constant(64, 0)),
            // __builtin_constant_p at -O0: nothing is known to be constant.
            "is.constant" => scalar(self.pool.bool_const(false)),
            // x^n by repeated multiplication, in an unspecified order: no
            // exact result, so an uninterpreted function.
            "powi" => {
                let f = lanes_fmt(c)?;
                let args = vec![c.args[0][0], c.args[1][0]];
                scalar(self.pool.apply(&format!("powi.{}", f.name()), args, f.width()))
            }
            "trap" | "ubsantrap" | "debugtrap" => {
                self.report(state, FindingKind::Mismatch, loc, "llvm.trap reached".into(), None, None);
                return Some(Err(Step::Terminated));
            }
            "va_start" => return Some(self.va_start(state, c.args[0][0], loc).map(|_| None)),
            "va_copy" => return Some(self.copy_bytes(state, c.args[0][0], c.args[1][0], 24, loc).map(|_| None)),
            _ => match self.llvm_value_intrinsic(c, base) {
                Some(v) => v,
                None => return None,
            },
        };
        Some(Ok(Some(r)))
    }

    /// Intrinsics that compute a value from their arguments, lane by lane.
    fn llvm_value_intrinsic(&mut self, c: &CallCtx, base: &str) -> Option<Value> {
        let n = c.args.first().map(|v| v.len()).unwrap_or(0);
        let fmt = c.inst.ty.is_float();
        let lane = |k: usize, i: usize| c.args[k][i];
        let p = &mut self.pool;
        let mut out = Value::new();
        if let Some(reduced) = reduce(p, base, c) {
            return Some(scalar(reduced));
        }
        if base == "is.fpclass" {
            let mask = p.as_const(c.args[1][0])? as u32;
            for i in 0..n {
                let x = lane(0, i);
                let f = FpFormat::from_width(p.width(x))?;
                out.push(is_fpclass(p, f, x, mask));
            }
            return Some(out);
        }
        for i in 0..n {
            let v = match base {
                "fabs" => p.fabs(fmt?, lane(0, i)),
                "copysign" => p.copysign(fmt?, lane(0, i), lane(1, i)),
                "minnum" => p.fbin(FBinOp::Min, fmt?, lane(0, i), lane(1, i)),
                "maxnum" => p.fbin(FBinOp::Max, fmt?, lane(0, i), lane(1, i)),
                "minimum" | "maximum" => {
                    let f = fmt?;
                    let op = if base == "minimum" { FBinOp::Min } else { FBinOp::Max };
                    let m = p.fbin(op, f, lane(0, i), lane(1, i));
                    let uno = p.fcmp(crate::expr::Outcomes(crate::expr::Outcomes::UNO), f, lane(0, i), lane(1, i));
                    let nan = p.constant(f.width(), crate::expr::canonical_nan(f));
                    p.ite(uno, nan, m)
                }
                // IEEE mode: the value itself, except that a NaN becomes
                // the canonical quiet NaN.
                "canonicalize" => {
                    let f = fmt?;
                    let uno = p.fcmp(crate::expr::Outcomes(crate::expr::Outcomes::UNO), f, lane(0, i), lane(0, i));
                    let nan = p.constant(f.width(), crate::expr::canonical_nan(f));
                    p.ite(uno, nan, lane(0, i))
                }
                "fma" => p.fma(fmt?, lane(0, i), lane(1, i), lane(2, i)),
                // Fused or not, as the code generator chooses (contraction.rs).
                "fmuladd" => crate::exec::ops::contraction::mul_add(p, fmt?, lane(0, i), lane(1, i), lane(2, i)),
                "sqrt" => p.fun(FUnOp::Sqrt, fmt?, lane(0, i)),
                "floor" => p.fun(FUnOp::Floor, fmt?, lane(0, i)),
                "ceil" => p.fun(FUnOp::Ceil, fmt?, lane(0, i)),
                "trunc" => p.fun(FUnOp::Trunc, fmt?, lane(0, i)),
                "rint" | "nearbyint" | "roundeven" => p.fun(FUnOp::RoundEven, fmt?, lane(0, i)),
                "round" => p.fun(FUnOp::RoundAway, fmt?, lane(0, i)),
                "smin" | "smax" | "umin" | "umax" => min_max(p, base, lane(0, i), lane(1, i)),
                "sadd.sat" | "uadd.sat" | "ssub.sat" | "usub.sat" => saturating(p, base, lane(0, i), lane(1, i)),
                "abs" => {
                    let x = lane(0, i);
                    let zero = p.constant(p.width(x), 0);
                    let neg = p.cmp(CmpOp::Slt, x, zero);
                    let minus = p.sub(zero, x);
                    p.ite(neg, minus, x)
                }
                "ctpop" => popcount(p, lane(0, i)),
                "ctlz" => count_zeros(p, lane(0, i), true),
                "cttz" => count_zeros(p, lane(0, i), false),
                "bswap" => byte_swap(p, lane(0, i)),
                "bitreverse" => bit_reverse(p, lane(0, i)),
                "fshl" | "fshr" => funnel_shift(p, base == "fshl", lane(0, i), lane(1, i), lane(2, i)),
                "sadd.with.overflow" | "uadd.with.overflow" | "ssub.with.overflow" | "usub.with.overflow" | "smul.with.overflow"
                | "umul.with.overflow" => {
                    let (r, o) = with_overflow(p, base, lane(0, i), lane(1, i));
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
        let p = &mut self.pool;
        let gp = p.constant(32, 48);
        let fp = p.constant(32, 176);
        let ov = p.constant(64, area as u128);
        let rs = p.constant(64, 0);
        let t = crate::ir::Type::Struct {
            fields: vec![crate::ir::Type::Int(32), crate::ir::Type::Int(32), crate::ir::Type::Int(64), crate::ir::Type::Int(64)],
            offsets: vec![0, 4, 8, 16],
            size: 24,
        };
        let bytes = crate::exec::memory::layout::value_to_bytes(&mut self.pool, &t, &[gp, fp, ov, rs]);
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

fn min_max(p: &mut ExprPool, base: &str, a: ExprId, b: ExprId) -> ExprId {
    let (op, take_less) = match base {
        "smin" => (CmpOp::Slt, true),
        "smax" => (CmpOp::Slt, false),
        "umin" => (CmpOp::Ult, true),
        _ => (CmpOp::Ult, false),
    };
    let lt = p.cmp(op, a, b);
    if take_less {
        p.ite(lt, a, b)
    } else {
        p.ite(lt, b, a)
    }
}

/// Saturating add/sub: computed one bit wider, then clamped.
pub fn saturating(p: &mut ExprPool, base: &str, a: ExprId, b: ExprId) -> ExprId {
    let w = p.width(a);
    let add = base.contains("add");
    if base.starts_with('u') {
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

fn with_overflow(p: &mut ExprPool, base: &str, a: ExprId, b: ExprId) -> (ExprId, ExprId) {
    let w = p.width(a);
    let signed = base.starts_with('s');
    let wide = if base.contains("mul") { 2 * w } else { w + 1 };
    let ext = |p: &mut ExprPool, x| if signed { p.sext(x, wide) } else { p.zext(x, wide) };
    let (x, y) = (ext(p, a), ext(p, b));
    let r = if base.contains("add") {
        p.add(x, y)
    } else if base.contains("sub") {
        p.sub(x, y)
    } else {
        p.mul(x, y)
    };
    let low = p.trunc(r, w);
    let back = ext(p, low);
    let same = p.eq(back, r);
    (low, p.not(same))
}

/// `llvm.vector.reduce.*`: folds the lanes of the last argument. The FP
/// forms without `reassoc` are sequential, starting from the first argument.
fn reduce(p: &mut ExprPool, base: &str, c: &CallCtx) -> Option<ExprId> {
    let op = base.strip_prefix("vector.reduce.")?;
    let fmt = c.inst.ty.is_float();
    if op == "fadd" || op == "fmul" {
        let f = fmt?;
        let o = if op == "fadd" { FBinOp::Add } else { FBinOp::Mul };
        let mut acc = c.args[0][0];
        for l in c.args[1].iter() {
            acc = p.fbin(o, f, acc, *l);
        }
        return Some(acc);
    }
    let lanes = &c.args[0];
    let mut acc = lanes[0];
    for l in lanes.iter().skip(1) {
        acc = match op {
            "add" => p.add(acc, *l),
            "mul" => p.mul(acc, *l),
            "and" => p.and(acc, *l),
            "or" => p.or(acc, *l),
            "xor" => p.xor(acc, *l),
            "smax" | "smin" | "umax" | "umin" => min_max(p, op, acc, *l),
            "fmax" => p.fbin(FBinOp::Max, fmt?, acc, *l),
            "fmin" => p.fbin(FBinOp::Min, fmt?, acc, *l),
            _ => return None,
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
