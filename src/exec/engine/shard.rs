//! Path-tree shards (`check --shard K/N`): N processes split one
//! harness's paths between them, so that together they explore exactly
//! the paths of the unsharded run, each path once.
//!
//! Every state carries a `Route`: the branch decisions it took at forks
//! that are outside any merge region (a hash of the choice taken at each,
//! and the product of the forks' widths: how many subtrees the tree would
//! have at this level if it were as wide everywhere). Every shard runs the
//! same deterministic exploration until a state's width reaches
//! `split_width`; the state then belongs to shard `hash mod N`, and the
//! other shards drop it. A path that ends before that was explored by
//! every shard and is counted by the shard its route names. So path counts add up, and every
//! finding of the unsharded run is found by some shard.
//!
//! Forks inside a merge region are not decisions: their two sides will be
//! merged again at the join, and splitting them between shards would
//! change what is merged (and so the path count). A harness whose every
//! branch merges has no decision, and its one shard (the route's owner)
//! does all the work: correct, but not faster.
//!
//! The prefix above the split is explored by every shard, so it must unfold
//! the same way in each. Two things can make it differ:
//! - a step whose forks follow the state's model (the first value of a
//!   symbolic size, an access that may leave its object): models depend on
//!   each shard's solver history. Such a state's route is frozen before
//!   the step (`freeze_route`): everything below it belongs to one shard,
//!   whatever shape it takes there;
//! - a solver answer `unknown` (a timeout can differ between machines), or
//!   a model-dependent step inside a merge region (whose other states keep
//!   their routes). A shard that sees one says so (`uncertain`), and its
//!   report cannot be `equivalent`.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;

/// Which shard this run is: `index` from 0 (`--shard K/N` has K = index + 1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PathShard {
    /// This shard, from 0.
    pub index: u32,
    /// How many shards split the paths (N); 0 is taken as 1.
    pub count: u32,
}

impl PathShard {
    /// The width at which a state is given to a shard: about eight
    /// subtrees per shard balances them; every shard repeats the work
    /// above the split.
    pub fn split_width(self) -> u64 {
        8 * self.count.max(1) as u64
    }

    /// The shard that owns a route.
    pub fn owner(self, route: &Route) -> u32 {
        (route.hash % self.count.max(1) as u64) as u32
    }

    /// Whether this shard counts the paths of `route`. Every path is
    /// counted by exactly one shard, whichever explored it.
    pub fn owns(self, route: &Route) -> bool {
        self.owner(route) == self.index
    }

    /// Whether this shard explores a state of `route`: one not yet given
    /// to a shard (any shard may own paths below it), or one given to it.
    pub fn explores(self, route: &Route) -> bool {
        !route.decided(self) || self.owns(route)
    }
}

/// The decisions a state took at forks outside merge regions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// A hash of the choices taken at those forks, in order; the shard that
    /// owns the route is `hash mod N`.
    pub hash: u64,
    /// The product of the widths of those forks (saturating).
    pub width: u64,
}

impl Default for Route {
    fn default() -> Self {
        Route { hash: 0, width: 1 }
    }
}

impl Route {
    /// The route of the `choice`-th of `width` states out of a fork (the
    /// state that goes on is choice 0, the others 1, 2, ... in the order
    /// they were made).
    pub fn after(self, choice: u64, width: u64) -> Route {
        Route { hash: splitmix64(self.hash ^ splitmix64(choice.wrapping_add(1))), width: self.width.saturating_mul(width.max(1)) }
    }

    /// Whether the state was given to a shard (and dropped by the others).
    pub fn decided(&self, shard: PathShard) -> bool {
        self.width >= shard.split_width()
    }

    /// The route frozen here: no later fork is a decision, every path
    /// below belongs to the shard this route names now.
    pub fn frozen(self) -> Route {
        Route { width: u64::MAX, ..self }
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
    /// A step ended: `state` goes on and `others` were made from it (a
    /// fork, or extra states). When sharding, outside every merge region,
    /// a fork of a state not yet given to a shard is a decision: each
    /// side's route records its choice. States given to another shard are
    /// dropped. Returns whether `state` is kept; `others` keeps only the
    /// states kept. States inside a merge region are never dropped: their
    /// region waits for them.
    pub(in crate::exec) fn route_step(&mut self, state: &mut State, others: &mut Vec<State>) -> bool {
        let Some(shard) = self.config.shard else { return true };
        self.note_uncertain(state);
        if !state.merge.is_empty() || others.iter().any(|o| !o.merge.is_empty()) {
            return true;
        }
        let parent = state.route;
        if !others.is_empty() && !parent.decided(shard) {
            let width = 1 + others.len() as u64;
            state.route = parent.after(0, width);
            for (k, o) in others.iter_mut().enumerate() {
                o.route = parent.after(k as u64 + 1, width);
            }
        }
        others.retain(|o| shard.explores(&o.route));
        shard.explores(&state.route)
    }

    /// What `state` does next depends on its model (which value a symbolic
    /// size takes first, whether an address the model gives lands in
    /// another object), and models depend on each shard's solver history,
    /// so the shards could unfold it differently: its route is frozen,
    /// and all of its paths are the shard's its route names now. Inside a
    /// merge region the region's other states keep their routes, so the
    /// split is no longer certain.
    pub fn freeze_route(&mut self, state: &mut State) {
        let Some(shard) = self.config.shard else { return };
        if state.route.decided(shard) {
            return;
        }
        state.route = state.route.frozen();
        if !state.merge.is_empty() {
            self.shard_uncertain = true;
        }
    }

    /// Whether this run counts the path `state` just ended (always, unless
    /// sharding).
    pub(in crate::exec) fn owns_path(&mut self, state: &State) -> bool {
        let Some(shard) = self.config.shard else { return true };
        self.note_uncertain(state);
        shard.owns(&state.route)
    }

    /// An undecided state whose path rests on an `unknown` solver answer:
    /// the other shards may have unfolded the prefix differently.
    pub(in crate::exec) fn note_uncertain(&mut self, state: &State) {
        if let Some(shard) = self.config.shard {
            if state.unconfirmed_path && !state.route.decided(shard) {
                self.shard_uncertain = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binary_tree_is_split_where_each_shard_gets_about_eight_subtrees() {
        let shard = PathShard { index: 0, count: 3 };
        let mut route = Route::default();
        let mut depth = 0;
        while !route.decided(shard) {
            route = route.after(0, 2);
            depth += 1;
        }
        assert_eq!((depth, route.width), (5, 32));
        // A four-way switch gets there in fewer levels.
        assert!(Route::default().after(0, 4).after(3, 4).decided(PathShard { index: 0, count: 2 }));
    }

    #[test]
    fn the_subtrees_at_the_split_depth_are_spread_over_the_shards() {
        // The 32 routes of a full binary tree at depth 5, over 4 shards.
        let mut routes = vec![Route::default()];
        for _ in 0..5 {
            routes = routes.iter().flat_map(|r| [r.after(0, 2), r.after(1, 2)]).collect();
        }
        let mut per_shard = [0; 4];
        for r in &routes {
            per_shard[PathShard { index: 0, count: 4 }.owner(r) as usize] += 1;
        }
        assert!(per_shard.iter().all(|&n| (4..=12).contains(&n)), "{per_shard:?}");
    }
}
