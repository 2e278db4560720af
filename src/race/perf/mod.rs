//! GPU performance diagnostics over the race detector's access log
//! (`symcross race --perf`, papers/gklee.txt section 3.2): at the end of
//! each barrier interval, the accesses and branches of the interval are
//! grouped into warp instructions (the n-th execution of one source
//! access by the work-items of one warp), and each is measured: the bank
//! conflict degree of a `__local` access (bank.rs), the transactions of a
//! global access (coalescing.rs), whether a branch splits the warp
//! (divergence.rs). This module is pure: the executor evaluates the
//! measures on the path's inputs and asks the solver for worse ones.
//!
//! Warps are runs of `warp_size` consecutive local linear ids of a group,
//! which is how NVIDIA and AMD hardware forms them. Only enumerate mode
//! has whole warps; pair mode's two symbolic work-items have none.

pub mod bank;
pub mod coalescing;
pub mod divergence;

use super::AccessLog;
use crate::expr::ExprId;
use crate::ir::Loc;
use crate::memory::ObjectId;
use rustc_hash::FxHashMap;

/// A branch a work-item took, with its condition: the direction it took
/// is the condition's value on the path.
#[derive(Clone, Debug)]
pub struct BranchRecord {
    /// Flat group index (enumerate mode).
    pub group_key: u64,
    /// Index of the work-item in its group: its local linear id.
    pub item: usize,
    /// The group's ids, for messages.
    pub group_ids: [ExprId; 3],
    /// The branch's source location.
    pub loc: Loc,
    /// The condition (true: the `then` side).
    pub cond: ExprId,
}

/// What the performance diagnostics keep of a path besides the access
/// log: the branches of the running interval, and how far the log's
/// accesses were already measured.
#[derive(Clone, Default)]
pub struct PerfLog {
    /// Branches taken since the last measure.
    pub branches: Vec<BranchRecord>,
    /// Access records with a smaller sequence number were measured.
    measured: u64,
    /// Branches not kept since the last measure, past
    /// `MAX_BRANCH_RECORDS`.
    pub dropped: u64,
}

/// Branches one barrier interval keeps for the divergence measure: each
/// costs a record, copied when the path forks, and a kernel looping long
/// between barriers would otherwise hold millions. Past it the branches
/// are not measured, and the report says so.
pub const MAX_BRANCH_RECORDS: usize = 1 << 18;

impl PerfLog {
    /// Keeps a branch for the divergence measure, unless the interval
    /// already holds `MAX_BRANCH_RECORDS`.
    pub fn branch(&mut self, r: BranchRecord) {
        if self.branches.len() < MAX_BRANCH_RECORDS {
            self.branches.push(r);
        } else {
            self.dropped += 1;
        }
    }
}

/// One work-item's part of a warp instruction.
#[derive(Clone, Copy, Debug)]
pub struct Lane {
    /// Its local linear id.
    pub thread: u32,
    /// The value measured: an access's offset, a branch's condition.
    pub value: ExprId,
    /// It takes part only when this holds (accesses on merged paths).
    pub guard: Option<ExprId>,
}

/// The n-th execution of one access by the work-items of one warp.
#[derive(Clone, Debug)]
pub struct WarpAccess {
    /// The access's source location.
    pub loc: Loc,
    /// The object accessed.
    pub object: ObjectId,
    /// `GLOBAL_SPACE` or `LOCAL_SPACE`.
    pub space: u32,
    /// A store (rather than a load).
    pub write: bool,
    /// Bytes each work-item accesses.
    pub len: u64,
    /// Flat group index.
    pub group_key: u64,
    /// The group's ids, for messages.
    pub group_ids: [ExprId; 3],
    /// Warp index within the group.
    pub warp: u32,
    /// The work-items, by local linear id; `value` is the offset.
    pub lanes: Vec<Lane>,
}

/// The n-th execution of one branch by the work-items of one warp.
#[derive(Clone, Debug)]
pub struct WarpBranch {
    /// The branch's source location.
    pub loc: Loc,
    /// Flat group index.
    pub group_key: u64,
    /// The group's ids, for messages.
    pub group_ids: [ExprId; 3],
    /// Warp index within the group.
    pub warp: u32,
    /// The work-items, by local linear id; `value` is the condition.
    pub lanes: Vec<Lane>,
}

/// What one barrier interval gives to measure.
#[derive(Default)]
pub struct PerfWindow {
    /// Warp instructions of global and local accesses.
    pub accesses: Vec<WarpAccess>,
    /// Warp instructions of branches.
    pub branches: Vec<WarpBranch>,
    /// Branches past `MAX_BRANCH_RECORDS`, not measured.
    pub dropped_branches: u64,
}

impl AccessLog {
    /// The accesses and branches made since the last call, as warp
    /// instructions of `warp_size` work-items; enumerate mode only (pair
    /// mode's records carry no group key and are left out).
    pub fn take_perf_window(&mut self, warp_size: u32) -> PerfWindow {
        self.commit();
        let from = self.perf.measured;
        self.perf.measured = self.next_seq;
        let start = self.records.len() - self.records.iter().rev().take_while(|r| r.seq >= from).count();
        let accesses = warp_accesses(self, start, warp_size);
        let branches = warp_branches(&std::mem::take(&mut self.perf.branches), warp_size);
        let dropped_branches = std::mem::take(&mut self.perf.dropped);
        PerfWindow { accesses, branches, dropped_branches }
    }
}

