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
//! Cost: objects no record writes are passed over; the others' records at
//! constant offsets are swept in offset order (shared_bytes.rs), and only
//! the bytes two of them share are bucketed by kind (plain read,
//! plain write, atomic), so pairs that can never race (read-read,
//! atomic-atomic, the same work-item) are never formed; a check at a
//! barrier looks only at records not yet checked against the records since
//! the last barrier that fenced their space for the whole group; once a
//! pair of source locations is known to race, its other pairs are skipped.

mod access_kind;
mod grid_order;
pub mod group_symmetry;
mod id_tables;
mod log_merge;
pub mod offset_difference;
pub mod perf;
mod shared_bytes;
mod warp_order;

use crate::expr::{CmpOp, ExprId, ExprPool};
use crate::ir::{Loc, LOCAL_SPACE};
use crate::memory::ObjectId;
pub use access_kind::AccessKind;
use id_tables::IdTables;
pub use id_tables::WorkItemIds;
use rustc_hash::{FxHashMap, FxHashSet};
use shared_bytes::{shared_bytes, Span};

/// The fence flag of an address space (CLK_LOCAL_MEM_FENCE = 1,
/// CLK_GLOBAL_MEM_FENCE = 2) and its index in per-space arrays.
fn fence_of(space: u32) -> (u32, usize) {
    if space == LOCAL_SPACE {
        (1, 0)
    } else {
        (2, 1)
    }
}

/// One access of a work-item to global or local memory, as the executor
/// reports it (`AccessLog::record` keeps it as an `AccessRecord`).
#[derive(Clone, Debug)]
pub struct ReportedAccess {
    /// Index of the work-item in the current group (enumerate) or pair.
    pub item: usize,
    /// The work-item's ids.
    pub ids: WorkItemIds,
    /// The memory object accessed.
    pub object: ObjectId,
    /// Its address space (`GLOBAL_SPACE` or `LOCAL_SPACE`).
    pub space: u32,
    /// Offset of the first byte from the object's base.
    pub offset: ExprId,
    /// Number of bytes accessed (`WHOLE_OBJECT`: any byte of the object).
    pub len: u64,
    /// A store (rather than a load).
    pub write: bool,
    /// An atomic operation.
    pub atomic: bool,
    /// The bytes written, for telling benign write-write races.
    pub value: Option<Vec<ExprId>>,
    /// Where in the kernel source the access is.
    pub loc: Loc,
    /// An asynchronous copy's access: the copy's event.
    pub async_event: Option<u64>,
}

/// One access of a work-item to global or local memory, as the log keeps
/// it. An NDRange of a million work-items logs millions of these, and an
/// enumerated kernel keeps its global ones to its end, so it is kept small
/// (64 bytes): the work-item's ids and the source location are places in
/// the log's tables (`AccessLog::local_ids`, `group_ids`, `group_key`,
/// `loc`); the bytes a store writes, when they are up to 8 constant bytes
/// (any concrete store of a scalar), are packed into one word; and what few
/// records have (an asynchronous copy's event, a guard, symbolic bytes
/// written, a length or address space too large for its field) is kept
/// out of line.
#[derive(Clone, Debug)]
pub struct AccessRecord {
    /// Index of the work-item in the current group (enumerate) or pair.
    pub item: u32,
    /// Place of the work-item's local ids in the log's id tables.
    local_at: u32,
    /// Place of the work-item's group (key and ids) in the id tables.
    group_at: u32,
    /// Place of the source location in the log's tables.
    loc_at: u32,
    /// The memory object accessed.
    pub object: ObjectId,
    /// Barriers the group (or pair) had passed when the access happened.
    pub interval: u32,
    /// Number of bytes accessed; `LEN_WHOLE` for `WHOLE_OBJECT`,
    /// `LEN_ELSEWHERE` when the length is in `rare`.
    len: u32,
    /// A store (rather than a load).
    pub write: bool,
    /// An atomic operation.
    pub atomic: bool,
    /// Its address space (`GLOBAL_SPACE` or `LOCAL_SPACE`);
    /// `SPACE_ELSEWHERE` when the space is in `rare`.
    space: u8,
    /// Where the bytes written are kept, if any.
    value_at: ValueAt,
    /// Offset of the first byte from the object's base.
    pub offset: ExprId,
    /// Sequence number; records after `AccessLog::checked` are new.
    pub seq: u64,
    /// The bytes written when `value_at` is `Packed`: byte k in bits
    /// 8k..8k+8.
    packed: u64,
    /// What few records carry.
    rare: Option<Box<Rare>>,
}

/// Where a record keeps the bytes a store wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ValueAt {
    /// No bytes kept (a load, an atomic, a call without a body).
    None,
    /// One constant byte per byte accessed, in `AccessRecord::packed`.
    Packed,
    /// In `Rare::value`.
    Rare,
}

