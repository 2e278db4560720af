//! Proving rewrite rules sound (`symcross rules verify`, and user rules
//! before a run uses them): each rule is proved sound under the
//! assumptions it declares with the bit-precise solver: for every
//! instance of the rule (half and single precision), `condition /\ lhs !=
//! rhs` must be unsatisfiable when the declared assumptions restrict every
//! floating-point operand and result. Associativity is a permission, not a
//! law of IEEE arithmetic: rules needing it are listed as assumed.

use crate::canon::{instantiate, Assumption, RuleSet};
use crate::config::FpSolverKind;
use crate::expr::{ExprPool, NanModel};
use crate::solver::{default_solver, Query, SmtProcessConfig, SolverResult};
use std::time::Duration;

/// Work budget of one proof query, in cvc5's resource units
/// (`--rlimit-per`): a rule is proved or not whatever the machine's load,
/// so a proof that passes once passes everywhere. Every shipped rule
/// proves within it with margin: measured with cvc5 1.0.3, the costliest
/// queries (`fadd-in-wider`, `fsub-in-wider`, `fsub-as-fadd[f32]` with x86
/// NaN bits) spend 530,000 to 620,000 units (one to five minutes each on
/// a loaded two-core machine).
pub const RULE_PROOF_RESOURCE_LIMIT: u32 = 1_000_000;

/// Wall-clock cap of one proof query (or `--max-time`, when shorter): only
/// a safety net against a solver gone astray; the work budget decides.
pub const RULE_PROOF_TIMEOUT: Duration = Duration::from_secs(600);

/// The solver process that proves rules. cvc5 is bounded by the work
/// budget; z3's units are its own and not calibrated, so with
/// `--fp-solver z3` only the time cap applies.
pub fn proof_solver_config(kind: FpSolverKind) -> SmtProcessConfig {
    match kind {
        FpSolverKind::Cvc5 => SmtProcessConfig { resource_limit: Some(RULE_PROOF_RESOURCE_LIMIT), ..SmtProcessConfig::cvc5() },
        FpSolverKind::Z3 => SmtProcessConfig::z3(),
    }
}

/// Outcome of verifying one rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Proved: the two sides are equal wherever the side conditions hold.
    Sound,
    /// A counterexample: the rule changes a value.
    Unsound(String),
    /// Holds by the `associativity` assumption, which is a permission.
    Assumed,
    /// Not decided: the solver gave up or the rule could not be
    /// instantiated; the text says why.
    Unknown(String),
}

/// Verifies every rule instantiated for half or single precision (double
/// instances share their rule text with these and take much longer).
pub fn verify_all(
    set: &RuleSet,
    filter: Option<&str>,
    timeout: Duration,
    mut progress: impl FnMut(&str, &Verdict),
) -> Vec<(String, Verdict)> {
    let mut out = Vec::new();
    for rule in set.rules() {
        if rule.name.contains("f64") || filter.is_some_and(|f| !rule.name.contains(f)) {
            continue;
        }
        // A solver per rule and NaN model: its cache is keyed by
        // expression ids, which are only meaningful within one pool.
        let v = verify_rule(rule, || default_solver(proof_solver_config(FpSolverKind::Cvc5)), timeout);
        progress(&rule.name, &v);
        out.push((rule.name.clone(), v));
    }
    out
}

/// Verifies a rule in both NaN models (`--nan equal` and `--nan exact`):
/// with canonical NaNs it must hold bit for bit; with x86's NaN bits it
/// must hold bit for bit too, unless it declares `nan-bits-ignored`, when
/// it must hold up to NaN bits (both sides NaN, or equal).
/// `solver` makes a fresh solver for each model (a solver's cache is only
/// meaningful within one pool).
pub fn verify_rule(rule: &crate::canon::Rule, solver: impl Fn() -> Box<dyn crate::solver::Solver>, timeout: Duration) -> Verdict {
    match verify_rule_in(rule, NanModel::Canonical, &mut *solver(), timeout) {
        Verdict::Sound => {}
        other => return other,
    }
    match verify_rule_in(rule, NanModel::EXACT_X86, &mut *solver(), timeout) {
        Verdict::Unsound(w) => {
            Verdict::Unsound(format!("{} (with x86 NaN bits, --nan exact; declare `nan-bits-ignored` if only NaN bits differ)", w.trim()))
        }
        Verdict::Unknown(w) => Verdict::Unknown(format!("{w} (with x86 NaN bits, --nan exact)")),
        other => other,
    }
}

/// Verifies a rule in one NaN model: what `check --nan` relies on.
pub fn verify_rule_in(rule: &crate::canon::Rule, nan: NanModel, solver: &mut dyn crate::solver::Solver, timeout: Duration) -> Verdict {
    if rule.assumptions.has(Assumption::Associativity) {
        return Verdict::Assumed;
    }
    // Up to NaN bits only where the rule says so, and only with the
    // target's NaN bits: with canonical NaNs every rule is bit-exact.
    let up_to_nan_bits = nan.is_exact() && rule.assumptions.has(Assumption::NanBitsIgnored);
    let mut pool = ExprPool::with_nan_model(nan);
    let instances = match instantiate(rule, &mut pool) {
        Ok(i) => i,
        Err(e) => return Verdict::Unknown(format!("cannot instantiate: {e}")),
    };
    let assume = rule.assumptions.closure();
    for inst in instances {
        let (lhs, rhs) = match crate::expr::FpFormat::from_width(pool.width(inst.lhs)) {
            Some(f) if up_to_nan_bits => (pool.nan_blind(f, inst.lhs), pool.nan_blind(f, inst.rhs)),
            _ => (inst.lhs, inst.rhs),
        };
        let eq = pool.eq(lhs, rhs);
        let differ = pool.not(eq);
        let q = Query::new(vec![inst.condition], Some(differ)).with_timeout(timeout).with_assumptions(assume);
        match solver.check(&pool, &q) {
            SolverResult::Unsat => {}
            SolverResult::Sat(m) => {
                let vals: Vec<String> =
                    inst.vars.iter().map(|(n, e)| format!("{n} = {:#x}", crate::expr::evaluate(&pool, *e, &m))).collect();
                let sets: Vec<String> = inst.sets.iter().map(|(n, s)| format!("{n} = {s:#06b}")).collect();
                return Verdict::Unsound(format!("{} {}", vals.join(", "), sets.join(", ")));
            }
            SolverResult::Unknown(why) => return Verdict::Unknown(why.detail),
        }
    }
    Verdict::Sound
}
