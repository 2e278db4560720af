//! Deciding questions about a path: is a branch side feasible, can a check
//! fail. Implements the ladder of README, How a check is decided: structural identity,
//! then (under `associativity`) the reassociation normal form and the
//! e-graph, then sampling on concrete inputs, then the bit-precise solver;
//! says which step decided, and whether a witness confirms the failure in
//! the semantics the user chose (`confirm.rs`).

mod branch_ladder;
pub mod close_encoding;
pub mod confirm;
mod cpu_estimates;
mod element_conditions;
pub mod error_analysis;
mod error_terms;
mod estimate_bound;
mod guarded_elements;
mod lane_symmetry;
pub mod libm_model;
mod sampling;
mod sweep;
#[cfg(test)]
mod test_support;
mod tolerance;
pub mod worst_input;

pub use lane_symmetry::LaneSymmetry;

/// Whether every estimate `roots` read under `w` has this CPU's value
/// there: the native replay then computes what the model computed.
pub fn uses_this_cpus_estimates(pool: &ExprPool, roots: &[ExprId], w: &Assignment) -> bool {
    let mut mine = w.clone();
    cpu_estimates::fill_with_this_cpus(pool, roots, &mut mine).is_some_and(|set| set.iter().all(|f| mine.fresh.get(f) == w.fresh.get(f)))
}

use crate::assumptions::{Assumption, Assumptions};
use crate::expr::{Assignment, Expr, ExprId, ExprPool};
use crate::report::DecidedBy;
use crate::solver::Unknown;
pub use tolerance::{CloseAnswer, CloseVerdict};

/// Answer of a satisfiability question.
#[derive(Clone, Debug)]
pub enum Feasibility {
    /// Satisfiable; the assignment is a witness.
    Sat(Assignment),
    /// No assignment satisfies it.
    Unsat,
    /// The solver gave up; the reason says why (timeout, work budget,
    /// unsupported construct, ...).
    Unknown(Unknown),
}

/// A satisfiability backend: the solver stack, seen from the executor.
pub trait Backend {
    /// Is `path /\ goal` satisfiable?
    fn check(&mut self, pool: &ExprPool, path: &[ExprId], goal: ExprId) -> Feasibility;
    /// Is `path /\ goal` satisfiable, decided within `units` of the
    /// solver's deterministic work budget (Unknown when they run out)? A
    /// backend without such a budget answers as `check` does.
    fn check_budgeted(&mut self, pool: &ExprPool, path: &[ExprId], goal: ExprId, units: u32) -> Feasibility {
        let _ = units;
        self.check(pool, path, goal)
    }
    /// Number of queries that reached a solver.
    fn queries(&self) -> u64;
    /// Whether the run's `--max-time` refused or cut short a query.
    fn deadline_hit(&self) -> bool {
        false
    }
    /// Whether the run should stop now (a signal, or the run's time is
    /// up): steps that do much work between queries (sweeping) ask it
    /// between their pieces of work.
    fn stop_requested(&self) -> bool {
        crate::process::interrupt::requested()
    }
}

/// Step 2 of the ladder: proving two expressions equal by rewriting.
pub trait Canonicalizer {
    /// Whether `a` and `b` are proved equal under the enabled assumptions
    /// (false: not proved, which is not a refutation).
    fn prove_equal(&mut self, pool: &ExprPool, a: ExprId, b: ExprId) -> bool;
    /// The smallest set of assumptions (beyond the enabled ones) under which
    /// `a` and `b` are proved equal, if any.
    fn equal_under(&mut self, pool: &ExprPool, a: ExprId, b: ExprId) -> Option<Assumptions>;
}

/// Outcome of checking that `a == b` holds on a path.
#[derive(Clone, Debug)]
pub enum CheckOutcome {
    /// Proved for every input of the path; the step that proved it.
    Proved(DecidedBy),
    /// The check fails for this witness in the semantics the user chose;
    /// the step that found it (sampling or the solver).
    Refuted(Assignment, DecidedBy),
    /// The witness makes the sides differ in IEEE arithmetic, but that is
    /// not a refutation under the user's semantics (it may vanish under
    /// reassociation, or runs through an approximate operation); the string
    /// says why; the step that found the witness (the solver, or sampling
    /// with this CPU's estimates), which the report names.
    Suspected(Assignment, String, DecidedBy),
    /// Not decided; the reason says why.
    Unknown(Unknown),
}

