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
    /// Parsed on the first question: a run whose checks never reach the
    /// e-graph (concrete code, integer-only checks) does not pay for it.
    rules: std::cell::OnceCell<RuleSet>,
    enabled: Assumptions,
    limits: Limits,
}

impl EgraphCanonicalizer {
    /// Loads the rules now when the user chose some (`--rules`, or
    /// `SYMCROSS_RULES` for the built-in ones): their errors are reported
    /// before the run. The shipped built-in rules alone are parsed when
    /// first needed; a missing directory is still an error here.
    pub fn new(config: &Config) -> Result<Self, RuleError> {
        let rules = std::cell::OnceCell::new();
        if !config.rule_dirs.is_empty() || std::env::var_os("SYMCROSS_RULES").is_some() {
            let _ = rules.set(RuleSet::load(&config.rule_dirs)?);
        } else {
            let dir = crate::canon::rules::builtin_rules_dir();
            std::fs::read_dir(&dir).map_err(|e| RuleError::Io { path: dir.display().to_string(), message: e.to_string() })?;
        }
        // Each check gets a small budget, counted in nodes and rounds: the
        // solver is the next step, and a wall-clock limit would make the
        // verdict depend on the machine's load.
        let limits = Limits { node_limit: config.egraph_node_limit, iter_limit: config.egraph_iter_limit, time_limit: Duration::MAX };
        Ok(EgraphCanonicalizer { rules, enabled: config.rule_assumptions(), limits })
    }
}

impl EgraphCanonicalizer {
    fn rules(&self) -> &RuleSet {
        // The shipped rules are part of the program (tests/canon_rules.rs
        // parses them): failing to parse them is a bug of symcross.
        self.rules.get_or_init(|| RuleSet::load(&[]).expect("the built-in rewrite rules parse"))
    }
}

impl crate::check::Canonicalizer for EgraphCanonicalizer {
    fn prove_equal(&mut self, pool: &ExprPool, a: ExprId, b: ExprId) -> bool {
        if !pool.mentions_fp(a) && !pool.mentions_fp(b) {
            // Integer questions are decided faster by the bit-vector solver.
            return false;
        }
        prove_equal(pool, a, b, self.rules(), self.enabled, &self.limits).is_equal()
    }

    fn equal_under(&mut self, pool: &ExprPool, a: ExprId, b: ExprId) -> Option<Assumptions> {
        if !pool.mentions_fp(a) && !pool.mentions_fp(b) {
            return None;
        }
        // An explanation is a hint: a fifth of a check's budget per set.
        let limits = Limits { node_limit: self.limits.node_limit / 5, ..self.limits.clone() };
        let nan = Assumption::NanBitsIgnored;
        let sets = explain_assumptions(pool, a, b, self.rules(), self.enabled.without_all_but(nan), &limits);
        // The weakest set: fewest assumptions, and `ordered` rather than
        // `finite` (which implies it) when both would do.
        sets.into_iter().map(|s| s.without(nan)).filter(|s| !s.is_empty()).min_by_key(|s| (s.len(), s.has(Assumption::Finite)))
    }
}
