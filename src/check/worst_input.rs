//! The worst input of a tolerance check: the input where the two values
//! are furthest apart. Found in three steps, the first two on concrete
//! inputs: edge values and seeded random values of every float input the
//! values read (as `sampling.rs` draws them); then inputs near the ones
//! that satisfy the path (same sign and exponent, random significand), so
//! a harness that assumes a range is sampled inside it; then the solver,
//! asked for an error above the largest found, the bound raised until the
//! answer is unsat (`raise`). Every sample is kept for the error plot.
//!
//! Budgets are counts (samples, queries, solver work units), never time.

use super::close_encoding::{distance, exceeds, to_f64, CloseQuestion, Distance};
use super::cpu_estimates::fill_with_this_cpus;
use super::libm_model::{definite_below, evaluate_with_host_libm};
use super::sampling::{float_slots, telling_value, FloatSlot, UNIFORM_EDGES};
use super::{Decider, Feasibility};
use crate::assumptions::Assumptions;
use crate::config::ToleranceKind;
use crate::expr::{evaluate_all, Assignment, ExprId, ExprPool, FpFormat, Leaf};
use crate::report::ErrorSample;
use crate::splitmix::SplitMix;
use rustc_hash::{FxHashMap, FxHashSet};

/// Queries the solver-guided step asks at most, per element.
pub const MAX_RAISE_QUERIES: u32 = 10;

/// Solver work units of one query of the solver-guided step (a tenth of
/// a second of cvc5 on an idle machine), so the step spends at most
/// `MAX_RAISE_QUERIES` times this per element, on any machine at any
/// load: the query timeout, which is wall-clock time, is not what ends a
/// raising query (a query past its budget is one the solver would need
/// seconds for; 250000 units let cvc5 into its bit-blasted search on a
/// fused multiply-add, where the timeout ended it instead).
pub const RAISE_UNITS: u32 = 100_000;

/// Inputs the local search evaluates per element (`climb`).
pub const CLIMB_EVALUATIONS: u32 = 2000;

/// Samples kept for the plot, per element.
const MAX_PLOTTED: usize = 400;

/// An input and the distance of the values there.
#[derive(Clone, Debug)]
pub struct Measured {
    /// The input.
    pub witness: Assignment,
    /// The values' bits there.
    pub got: u128,
    /// The reference's bits there.
    pub want: u128,
    /// The magnitude's bits there (the reference for `rel`).
    pub reference: u128,
    /// How far apart they are.
    pub distance: Distance,
    /// The plotted input's value.
    pub input: Option<f64>,
    /// The values call a modelled libm function, evaluated by this
    /// machine's libm: an excess here is this machine's, not necessarily
    /// every conforming libm's.
    pub through_libm: bool,
    /// The values read an RCPPS/RSQRTPS estimate, taken as this CPU's
    /// (the witness holds it): an excess here is this CPU's, not
    /// necessarily every conforming CPU's.
    pub through_estimate: bool,
}

/// What sampling found.
#[derive(Default)]
pub struct Sampled {
    /// The inputs tried that satisfy the path, for the plot.
    pub samples: Vec<ErrorSample>,
    /// The input with the largest error.
    pub worst: Option<Measured>,
    /// An input on which the values exceed the bound, when one was tried.
    pub exceeding: Option<Measured>,
}

/// The float input the plot puts on its horizontal axis: the first one
/// the values read.
pub fn plotted_slot(pool: &ExprPool, q: &CloseQuestion) -> Option<(String, FpFormat, u32, u32)> {
    let slots = float_slots(pool, &[q.got, q.want]);
    let s = slots.first()?;
    let name = pool.arrays().get(s.array as usize).map(|a| a.name.clone()).unwrap_or_default();
    let label = if s.offset == 0 { name } else { format!("{name}+{}", s.offset) };
    Some((label, s.format, s.array, s.offset))
}

fn slot_value(w: &Assignment, array: u32, offset: u32, f: FpFormat) -> Option<f64> {
    let bytes = w.arrays.get(&array)?;
    let n = (f.width() / 8) as usize;
    let b = bytes.get(offset as usize..offset as usize + n)?;
    let bits = b.iter().rev().fold(0u128, |acc, x| (acc << 8) | *x as u128);
    Some(to_f64(f, bits))
}

