//! Fast falsification: before the bit-precise solver, both sides of a check
//! are evaluated on concrete inputs that satisfy the path condition. Most
//! real floating-point mismatches (a different grouping, a fused multiply-add,
//! a double accumulator) show on almost any input, where the solver may need
//! minutes to find one. Inputs are the edge values of each floating-point
//! operand (signed zeros, infinities, NaNs, subnormals, the extremes, powers
//! of two and their neighbours) mixed with seeded random values; under
//! `associativity` they are small integers, so that a difference found is one
//! that no regrouping can remove (see `confirm.rs`).
//!
//! The number of trials is a budget (`Config::sample_trials`), not a time:
//! the answer never depends on the machine's load.

use super::confirm::unconfirmed_because;
use crate::assumptions::{Assumption, Assumptions};
use crate::expr::{evaluate_all, Assignment, Expr, ExprId, ExprPool, FpFormat, Leaf};
use crate::splitmix::SplitMix;
use rustc_hash::{FxHashMap, FxHashSet};

/// A floating-point operand read straight from input bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct FloatSlot {
    pub(super) array: u32,
    pub(super) offset: u32,
    pub(super) format: FpFormat,
}

impl FloatSlot {
    /// Stores `value` (little-endian) in the slot's input bytes.
    pub(super) fn write(&self, w: &mut Assignment, value: u128) {
        let target = w.arrays.get_mut(&self.array).expect("a slot's bytes are inputs");
        for k in 0..(self.format.width() / 8) as usize {
            if let Some(byte) = target.get_mut(self.offset as usize + k) {
                *byte = (value >> (8 * k)) as u8;
            }
        }
    }
}

/// Searches for inputs on which `a` and `b` differ, the path condition holds
/// and the witness confirms in the chosen semantics. Deterministic for a seed.
pub fn find_difference(
    pool: &ExprPool,
    path: &[ExprId],
    a: ExprId,
    b: ExprId,
    assumptions: Assumptions,
    trials: u32,
    seed: u64,
) -> Option<Assignment> {
    search(pool, (path, a, b), assumptions, (trials, seed), Estimates::AsZero)
}

/// As `find_difference`, with every RCPPS/RSQRTPS estimate given this
/// CPU's result for its operand (`cpu_estimates.rs`): the sides then take
/// the values the native replay computes. Such a witness still runs
/// through an estimate the model leaves open, so it does not refute
/// (other conforming CPUs may differ); it is a witness for the replay to
/// confirm, found where the solver must search over the estimates too.
/// `None` at once when the sides read no estimate.
pub fn find_difference_with_this_cpus_estimates(
    pool: &ExprPool,
    path: &[ExprId],
    a: ExprId,
    b: ExprId,
    assumptions: Assumptions,
    trials: u32,
    seed: u64,
) -> Option<Assignment> {
    if !pool.has_estimates() {
        return None;
    }
    search(pool, (path, a, b), assumptions, (trials, seed), Estimates::ThisCpus)
}

/// What a sample takes for an approximate operation's fresh value.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Estimates {
    /// Its default, zero (a difference through it is not kept).
    AsZero,
    /// This CPU's estimate for the sampled operand.
    ThisCpus,
}

