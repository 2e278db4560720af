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

impl<'m> Executor<'m> {
    /// A step ended: `state` goes on and `others` were made from it (a
    /// fork, or extra states). When sharding, outside every merge region,
    /// a fork of a state not yet given to a shard is a decision: each
    /// side's route records its choice. States given to another shard are
    /// dropped. Returns whether `state` is kept; `others` keeps only the
    /// states kept. States inside a merge region are never dropped: their
    /// region waits for them.
    pub(in crate::exec) fn route_step(&mut self, state: &mut State, others: &mut Vec<State>) -> bool {
        let Some(shard) = self.cx.config.shard else { return true };
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
    pub(in crate::exec) fn freeze_route(&mut self, state: &mut State) {
        let Some(shard) = self.cx.config.shard else { return };
        if state.route.decided(shard) {
            return;
        }
        state.route = state.route.frozen();
        if !state.merge.is_empty() {
            self.log.shard_uncertain = true;
        }
    }

    /// Whether this run counts the path `state` just ended (always, unless
    /// sharding).
    pub(in crate::exec) fn owns_path(&mut self, state: &State) -> bool {
        let Some(shard) = self.cx.config.shard else { return true };
        self.note_uncertain(state);
        shard.owns(&state.route)
    }

    /// An undecided state whose path rests on an `unknown` solver answer:
    /// the other shards may have unfolded the prefix differently.
    pub(in crate::exec) fn note_uncertain(&mut self, state: &State) {
        if let Some(shard) = self.cx.config.shard {
            if state.unconfirmed_path && !state.route.decided(shard) {
                self.log.shard_uncertain = true;
            }
        }
    }
}
