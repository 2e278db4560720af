//! Deciding a tolerance check: is `got` within the tolerance of `want` on
//! every input of the path? Samples first (they also start the search for
//! the worst input), then the steps without the solver (exhaustive
//! evaluation of one input, rounding-error bounds: `error_analysis/`),
//! then the bit-precise solver on the question of `close_encoding.rs`,
//! then the solver-guided search for the largest error (`worst_input.rs`),
//! whatever the verdict.

use super::close_encoding::{exceeds, exceeds_concrete, CloseQuestion};
use super::confirm::APPROXIMATE_RESULT;
use super::error_analysis::{analyse, Analysed};
use super::estimate_bound::EstimateAnswer;
use super::libm_model::LIBM_RESULT;
use super::worst_input::{between, climb, measure, met, sample, Measured, Sampled, CLIMB_EVALUATIONS, MAX_RAISE_QUERIES};
use super::{Decider, Feasibility};
use crate::config::ToleranceKind;
use crate::expr::{Assignment, ExprId, ExprPool};
use crate::report::{DecidedBy, ErrorSample};
use crate::solver::{Unknown, UnknownKind};

/// What an estimate-bound proof used, in words.
const ESTIMATE_BOUND_PROOF: &str = "estimate bound: each RCP/RSQRT estimate is the exact value times (1 + e v), |v| <= 1, e its documented bound (Intel: 1.5*2^-12; FRECPE/FRSQRTE: their table's), v kept as a variable so that errors cancel as they do (a Newton step squares e); each rounding adds u|value| + half the smallest subnormal; intervals in double rounded outwards";

/// Concrete inputs tried per element before the solver.
const CLOSE_SAMPLES: u32 = 384;

/// The verdict of one element for the tolerance's bound.
#[derive(Clone, Debug)]
pub enum CloseVerdict {
    /// Within the bound on every input of the path; the step that proved it.
    Within(DecidedBy),
    /// The input puts the values beyond the bound; the step that found it.
    Exceeds(Assignment, DecidedBy),
    /// The solver's input exceeds the bound in IEEE arithmetic, but runs
    /// through a choice the model leaves open; the string says why.
    Suspected(Assignment, String, DecidedBy),
    /// Not decided.
    Unknown(Unknown),
}

/// The answer for one element: the verdict, and the worst input found.
pub struct CloseAnswer {
    /// The verdict for the bound.
    pub verdict: CloseVerdict,
    /// The input with the largest error found.
    pub worst: Option<Measured>,
    /// An upper bound of the error proved by the solver.
    pub proved_max: Option<f64>,
    /// The inputs tried, for the plot.
    pub samples: Vec<ErrorSample>,
    /// Why the search for the worst input stopped short.
    pub search_note: Option<String>,
    /// How a step without the solver decided (what it evaluated, the bound
    /// it used), or why none applied when the solver did not decide.
    pub proof: Option<String>,
}

