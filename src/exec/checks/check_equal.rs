//! `symcross_check_equal`: the crosscheck itself. Each element pair is
//! decided with the ladder of README, "How a check is decided" (check/); an element that
//! can differ is a `mismatch` finding showing both expressions, the first
//! differing subterm, concrete values under the witness, and which
//! assumption would make the sides equal.

use crate::check::CheckOutcome;
use crate::exec::checks::check_differences::fp_result_format;
use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::ElementType;
use crate::expr::{evaluate, print_pair, Assignment, ExprId};
use crate::ir::Type;
use crate::report::{DecidedBy, DifferingElements, FindingKind, MismatchExprs, NormalForms};
use crate::solver::UnknownKind;

/// Elements wider than this are compared in chunks of this many bytes.
const MAX_CHUNK: u64 = 16;

struct Failure {
    index: u64,
    left: ExprId,
    right: ExprId,
    witness: Option<Assignment>,
    /// The ladder step that found the witness, when it confirms the failure.
    confirmed_by: Option<DecidedBy>,
    /// The step that found an unconfirmed witness (the solver, or sampling
    /// with this CPU's estimates): what the report says decided it.
    found_by: Option<DecidedBy>,
    why: Option<String>,
    /// Why the solver gave no answer, for an element it did not decide.
    gave_up: Option<UnknownKind>,
}

/// The label of a check the solver left undecided: `timeout` only when time
/// ran out (the answer may differ on a faster machine), `solver-unknown`
/// for any other reason (a work budget, an unsupported construct, a model
/// that cannot be trusted, a solver failure, ...).
pub(in crate::exec) fn undecided_by(kind: UnknownKind) -> DecidedBy {
    if kind.is_out_of_time() {
        DecidedBy::Timeout
    } else {
        DecidedBy::SolverUnknown
    }
}

