//! Rewrite rules as data: the rule file format, its loader, side
//! conditions and typing. A rule file (`rewrite-rules/*.rules`) holds lines
//!
//! ```text
//! ; law: x + y = y + x (IEEE addition is commutative; NaN results are canonical)
//! rule fadd-commute: (fadd.F ?x ?y) => (fadd.F ?y ?x) [assume: none]
//! ```
//!
//! See `rewrite-rules/README.md` for the full format. Every rule needs a
//! `; law:` comment right above it; `.F`/`.G`/`.W` placeholders are
//! instantiated per format/width when loaded; everything is checked at load
//! time and a problem is an `Err` naming file:line.

mod conditions;
mod expand;
mod load;
mod parse;
pub(crate) mod typing;

pub use conditions::{CondArg, ConditionKind, SideCondition};
pub use load::builtin_rules_dir;
pub(crate) use typing as typing_ty;
pub(crate) use typing::infer_var_widths;

use super::lang::CanonLang;
use super::CanonAnalysis;
use crate::assumptions::Assumptions;
use egg::{Pattern, Rewrite};
use std::path::{Path, PathBuf};

/// One instantiated rule.
#[derive(Clone, Debug)]
pub struct Rule {
    /// Instantiated name, e.g. `fadd-commute[f32]`.
    pub name: String,
    /// Name as written in the file.
    pub family: String,
    /// The `; law:` comment.
    pub law: String,
    /// Left-hand side pattern.
    pub lhs: Pattern<CanonLang>,
    /// Right-hand side pattern.
    pub rhs: Pattern<CanonLang>,
    /// Written with `<=>`: the rule also rewrites right to left.
    pub bidirectional: bool,
    /// Side conditions, all of which must hold for the rule to apply.
    pub conditions: Vec<SideCondition>,
    /// What the rule assumes (`[assume: ...]`); it applies only when those assumptions are enabled.
    pub assumptions: Assumptions,
    /// The rule file.
    pub file: PathBuf,
    /// 1-based line of the rule in its file.
    pub line: usize,
}

/// What is wrong with a rule file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleProblem {
    #[error("bad syntax: {0}")]
    /// Unparseable text.
    Syntax(String),
    #[error("unknown operator `{0}`")]
    /// An operator the e-graph language does not have.
    UnknownOperator(String),
    #[error("bad literal `{0}`")]
    /// A literal that does not parse.
    BadLiteral(String),
    #[error("`{op}` takes {expected} operands, given {given}")]
    /// An operator given the wrong number of operands.
    Arity {
        /// The operator.
        op: String,
        /// Operands it takes.
        expected: usize,
        /// Operands written.
        given: usize,
    },
    #[error("variable {var} on the {side} is not bound by the left-hand side")]
    /// A variable of a side or side condition that the searched side (the
    /// left, or for `<=>` each side) does not bind.
    UnboundVariable {
        /// The variable.
        var: String,
        /// Where it appears (`right-hand side`, `side condition`...).
        side: &'static str,
    },
    #[error("unknown assumption `{0}` (known: positive-zero, finite, ordered, associativity, none)")]
    /// An `[assume: ...]` name that is not an assumption.
    UnknownAssumption(String),
    #[error("unknown side condition `{0}`")]
    /// A side condition name that does not exist.
    UnknownCondition(String),
    #[error("side condition `{0}`: {1}")]
    /// A side condition with wrong arguments: its text and what is wrong.
    BadCondition(String, String),
    #[error("rule `{0}` has no `; law:` comment right above it")]
    /// A rule without its `; law:` comment.
    MissingLaw(String),
    #[error("rule name `{0}` is used twice")]
    /// Two rules with the same instantiated name.
    DuplicateName(String),
    #[error("widths do not match: {0}")]
    /// Operand widths or formats that do not fit.
    Width(String),
    #[error("a side of a rule cannot be a bare variable")]
    /// A side that is only a variable, which would match every class.
    BareVariable,
}

/// A rule set that could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    /// A problem in a rule, at a file and 1-based line.
    #[error("{file}:{line}: {problem}")]
    At {
        /// The rule file.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        problem: RuleProblem,
    },
    /// A rule file or directory that could not be read.
    #[error("cannot read rules from {path}: {message}")]
    Io {
        /// The file or directory.
        path: String,
        /// The I/O error.
        message: String,
    },
}

/// A validated set of rules, ready for the e-graph.
pub struct RuleSet {
    rules: Vec<Rule>,
    rewrites: Vec<(Assumptions, Rewrite<CanonLang, CanonAnalysis>)>,
}

impl RuleSet {
    /// Builds the egg rewrites; the rules are already validated.
    pub fn new(rules: Vec<Rule>) -> Result<RuleSet, RuleError> {
        let mut rewrites = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for r in &rules {
            let at = |problem| RuleError::At { file: r.file.display().to_string(), line: r.line, problem };
            if !seen.insert(r.name.clone()) {
                return Err(at(RuleProblem::DuplicateName(r.name.clone())));
            }
            let fwd = conditions::rewrite(&r.name, &r.lhs, &r.rhs, &r.conditions).map_err(|e| at(RuleProblem::Syntax(e)))?;
            rewrites.push((r.assumptions, fwd));
            if r.bidirectional {
                let name = format!("{}<=", r.name);
                let back = conditions::rewrite(&name, &r.rhs, &r.lhs, &r.conditions).map_err(|e| at(RuleProblem::Syntax(e)))?;
                rewrites.push((r.assumptions, back));
            }
        }
        Ok(RuleSet { rules, rewrites })
    }

    /// Parses rule text (as if read from `file`).
    pub fn parse(text: &str, file: &Path) -> Result<RuleSet, RuleError> {
        RuleSet::new(parse::parse_rules(text, file)?)
    }

    /// The built-in rules plus every `*.rules` file of `extra_dirs`.
    pub fn load(extra_dirs: &[PathBuf]) -> Result<RuleSet, RuleError> {
        let mut rules = load::load_dir(&builtin_rules_dir())?;
        for d in extra_dirs {
            rules.extend(load::load_dir(d)?);
        }
        RuleSet::new(rules)
    }

    /// Only the built-in rules.
    pub fn builtin() -> Result<RuleSet, RuleError> {
        RuleSet::load(&[])
    }

    /// Every rule, in load order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The rule with this instantiated name.
    pub fn get(&self, name: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.name == name)
    }

    /// A set made of the named rules only (for tests and explanations).
    pub fn only(&self, names: &[&str]) -> Result<RuleSet, RuleError> {
        RuleSet::new(self.rules.iter().filter(|r| names.contains(&r.name.as_str())).cloned().collect())
    }

    /// The rewrites whose assumptions hold under `enabled`.
    pub fn enabled(&self, enabled: Assumptions) -> Vec<&Rewrite<CanonLang, CanonAnalysis>> {
        self.rewrites.iter().filter(|(a, _)| enabled.allows(*a)).map(|(_, r)| r).collect()
    }
}