/// Decides branch feasibility and checks for the executor: the ladder of
/// steps (README, How a check is decided) over a solver backend.
pub struct Decider {
    /// The solver stack.
    pub backend: Box<dyn Backend>,
    /// The rewriting step (`None` when the e-graph is turned off).
    pub canon: Option<Box<dyn Canonicalizer>>,
    /// The user's assumptions: they decide what a witness proves.
    pub assumptions: Assumptions,
    /// Concrete samples tried before the solver (0: none).
    pub sample_trials: u32,
    /// Seed of the sampled inputs.
    pub seed: u64,
    /// Equivalence sweeping of integer checks (sweep.rs), kept across checks.
    sweeper: sweep::Sweeper,
    /// The run's `--max-memory` ceiling, which the backend's solvers watch
    /// and trip (none by default): a tripped ceiling ends the run with the
    /// memory limit instead of reading the cut-short query as an answer.
    pub memory_ceiling: crate::process::memory_ceiling::MemoryCeiling,
    /// The ladder step that decided the last `decide_branch` (none when
    /// nothing did).
    pub last_branch_step: Option<DecidedBy>,
    /// How many case splits (canon/case_split.rs) the check being decided
    /// is inside.
    split_depth: u32,
    /// Subterm pairs canon/byte_tables.rs evaluated, kept across checks.
    byte_tables: crate::canon::byte_tables::Proved,
    /// The solver's answers about select conditions on the current path,
    /// kept across the elements of a check (guarded_elements.rs).
    guard_answers: guarded_elements::GuardAnswers,
}

impl Decider {
    /// A decider with no assumptions and no sampling.
    pub fn new(backend: Box<dyn Backend>, canon: Option<Box<dyn Canonicalizer>>) -> Self {
        Decider {
            backend,
            canon,
            assumptions: Assumptions::default(),
            sample_trials: 0,
            seed: 0,
            sweeper: sweep::Sweeper::new(0),
            memory_ceiling: Default::default(),
            last_branch_step: None,
            split_depth: 0,
            byte_tables: Default::default(),
            guard_answers: Default::default(),
        }
    }

    /// Witnesses are judged under `assumptions`; `trials` samples are tried
    /// before the solver.
    pub fn with_semantics(mut self, assumptions: Assumptions, trials: u32, seed: u64) -> Self {
        self.assumptions = assumptions;
        self.sample_trials = trials;
        self.seed = seed;
        self.sweeper = sweep::Sweeper::new(seed);
        self
    }

    /// Why `witness` does not confirm a failure that `roots` (the compared
    /// values and the path) exhibit; `None` when it does.
    pub fn unconfirmed_because(&self, pool: &ExprPool, roots: &[ExprId], witness: &Assignment) -> Option<String> {
        confirm::unconfirmed_because(pool, self.assumptions, roots, witness)
    }

    /// Why `witness` does not show that `path` is taken under the user's
    /// assumptions (a solver model knows one grouping of each sum only).
    pub fn path_unconfirmed_because(&self, pool: &ExprPool, path: &[ExprId], witness: &Assignment) -> Option<String> {
        if let Some(why) = confirm::path_runs_through_approximation(pool, path, witness) {
            return Some(why);
        }
        if !self.assumptions.any() {
            return None;
        }
        confirm::unconfirmed_under_assumptions(pool, self.assumptions, path, witness)
    }

    /// Is `path /\ cond` satisfiable? Equalities that the e-graph proves
    /// cannot be false, so their negation is answered without a solver.
    pub fn feasible(&mut self, pool: &ExprPool, path: &[ExprId], cond: ExprId) -> Feasibility {
        match pool.as_const(cond) {
            Some(0) => return Feasibility::Unsat,
            Some(_) if path.is_empty() => return Feasibility::Sat(Assignment::default()),
            _ => {}
        }
        if let Some((a, b)) = negated_equality(pool, cond).filter(|(a, b)| pool.mentions_fp(*a) || pool.mentions_fp(*b)) {
            if let Some(c) = self.canon.as_mut() {
                if c.prove_equal(pool, a, b) {
                    tracing::trace!("branch side infeasible: the e-graph proves its equality");
                    return Feasibility::Unsat;
                }
            }
        }
        self.backend.check(pool, path, cond)
    }

