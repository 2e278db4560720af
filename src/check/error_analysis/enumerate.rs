//! Exhaustive evaluation: when a tolerance check reads one float input
//! and the path bounds it to a range of at most a budget of values, every
//! value of the range is evaluated (`tape.rs`, the model's own evaluation
//! step). That is a complete proof, and it finds the true worst input.
//! The budget counts evaluations; a range beyond it is left to the other
//! steps, and the reason says so.
//!
//! A value that calls a modelled libm function (`libm_model.rs`) is
//! evaluated with every result a libm within the function's bound may
//! return (and every combination of them, for several calls): within the
//! bound only if all are; exceeding it for every conforming libm, or only
//! for some (which this machine's libm, the replay's, may or may not be).
//! The worst input reported is this machine's.

use crate::check::libm_model::conforming_results;

use super::input_range::{input_range, FloatInput};
use super::tape::Tape;
use crate::check::close_encoding::{distance, exceeds_concrete, to_f64, CloseQuestion, Distance};
use crate::expr::{ExprId, ExprPool};

/// Evaluations exhaustive evaluation may spend on one element: two
/// binades of floats (2^23 values each).
pub const EVALUATION_BUDGET: u128 = 1 << 24;

/// Combinations of conforming libm results tried per input, at most: a
/// value calling more libm functions than this allows is left to the
/// other steps.
const LIBM_COMBINATIONS: usize = 4096;

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
    /// The first input whose values exceed the bound (with every result a
    /// conforming libm may give, when they call one).
    pub exceeding: Option<u128>,
    /// The first input whose values exceed the bound with some result a
    /// conforming libm may give, preferring one where this machine's libm
    /// does.
    pub may_exceed: Option<u128>,
    /// The largest error with any result a conforming libm may give (the
    /// worst input's error when the values call none).
    pub model_max: f64,
    /// The modelled libm calls the values make, named with their bound.
    pub libm_calls: Vec<String>,
    /// Evenly spaced inputs and their error in ulps and in the tolerance's
    /// measure, for the plot.
    pub plotted: Vec<(f64, f64, f64)>,
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
    let calls = tape.calls();
    let libm_calls = calls
        .iter()
        .map(|(c, _)| format!("`{}` as any value within {} ulp of its correctly rounded result", c.c_name(), c.ulps))
        .collect::<Vec<_>>();
    let mut out = Enumerated {
        evaluated: 0,
        satisfying: 0,
        worst: None,
        exceeding: None,
        may_exceed: None,
        model_max: 0.0,
        libm_calls,
        plotted: Vec::new(),
        range: format!("[{lo:e}, {hi:e}]"),
    };
    let mut host_exceeded_at_may_exceed = false;
    let stride = count.div_ceil(PLOTTED).max(1);
    let started = thread_cpu_seconds();
    for (k, x) in range.bit_patterns(f).enumerate() {
        out.evaluated += 1;
        tape.run(x);
        let on_path = path.iter().all(|c| tape.value(*c) != 0);
        let mut host_exceeds = false;
        if on_path {
            out.satisfying += 1;
            let (got, want, reference) = (tape.value(q.got), tape.value(q.want), tape.value(q.reference));
            let d = distance(q, got, want, reference);
            if (k as u128).is_multiple_of(stride) {
                if let Some(u) = d.ulps {
                    out.plotted.push((to_f64(f, x), u as f64, d.measure));
                }
            }
            host_exceeds = exceeds_concrete(q, got, want, reference, q.tolerance.bound);
            out.model_max = out.model_max.max(d.measure);
            if out.worst.as_ref().is_none_or(|(_, w)| d.measure > w.measure) {
                out.worst = Some((x, d));
            }
        }
        if calls.is_empty() {
            if out.exceeding.is_none() && host_exceeds {
                out.exceeding = Some(x);
            }
            continue;
        }
        // Other conforming results may take the path where this machine's
        // do not: every combination is tried whatever the host's path.
        let (max, every, some) = with_conforming_results(&mut tape, path, q)?;
        out.model_max = out.model_max.max(max);
        if out.exceeding.is_none() && every && on_path {
            out.exceeding = Some(x);
        }
        if (some || host_exceeds) && (out.may_exceed.is_none() || (host_exceeds && !host_exceeded_at_may_exceed)) {
            out.may_exceed = Some(x);
            host_exceeded_at_may_exceed = host_exceeds;
        }
    }
    let cpu_seconds = thread_cpu_seconds() - started;
    tracing::debug!(
        values = out.evaluated,
        nodes = tape.len(),
        libm_calls = calls.len(),
        cpu_seconds,
        cpu_ns_per_node_and_value = cpu_seconds * 1e9 / (out.evaluated.max(1) as f64 * tape.len().max(1) as f64),
        "exhaustive evaluation"
    );
    Ok(out)
}

/// The values with every combination of conforming libm results for the
/// input of the tape's last run: the largest error among the combinations
/// the path allows, whether every one of them exceeds the bound, whether
/// some does. The tape is left with the last combination's values.
fn with_conforming_results(tape: &mut Tape, path: &[ExprId], q: &CloseQuestion) -> Result<(f64, bool, bool), String> {
    let choices: Vec<Vec<u128>> = tape.calls().iter().map(|(c, arg)| conforming_results(c, *arg)).collect();
    let total = choices.iter().try_fold(1usize, |n, c| n.checked_mul(c.len()).filter(|t| *t <= LIBM_COMBINATIONS));
    let Some(total) = total else {
        return Err(format!(
            "the values call libm functions whose conforming results make more than {LIBM_COMBINATIONS} combinations per input"
        ));
    };
    let (mut max, mut every, mut some, mut any) = (0.0f64, true, false, false);
    let mut pick = vec![0u128; choices.len()];
    for mut n in 0..total {
        for (slot, c) in pick.iter_mut().zip(&choices) {
            *slot = c[n % c.len()];
            n /= c.len();
        }
        tape.rerun_with(&pick);
        if path.iter().any(|c| tape.value(*c) == 0) {
            continue;
        }
        any = true;
        let (got, want, reference) = (tape.value(q.got), tape.value(q.want), tape.value(q.reference));
        max = max.max(distance(q, got, want, reference).measure);
        let exceeds = exceeds_concrete(q, got, want, reference, q.tolerance.bound);
        every &= exceeds;
        some |= exceeds;
    }
    Ok((max, every && any, some))
}

/// CPU time of this thread: what the debug line's figure is measured in
/// (wall time on a loaded machine says little about the evaluator).
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime fills the struct it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}
