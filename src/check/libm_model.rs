//! libm functions with a documented accuracy, for tolerance checks: a call
//! of `expf`, `logf`, `sinf`, `cosf`, `exp2f`, `log2f`, `log10f` (or their
//! double forms) returns any value within the function's published error
//! bound of the correctly rounded result. The executor leaves these calls
//! uninterpreted (`Expr::Apply`); this module says which values a
//! conforming libm may return for a concrete argument, and what this
//! machine's libm returns (the value the native replay will see).
//!
//! The bound is glibc's, measured its way: `|returned - cr| / ulp(cr)`,
//! `cr` the correctly rounded result, `ulp(cr)` the spacing of the binade
//! of `cr` (the smallest subnormal's for zero and subnormals). The
//! correctly rounded value is bracketed by this machine's double-precision
//! function, itself within its documented bound of the exact value; where
//! the bracket straddles a rounding boundary, both neighbours count.

use crate::expr::{evaluate_into, Assignment, Expr, ExprId, ExprPool, FpFormat};
use rustc_hash::{FxHashMap, FxHashSet};

/// Where the bounds come from, for reports and the README.
pub const SOURCE: &str =
    "glibc's published maximum errors for x86_64 in round-to-nearest (sysdeps/x86_64/fpu/libm-test-ulps, the manual's table \"Known Maximum Errors in Math Functions\")";

/// What a verdict resting on a modelled libm call says of it; the native
/// replay looks for it to know this machine's libm settles the finding.
pub const LIBM_RESULT: &str = "a libm within its documented bound";

/// Modelled functions (libm names without the `f` suffix) and their bound
/// in ulps for float and for double.
const MODELLED: &[(&str, u32, u32)] =
    &[("exp", 1, 1), ("log", 1, 1), ("sin", 1, 1), ("cos", 1, 1), ("exp2", 1, 1), ("log2", 1, 2), ("log10", 2, 2)];

/// A call of a modelled libm function.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LibmCall {
    /// The function, without its `f` suffix.
    pub base: &'static str,
    /// The format of its argument and result.
    pub format: FpFormat,
    /// Its bound in ulps.
    pub ulps: u32,
    /// The argument.
    pub arg: ExprId,
}

impl LibmCall {
    /// The C name of the call (`expf`, `log`).
    pub fn c_name(&self) -> String {
        match self.format {
            FpFormat::Single => format!("{}f", self.base),
            _ => self.base.to_string(),
        }
    }
}

/// The modelled libm call `id` is, if it is one (`exp.float` of one float
/// argument, as the executor names an uninterpreted libm call).
pub fn libm_call(pool: &ExprPool, id: ExprId) -> Option<LibmCall> {
    if id.is_inline() {
        return None;
    }
    let Expr::Apply(app) = &*pool.get(id) else { return None };
    let (name, type_name) = app.function.rsplit_once('.')?;
    let format = match type_name {
        "float" => FpFormat::Single,
        "double" => FpFormat::Double,
        _ => return None,
    };
    let &(base, float_ulps, double_ulps) = MODELLED.iter().find(|(b, _, _)| *b == name)?;
    let [arg] = app.args[..] else { return None };
    if app.width != format.width() || pool.width(arg) != format.width() {
        return None;
    }
    let ulps = if format == FpFormat::Single { float_ulps } else { double_ulps };
    Some(LibmCall { base, format, ulps, arg })
}

/// What this machine's libm returns for `base` of `arg` (Rust's float
/// methods call the C library for these functions).
pub fn host_value(base: &str, f: FpFormat, arg: u128) -> u128 {
    match f {
        FpFormat::Single => {
            let x = f32::from_bits(arg as u32);
            let r = match base {
                "exp" => x.exp(),
                "log" => x.ln(),
                "sin" => x.sin(),
                "cos" => x.cos(),
                "exp2" => x.exp2(),
                "log2" => x.log2(),
                "log10" => x.log10(),
                _ => f32::NAN,
            };
            r.to_bits() as u128
        }
        _ => double_function(base, f64::from_bits(arg as u64)).to_bits() as u128,
    }
}

fn double_function(base: &str, x: f64) -> f64 {
    match base {
        "exp" => x.exp(),
        "log" => x.ln(),
        "sin" => x.sin(),
        "cos" => x.cos(),
        "exp2" => x.exp2(),
        "log2" => x.log2(),
        "log10" => x.log10(),
        _ => f64::NAN,
    }
}

/// The double-precision bound of `base`, which brackets the exact value.
fn double_ulps(base: &str) -> u32 {
    MODELLED.iter().find(|(b, _, _)| *b == base).map(|(_, _, d)| *d).unwrap_or(2)
}