    /// Can `a != b` on this path? The ladder of README, How a check is decided; with
    /// `--log debug` each check is logged with the step that decided it
    /// and its time (sizes only: sides can have millions of nodes).
    pub fn check_equal(&mut self, pool: &mut ExprPool, path: &[ExprId], a: ExprId, b: ExprId) -> CheckOutcome {
        let started = std::time::Instant::now();
        let outcome = self.climb_ladder(pool, path, a, b);
        tracing::debug!(
            step = ladder_step(&outcome),
            outcome = outcome_kind(&outcome),
            side_nodes = dag_size(pool, &[a, b], LOGGED_SIZE_CAP),
            path_constraints = path.len(),
            seconds = started.elapsed().as_secs_f64(),
            "check decided"
        );
        outcome
    }

    /// The steps of the ladder in order, up to the first that decides.
    fn climb_ladder(&mut self, pool: &mut ExprPool, path: &[ExprId], a: ExprId, b: ExprId) -> CheckOutcome {
        if a == b {
            return CheckOutcome::Proved(DecidedBy::Structural);
        }
        let eq = pool.eq(a, b);
        if pool.as_const(eq) == Some(1) {
            return CheckOutcome::Proved(DecidedBy::Structural);
        }
        // Under `associativity` both sides are first put in reassociation
        // normal form; the e-graph then works on the smaller problem.
        let (na, nb) = match crate::canon::Reassociator::new(self.assumptions).filter(|_| self.canon.is_some()) {
            Some(mut r) => (r.normalize(pool, a), r.normalize(pool, b)),
            None => (a, b),
        };
        if na == nb {
            tracing::trace!("ladder: equal in reassociation normal form");
            return CheckOutcome::Proved(DecidedBy::Canonical);
        }
        // Concrete samples first: a real difference is usually found at
        // once, where the e-graph would spend its whole budget on sides that
        // are not equal.
        if pool.mentions_fp(a) || pool.mentions_fp(b) {
            // A sample only refutes when its values are ones the CPU can
            // produce: not through an approximate operation's fresh value.
            let mut roots = vec![a, b];
            roots.extend_from_slice(path);
            let swept = self.sweeper.find_difference(pool, path, a, b).filter(|w| self.unconfirmed_because(pool, &roots, w).is_none());
            let sampled = match swept {
                Some(w) => Some(w),
                None => sampling::find_difference(pool, path, a, b, self.assumptions, self.sample_trials, self.seed),
            };
            if let Some(w) = sampled {
                return CheckOutcome::Refuted(w, DecidedBy::Sampling);
            }
            // Through an RCPPS/RSQRTPS estimate no sample refutes, and the
            // solver must search the estimates as well as the inputs (the
            // SSE2 pulse search of Opus's PVQ: every score runs through
            // RSQRTPS, and each query timed out). A sample with this CPU's
            // estimates is a witness the native replay runs as is: it is
            // reported unconfirmed, and confirmed only if the CPU agrees.
            let cpu = sampling::find_difference_with_this_cpus_estimates(pool, path, a, b, self.assumptions, self.sample_trials, self.seed);
            if let Some(w) = cpu {
                return match self.unconfirmed_because(pool, &roots, &w) {
                    None => CheckOutcome::Refuted(w, DecidedBy::Sampling),
                    Some(why) => CheckOutcome::Suspected(w, why, DecidedBy::CpuEstimates),
                };
            }
        }
        if let Some(c) = self.canon.as_mut() {
            if c.prove_equal(pool, na, nb) {
                tracing::trace!("ladder: proved by the e-graph");
                return CheckOutcome::Proved(DecidedBy::Canonical);
            }
        }
        let mut differ = pool.not(eq);
        // Integer checks: a first solver attempt with a small work budget
        // decides most; what it cannot is swept (sweep.rs) into a smaller
        // question about proved-equal rewrites of both sides.
        let integer = !pool.mentions_fp(a) && !pool.mentions_fp(b);
        if integer && self.canon.is_some() {
            // Both sides in the integer normal form (canon/int_normal.rs),
            // which uses the path's range facts: equal to the sides on
            // every input of this path, and often the same node.
            // Lanes packed in one word (C's two channels per 32-bit word)
            // are first rewritten lane by lane (canon/packed_lanes.rs), so
            // that they meet SIMD code with a lane per element.
            let mut lanes = crate::canon::PackedLanes::for_path(pool, path);
            let (la, lb) = (lanes.rewrite(pool, a), lanes.rewrite(pool, b));
            let mut normalizer = crate::canon::IntNormalizer::with_ranges(lanes.into_ranges());
            let (ia, ib) = (normalizer.normalize(pool, la), normalizer.normalize(pool, lb));
            if ia == ib {
                tracing::trace!("ladder: equal in integer normal form");
                return CheckOutcome::Proved(DecidedBy::Canonical);
            }
            // Again with nested rounding shifts read as one (C's two
            // shifts against SIMD code's one): only now, since it can
            // respell one side of a pair that met as written.
            let mut normalizer = normalizer.with_nested_rounding();
            let (ia, ib) = (normalizer.normalize(pool, la), normalizer.normalize(pool, lb));
            if ia == ib {
                tracing::trace!("ladder: equal in integer normal form, nested rounding read as one");
                return CheckOutcome::Proved(DecidedBy::Canonical);
            }
            if tracing::enabled!(tracing::Level::TRACE) {
                let show = |e| crate::expr::print_expr(pool, e);
                tracing::trace!(left = %show(ia), right = %show(ib), "ladder: integer normal forms differ");
            }
            // A real difference usually shows on the first concrete inputs,
            // where the solver may need its whole budget to find one.
            // A sample only refutes when its values are ones the CPU can
            // produce: not through an approximate operation's fresh value.
            let mut roots = vec![a, b];
            roots.extend_from_slice(path);
            let swept = self.sweeper.find_difference(pool, path, a, b).filter(|w| self.unconfirmed_because(pool, &roots, w).is_none());
            let sampled = match swept {
                Some(w) => Some(w),
                None => sampling::find_difference(pool, path, a, b, self.assumptions, self.sample_trials, self.seed),
            };
            if let Some(w) = sampled {
                return CheckOutcome::Refuted(w, DecidedBy::Sampling);
            }
            // A select whose condition fixes input bytes (a vector-wide
            // test against per-element ones): each case decided apart,
            // with the bytes it fixes folded into both sides.
            if let Some(outcome) = self.split_cases(pool, path, a, b) {
                return outcome;
            }
            // Sides with no select left to split on: subterms reading one
            // or two input bytes that the two sides spell differently (a
            // byte multiply by 0xff, `~(t + 1)` against `0xfe - t`),
            // merged when equal on every value of those bytes
            // (canon/byte_tables.rs): the sides then often meet, where the
            // solver's budgeted attempt ran out. Not before the split:
            // sides that still hold a vector-wide test rarely meet, and
            // evaluating their groups cost more than the cases do.
            let merged = crate::canon::byte_tables::merge_equal_subterms(pool, &[ia, ib], &mut self.byte_tables);
            if merged[..] != [ia, ib] {
                let (ma, mb) = (normalizer.normalize(pool, merged[0]), normalizer.normalize(pool, merged[1]));
                if merged[0] == merged[1] || ma == mb {
                    tracing::trace!("ladder: equal once subterms equal on every value of their bytes are merged");
                    return CheckOutcome::Proved(DecidedBy::Canonical);
                }
            }
            // Elements a block-wide test guards on one side and their own
            // test on the other: guards the element's test implies are
            // dropped, and an element left reading two bytes is decided on
            // every value of them (guarded_elements.rs).
            let mut asked = 0;
            let known = &mut self.guard_answers;
            let guarded = guarded_elements::drop_implied_guards(pool, self.backend.as_mut(), path, &[ia, ib], &mut asked, known);
            let (mut ia, mut ib) = (guarded[0], guarded[1]);
            // A guard on one side that is the other side's own element
            // test written over every element (the last coefficient's).
            if ia != ib {
                let (ma, mb) = (
                    guarded_elements::match_wide_conditions(pool, self.backend.as_mut(), path, ia, ib, &mut asked, known),
                    guarded_elements::match_wide_conditions(pool, self.backend.as_mut(), path, ib, ia, &mut asked, known),
                );
                if (ma, mb) != (ia, ib) {
                    let again = guarded_elements::drop_implied_guards(pool, self.backend.as_mut(), path, &[ma, mb], &mut asked, known);
                    (ia, ib) = (again[0], again[1]);
                }
            }
            tracing::debug!(asked, reused = self.guard_answers.reused, "ladder: guard questions of an element (reused: in the run so far)");
            if ia == ib {
                tracing::trace!(asked, "ladder: equal once implied guards are dropped");
                return CheckOutcome::Proved(DecidedBy::ElementEvaluation);
            }
            match guarded_elements::decide_exhaustively(pool, path, ia, ib) {
                Some(guarded_elements::Exhaustive::Equal) => return CheckOutcome::Proved(DecidedBy::ElementEvaluation),
                Some(guarded_elements::Exhaustive::Differ(m)) => {
                    return match self.judge_witness(pool, path, a, b, m) {
                        CheckOutcome::Refuted(m, _) => CheckOutcome::Refuted(m, DecidedBy::ElementEvaluation),
                        other => other,
                    }
                }
                None => {}
            }
            // Elements read only through a few conditions each (an end of
            // block: masks and maxima against a scan): the conditions
            // become variables constrained to the combinations each
            // element gives them (element_conditions.rs).
            match element_conditions::decide(pool, self.backend.as_mut(), path, ia, ib) {
                Some(element_conditions::Decided::Equal) => return CheckOutcome::Proved(DecidedBy::ElementEvaluation),
                Some(element_conditions::Decided::Differ(m)) => {
                    return match self.judge_witness(pool, path, a, b, m) {
                        CheckOutcome::Refuted(m, _) => CheckOutcome::Refuted(m, DecidedBy::ElementEvaluation),
                        other => other,
                    }
                }
                None => {}
            }
            let normal_eq = pool.eq(ia, ib);
            differ = pool.not(normal_eq);
            match self.backend.check_budgeted(pool, path, differ, QUICK_BUDGET) {
                Feasibility::Unsat => return CheckOutcome::Proved(DecidedBy::BitPrecise),
                Feasibility::Sat(m) => return self.judge_witness(pool, path, a, b, m),
                Feasibility::Unknown(_) => {}
            }
            let (sa, sb) = self.sweeper.sweep(pool, self.backend.as_mut(), ia, ib);
            tracing::trace!(proved = sa == sb, swept_nodes = dag_size(pool, &[sa, sb], LOGGED_SIZE_CAP), "ladder: sides swept");
            if sa == sb {
                return CheckOutcome::Proved(DecidedBy::Canonical);
            }
            let swept_eq = pool.eq(sa, sb);
            differ = pool.not(swept_eq);
        }
        // KLEE-CL 6.3: an integer over-approximation of the failure; if
        // even that cannot happen, the check holds.
        if self.canon.is_some() && pool.mentions_fp(differ) {
            if let Some(q) = crate::canon::implied_integer_query(pool, differ) {
                if !pool.mentions_fp(q) {
                    if let Feasibility::Unsat = self.backend.check(pool, &[], q) {
                        return CheckOutcome::Proved(DecidedBy::ImpliedQuery);
                    }
                }
            }
        }
        match self.backend.check(pool, path, differ) {
            Feasibility::Sat(m) => self.judge_witness(pool, path, a, b, m),
            Feasibility::Unsat => CheckOutcome::Proved(DecidedBy::BitPrecise),
            Feasibility::Unknown(why) => CheckOutcome::Unknown(why),
        }
    }

