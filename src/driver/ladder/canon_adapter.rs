//! Connects the e-graph canonicaliser (canon/) to the decision ladder:
//! loads the rule files once per run and answers `prove_equal` with the
//! rules the run's assumptions allow.

use crate::assumptions::{Assumption, Assumptions};
use crate::canon::{explain_assumptions, prove_equal, Limits, RuleError, RuleSet};
use crate::config::Config;
use crate::expr::{ExprId, ExprPool};
use std::time::Duration;

/// Step 2 of the ladder: the e-graph over the built-in and `--rules` rewrite
/// rules, restricted to the rules the enabled assumptions allow.
pub struct EgraphCanonicalizer {
    rules: RuleSet,
    enabled: Assumptions,
    limits: Limits,
}

impl EgraphCanonicalizer {
    /// Loads the built-in rules and those of `--rules` directories.
    pub fn new(config: &Config) -> Result<Self, RuleError> {
        let rules = RuleSet::load(&config.rule_dirs)?;
        // Each check gets a small budget, counted in nodes and rounds: the
        // solver is the next step, and a wall-clock limit would make the
        // verdict depend on the machine's load.
        let limits = Limits { node_limit: config.egraph_node_limit, iter_limit: config.egraph_iter_limit, time_limit: Duration::MAX };
        Ok(EgraphCanonicalizer { rules, enabled: config.rule_assumptions(), limits })
    }
}

impl crate::check::Canonicalizer for EgraphCanonicalizer {
    fn prove_equal(&mut self, pool: &ExprPool, a: ExprId, b: ExprId) -> bool {
        if !pool.mentions_fp(a) && !pool.mentions_fp(b) {
            // Integer questions are decided faster by the bit-vector solver.
            return false;
        }
        prove_equal(pool, a, b, &self.rules, self.enabled, &self.limits).is_equal()
    }

    fn equal_under(&mut self, pool: &ExprPool, a: ExprId, b: ExprId) -> Option<Assumptions> {
        if !pool.mentions_fp(a) && !pool.mentions_fp(b) {
            return None;
        }
        // An explanation is a hint: a fifth of a check's budget per set.
        let limits = Limits { node_limit: self.limits.node_limit / 5, ..self.limits.clone() };
        let nan = Assumption::NanBitsIgnored;
        let sets = explain_assumptions(pool, a, b, &self.rules, self.enabled.without_all_but(nan), &limits);
        // The weakest set: fewest assumptions, and `ordered` rather than
        // `finite` (which implies it) when both would do.
        sets.into_iter().map(|s| s.without(nan)).filter(|s| !s.is_empty()).min_by_key(|s| (s.len(), s.has(Assumption::Finite)))
    }
}
