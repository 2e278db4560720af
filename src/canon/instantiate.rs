//! A rule's two sides as ordinary expressions over fresh variables, for
//! `symcross rules verify` (the solver checks `condition and lhs != rhs`
//! under the rule's assumptions) and for the sampling soundness test.
//!
//! Pattern variables become `Fresh` values of the inferred width (8 bits
//! when nothing fixes the width: bit-level rules are width-uniform).
//! Variables standing for outcome sets cannot be fresh values, so the rule
//! is instantiated once per assignment of sets: one `RuleInstance` each.
//! Side conditions become a width-1 predicate (`conditions.rs`).

use super::lang::CanonLang;
use super::rules::typing_ty::Ty;
use super::rules::{infer_var_widths, Rule};
use super::translate::{build_literal, build_op, Built, TranslateError};
use crate::expr::{ExprId, ExprPool};
use egg::{ENodeOrVar, PatternAst, Var};
use std::collections::HashMap;

/// One instantiation of a rule.
#[derive(Clone, Debug)]
pub struct RuleInstance {
    /// The left side of the rule, instantiated.
    pub lhs: ExprId,
    /// The right side of the rule, instantiated.
    pub rhs: ExprId,
    /// Width-1 conjunction of the side conditions.
    pub condition: ExprId,
    /// Value variables and their fresh expressions.
    pub vars: Vec<(String, ExprId)>,
    /// Outcome-set variables and the set chosen for this instance.
    pub sets: Vec<(String, u8)>,
}

/// Default width of a variable no operator constrains.
const DEFAULT_WIDTH: u32 = 8;

fn widths(rule: &Rule) -> Result<HashMap<Var, Ty>, TranslateError> {
    let ill = |m: String| TranslateError::IllTyped(rule.name.clone(), m);
    let mut vars = infer_var_widths(&rule.lhs.ast, &rule.rhs.ast).map_err(ill)?;
    let all: Vec<Var> = rule.lhs.ast.as_ref().iter().filter_map(|n| if let ENodeOrVar::Var(v) = n { Some(*v) } else { None }).collect();
    loop {
        let Some(v) = all.iter().find(|v| !vars.contains_key(v)) else { return Ok(vars) };
        vars.insert(*v, Ty::Bits(DEFAULT_WIDTH));
        super::rules::typing_ty::infer(&[&rule.lhs.ast, &rule.rhs.ast], &mut vars).map_err(ill)?;
    }
}

fn build_side(pool: &mut ExprPool, ast: &PatternAst<CanonLang>, value: &HashMap<Var, Built>) -> Result<ExprId, TranslateError> {
    let mut built: Vec<Built> = Vec::new();
    for n in ast.as_ref() {
        let b = match n {
            ENodeOrVar::Var(v) => value[v],
            ENodeOrVar::ENode(CanonLang::Lit(l)) => build_literal(pool, l),
            ENodeOrVar::ENode(CanonLang::Node(op, kids)) => {
                let args: Vec<Built> = kids.iter().map(|k| built[usize::from(*k)]).collect();
                build_op(pool, op, &args)?
            }
        };
        built.push(b);
    }
    match built.last() {
        Some(Built::Value(v)) => Ok(*v),
        _ => Err(TranslateError::SetIsNotAValue(ast.to_string())),
    }
}

/// All instances of `rule` (one unless it has outcome-set variables).
pub fn instantiate(rule: &Rule, pool: &mut ExprPool) -> Result<Vec<RuleInstance>, TranslateError> {
    let tys = widths(rule)?;
    let mut vars: Vec<(Var, Ty)> = tys.into_iter().collect();
    vars.sort_by_key(|(v, _)| v.to_string());
    let mut base: HashMap<Var, Built> = HashMap::new();
    let mut named = Vec::new();
    let mut set_vars = Vec::new();
    for (v, t) in &vars {
        match t {
            Ty::Bits(w) => {
                let e = pool.fresh(*w);
                base.insert(*v, Built::Value(e));
                named.push((v.to_string(), e));
            }
            Ty::Set => set_vars.push(*v),
        }
    }
    let mut out = Vec::new();
    let combos = 16usize.pow(set_vars.len() as u32);
    for k in 0..combos {
        let mut value = base.clone();
        let mut sets = Vec::new();
        for (i, v) in set_vars.iter().enumerate() {
            let s = ((k >> (4 * i)) & 15) as u8;
            value.insert(*v, Built::Set(s));
            sets.push((v.to_string(), s));
        }
        let lhs = build_side(pool, &rule.lhs.ast, &value)?;
        let rhs = build_side(pool, &rule.rhs.ast, &value)?;
        let mut condition = pool.bool_const(true);
        for c in &rule.conditions {
            let lookup = |v: Var| match value[&v] {
                Built::Value(e) => e,
                Built::Set(_) => unreachable!("conditions take value variables"),
            };
            let p = c.predicate(pool, &lookup);
            condition = pool.and(condition, p);
        }
        out.push(RuleInstance { lhs, rhs, condition, vars: named.clone(), sets });
    }
    Ok(out)
}