/// Evaluates the question under `w`: `None` when the path does not hold
/// there, or the values run through an approximation the CPU would not
/// compute as evaluated (`confirm.rs`). Modelled libm calls
/// (`libm_model.rs`) are evaluated by this machine's libm, and RCPPS /
/// RSQRTPS estimates are this CPU's (`cpu_estimates.rs`, replacing any
/// the witness chose), as the native replay computes them.
pub fn measure(pool: &ExprPool, path: &[ExprId], q: &CloseQuestion, assumptions: Assumptions, w: &Assignment) -> Option<Measured> {
    let mut roots = q.roots().to_vec();
    roots.extend_from_slice(path);
    let mut w = w.clone();
    let estimates = fill_with_this_cpus(pool, &roots, &mut w)?;
    let definite = definite_below(pool, &roots, &estimates);
    let through_libm = definite == Some(true);
    let values = if through_libm { evaluate_with_host_libm(pool, &roots, &w) } else { evaluate_all(pool, &roots, &w) };
    if path.iter().any(|c| values[c] == 0) {
        return None;
    }
    let unconfirmed = if definite.is_some() {
        super::confirm::unconfirmed_under_assumptions(pool, assumptions, &roots, &w)
    } else {
        super::confirm::unconfirmed_because(pool, assumptions, &roots, &w)
    };
    if unconfirmed.is_some() {
        return None;
    }
    let (got, want, reference) = (values[&q.got], values[&q.want], values[&q.reference]);
    let input = plotted_slot(pool, q).and_then(|(_, f, a, o)| slot_value(&w, a, o, f));
    let distance = distance(q, got, want, reference);
    let through_estimate = !estimates.is_empty();
    Some(Measured { witness: w, got, want, reference, distance, input, through_libm, through_estimate })
}

/// Tries `trials` concrete inputs (and `seeds`, inputs known to satisfy
/// the path, with their neighbours). Deterministic for a seed.
pub fn sample(
    pool: &ExprPool,
    path: &[ExprId],
    q: &CloseQuestion,
    assumptions: Assumptions,
    trials: u32,
    seed: u64,
    seeds: &[Assignment],
) -> Sampled {
    let mut roots = q.roots().to_vec();
    roots.extend_from_slice(path);
    let mut leaves = FxHashSet::default();
    for r in &roots {
        pool.leaves_of(*r, &mut leaves);
    }
    let mut leaves: Vec<Leaf> = leaves.into_iter().collect();
    leaves.sort();
    let mut sizes: FxHashMap<u32, usize> = FxHashMap::default();
    for leaf in &leaves {
        if let Leaf::Input { array, index } = *leaf {
            let s = sizes.entry(array).or_insert(0);
            *s = (*s).max(index as usize + 1);
        }
    }
    let slots = float_slots(pool, &[q.got, q.want, q.reference]);
    let mut rng = SplitMix(seed ^ ((q.got.index() as u64) << 32) ^ q.want.index() as u64);
    let mut out = Sampled::default();
    let mut satisfying: Vec<Assignment> = seeds.to_vec();
    let blank = || {
        let mut w = Assignment::default();
        for (array, size) in &sizes {
            w.arrays.insert(*array, vec![0; *size]);
        }
        w
    };
    for trial in 0..trials {
        let w = if trial % 2 == 1 && !satisfying.is_empty() {
            // Near an input that satisfies the path.
            let base = &satisfying[(rng.next_u64() % satisfying.len() as u64) as usize];
            let mut w = base.clone();
            for (array, size) in &sizes {
                w.arrays.entry(*array).or_insert_with(|| vec![0; *size]).resize((*size).max(1), 0);
            }
            for s in &slots {
                let old = read_slot(&w, s);
                s.write(&mut w, neighbour(s.format, old, &mut rng));
            }
            w
        } else {
            let mut w = blank();
            let edge = UNIFORM_EDGES.get((trial as usize / 2).wrapping_sub(1)).filter(|_| trial > 0);
            if let Some(edge) = edge {
                for s in &slots {
                    s.write(&mut w, edge(s.format));
                }
            } else if trial > 0 {
                for leaf in &leaves {
                    if let Leaf::Input { array, index } = *leaf {
                        w.arrays.get_mut(&array).expect("sized above")[index as usize] = rng.next_u64() as u8;
                    }
                }
                for s in &slots {
                    s.write(&mut w, telling_value(s.format, &mut rng));
                }
            }
            w
        };
        let Some(m) = measure(pool, path, q, assumptions, &w) else { continue };
        if satisfying.len() < 64 {
            satisfying.push(w);
        }
        record(&mut out, m, q);
    }
    out
}

