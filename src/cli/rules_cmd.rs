//! `symcross rules list|verify`: prints the rewrite rules, or proves each
//! sound with the bit-precise solver (`crate::rule_proof::prove`).

use super::args::{RulesAction, RulesArgs};
use crate::canon::RuleSet;
use crate::rule_proof::prove::{verify_all, Verdict};
use crate::Error;
use std::time::Duration;

/// Runs `symcross rules`; exit 1 when a rule is unsound, 3 when one is undecided.
pub fn rules(a: RulesArgs) -> Result<i32, Error> {
    let set = RuleSet::load(&a.rules)?;
    match a.action {
        RulesAction::List => {
            for r in set.rules().iter().filter(|r| a.filter.as_deref().is_none_or(|f| r.name.contains(f))) {
                let assume = if r.assumptions.is_empty() { "none".to_string() } else { r.assumptions.to_string() };
                println!("{:<40} [assume: {assume}] {}:{}\n    {}", r.name, r.file.display(), r.line, r.law);
            }
            println!("{} rules", set.rules().len());
            Ok(0)
        }
        RulesAction::Verify => {
            let timeout = crate::cli::check_cmd::seconds(a.timeout, "--timeout")?.max(Duration::from_millis(100));
            let results = verify_all(&set, a.filter.as_deref(), timeout, |name, v| {
                let what = match v {
                    Verdict::Sound => "sound".to_string(),
                    Verdict::Assumed => "holds by assumption (associativity)".to_string(),
                    Verdict::Unsound(w) => format!("UNSOUND: {w}"),
                    Verdict::Unknown(w) => format!("unknown: {w}"),
                };
                println!("{name:<48} {what}");
            });
            let unsound = results.iter().filter(|(_, v)| matches!(v, Verdict::Unsound(_))).count();
            let unknown = results.iter().filter(|(_, v)| matches!(v, Verdict::Unknown(_))).count();
            println!("{} rules checked: {unsound} unsound, {unknown} undecided", results.len());
            Ok(if unsound > 0 {
                1
            } else if unknown > 0 {
                3
            } else {
                0
            })
        }
    }
}