/// A record's `len` when it accesses any byte of its object.
const LEN_WHOLE: u32 = u32::MAX;
/// A record's `len` when its length is in `Rare::len`.
const LEN_ELSEWHERE: u32 = u32::MAX - 1;
/// A record's `space` when its address space is in `Rare::space`.
const SPACE_ELSEWHERE: u8 = u8::MAX;

/// What few records carry.
#[derive(Clone, Debug, Default)]
struct Rare {
    /// An asynchronous copy's access: the copy's event. It is ordered only
    /// before accesses after a wait_group_events naming the event.
    async_event: Option<u64>,
    /// The access happens only when this holds (`None`: always). Set when
    /// the paths of a branch are merged (log_merge.rs): each side's
    /// accesses keep the condition of their side.
    guard: Option<ExprId>,
    /// The bytes written, when they are not as many constant bytes as the
    /// access has, up to 8 (symbolic bytes, a long copy).
    value: Option<Box<[ExprId]>>,
    /// The length, when it does not fit the record's field.
    len: u64,
    /// The address space, when it does not fit the record's field.
    space: u32,
}

/// The bytes `value` packed into a word (byte k in bits 8k..8k+8), when
/// it is `len` constant bytes and `len` is 1 to 8.
fn packed_bytes(value: &[ExprId], len: u64) -> Option<u64> {
    if value.is_empty() || value.len() > 8 || value.len() as u64 != len {
        return None;
    }
    let mut word = 0u64;
    for (k, e) in value.iter().enumerate() {
        word |= u64::from(e.as_byte_const()?) << (8 * k);
    }
    Some(word)
}

/// The length of an access that may touch any byte of its object, wherever
/// it starts: a call to a function without a body, which may read and
/// write all of every object it can reach. It meets every access of its
/// object, so it is paired as a symbolic-offset access is, never swept
/// byte by byte (an unsized buffer has no last byte).
pub const WHOLE_OBJECT: u64 = u64::MAX;

impl AccessRecord {
    /// Whether the access may touch any byte of its object.
    pub fn whole_object(&self) -> bool {
        self.len == LEN_WHOLE
    }

    /// Number of bytes accessed (`WHOLE_OBJECT`: any byte of the object).
    pub fn size(&self) -> u64 {
        match self.len {
            LEN_WHOLE => WHOLE_OBJECT,
            LEN_ELSEWHERE => self.rare.as_ref().map_or(0, |r| r.len),
            n => u64::from(n),
        }
    }

    /// Its address space (`GLOBAL_SPACE` or `LOCAL_SPACE`).
    pub fn space(&self) -> u32 {
        match self.space {
            SPACE_ELSEWHERE => self.rare.as_ref().map_or(0, |r| r.space),
            s => u32::from(s),
        }
    }

    /// The bytes written, for telling benign write-write races.
    pub fn value(&self) -> Option<std::borrow::Cow<'_, [ExprId]>> {
        match self.value_at {
            ValueAt::None => None,
            ValueAt::Packed => {
                Some(std::borrow::Cow::Owned((0..self.len).map(|k| ExprId::byte_const((self.packed >> (8 * k)) as u8)).collect()))
            }
            ValueAt::Rare => self.rare.as_ref().and_then(|r| r.value.as_deref()).map(std::borrow::Cow::Borrowed),
        }
    }

    /// An asynchronous copy's access: the copy's event. It is ordered only
    /// before accesses after a wait_group_events naming the event.
    pub fn async_event(&self) -> Option<u64> {
        self.rare.as_ref().and_then(|r| r.async_event)
    }

    /// The access happens only when this holds (`None`: always).
    pub fn guard(&self) -> Option<ExprId> {
        self.rare.as_ref().and_then(|r| r.guard)
    }

    fn set_guard(&mut self, guard: ExprId) {
        self.rare.get_or_insert_with(Default::default).guard = Some(guard);
    }
}

/// The flags of one released barrier.
#[derive(Clone, Debug)]
struct Fence {
    /// Flags every work-item passed.
    all: u32,
    /// Each work-item's flags, when they differ between work-items.
    per_item: Option<Vec<u32>>,
    /// The events whose copies it completed (wait_group_events).
    waits: Vec<u64>,
}