fn search(
    pool: &ExprPool,
    (path, a, b): (&[ExprId], ExprId, ExprId),
    assumptions: Assumptions,
    (trials, seed): (u32, u64),
    estimates: Estimates,
) -> Option<Assignment> {
    if trials == 0 {
        return None;
    }
    let mut roots = vec![a, b];
    roots.extend_from_slice(path);
    // Approximate results evaluate as zero here; a difference that runs
    // through one is not kept (unconfirmed_because below), one that does
    // not (RCPPS of a zero is exactly an infinity) is a witness.
    let mut leaves = FxHashSet::default();
    for r in &roots {
        pool.leaves_of(*r, &mut leaves);
    }
    let mut leaves: Vec<Leaf> = leaves.into_iter().collect();
    leaves.sort();
    let slots = float_slots(pool, &[a, b]);
    let mut sizes: FxHashMap<u32, usize> = FxHashMap::default();
    for leaf in &leaves {
        if let Leaf::Input { array, index } = *leaf {
            let s = sizes.entry(array).or_insert(0);
            *s = (*s).max(index as usize + 1);
        }
    }
    let mut rng = SplitMix(seed ^ ((a.index() as u64) << 32) ^ b.index() as u64);
    for trial in 0..trials {
        let mut w = Assignment::default();
        for (array, size) in &sizes {
            w.arrays.insert(*array, vec![0; *size]);
        }
        // Trial 0 is all zeros; the next ones give every floating-point
        // operand the same edge value (all -0, all infinite, ...); later
        // trials fill every byte the check reads, then overwrite the
        // floating-point operands with telling values.
        let uniform = UNIFORM_EDGES.get((trial as usize).wrapping_sub(1)).filter(|_| trial > 0);
        if let Some(edge) = uniform {
            for s in &slots {
                s.write(&mut w, edge(s.format));
            }
        } else if trial > 0 {
            // Fresh values keep their default, but draw as input bytes do:
            // the trials of a seed stay the ones they have always been.
            for leaf in &leaves {
                let byte = if rng.next_u64().is_multiple_of(2) { rng.next_u64() as u8 } else { 0 };
                if let Leaf::Input { array, index } = *leaf {
                    w.arrays.get_mut(&array).expect("sized above")[index as usize] = byte;
                }
            }
            for s in &slots {
                // Under associativity, small integers keep long chains exact;
                // every other trial tries telling values for short chains.
                let value = if assumptions.has(Assumption::Associativity) && trial % 2 == 0 {
                    small_integer(s.format, trial / 2, &mut rng)
                } else {
                    allowed_telling_value(s.format, assumptions, &mut rng)
                };
                s.write(&mut w, value);
            }
        }
        if estimates == Estimates::ThisCpus && super::cpu_estimates::fill_with_this_cpus(pool, &roots, &mut w).is_none() {
            // This CPU's estimate is not one the model allows (or the host
            // is no x86-64): the replay could not stand for this input.
            continue;
        }
        let values = evaluate_all(pool, &roots, &w);
        if values[&a] == values[&b] || path.iter().any(|c| values[c] == 0) {
            continue;
        }
        if estimates == Estimates::ThisCpus || unconfirmed_because(pool, assumptions, &roots, &w).is_none() {
            return Some(w);
        }
    }
    None
}

/// Values given to every floating-point operand at once in the first trials.
pub(super) const UNIFORM_EDGES: [fn(FpFormat) -> u128; 6] = [
    |f| 1u128 << (f.width() - 1),                                                                              // -0
    |f| ((1u128 << f.exponent_bits()) - 1) << (f.significand_bits() - 1),                                      // +inf
    |f| (1u128 << (f.width() - 1)) | (((1u128 << f.exponent_bits()) - 1) << (f.significand_bits() - 1)),       // -inf
    |f| ((1u128 << (f.exponent_bits() - 1)) - 1) << (f.significand_bits() - 1),                                // 1
    |f| (1u128 << (f.width() - 1)) | (((1u128 << (f.exponent_bits() - 1)) - 1) << (f.significand_bits() - 1)), // -1
    |_| 1,                                                                                                     // the smallest subnormal
];

/// The input words that floating-point operations of `roots` read directly.
pub(super) fn float_slots(pool: &ExprPool, roots: &[ExprId]) -> Vec<FloatSlot> {
    let mut seen = FxHashSet::default();
    let mut stack = roots.to_vec();
    let mut slots = Vec::new();
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        let node = pool.get(e);
        let (format, operands): (Option<FpFormat>, Vec<ExprId>) = match &*node {
            Expr::FBin(_, f, x, y) | Expr::FCmp(_, f, x, y) => (Some(*f), vec![*x, *y]),
            Expr::FUn(_, f, x) => (Some(*f), vec![*x]),
            Expr::Fma(f, x, y, z) => (Some(*f), vec![*x, *y, *z]),
            Expr::FpToInt { from, value, .. } | Expr::FpConvert { from, value, .. } => (Some(*from), vec![*value]),
            _ => (None, Vec::new()),
        };
        if let Some(f) = format {
            for o in operands {
                if let Some((array, offset)) = input_word(pool, o, f.width() / 8) {
                    slots.push(FloatSlot { array, offset, format: f });
                }
            }
        }
        stack.extend(pool.children(e));
    }
    slots.sort_by_key(|s| (s.array, s.offset));
    slots.dedup();
    slots
}