    /// `a == b` decided in the two cases of a select condition that fixes
    /// input bytes (canon/case_split.rs), each case by the whole ladder on
    /// its specialised sides with its condition added to the path; None
    /// when no condition fixes any or the splits are `MAX_SPLIT_DEPTH`
    /// deep (the rest of the ladder then decides the sides whole).
    fn split_cases(&mut self, pool: &mut ExprPool, path: &[ExprId], a: ExprId, b: ExprId) -> Option<CheckOutcome> {
        use crate::canon::case_split;
        if self.split_depth >= MAX_SPLIT_DEPTH {
            return None;
        }
        let cond = case_split::split_condition(pool, &[a, b])?;
        self.split_depth += 1;
        let mut proved = DecidedBy::Structural;
        let mut answer = None;
        for holds in [true, false] {
            if self.backend.stop_requested() {
                answer = Some(CheckOutcome::Unknown(crate::solver::Unknown::new(
                    crate::solver::UnknownKind::Interrupted,
                    "stopped between the cases of a split check",
                )));
                break;
            }
            // No input gives the condition this value: nothing to check.
            let Some(fixed) = case_split::fixed_bytes(pool, cond, holds) else { continue };
            let sides = case_split::specialize(pool, &[a, b], cond, holds, &fixed);
            let literal = if holds { cond } else { pool.not(cond) };
            let mut case_path = path.to_vec();
            case_path.push(literal);
            tracing::trace!(holds, fixed = fixed.len(), depth = self.split_depth, "ladder: case split");
            match self.climb_ladder(pool, &case_path, sides[0], sides[1]) {
                CheckOutcome::Proved(by) => proved = strongest_step(proved, by),
                CheckOutcome::Refuted(mut m, by) => {
                    // The case's bytes are set in the witness, which is
                    // then judged on the original sides and path.
                    for (&(array, index), &v) in &fixed {
                        let bytes = m.arrays.entry(array).or_default();
                        if bytes.len() <= index as usize {
                            bytes.resize(index as usize + 1, 0);
                        }
                        bytes[index as usize] = v;
                    }
                    let holds_on = |e: ExprId| crate::expr::evaluate(pool, e, &m);
                    let differs = holds_on(a) != holds_on(b) && path.iter().all(|&p| holds_on(p) == 1);
                    answer = Some(if differs {
                        match self.judge_witness(pool, path, a, b, m) {
                            CheckOutcome::Refuted(m, _) => CheckOutcome::Refuted(m, by),
                            other => other,
                        }
                    } else {
                        CheckOutcome::Unknown(crate::solver::Unknown::new(
                            crate::solver::UnknownKind::UnusableModel,
                            "a case's witness does not show the difference on the whole check",
                        ))
                    });
                    break;
                }
                other => {
                    answer = Some(other);
                    break;
                }
            }
        }
        self.split_depth -= 1;
        Some(answer.unwrap_or(CheckOutcome::Proved(proved)))
    }

