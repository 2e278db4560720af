//! Race detection for OpenCL kernels (papers/klee-cl.txt section 7). The
//! executor reports each access to global or local memory to an
//! `AccessLog`; at each barrier and at the end of a group or kernel the log
//! yields the pairs of accesses that may conflict, each with the condition
//! under which they do. The executor asks the solver about the conditions
//! and turns the feasible ones into `race` findings.
//!
//! Two accesses conflict when they come from different work-items, touch
//! a common byte of the same object, at least one writes, they are not both
//! atomic, and no barrier orders them: in the same group, a barrier orders
//! two accesses to an address space when it fenced that space for both
//! work-items; across groups, nothing orders global accesses, and local
//! memory is not shared.
//!
//! Cost: records are bucketed by object and byte and by kind (plain read,
//! plain write, atomic), so pairs that can never race (read-read,
//! atomic-atomic, the same work-item) are never formed; a check at a
//! barrier looks only at records not yet checked against the records since
//! the last barrier that fenced their space for the whole group; once a
//! pair of source locations is known to race, its other pairs are skipped.

pub mod cli;

use crate::exec::memory::ObjectId;
use crate::expr::{CmpOp, ExprId, ExprPool};
use crate::ir::Loc;
use rustc_hash::{FxHashMap, FxHashSet};

pub const GLOBAL_SPACE: u32 = 1;
pub const LOCAL_SPACE: u32 = 3;

/// The fence flag of an address space (CLK_LOCAL_MEM_FENCE = 1,
/// CLK_GLOBAL_MEM_FENCE = 2) and its index in per-space arrays.
fn fence_of(space: u32) -> (u32, usize) {
    if space == LOCAL_SPACE {
        (1, 0)
    } else {
        (2, 1)
    }
}

#[derive(Clone, Debug)]
pub struct AccessRecord {
    /// Index of the work-item in the current group (enumerate) or pair.
    pub item: usize,
    /// Flat group index when ids are concrete (enumerate mode).
    pub group_key: Option<u64>,
    pub local_ids: [ExprId; 3],
    pub group_ids: [ExprId; 3],
    pub object: ObjectId,
    pub space: u32,
    /// Offset of the first byte from the object's base.
    pub offset: ExprId,
    pub len: u64,
    pub write: bool,
    pub atomic: bool,
    /// The bytes written, for telling benign write-write races.
    pub value: Option<Vec<ExprId>>,
    pub loc: Loc,
    /// Barriers the group (or pair) had passed when the access happened.
    pub interval: u32,
    /// Sequence number; records after `AccessLog::checked` are new.
    pub seq: u64,
}

/// The flags of one released barrier.
#[derive(Clone, Debug)]
struct Fence {
    /// Flags every work-item passed.
    all: u32,
    /// Each work-item's flags, when they differ between work-items.
    per_item: Option<Vec<u32>>,
}

#[derive(Clone, Default)]
pub struct AccessLog {
    /// Shared between forked states until one of them records an access:
    /// a branch whose other side is infeasible copies nothing.
    pub records: std::rc::Rc<Vec<AccessRecord>>,
    next_seq: u64,
    /// Records with `seq` below this were checked within their group.
    checked: u64,
    /// Pairs of source locations already reported.
    pub reported: FxHashSet<(Loc, Loc, bool)>,
    /// First record of the running work-group: checks within the group
    /// look only at its records, so their cost does not grow with the
    /// groups already done.
    group_first: usize,
    /// The barriers released in the running group (or pair), in order.
    fences: Vec<Fence>,
    /// Per space (local, global): how many of `fences` fenced it for every
    /// work-item, counted before each barrier (`full[s][k]` for barrier k).
    full: [Vec<u32>; 2],
    /// Per space: records with a smaller `seq` are ordered before every
    /// later access of the group by a barrier that fenced the space for all.
    horizon: [u64; 2],
}

