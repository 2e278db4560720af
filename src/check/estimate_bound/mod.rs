//! Conditions over x86 reciprocal estimates (RCPPS, RSQRTPS and their
//! scalar and AVX forms), decided with what Intel documents about them
//! instead of the bit-precise solver, which cannot decide a bound over the
//! estimate's encoding (a product of significands against a rounded
//! floating-point product).
//!
//! Proof. Every floating-point value below the condition is written as
//! `M * t`: `M` a product of powers (in halves) of the magnitudes of the
//! path's float inputs, and of their signs, and `t` a real interval. An
//! input `x` is `|x| * [1, 1]` (with its sign when the path leaves it
//! open); RCP of `x` is `x^-1 * [1 - e, 1 + e]` and RSQRT `|x|^-1/2 * [1 -
//! e, 1 + e]`, e = 1.5 * 2^-12, exactly where the documented bound holds
//! (a normal operand whose result is neither tiny nor flushed, which the
//! path's bounds on the inputs must show); products and quotients multiply
//! the `M` and the intervals, sums need one `M`. A rounding of a value
//! whose `M` is 1 rounds the interval's ends (rounding is monotone, so the
//! result lies between them: `fl(r * x)` of an in-bound estimate stays in
//! `[1 - e, 1 + e]`, whose ends are floats); any other rounding widens `t`
//! by `u |t| + eta / M`, the unit roundoff and half the smallest subnormal.
//! A comparison is decided when the intervals of its operands (of the same
//! `M`, or as plain value ranges) do not overlap the wrong way. The
//! interval ends are doubles rounded outwards (error-free transformations
//! say which way), so every step is sound for every input of the path and
//! every conforming CPU.
//!
//! Refutation. When the proof fails, inputs drawn in the path's ranges
//! are tried with this CPU's estimate first (a witness that replay
//! reproduces), then with the smallest and the largest estimate the bound
//! admits (a witness only some conforming CPU gives: unconfirmed). The
//! budgets are counts of trials.
//!
//! Files: `input_ranges` (what the path says about each input),
//! `formats` and `interval` (directed arithmetic on doubles),
//! `value_forms` (the proof) and `witness` (the refutation).

use super::confirm::unconfirmed_under_assumptions;
use super::cpu_estimates::this_cpu;
use super::error_terms::Poly;
use super::sampling::input_word;
use crate::assumptions::{Assumption, Assumptions};
use crate::expr::{evaluate, evaluate_all, Assignment, BinOp, CmpOp, Estimate, Expr, ExprId, ExprPool, FBinOp, FUnOp, FpFormat, Outcomes};
use crate::splitmix::SplitMix;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

/// Inputs tried per estimate choice when looking for a witness.
const WITNESS_TRIALS: u32 = 96;

/// Nodes looked at below one condition; a larger condition is left to the
/// solver.
const NODE_BUDGET: usize = 20_000;

/// What the analysis says about a condition on a path.
pub enum EstimateAnswer {
    /// The condition is false on every input of the path.
    Never,
    /// An input of the path (with a choice of each estimate) on which the
    /// condition holds.
    Witness(Assignment),
    /// Not decided (no estimate below the condition, or a construct the
    /// analysis does not bound).
    Open,
}

/// Decides whether `cond` can hold on `path` when it reads an estimate.
pub fn decide(pool: &ExprPool, path: &[ExprId], cond: ExprId, assumptions: Assumptions, seed: u64) -> EstimateAnswer {
    if !pool.has_estimates() {
        return EstimateAnswer::Open;
    }
    let Some(estimates) = estimates_below(pool, cond) else {
        return EstimateAnswer::Open;
    };
    if estimates.is_empty() {
        return EstimateAnswer::Open;
    }
    let ranges = input_ranges(pool, path);
    if proved_false(pool, &ranges, cond, assumptions) {
        return EstimateAnswer::Never;
    }
    match witness(pool, path, cond, &ranges, &estimates, assumptions, seed) {
        Some(w) => EstimateAnswer::Witness(w),
        None => EstimateAnswer::Open,
    }
}

/// Whether the analysis shows `cond` false on every input of `path` and
/// with every conforming estimate, without looking for a witness (a
/// tighter bound asked of a proved check: `tolerance.rs`).
pub fn never(pool: &ExprPool, path: &[ExprId], cond: ExprId, assumptions: Assumptions) -> bool {
    if !pool.has_estimates() || estimates_below(pool, cond).is_none_or(|e| e.is_empty()) {
        return false;
    }
    proved_false(pool, &input_ranges(pool, path), cond, assumptions)
}

/// The proof: `cond` is false whatever the inputs in `ranges` and the
/// estimates.
fn proved_false(pool: &ExprPool, ranges: &FxHashMap<ExprId, InputRange>, cond: ExprId, assumptions: Assumptions) -> bool {
    // Under associativity a sum stands for every grouping; the bounds here
    // hold for the one built.
    if assumptions.has(Assumption::Associativity) {
        return false;
    }
    // With error variables first, then with plain intervals (each
    // estimate's band as an interval), which some conditions need.
    [false, true].into_iter().any(|intervals_only| {
        let mut a = Analysis { pool, ranges, forms: FxHashMap::default(), variables: 0, intervals_only };
        a.truth(cond) == Some(Tri::False)
    })
}

