//! The types of path-tree sharding (`check --shard K/N`): which shard a
//! run is (`PathShard`, part of the configuration) and the route a state
//! took (`Route`), which decides the shard that owns it. How the executor
//! uses them, and why the split is exact, is exec/engine/shard.rs.

// SplitMix64 spreads nearby choices over all 64 bits, so that routes
// taken mod N are balanced.
use crate::splitmix::splitmix64;

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