/// A pair of accesses that conflict when `condition` holds.
pub struct Candidate {
    pub a: usize,
    pub b: usize,
    pub condition: ExprId,
    /// Write-write pairs: when the two writes store different bytes
    /// (false when they surely store the same; None when unknown).
    pub differ: Option<ExprId>,
}

/// Kinds of access, for pairing: only plain writes race with anything,
/// and atomics race with plain reads.
#[derive(Default)]
struct Kinds {
    reads: Vec<usize>,
    writes: Vec<usize>,
    atomics: Vec<usize>,
}

impl Kinds {
    fn push(&mut self, i: usize, r: &AccessRecord) {
        match (r.write, r.atomic) {
            (_, true) => self.atomics.push(i),
            (true, false) => self.writes.push(i),
            (false, false) => self.reads.push(i),
        }
    }

    /// Every pair of kinds that may race, each once.
    fn pairs(&self, mut f: impl FnMut(usize, usize)) {
        for (x, &w) in self.writes.iter().enumerate() {
            for &o in self.writes[x + 1..].iter().chain(&self.reads).chain(&self.atomics) {
                f(w, o);
            }
        }
        for &a in &self.atomics {
            for &r in &self.reads {
                f(a, r);
            }
        }
    }

    /// The records of `other` that may race with record `i` of kind `r`.
    fn partners(&self, r: &AccessRecord, mut f: impl FnMut(usize)) {
        let lists: [&Vec<usize>; 3] = match (r.write, r.atomic) {
            (true, false) => [&self.writes, &self.reads, &self.atomics],
            (_, true) => [&self.writes, &self.reads, &EMPTY],
            (false, _) => [&self.writes, &self.atomics, &EMPTY],
        };
        for l in lists {
            l.iter().for_each(|&j| f(j));
        }
    }
}

static EMPTY: Vec<usize> = Vec::new();

impl AccessLog {
    pub fn record(&mut self, mut r: AccessRecord) {
        r.seq = self.next_seq;
        r.interval = self.fences.len() as u32;
        self.next_seq += 1;
        std::rc::Rc::make_mut(&mut self.records).push(r);
    }

    /// Drops local-memory records of a finished group (the next group has
    /// its own local memory) and starts the next group's barrier history.
    pub fn forget_local(&mut self) {
        // Earlier groups' local records are gone already; only the running
        // group's tail needs filtering (order is kept).
        let records = std::rc::Rc::make_mut(&mut self.records);
        let mut kept = self.group_first;
        for i in self.group_first..records.len() {
            if records[i].space != LOCAL_SPACE {
                records.swap(kept, i);
                kept += 1;
            }
        }
        records.truncate(kept);
        self.group_first = records.len();
        self.fences.clear();
        self.full = Default::default();
        self.horizon = [self.next_seq; 2];
    }

    /// A barrier was released with these flags per work-item. `pair`: the
    /// two work-items may be in different groups, where a barrier orders
    /// nothing, so global records are kept for later checks.
    pub fn barrier(&mut self, flags: &[u32], pair: bool) {
        let all = flags.iter().fold(3, |acc, f| acc & f);
        let any = flags.iter().fold(0, |acc, f| acc | f);
        for (s, bit) in [(0, 1u32), (1, 2)] {
            if self.full[s].is_empty() {
                self.full[s].push(0);
            }
            let n = *self.full[s].last().expect("non-empty") + u32::from(all & bit != 0);
            self.full[s].push(n);
            if all & bit != 0 && !(pair && s == 1) {
                self.horizon[s] = self.next_seq;
            }
        }
        let per_item = (all != any).then(|| flags.to_vec());
        self.fences.push(Fence { all, per_item });
    }