/// Groups records into warp instructions. The k-th execution of a source
/// access by each work-item of a warp is taken as one instruction of the
/// warp: work-items of a warp run in lockstep while they agree on the
/// path. Asynchronous copies are the group's, not a warp's: left out, as
/// are calls to functions without a body (no instruction of the warp).
pub fn warp_accesses(log: &AccessLog, start: usize, warp_size: u32) -> Vec<WarpAccess> {
    type Key = (u64, u32, Loc, bool, ObjectId, u32);
    let mut seen: FxHashMap<(u64, usize, Loc, bool, ObjectId), u32> = FxHashMap::default();
    let mut index: FxHashMap<Key, usize> = FxHashMap::default();
    let mut out: Vec<WarpAccess> = Vec::new();
    for r in &log.records[start..] {
        let Some(group_key) = log.group_key(r) else { continue };
        if r.async_event().is_some() || r.whole_object() {
            continue;
        }
        let loc = log.loc(r);
        let n = seen.entry((group_key, r.item as usize, loc, r.write, r.object)).or_insert(0);
        let occurrence = *n;
        *n += 1;
        let warp = r.item / warp_size.max(1);
        let lane = Lane { thread: r.item, value: r.offset, guard: r.guard() };
        let key = (group_key, warp, loc, r.write, r.object, occurrence);
        match index.get(&key) {
            Some(&i) => out[i].lanes.push(lane),
            None => {
                index.insert(key, out.len());
                out.push(WarpAccess {
                    loc,
                    object: r.object,
                    space: r.space(),
                    write: r.write,
                    len: r.size(),
                    group_key,
                    group_ids: log.group_ids(r),
                    warp,
                    lanes: vec![lane],
                });
            }
        }
    }
    out
}

/// Groups branch records into warp instructions, as `warp_accesses` does.
pub fn warp_branches(records: &[BranchRecord], warp_size: u32) -> Vec<WarpBranch> {
    let mut seen: FxHashMap<(u64, usize, Loc), u32> = FxHashMap::default();
    let mut index: FxHashMap<(u64, u32, Loc, u32), usize> = FxHashMap::default();
    let mut out: Vec<WarpBranch> = Vec::new();
    for r in records {
        let n = seen.entry((r.group_key, r.item, r.loc)).or_insert(0);
        let occurrence = *n;
        *n += 1;
        let warp = (r.item / warp_size.max(1) as usize) as u32;
        let lane = Lane { thread: r.item as u32, value: r.cond, guard: None };
        match index.get(&(r.group_key, warp, r.loc, occurrence)) {
            Some(&i) => out[i].lanes.push(lane),
            None => {
                index.insert((r.group_key, warp, r.loc, occurrence), out.len());
                out.push(WarpBranch { loc: r.loc, group_key: r.group_key, group_ids: r.group_ids, warp, lanes: vec![lane] });
            }
        }
    }
    out
}

/// Threads named in a message: `0`, `0 and 8`, `0, 8, 16 and 24`, or the
/// first four and how many more.
pub fn thread_list(threads: &[u32]) -> String {
    let shown: Vec<String> = threads.iter().take(4).map(u32::to_string).collect();
    match (threads.len(), shown.len()) {
        (0, _) => String::new(),
        (1, _) => shown[0].clone(),
        (n, 4) if n > 4 => format!("{} and {} more", shown.join(", "), n - 4),
        _ => format!("{} and {}", shown[..shown.len() - 1].join(", "), shown[shown.len() - 1]),
    }
}

/// How many distinct `keys` hold among those whose `active` holds, as an
/// expression of `width` bits: each key counts at its first active lane.
pub fn distinct_count(pool: &mut crate::expr::ExprPool, keys: &[(ExprId, ExprId)], width: u32) -> ExprId {
    let one = pool.constant(width, 1);
    let zero = pool.constant(width, 0);
    let mut sum = zero;
    for (t, &(key, active)) in keys.iter().enumerate() {
        let first = first_of_key(pool, keys, t, key, active);
        let add = pool.ite(first, one, zero);
        sum = pool.add(sum, add);
    }
    sum
}

/// Lane `t` is active and no earlier active lane has its key.
fn first_of_key(pool: &mut crate::expr::ExprPool, keys: &[(ExprId, ExprId)], t: usize, key: ExprId, active: ExprId) -> ExprId {
    let mut first = active;
    for &(other, other_active) in &keys[..t] {
        let same = pool.eq(other, key);
        let taken = pool.and(other_active, same);
        let not_taken = pool.not(taken);
        first = pool.and(first, not_taken);
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_listed_briefly() {
        assert_eq!(thread_list(&[3]), "3");
        assert_eq!(thread_list(&[0, 8]), "0 and 8");
        assert_eq!(thread_list(&[0, 8, 16, 24]), "0, 8, 16 and 24");
        assert_eq!(thread_list(&[0, 1, 2, 3, 4, 5]), "0, 1, 2, 3 and 2 more");
    }

    #[test]
    fn distinct_keys_are_counted_once() {
        let mut pool = crate::expr::ExprPool::new();
        let t = pool.bool_const(true);
        let f = pool.bool_const(false);
        let k = |p: &mut crate::expr::ExprPool, v: u128| p.constant(64, v);
        let keys = [(k(&mut pool, 1), t), (k(&mut pool, 2), t), (k(&mut pool, 1), t), (k(&mut pool, 3), f)];
        let n = distinct_count(&mut pool, &keys, 32);
        assert_eq!(pool.as_const(n), Some(2));
    }
}
