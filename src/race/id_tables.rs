//! The ids of the work-items whose accesses the log holds, each kept once:
//! a record names its work-item's local ids and its group by their places
//! here (8 bytes) instead of carrying six 64-bit ids and a group key (72
//! bytes). Local ids repeat in every group (the same constants) and a
//! group's ids are shared by its work-items, so the tables hold one group
//! size's local ids and one entry per group, however many work-items ran.

use crate::expr::ExprId;
use crate::ir::Loc;
use rustc_hash::FxHashMap;

/// A work-item's local ids, and its group as the flat index (enumerate
/// mode) and the ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkItemIds {
    /// Local id per dimension.
    pub local: [ExprId; 3],
    /// Flat group index when ids are concrete (enumerate mode).
    pub group_key: Option<u64>,
    /// Group id per dimension.
    pub group: [ExprId; 3],
}

/// Local ids, groups and source locations, each stored once, by place.
#[derive(Clone, Default)]
pub(super) struct IdTables {
    locals: Vec<[ExprId; 3]>,
    local_at: FxHashMap<[ExprId; 3], u32>,
    groups: Vec<(Option<u64>, [ExprId; 3])>,
    group_at: FxHashMap<(Option<u64>, [ExprId; 3]), u32>,
    /// The source locations of accesses (a kernel has a few): a record
    /// names its location by place (4 bytes) instead of carrying it (12).
    locs: Vec<Loc>,
    /// Places of `locs` by location, once there are more than
    /// `LINEAR_LOCS` of them.
    loc_at: FxHashMap<Loc, u32>,
}

/// Locations searched one by one before the hash index is used: a
/// kernel's few access sites are found faster than by hashing.
const LINEAR_LOCS: usize = 16;

impl IdTables {
    /// The places of `ids`, when both its local ids and its group are
    /// stored.
    pub fn find(&self, ids: &WorkItemIds) -> Option<(u32, u32)> {
        Some((*self.local_at.get(&ids.local)?, *self.group_at.get(&(ids.group_key, ids.group))?))
    }

    /// The place of these local ids, when stored.
    pub fn find_local(&self, local: &[ExprId; 3]) -> Option<u32> {
        self.local_at.get(local).copied()
    }

    /// The places of `ids`, storing what is not stored yet.
    pub fn insert(&mut self, ids: &WorkItemIds) -> (u32, u32) {
        let local = *self.local_at.entry(ids.local).or_insert_with(|| {
            self.locals.push(ids.local);
            (self.locals.len() - 1) as u32
        });
        let group = *self.group_at.entry((ids.group_key, ids.group)).or_insert_with(|| {
            self.groups.push((ids.group_key, ids.group));
            (self.groups.len() - 1) as u32
        });
        (local, group)
    }

    /// The place of a source location, when stored.
    pub fn find_loc(&self, loc: Loc) -> Option<u32> {
        if self.locs.len() <= LINEAR_LOCS {
            self.locs.iter().position(|l| *l == loc).map(|k| k as u32)
        } else {
            self.loc_at.get(&loc).copied()
        }
    }

    /// Stores a source location not stored yet; its place.
    pub fn insert_loc(&mut self, loc: Loc) -> u32 {
        let at = self.locs.len() as u32;
        self.locs.push(loc);
        if self.locs.len() > LINEAR_LOCS {
            if self.loc_at.is_empty() {
                self.loc_at.extend(self.locs.iter().enumerate().map(|(k, l)| (*l, k as u32)));
            } else {
                self.loc_at.insert(loc, at);
            }
        }
        at
    }

    /// The source location stored at `at`.
    pub fn loc(&self, at: u32) -> Loc {
        self.locs[at as usize]
    }

    /// The local ids stored at `at`.
    pub fn local(&self, at: u32) -> [ExprId; 3] {
        self.locals[at as usize]
    }

    /// The group (key and ids) stored at `at`.
    pub fn group(&self, at: u32) -> (Option<u64>, [ExprId; 3]) {
        self.groups[at as usize]
    }
}