    /// Whether a barrier between the two accesses (of the running group)
    /// fenced their address space for both work-items.
    fn ordered(&self, a: &AccessRecord, b: &AccessRecord) -> bool {
        let (lo, hi) = (a.interval.min(b.interval) as usize, a.interval.max(b.interval) as usize);
        if lo == hi {
            return false;
        }
        let (bit, s) = fence_of(a.space);
        let full = &self.full[s];
        let count = |k: usize| full.get(k).or(full.last()).copied().unwrap_or(0);
        if count(hi) > count(lo) {
            return true;
        }
        self.fences[lo..hi.min(self.fences.len())].iter().any(|f| match &f.per_item {
            Some(v) => v.get(a.item).is_some_and(|x| x & bit != 0) && v.get(b.item).is_some_and(|x| x & bit != 0),
            None => f.all & bit != 0,
        })
    }

    /// Candidate conflicts. `final_check` looks at the pairs from different
    /// groups (enumerate mode) that only the end of the kernel can judge;
    /// otherwise the pairs within the running group (or pair) with at
    /// least one access not checked before. With `allow_benign`, writes
    /// that surely store the same bytes are not paired.
    pub fn candidates(&mut self, pool: &mut ExprPool, final_check: bool, allow_benign: bool) -> Vec<Candidate> {
        let pair_mode = self.records.get(self.group_first).is_some_and(|r| r.group_key.is_none());
        if final_check && pair_mode {
            return Vec::new();
        }
        let first = if final_check { 0 } else { self.group_first };
        let mut by_byte: FxHashMap<(ObjectId, i64), Kinds> = FxHashMap::default();
        let mut by_object: FxHashMap<ObjectId, Kinds> = FxHashMap::default();
        let mut symbolic: Vec<usize> = Vec::new();
        for (i, r) in self.records.iter().enumerate().skip(first) {
            if final_check {
                if r.space == LOCAL_SPACE {
                    continue;
                }
            } else if r.seq < self.horizon[fence_of(r.space).1] && !(pair_mode && r.space != LOCAL_SPACE) {
                continue;
            }
            by_object.entry(r.object).or_default().push(i, r);
            match pool.as_const(r.offset) {
                Some(off) => {
                    let off = off as u64 as i64;
                    for k in 0..r.len as i64 {
                        by_byte.entry((r.object, off + k)).or_default().push(i, r);
                    }
                }
                None => symbolic.push(i),
            }
        }
        let mut out = Vec::new();
        let mut settled: FxHashSet<(Loc, Loc, bool)> = FxHashSet::default();
        let mut seen: FxHashSet<(usize, usize)> = FxHashSet::default();
        let records = &self.records;
        let mut consider = |this: &Self, pool: &mut ExprPool, i: usize, j: usize, out: &mut Vec<Candidate>| {
            let (a, b) = (&records[i], &records[j]);
            if !this.may_pair(a, b, final_check) {
                return;
            }
            let key = location_key(a, b);
            if this.reported.contains(&key) || settled.contains(&key) {
                return;
            }
            // Multi-byte records meet in several buckets: form each pair once.
            if (a.len > 1 || b.len > 1) && !seen.insert((i.min(j), i.max(j))) {
                return;
            }
            let Some(condition) = this.conflict_condition(pool, a, b, final_check) else { return };
            let differ = (a.write && b.write && !a.atomic && !b.atomic).then(|| values_differ(pool, a, b)).flatten();
            if allow_benign && differ.is_some_and(|d| pool.as_const(d) == Some(0)) {
                return;
            }
            // A pair that surely races settles its locations: no other
            // pair of them needs building.
            if pool.as_const(condition) == Some(1) && differ.is_none_or(|d| pool.is_const(d)) {
                settled.insert(key);
            }
            out.push(Candidate { a: i, b: j, condition, differ });
        };
        let mut keys: Vec<&(ObjectId, i64)> = by_byte.keys().collect();
        keys.sort_unstable();
        for key in keys {
            by_byte[key].pairs(|i, j| consider(self, pool, i, j, &mut out));
        }
        for &s in &symbolic {
            let r = &self.records[s];
            by_object[&r.object].partners(r, |j| {
                // Two symbolic records meet twice: form the pair from the
                // earlier one only.
                if j != s && !(symbolic_offset(pool, &self.records[j]) && j < s) {
                    consider(self, pool, s, j, &mut out);
                }
            });
        }
        if !final_check {
            self.checked = self.next_seq;
        }
        out
    }