impl Decider {
    /// Decides one element of a tolerance check on `path`.
    pub fn decide_close(&mut self, pool: &mut ExprPool, path: &[ExprId], q: &CloseQuestion) -> CloseAnswer {
        let bound = q.tolerance.bound;
        // An input that satisfies the path seeds the samples near it (a
        // harness that assumes a range is sampled inside the range).
        let mut seeds = Vec::new();
        if !path.is_empty() {
            let yes = pool.bool_const(true);
            if let Feasibility::Sat(m) = self.backend.check(pool, path, yes) {
                seeds.push(m);
            }
        }
        let mut found: Sampled = sample(pool, path, q, self.assumptions, CLOSE_SAMPLES, self.seed, &seeds);
        let same = pool.eq(q.got, q.want);
        let identical = q.got == q.want || pool.as_const(same) == Some(1);
        let mut proof = None;
        let mut analysed_max = None;
        let mut verdict = if identical {
            CloseVerdict::Within(DecidedBy::Structural)
        } else if found.exceeding.is_some() {
            // Exhaustive evaluation, where it applies, still finds the true
            // worst input; the sampled excess decides otherwise.
            match analyse(pool, path, q, self.assumptions, &mut found, true) {
                Analysed::Exceeds { witness, by, proof: p } => {
                    proof = Some(p);
                    CloseVerdict::Exceeds(witness, by)
                }
                Analysed::MayExceed { witness, why, proof: p, max } => {
                    proof = Some(p);
                    analysed_max = Some(max);
                    CloseVerdict::Suspected(witness, why, DecidedBy::Exhaustive)
                }
                _ => sampled_excess(found.exceeding.as_ref().expect("checked above")),
            }
        } else {
            match analyse(pool, path, q, self.assumptions, &mut found, false) {
                Analysed::Within { by, proof: p, max } => {
                    proof = Some(p);
                    analysed_max = Some(max);
                    CloseVerdict::Within(by)
                }
                Analysed::Exceeds { witness, by, proof: p } => {
                    proof = Some(p);
                    CloseVerdict::Exceeds(witness, by)
                }
                Analysed::MayExceed { witness, why, proof: p, max } => {
                    proof = Some(p);
                    analysed_max = Some(max);
                    CloseVerdict::Suspected(witness, why, DecidedBy::Exhaustive)
                }
                Analysed::Open(why) => {
                    let verdict = self.decide_close_by_solver(pool, path, q, &mut found);
                    if matches!(verdict, CloseVerdict::Unknown(_) | CloseVerdict::Suspected(..)) && !why.is_empty() {
                        proof = Some(format!("not decided without the solver: {}", why.join("; ")));
                    }
                    verdict
                }
            }
        };
        // Undecided: a local search from the worst sampled input may still
        // find an excess (then it decides), else it gives the largest
        // error found.
        let mut searched = None;
        if matches!(verdict, CloseVerdict::Unknown(_)) {
            searched = Some(self.search_locally(pool, path, q, &mut found));
            if let Some(m) = &found.exceeding {
                verdict = sampled_excess(m);
            }
        }
        let (proved_max, search_note) = match &verdict {
            CloseVerdict::Within(DecidedBy::Structural) => (Some(0.0), None),
            // Exhaustive evaluation measured every input: its largest error
            // is the exact maximum, nothing is left to search.
            CloseVerdict::Within(DecidedBy::Exhaustive) => (analysed_max, None),
            CloseVerdict::Exceeds(_, DecidedBy::Exhaustive) => (found.worst.as_ref().map(|w| w.distance.measure), None),
            // The bound is proved for every conforming estimate. The
            // worst input is searched for with this CPU's estimates
            // (locally around the worst sampled input), then the analysis
            // itself, not the solver, is asked for tighter bounds: on
            // every estimate harness the solver's first query over an
            // estimate ran out of its work budget, costing seconds per
            // element for nothing.
            CloseVerdict::Within(DecidedBy::EstimateBound) => {
                proof = Some(ESTIMATE_BOUND_PROOF.to_string());
                let how = self.search_locally(pool, path, q, &mut found);
                let (max, asked) = self.tightest_estimate_bound(pool, path, q, &found);
                (
                    Some(max),
                    Some(format!(
                        "the estimate-bound analysis proves no error above {max:e} for every conforming estimate (the tightest of {asked} bounds asked of it); errors are measured with this CPU's estimates: {how}"
                    )),
                )
            }
            CloseVerdict::Within(DecidedBy::ErrorAnalysis) => {
                // The bound is proved; the solver would time out on what
                // the analysis answered, so a local search from the worst
                // sampled input looks for larger errors below it.
                let how = self.search_locally(pool, path, q, &mut found);
                (analysed_max, Some(format!("error analysis bounds the error from above; {how}")))
            }
            CloseVerdict::Within(_) => {
                let r = self.raise_worst(pool, path, q, &mut found, Some(bound));
                (r.proved_max, r.note)
            }
            CloseVerdict::Exceeds(..) => {
                let r = self.raise_worst(pool, path, q, &mut found, None);
                (r.proved_max, r.note)
            }
            // Every input was evaluated with every conforming libm result:
            // the largest error is the model's exact maximum.
            CloseVerdict::Suspected(_, _, DecidedBy::Exhaustive) => (
                analysed_max,
                Some("every input evaluated; the worst input is this machine's libm's, the bound the largest error any conforming libm gives".to_string()),
            ),
            // This CPU's estimates exceed: the largest error this CPU
            // shows is searched for around the worst input found.
            CloseVerdict::Suspected(_, _, DecidedBy::CpuEstimates) => {
                let how = self.search_locally(pool, path, q, &mut found);
                (
                    None,
                    Some(format!("an input tried exceeds the bound with this CPU's estimates; whether every conforming CPU's do was not decided; {how}")),
                )
            }
            CloseVerdict::Suspected(_, _, DecidedBy::Sampling) if found.exceeding.as_ref().is_some_and(|m| m.through_libm) => {
                (None, Some(format!("an input tried exceeds the bound with this machine's libm; whether every {} does was not decided", &LIBM_RESULT[2..])))
            }
            CloseVerdict::Suspected(..) => {
                (None, Some("the solver did not decide the bound, so no larger error was searched for".to_string()))
            }
            CloseVerdict::Unknown(_) => {
                let how = searched.unwrap_or_default();
                (None, Some(format!("the solver did not decide the bound, so it searched no larger error; {how}")))
            }
        };
        CloseAnswer { verdict, worst: found.worst, proved_max, samples: found.samples, search_note, proof }
    }