/// Arguments whose result C's Annex F fixes exactly (exp(0) = 1, log(1) =
/// +0, sin(-0) = -0, log of a negative is NaN, the infinities): no error
/// is allowed there.
fn exact_case(base: &str, x: f64) -> bool {
    let is_log = matches!(base, "log" | "log2" | "log10");
    x == 0.0 || x.is_infinite() || x.is_nan() || (is_log && (x == 1.0 || x < 0.0))
}

/// Every result a libm within the function's bound may return for `arg`,
/// this machine's among them (so a proof over them covers this machine
/// even if its libm were outside its published bound).
pub fn conforming_results(call: &LibmCall, arg: u128) -> Vec<u128> {
    let f = call.format;
    let host = host_value(call.base, f, arg);
    let x = to_f64(f, arg);
    if exact_case(call.base, x) {
        return vec![host];
    }
    let mut out: Vec<u128> = Vec::new();
    for cr in correctly_rounded_candidates(call.base, f, x, host) {
        within_ulps_of(f, cr, call.ulps, &mut out);
    }
    if !out.contains(&host) {
        out.push(host);
    }
    // -0 and +0 are one place: a libm may return either where one may.
    let zeros = [0u128, 1u128 << (f.width() - 1)];
    if out.iter().any(|v| zeros.contains(v)) {
        for z in zeros {
            if !out.contains(&z) {
                out.push(z);
            }
        }
    }
    out
}

/// The values the correctly rounded result may be.
fn correctly_rounded_candidates(base: &str, f: FpFormat, x: f64, host: u128) -> Vec<u128> {
    match f {
        FpFormat::Single => {
            // The double function is within `m` ulps of double of the
            // exact value; rounding is monotone, so the correctly rounded
            // float lies between the roundings of the bracket's ends.
            let e = double_function(base, x);
            if e.is_nan() {
                return vec![host];
            }
            let m = double_ulps(base) + 1;
            let (mut lo, mut hi) = (e, e);
            for _ in 0..m {
                lo = lo.next_down();
                hi = hi.next_up();
            }
            let (a, b) = ((lo as f32).to_bits() as u128, (hi as f32).to_bits() as u128);
            let mut out = vec![a];
            let mut v = lo as f32;
            while v.to_bits() as u128 != b && v < hi as f32 {
                v = v.next_up();
                out.push(v.to_bits() as u128);
            }
            out
        }
        _ => {
            // No wider arithmetic here: the correctly rounded double is
            // within the function's own bound of this machine's result,
            // measured in ulps of the correctly rounded value (up to twice
            // as many steps of the host's binade).
            let h = f64::from_bits(host as u64);
            if !h.is_finite() {
                return vec![host];
            }
            let steps = 2 * double_ulps(base);
            let mut out = vec![host];
            let (mut lo, mut hi) = (h, h);
            for _ in 0..steps {
                lo = lo.next_down();
                hi = hi.next_up();
                out.extend([lo.to_bits() as u128, hi.to_bits() as u128]);
            }
            out
        }
    }
}

/// Adds every value `y` of format `f` with `|y - cr| <= k ulp(cr)` (glibc's
/// measure) to `out`. An infinite or NaN `cr` admits itself only: a finite
/// result against an infinite one is infinitely many ulps off.
fn within_ulps_of(f: FpFormat, cr: u128, k: u32, out: &mut Vec<u128>) {
    let c = to_f64(f, cr);
    let push = |out: &mut Vec<u128>, v: u128| {
        if !out.contains(&v) {
            out.push(v);
        }
    };
    push(out, cr);
    if !c.is_finite() {
        return;
    }
    let reach = k as f64 * glibc_ulp(f, c);
    let mut y = c;
    loop {
        y = next_in(f, y, false);
        if !y.is_finite() || (c - y) > reach {
            break;
        }
        push(out, from_f64(f, y));
    }
    let mut y = c;
    loop {
        y = next_in(f, y, true);
        if !y.is_finite() || (y - c) > reach {
            break;
        }
        push(out, from_f64(f, y));
    }
}

/// glibc's ulp of a correctly rounded result: the spacing of its binade,
/// the smallest subnormal's for zero and subnormals.
fn glibc_ulp(f: FpFormat, c: f64) -> f64 {
    let p = f.significand_bits() as i32;
    let min_exp = match f {
        FpFormat::Single => -126,
        FpFormat::Double => -1022,
        FpFormat::Half => -14,
    };
    // Every float and every normal double is a normal double: its
    // exponent is in the bits; a subnormal double reads as the lowest.
    let raw = ((c.abs().to_bits() >> 52) & 0x7ff) as i32;
    let e = (raw - 1023).max(min_exp);
    2f64.powi(e - (p - 1))
}