/// Every access of the run so far, with what orders them (barriers,
/// event waits), and the pairs already reported.
#[derive(Clone, Default)]
pub struct AccessLog {
    /// Shared between forked states until one of them records an access:
    /// a branch whose other side is infeasible copies nothing.
    pub records: std::rc::Rc<Vec<AccessRecord>>,
    /// The ids of the work-items the records name, shared between forked
    /// states as `records` is.
    ids: std::rc::Rc<IdTables>,
    /// The ids last recorded and their places: a work-item's accesses come
    /// one after another, so most records find their places here.
    last_ids: Option<(WorkItemIds, (u32, u32))>,
    /// Per work-item index (below `ITEMS_REMEMBERED`): its local ids last
    /// recorded and their place. The first access of the next work-item
    /// of a group finds its place here instead of by hashing its ids.
    item_locals: Vec<Option<([ExprId; 3], u32)>>,
    /// Source locations recorded and their places, by a hash of the
    /// location: a kernel's few access sites, met over and over, are found
    /// here instead of in the tables.
    recent_locs: [Option<(Loc, u32)>; RECENT_LOCS],
    /// Records made since the last check, owned by this state: a fork
    /// copies only these (a work-item branching on its own data forks once
    /// per work-item, and copying every record of the run each time made
    /// that quadratic). Checks move them into `records` first.
    tail: Vec<AccessRecord>,
    next_seq: u64,
    /// Records with `seq` below this were checked within their group.
    checked: u64,
    /// Pairs of source locations settled for the rest of the path: their
    /// race is reported confirmed, or could not be decided.
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
    /// Per event: the copy's records with a smaller `seq` are ordered
    /// before every later access by a wait for it.
    waited: FxHashMap<u64, u64>,
    /// Per event not waited for yet: the `seq` of its copy's first record.
    unwaited: FxHashMap<u64, u64>,
    /// Per space: the `seq` of the first record at or after the horizon.
    first_live: [Option<u64>; 2],
    /// Pair mode, once a barrier havocked shared memory: the number of the
    /// first fresh value that may stand for havocked bytes
    /// (exec/opencl/havoc.rs). A race that depends on one is unconfirmed.
    pub havoc_fresh_from: Option<u32>,
    /// Branches and measuring progress of the performance diagnostics
    /// (`race --perf`, perf/).
    pub perf: perf::PerfLog,
    /// The `__syncwarp` meetings of the running block, in schedule order
    /// (warp_order.rs).
    warp_syncs: Vec<warp_order::WarpSync>,
    /// Warp meetings (`__syncwarp`, shuffles, votes) of the running block.
    warp_meetings: u32,
}

/// Work-items (by index in their group) whose local ids' place the log
/// remembers: a group of more is looked up by hash past this index.
const ITEMS_REMEMBERED: usize = 4096;

/// Slots of the log's memory of recent source locations.
const RECENT_LOCS: usize = 8;

/// A pair of accesses that conflict when `condition` holds.
pub struct Candidate {
    /// Index of the first access in `AccessLog::records`.
    pub a: usize,
    /// Index of the second access in `AccessLog::records`.
    pub b: usize,
    /// When the two accesses touch a common byte (and are not ordered).
    pub condition: ExprId,
    /// Write-write pairs: when the two writes store different bytes
    /// (false when they surely store the same; None when unknown).
    /// Read-write pairs, under the read-write tolerance only: when the
    /// write stores bytes other than those read.
    pub differ: Option<ExprId>,
}

/// Which benign races are not reported: write-write races of equal values
/// (--allow-benign-races), read-write races where the write stores the
/// value the read returned (--allow-benign-read-write, GPUVerify's wider
/// tolerance).
#[derive(Clone, Copy, Debug, Default)]
pub struct Tolerance {
    /// Do not report write-write races that store the same value.
    pub write_write: bool,
    /// Do not report read-write races whose write stores the value read.
    pub read_write: bool,
}

/// Where `AccessLog::check` sends candidate conflicts: the executor asks
/// the solver and reports the feasible ones.
pub trait RaceSink {
    /// The pool the candidate's conditions live in.
    fn pool(&mut self) -> &mut ExprPool;
    /// Decides one candidate: whether it was reported as a race, and if
    /// so for how long its pair of source locations is settled.
    fn offer(&mut self, log: &AccessLog, candidate: Candidate) -> Offered;
}

/// What offering a candidate to the sink gave.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Offered {
    /// Not reported (no race, or not decided).
    NoRace,
    /// Reported, and nothing later on the path can change the finding
    /// (the race at its line is confirmed, or the solver could not decide
    /// it): its pair of locations is settled for the rest of the path.
    SettledForPath,
    /// Reported (or left to the race already reported at its line), but
    /// unconfirmed: settled for this check only, so that a later check may
    /// find the race confirmed and upgrade the finding.
    SettledForCheck,
}

/// Whether two kinds of access may race: at least one writes, and they
/// are not both atomic.
fn kinds_conflict(a: &AccessRecord, b: &AccessRecord) -> bool {
    (a.write || b.write) && !(a.atomic && b.atomic)
}

/// The records of one byte (or object) from one source location and kind
/// of access, by work-item.
struct Site {
    first: usize,
    items: Vec<(ItemKey, Vec<usize>)>,
}

/// A work-item: its group (enumerate mode) and index.
type ItemKey = (Option<u64>, usize);