    /// The local search for a larger error (`climb`), and what it did in
    /// words.
    fn search_locally(&mut self, pool: &ExprPool, path: &[ExprId], q: &CloseQuestion, found: &mut Sampled) -> String {
        if found.worst.is_none() {
            return "no input satisfying the path was found to search from".to_string();
        }
        let improved = climb(pool, path, q, self.assumptions, found, CLIMB_EVALUATIONS, self.seed);
        if improved == 0 {
            format!(
                "the largest error found is from sampling; a local search ({CLIMB_EVALUATIONS} evaluations around it) found none larger"
            )
        } else {
            format!("the largest error found is from a local search ({CLIMB_EVALUATIONS} evaluations around the worst sampled input, {improved} moves made the error larger)")
        }
    }

    /// The smallest bound the estimate-bound analysis proves, between the
    /// largest error found and the tolerance's bound, by halving the gap
    /// as the solver-guided raise does (at most `MAX_RAISE_QUERIES`
    /// analyses); with the number of analyses asked.
    fn tightest_estimate_bound(&self, pool: &mut ExprPool, path: &[ExprId], q: &CloseQuestion, found: &Sampled) -> (f64, u32) {
        let ulps = q.tolerance.kind == ToleranceKind::Ulp;
        let mut hi = q.tolerance.bound;
        let mut lo = found.worst.as_ref().map(|w| w.distance.measure).filter(|m| m.is_finite()).unwrap_or(0.0);
        let mut asked = 0;
        while asked < MAX_RAISE_QUERIES && !met(lo, hi, ulps) {
            let target = between(lo, hi, ulps);
            if target <= lo || target >= hi {
                break;
            }
            asked += 1;
            let goal = exceeds(pool, q, target);
            if super::estimate_bound::never(pool, path, goal, self.assumptions) {
                hi = target;
            } else {
                // Not proved, which is not an error found: the bisection
                // only moves on above it.
                lo = target;
            }
        }
        (hi, asked)
    }

