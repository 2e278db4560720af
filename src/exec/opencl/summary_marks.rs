//! Which work-item a summarised loop's arbitrary values belong to, and
//! when they appeared, so that a race found on a path through a summary is
//! still confirmed when it does not rest on them.
//!
//! A summary (loop_summary.rs) gives the loop's variables arbitrary
//! values: a finding that depends on them may be one no device produces,
//! so the path is marked abstracted and its findings are unconfirmed. A
//! race is made of two accesses, though. A work-item's execution up to an
//! access depends only on the inputs, its ids and the shared memory it
//! read. When both accesses were made before their own work-item's
//! summary, in the group and barrier interval of every summary on the
//! path, and no work-item read shared memory that a summarised work-item
//! wrote after its summary (or that holds a summarised value) before the
//! later access, then the witness's inputs take both work-items to their
//! accesses on a real device, whatever the summarised loops do afterwards
//! (a work-item that never leaves its loop has still made its access).
//! The path's other constraints, those a summary's values appear in, only
//! choose values for those made-up variables. A summary in an earlier
//! interval or group is not weighed: the work-items it holds in its loop
//! might never reach the barrier that lets the others on.
//!
//! Merged paths (engine/merge.rs) carry the union of both sides' marks,
//! numbered as the merge numbers the access records (race/log_merge.rs):
//! each side's records keep their order relative to that side's
//! summaries, and a record of one side that the numbering puts after a
//! summary of the other side is taken as after it (never confirmed by
//! mistake, at worst left unconfirmed).

use crate::expr::{Expr, ExprId, ExprPool};
use crate::race::{AccessLog, AccessRecord};

/// The summaries taken on a kernel's path so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SummaryMarks {
    summaries: Vec<Summary>,
    /// The path was abstracted before any summary recorded here (host
    /// code's summary before the launch): nothing here can clear it.
    abstracted_before: bool,
}

/// One summarised loop of one work-item.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Summary {
    /// The work-item (index in its group or pair, as `AccessRecord::item`).
    item: u32,
    /// Its group in enumerate mode (`AccessLog::group_key`).
    group_key: Option<u64>,
    /// Barriers the group (or pair) had released.
    interval: u32,
    /// The race log's next sequence number: records below it came first.
    seq: u64,
    /// The numbers of the fresh values the summary made, first and last
    /// (`u32::MAX, 0`: none).
    fresh: (u32, u32),
}

/// Where in the race log a summary falls: the running work-item, its
/// group, the barrier interval and the next record's sequence number.
pub(in crate::exec) struct SummaryPlace {
    pub item: u32,
    pub group_key: Option<u64>,
    pub interval: u32,
    pub seq: u64,
}

/// The number of a fresh value.
pub(in crate::exec) fn fresh_number(pool: &ExprPool, e: ExprId) -> Option<u32> {
    match *pool.get(e) {
        Expr::Fresh { id, .. } => Some(id),
        _ => None,
    }
}

impl SummaryMarks {
    /// Notes a summary at `place` whose arbitrary values are the fresh
    /// values numbered `fresh`; `abstracted` says whether the path was
    /// already abstracted.
    pub(in crate::exec) fn note(&mut self, place: &SummaryPlace, fresh: (u32, u32), abstracted: bool) {
        if abstracted && self.summaries.is_empty() {
            self.abstracted_before = true;
        }
        let s = Summary { item: place.item, group_key: place.group_key, interval: place.interval, seq: place.seq, fresh };
        if !self.summaries.contains(&s) {
            self.summaries.push(s);
        }
    }

    /// Adds `other`'s summaries (a merged path is either side's), their
    /// sequence numbers mapped by `renumber` as the merge renumbered
    /// `other`'s records.
    pub(in crate::exec) fn union(&mut self, other: &SummaryMarks, renumber: impl Fn(u64) -> u64) {
        self.abstracted_before |= other.abstracted_before;
        for s in &other.summaries {
            let s = Summary { seq: renumber(s.seq), ..s.clone() };
            if !self.summaries.contains(&s) {
                self.summaries.push(s);
            }
        }
    }

    /// Whether the race between `a` and `b` may rest on values a summary
    /// made up; `log` holds the race records. False only when every
    /// condition of the module holds; with no summary noted it is true
    /// (the path's abstraction came from elsewhere).
    pub(in crate::exec) fn race_may_rest_on_summary(&self, pool: &ExprPool, log: &AccessLog, a: &AccessRecord, b: &AccessRecord) -> bool {
        if self.abstracted_before || self.summaries.is_empty() {
            return true;
        }
        for s in &self.summaries {
            for r in [a, b] {
                if log.group_key(r) != s.group_key || r.interval != s.interval || (r.item == s.item && r.seq >= s.seq) {
                    return true;
                }
            }
        }
        let summarised =
            |e: ExprId| fresh_number(pool, e).is_some_and(|n| self.summaries.iter().any(|s| (s.fresh.0..=s.fresh.1).contains(&n)));
        let mentions = |roots: &mut dyn Iterator<Item = ExprId>| pool.any_below(roots, |e, _| summarised(e));
        let after_own_summary =
            |w: &AccessRecord| self.summaries.iter().any(|s| s.item == w.item && s.group_key == log.group_key(w) && w.seq >= s.seq);
        let first = self.summaries.iter().map(|s| s.seq).min().unwrap_or(0);
        let later = a.seq.max(b.seq);
        let records = &log.records;
        // What a summarised work-item does after its summary may not be
        // what a device does: another work-item must not have read it
        // (a load, or an atomic, which reads too) before the later access.
        // Nor a value naming a summarised one, whoever wrote it.
        let read_by_another = |w: &AccessRecord| {
            records.iter().any(|r| r.object == w.object && r.item != w.item && (!r.write || r.atomic) && r.seq > w.seq && r.seq < later)
        };
        for w in records.iter().filter(|w| w.write && w.seq >= first && w.seq < later) {
            let leaks = after_own_summary(w)
                || match w.value() {
                    Some(value) => mentions(&mut value.iter().copied().chain([w.offset]).chain(w.guard())),
                    None => true,
                };
            if leaks && read_by_another(w) {
                return true;
            }
        }
        let (va, vb) = (a.value(), b.value());
        let values = va.iter().chain(vb.iter()).flat_map(|v| v.iter().copied());
        mentions(&mut [a.offset, b.offset].into_iter().chain(values))
    }
}
