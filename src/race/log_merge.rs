//! Merging the access logs of two paths of one work-item that split at a
//! branch and met again at its join (exec/engine/merge.rs). Both logs share the
//! records made before the branch; each side's own records are kept, with
//! the condition of their side as a guard, so that a conflict involving
//! them is asked about only where that side was taken. Nothing else of
//! the log can differ: no barrier is released inside a merge region (a
//! state that passes a barrier never meets its join).

use super::{AccessLog, WorkItemIds};
use crate::expr::{ExprId, ExprPool};

impl AccessLog {
    /// Merges `other` into `self`: the first `prefix` records are common,
    /// the rest of `self` happened under `guard`, the rest of `other` under
    /// `other_guard`. False (and `self` unchanged) when the logs do not have
    /// that shape.
    pub fn merge_from(&mut self, other: &AccessLog, prefix: usize, guard: ExprId, other_guard: ExprId, pool: &mut ExprPool) -> bool {
        let same_history = self.fences.len() == other.fences.len()
            && self.group_first == other.group_first
            && self.checked == other.checked
            && self.horizon == other.horizon
            && self.waited == other.waited
            && self.havoc_fresh_from == other.havoc_fresh_from
            && self.warp_syncs == other.warp_syncs
            && self.warp_meetings == other.warp_meetings;
        // Both logs were last checked before the branch: the records since
        // it are all in their tails.
        let base = self.records.len();
        if !same_history
            || other.records.len() != base
            || prefix < base
            || prefix - base > self.tail.len()
            || prefix - base > other.tail.len()
        {
            return false;
        }
        let theirs = &other.tail[prefix - base..];
        // Sequence numbers of `other`'s own records restart where `self`'s
        // end, so that every record keeps a number of its own.
        let their_first_seq = other.next_seq - theirs.len() as u64;
        let renumber = |seq: u64, next: u64| if seq >= their_first_seq { next + (seq - their_first_seq) } else { seq };
        let next = self.next_seq;
        for r in &mut self.tail[prefix - base..] {
            r.set_guard(guarded(pool, r.guard(), guard));
        }
        for r in theirs {
            let mut r = r.clone();
            r.seq = renumber(r.seq, next);
            r.set_guard(guarded(pool, r.guard(), other_guard));
            // Ids `other` met first on its side are not in `self`'s tables.
            let ids = WorkItemIds { local: other.local_ids(&r), group_key: other.group_key(&r), group: other.group_ids(&r) };
            (r.local_at, r.group_at) = self.places_of(r.item as usize, &ids);
            r.loc_at = self.place_of_loc(other.loc(&r));
            self.tail.push(r);
        }
        self.next_seq = next + theirs.len() as u64;
        for s in 0..2 {
            let theirs_live = other.first_live[s].map(|q| renumber(q, next));
            self.first_live[s] = match (self.first_live[s], theirs_live) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            };
        }
        for (&event, &seq) in &other.unwaited {
            let seq = renumber(seq, next);
            self.unwaited.entry(event).and_modify(|q| *q = (*q).min(seq)).or_insert(seq);
        }
        self.reported.extend(other.reported.iter().copied());
        true
    }
}

/// `outer` and, when the record already had one, its own guard.
fn guarded(pool: &mut ExprPool, inner: Option<ExprId>, outer: ExprId) -> ExprId {
    match inner {
        Some(g) => pool.and(g, outer),
        None => outer,
    }
}