/// The estimates `cond` reads (`None` past the node budget).
fn estimates_below(pool: &ExprPool, cond: ExprId) -> Option<Vec<(ExprId, Estimate)>> {
    let mut seen = FxHashSet::default();
    let mut stack = vec![cond];
    let mut out = Vec::new();
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        if seen.len() > NODE_BUDGET {
            return None;
        }
        if let Some(est) = pool.estimate_of(e) {
            out.push((e, est));
            stack.push(est.input);
            continue;
        }
        stack.extend(pool.children(e));
    }
    out.sort_by_key(|e| e.1.fresh);
    Some(out)
}
mod formats;
mod input_ranges;
mod interval;
mod value_forms;
mod witness;

use formats::*;
use input_ranges::*;
pub(super) use interval::Iv;
use interval::*;
use value_forms::*;
use witness::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::EstimateKind;

    #[test]
    fn directed_operations_enclose_the_exact_result() {
        assert_eq!(mul_dir(2.0, 3.0), (6.0, 6.0));
        let (lo, hi) = mul_dir(0.1, 3.0);
        assert!(lo < hi && hi == lo.next_up() && (lo..=hi).contains(&(0.1 * 3.0)));
        let (lo, hi) = div_dir(1.0, 3.0);
        assert!(lo < hi && hi == lo.next_up());
        assert_eq!(div_dir(1.0, 4.0), (0.25, 0.25));
        assert_eq!(add_dir(1.0, 2f64.powi(-60)), (1.0, 1f64.next_up()));
        assert_eq!(add_dir(1.0, -(2f64.powi(-60))), (1f64.next_down(), 1.0));
        assert_eq!(sqrt_dir(4.0), (2.0, 2.0));
        let (lo, hi) = sqrt_dir(2.0);
        assert!(lo < hi && lo * lo < 2.0 && hi * hi > 2.0);
    }

    /// `fabsf(x * r - 1) > bound` for `x` in [lo, hi] and `r` the
    /// reciprocal estimate of `x` (the lane standing for itself).
    fn rcp_condition(bound: f32, lo: f32, hi: f32, rsqrt: bool) -> EstimateAnswer {
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 4);
        let x = p.input_word(arr, 0, 32);
        let f = FpFormat::Single;
        let c = |p: &mut ExprPool, v: f32| p.constant(32, v.to_bits() as u128);
        let (lo, hi) = (c(&mut p, lo), c(&mut p, hi));
        let above = p.fcmp(Outcomes(Outcomes::GT | Outcomes::EQ), f, x, lo);
        let below = p.fcmp(Outcomes(Outcomes::LT | Outcomes::EQ), f, x, hi);
        let path = vec![above, below];
        let r = p.approximation(32);
        let Expr::Fresh { id, .. } = *p.get(r) else { unreachable!() };
        let kind = if rsqrt { EstimateKind::ReciprocalSqrt } else { EstimateKind::Reciprocal };
        p.note_estimate(r, Estimate { kind, input: x, fresh: Some(id) });
        let one = c(&mut p, 1.0);
        let product = if rsqrt { p.fbin(FBinOp::Mul, f, r, r) } else { r };
        let product = p.fbin(FBinOp::Mul, f, x, product);
        let off = p.fbin(FBinOp::Sub, f, product, one);
        let mask = p.constant(32, 0x7fff_ffff);
        let magnitude = p.and(off, mask);
        let limit = c(&mut p, bound);
        let cond = p.fcmp(Outcomes(Outcomes::GT), f, magnitude, limit);
        decide(&p, &path, cond, Assumptions::default(), 0)
    }

    #[test]
    fn the_documented_bound_is_proved_and_nothing_tighter() {
        let e = 1.5 * 2f32.powi(-12);
        assert!(matches!(rcp_condition(e, 1.0, 2.0, false), EstimateAnswer::Never));
        assert!(matches!(rcp_condition(e, -1e30, -1e-30, false), EstimateAnswer::Never));
        assert!(matches!(rcp_condition(e, 1e-30, f32::from_bits(0x7e7f_e800), false), EstimateAnswer::Never));
        assert!(!matches!(rcp_condition(1.4 * 2f32.powi(-12), 1.0, 2.0, false), EstimateAnswer::Never));
        // Where the reciprocal may be flushed, or the input be subnormal,
        // the bound does not apply.
        assert!(!matches!(rcp_condition(e, 1.0, 2f32.powi(126), false), EstimateAnswer::Never));
        assert!(!matches!(rcp_condition(e, 0.0, 2.0, false), EstimateAnswer::Never));
        // RSQRT: r * r * x rounds twice in float, so (1 + e)^2 - 1 plus
        // two roundings' worth holds, (1 + e)^2 - 1 alone is not proved.
        let squared = (2.0 * 1.5 + 1.5 * 1.5 * 2f32.powi(-12)) * 2f32.powi(-12);
        assert!(matches!(rcp_condition(squared * (1.0 + 2f32.powi(-10)), 1.0, 1e30, true), EstimateAnswer::Never));
        assert!(!matches!(rcp_condition(squared * 0.99, 1.0, 1e30, true), EstimateAnswer::Never));
        assert!(!matches!(rcp_condition(1.0, -2.0, -1.0, true), EstimateAnswer::Never));
    }
}
