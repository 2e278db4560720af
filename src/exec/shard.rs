//! Path-tree shards (`check --shard K/N`): N processes split one
//! harness's paths between them, so that together they explore exactly
//! the paths of the unsharded run, each path once.
//!
//! Every state carries a `Route`: the branch decisions it took at forks
//! that are outside any merge region (a hash of the choice taken at each
//! and how many there were). Every shard runs the same deterministic
//! exploration until a state has taken `depth` such decisions; the state
//! then belongs to shard `hash mod N`, and the other shards drop it. A
//! path that ends before that depth was explored by every shard and is
//! counted by the shard its route names. So path counts add up, and every
//! finding of the unsharded run is found by some shard.
//!
//! Forks inside a merge region are not decisions: their two sides will be
//! merged again at the join, and splitting them between shards would
//! change what is merged (and so the path count). A harness whose every
//! branch merges has no decision, and its one shard (the route's owner)
//! does all the work: correct, but not faster.
//!
//! The prefix above `depth` is explored by every shard, so it must unfold
//! the same way in each: it does unless a solver answer was `unknown`
//! there (a timeout can differ between machines). A shard that sees one
//! says so (`uncertain`), and its report cannot be `equivalent`.

use super::executor::Executor;
use super::state::State;

/// Which shard this run is: `index` from 0 (`--shard K/N` has K = index + 1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PathShard {
    pub index: u32,
    pub count: u32,
}

impl PathShard {
    /// Decisions taken before a state is given to a shard: enough for a
    /// full binary tree to give each shard about eight subtrees, which
    /// balances them; every shard repeats the work above that depth.
    pub fn depth(self) -> u32 {
        3 + (32 - (self.count.max(1) - 1).leading_zeros())
    }

    /// The shard that owns a route.
    pub fn owner(self, route: &Route) -> u32 {
        (route.hash % self.count.max(1) as u64) as u32
    }

    /// Whether this shard explores and counts the paths of `route`: it is
    /// still undecided and this shard owns the path it ends, or it was
    /// given to this shard (the others dropped it).
    pub fn owns(self, route: &Route) -> bool {
        route.decisions >= self.depth() || self.owner(route) == self.index
    }
}

/// The decisions a state took at forks outside merge regions.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Route {
    pub hash: u64,
    pub decisions: u32,
}

impl Route {
    /// The route of the `choice`-th state out of a fork (the state that
    /// goes on is choice 0, the others 1, 2, ... in the order they were made).
    pub fn after(self, choice: u64) -> Route {
        Route { hash: splitmix64(self.hash ^ splitmix64(choice.wrapping_add(1))), decisions: self.decisions + 1 }
    }
}

/// SplitMix64's finaliser: spreads nearby inputs over all 64 bits, so that
/// routes taken mod N are balanced.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl<'m> Executor<'m> {
    /// A fork happened: `state` goes on and `others` were made from it.
    /// When sharding and the fork is outside every merge region, it is a
    /// decision: each side's route records its choice, and sides that
    /// reach the split depth owned by another shard are dropped. Returns
    /// whether `state` is kept; `others` keeps only the states kept.
    pub(super) fn route_fork(&mut self, state: &mut State, others: &mut Vec<State>) -> bool {
        let Some(shard) = self.config.shard else { return true };
        self.note_uncertain(state);
        if !state.merge.is_empty() || others.iter().any(|o| !o.merge.is_empty()) {
            return true;
        }
        let parent = state.route;
        if parent.decisions >= shard.depth() {
            // Already this shard's: everything below it is too.
            return true;
        }
        let keep = |s: &mut State, choice: u64| {
            s.route = parent.after(choice);
            s.route.decisions < shard.depth() || shard.owner(&s.route) == shard.index
        };
        let mut choice = 1;
        others.retain_mut(|o| {
            choice += 1;
            keep(o, choice - 1)
        });
        keep(state, 0)
    }

    /// Whether this run counts the path `state` just ended (always, unless
    /// sharding).
    pub(super) fn owns_path(&mut self, state: &State) -> bool {
        let Some(shard) = self.config.shard else { return true };
        self.note_uncertain(state);
        shard.owns(&state.route)
    }

    /// An undecided state whose path rests on an `unknown` solver answer:
    /// the other shards may have unfolded the prefix differently.
    pub(super) fn note_uncertain(&mut self, state: &State) {
        if let Some(shard) = self.config.shard {
            if state.unconfirmed_path && state.route.decisions < shard.depth() {
                self.shard_uncertain = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_depth_gives_each_shard_about_eight_subtrees() {
        let depth = |n| PathShard { index: 0, count: n }.depth();
        assert_eq!((depth(1), depth(2), depth(3), depth(4), depth(5), depth(8)), (3, 4, 5, 5, 6, 6));
    }

    #[test]
    fn the_subtrees_at_the_split_depth_are_spread_over_the_shards() {
        // The 32 routes of a full binary tree at depth 5, over 4 shards.
        let mut routes = vec![Route::default()];
        for _ in 0..5 {
            routes = routes.iter().flat_map(|r| [r.after(0), r.after(1)]).collect();
        }
        let mut per_shard = [0; 4];
        for r in &routes {
            per_shard[PathShard { index: 0, count: 4 }.owner(r) as usize] += 1;
        }
        assert!(per_shard.iter().all(|&n| (4..=12).contains(&n)), "{per_shard:?}");
    }
}