    /// A solver model of `a != b` on `path`: a refutation when it confirms
    /// in the user's semantics, judged on the original sides (never on a
    /// rewritten question).
    fn judge_witness(&self, pool: &ExprPool, path: &[ExprId], a: ExprId, b: ExprId, m: Assignment) -> CheckOutcome {
        let mut roots = vec![a, b];
        roots.extend_from_slice(path);
        match self.unconfirmed_because(pool, &roots, &m) {
            None => CheckOutcome::Refuted(m, DecidedBy::BitPrecise),
            Some(why) => CheckOutcome::Suspected(m, why, DecidedBy::BitPrecise),
        }
    }

    /// The weakest set of assumptions under which `a` and `b` would be
    /// proved equal, for explaining a mismatch: the reassociation normal
    /// form for sets with `associativity`, the e-graph for small sides (on
    /// large ones its closure costs seconds for a hint).
    pub fn equal_under(&mut self, pool: &mut ExprPool, a: ExprId, b: ExprId) -> Option<Assumptions> {
        // With associativity already on, the e-graph's closure is the
        // costly part (sixteen runs for a hint): the normal form answers.
        if self.assumptions.has(Assumption::Associativity) {
            return self.equal_under_normal_form(pool, a, b);
        }
        if dag_size(pool, &[a, b], EXPLAIN_NODE_LIMIT + 1) <= EXPLAIN_NODE_LIMIT {
            if let Some(s) = self.canon.as_mut().and_then(|c| c.equal_under(pool, a, b)) {
                return Some(s);
            }
        }
        self.equal_under_normal_form(pool, a, b)
    }