    /// Cheap filters that need no expression: different work-items, at
    /// least one access new, groups that may share the memory.
    fn may_pair(&self, a: &AccessRecord, b: &AccessRecord, final_check: bool) -> bool {
        if a.object != b.object || (a.atomic && b.atomic) || !(a.write || b.write) {
            return false;
        }
        match (a.group_key, b.group_key) {
            (Some(ga), Some(gb)) if final_check => ga != gb && a.space != LOCAL_SPACE,
            (Some(ga), Some(gb)) => ga == gb && a.item != b.item && (a.seq >= self.checked || b.seq >= self.checked),
            _ => a.item != b.item && (a.seq >= self.checked || b.seq >= self.checked),
        }
    }

    fn conflict_condition(&self, pool: &mut ExprPool, a: &AccessRecord, b: &AccessRecord, final_check: bool) -> Option<ExprId> {
        let ordering = match (a.group_key, b.group_key) {
            (Some(_), Some(_)) => {
                if !final_check && self.ordered(a, b) {
                    return None;
                }
                pool.bool_const(true)
            }
            _ => {
                // Pair mode: the groups are symbolic.
                let mut same = pool.bool_const(true);
                for d in 0..3 {
                    let e = pool.eq(a.group_ids[d], b.group_ids[d]);
                    same = pool.and(same, e);
                }
                match (a.space == LOCAL_SPACE, self.ordered(a, b)) {
                    (true, false) => same,
                    (true, true) => return None,
                    (false, false) => pool.bool_const(true),
                    (false, true) => pool.not(same),
                }
            }
        };
        let overlap = overlap(pool, a.offset, a.len, b.offset, b.len);
        let cond = pool.and(ordering, overlap);
        (pool.as_const(cond) != Some(0)).then_some(cond)
    }
}

fn symbolic_offset(pool: &ExprPool, r: &AccessRecord) -> bool {
    !pool.is_const(r.offset)
}

/// When two writes of the same size store different bytes: at different
/// offsets, or with some byte different. None when the sizes differ (a
/// partial overlap is never called benign).
fn values_differ(pool: &mut ExprPool, a: &AccessRecord, b: &AccessRecord) -> Option<ExprId> {
    let (va, vb) = (a.value.as_ref()?, b.value.as_ref()?);
    if a.len != b.len || va.len() != vb.len() {
        return None;
    }
    let same_offset = pool.eq(a.offset, b.offset);
    let mut differ = pool.not(same_offset);
    for (&x, &y) in va.iter().zip(vb) {
        let e = pool.eq(x, y);
        let ne = pool.not(e);
        differ = pool.or(differ, ne);
    }
    Some(differ)
}

/// The source locations of a pair in a fixed order, so that (a, b) and
/// (b, a) are one race; write-write races are told apart from read-write
/// races of the same lines.
pub fn location_key(a: &AccessRecord, b: &AccessRecord) -> (Loc, Loc, bool) {
    let write_write = a.write && b.write;
    let k = |l: Loc| (l.file, l.line, l.column);
    if k(a.loc) <= k(b.loc) {
        (a.loc, b.loc, write_write)
    } else {
        (b.loc, a.loc, write_write)
    }
}

/// `[x, x+lx)` and `[y, y+ly)` share a byte (signed offsets).
pub fn overlap(pool: &mut ExprPool, x: ExprId, lx: u64, y: ExprId, ly: u64) -> ExprId {
    let clx = pool.constant(64, lx as u128);
    let cly = pool.constant(64, ly as u128);
    let x_end = pool.add(x, clx);
    let y_end = pool.add(y, cly);
    let a = pool.cmp(CmpOp::Slt, x, y_end);
    let b = pool.cmp(CmpOp::Slt, y, x_end);
    pool.and(a, b)
}
