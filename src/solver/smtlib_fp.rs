//! Exact SMT-LIB encodings of the floating-point nodes, bit for bit as
//! fold.rs computes them (fold.rs is the reference semantics).
//!
//! - An FP result `r` comes back to bits as `ite(fp.isNaN r, NaN, b)` with a
//!   fresh `b` and `(= ((_ to_fp e s) b) r)` asserted: exact for every
//!   non-NaN value (signed zeros included) and the canonical NaN otherwise.
//!   No `fp.to_ieee_bv` needed (cvc5 1.0.3 lacks it). Under `--nan exact`
//!   the NaN is the target's instead (expr/nan_rules.rs): x86 the first
//!   NaN operand quieted, AArch64 the first signalling one, then the first
//!   quiet one, quieted; else the default NaN; conversions move the payload.
//! - fmin/fmax follow fold.rs: a NaN operand yields the other operand's bits,
//!   two NaNs the canonical NaN (exact: x86 the second operand, AArch64
//!   the propagated NaN, also for one signalling NaN), -0 < +0.
//!   `fp.min`/`fp.max` are not used (their signed-zero result is unspecified).
//! - frem is C fmod (truncated quotient); SMT-LIB's `fp.rem` is the IEEE
//!   remainder (nearest-even quotient). They differ exactly when the IEEE
//!   remainder is nonzero with the sign opposite to x; then
//!   fmod = rem + copysign(|y|, x), and that sum is exact.
//! - fp-to-int: round to integral (RTZ or RNE), then in range iff
//!   lo <= r < hi with power-of-two bounds; out of range or NaN gives the
//!   integer indefinite (sign bit only). Bounds beyond the format's range
//!   become tests for infinity.
//! - Assumptions restrict every operand and result of every FP operation:
//!   `finite` excludes inf/NaN, `ordered` NaN, `positive_zero` -0.

use super::smtlib::{bv_lit, Printer};
use crate::assumptions::Assumption;
use crate::expr::nan_rules::{default_nan, quiet_bit, MinMaxNan, Propagation};
use crate::expr::{canonical_nan, mask, Expr, ExprId, FBinOp, FUnOp, FpFormat, IntRounding, Outcomes, Width};
use std::fmt::Write;

fn fp_sort(f: FpFormat) -> String {
    format!("(_ FloatingPoint {} {})", f.exponent_bits(), f.significand_bits())
}

fn to_fp(f: FpFormat) -> String {
    format!("(_ to_fp {} {})", f.exponent_bits(), f.significand_bits())
}

/// Largest unbiased exponent of a finite value.
fn max_exponent(f: FpFormat) -> u32 {
    (1 << (f.exponent_bits() - 1)) - 1
}

/// Bits of +2^k (k <= max_exponent), sign optional.
fn power_of_two_bits(f: FpFormat, k: u32, negative: bool) -> u128 {
    let exp = (k + max_exponent(f)) as u128;
    let bits = exp << (f.significand_bits() - 1);
    if negative {
        bits | 1u128 << (f.width() - 1)
    } else {
        bits
    }
}

