//! Which state runs next. DFS finishes paths early; BFS keeps them in step;
//! random-path picks a state at random with a seeded generator, so a run is
//! reproducible for a given seed.

use crate::config::SearcherKind;
use crate::exec::engine::state::State;
use std::collections::VecDeque;

pub struct Searcher {
    kind: SearcherKind,
    states: VecDeque<State>,
    rng: u64,
}

impl Searcher {
    pub fn new(kind: SearcherKind, seed: u64) -> Self {
        Searcher { kind, states: VecDeque::new(), rng: seed ^ 0x9e37_79b9_7f4a_7c15 }
    }

    pub fn push(&mut self, s: State) {
        self.states.push_back(s);
    }

    pub fn pop(&mut self) -> Option<State> {
        match self.kind {
            SearcherKind::Dfs => self.states.pop_back(),
            SearcherKind::Bfs => self.states.pop_front(),
            SearcherKind::RandomPath => {
                if self.states.is_empty() {
                    return None;
                }
                // Weight 2^-depth approximated by picking the shallower of
                // two random candidates.
                let a = self.next() as usize % self.states.len();
                let b = self.next() as usize % self.states.len();
                let pick = if self.states[a].depth <= self.states[b].depth { a } else { b };
                self.states.swap_remove_back(pick)
            }
        }
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// xorshift64*: small, fast, deterministic.
    fn next(&mut self) -> u64 {
        let mut x = self.rng;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.rng = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}
