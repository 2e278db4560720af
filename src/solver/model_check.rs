//! Checking a model against the reference semantics.
//!
//! `expr::evaluate` (built on fold.rs) is THE semantics; every backend's
//! model is re-evaluated with it, so an encoding bug shows up as a failed
//! check instead of a false witness. Also completes partial models so that
//! every input byte and fresh value a query mentions has a value.

use crate::expr::{evaluate, Assignment, Expr, ExprId, ExprPool, FpFormat, Leaf};
use rustc_hash::FxHashSet;

/// Adds a value (zero) for every input byte and fresh variable under
/// `constraints` that `asg` lacks. Arrays get their declared size.
pub fn complete_assignment(pool: &ExprPool, constraints: &[ExprId], asg: &mut Assignment) {
    let mut leaves = FxHashSet::default();
    for &c in constraints {
        pool.leaves_of(c, &mut leaves);
    }
    for leaf in leaves {
        let (array, index) = match leaf {
            Leaf::Fresh { id, .. } => {
                asg.fresh.entry(id).or_insert(0);
                continue;
            }
            Leaf::Input { array, index } => (array, index),
            // Given bytes are not the assignment's (`InputArray::given`).
            Leaf::Array { array } if pool.given_bytes(array).is_some() => continue,
            Leaf::Array { array } => {
                let declared = pool.arrays().get(array as usize).map(|a| a.size as usize).unwrap_or(0);
                let bytes = asg.arrays.entry(array).or_default();
                if bytes.len() < declared {
                    bytes.resize(declared, 0);
                }
                continue;
            }
        };
        let declared = pool.arrays().get(array as usize).map(|a| a.size as usize).unwrap_or(0);
        let bytes = asg.arrays.entry(array).or_default();
        let need = declared.max(index as usize + 1);
        if bytes.len() < need {
            bytes.resize(need, 0);
        }
    }
}

/// True if every constraint evaluates to 1 under `asg`.
pub fn model_satisfies(pool: &ExprPool, constraints: &[ExprId], asg: &Assignment) -> bool {
    // The goal is last and the likeliest to fail: a recent model tried on
    // a new query is mostly turned down by it, before the path is evaluated.
    constraints.iter().rev().all(|&c| evaluate(pool, c, asg) & 1 == 1)
}

/// True when `evaluate` is the exact semantics for these constraints:
/// no half-precision fma (evaluated approximately) and no uninterpreted
/// function (evaluated by one arbitrary interpretation, while a solver may
/// pick another).
pub(crate) fn evaluation_is_exact(pool: &ExprPool, constraints: &[ExprId]) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack: Vec<ExprId> = constraints.to_vec();
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        match &*pool.get(e) {
            Expr::Fma(FpFormat::Half, ..) | Expr::Apply(_) => return false,
            _ => stack.extend(pool.children(e)),
        }
    }
    true
}

/// Backends call this on a fresh model: completes it and, where evaluation
/// is exact, checks it. A model that fails the check is an encoding bug; in
/// debug builds it panics (engine bug), in release it becomes Unknown.
pub(crate) fn finish_model(pool: &ExprPool, constraints: &[ExprId], mut asg: Assignment, backend: &str) -> super::SolverResult {
    complete_assignment(pool, constraints, &mut asg);
    let exact = evaluation_is_exact(pool, constraints);
    if model_satisfies(pool, constraints, &asg) {
        return super::SolverResult::Sat(asg);
    }
    if exact {
        debug_assert!(false, "{backend} model does not satisfy the query under expr::evaluate");
        return super::SolverResult::Unknown(super::Unknown::new(
            super::UnknownKind::UnusableModel,
            format!("{backend} model failed the evaluation check"),
        ));
    }
    super::SolverResult::Unknown(super::Unknown::new(
        super::UnknownKind::UnusableModel,
        format!("{backend}: satisfiable, but the model depends on an uninterpreted function or half fma"),
    ))
}