fn to_f64(f: FpFormat, bits: u128) -> f64 {
    super::close_encoding::to_f64(f, bits)
}

fn from_f64(f: FpFormat, v: f64) -> u128 {
    match f {
        FpFormat::Single => (v as f32).to_bits() as u128,
        FpFormat::Double => v.to_bits() as u128,
        FpFormat::Half => half::f16::from_f64(v).to_bits() as u128,
    }
}

/// The neighbour of `v` in format `f`, upwards or downwards.
fn next_in(f: FpFormat, v: f64, up: bool) -> f64 {
    match f {
        FpFormat::Single => {
            let x = v as f32;
            (if up { x.next_up() } else { x.next_down() }) as f64
        }
        _ => {
            if up {
                v.next_up()
            } else {
                v.next_down()
            }
        }
    }
}

/// The modelled libm calls below `roots`, each after the calls its
/// argument reads.
pub fn calls_below(pool: &ExprPool, roots: &[ExprId]) -> Vec<ExprId> {
    let mut out = Vec::new();
    let mut seen = FxHashSet::default();
    let mut stack: Vec<(ExprId, bool)> = roots.iter().map(|r| (*r, false)).collect();
    while let Some((id, expanded)) = stack.pop() {
        if id.is_inline() {
            continue;
        }
        if expanded {
            if libm_call(pool, id).is_some() {
                out.push(id);
            }
            continue;
        }
        if !seen.insert(id) {
            continue;
        }
        stack.push((id, true));
        for c in pool.children(id) {
            stack.push((c, false));
        }
    }
    out
}

/// Whether the values below `roots` read a modelled libm call and nothing
/// else without a definite value (no unconstrained value, no other
/// uninterpreted function): then evaluating the calls with this machine's
/// libm gives what the CPU computes.
pub fn only_modelled_calls(pool: &ExprPool, roots: &[ExprId]) -> bool {
    definite_below(pool, roots, &[]) == Some(true)
}

/// Whether the values below `roots` have a definite value once modelled
/// libm calls are computed by this machine's libm and the fresh values
/// `known` are given (this CPU's estimates): `None` when another fresh
/// value or uninterpreted function is read, else whether a modelled libm
/// call is.
pub fn definite_below(pool: &ExprPool, roots: &[ExprId], known: &[u32]) -> Option<bool> {
    let mut any = false;
    let mut seen = FxHashSet::default();
    let mut stack: Vec<ExprId> = roots.to_vec();
    while let Some(e) = stack.pop() {
        if e.is_inline() || !seen.insert(e) {
            continue;
        }
        match &*pool.get(e) {
            Expr::Fresh { id, .. } if known.contains(id) => {}
            Expr::Fresh { .. } => return None,
            Expr::Apply(_) if libm_call(pool, e).is_some() => any = true,
            Expr::Apply(_) => return None,
            _ => {}
        }
        stack.extend(pool.children(e));
    }
    Some(any)
}

