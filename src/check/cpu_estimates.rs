//! This CPU's reciprocal estimates for a concrete input. The model takes
//! an RCPPS/RSQRTPS result (and their scalar and AVX forms) as any value
//! within Intel's documented bound, so that a proof holds for every
//! conforming CPU; measuring an error on a concrete input (the worst
//! input of a tolerance check, its samples, a witness's excess) needs one
//! value per estimate, and this CPU's is the one the native replay will
//! compute. NEON estimates need nothing here: the model computes
//! FRECPE/FRSQRTE from their tables.

use crate::expr::{evaluate_into, Assignment, Estimate, ExprId, ExprPool};
use rustc_hash::{FxHashMap, FxHashSet};

/// Gives every estimate below `roots` this CPU's result for its operand
/// under `w`, in the order the estimates were made (an estimate's operand
/// may read an earlier one). Returns the fresh values it set (empty when
/// the values read no estimate), or `None` when the model does not give a
/// lane this CPU's result (a host that is not x86_64, or a result outside
/// the model's bound), so the input cannot be measured as this CPU
/// computes it.
pub fn fill_with_this_cpus(pool: &ExprPool, roots: &[ExprId], w: &mut Assignment) -> Option<Vec<u32>> {
    if !pool.has_estimates() {
        return Some(Vec::new());
    }
    let mut lanes = estimates_below(pool, roots);
    lanes.sort_by_key(|(_, fresh, _)| *fresh);
    let mut filled = Vec::with_capacity(lanes.len());
    // One memo for every evaluation: an estimate's operand reads only
    // estimates made before it, which are set by then, so no value in the
    // memo changes when a later estimate is set.
    let mut memo = FxHashMap::default();
    for (lane, fresh, est) in lanes {
        let x = value(pool, est.input, w, &mut memo) as u32;
        let r = this_cpu(est.kind.is_root(), x)?;
        w.fresh.insert(fresh, r as u128);
        if value(pool, lane, w, &mut memo) as u32 != r {
            return None;
        }
        filled.push(fresh);
    }
    Some(filled)
}

/// The value of `e` under `w`, through `memo`.
fn value(pool: &ExprPool, e: ExprId, w: &Assignment, memo: &mut FxHashMap<ExprId, u128>) -> u128 {
    evaluate_into(pool, &[e], w, memo);
    memo[&e]
}

/// The estimate lanes below `roots` whose result is a fresh value, with
/// that value's id.
fn estimates_below(pool: &ExprPool, roots: &[ExprId]) -> Vec<(ExprId, u32, Estimate)> {
    let mut seen = FxHashSet::default();
    let mut stack: Vec<ExprId> = roots.to_vec();
    let mut out = Vec::new();
    while let Some(e) = stack.pop() {
        if e.is_inline() || !seen.insert(e) {
            continue;
        }
        if let Some(est) = pool.estimate_of(e) {
            if let Some(fresh) = est.fresh {
                out.push((e, fresh, est));
            }
            // The operand, whatever the lane's own nodes read.
            stack.push(est.input);
        }
        stack.extend(pool.children(e));
    }
    out
}

/// This CPU's RCPSS / RSQRTSS of `x`.
#[cfg(target_arch = "x86_64")]
pub fn this_cpu(rsqrt: bool, x: u32) -> Option<u32> {
    use std::arch::x86_64::*;
    // SAFETY: SSE is part of x86_64.
    let r = unsafe {
        let v = _mm_set_ss(f32::from_bits(x));
        _mm_cvtss_f32(if rsqrt { _mm_rsqrt_ss(v) } else { _mm_rcp_ss(v) })
    };
    Some(r.to_bits())
}

/// No x86 estimate on other hosts.
#[cfg(not(target_arch = "x86_64"))]
pub fn this_cpu(_rsqrt: bool, _x: u32) -> Option<u32> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{EstimateKind, Expr, FBinOp, FpFormat};

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn an_estimate_and_a_newton_step_over_it_take_this_cpus_value() {
        // r = rcp(x) (the lane standing for itself), then rcp(r * x).
        let mut p = ExprPool::new();
        let arr = p.new_array("x", 4);
        let x = p.input_word(arr, 0, 32);
        let note = |p: &mut ExprPool, input: ExprId| {
            let r = p.approximation(32);
            let Expr::Fresh { id, .. } = *p.get(r) else { unreachable!() };
            p.note_estimate(r, Estimate { kind: EstimateKind::Reciprocal, input, fresh: Some(id) });
            (r, id)
        };
        let (r, first) = note(&mut p, x);
        let product = p.fbin(FBinOp::Mul, FpFormat::Single, r, x);
        let (s, second) = note(&mut p, product);
        let mut w = Assignment::default();
        w.arrays.insert(arr, 3.0f32.to_bits().to_le_bytes().to_vec());
        let filled = fill_with_this_cpus(&p, &[s], &mut w).expect("x86_64 gives its estimates");
        assert_eq!(filled.len(), 2);
        let r_cpu = this_cpu(false, 3.0f32.to_bits()).unwrap();
        assert_eq!(w.fresh[&first], r_cpu as u128);
        let product = f32::from_bits(r_cpu) * 3.0;
        assert_eq!(w.fresh[&second], this_cpu(false, product.to_bits()).unwrap() as u128, "the second estimate reads the first");
        // Intel's bound holds for this CPU's value.
        let rel = (f32::from_bits(r_cpu) as f64 * 3.0 - 1.0).abs();
        assert!(rel <= 1.5 * 2f64.powi(-12), "{rel}");
    }
}