    /// The bit-precise query "can the values exceed the bound?".
    fn decide_close_by_solver(&mut self, pool: &mut ExprPool, path: &[ExprId], q: &CloseQuestion, found: &mut Sampled) -> CloseVerdict {
        let goal = exceeds(pool, q, q.tolerance.bound);
        // Values over RCP/RSQRT estimates: their documented bound decides
        // first (estimate_bound.rs).
        let (answer, step) = match pool.as_const(goal) {
            Some(0) => (Feasibility::Unsat, DecidedBy::Structural),
            _ => match super::estimate_bound::decide(pool, path, goal, self.assumptions, self.seed) {
                EstimateAnswer::Never => (Feasibility::Unsat, DecidedBy::EstimateBound),
                EstimateAnswer::Witness(m) => (Feasibility::Sat(m), DecidedBy::Sampling),
                EstimateAnswer::Open => (self.backend.check(pool, path, goal), DecidedBy::BitPrecise),
            },
        };
        match pool.as_const(goal) {
            Some(0) => CloseVerdict::Within(DecidedBy::Structural),
            _ => match answer {
                Feasibility::Unsat => CloseVerdict::Within(step),
                Feasibility::Sat(m) => match measure(pool, path, q, self.assumptions, &m) {
                    // The solver chose the libm call's result freely; this
                    // machine's libm does not exceed there.
                    // The witness exceeds with estimates of its own choice
                    // (the ends Intel's bound admits), not this CPU's: an
                    // excess only some conforming CPU shows.
                    Some(measured)
                        if measured.through_estimate
                            && !exceeds_concrete(q, measured.got, measured.want, measured.reference, q.tolerance.bound) =>
                    {
                        super::worst_input::record(found, measured, q);
                        let mut roots = q.roots().to_vec();
                        roots.extend_from_slice(path);
                        let why = self.unconfirmed_because(pool, &roots, &m).unwrap_or_else(|| {
                            format!("the values run through {APPROXIMATE_RESULT}, whose choice here this CPU does not make")
                        });
                        CloseVerdict::Suspected(m, why, step)
                    }
                    Some(measured)
                        if measured.through_libm
                            && !exceeds_concrete(q, measured.got, measured.want, measured.reference, q.tolerance.bound) =>
                    {
                        CloseVerdict::Unknown(Unknown::new(
                            UnknownKind::UnusableModel,
                            "the solver's input exceeds the bound only with a libm result of its own choice, not this machine's",
                        ))
                    }
                    Some(measured) if measured.through_libm || measured.through_estimate => {
                        let verdict = sampled_excess(&measured);
                        super::worst_input::record(found, measured, q);
                        verdict
                    }
                    Some(measured) => {
                        super::worst_input::record(found, measured, q);
                        CloseVerdict::Exceeds(m, step)
                    }
                    None => {
                        let mut roots = q.roots().to_vec();
                        roots.extend_from_slice(path);
                        let why = self
                            .unconfirmed_because(pool, &roots, &m)
                            .unwrap_or_else(|| "the values do not exceed the bound when evaluated on the solver's input".into());
                        CloseVerdict::Suspected(m, why, step)
                    }
                },
                Feasibility::Unknown(why) => CloseVerdict::Unknown(why),
            },
        }
    }
}

/// The verdict of an excess found on a concrete input: `exceeds`, unless
/// the values call a modelled libm function, whose result this machine's
/// libm gave, or read an RCPPS/RSQRTPS estimate, which this CPU gave: then
/// `may-exceed` (a libm within its documented bound, or another
/// conforming CPU, might not exceed), which the native replay settles on
/// this machine. An excess through estimates is labelled as found with
/// this CPU's estimates, as an equivalence check's difference is: the
/// witness holds for this CPU only.
fn sampled_excess(m: &Measured) -> CloseVerdict {
    if m.through_estimate {
        CloseVerdict::Suspected(
            m.witness.clone(),
            format!(
                "the values run through {APPROXIMATE_RESULT}: with this CPU's estimates they exceed the bound at this input, with another conforming CPU's they might not"
            ),
            DecidedBy::CpuEstimates,
        )
    } else if m.through_libm {
        CloseVerdict::Suspected(
            m.witness.clone(),
            format!("this machine's libm puts the values beyond the bound at this input, but {LIBM_RESULT} might not"),
            DecidedBy::Sampling,
        )
    } else {
        CloseVerdict::Exceeds(m.witness.clone(), DecidedBy::Sampling)
    }
}