/// `(array, offset)` when `e` is `n` consecutive input bytes, little-endian
/// (also when it is a lane extracted from a wider load).
pub(super) fn input_word(pool: &ExprPool, e: ExprId, n: u32) -> Option<(u32, u32)> {
    if pool.width(e) != 8 * n {
        return None;
    }
    let mut bytes = Vec::new();
    input_bytes(pool, e, 0, 8 * n, &mut bytes, 0)?;
    let (array, first) = *bytes.first()?;
    let consecutive = bytes.iter().enumerate().all(|(k, &(a, i))| a == array && i == first + k as u32);
    (bytes.len() == n as usize && consecutive).then_some((array, first))
}

/// Appends, low byte first, the input bytes that bits `lo .. lo + width` of
/// `e` are; `None` when they are not whole input bytes. Concatenations of a
/// load are at most a few dozen deep; deeper ones are not followed.
fn input_bytes(pool: &ExprPool, e: ExprId, lo: u32, width: u32, out: &mut Vec<(u32, u32)>, depth: u32) -> Option<()> {
    if depth > 64 || width == 0 {
        return (width == 0).then_some(());
    }
    match *pool.get(e) {
        Expr::Input { array, index } if lo == 0 && width == 8 => {
            out.push((array, index));
            Some(())
        }
        Expr::Concat(hi, low) => {
            let wl = pool.width(low);
            let in_low = width.min(wl.saturating_sub(lo));
            if in_low > 0 {
                input_bytes(pool, low, lo, in_low, out, depth + 1)?;
            }
            let rest = width - in_low;
            input_bytes(pool, hi, (lo + in_low).saturating_sub(wl), rest, out, depth + 1)
        }
        Expr::Extract { value, offset, .. } => input_bytes(pool, value, lo + offset, width, out, depth + 1),
        _ => None,
    }
}

/// A telling value that the restricting assumptions allow (a few draws;
/// the witness is checked as a whole anyway).
fn allowed_telling_value(f: FpFormat, a: Assumptions, rng: &mut SplitMix) -> u128 {
    let mut v = telling_value(f, rng);
    for _ in 0..8 {
        if super::confirm::excluded(a, f, v).is_none() {
            break;
        }
        v = telling_value(f, rng);
    }
    v
}

/// An edge value of the format (about a third of the time) or a random one.
pub(super) fn telling_value(f: FpFormat, rng: &mut SplitMix) -> u128 {
    let (e, s) = (f.exponent_bits(), f.significand_bits() - 1);
    let sign = (rng.next_u64() % 2) as u128;
    let max_exp = (1u128 << e) - 1;
    let bits = |exp: u128, frac: u128| (sign << (e + s)) | (exp << s) | frac;
    let bias = (1u128 << (e - 1)) - 1;
    let frac_max = (1u128 << s) - 1;
    match rng.next_u64() % 32 {
        0 => bits(0, 0),
        1 => bits(max_exp, 0),
        2 => bits(max_exp, 1 << (s - 1)),
        3 => bits(max_exp, 1),
        4 => bits(0, 1),
        5 => bits(0, frac_max),
        6 => bits(1, 0),
        7 => bits(max_exp - 1, frac_max),
        8 => bits(bias, 0),
        9 => bits(bias - 1, 0),
        10 => bits(bias, 1),
        11 => bits(bias - 1, frac_max),
        12 => bits(bias + (rng.next_u64() as u128 % (max_exp - bias)), 0),
        13..=24 => {
            // Near 1 with a full significand: sums and products round
            // without overflowing.
            let exp = bias + (rng.next_u64() % 16) as u128 - 8;
            bits(exp, rng.next_u64() as u128 & frac_max)
        }
        25..=27 => {
            // Near 1 with a short significand: products are exact, sums of
            // different magnitudes are not.
            let exp = bias + (rng.next_u64() % 16) as u128 - 8;
            bits(exp, (rng.next_u64() as u128 & frac_max) & !((1u128 << (s / 2)) - 1))
        }
        _ => rng.next_u64() as u128 & ((1u128 << f.width()) - 1),
    }
}