impl<'m> Executor<'m> {
    pub(in crate::exec) fn builtin_check_equal(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let elem = self.concrete_size(state, c.args[2][0], loc, "the element size of symcross_check_equal")?;
        let count = self.concrete_size(state, c.args[3][0], loc, "the element count of symcross_check_equal")?;
        self.note_checks(state, count);
        let what = match c.args.get(4) {
            Some(p) if self.cx.pool.as_const(p[0]) != Some(0) => self.read_c_string(state, p[0], loc)?,
            _ => "values".to_string(),
        };
        // Comparing bytes never written is a use of them (shadow_mem.rs).
        let used = format!("the comparison `{what}` (symcross_check_equal)");
        for side in [c.args[0][0], c.args[1][0]] {
            self.use_bytes(state, side, elem * count, loc, &used)?;
        }
        let chunk = elem.clamp(1, MAX_CHUNK);
        let t = Type::Int((chunk * 8) as u32);
        let mut failures: Vec<Failure> = Vec::new();
        let mut unchecked = 0;
        let mut decided = Vec::new();
        // The buffers' declared element type decides, with the sides, how
        // NaNs compare (expr::element_equality).
        let declared = self.buffer_element(state, c.args[0][0], elem).or_else(|| self.buffer_element(state, c.args[1][0], elem));
        if let Some(tolerance) = self.cx.config.tolerance {
            if let Some(format) = self.float_elements(state, c.args[0][0], elem, declared, loc) {
                let buffers = crate::exec::checks::check_close::CloseBuffers {
                    got: c.args[0][0],
                    want: c.args[1][0],
                    magnitude: None,
                    format,
                    count,
                };
                return self.check_close_elements(state, loc, &what, buffers, tolerance);
            }
        }
        // Proved elements, whose proofs later elements of the same formula
        // reuse by a checked renaming of their inputs.
        let mut lanes = crate::check::LaneSymmetry::default();
        for i in 0..count * elem.div_ceil(chunk) {
            let off = self.cx.pool.constant(64, (i * chunk) as u128);
            let pa = self.cx.pool.add(c.args[0][0], off);
            let pb = self.cx.pool.add(c.args[1][0], off);
            let a = self.load_value(state, pa, &t, loc)?[0];
            let b = self.load_value(state, pb, &t, loc)?[0];
            let index = i * chunk / elem;
            let outcome = if self.cx.config.lane_symmetry && lanes.proved_by_renaming(&self.cx.pool, &state.path, a, b) {
                CheckOutcome::Proved(DecidedBy::LaneSymmetry)
            } else {
                let outcome = self.check_element(state, a, b, declared.filter(|_| chunk == elem));
                if matches!(outcome, CheckOutcome::Proved(_)) {
                    lanes.learn(a, b, &state.path);
                }
                outcome
            };
            tracing::debug!(check = %what, element = index, outcome = outcome_name(&outcome), "check_equal");
            match outcome {
                CheckOutcome::Proved(by) => decided.push(by),
                CheckOutcome::Refuted(m, by) => {
                    // The step that found the difference decided this
                    // element as surely as a proof would have.
                    decided.push(by);
                    failures.push(Failure {
                        index,
                        left: a,
                        right: b,
                        witness: Some(m),
                        confirmed_by: Some(by),
                        found_by: Some(by),
                        why: None,
                        gave_up: None,
                    });
                    // One confirmed difference decides the check; the
                    // remaining elements would only cost solver time.
                    unchecked = count * elem.div_ceil(chunk) - i - 1;
                    break;
                }
                CheckOutcome::Suspected(m, why, by) => {
                    decided.push(by);
                    // A witness through estimates that are this CPU's own
                    // is one the native replay runs exactly as the model
                    // did: like a refutation, it decides the check, and
                    // the other elements would only cost solver time
                    // (the replay still confirms it or not).
                    let mut roots = vec![a, b];
                    roots.extend_from_slice(&state.path);
                    let replayable = !m.fresh.is_empty() && crate::check::uses_this_cpus_estimates(&self.cx.pool, &roots, &m);
                    failures.push(Failure {
                        index,
                        left: a,
                        right: b,
                        witness: Some(m),
                        confirmed_by: None,
                        found_by: Some(by),
                        why: Some(why),
                        gave_up: None,
                    });
                    if replayable {
                        unchecked = count * elem.div_ceil(chunk) - i - 1;
                        break;
                    }
                }
                CheckOutcome::Unknown(why) => failures.push(Failure {
                    index,
                    left: a,
                    right: b,
                    witness: None,
                    confirmed_by: None,
                    found_by: None,
                    gave_up: Some(why.kind),
                    why: Some(why.detail),
                }),
            }
        }
        self.log.check_stats.record(&decided);
        let Some(first) =
            failures.iter().find(|f| f.confirmed_by.is_some()).or(failures.iter().find(|f| f.witness.is_some())).or(failures.first())
        else {
            return Ok(None);
        };
        let indices: Vec<String> =
            failures.iter().map(|f| f.index.to_string()).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
        let shape = CheckedBuffers { left: c.args[0][0], right: c.args[1][0], elem, count };
        let mut exprs = self.mismatch_exprs(state, first.left, first.right, first.witness.as_ref(), shape);
        exprs.element = Some(first.index);
        let whole = declared.filter(|_| chunk == elem);
        exprs.nans_equal =
            Some(crate::exec::checks::nan_equality::compares_nans_equal(&self.cx.pool, self.cx.config.nan, whole, first.left, first.right));
        let mut msg = if unchecked > 0 {
            format!("{what}: element {} of {count} can differ (the elements after it were not checked)", first.index)
        } else {
            format!("{what}: element {} of {count} can differ ({} of {count} elements can)", first.index, indices.len())
        };
        if let Some(why) = &first.why {
            let texture = first.witness.as_ref().filter(|_| why.contains(crate::check::confirm::APPROXIMATE_RESULT)).and_then(|w| {
                let mut roots = vec![first.left, first.right];
                roots.extend_from_slice(&state.path);
                self.texture_read_through(&roots, w)
            });
            msg.push_str(&format!("; not confirmed: {}", texture.as_deref().unwrap_or(why)));
        }
        let decided_by = match (first.confirmed_by, first.witness.is_some(), first.gave_up) {
            (Some(by), _, _) => by,
            (None, false, Some(kind)) => undecided_by(kind),
            (None, _, _) => first.found_by.unwrap_or(DecidedBy::BitPrecise),
        };
        let confirmed = first.confirmed_by.is_some();
        let witness = first.witness.clone();
        if let Some(f) = self.report(state, FindingKind::Mismatch, loc, msg, witness.as_ref(), Some(decided_by)) {
            f.expressions = Some(exprs);
            if !confirmed {
                // A suspected witness is shown (it is how the sides differ in
                // IEEE arithmetic) but proves nothing under the assumptions.
                f.status = crate::report::Status::Unconfirmed;
                if witness.is_none() {
                    f.witness = None;
                }
            }
        }
        Err(Step::Terminated)
    }

