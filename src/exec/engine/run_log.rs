//! What a run found and counted, as it goes: the findings (each reported
//! once, by its key), the counters, the limit that stopped the run or cut
//! some of its paths, and the notes that become the report's warnings.
//! `Executor::finish` (outcome.rs) hands it to the driver as a
//! `RunOutcome`.

use crate::ir::Loc;
use crate::report::{Coverage, DecidedCounts, Finding, FindingKind};
use rustc_hash::FxHashMap;

/// Why exploration stopped early, if it did: the report's `Limit` (one
/// type, so the engine cannot stop for a reason the report cannot name).
pub use crate::report::Limit as LimitHit;

#[derive(Clone, Debug, Default)]
/// Counters of one run, copied into the report's statistics.
pub struct Stats {
    /// Paths that ended, normally or not (when sharding, those this shard
    /// owns).
    pub paths: u64,
    /// Pairs of states merged into one at a merge region's join (README,
    /// Path merging).
    pub merged: u64,
    /// Instructions executed, terminators included, summed over all paths.
    pub instructions: u64,
    /// States made by forks, besides the one that goes on.
    pub forks: u64,
    /// Paths ended because their path condition became infeasible.
    pub pruned: u64,
}

/// What makes two findings the same, so that each is reported once.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FindingKey {
    /// One finding of a kind per source location: a loop reaching the same
    /// overflow on every trip, or every work-item racing at the same line,
    /// is one finding.
    AtLocation(FindingKind, Loc),
    /// One `unsupported` finding per location and construct: two
    /// constructs on one line are two findings.
    Unsupported(Loc, String),
}

impl FindingKey {
    /// The key of a finding of `kind` at `loc` with `message`.
    pub fn of(kind: FindingKind, loc: Loc, message: &str) -> Self {
        if kind == FindingKind::Unsupported {
            FindingKey::Unsupported(loc, message.to_string())
        } else {
            FindingKey::AtLocation(kind, loc)
        }
    }
}

/// What a note of the run is about; each kind becomes its own list in the
/// outcome, and its own warnings in the report.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NoteKind {
    /// A per-path budget (loop bound, work-item steps) cut a path; the run
    /// went on (path_budget.rs).
    PathCut,
    /// A work-item never terminates: its state repeats at a loop
    /// (opencl/nontermination.rs).
    Nonterminating,
    /// An operation whose result OpenCL leaves undefined was taken as
    /// arbitrary (opencl/images.rs).
    UndefinedValue,
    /// `race --perf` could not measure everything (pair mode, a worst
    /// case not searched to the end): opencl/perf_checks.rs.
    PerfIncomplete,
    /// Pair mode read `__local` bytes after a barrier that some work-item
    /// may or may not have written, and used them where an uninitialised
    /// value is a finding: not checked (opencl/unchecked_local.rs).
    UncheckedLocalRead,
}

impl NoteKind {
    /// How many notes of this kind a report keeps: a few examples of cuts
    /// and endless work-items say enough (symbolic work-items make many
    /// labels); every undefined value is its own construct.
    fn cap(self) -> usize {
        match self {
            NoteKind::PathCut | NoteKind::Nonterminating => 4,
            NoteKind::UndefinedValue => usize::MAX,
            NoteKind::PerfIncomplete | NoteKind::UncheckedLocalRead => 8,
        }
    }
}

/// The run log of one executor.
pub struct RunLog {
    /// Findings in the order they were reported.
    pub findings: Vec<Finding>,
    /// The keys of the findings reported so far, with the index of each
    /// one's finding.
    seen: FxHashMap<FindingKey, usize>,
    /// An unconfirmed finding that a later one of its key, confirmed when
    /// reported, took the place of: put back by `settle_upgrade` if the
    /// reporter then found a doubt in the new one after all.
    replaced: Option<(usize, Finding)>,
    /// How many findings were upgraded in place (a change the number of
    /// findings does not show).
    pub upgrades: u64,
    /// Paths, merges, instructions, forks, prunes.
    pub stats: Stats,
    /// How the checks were decided, step by step.
    pub check_stats: DecidedCounts,
    /// The limit that stopped exploration, if one did.
    pub limit_hit: Option<LimitHit>,
    /// A limit that ended some paths but not the run (path_budget.rs).
    pub path_limit: Option<LimitHit>,
    /// The notes of the run, in the order they were made.
    notes: Vec<(NoteKind, String)>,
    /// Pair mode: the work-groups (flat indices) of each finding that the
    /// havoc left unconfirmed (havoc.rs).
    pub havoc_doubts: Vec<Vec<u64>>,
    /// The run ended at its first confirmed finding
    /// (`Config::stop_at_first_finding`).
    pub stopped_at_finding: bool,
    /// What the run exercised (symbolic inputs, checks reached).
    pub coverage: Coverage,
    /// Output written by the program (printf, puts) on each path, kept for
    /// `symcross run` and the differential tests.
    pub output: Vec<u8>,
    /// With `Config::shard`: a state not yet given to a shard rested on an
    /// `unknown` solver answer, so the shards may disagree on the split
    /// (shard.rs).
    pub shard_uncertain: bool,
    /// The result of each element of each tolerance check reached.
    pub tolerance: Vec<crate::report::ToleranceResult>,
    /// Questions asked of the solver about undefined behaviour in kernels
    /// (`Config::max_undefined_queries`).
    pub kernel_undefined_queries: u64,
}

