//! Branches a path already implies, remembered while the path condition
//! stays the same. A loop whose test the path decides (every iteration
//! of `while (x + 100 < 102)` once `x < 2` is known) would otherwise ask
//! the model, the probes and the solver again at every iteration, which
//! makes a long concrete-trip loop over symbolic data crawl.

use crate::expr::{BinOp, Expr, ExprId, ExprPool};

/// At most this many conditions are remembered; a full cache starts over.
const CAPACITY: usize = 32;

#[derive(Clone, Default)]
pub struct ImpliedBranches {
    /// The path condition the entries hold for: its length and last
    /// constraint. Paths only grow, except when merged (merge.rs clears
    /// the cache), so an equal key means an equal path.
    key: (usize, Option<ExprId>),
    known: Vec<(ExprId, bool)>,
}

impl ImpliedBranches {
    /// The value `path` forces on `cond`, when remembered.
    pub fn get(&self, path: &[ExprId], cond: ExprId) -> Option<bool> {
        if self.key != key_of(path) {
            return None;
        }
        self.known.iter().find(|(c, _)| *c == cond).map(|(_, v)| *v)
    }

    /// Remembers that `path` forces `cond` to `value`.
    pub fn insert(&mut self, path: &[ExprId], cond: ExprId, value: bool) {
        let key = key_of(path);
        if self.key != key || self.known.len() >= CAPACITY {
            self.known.clear();
            self.key = key;
        }
        self.known.push((cond, value));
    }

    pub fn clear(&mut self) {
        self.known.clear();
    }
}

fn key_of(path: &[ExprId]) -> (usize, Option<ExprId>) {
    (path.len(), path.last().copied())
}

/// At most this many nodes of conjunctions are looked through per path
/// constraint by `asserted`.
const CONJUNCTS_LOOKED_AT: usize = 64;

/// The value `path` gives `cond` by asserting it or its negation outright
/// (as a constraint or a conjunct of one), without a solver. A work-item
/// re-running a loop whose trips an earlier one's path already took (the
/// same hash-consed test `start + k < end`) is decided here, not by one
/// solver query per trip.
pub fn asserted(pool: &ExprPool, path: &[ExprId], cond: ExprId) -> Option<bool> {
    let negated = match *pool.get(cond) {
        Expr::Not(x) => Some(x),
        _ => None,
    };
    for &c in path.iter().rev() {
        let mut stack = vec![c];
        let mut looked = 0;
        while let Some(e) = stack.pop() {
            if e == cond {
                return Some(true);
            }
            if negated == Some(e) || matches!(*pool.get(e), Expr::Not(x) if x == cond) {
                return Some(false);
            }
            looked += 1;
            if looked > CONJUNCTS_LOOKED_AT {
                break;
            }
            if let Expr::Bin(BinOp::And, a, b) = *pool.get(e) {
                if pool.width(e) == 1 {
                    stack.push(a);
                    stack.push(b);
                }
            }
        }
    }
    None
}