/// Adds a measured input to what sampling found.
pub fn record(out: &mut Sampled, m: Measured, q: &CloseQuestion) {
    if let (Some(x), Some(u)) = (m.input, m.distance.ulps) {
        if out.samples.len() < MAX_PLOTTED && x.is_finite() {
            out.samples.push(ErrorSample { input: x, ulps: u as f64, error: m.distance.measure });
        }
    }
    if out.exceeding.is_none() && super::close_encoding::exceeds_concrete(q, m.got, m.want, m.reference, q.tolerance.bound) {
        out.exceeding = Some(m.clone());
    }
    if out.worst.as_ref().is_none_or(|w| m.distance.measure > w.distance.measure) {
        out.worst = Some(m);
    }
}

fn read_slot(w: &Assignment, s: &FloatSlot) -> u128 {
    let n = (s.format.width() / 8) as usize;
    w.arrays
        .get(&s.array)
        .and_then(|b| b.get(s.offset as usize..s.offset as usize + n))
        .map(|b| b.iter().rev().fold(0u128, |acc, x| (acc << 8) | *x as u128))
        .unwrap_or(0)
}

/// A value of the same sign and (mostly) the same exponent as `old`, with
/// a random significand.
fn neighbour(f: FpFormat, old: u128, rng: &mut SplitMix) -> u128 {
    let frac_bits = f.significand_bits() - 1;
    let frac_mask = (1u128 << frac_bits) - 1;
    let mut top = old >> frac_bits;
    let exp_mask = (1u128 << f.exponent_bits()) - 1;
    let exp = top & exp_mask;
    if rng.next_u64().is_multiple_of(4) && exp > 2 && exp < exp_mask - 2 {
        let step = (rng.next_u64() % 3) as u128;
        top = if rng.next_u64().is_multiple_of(2) { top + step } else { top - step };
    }
    let frac = (rng.next_u64() as u128 | ((rng.next_u64() as u128) << 64)) & frac_mask;
    (top << frac_bits) | frac
}

/// Local search for a larger error, from the worst input found: moves one
/// float input by one or a few ulps, or anywhere in its binade, and keeps
/// a move that makes the error larger (errors of roundings cluster: the
/// neighbours of a bad input are often worse). Spends `evaluations`
/// evaluations; returns how many moves made the error larger.
pub fn climb(
    pool: &ExprPool,
    path: &[ExprId],
    q: &CloseQuestion,
    assumptions: Assumptions,
    found: &mut Sampled,
    evaluations: u32,
    seed: u64,
) -> u32 {
    let slots = float_slots(pool, &[q.got, q.want, q.reference]);
    let Some(mut best) = found.worst.clone() else { return 0 };
    if slots.is_empty() || !best.distance.measure.is_finite() {
        return 0;
    }
    let mut rng = SplitMix(seed ^ 0xc1_1b ^ ((q.got.index() as u64) << 20));
    let mut improved = 0;
    for _ in 0..evaluations {
        let mut w = best.witness.clone();
        let s = &slots[(rng.next_u64() % slots.len() as u64) as usize];
        let old = read_slot(&w, s);
        let sign = 1u128 << (s.format.width() - 1);
        let magnitude = old & (sign - 1);
        let reach = match rng.next_u64() % 4 {
            0 => 1,
            1 => 16,
            2 => 4096,
            _ => 0,
        };
        let new = if reach == 0 {
            neighbour(s.format, old, &mut rng)
        } else {
            let step = 1 + (rng.next_u64() % reach) as u128;
            let moved = if rng.next_u64().is_multiple_of(2) { magnitude.saturating_add(step) } else { magnitude.saturating_sub(step) };
            (old & sign) | (moved & (sign - 1))
        };
        s.write(&mut w, new);
        let Some(m) = measure(pool, path, q, assumptions, &w) else { continue };
        if m.distance.measure > best.distance.measure {
            improved += 1;
            best = m.clone();
        }
        record(found, m, q);
    }
    improved
}

