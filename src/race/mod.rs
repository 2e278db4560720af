//! Race detection for OpenCL kernels (papers/klee-cl.txt section 7). The
//! executor reports each access to global or local memory to an
//! `AccessLog`; at each barrier and at the end of a group or kernel the log
//! yields the pairs of accesses that may conflict, each with the condition
//! under which they do. The executor asks the solver about the conditions
//! and turns the feasible ones into `race` findings.
//!
//! Two accesses conflict when they come from different work-items, touch
//! a common byte of the same object, at least one writes, they are not both
//! atomic, and no barrier orders them: in the same group, a barrier whose
//! fence covers the address space separates intervals; across groups,
//! nothing orders global accesses, and local memory is not shared.

pub mod cli;

use crate::exec::memory::ObjectId;
use crate::expr::{CmpOp, ExprId, ExprPool};
use crate::ir::Loc;
use rustc_hash::{FxHashMap, FxHashSet};

pub const GLOBAL_SPACE: u32 = 1;
pub const LOCAL_SPACE: u32 = 3;

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
    /// Barrier interval of the work-item for this address space.
    pub epoch: u32,
    /// Sequence number; records after `AccessLog::checked` are new.
    pub seq: u64,
}

#[derive(Clone, Default)]
pub struct AccessLog {
    pub records: Vec<AccessRecord>,
    next_seq: u64,
    /// Records with `seq` below this were checked within their group.
    checked: u64,
    /// Pairs of source locations already reported.
    pub reported: FxHashSet<(Loc, Loc, bool)>,
    /// First record of the running work-group: checks within the group
    /// (at barriers) look only at its records, so their cost does not grow
    /// with the groups already done.
    group_start: u64,
    /// Index in `records` of the running group's first record (records are
    /// in sequence order), so that per-group work does not scan the whole
    /// log: a kernel of many groups stays linear.
    group_first: usize,
}

/// A pair of accesses that conflict when `condition` holds.
pub struct Candidate {
    pub a: usize,
    pub b: usize,
    pub condition: ExprId,
}

impl AccessLog {
    pub fn record(&mut self, mut r: AccessRecord) {
        r.seq = self.next_seq;
        self.next_seq += 1;
        self.records.push(r);
    }

    /// Drops local-memory records of a finished group: the next group has
    /// its own local memory.
    pub fn forget_local(&mut self) {
        // Earlier groups' local records are gone already; only the running
        // group's tail needs filtering (order is kept).
        let mut kept = self.group_first;
        for i in self.group_first..self.records.len() {
            if self.records[i].space != LOCAL_SPACE {
                self.records.swap(kept, i);
                kept += 1;
            }
        }
        self.records.truncate(kept);
        self.group_start = self.next_seq;
        self.group_first = self.records.len();
    }

    /// Candidate conflicts. `final_check` adds the pairs from different
    /// groups (enumerate mode) that only the end of the kernel can judge.
    pub fn candidates(&mut self, pool: &mut ExprPool, final_check: bool) -> Vec<Candidate> {
        let mut pairs: FxHashSet<(usize, usize)> = FxHashSet::default();
        let mut by_byte: FxHashMap<(ObjectId, i64), Vec<usize>> = FxHashMap::default();
        let mut symbolic: Vec<usize> = Vec::new();
        let first = if final_check { 0 } else { self.group_first };
        for (i, r) in self.records.iter().enumerate().skip(first) {
            if !final_check && r.seq < self.group_start {
                continue;
            }
            match pool.as_const(r.offset) {
                Some(off) => {
                    let off = off as u64 as i64;
                    for k in 0..r.len as i64 {
                        by_byte.entry((r.object, off + k)).or_default().push(i);
                    }
                }
                None => symbolic.push(i),
            }
        }
        for list in by_byte.values() {
            for (x, &i) in list.iter().enumerate() {
                for &j in &list[x + 1..] {
                    pairs.insert((i.min(j), i.max(j)));
                }
            }
        }
        for &s in &symbolic {
            for (j, r) in self.records.iter().enumerate().skip(first) {
                if !final_check && r.seq < self.group_start {
                    continue;
                }
                if j != s && r.object == self.records[s].object {
                    pairs.insert((s.min(j), s.max(j)));
                }
            }
        }
        let mut sorted: Vec<(usize, usize)> = pairs.into_iter().collect();
        sorted.sort_unstable();
        let mut out = Vec::new();
        for (i, j) in sorted {
            if let Some(condition) = self.conflict_condition(pool, i, j, final_check) {
                out.push(Candidate { a: i, b: j, condition });
            }
        }
        self.checked = self.next_seq;
        out
    }

    fn conflict_condition(&self, pool: &mut ExprPool, i: usize, j: usize, final_check: bool) -> Option<ExprId> {
        let (a, b) = (&self.records[i], &self.records[j]);
        let new = a.seq >= self.checked || b.seq >= self.checked;
        if !(a.write || b.write) || (a.atomic && b.atomic) || a.object != b.object {
            return None;
        }
        let ordering = match (a.group_key, b.group_key) {
            (Some(ga), Some(gb)) => {
                if ga == gb {
                    // Same group: same work-item never races with itself;
                    // a barrier between them orders them.
                    if a.item == b.item || a.epoch != b.epoch || !new {
                        return None;
                    }
                    pool.bool_const(true)
                } else {
                    if !final_check || a.space == LOCAL_SPACE {
                        return None;
                    }
                    pool.bool_const(true)
                }
            }
            _ => {
                // Pair mode: the groups are symbolic.
                if a.item == b.item || !new {
                    return None;
                }
                let mut same = pool.bool_const(true);
                for d in 0..3 {
                    let e = pool.eq(a.group_ids[d], b.group_ids[d]);
                    same = pool.and(same, e);
                }
                match (a.space == LOCAL_SPACE, a.epoch == b.epoch) {
                    (true, true) => same,
                    (true, false) => return None,
                    (false, true) => pool.bool_const(true),
                    (false, false) => pool.not(same),
                }
            }
        };
        let overlap = overlap(pool, a.offset, a.len, b.offset, b.len);
        let cond = pool.and(ordering, overlap);
        (pool.as_const(cond) != Some(0)).then_some(cond)
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