/// Groups `list` into sites, and each site's records by work-item. Lists
/// are short (a few accesses per byte), so lookups are linear.
fn sites(log: &AccessLog, list: &[usize]) -> Vec<Site> {
    let mut out: Vec<(SiteKey, Site)> = Vec::new();
    for &i in list {
        let r = &log.records[i];
        let key = (log.loc(r), r.write, r.atomic, r.async_event().is_some());
        let s = match out.iter().position(|(k, _)| *k == key) {
            Some(s) => s,
            None => {
                out.push((key, Site { first: i, items: Vec::new() }));
                out.len() - 1
            }
        };
        let site = &mut out[s].1;
        let item = (log.group_key(r), r.item as usize);
        // Records come in sequence order, so one work-item's are mostly
        // adjacent. A work-item listed twice only costs pairs that the
        // same-work-item test drops.
        let found = if site.items.len() <= 32 {
            site.items.iter().rposition(|(k, _)| *k == item)
        } else {
            site.items.len().checked_sub(1).filter(|&k| site.items[k].0 == item)
        };
        match found {
            Some(k) => site.items[k].1.push(i),
            None => site.items.push((item, vec![i])),
        }
    }
    out.into_iter().map(|(_, s)| s).collect()
}

type SiteKey = (Loc, bool, bool, bool);

/// The state of one check: location pairs settled (reported), for the
/// rest of the path or for this check only.
struct Pairing {
    final_check: bool,
    tolerance: Tolerance,
    settled: FxHashSet<(Loc, Loc, bool)>,
    settled_here: FxHashSet<(Loc, Loc, bool)>,
}

impl Pairing {
    fn is_settled(&self, log: &AccessLog, key: &(Loc, Loc, bool)) -> bool {
        log.reported.contains(key) || self.settled.contains(key) || self.settled_here.contains(key)
    }