/// What the solver-guided step found.
pub struct Raised {
    /// An upper bound of the error proved by an unsat answer.
    pub proved_max: Option<f64>,
    /// Why the search stopped before the largest error and the proved
    /// bound met, when it did.
    pub note: Option<String>,
}

impl Decider {
    /// Raises the largest error found by asking the solver for a larger
    /// one: above the largest found, doubling while it answers sat, then
    /// halving the gap to the proved bound (`known_max`, or the first
    /// unsat answer) until they meet or the queries run out.
    pub fn raise_worst(
        &mut self,
        pool: &mut ExprPool,
        path: &[ExprId],
        q: &CloseQuestion,
        found: &mut Sampled,
        known_max: Option<f64>,
    ) -> Raised {
        let ulps = q.tolerance.kind == ToleranceKind::Ulp;
        let ceiling = if ulps { (1u128 << q.format.width()) as f64 } else { f64::INFINITY };
        let mut hi = known_max;
        let mut note = None;
        for _ in 0..MAX_RAISE_QUERIES {
            if self.backend.stop_requested() {
                note = Some("the search for a larger error was interrupted".to_string());
                break;
            }
            let lo = found.worst.as_ref().map(|w| w.distance.measure).unwrap_or(0.0);
            if !lo.is_finite() {
                break;
            }
            let target = match hi {
                Some(h) if met(lo, h, ulps) => break,
                Some(h) => between(lo, h, ulps),
                None if lo == 0.0 => 0.0,
                None => lo * 2.0,
            };
            if target >= ceiling {
                break;
            }
            let goal = exceeds(pool, q, target);
            match self.backend.check_budgeted(pool, path, goal, RAISE_UNITS) {
                Feasibility::Unsat => hi = Some(target),
                Feasibility::Sat(m) => match measure(pool, path, q, self.assumptions, &m) {
                    Some(got) if got.distance.measure > lo => record(found, got, q),
                    _ => {
                        note = Some(format!(
                            "the solver's input with an error above {target:e} does not show it when evaluated (it runs through an approximation), so the search stopped there"
                        ));
                        break;
                    }
                },
                Feasibility::Unknown(why) if why.kind == crate::solver::UnknownKind::ResourceLimit => {
                    note = Some(format!(
                        "the search for a larger error stopped at its solver budget: whether an error above {target:e} is possible was not decided within {RAISE_UNITS} solver work units"
                    ));
                    break;
                }
                Feasibility::Unknown(why) => {
                    note = Some(format!("the solver did not decide whether an error above {target:e} is possible ({})", why.detail));
                    break;
                }
            }
        }
        let lo = found.worst.as_ref().map(|w| w.distance.measure).unwrap_or(0.0);
        if note.is_none() && hi.is_none_or(|h| !met(lo, h, ulps)) && lo.is_finite() {
            note = Some(format!("the search for a larger error stopped after {MAX_RAISE_QUERIES} solver queries"));
        }
        Raised { proved_max: hi, note }
    }
}

/// Whether the largest error found and the proved bound are close enough
/// to stop: equal in ulps, within a thousandth otherwise.
pub fn met(lo: f64, hi: f64, ulps: bool) -> bool {
    if ulps {
        hi <= lo
    } else {
        hi <= lo * (1.0 + 1e-3) || hi == 0.0
    }
}

/// A bound between the largest error found and the proved bound.
pub fn between(lo: f64, hi: f64, ulps: bool) -> f64 {
    if ulps {
        ((lo + hi) / 2.0).floor()
    } else if lo > 0.0 {
        (lo * hi).sqrt()
    } else {
        hi / 1024.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bisection_meets() {
        assert!(met(3.0, 3.0, true));
        assert!(!met(2.0, 3.0, true));
        assert_eq!(between(2.0, 9.0, true), 5.0);
        assert!(met(1.0, 1.0005, false));
        assert_eq!(between(0.0, 1024.0, false), 1.0);
    }

    #[test]
    fn neighbours_keep_sign_and_magnitude() {
        let mut rng = SplitMix(7);
        for _ in 0..100 {
            let v = f32::from_bits(neighbour(FpFormat::Single, 1.5f32.to_bits() as u128, &mut rng) as u32);
            assert!(v > 0.0 && (0.12..16.0).contains(&v), "{v}");
        }
    }
}
