//! Exhaustive evaluation: when a tolerance check reads one float input
//! and the path bounds it to a range of at most a budget of values, every
//! value of the range is evaluated (`tape.rs`, the model's own evaluation
//! step). That is a complete proof, and it finds the true worst input.
//! The budget counts evaluations; a range beyond it is left to the other
//! steps, and the reason says so.

use super::input_range::{input_range, FloatInput};
use super::tape::Tape;
use crate::check::close_encoding::{distance, exceeds_concrete, to_f64, CloseQuestion, Distance};
use crate::expr::{ExprId, ExprPool};

/// Evaluations exhaustive evaluation may spend on one element: two
/// binades of floats (2^23 values each).
pub const EVALUATION_BUDGET: u128 = 1 << 24;

/// Points of the error plot taken from an exhaustive evaluation.
const PLOTTED: u128 = 400;

/// What evaluating every input of the range found.
pub struct Enumerated {
    /// Inputs evaluated.
    pub evaluated: u128,
    /// Of those, the inputs on which the path holds.
    pub satisfying: u64,
    /// The input's bits with the largest error, and that error.
    pub worst: Option<(u128, Distance)>,
    /// The first input whose values exceed the bound.
    pub exceeding: Option<u128>,
    /// Evenly spaced inputs and their error in ulps, for the plot.
    pub plotted: Vec<(f64, f64)>,
    /// The range, as reals, in words.
    pub range: String,
}

/// Evaluates the question on every value of `input` the path allows, or
/// says why it does not.
pub fn enumerate(pool: &ExprPool, path: &[ExprId], q: &CloseQuestion, input: FloatInput, budget: u128) -> Result<Enumerated, String> {
    let f = input.format;
    let range = input_range(pool, path, input);
    if !range.nan_excluded {
        return Err("the path does not exclude NaN inputs, whose bit patterns are too many to evaluate".into());
    }
    let count = range.patterns();
    if count > budget {
        return Err(format!("the input's range holds {count} values, more than the {budget} evaluations exhaustive evaluation may spend"));
    }
    let mut roots = q.roots().to_vec();
    roots.extend_from_slice(path);
    let mut tape = Tape::new(pool, &roots, input)?;
    let (lo, hi) = range.bounds(f);
    let mut out =
        Enumerated { evaluated: 0, satisfying: 0, worst: None, exceeding: None, plotted: Vec::new(), range: format!("[{lo:e}, {hi:e}]") };
    let stride = count.div_ceil(PLOTTED).max(1);
    for (k, x) in range.bit_patterns(f).enumerate() {
        out.evaluated += 1;
        tape.run(x);
        if path.iter().any(|c| tape.value(*c) == 0) {
            continue;
        }
        out.satisfying += 1;
        let (got, want, reference) = (tape.value(q.got), tape.value(q.want), tape.value(q.reference));
        let d = distance(q, got, want, reference);
        if (k as u128).is_multiple_of(stride) {
            if let Some(u) = d.ulps {
                out.plotted.push((to_f64(f, x), u as f64));
            }
        }
        if out.exceeding.is_none() && exceeds_concrete(q, got, want, reference, q.tolerance.bound) {
            out.exceeding = Some(x);
        }
        if out.worst.as_ref().is_none_or(|(_, w)| d.measure > w.measure) {
            out.worst = Some((x, d));
        }
    }
    Ok(out)
}