    /// The weakest set with `associativity` whose normal forms of `a` and
    /// `b` coincide.
    fn equal_under_normal_form(&mut self, pool: &mut ExprPool, a: ExprId, b: ExprId) -> Option<Assumptions> {
        let mut found: Option<Assumptions> = None;
        let restrictions = [Assumption::PositiveZero, Assumption::Ordered, Assumption::Finite];
        for bits in 0u8..8 {
            let extra = restrictions
                .iter()
                .enumerate()
                .filter(|(i, _)| bits & (1 << i) != 0)
                .fold(Assumptions::of(&[Assumption::Associativity]), |set, (_, a)| set.with(*a));
            let all = extra.union(self.assumptions);
            let mut r = crate::canon::Reassociator::new(all).expect("associativity is on");
            if r.normalize(pool, a) != r.normalize(pool, b) {
                continue;
            }
            let weight = |s: &Assumptions| (s.len(), s.has(Assumption::Finite));
            if found.as_ref().is_none_or(|f| weight(&extra) < weight(f)) {
                found = Some(extra);
            }
        }
        found
    }
}

/// `Not(Eq(a, b))` -> `(a, b)`.
fn negated_equality(pool: &ExprPool, cond: ExprId) -> Option<(ExprId, ExprId)> {
    let Expr::Not(inner) = *pool.get(cond) else { return None };
    match *pool.get(inner) {
        Expr::Cmp(crate::expr::CmpOp::Eq, a, b) => Some((a, b)),
        _ => None,
    }
}

