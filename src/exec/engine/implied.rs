//! Branches a path already implies, remembered while the path condition
//! stays the same. A loop whose test the path decides (every iteration
//! of `while (x + 100 < 102)` once `x < 2` is known) would otherwise ask
//! the model, the probes and the solver again at every iteration, which
//! makes a long concrete-trip loop over symbolic data crawl.

use crate::expr::ExprId;

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
