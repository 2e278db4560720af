//! Saturation with limits: prove two expressions equal, find which
//! assumptions would make them equal, and extract a canonical form.
//!
//! Why the runner stopped is returned as a value (`StopReason`, our own type
//! so callers need not know egg). The runner stops early as soon as the two
//! sides share an e-class.

use super::rules::RuleSet;
use super::translate::{add_expr, from_recexpr};
use super::{CanonAnalysis, CanonGraph};
use crate::assumptions::Assumptions;
use crate::expr::{ExprId, ExprPool};
use egg::{AstSize, Extractor, Runner};
use rustc_hash::FxHashMap;
use std::time::Duration;

/// Limits of one saturation run.
///
/// The program builds its limits from the configuration
/// (driver/ladder/canon_adapter.rs): `--egraph-nodes` (default 10 000),
/// `--egraph-iterations` (default 20), and no wall-clock limit; an
/// assumption explanation gets a fifth of the node budget. `Default`, with
/// larger budgets, is for library callers and tests only.
#[derive(Clone, Debug)]
pub struct Limits {
    /// E-nodes before giving up. `Default`: 20 000, enough for the full
    /// associative-commutative closure of an 8-term sum (about 3^8 nodes).
    pub node_limit: usize,
    /// Rule-application rounds. `Default`: 30.
    pub iter_limit: usize,
    /// Wall-clock budget; `Duration::MAX` (the default, and what the
    /// program uses) means none: the node and round budgets bound a run,
    /// and a time limit would make the answer depend on the machine's load.
    pub time_limit: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { node_limit: 20_000, iter_limit: 30, time_limit: Duration::MAX }
    }
}

/// Why saturation stopped without proving equality.
#[derive(Clone, Debug, PartialEq)]
pub enum StopReason {
    /// No rule applies any more: the sides are not equal under these rules.
    Saturated,
    /// The round budget ran out; the number of rounds run.
    IterationLimit(usize),
    /// The node budget ran out; the e-graph's node count.
    NodeLimit(usize),
    /// The wall-clock budget ran out, after this many seconds.
    TimeLimit(f64),
    /// Any other stop egg reports, with its message.
    Other(String),
}

/// The outcome of a proof attempt.
#[derive(Clone, Debug, PartialEq)]
pub enum CanonResult {
    /// Same e-class after `iterations` rounds.
    Equal {
        /// Rule-application rounds run.
        iterations: usize,
    },
    /// Not shown equal: this proves nothing either way.
    NotShown {
        /// Why the run stopped.
        stop_reason: StopReason,
    },
}

impl CanonResult {
    /// Whether the two sides were shown equal.
    pub fn is_equal(&self) -> bool {
        matches!(self, CanonResult::Equal { .. })
    }
}

const PROVED: &str = "proved equal";

fn convert(r: &egg::StopReason) -> StopReason {
    match r {
        egg::StopReason::Saturated => StopReason::Saturated,
        egg::StopReason::IterationLimit(n) => StopReason::IterationLimit(*n),
        egg::StopReason::NodeLimit(n) => StopReason::NodeLimit(*n),
        egg::StopReason::TimeLimit(t) => StopReason::TimeLimit(*t),
        egg::StopReason::Other(s) => StopReason::Other(s.clone()),
    }
}

fn runner(egraph: CanonGraph, limits: &Limits) -> Runner<super::CanonLang, CanonAnalysis> {
    Runner::default()
        .with_egraph(egraph)
        .with_node_limit(limits.node_limit)
        .with_iter_limit(limits.iter_limit)
        .with_time_limit(limits.time_limit)
}

/// Tries to show `a` and `b` equal with the rules allowed by `assumptions`.
pub fn prove_equal(pool: &ExprPool, a: ExprId, b: ExprId, rules: &RuleSet, assumptions: Assumptions, limits: &Limits) -> CanonResult {
    if a == b {
        return CanonResult::Equal { iterations: 0 };
    }
    let mut egraph = CanonGraph::new(CanonAnalysis::with_nan_model(pool.nan_model()));
    let mut memo = FxHashMap::default();
    let ia = add_expr(&mut egraph, pool, a, &mut memo);
    let ib = add_expr(&mut egraph, pool, b, &mut memo);
    egraph.rebuild();
    if egraph.find(ia) == egraph.find(ib) {
        return CanonResult::Equal { iterations: 0 };
    }
    let r = runner(egraph, limits)
        .with_hook(move |r| if r.egraph.find(ia) == r.egraph.find(ib) { Err(PROVED.to_string()) } else { Ok(()) })
        .run(rules.enabled(assumptions));
    if r.egraph.find(ia) == r.egraph.find(ib) {
        return CanonResult::Equal { iterations: r.iterations.len() };
    }
    let why = r.stop_reason.as_ref().map_or(StopReason::Other("not run".into()), convert);
    CanonResult::NotShown { stop_reason: why }
}

/// The minimal sets of assumptions under which `a` and `b` are proved
/// equal (each tried alone, then pairs, ...; supersets of a set that works
/// are not listed), each including `base` (the rule declarations the run's
/// NaN model allows). Empty if none works; `[base]` if no assumption is
/// needed.
pub fn explain_assumptions(pool: &ExprPool, a: ExprId, b: ExprId, rules: &RuleSet, base: Assumptions, limits: &Limits) -> Vec<Assumptions> {
    let mut found: Vec<Assumptions> = Vec::new();
    for s in Assumptions::subsets().into_iter().map(|s| s.union(base)) {
        if found.iter().any(|f| s.allows(*f)) {
            continue;
        }
        if prove_equal(pool, a, b, rules, s, limits).is_equal() {
            found.push(s);
        }
    }
    found
}

/// The smallest member of `e`'s e-class after saturation, rebuilt in the
/// DAG (for showing a canonical form in explanations).
pub fn canonicalize(pool: &mut ExprPool, e: ExprId, rules: &RuleSet, assumptions: Assumptions, limits: &Limits) -> (ExprId, StopReason) {
    let mut egraph = CanonGraph::new(CanonAnalysis::with_nan_model(pool.nan_model()));
    let mut memo = FxHashMap::default();
    let root = add_expr(&mut egraph, pool, e, &mut memo);
    let r = runner(egraph, limits).run(rules.enabled(assumptions));
    let why = r.stop_reason.as_ref().map_or(StopReason::Other("not run".into()), convert);
    let (_, best) = Extractor::new(&r.egraph, AstSize).find_best(root);
    // A term of our own rules always rebuilds; fall back to `e` otherwise.
    (from_recexpr(pool, &best).unwrap_or(e), why)
}
