//! User rules are proved before they are used (README, Reading a report):
//! `check --rules DIR` runs the proof of `symcross rules verify` on every
//! user rule that the run's assumptions enable, and refuses the run (exit
//! 2, naming the rule's file and line) when a rule is unsound or its proof
//! is undecided. A proved rule is remembered in the cache directory under a
//! key made of the rule's content, so the proof is paid once. Built-in
//! rules are proved by the test suite and are not re-proved here.
//!
//! `--trust-rules` skips the proof; the report then lists the rules used
//! without proof (`unverified_rules`).

use crate::canon::{Assumption, Rule, RuleSet};
use crate::config::Config;
use crate::rule_proof::prove::{proof_solver_config, verify_rule_in, Verdict, RULE_PROOF_TIMEOUT};
use crate::rule_proof::RuleProofError;
use crate::solver::default_solver;
use std::path::PathBuf;

/// Proves the user rules of `config` that the run can use, or, with
/// `trust_rules`, returns their names as used without proof. Rules proved
/// on an earlier run are taken from the cache.
pub fn prove_user_rules(config: &Config) -> Result<Vec<String>, RuleProofError> {
    if config.rule_dirs.is_empty() {
        return Ok(Vec::new());
    }
    let set = RuleSet::load(&config.rule_dirs)?;
    let enabled = config.rule_assumptions();
    let user: Vec<&Rule> = set
        .rules()
        .iter()
        .filter(|r| config.rule_dirs.iter().any(|d| r.file.starts_with(d)))
        .filter(|r| enabled.allows(r.assumptions))
        .collect();
    if config.trust_rules {
        return Ok(user.iter().map(|r| r.name.clone()).collect());
    }
    let cache = crate::frontend::cache_dir().map(|d| d.join("rule-proofs"));
    let mut proved = 0;
    for rule in user {
        // Double instances share their text with the half and single ones
        // and are not proved separately (as for the built-in rules).
        if rule.name.contains("f64") {
            continue;
        }
        let entry = cache.as_ref().map(|d| d.join(key(rule, config.nan)));
        if entry.as_ref().is_some_and(|e| e.is_file()) {
            continue;
        }
        let (file, line, name) = (rule.file.clone(), rule.line, rule.name.clone());
        if rule.assumptions.has(Assumption::Associativity) {
            return Err(RuleProofError::NeedsAssociativity { file, line, name });
        }
        let mut solver = default_solver(proof_solver_config(config.fp_solver));
        // --max-time bounds every step, proofs included.
        let timeout = config.max_time.map_or(RULE_PROOF_TIMEOUT, |t| t.min(RULE_PROOF_TIMEOUT));
        match verify_rule_in(rule, config.nan, &mut *solver, timeout) {
            Verdict::Sound => {
                proved += 1;
                if let Some(e) = entry {
                    remember(&e);
                }
            }
            Verdict::Unsound(w) => {
                return Err(RuleProofError::Unsound {
                    file,
                    line,
                    name,
                    assumptions: rule.assumptions.to_string(),
                    nan: config.nan.flag(),
                    counterexample: w.trim().to_string(),
                })
            }
            Verdict::Unknown(why) => return Err(RuleProofError::Undecided { file, line, name, why }),
            Verdict::Assumed => {}
        }
    }
    if proved > 0 {
        eprintln!(
            "symcross: proved {proved} user rule instance(s) sound{}",
            if cache.is_some() { " (remembered for later runs)" } else { "" }
        );
    }
    Ok(Vec::new())
}

/// The cache key of a rule: everything that decides its meaning.
fn key(rule: &Rule, nan: crate::expr::NanModel) -> String {
    let mut d = crate::frontend::Digest::new();
    // The whole model: `exact` differs between targets.
    d.add(format!("{nan:?}").as_bytes());
    d.add(env!("CARGO_PKG_VERSION").as_bytes());
    d.add(rule.name.as_bytes());
    d.add(rule.lhs.to_string().as_bytes());
    d.add(rule.rhs.to_string().as_bytes());
    d.add(format!("{:?}", rule.conditions).as_bytes());
    d.add(rule.assumptions.to_string().as_bytes());
    d.add(&[rule.bidirectional as u8]);
    format!("sound-{}", d.hex())
}

/// Records a proof; a cache that cannot be written only costs a re-proof.
fn remember(entry: &PathBuf) {
    let Some(dir) = entry.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let tmp = entry.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&tmp, "sound\n").is_ok() && std::fs::rename(&tmp, entry).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}