/// The step a split check's proof is credited to: the most costly one any
/// of its cases needed (a solver query over folding and rewriting).
fn strongest_step(a: DecidedBy, b: DecidedBy) -> DecidedBy {
    let rank = |d: &DecidedBy| match d {
        DecidedBy::Structural => 0,
        DecidedBy::Canonical => 1,
        _ => 2,
    };
    if rank(&b) > rank(&a) {
        b
    } else {
        a
    }
}

/// The ladder step named in the log for an outcome (`none` when undecided).
fn ladder_step(o: &CheckOutcome) -> &'static str {
    match o {
        CheckOutcome::Proved(by) | CheckOutcome::Refuted(_, by) => match by {
            DecidedBy::Structural => "folding",
            DecidedBy::Canonical => "canonical",
            DecidedBy::ImpliedQuery => "implied-query",
            DecidedBy::Sampling => "sampling",
            DecidedBy::BitPrecise => "solver",
            DecidedBy::Timeout => "timeout",
            DecidedBy::SolverUnknown => "solver-unknown",
            DecidedBy::LaneSymmetry => "lane-symmetry",
            DecidedBy::EstimateBound => "estimate-bound",
            DecidedBy::Exhaustive => "exhaustive",
            DecidedBy::ElementEvaluation => "element-evaluation",
            DecidedBy::ErrorAnalysis => "error-analysis",
            DecidedBy::CpuEstimates => "cpu-estimates",
        },
        CheckOutcome::Suspected(_, _, DecidedBy::CpuEstimates) => "cpu-estimates",
        CheckOutcome::Suspected(..) => "solver",
        CheckOutcome::Unknown(_) => "none",
    }
}

/// The outcome's kind in the log, without its witness or reason.
fn outcome_kind(o: &CheckOutcome) -> &'static str {
    match o {
        CheckOutcome::Proved(_) => "proved",
        CheckOutcome::Refuted(..) => "refuted",
        CheckOutcome::Suspected(..) => "suspected",
        CheckOutcome::Unknown(_) => "unknown",
    }
}

/// Logged expression sizes are counted up to this many nodes, so a log
/// line never costs more than a bounded walk.
pub(crate) const LOGGED_SIZE_CAP: usize = 100_000;

/// Solver work units (Z3 `rlimit`) of the first attempt at an integer
/// check, before sweeping: a count, so the same check always takes the
/// same route whatever the machine's load.
const QUICK_BUDGET: u32 = 300_000;

/// Case splits (canon/case_split.rs) nested in one check at most: each
/// doubles the cases; pixman's combiners need four (the vector-wide
/// zero and opaque tests, the pixel's mask and source alpha tests).
const MAX_SPLIT_DEPTH: u32 = 8;

/// Sides larger than this many nodes are not explained with the e-graph.
const EXPLAIN_NODE_LIMIT: usize = 400;

/// The number of distinct nodes below `roots`, counting up to `cap`.
pub(crate) fn dag_size(pool: &ExprPool, roots: &[ExprId], cap: usize) -> usize {
    let mut seen = rustc_hash::FxHashSet::default();
    // A lazy read counts the selects an encoding works out for it: a
    // comparison and a select per byte read and write it may see.
    let mut selects = 0usize;
    let mut stack = roots.to_vec();
    while let Some(e) = stack.pop() {
        if seen.len() + selects >= cap {
            break;
        }
        if seen.insert(e) {
            if let crate::expr::Expr::LogRead(r) = &*pool.get(e) {
                selects += 2 * r.len(pool) as usize * crate::expr::log_read::updates(&r.newest).count();
            }
            stack.extend(pool.children(e));
        }
    }
    seen.len() + selects
}