impl RunLog {
    /// An empty log; `coverage` says what the program holds before it runs.
    pub fn new(coverage: Coverage) -> Self {
        RunLog {
            findings: Vec::new(),
            seen: FxHashMap::default(),
            replaced: None,
            upgrades: 0,
            stats: Stats::default(),
            check_stats: DecidedCounts::default(),
            limit_hit: None,
            path_limit: None,
            notes: Vec::new(),
            havoc_doubts: Vec::new(),
            stopped_at_finding: false,
            coverage,
            output: Vec::new(),
            shard_uncertain: false,
            tolerance: Vec::new(),
            kernel_undefined_queries: 0,
        }
    }

    /// Whether a finding with this key is new (it is then remembered, as
    /// the finding pushed next).
    pub fn first_of(&mut self, key: FindingKey) -> bool {
        let next = self.findings.len();
        match self.seen.entry(key) {
            std::collections::hash_map::Entry::Occupied(_) => false,
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(next);
                true
            }
        }
    }

    /// Whether a finding with this key was reported already (a second
    /// one would be dropped, unless it upgrades an unconfirmed one).
    pub fn was_reported(&self, key: &FindingKey) -> bool {
        self.seen.contains_key(key)
    }

    /// Whether the finding reported with this key is confirmed.
    pub fn was_confirmed(&self, key: &FindingKey) -> bool {
        self.seen.get(key).and_then(|&i| self.findings.get(i)).is_some_and(|f| f.status == crate::report::Status::Confirmed)
    }

    /// The index of the unconfirmed finding reported with this key, which
    /// a confirmed one of the same key may replace. Unsupported findings
    /// have no confirmed form.
    pub fn upgradable(&self, key: &FindingKey) -> Option<usize> {
        let FindingKey::AtLocation(kind, loc) = key else { return None };
        let i = *self.seen.get(key)?;
        // The index is checked against the key: a run cut by a limit drops
        // findings after the fact.
        self.findings.get(i).filter(|f| {
            f.status == crate::report::Status::Unconfirmed
                && f.kind == *kind
                && (f.location.line, f.location.column) == (loc.line, loc.column)
        })?;
        Some(i)
    }

    /// Puts `finding` in the place of finding `i` (see `upgradable`),
    /// keeping the old one until `settle_upgrade`.
    pub fn upgrade(&mut self, i: usize, finding: Finding) -> &mut Finding {
        self.settle_upgrade();
        let old = std::mem::replace(&mut self.findings[i], finding);
        self.replaced = Some((i, old));
        self.upgrades += 1;
        &mut self.findings[i]
    }

    /// Ends the last upgrade: the new finding stays if it is still
    /// confirmed once its reporter is done with it, else the old one
    /// comes back.
    pub fn settle_upgrade(&mut self) {
        if let Some((i, old)) = self.replaced.take() {
            if self.findings.get(i).is_some_and(|f| f.status != crate::report::Status::Confirmed) {
                self.findings[i] = old;
                self.upgrades -= 1;
            }
        }
    }

    /// Keeps `text` as a note of `kind`, unless the same note is kept
    /// already or the kind has as many as a report keeps.
    pub fn note(&mut self, kind: NoteKind, text: String) {
        let mut kept = 0;
        for (k, t) in &self.notes {
            if *k == kind {
                if *t == text {
                    return;
                }
                kept += 1;
            }
        }
        if kept < kind.cap() {
            self.notes.push((kind, text));
        }
    }

    /// Takes the notes of `kind` out of the log, in order.
    pub fn take_notes(&mut self, kind: NoteKind) -> Vec<String> {
        let (taken, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.notes).into_iter().partition(|(k, _)| *k == kind);
        self.notes = kept;
        taken.into_iter().map(|(_, t)| t).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_kept_once_and_capped_by_kind() {
        let mut log = RunLog::new(Coverage::default());
        for k in 0..6 {
            log.note(NoteKind::PathCut, format!("cut {k}"));
            log.note(NoteKind::PathCut, format!("cut {k}"));
            log.note(NoteKind::UndefinedValue, format!("undefined {k}"));
        }
        assert_eq!(log.take_notes(NoteKind::PathCut), ["cut 0", "cut 1", "cut 2", "cut 3"]);
        assert_eq!(log.take_notes(NoteKind::UndefinedValue).len(), 6);
        assert!(log.take_notes(NoteKind::Nonterminating).is_empty());
    }

    #[test]
    fn unsupported_findings_are_told_apart_by_message() {
        let mut log = RunLog::new(Coverage::default());
        let loc = Loc { line: 3, column: 1, file: 0 };
        assert!(log.first_of(FindingKey::of(FindingKind::Unsupported, loc, "inline assembly")));
        assert!(log.first_of(FindingKey::of(FindingKind::Unsupported, loc, "long double")));
        assert!(!log.first_of(FindingKey::of(FindingKind::Unsupported, loc, "long double")));
        assert!(log.first_of(FindingKey::of(FindingKind::OutOfBounds, loc, "one")));
        assert!(!log.first_of(FindingKey::of(FindingKind::OutOfBounds, loc, "another")));
    }
}