    /// Decides one element. Under `--nan equal` a float element whose two
    /// sides are both NaN holds whatever the NaN bits (nan_equality.rs);
    /// the bit-exact question is asked first, so a proof costs nothing
    /// more, and a witness that still differs when NaNs compare equal
    /// stands (whichever step found it); only a difference of NaN bits
    /// alone is asked again.
    fn check_element(&mut self, state: &State, a: ExprId, b: ExprId, declared: Option<ElementType>) -> CheckOutcome {
        let outcome = self.cx.decider.check_equal(&mut self.cx.pool, &state.path, a, b);
        if matches!(outcome, CheckOutcome::Proved(_)) {
            return outcome;
        }
        let model = self.cx.config.nan;
        match crate::exec::checks::nan_equality::nan_blind_sides(&mut self.cx.pool, model, declared, a, b) {
            Some((na, nb)) => {
                let witness = match &outcome {
                    CheckOutcome::Refuted(m, _) | CheckOutcome::Suspected(m, ..) => Some(m),
                    CheckOutcome::Proved(_) | CheckOutcome::Unknown(_) => None,
                };
                if witness.is_some_and(|m| evaluate(&self.cx.pool, na, m) != evaluate(&self.cx.pool, nb, m)) {
                    return outcome;
                }
                self.cx.decider.check_equal(&mut self.cx.pool, &state.path, na, nb)
            }
            None => outcome,
        }
    }

    /// The float format of a check's elements, when they are float or
    /// double: by the buffers' declared type, else by what the first
    /// element computes (`--tolerance` applies to float elements only).
    fn float_elements(
        &mut self,
        state: &mut State,
        left: ExprId,
        elem: u64,
        declared: Option<ElementType>,
        loc: crate::ir::Loc,
    ) -> Option<crate::expr::FpFormat> {
        let format = match elem {
            4 => crate::expr::FpFormat::Single,
            8 => crate::expr::FpFormat::Double,
            _ => return None,
        };
        match declared {
            Some(ElementType::Float(f)) => return (f == format).then_some(format),
            Some(_) => return None,
            None => {}
        }
        let first = self.load_value(state, left, &Type::Int(format.width()), loc).ok()?[0];
        (fp_result_format(&self.cx.pool, first) == Some(format)).then_some(format)
    }

