//! Inputs in the path's ranges on which a condition holds, with each
//! estimate chosen as this CPU would first, then at the ends the bound admits.

use super::*;

/// Inputs in the path's ranges on which `cond` holds, with each estimate
/// chosen as this CPU would first, then at the ends the bound admits.
pub(super) fn witness(
    pool: &ExprPool,
    path: &[ExprId],
    cond: ExprId,
    ranges: &FxHashMap<ExprId, InputRange>,
    estimates: &[(ExprId, Estimate)],
    assumptions: Assumptions,
    seed: u64,
) -> Option<Assignment> {
    let mut inputs: Vec<(ExprId, (u32, u32), InputRange)> = Vec::new();
    for (&node, r) in ranges {
        if let Some(slot) = input_word(pool, node, r.format.width() / 8) {
            inputs.push((node, slot, *r));
        }
    }
    inputs.sort_by_key(|i| i.1);
    let mut leaves = FxHashSet::default();
    let mut roots = vec![cond];
    roots.extend_from_slice(path);
    for r in &roots {
        pool.leaves_of(*r, &mut leaves);
    }
    let mut sizes: FxHashMap<u32, usize> = FxHashMap::default();
    for leaf in &leaves {
        if let crate::expr::Leaf::Input { array, index } = *leaf {
            let s = sizes.entry(array).or_insert(0);
            *s = (*s).max(index as usize + 1);
        }
    }
    for choice in [Choice::ThisCpu, Choice::Largest, Choice::Smallest, Choice::Fallback] {
        if choice == Choice::ThisCpu && !cfg!(target_arch = "x86_64") {
            continue;
        }
        let mut rng = SplitMix(seed ^ 0x5eed_e571_u64 ^ cond.index() as u64);
        for trial in 0..WITNESS_TRIALS {
            let mut w = Assignment::default();
            for (array, size) in &sizes {
                w.arrays.insert(*array, vec![0; *size]);
            }
            for (_, (array, offset), r) in &inputs {
                let v = draw(r, trial, &mut rng);
                let bytes = w.arrays.get_mut(array)?;
                for k in 0..(r.format.width() / 8) as usize {
                    if let Some(b) = bytes.get_mut(*offset as usize + k) {
                        *b = (v >> (8 * k)) as u8;
                    }
                }
            }
            for (lane, est) in estimates {
                // An AArch64 estimate is the model's own table.
                let Some(fresh) = est.fresh else { continue };
                let x = evaluate(pool, est.input, &w) as u32;
                // No choice leaves the fresh value 0, never admitted: the
                // lane takes its fallback.
                let r = choose(pool, *lane, est, x, choice, &mut w).unwrap_or(0);
                w.fresh.insert(fresh, r as u128);
            }
            let values = evaluate_all(pool, &roots, &w);
            if values[&cond] == 0 || path.iter().any(|c| values[c] == 0) {
                continue;
            }
            if unconfirmed_under_assumptions(pool, assumptions, &roots, &w).is_none() {
                return Some(w);
            }
        }
    }
    None
}

/// A value in the range: the ends of its magnitudes and their inner
/// neighbours first, then drawn evenly among the floats between them (so
/// every binade gets its share), of either sign the range allows.
pub(super) fn draw(r: &InputRange, trial: u32, rng: &mut SplitMix) -> u128 {
    let f = r.format;
    let (lo, hi) = r.magnitude();
    let hi = hi.min(max_finite(f));
    let bits = |v: f64| -> u128 {
        match f {
            FpFormat::Single => (v as f32).to_bits() as u128,
            _ => v.to_bits() as u128,
        }
    };
    let (a, b) = (bits(lo), bits(hi));
    if b < a {
        return 0;
    }
    let magnitude = match trial {
        0 => a,
        1 => b,
        2 => (a + 1).min(b),
        3 => (b - 1).max(a),
        _ => a + (rng.next_u64() as u128 * 0x1_0000_0001) % (b - a + 1),
    };
    let negative = match r.sign() {
        Some(s) => s < 0.0,
        None if trial < 4 => r.hi <= 0.0,
        None => rng.next_u64() % 2 == 1 && r.lo < 0.0,
    };
    if negative {
        magnitude | sign_mask(f)
    } else {
        magnitude
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Choice {
    ThisCpu,
    Largest,
    Smallest,
    /// The rounded exact value, or where the reciprocal may be tiny, the
    /// flushed zero.
    Fallback,
}

/// The estimate of `x` to try: this CPU's, or the largest or smallest in
/// magnitude that the model admits (the lane then takes it). `None`
/// leaves the lane to its fallback.
pub(super) fn choose(pool: &ExprPool, lane: ExprId, est: &Estimate, x: u32, choice: Choice, w: &mut Assignment) -> Option<u32> {
    let fresh = est.fresh?;
    let admitted = |r: u32, w: &mut Assignment| {
        w.fresh.insert(fresh, r as u128);
        evaluate(pool, lane, w) as u32 == r
    };
    let rsqrt = est.kind.is_root();
    match choice {
        Choice::ThisCpu => return this_cpu(rsqrt, x),
        Choice::Fallback => return None,
        _ => {}
    }
    let xv = f32::from_bits(x) as f64;
    let exact = if rsqrt { 1.0 / xv.sqrt() } else { 1.0 / xv };
    if !exact.is_finite() || exact == 0.0 {
        return None;
    }
    let e = est.kind.relative_error();
    let target = if choice == Choice::Largest { exact.abs() * (1.0 + e) } else { exact.abs() * (1.0 - e) };
    let sign = if exact < 0.0 { 0x8000_0000 } else { 0 };
    let mut m = (target as f32).to_bits();
    // Step inwards until admitted, then outwards while still admitted.
    let inward: i64 = if choice == Choice::Largest { -1 } else { 1 };
    for _ in 0..64 {
        if admitted(sign | m, w) {
            break;
        }
        m = (m as i64 + inward) as u32;
    }
    if !admitted(sign | m, w) {
        return None;
    }
    for _ in 0..64 {
        let next = (m as i64 - inward) as u32;
        if !admitted(sign | next, w) {
            break;
        }
        m = next;
    }
    Some(sign | m)
}