/// The value of every node below `roots` under `asg`, the modelled libm
/// calls computed by this machine's libm (the expression evaluator gives
/// an uninterpreted call an arbitrary value).
pub fn evaluate_with_host_libm(pool: &ExprPool, roots: &[ExprId], asg: &Assignment) -> FxHashMap<ExprId, u128> {
    let mut memo = FxHashMap::default();
    for call in calls_below(pool, roots) {
        let c = libm_call(pool, call).expect("listed as a modelled call");
        evaluate_into(pool, &[c.arg], asg, &mut memo);
        let arg = if c.arg.is_inline() { pool.as_const(c.arg).unwrap_or(0) } else { memo[&c.arg] };
        memo.insert(call, host_value(c.base, c.format, arg));
    }
    evaluate_into(pool, roots, asg, &mut memo);
    memo
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(pool: &mut ExprPool, name: &str, f: FpFormat) -> (LibmCall, u32) {
        let arr = pool.new_array("x", 8);
        let x = pool.input_word(arr, 0, f.width());
        let app = pool.apply(name, vec![x], f.width());
        (libm_call(pool, app).expect("a modelled call"), arr)
    }

    fn results(c: &LibmCall, x: f32) -> Vec<f32> {
        let mut v: Vec<f32> = conforming_results(c, x.to_bits() as u128).into_iter().map(|b| f32::from_bits(b as u32)).collect();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v
    }

    #[test]
    fn expf_may_return_its_correctly_rounded_value_and_one_ulp_either_side() {
        let mut pool = ExprPool::new();
        let (c, _) = call(&mut pool, "exp.float", FpFormat::Single);
        assert_eq!((c.base, c.ulps, c.c_name().as_str()), ("exp", 1, "expf"));
        // exp(1.5) = 4.48168907...: far from a rounding boundary, so the
        // double bracket rounds to one float.
        let cr = (1.5f64).exp() as f32;
        let v = results(&c, 1.5);
        assert_eq!(v, vec![cr.next_down(), cr, cr.next_up()]);
        assert!(v.contains(&1.5f32.exp()), "this machine's value is among them");
    }

    #[test]
    fn below_a_power_of_two_the_ulp_of_the_binade_above_reaches_two_steps() {
        // log2(4) = 2 exactly is rounded from a bracket around 2; glibc's
        // ulp of 2 is 2^-22, and values below 2 are 2^-23 apart.
        let mut pool = ExprPool::new();
        let (c, _) = call(&mut pool, "log2.float", FpFormat::Single);
        let v = results(&c, 4.0);
        let two = 2.0f32;
        assert!(v.contains(&two.next_down().next_down()), "{v:?}");
        assert!(v.contains(&two.next_up()), "{v:?}");
        assert!(!v.contains(&two.next_up().next_up()), "{v:?}");
    }

    #[test]
    fn annex_f_cases_are_exact() {
        let mut pool = ExprPool::new();
        let (exp, _) = call(&mut pool, "exp.float", FpFormat::Single);
        assert_eq!(results(&exp, 0.0), vec![1.0]);
        assert_eq!(results(&exp, f32::NEG_INFINITY), vec![0.0]);
        let (log, _) = call(&mut pool, "log.float", FpFormat::Single);
        assert_eq!(results(&log, 1.0), vec![0.0]);
        assert!(results(&log, -2.0)[0].is_nan());
    }

    #[test]
    fn an_overflowing_exp_is_infinite_only() {
        let mut pool = ExprPool::new();
        let (exp, _) = call(&mut pool, "exp.float", FpFormat::Single);
        assert_eq!(results(&exp, 100.0), vec![f32::INFINITY]);
        // Just below the overflow threshold the largest float and its
        // neighbours are allowed, infinity is not.
        let v = results(&exp, 88.72f32);
        assert!(v.iter().all(|y| y.is_finite()), "{v:?}");
    }

    #[test]
    fn an_underflowing_exp_may_be_either_zero_or_the_smallest_subnormal() {
        let mut pool = ExprPool::new();
        let (exp, _) = call(&mut pool, "exp.float", FpFormat::Single);
        let v = results(&exp, -200.0);
        let tiny = f32::from_bits(1);
        assert!(v.contains(&0.0) && v.contains(&tiny) && v.contains(&-tiny), "{v:?}");
        assert!(v.iter().any(|y| y.to_bits() == 0x8000_0000), "-0 as well as +0: {v:?}");
    }

    #[test]
    fn double_calls_are_modelled_with_a_wider_bracket() {
        let mut pool = ExprPool::new();
        let (c, _) = call(&mut pool, "log.double", FpFormat::Double);
        let v = conforming_results(&c, 3.0f64.to_bits() as u128);
        let host = 3.0f64.ln();
        assert!(v.contains(&(host.to_bits() as u128)));
        assert!(v.contains(&(host.next_up().next_up().to_bits() as u128)));
        assert!(v.iter().all(|b| (f64::from_bits(*b as u64) - host).abs() < 1e-14), "{v:?}");
    }

    #[test]
    fn other_functions_and_shapes_are_not_modelled() {
        let mut pool = ExprPool::new();
        let arr = pool.new_array("x", 8);
        let x = pool.input_word(arr, 0, 32);
        let tan = pool.apply("tan.float", vec![x], 32);
        assert!(libm_call(&pool, tan).is_none());
        let pow = pool.apply("exp.float", vec![x, x], 32);
        assert!(libm_call(&pool, pow).is_none());
        assert!(!only_modelled_calls(&pool, &[tan]));
    }

    #[test]
    fn the_host_evaluation_gives_the_libm_value() {
        let mut pool = ExprPool::new();
        let (c, arr) = call(&mut pool, "exp.float", FpFormat::Single);
        let root = pool.apply("exp.float", vec![c.arg], 32);
        let app = calls_below(&pool, &[root]);
        assert_eq!(app.len(), 1);
        let mut a = Assignment::default();
        a.arrays.insert(arr, 2.0f32.to_bits().to_le_bytes().to_vec());
        let values = evaluate_with_host_libm(&pool, &app, &a);
        assert_eq!(values[&app[0]], 2.0f32.exp().to_bits() as u128);
        assert!(only_modelled_calls(&pool, &app));
    }
}