    /// Offers every racing pair of two sites of one byte, until their
    /// location pair is reported.
    fn site_pairs(&mut self, log: &AccessLog, sink: &mut dyn RaceSink, a: &Site, b: &Site, same: bool, byte: i64) {
        let (ra, rb) = (&log.records[a.first], &log.records[b.first]);
        if !kinds_conflict(ra, rb) || self.is_settled(log, &log.location_key(ra, rb)) {
            return;
        }
        // Different copies, or a copy and a work-item's own access, are
        // concurrent even when the same work-item made both.
        let copy_and_item = ra.async_event() != rb.async_event();
        for (x, (ka, ia)) in a.items.iter().enumerate() {
            let others = if same { &b.items[x + 1..] } else { &b.items[..] };
            for (kb, ib) in others {
                if ka == kb && !copy_and_item {
                    continue;
                }
                for &i in ia {
                    for &j in ib {
                        if self.consider(log, sink, i, j, Some(byte)) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Offers one pair; true when its location pair is settled. `byte` is
    /// the bucket the pair was met in, for records at constant offsets.
    fn consider(&mut self, log: &AccessLog, sink: &mut dyn RaceSink, i: usize, j: usize, byte: Option<i64>) -> bool {
        let (a, b) = (&log.records[i], &log.records[j]);
        let key = log.location_key(a, b);
        if self.is_settled(log, &key) {
            return true;
        }
        if !log.may_pair(a, b, self.final_check) {
            return false;
        }
        // Multi-byte records meet in the bucket of every byte they share:
        // offer each pair in the first one only (no set of pairs seen:
        // millions of pairs of one int made that set the run's cost).
        // Pairs with a symbolic offset are offered once by their loop.
        if let (Some(k), true) = (byte, a.size() > 1 || b.size() > 1) {
            let pool = sink.pool();
            let (oa, ob) = (pool.as_const(a.offset), pool.as_const(b.offset));
            if let (Some(oa), Some(ob)) = (oa.map(|o| o as u64 as i64), ob.map(|o| o as u64 as i64)) {
                if k != oa.max(ob) {
                    return false;
                }
            }
        }
        let pool = sink.pool();
        let Some(condition) = log.conflict_condition(pool, a, b, self.final_check) else { return false };
        let plain = !a.atomic && !b.atomic;
        let write_write = a.write && b.write;
        // Write-write pairs always carry `differ` (benign ones are labelled
        // even when reported); read-write pairs only under the tolerance.
        let differ = (plain && (write_write || self.tolerance.read_write)).then(|| values_differ(pool, a, b)).flatten();
        let tolerated = if write_write { self.tolerance.write_write } else { self.tolerance.read_write };
        if tolerated && differ.is_some_and(|d| pool.as_const(d) == Some(0)) {
            return false;
        }
        match sink.offer(log, Candidate { a: i, b: j, condition, differ }) {
            Offered::NoRace => false,
            Offered::SettledForPath => {
                self.settled.insert(key);
                true
            }
            Offered::SettledForCheck => {
                self.settled_here.insert(key);
                true
            }
        }
    }
}

impl AccessLog {
    /// Adds an access made by a work-item, stamping its barrier interval.
    pub fn record(&mut self, access: ReportedAccess) {
        let (local_at, group_at) = self.places_of(access.item, &access.ids);
        let loc_at = self.place_of_loc(access.loc);
        let mut rare: Option<Box<Rare>> = access.async_event.map(|e| Box::new(Rare { async_event: Some(e), ..Default::default() }));
        let len = match access.len {
            WHOLE_OBJECT => LEN_WHOLE,
            n if n < u64::from(LEN_ELSEWHERE) => n as u32,
            n => {
                rare.get_or_insert_with(Default::default).len = n;
                LEN_ELSEWHERE
            }
        };
        let space = match u8::try_from(access.space) {
            Ok(s) if s != SPACE_ELSEWHERE => s,
            _ => {
                rare.get_or_insert_with(Default::default).space = access.space;
                SPACE_ELSEWHERE
            }
        };
        let (value_at, packed) = match access.value {
            None => (ValueAt::None, 0),
            Some(v) => match packed_bytes(&v, access.len) {
                Some(word) => (ValueAt::Packed, word),
                None => {
                    rare.get_or_insert_with(Default::default).value = Some(v.into_boxed_slice());
                    (ValueAt::Rare, 0)
                }
            },
        };
        let r = AccessRecord {
            item: access.item as u32,
            local_at,
            group_at,
            loc_at,
            object: access.object,
            interval: self.fences.len() as u32,
            len,
            write: access.write,
            atomic: access.atomic,
            space,
            value_at,
            offset: access.offset,
            seq: self.next_seq,
            packed,
            rare,
        };
        if let Some(e) = r.async_event() {
            self.unwaited.entry(e).or_insert(r.seq);
        }
        let s = fence_of(access.space).1;
        self.first_live[s] = self.first_live[s].or(Some(r.seq));
        self.next_seq += 1;
        // While no other state shares `records` and the tail is empty, the
        // record goes there at once: committing it later would only move it
        // (an enumerated NDRange of a million work-items moved every record
        // once, hundreds of megabytes). A fork shares `records`, and its
        // records go to the tail as before.
        if self.tail.is_empty() {
            if let Some(records) = std::rc::Rc::get_mut(&mut self.records) {
                records.push(r);
                return;
            }
        }
        self.tail.push(r);
    }

    /// Makes the last record an access that happens only when `guard`
    /// holds (an image read outside the image touches no memory).
    pub fn guard_last(&mut self, guard: ExprId) {
        let last = if self.tail.is_empty() { std::rc::Rc::make_mut(&mut self.records).last_mut() } else { self.tail.last_mut() };
        if let Some(r) = last {
            r.set_guard(guard);
        }
    }

    /// The places of a work-item's ids in the id tables, storing them
    /// when new.
    fn places_of(&mut self, item: usize, ids: &WorkItemIds) -> (u32, u32) {
        let mut same_group = None;
        if let Some((last, places)) = &self.last_ids {
            if last == ids {
                return *places;
            }
            // The next work-item of the same group: only its local ids are
            // looked up.
            if last.group_key == ids.group_key && last.group == ids.group {
                same_group = Some(places.1);
            }
        }
        let remembered = match (same_group, self.item_locals.get(item)) {
            (Some(group_at), Some(Some((local, local_at)))) if *local == ids.local => Some((*local_at, group_at)),
            _ => None,
        };
        let found = match (remembered, same_group) {
            (Some(p), _) => Some(p),
            (None, Some(group_at)) => self.ids.find_local(&ids.local).map(|local_at| (local_at, group_at)),
            (None, None) => self.ids.find(ids),
        };
        let places = match found {
            Some(p) => p,
            None => std::rc::Rc::make_mut(&mut self.ids).insert(ids),
        };
        if item < ITEMS_REMEMBERED {
            if self.item_locals.len() <= item {
                self.item_locals.resize(item + 1, None);
            }
            self.item_locals[item] = Some((ids.local, places.0));
        }
        self.last_ids = Some((*ids, places));
        places
    }

    /// The local ids of the work-item that made `r`.
    pub fn local_ids(&self, r: &AccessRecord) -> [ExprId; 3] {
        self.ids.local(r.local_at)
    }

    /// The group ids of the work-item that made `r`.
    pub fn group_ids(&self, r: &AccessRecord) -> [ExprId; 3] {
        self.ids.group(r.group_at).1
    }

    /// The flat index of the group of the work-item that made `r`, when
    /// ids are concrete (enumerate mode).
    pub fn group_key(&self, r: &AccessRecord) -> Option<u64> {
        self.ids.group(r.group_at).0
    }

    /// The place of a source location in the tables, storing it when new.
    fn place_of_loc(&mut self, loc: Loc) -> u32 {
        let slot = (loc.line.wrapping_mul(31).wrapping_add(loc.column) ^ loc.file) as usize % RECENT_LOCS;
        if let Some((recent, at)) = self.recent_locs[slot] {
            if recent == loc {
                return at;
            }
        }
        let at = match self.ids.find_loc(loc) {
            Some(at) => at,
            None => std::rc::Rc::make_mut(&mut self.ids).insert_loc(loc),
        };
        self.recent_locs[slot] = Some((loc, at));
        at
    }

    /// Where in the kernel source the access `r` is.
    pub fn loc(&self, r: &AccessRecord) -> Loc {
        self.ids.loc(r.loc_at)
    }

    /// The source locations of a pair in a fixed order, so that (a, b)
    /// and (b, a) are one race; write-write races are told apart from
    /// read-write races of the same lines.
    pub fn location_key(&self, a: &AccessRecord, b: &AccessRecord) -> (Loc, Loc, bool) {
        let write_write = a.write && b.write;
        let (la, lb) = (self.loc(a), self.loc(b));
        let k = |l: Loc| (l.file, l.line, l.column);
        if k(la) <= k(lb) {
            (la, lb, write_write)
        } else {
            (lb, la, write_write)
        }
    }

    /// Moves the records made since the last check into `records`.
    fn commit(&mut self) {
        if !self.tail.is_empty() {
            std::rc::Rc::make_mut(&mut self.records).append(&mut self.tail);
        }
    }

    /// How many barriers the running group (or pair) has released: a
    /// work-item's accesses between two barriers share this number.
    pub fn barriers_released(&self) -> u32 {
        self.fences.len() as u32
    }

    /// Barriers and warp meetings released in the running group: it
    /// changes whenever a work-item waits for others.
    pub fn meetings_released(&self) -> u32 {
        self.fences.len() as u32 + self.warp_meetings
    }

    /// A warp meeting (`__syncwarp`, a shuffle, a vote) was released.
    pub fn warp_meeting(&mut self) {
        self.warp_meetings += 1;
    }

    /// The sequence number the next record gets: records made so far
    /// have smaller ones.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// How many records the log holds (the prefix shared by states forked
    /// from this one).
    pub fn record_count(&self) -> usize {
        self.records.len() + self.tail.len()
    }

    /// Drops local-memory records of a finished group (the next group has
    /// its own local memory) and starts the next group's barrier history.
    pub fn forget_local(&mut self) {
        self.commit();
        // Earlier groups' local records are gone already; only the running
        // group's tail needs filtering (order is kept), from its first
        // local record on: a group that made none (a kernel without
        // `__local` memory) has nothing moved, and `records` stays shared.
        let group_first = self.group_first.min(self.records.len());
        if let Some(at) = self.records[group_first..].iter().position(|r| r.space() == LOCAL_SPACE) {
            let records = std::rc::Rc::make_mut(&mut self.records);
            let from = group_first + at;
            let mut kept = from;
            for i in from..records.len() {
                if records[i].space() != LOCAL_SPACE {
                    records.swap(kept, i);
                    kept += 1;
                }
            }
            records.truncate(kept);
        }
        self.group_first = self.records.len();
        self.start_barrier_history();
        self.warp_meetings = 0;
    }

    /// Forgets the barriers, fences and warp syncs seen so far: every
    /// access logged before is ordered before every later one (a group
    /// ended, or the whole grid met at a barrier).
    fn start_barrier_history(&mut self) {
        self.fences.clear();
        self.full = Default::default();
        self.horizon = [self.next_seq; 2];
        self.waited.clear();
        self.unwaited.clear();
        self.first_live = [None; 2];
        self.warp_syncs.clear();
    }

    /// A barrier was released with these flags per work-item. `pair`: the
    /// two work-items may be in different groups, where a barrier orders
    /// nothing, so global records are kept for later checks.
    pub fn barrier(&mut self, flags: &[u32], pair: bool, waits: Vec<u64>) {
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
                self.first_live[s] = None;
            }
        }
        let per_item = (all != any).then(|| flags.to_vec());
        for &e in &waits {
            self.waited.insert(e, self.next_seq);
            self.unwaited.remove(&e);
        }
        self.fences.push(Fence { all, per_item, waits });
    }

    /// Whether a barrier between the two accesses (of the running group)
    /// fenced their address space for both work-items.
    fn ordered(&self, a: &AccessRecord, b: &AccessRecord) -> bool {
        let (lo, hi) = (a.interval.min(b.interval) as usize, a.interval.max(b.interval) as usize);
        if lo == hi {
            return false;
        }
        let hi_fence = hi.min(self.fences.len());
        // A copy not waited for is not ordered by barriers.
        let first = if a.seq < b.seq { a } else { b };
        if let Some(e) = first.async_event() {
            return self.fences[lo..hi_fence].iter().any(|f| f.waits.contains(&e));
        }
        let (bit, s) = fence_of(a.space());
        let full = &self.full[s];
        let count = |k: usize| full.get(k).or(full.last()).copied().unwrap_or(0);
        if count(hi) > count(lo) {
            return true;
        }
        self.fences[lo..hi_fence].iter().any(|f| match &f.per_item {
            Some(v) => v.get(a.item as usize).is_some_and(|x| x & bit != 0) && v.get(b.item as usize).is_some_and(|x| x & bit != 0),
            None => f.all & bit != 0,
        })
    }

    /// Offers the candidate conflicts to `sink`, one at a time.
    /// `final_check` looks at the pairs from different groups (enumerate
    /// mode) that only the end of the kernel can judge; otherwise the pairs
    /// within the running group (or pair) with at least one access not
    /// checked before. Once the sink reports a pair of source locations,
    /// their other pairs are skipped. Pairs the `tolerance` surely accepts
    /// (equal bytes) are not offered.
    pub fn check(&mut self, sink: &mut dyn RaceSink, final_check: bool, tolerance: Tolerance) {
        self.commit();
        let pair_mode = self.records.get(self.group_first).is_some_and(|r| self.group_key(r).is_none());
        if final_check && pair_mode {
            return;
        }
        // Within a group, records before every horizon are skipped without
        // looking at them, so that each check costs what the interval holds.
        let first = if final_check {
            0
        } else {
            let mut oldest = self.next_seq;
            for s in self.first_live.iter().flatten().chain(self.unwaited.values()) {
                oldest = oldest.min(*s);
            }
            self.group_first + self.records[self.group_first..].partition_point(|r| r.seq < oldest)
        };
        let keep = |r: &AccessRecord| if final_check { r.space() != LOCAL_SPACE } else { !self.behind_horizon(r, pair_mode) };
        // An object no record writes has no conflicting pair (two reads, or
        // atomic reads, never race): its records are passed over.
        let mut written = WrittenObjects::default();
        for r in self.records[first..].iter().filter(|r| r.write && keep(r)) {
            written.add(r.object);
        }
        let mut symbolic: Vec<usize> = Vec::new();
        for (i, r) in self.records.iter().enumerate().skip(first) {
            if !keep(r) {
                continue;
            }
            let Some(spans) = written.spans(r.object) else { continue };
            match sink.pool().as_const(r.offset).filter(|_| !r.whole_object()) {
                Some(off) => {
                    let start = off as u64 as i64;
                    spans.push(Span { start, end: start + r.size() as i64, index: i });
                }
                None => symbolic.push(i),
            }
        }
        // A record at a symbolic offset may meet any record of its object.
        let mut by_object: FxHashMap<ObjectId, Vec<usize>> = symbolic.iter().map(|&i| (self.records[i].object, Vec::new())).collect();
        if !by_object.is_empty() {
            for (i, r) in self.records.iter().enumerate().skip(first) {
                if let Some(list) = by_object.get_mut(&r.object) {
                    if keep(r) {
                        list.push(i);
                    }
                }
            }
        }
        let mut pairing = Pairing { final_check, tolerance, settled: Default::default(), settled_here: Default::default() };
        let mut objects = std::mem::take(&mut written.objects);
        objects.sort_unstable_by_key(|(object, _)| *object);
        for (_, mut list) in objects {
            shared_bytes(&mut list, |byte, list| {
                let plain_write = list.iter().any(|&i| self.records[i].write && !self.records[i].atomic);
                let atomic_and_read = list.iter().any(|&i| self.records[i].atomic) && list.iter().any(|&i| !self.records[i].write);
                if !(plain_write || atomic_and_read) {
                    return;
                }
                let sites = sites(self, list);
                for x in 0..sites.len() {
                    for y in x..sites.len() {
                        pairing.site_pairs(self, sink, &sites[x], &sites[y], x == y, byte);
                    }
                }
            });
        }
        for &s in &symbolic {
            let object = self.records[s].object;
            for &j in &by_object[&object] {
                // Two symbolic records meet twice: offer the pair from the
                // earlier one only.
                let swept = sink.pool().is_const(self.records[j].offset) && !self.records[j].whole_object();
                if j != s && (j > s || swept) && kinds_conflict(&self.records[s], &self.records[j]) {
                    pairing.consider(self, sink, s, j, None);
                }
            }
        }
        self.reported.extend(pairing.settled);
        if !final_check {
            self.checked = self.next_seq;
        }
    }

    /// Whether a record is ordered before every access still to come in
    /// its group, so that checks within the group can skip it.
    fn behind_horizon(&self, r: &AccessRecord, pair_mode: bool) -> bool {
        if let Some(e) = r.async_event() {
            return self.waited.get(&e).is_some_and(|&w| r.seq < w);
        }
        r.seq < self.horizon[fence_of(r.space()).1] && !(pair_mode && r.space() != LOCAL_SPACE)
    }

    /// Cheap filters that need no expression: different work-items, at
    /// least one access new, groups that may share the memory.
    fn may_pair(&self, a: &AccessRecord, b: &AccessRecord, final_check: bool) -> bool {
        if a.object != b.object || (a.atomic && b.atomic) || !(a.write || b.write) {
            return false;
        }
        // A copy races even with the work-item that issued it, and two
        // copies (different events) with each other: neither waits for
        // the other.
        let other_item = a.item != b.item || a.async_event() != b.async_event();
        match (self.group_key(a), self.group_key(b)) {
            (Some(ga), Some(gb)) if final_check => ga != gb && a.space() != LOCAL_SPACE,
            (Some(ga), Some(gb)) => ga == gb && other_item && (a.seq >= self.checked || b.seq >= self.checked),
            _ => other_item && (a.seq >= self.checked || b.seq >= self.checked),
        }
    }

    fn conflict_condition(&self, pool: &mut ExprPool, a: &AccessRecord, b: &AccessRecord, final_check: bool) -> Option<ExprId> {
        let ordering = match (self.group_key(a), self.group_key(b)) {
            (Some(_), Some(_)) => {
                if !final_check && (self.ordered(a, b) || self.warp_ordered(a, b)) {
                    return None;
                }
                pool.bool_const(true)
            }
            _ => {
                // Pair mode: the groups are symbolic.
                let same = same_group(pool, &self.group_ids(a), &self.group_ids(b));
                match (a.space() == LOCAL_SPACE, self.ordered(a, b)) {
                    (true, false) => same,
                    (true, true) => return None,
                    (false, false) => pool.bool_const(true),
                    (false, true) => pool.not(same),
                }
            }
        };
        // Offsets a known distance apart (slots of an atomic counter,
        // neighbouring elements) are decided here, not by the solver. An
        // access to the whole object meets every access inside it.
        let overlap = if a.whole_object() || b.whole_object() {
            pool.bool_const(true)
        } else if offset_difference::never_overlap(pool, a.offset, a.size(), b.offset, b.size()) {
            return None;
        } else {
            overlap(pool, a.offset, a.size(), b.offset, b.size())
        };
        let mut cond = pool.and(ordering, overlap);
        for g in [a.guard(), b.guard()].into_iter().flatten() {
            cond = pool.and(cond, g);
        }
        (pool.as_const(cond) != Some(0)).then_some(cond)
    }
}

/// The objects a check's records write, each with the spans of its
/// records at constant offsets. A kernel touches few objects (its buffers
/// and `__local` arrays), and a check looks one up per record (at the end
/// of an enumerated kernel, per global record of the run): a short list
/// searched from the object found last costs less than hashing, and past
/// `LINEAR` objects an index by hash takes over.
#[derive(Default)]
struct WrittenObjects {
    objects: Vec<(ObjectId, Vec<Span>)>,
    index: FxHashMap<ObjectId, usize>,
    last: usize,
}

impl WrittenObjects {
    /// Objects searched one by one before the hash index is built.
    const LINEAR: usize = 8;

    fn find(&mut self, object: ObjectId) -> Option<usize> {
        if self.objects.get(self.last).is_some_and(|(o, _)| *o == object) {
            return Some(self.last);
        }
        let found = if self.objects.len() <= Self::LINEAR {
            self.objects.iter().position(|(o, _)| *o == object)
        } else {
            self.index.get(&object).copied()
        };
        if let Some(k) = found {
            self.last = k;
        }
        found
    }

    /// Notes that a record writes `object`.
    fn add(&mut self, object: ObjectId) {
        if self.find(object).is_some() {
            return;
        }
        self.objects.push((object, Vec::new()));
        self.last = self.objects.len() - 1;
        if self.objects.len() > Self::LINEAR {
            if self.index.is_empty() {
                self.index.extend(self.objects.iter().enumerate().map(|(k, (o, _))| (*o, k)));
            } else {
                self.index.insert(object, self.last);
            }
        }
    }

    /// The spans of `object`, when a record writes it.
    fn spans(&mut self, object: ObjectId) -> Option<&mut Vec<Span>> {
        let k = self.find(object)?;
        Some(&mut self.objects[k].1)
    }
}

/// That two work-items with these group ids are in the same group.
pub fn same_group(pool: &mut ExprPool, a: &[ExprId; 3], b: &[ExprId; 3]) -> ExprId {
    let mut same = pool.bool_const(true);
    for d in 0..3 {
        let e = pool.eq(a[d], b[d]);
        same = pool.and(same, e);
    }
    same
}

/// When two writes of the same size store different bytes: at different
/// offsets, or with some byte different. None when the sizes differ (a
/// partial overlap is never called benign).
fn values_differ(pool: &mut ExprPool, a: &AccessRecord, b: &AccessRecord) -> Option<ExprId> {
    let (va, vb) = (a.value()?, b.value()?);
    if a.size() != b.size() || va.len() != vb.len() {
        return None;
    }
    let same_offset = pool.eq(a.offset, b.offset);
    let mut differ = pool.not(same_offset);
    for (&x, &y) in va.iter().zip(vb.iter()) {
        let e = pool.eq(x, y);
        let ne = pool.not(e);
        differ = pool.or(differ, ne);
    }
    Some(differ)
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

#[cfg(test)]
mod tests {
    /// An enumerated NDRange logs a few records per work-item and keeps
    /// its global ones to the end of the kernel: at a million work-items
    /// each byte of a record is megabytes of the run's peak.
    #[test]
    fn a_record_stays_small() {
        assert!(std::mem::size_of::<super::AccessRecord>() <= 64, "{}", std::mem::size_of::<super::AccessRecord>());
    }
}
