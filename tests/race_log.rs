//! The race detector's access log on its own (src/race/): which candidate
//! conflicts a check offers, in which order, whatever the log keeps its
//! records in (shared with a fork or not) and however many objects the
//! accesses touch. The executor's side (which candidates become findings,
//! with which witness) is tested by the race fixtures; these pin the
//! order of the offers, which decides the witness a finding gets.

use symcross::expr::{ExprId, ExprPool};
use symcross::ir::{Loc, GLOBAL_SPACE, LOCAL_SPACE};
use symcross::memory::ObjectId;
use symcross::race::{AccessLog, Candidate, Offered, RaceSink, ReportedAccess, Tolerance, WorkItemIds};

/// A sink that takes note of every candidate and reports none.
struct Noted {
    pool: ExprPool,
    offered: Vec<(usize, usize)>,
}

impl RaceSink for Noted {
    fn pool(&mut self) -> &mut ExprPool {
        &mut self.pool
    }
    fn offer(&mut self, _log: &AccessLog, candidate: Candidate) -> Offered {
        self.offered.push((candidate.a, candidate.b));
        Offered::NoRace
    }
}

fn sink() -> Noted {
    Noted { pool: ExprPool::new(), offered: Vec::new() }
}

/// An access of work-item `item` of group 0 (enumerate mode) to the
/// bytes `[offset, offset + len)`; a write stores zeros.
fn access(pool: &mut ExprPool, item: usize, object: u32, space: u32, (offset, len): (u64, u64), write: bool, line: u32) -> ReportedAccess {
    let zero = pool.constant(64, 0);
    let id = pool.constant(64, item as u128);
    let value = write.then(|| (0..len).map(|_| pool.constant(8, 0)).collect::<Vec<ExprId>>());
    ReportedAccess {
        item,
        ids: WorkItemIds { local: [id, zero, zero], group_key: Some(0), group: [zero, zero, zero] },
        object: ObjectId(object),
        space,
        offset: pool.constant(64, offset as u128),
        len,
        write,
        atomic: false,
        value,
        loc: Loc { file: 0, line, column: 1 },
        async_event: None,
    }
}

/// Objects a check meets: more than a few (past the short list a check
/// searches one by one), in no order, half of them only read. Each
/// written object has one pair sharing bytes: offered once, objects in
/// increasing order, whichever order the records came in.
#[test]
fn a_check_offers_each_written_objects_conflicts_once_in_object_order() {
    let mut s = sink();
    let mut log = AccessLog::default();
    let objects: Vec<u32> = vec![17, 3, 29, 8, 41, 1, 23, 12, 36, 5, 19, 30, 2, 44, 11, 7];
    let mut expected = Vec::new();
    for (k, &o) in objects.iter().enumerate() {
        let written = k % 2 == 0;
        let first = log.record_count();
        // Work-item 0 writes (or reads) bytes 0..4, work-item 1 reads bytes 2..6.
        log.record(access(&mut s.pool, 0, o, GLOBAL_SPACE, (0, 4), written, 10 + k as u32));
        log.record(access(&mut s.pool, 1, o, GLOBAL_SPACE, (2, 4), false, 100 + k as u32));
        if written {
            expected.push((o, (first, first + 1)));
        }
    }
    log.check(&mut s, false, Tolerance::default());
    expected.sort_unstable();
    let want: Vec<(usize, usize)> = expected.into_iter().map(|(_, pair)| pair).collect();
    assert_eq!(s.offered, want);
}

/// A fork shares the log's records; what either side records after is
/// its own, and both sides' checks offer the same pairs as a log that
/// never forked. A guard set on the last record lands on that record,
/// shared or not.
#[test]
fn a_forked_log_checks_as_an_unforked_one() {
    let mut s = sink();
    let mut whole = AccessLog::default();
    let mut forked = AccessLog::default();
    let a = access(&mut s.pool, 0, 4, GLOBAL_SPACE, (8, 4), true, 1);
    whole.record(a.clone());
    forked.record(a);
    let other = forked.clone();
    let b = access(&mut s.pool, 1, 4, GLOBAL_SPACE, (8, 4), false, 2);
    // A guard on an input: it stays an expression, not a constant.
    let array = s.pool.new_array("taken", 1);
    let byte = s.pool.input_byte(array, 0);
    let zero = s.pool.constant(8, 0);
    let guard = s.pool.eq(byte, zero);
    whole.record(b.clone());
    whole.guard_last(guard);
    forked.record(b);
    forked.guard_last(guard);
    assert_eq!(forked.record_count(), 2);
    assert_eq!(other.record_count(), 1, "the fork's own records are not the other side's");
    whole.check(&mut s, false, Tolerance::default());
    let unforked = std::mem::take(&mut s.offered);
    forked.check(&mut s, false, Tolerance::default());
    assert_eq!(s.offered, unforked);
    assert_eq!(unforked, vec![(0, 1)]);
    assert_eq!(forked.records[1].guard(), whole.records[1].guard());
    drop(other);
}

/// The end of a group drops its `__local` records and keeps its global
/// ones in order, whether or not it made any local one; a fork sharing
/// the records keeps all of its own.
#[test]
fn a_group_end_drops_only_local_records() {
    let mut pool = ExprPool::new();
    for with_local in [false, true] {
        let mut log = AccessLog::default();
        for item in 0..6 {
            let space = if with_local && item % 3 == 1 { LOCAL_SPACE } else { GLOBAL_SPACE };
            log.record(access(&mut pool, item, 2 + (item % 2) as u32, space, (4 * item as u64, 4), true, 1 + item as u32));
        }
        let fork = log.clone();
        log.forget_local();
        let lines: Vec<u32> = log.records.iter().map(|r| log.loc(r).line).collect();
        let want: Vec<u32> = if with_local { vec![1, 3, 4, 6] } else { vec![1, 2, 3, 4, 5, 6] };
        assert_eq!(lines, want, "with local records: {with_local}");
        assert_eq!(fork.record_count(), 6);
    }
}
