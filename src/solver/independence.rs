//! Independence slicing (KLEE's IndependentSolver): constraints that share
//! no input byte, fresh value or uninterpreted function with each other are
//! decided separately.
//!
//! The part holding the goal is asked first: if it is unsat, so is the whole
//! query, and the path constraints unrelated to the goal never reach a
//! solver. If it is sat, the other parts are asked too (a witness must
//! satisfy the whole path) and their models are merged, so the final
//! assignment covers every input the query mentions. Parts repeat from
//! query to query, which is what makes the cache below this layer pay.

use super::{Query, Solver, SolverResult, SolverStats};
use crate::expr::{Assignment, Expr, ExprId, ExprPool, Leaf};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// What two constraints can share.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Byte(u32, u32),
    /// Any byte of an input that some constraint reads at a symbolic
    /// position: every constraint on one of its bytes shares it.
    Array(u32),
    Fresh(u32),
    Function(Arc<str>),
}

/// Splits queries into independent parts before handing them to `inner`.
pub struct IndependenceSolver<S> {
    inner: S,
    parts: u64,
}

impl<S: Solver> IndependenceSolver<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> Self {
        IndependenceSolver { inner, parts: 0 }
    }
}

/// What `root` can share with other constraints; the bytes of the inputs
/// in `read_at` (read at symbolic positions somewhere in the query) are
/// their whole input.
fn keys_of(pool: &ExprPool, root: ExprId, read_at: &[u32]) -> FxHashSet<Key> {
    let mut out = FxHashSet::default();
    let mut seen = FxHashSet::default();
    let mut stack = vec![root];
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        match &*pool.get(e) {
            Expr::Input { array, .. } if read_at.contains(array) => {
                out.insert(Key::Array(*array));
            }
            Expr::Input { array, index } => {
                out.insert(Key::Byte(*array, *index));
            }
            Expr::InputAt { array, .. } => {
                out.insert(Key::Array(*array));
            }
            Expr::Fresh { id, .. } => {
                out.insert(Key::Fresh(*id));
            }
            Expr::Apply(app) => {
                out.insert(Key::Function(app.function.clone()));
            }
            _ => {}
        }
        stack.extend(pool.children(e));
    }
    out
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Groups constraint indices into independent parts (union-find over keys).
/// Constraints without any key form their own parts.
pub(crate) fn partition(pool: &ExprPool, constraints: &[ExprId]) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..constraints.len()).collect();
    let mut owner: FxHashMap<Key, usize> = FxHashMap::default();
    let read_at = pool.arrays_read_at(constraints);
    for (i, &c) in constraints.iter().enumerate() {
        for k in keys_of(pool, c, &read_at) {
            match owner.get(&k) {
                Some(&j) => {
                    let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                    parent[a] = b;
                }
                None => {
                    owner.insert(k, i);
                }
            }
        }
    }
    let mut groups: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
    for i in 0..constraints.len() {
        let r = find(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    let mut parts: Vec<Vec<usize>> = groups.into_values().collect();
    parts.sort();
    parts
}

/// Copies into `into` the values of the bytes and fresh values `part`
/// mentions (a part's model may hold other values, e.g. a reused model).
fn merge(pool: &ExprPool, part: &[ExprId], into: &mut Assignment, model: &Assignment) {
    let mut leaves = FxHashSet::default();
    for &c in part {
        pool.leaves_of(c, &mut leaves);
    }
    for leaf in leaves {
        let (array, index) = match leaf {
            Leaf::Fresh { id, .. } => {
                into.fresh.insert(id, model.fresh.get(&id).copied().unwrap_or(0));
                continue;
            }
            Leaf::Input { array, index } => (array, index),
            // Every byte: the part holds every constraint on the input.
            Leaf::Array { array } => {
                let bytes = model.arrays.get(&array).cloned().unwrap_or_default();
                let dst = into.arrays.entry(array).or_default();
                if dst.len() < bytes.len() {
                    dst.resize(bytes.len(), 0);
                }
                dst[..bytes.len()].copy_from_slice(&bytes);
                continue;
            }
        };
        let v = model.arrays.get(&array).and_then(|b| b.get(index as usize)).copied().unwrap_or(0);
        let dst = into.arrays.entry(array).or_default();
        if dst.len() <= index as usize {
            dst.resize(index as usize + 1, 0);
        }
        dst[index as usize] = v;
    }
}

impl<S: Solver> Solver for IndependenceSolver<S> {
    fn check(&mut self, pool: &ExprPool, query: &Query) -> SolverResult {
        let constraints = query.constraints();
        let parts = partition(pool, &constraints);
        if parts.len() <= 1 {
            return self.inner.check(pool, query);
        }
        let goal_index = query.goal.map(|_| constraints.len() - 1);
        // The goal's part first, so an unsat goal is found before anything else.
        let mut order: Vec<&Vec<usize>> = parts.iter().collect();
        order.sort_by_key(|p| !goal_index.is_some_and(|g| p.contains(&g)));
        let mut model = Assignment::default();
        let mut unknown = None;
        for part in order {
            self.parts += 1;
            let goal = goal_index.filter(|g| part.contains(g)).map(|g| constraints[g]);
            let path: Vec<ExprId> = part.iter().filter(|&&i| Some(i) != goal_index).map(|&i| constraints[i]).collect();
            let sub = query.with_constraints(path, goal);
            match self.inner.check(pool, &sub) {
                SolverResult::Unsat => return SolverResult::Unsat,
                SolverResult::Sat(m) => merge(pool, &sub.constraints(), &mut model, &m),
                SolverResult::Unknown(r) => unknown = unknown.or(Some(r)),
            }
        }
        match unknown {
            Some(r) => SolverResult::Unknown(r),
            None => {
                super::model_check::complete_assignment(pool, &constraints, &mut model);
                debug_assert!(
                    !super::model_check::evaluation_is_exact(pool, &constraints)
                        || super::model_check::model_satisfies(pool, &constraints, &model),
                    "merged model does not satisfy the query"
                );
                SolverResult::Sat(model)
            }
        }
    }

    fn stats(&self) -> SolverStats {
        let mut s = self.inner.stats();
        s.independent_parts += self.parts;
        s
    }
}