impl Printer<'_> {
    /// The operand `id` read as a float of format `f`.
    fn fp_arg(&self, f: FpFormat, id: ExprId) -> String {
        format!("({} {})", to_fp(f), self.term(id))
    }

    fn fp_lit(&self, f: FpFormat, bits: u128) -> String {
        format!("({} {})", to_fp(f), bv_lit(f.width(), bits))
    }

    pub(crate) fn define_fp(&mut self, id: ExprId) {
        let name = self.term(id);
        let half = match *self.pool.get(id) {
            Expr::FBin(_, f, ..) | Expr::FUn(_, f, _) | Expr::Fma(f, ..) | Expr::FCmp(_, f, ..) => f == FpFormat::Half,
            Expr::FpToInt { from, .. } => from == FpFormat::Half,
            Expr::IntToFp { to, .. } => to == FpFormat::Half,
            Expr::FpConvert { from, to, .. } => from == FpFormat::Half || to == FpFormat::Half,
            _ => false,
        };
        self.uses_half |= half;
        self.restrict_operands(id);
        match self.pool.get(id).into_owned() {
            Expr::FBin(op @ (FBinOp::Min | FBinOp::Max), f, a, b) => self.min_max(&name, op == FBinOp::Min, f, a, b),
            Expr::FBin(FBinOp::Rem, f, a, b) => self.fmod(&name, f, a, b),
            Expr::FBin(op, f, a, b) => {
                let o = match op {
                    FBinOp::Add => "fp.add",
                    FBinOp::Sub => "fp.sub",
                    FBinOp::Mul => "fp.mul",
                    _ => "fp.div",
                };
                let r = format!("({o} RNE {} {})", self.fp_arg(f, a), self.fp_arg(f, b));
                self.fp_result(&name, f, &r, &[a, b]);
            }
            Expr::FUn(op, f, a) => {
                let x = self.fp_arg(f, a);
                let r = match op {
                    FUnOp::Sqrt => format!("(fp.sqrt RNE {x})"),
                    FUnOp::RoundEven => format!("(fp.roundToIntegral RNE {x})"),
                    FUnOp::RoundAway => format!("(fp.roundToIntegral RNA {x})"),
                    FUnOp::Floor => format!("(fp.roundToIntegral RTN {x})"),
                    FUnOp::Ceil => format!("(fp.roundToIntegral RTP {x})"),
                    FUnOp::Trunc => format!("(fp.roundToIntegral RTZ {x})"),
                };
                self.fp_result(&name, f, &r, &[a]);
            }
            Expr::Fma(f, a, b, c) => {
                let r = format!("(fp.fma RNE {} {} {})", self.fp_arg(f, a), self.fp_arg(f, b), self.fp_arg(f, c));
                self.fma_result(&name, f, &r, [a, b, c]);
            }
            Expr::FCmp(set, f, a, b) => {
                let term = self.fcmp(set, f, a, b);
                self.define_bv(&name, 1, &format!("(ite {term} #b1 #b0)"));
            }
            Expr::FpToInt { signed, rounding, from, value, width } => self.fp_to_int(&name, signed, rounding, from, value, width),
            Expr::IntToFp { signed, to, value } => {
                let conv = if signed { to_fp(to) } else { format!("(_ to_fp_unsigned {} {})", to.exponent_bits(), to.significand_bits()) };
                let r = format!("({conv} RNE {})", self.term(value));
                self.fp_result(&name, to, &r, &[]);
            }
            Expr::FpConvert { from, to, value } => {
                let r = format!("({} RNE {})", to_fp(to), self.fp_arg(from, value));
                if self.pool.nan_model().is_exact() {
                    let nan = self.converted_nan(from, to, value);
                    self.fp_result_with_nan(&name, to, &r, &nan);
                } else {
                    self.fp_result(&name, to, &r, &[]);
                }
            }
            other => unreachable!("define_fp on non-FP node {other:?}"),
        }
    }

    /// Defines `name` as the bits of the FP term `r` (see the file comment),
    /// with the assumptions applied. `operands` are the operation's inputs
    /// in NaN priority order (used under `--nan exact`).
    fn fp_result(&mut self, name: &str, f: FpFormat, r: &str, operands: &[ExprId]) {
        let nan = self.nan_of(f, operands);
        self.fp_result_with_nan(name, f, r, &nan)
    }

    /// The bits of a NaN result: canonical, or under `--nan exact` the
    /// target's pick among the NaN operands quieted, else the default NaN
    /// (nan_rules::nan_result).
    fn nan_of(&self, f: FpFormat, operands: &[ExprId]) -> String {
        let w = f.width();
        let Some(rules) = self.pool.nan_model().rules() else {
            return bv_lit(w, canonical_nan(f));
        };
        let mut nan = bv_lit(w, default_nan(rules, f));
        for x in operands.iter().rev() {
            nan = format!("(ite (fp.isNaN {}) {} {nan})", self.fp_arg(f, *x), self.quieted(f, *x));
        }
        // Built outermost so that any signalling operand wins, the first
        // one first.
        if rules.propagation == Propagation::SignallingFirst {
            for x in operands.iter().rev() {
                nan = format!("(ite {} {} {nan})", self.is_snan(f, *x), self.quieted(f, *x));
            }
        }
        nan
    }

    fn quieted(&self, f: FpFormat, x: ExprId) -> String {
        format!("(bvor {} {})", self.term(x), bv_lit(f.width(), quiet_bit(f)))
    }

    fn is_snan(&self, f: FpFormat, x: ExprId) -> String {
        let w = f.width();
        format!("(and (fp.isNaN {}) (= (bvand {} {}) {}))", self.fp_arg(f, x), self.term(x), bv_lit(w, quiet_bit(f)), bv_lit(w, 0))
    }

    /// fma(a, b, c): operand priority from the target's table, and on
    /// AArch64 inf * 0 with a quiet NaN addend gives the default NaN
    /// (fold::fma_nan_in).
    fn fma_result(&mut self, name: &str, f: FpFormat, r: &str, [a, b, c]: [ExprId; 3]) {
        let Some(rules) = self.pool.nan_model().rules() else {
            return self.fp_result(name, f, r, &[b, a, c]);
        };
        let ops = [a, b, c];
        let mut nan = self.nan_of(f, &rules.fma_order.map(|i| ops[i]));
        if rules.fma_invalid_product_default {
            let (x, y, z) = (self.fp_arg(f, a), self.fp_arg(f, b), self.fp_arg(f, c));
            let invalid = format!("(or (and (fp.isInfinite {x}) (fp.isZero {y})) (and (fp.isZero {x}) (fp.isInfinite {y})))");
            let quiet_addend = format!("(and (fp.isNaN {z}) (not {}))", self.is_snan(f, c));
            nan = format!("(ite (and {invalid} {quiet_addend}) {} {nan})", bv_lit(f.width(), default_nan(rules, f)));
        }
        self.fp_result_with_nan(name, f, r, &nan)
    }

    /// The bits of `value` (a NaN of format `from`) converted to `to`: sign
    /// kept, payload aligned at its top bit, quieted (nan_rules::convert_nan).
    fn converted_nan(&self, from: FpFormat, to: FpFormat, value: ExprId) -> String {
        let x = self.term(value);
        let (fs, ts) = (from.significand_bits() - 1, to.significand_bits() - 1);
        let sign = format!("((_ extract {0} {0}) {x})", from.width() - 1);
        let payload = if ts >= fs {
            let low = if ts > fs { format!(" {}", bv_lit(ts - fs, 0)) } else { String::new() };
            format!("(concat ((_ extract {} 0) {x}){low})", fs - 1)
        } else {
            format!("((_ extract {} {}) {x})", fs - 1, fs - ts)
        };
        let exp = bv_lit(to.exponent_bits(), mask(to.exponent_bits()));
        format!("(bvor (concat {sign} (concat {exp} {payload})) {})", bv_lit(to.width(), quiet_bit(to)))
    }

    fn fp_result_with_nan(&mut self, name: &str, f: FpFormat, r: &str, nan: &str) {
        let (w, sort) = (f.width(), fp_sort(f));
        let _ = writeln!(self.body, "(define-fun {name}_r () {sort} {r})");
        let _ = writeln!(self.body, "(declare-fun {name}_b () (_ BitVec {w}))");
        let _ = writeln!(self.body, "(assert (= ({} {name}_b) {name}_r))", to_fp(f));
        let bits = format!("(ite (fp.isNaN {name}_r) {nan} {name}_b)");
        self.assume_on(&format!("{name}_r"));
        self.define_bv(name, w, &bits);
    }

    /// The assumptions restrict every value an FP operation reads or
    /// produces: `finite` excludes +-inf and NaN, `ordered` NaN,
    /// `positive_zero` -0. Inputs that would make any of them occur are
    /// outside what the user asked to be checked.
    fn assume_on(&mut self, r: &str) {
        if self.assume.has(Assumption::Finite) {
            let _ = writeln!(self.body, "(assert (not (or (fp.isInfinite {r}) (fp.isNaN {r}))))");
        } else if self.assume.has(Assumption::Ordered) {
            let _ = writeln!(self.body, "(assert (not (fp.isNaN {r})))");
        }
        if self.assume.has(Assumption::PositiveZero) {
            let _ = writeln!(self.body, "(assert (not (and (fp.isZero {r}) (fp.isNegative {r}))))");
        }
    }

    /// Applies the assumptions to the operands an FP operation reads.
    fn restrict_operands(&mut self, id: ExprId) {
        if !self.assume.restricts_values() {
            return;
        }
        let operands: Vec<(FpFormat, ExprId)> = match self.pool.get(id).into_owned() {
            Expr::FBin(_, f, a, b) | Expr::FCmp(_, f, a, b) => vec![(f, a), (f, b)],
            Expr::FUn(_, f, a) => vec![(f, a)],
            Expr::Fma(f, a, b, c) => vec![(f, a), (f, b), (f, c)],
            Expr::FpToInt { from, value, .. } => vec![(from, value)],
            Expr::FpConvert { from, value, .. } => vec![(from, value)],
            _ => vec![],
        };
        for (f, x) in operands {
            let term = self.fp_arg(f, x);
            self.assume_on(&term);
        }
    }

    fn min_max(&mut self, name: &str, is_min: bool, f: FpFormat, a: ExprId, b: ExprId) {
        let (x, y) = (self.fp_arg(f, a), self.fp_arg(f, b));
        let (ta, tb) = (self.term(a), self.term(b));
        // Two NaNs: the canonical NaN, or (exact) the second operand as is
        // on x86, NaN propagation on AArch64.
        let rules = self.pool.nan_model().rules();
        let nan = match rules.map(|r| r.min_max) {
            None => bv_lit(f.width(), canonical_nan(f)),
            Some(MinMaxNan::SelectSecond) => tb.clone(),
            Some(MinMaxNan::SignallingPropagates) => self.nan_of(f, &[a, b]),
        };
        let lt = if is_min { "fp.lt" } else { "fp.gt" };
        let neg = format!("(fp.isNegative {x})");
        let pick_a = if is_min { neg } else { format!("(not {neg})") };
        // Equal non-NaN values differ only for signed zeros: min takes the
        // negative one, max the positive one (a when a's sign fits).
        let tie = format!("(ite {pick_a} {ta} {tb})");
        let ordered = format!("(ite ({lt} {x} {y}) {ta} (ite ({lt} {y} {x}) {tb} {tie}))");
        let mut term = format!("(ite (fp.isNaN {x}) (ite (fp.isNaN {y}) {nan} {tb}) (ite (fp.isNaN {y}) {ta} {ordered}))");
        // FMINNM/FMAXNM: a signalling NaN operand is never skipped.
        if rules.is_some_and(|r| r.min_max == MinMaxNan::SignallingPropagates) {
            let signalling = format!("(or {} {})", self.is_snan(f, a), self.is_snan(f, b));
            term = format!("(ite {signalling} {} {term})", self.nan_of(f, &[a, b]));
        }
        let raw = format!("{name}_m");
        self.define_bv(&raw, f.width(), &term);
        let r = format!("({} {raw})", to_fp(f));
        self.assume_on(&r);
        self.define_bv(name, f.width(), &raw);
    }

    fn fmod(&mut self, name: &str, f: FpFormat, a: ExprId, b: ExprId) {
        let (x, y) = (self.fp_arg(f, a), self.fp_arg(f, b));
        let sort = fp_sort(f);
        let _ = writeln!(self.body, "(define-fun {name}_ieee () {sort} (fp.rem {x} {y}))");
        let rem = format!("{name}_ieee");
        let wrong_sign =
            format!("(and (not (fp.isZero {rem})) (not (fp.isNaN {rem})) (not (= (fp.isNegative {rem}) (fp.isNegative {x}))))");
        let step = format!("(ite (fp.isNegative {x}) (fp.neg (fp.abs {y})) (fp.abs {y}))");
        let r = format!("(ite {wrong_sign} (fp.add RNE {rem} {step}) {rem})");
        self.fp_result(name, f, &r, &[a, b]);
    }

    fn fcmp(&self, set: Outcomes, f: FpFormat, a: ExprId, b: ExprId) -> String {
        let (x, y) = (self.fp_arg(f, a), self.fp_arg(f, b));
        let mut parts = Vec::new();
        if set.has(Outcomes::LT) {
            parts.push(format!("(fp.lt {x} {y})"));
        }
        if set.has(Outcomes::EQ) {
            parts.push(format!("(fp.eq {x} {y})"));
        }
        if set.has(Outcomes::GT) {
            parts.push(format!("(fp.gt {x} {y})"));
        }
        if set.has(Outcomes::UNO) {
            parts.push(format!("(fp.isNaN {x}) (fp.isNaN {y})"));
        }
        match parts.len() {
            0 => "false".into(),
            _ => format!("(or false {})", parts.join(" ")),
        }
    }

    fn fp_to_int(&mut self, name: &str, signed: bool, rounding: IntRounding, f: FpFormat, v: ExprId, width: Width) {
        let rm = match rounding {
            IntRounding::TowardZero => "RTZ",
            IntRounding::NearestEven => "RNE",
        };
        let x = self.fp_arg(f, v);
        let _ = writeln!(self.body, "(define-fun {name}_i () {} (fp.roundToIntegral {rm} {x}))", fp_sort(f));
        let r = format!("{name}_i");
        let k = if signed { width - 1 } else { width };
        let below_hi = if k <= max_exponent(f) {
            format!("(fp.lt {r} {})", self.fp_lit(f, power_of_two_bits(f, k, false)))
        } else {
            format!("(not (and (fp.isInfinite {r}) (fp.isPositive {r})))")
        };
        let above_lo = if !signed {
            format!("(fp.leq {} {r})", self.fp_lit(f, 0))
        } else if k <= max_exponent(f) {
            format!("(fp.leq {} {r})", self.fp_lit(f, power_of_two_bits(f, k, true)))
        } else {
            format!("(not (and (fp.isInfinite {r}) (fp.isNegative {r})))")
        };
        let conv = if signed { "fp.to_sbv" } else { "fp.to_ubv" };
        let indefinite = bv_lit(width, (1u128 << (width - 1)) & mask(width));
        let term = format!("(ite (and (not (fp.isNaN {r})) {below_hi} {above_lo}) ((_ {conv} {width}) RTZ {r}) {indefinite})");
        self.define_bv(name, width, &term);
    }
}
