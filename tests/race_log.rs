//! The race detector's access log on its own (src/race/): which candidate
//! conflicts a check offers, in which order, whatever the log keeps its
//! records in (shared with a fork or not) and however many objects the
//! accesses touch. The executor's side (which candidates become findings,
//! with which witness) is tested by the race fixtures; these pin the
//! order of the offers, which decides the witness a finding gets.

use symcross::expr::{ExprId, ExprPool};
use symcross::ir::{Loc, GLOBAL_SPACE, LOCAL_SPACE};
use symcross::memory::ObjectId;
use symcross::race::{AccessLog, AccessRecord, Candidate, Offered, RaceSink, ReportedAccess, Tolerance, WorkItemIds, WHOLE_OBJECT};

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

/// A record keeps what the executor reported, however it is encoded:
/// constant bytes packed into a word, symbolic, too many or too few bytes
/// out of line, a length past 32 bits, an access of the whole object, an
/// address space past a byte, an asynchronous copy's event, a guard, and
/// the source location by place. An enumerated NDRange keeps millions of
/// records to its end, so a record stays at 64 bytes.
#[test]
fn a_record_gives_back_what_was_reported() {
    assert!(std::mem::size_of::<AccessRecord>() <= 64, "{}", std::mem::size_of::<AccessRecord>());
    let mut pool = ExprPool::new();
    let array = pool.new_array("in", 4);
    let symbolic = pool.input_byte(array, 2);
    let byte = |pool: &mut ExprPool, v: u8| pool.constant(8, u128::from(v));
    let four: Vec<ExprId> = [0x12, 0x00, 0xff, 0x80].iter().map(|&v| byte(&mut pool, v)).collect();
    let eight: Vec<ExprId> = (0..8).map(|v| byte(&mut pool, 0xf0 | v)).collect();
    let nine: Vec<ExprId> = (0..9).map(|v| byte(&mut pool, v)).collect();
    let mixed = vec![four[0], symbolic, four[2], four[3]];
    let wide = pool.constant(32, 7);
    let not_bytes = vec![wide];
    let mut cases: Vec<ReportedAccess> = Vec::new();
    let base = access(&mut pool, 0, 5, GLOBAL_SPACE, (0, 4), true, 1);
    let with = |len: u64, space: u32, value: Option<Vec<ExprId>>, line: u32, event: Option<u64>| ReportedAccess {
        len,
        space,
        value,
        loc: Loc { file: line % 3, line, column: line * 7 },
        async_event: event,
        ..base.clone()
    };
    cases.push(with(4, GLOBAL_SPACE, Some(four.clone()), 1, None));
    cases.push(with(8, LOCAL_SPACE, Some(eight), 2, None));
    cases.push(with(9, GLOBAL_SPACE, Some(nine), 3, None));
    cases.push(with(4, GLOBAL_SPACE, Some(mixed), 4, None));
    cases.push(with(4, GLOBAL_SPACE, Some(not_bytes), 5, None));
    cases.push(with(8, GLOBAL_SPACE, Some(four.clone()), 6, None));
    cases.push(with(4, GLOBAL_SPACE, Some(Vec::new()), 7, None));
    cases.push(with(4, GLOBAL_SPACE, None, 8, None));
    cases.push(with(WHOLE_OBJECT, GLOBAL_SPACE, None, 9, None));
    cases.push(with(u64::from(u32::MAX), GLOBAL_SPACE, None, 10, None));
    cases.push(with(u64::from(u32::MAX) - 1, GLOBAL_SPACE, None, 11, None));
    cases.push(with(u64::from(u32::MAX) - 2, GLOBAL_SPACE, None, 12, None));
    cases.push(with(1 << 40, GLOBAL_SPACE, None, 13, None));
    cases.push(with(4, 255, Some(four.clone()), 14, Some(3)));
    cases.push(with(4, 1 << 20, Some(four.clone()), 15, Some(u64::MAX)));
    cases.push(with(4, GLOBAL_SPACE, Some(four), 1, None));
    // More locations than the short list searched one by one.
    for line in 20..60 {
        cases.push(with(1, GLOBAL_SPACE, None, line, None));
    }
    cases.push(with(1, GLOBAL_SPACE, None, 4, None));
    let mut log = AccessLog::default();
    let guard = pool.eq(symbolic, wide);
    for (k, c) in cases.iter().enumerate() {
        log.record(c.clone());
        if k == 3 {
            log.guard_last(guard);
        }
    }
    for (k, (r, c)) in log.records.iter().zip(&cases).enumerate() {
        assert_eq!(r.size(), c.len, "case {k}");
        assert_eq!(r.whole_object(), c.len == WHOLE_OBJECT, "case {k}");
        assert_eq!(r.space(), c.space, "case {k}");
        assert_eq!(r.value().map(|v| v.to_vec()), c.value, "case {k}");
        assert_eq!(r.async_event(), c.async_event, "case {k}");
        assert_eq!(r.guard(), (k == 3).then_some(guard), "case {k}");
        assert_eq!(log.loc(r), c.loc, "case {k}");
        assert_eq!((r.object, r.offset, r.write, r.atomic, r.item as usize), (c.object, c.offset, c.write, c.atomic, c.item), "case {k}");
    }
}