/// A small nonzero integer (a zero factor makes -0 of a negative one, which
/// `positive-zero` excludes): within ±8 on even trials, within ±2 on odd
/// ones (long sums of products stay exact only with small terms), and now
/// and then a power of two up to 16.
fn small_integer(f: FpFormat, trial: u32, rng: &mut SplitMix) -> u128 {
    let magnitude = if trial % 2 == 1 {
        1 + rng.next_u64() % 2
    } else if rng.next_u64().is_multiple_of(8) {
        1 << (rng.next_u64() % 5)
    } else {
        1 + rng.next_u64() % 8
    };
    let v = if rng.next_u64().is_multiple_of(2) { magnitude as f64 } else { -(magnitude as f64) };
    match f {
        FpFormat::Half => half::f16::from_f64(v).to_bits() as u128,
        FpFormat::Single => (v as f32).to_bits() as u128,
        FpFormat::Double => v.to_bits() as u128,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::FBinOp;

    #[test]
    fn regrouped_products_differ_on_samples() {
        let mut p = ExprPool::new();
        let arr = p.new_array("v", 8);
        let (k, t) = (p.input_word(arr, 0, 32), p.input_word(arr, 4, 32));
        let f = FpFormat::Single;
        let kt = p.fbin(FBinOp::Mul, f, k, t);
        let left = p.fbin(FBinOp::Mul, f, kt, t);
        let tt = p.fbin(FBinOp::Mul, f, t, t);
        let right = p.fbin(FBinOp::Mul, f, tt, k);
        let w = find_difference(&p, &[], left, right, Assumptions::default(), 256, 0).expect("a witness");
        assert_ne!(crate::expr::evaluate(&p, left, &w), crate::expr::evaluate(&p, right, &w));
        // Under associativity the two are the same product: no witness.
        let assoc = Assumptions::of(&[Assumption::Associativity]);
        assert!(find_difference(&p, &[], left, right, assoc, 256, 0).is_none());
    }

    #[test]
    fn words_are_recognised() {
        let mut p = ExprPool::new();
        let arr = p.new_array("v", 16);
        let w = p.input_word(arr, 8, 32);
        assert_eq!(input_word(&p, w, 4), Some((arr, 8)));
        assert_eq!(input_word(&p, w, 2), None);
        // A lane of a wider load.
        let wide = p.input_word(arr, 0, 128);
        let lane = p.extract(wide, 64, 32);
        assert_eq!(input_word(&p, lane, 4), Some((arr, 8)));
    }

    #[test]
    fn path_condition_is_respected() {
        let mut p = ExprPool::new();
        let arr = p.new_array("v", 4);
        let x = p.input_word(arr, 0, 32);
        let f = FpFormat::Single;
        let one = p.constant(32, 0x3f80_0000);
        let sum = p.fbin(FBinOp::Add, f, x, one);
        let big = p.fcmp(crate::expr::Outcomes(crate::expr::Outcomes::GT), f, x, one);
        let small = p.not(big);
        let w = find_difference(&p, &[small], x, sum, Assumptions::default(), 64, 3).expect("a witness");
        assert_eq!(crate::expr::evaluate(&p, small, &w), 1);
        // A path no sample satisfies leaves the question to the solver.
        let never = p.bool_const(false);
        assert!(find_difference(&p, &[never], x, sum, Assumptions::default(), 64, 3).is_none());
    }
}
