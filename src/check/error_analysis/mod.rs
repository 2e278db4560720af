//! Deciding a tolerance check without the bit-precise solver, which times
//! out on anything with a division or a few roundings:
//!
//! - exhaustive evaluation (`enumerate.rs`): one float input over a range
//!   of at most a budget of values, every value evaluated exactly as the
//!   model evaluates it: a complete proof or a refutation, and the true
//!   worst input;
//! - rounding-error bounds (`rounding_bounds.rs`): each side's value as
//!   the exact real result plus an error bounded from the roundings it
//!   went through, over boxes of the inputs split until the bound holds or
//!   a budget of boxes is spent. Sound, not complete: it proves, never
//!   refutes.
//!
//! Each step says which bound it used; a step that does not apply says why.

pub mod enumerate;
pub mod input_range;
pub mod rounding_bounds;
mod tape;

use super::close_encoding::CloseQuestion;
use super::libm_model::LIBM_RESULT;
use super::sampling::float_slots;
use super::worst_input::{measure, record, Sampled};
use crate::assumptions::Assumptions;
use crate::expr::{Assignment, ExprId, ExprPool};
use crate::report::{DecidedBy, ErrorSample};
use input_range::FloatInput;

/// What the steps without the solver decided.
pub enum Analysed {
    /// Within the bound on every input of the path.
    Within {
        /// The step that proved it.
        by: DecidedBy,
        /// What it did, in words.
        proof: String,
        /// The largest error (in the tolerance's measure) it proves possible.
        max: f64,
    },
    /// An input exceeds the bound (evaluated by the expression evaluator
    /// and confirmed).
    Exceeds {
        /// The input.
        witness: Assignment,
        /// The step that found it.
        by: DecidedBy,
        /// What it did, in words.
        proof: String,
    },
    /// An input exceeds the bound with some result a libm within its
    /// documented bound may return, not with every one: this machine's
    /// libm (the native replay's) decides.
    MayExceed {
        /// The input (one where this machine's libm exceeds, if any).
        witness: Assignment,
        /// Why the verdict is open.
        why: String,
        /// What the step did, in words.
        proof: String,
        /// The largest error with any conforming libm.
        max: f64,
    },
    /// Not decided; why each step did not apply.
    Open(Vec<String>),
}

/// Runs the steps on one element; what they measure goes to `found` (the
/// worst input, the plotted samples). `exceeded`: sampling already found
/// an excess, so only exhaustive evaluation runs (for the true worst input).
pub fn analyse(
    pool: &ExprPool,
    path: &[ExprId],
    q: &CloseQuestion,
    assumptions: Assumptions,
    found: &mut Sampled,
    exceeded: bool,
) -> Analysed {
    let mut why = Vec::new();
    let slots = float_slots(pool, &[q.got, q.want, q.reference]);
    match slots.as_slice() {
        [s] => {
            let input = FloatInput { array: s.array, offset: s.offset, format: s.format };
            match by_enumeration(pool, path, q, assumptions, input, found) {
                Ok(a) => return a,
                Err(e) => why.push(format!("exhaustive evaluation: {e}")),
            }
        }
        _ => why.push(format!("exhaustive evaluation: the values read {} float inputs, not one", slots.len())),
    }
    if exceeded {
        return Analysed::Open(why);
    }
    match rounding_bounds::prove(pool, path, q) {
        Ok(p) => {
            let refined = if p.used.is_empty() { String::new() } else { format!("; {}", p.used.join("; ")) };
            let proof = format!(
                "rounding-error bounds (each rounding v(1+d), |d| <= u/(1+u), relative and absolute error terms{refined}) on {} box(es) of {}: no error above {:e}",
                p.boxes, p.inputs, p.max
            );
            Analysed::Within { by: DecidedBy::ErrorAnalysis, proof, max: p.max }
        }
        Err(e) => {
            why.push(format!("error analysis: {e}"));
            Analysed::Open(why)
        }
    }
}

fn by_enumeration(
    pool: &ExprPool,
    path: &[ExprId],
    q: &CloseQuestion,
    assumptions: Assumptions,
    input: FloatInput,
    found: &mut Sampled,
) -> Result<Analysed, String> {
    let e = enumerate::enumerate(pool, path, q, input, enumerate::EVALUATION_BUDGET)?;
    let size = pool.arrays().get(input.array as usize).map(|a| a.size as usize).unwrap_or(0);
    let witness = |bits: u128| {
        let mut w = Assignment::default();
        let mut bytes = vec![0u8; size.max((input.offset + input.format.width() / 8) as usize)];
        for k in 0..(input.format.width() / 8) as usize {
            bytes[input.offset as usize + k] = (bits >> (8 * k)) as u8;
        }
        w.arrays.insert(input.array, bytes);
        w
    };
    // The worst input, measured again by the expression evaluator (and the
    // witness rules of confirm.rs): the two evaluations must agree.
    if let Some((x, d)) = e.worst {
        let m = measure(pool, path, q, assumptions, &witness(x)).ok_or("the worst input does not confirm when evaluated again")?;
        if m.distance.measure.to_bits() != d.measure.to_bits() {
            return Err("the evaluator and the exhaustive evaluation disagree on the worst input".into());
        }
        found.samples.retain(|s| s.input.is_nan());
        found.samples.extend(e.plotted.iter().map(|&(input, ulps, error)| ErrorSample { input, ulps, error }));
        found.worst = None;
        record(found, m, q);
    }
    let name = pool.arrays().get(input.array as usize).map(|a| a.name.clone()).unwrap_or_default();
    let mut proof =
        format!("every one of the {} values of {name} in {} evaluated ({} satisfy the path)", e.evaluated, e.range, e.satisfying);
    if !e.libm_calls.is_empty() {
        proof.push_str(&format!(
            ", with {} ({}), every combination of them, this machine's libm among them",
            e.libm_calls.join(" and "),
            crate::check::libm_model::SOURCE
        ));
    }
    if let Some(x) = e.exceeding {
        let w = witness(x);
        let m = measure(pool, path, q, assumptions, &w).ok_or("the exceeding input does not confirm when evaluated again")?;
        if !super::close_encoding::exceeds_concrete(q, m.got, m.want, m.reference, q.tolerance.bound) {
            return Err("the evaluator and the exhaustive evaluation disagree on an exceeding input".into());
        }
        found.exceeding = Some(m);
        return Ok(Analysed::Exceeds { witness: w, by: DecidedBy::Exhaustive, proof });
    }
    if let Some(x) = e.may_exceed {
        let w = witness(x);
        let host = measure(pool, path, q, assumptions, &w)
            .is_some_and(|m| super::close_encoding::exceeds_concrete(q, m.got, m.want, m.reference, q.tolerance.bound));
        let why = if host {
            format!("this machine's libm puts the values beyond the bound at this input, but {LIBM_RESULT} might not")
        } else {
            format!("{LIBM_RESULT} may put the values beyond the bound at this input; this machine's does not")
        };
        return Ok(Analysed::MayExceed { witness: w, why, proof, max: e.model_max });
    }
    Ok(Analysed::Within { by: DecidedBy::Exhaustive, proof, max: e.model_max })
}