/// Two writes of one element are a benign pair when they store the same
/// constant bytes (packed in their records) and a race when one byte
/// differs: the bytes read back from the packed word are the ones stored.
#[test]
fn packed_bytes_tell_benign_writes_apart() {
    for (second, offered) in [([1u8, 2, 3, 4], false), ([1, 2, 3, 5], true), ([0, 2, 3, 4], true)] {
        let mut s = sink();
        let mut log = AccessLog::default();
        let mut first = access(&mut s.pool, 0, 9, GLOBAL_SPACE, (16, 4), true, 1);
        first.value = Some([1u8, 2, 3, 4].iter().map(|&v| s.pool.constant(8, u128::from(v))).collect());
        let mut other = access(&mut s.pool, 1, 9, GLOBAL_SPACE, (16, 4), true, 2);
        other.value = Some(second.iter().map(|&v| s.pool.constant(8, u128::from(v))).collect());
        log.record(first);
        log.record(other);
        log.check(&mut s, false, Tolerance { write_write: true, read_write: false });
        assert_eq!(!s.offered.is_empty(), offered, "second stores {second:?}");
    }
}

/// Merging the logs of a branch's two sides: the other side's records
/// name their locations by places in its own tables, which are found
/// again (or added) in this side's.
#[test]
fn a_merged_log_keeps_each_sides_locations() {
    let mut pool = ExprPool::new();
    let mut log = AccessLog::default();
    log.record(access(&mut pool, 0, 5, GLOBAL_SPACE, (0, 4), false, 1));
    let mut other = log.clone();
    log.record(access(&mut pool, 0, 5, GLOBAL_SPACE, (4, 4), false, 2));
    other.record(access(&mut pool, 0, 5, GLOBAL_SPACE, (8, 4), false, 3));
    other.record(access(&mut pool, 0, 5, GLOBAL_SPACE, (12, 4), false, 2));
    let array = pool.new_array("taken", 1);
    let byte = pool.input_byte(array, 0);
    let zero = pool.constant(8, 0);
    let taken = pool.eq(byte, zero);
    let not_taken = pool.not(taken);
    assert!(log.merge_from(&other, 1, taken, not_taken, &mut pool));
    let mut s = sink();
    log.check(&mut s, false, Tolerance::default());
    let lines: Vec<u32> = log.records.iter().map(|r| log.loc(r).line).collect();
    assert_eq!(lines, vec![1, 2, 3, 2]);
    let guards: Vec<Option<ExprId>> = log.records.iter().map(|r| r.guard()).collect();
    assert_eq!(guards, vec![None, Some(taken), Some(not_taken), Some(not_taken)]);
}