    fn mismatch_exprs(
        &mut self,
        state: &State,
        a: ExprId,
        b: ExprId,
        witness: Option<&Assignment>,
        shape: CheckedBuffers,
    ) -> MismatchExprs {
        let (definitions, left, right) = print_pair(&self.cx.pool, a, b);
        let w = self.cx.pool.width(a);
        // Read the values as the buffers' type when it is known, else as
        // the kind of value the element computes; a chunk of a wide
        // element, or bytes of no known type, as an integer.
        let known = self
            .buffer_element(state, shape.left, shape.elem)
            .or_else(|| fp_result_format(&self.cx.pool, a).or_else(|| fp_result_format(&self.cx.pool, b)).map(ElementType::Float))
            .filter(|t| t.size() * 8 == w);
        // Bytes of no known type (a heap buffer read as it was written)
        // show their bits beside the integer reading.
        let guessed = matches!(w, 8 | 16 | 32 | 64 | 128).then_some(ElementType::Int(w / 8)).filter(|_| known.is_none());
        let element = known.or(guessed);
        let show = |v: u128| {
            let hex = format!("0x{:0width$x}", v, width = (w as usize).div_ceil(4));
            match (known, guessed) {
                (Some(t), _) => t.show_bits(v),
                (None, Some(t)) if !t.show_bits(v).contains(&hex) => format!("{hex} ({})", t.show_bits(v)),
                (None, Some(t)) => t.show_bits(v),
                (None, None) => hex,
            }
        };
        let left_value = witness.map(|m| show(evaluate(&self.cx.pool, a, m)));
        let right_value = witness.map(|m| show(evaluate(&self.cx.pool, b, m)));
        let equal_under = self.cx.decider.equal_under(&mut self.cx.pool, a, b).map(|s| s.names());
        let differing = match (witness, element) {
            (Some(m), Some(t)) if t.size() as u64 == shape.elem => self
                .differing_elements(state, shape.left, shape.right, shape.elem, shape.count, t, m)
                .map(|(count, elements)| DifferingElements { count, elements }),
            _ => None,
        };
        let normal_forms = if witness.is_none() { self.undecided_normal_forms(&state.path, a, b) } else { None };
        MismatchExprs {
            definitions,
            left,
            right,
            left_value,
            right_value,
            equal_under,
            element_type: element.map(|t| t.name()),
            element: None,
            nans_equal: None,
            differing,
            condition: None,
            normal_forms,
        }
    }

    /// Both sides of an integer check that no step decided, in the
    /// integer normal form the ladder compared (canon/int_normal.rs), when
    /// they still differ there: what no rule made meet, the place to look
    /// first for a missing rule.
    fn undecided_normal_forms(&mut self, path: &[ExprId], a: ExprId, b: ExprId) -> Option<NormalForms> {
        let pool = &mut self.cx.pool;
        if pool.mentions_fp(a) || pool.mentions_fp(b) {
            return None;
        }
        let mut normalizer = crate::canon::IntNormalizer::for_path(pool, path);
        let (na, nb) = (normalizer.normalize(pool, a), normalizer.normalize(pool, b));
        if na == nb {
            return None;
        }
        let (definitions, left, right) = print_pair(pool, na, nb);
        Some(NormalForms { definitions, left, right })
    }
}

fn outcome_name(o: &CheckOutcome) -> String {
    match o {
        CheckOutcome::Proved(by) => format!("proved by {by:?}"),
        CheckOutcome::Refuted(_, by) => format!("refuted by {by:?}"),
        CheckOutcome::Suspected(_, why, by) => format!("suspected by {by:?} ({why})"),
        CheckOutcome::Unknown(why) => format!("unknown ({why})"),
    }
}

/// The two buffers a `symcross_check_equal` compares.
#[derive(Copy, Clone)]
struct CheckedBuffers {
    left: ExprId,
    right: ExprId,
    elem: u64,
    count: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_undecided_check_is_labelled_timeout_only_when_time_ran_out() {
        assert_eq!(undecided_by(UnknownKind::Timeout), DecidedBy::Timeout);
        assert_eq!(undecided_by(UnknownKind::Deadline), DecidedBy::Timeout);
        for kind in [
            UnknownKind::ResourceLimit,
            UnknownKind::CpuBudget,
            UnknownKind::MemoryLimit,
            UnknownKind::Interrupted,
            UnknownKind::Unsupported,
            UnknownKind::UnusableModel,
            UnknownKind::SolverError,
        ] {
            assert_eq!(undecided_by(kind), DecidedBy::SolverUnknown, "{kind:?}");
        }
        // The name reports carry (README, JSON report).
        assert_eq!(serde_json::to_string(&DecidedBy::SolverUnknown).unwrap(), "\"solver-unknown\"");
    }
}
