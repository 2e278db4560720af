//! What a finished run hands its driver (`driver::check_module`,
//! `driver::run_kernel`): the findings, the counts and why the run stopped, taken out
//! of the executor in one piece, so drivers read a result instead of the
//! executor's working fields.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::run_log::NoteKind;
use crate::report::{Coverage, Finding, Limit, RunStats, SymbolicInput};

/// The result of `Executor::run`.
#[derive(Debug)]
pub struct RunOutcome {
    /// Findings in the order they were reported.
    pub findings: Vec<Finding>,
    /// Paths, instructions, solver queries, seconds and how each check
    /// was decided (`merged` does not include the if-conversion pass,
    /// which runs before the executor).
    pub stats: RunStats,
    /// The limit that stopped exploration, if one did.
    pub limit: Option<Limit>,
    /// Where a per-path budget (loop bound, work-item steps) cut a path,
    /// one line each; the run itself went on.
    pub path_cuts: Vec<String>,
    /// Work-items found to loop for ever (their state repeats at a loop),
    /// one line each; they make no access beyond those checked.
    pub nonterminating: Vec<String>,
    /// Operations whose result OpenCL leaves undefined, taken as
    /// arbitrary, one line each.
    pub undefined_values: Vec<String>,
    /// What `race --perf` left unmeasured, one line each.
    pub perf_incomplete: Vec<String>,
    /// Pair mode: uses of `__local` bytes after a barrier whose
    /// definedness was not checked, one line each.
    pub unchecked_local_reads: Vec<String>,
    /// Pair mode: the work-groups (flat indices) of each finding left
    /// unconfirmed by the havoc at barriers, for re-checking them.
    pub havoc_doubts: Vec<Vec<u64>>,
    /// The run ended at its first confirmed finding
    /// (`Config::stop_at_first_finding`).
    pub stopped_at_first_finding: bool,
    /// What the run exercised (symbolic inputs, checks reached).
    pub coverage: Coverage,
    /// Output written by the program (printf, puts) on every path.
    pub output: Vec<u8>,
    /// The symbolic inputs in the order the program made them.
    pub symbolic_inputs: Vec<SymbolicInput>,
    /// With `Config::shard`: the split rested on an `unknown` solver
    /// answer, so the shards may disagree on it (shard.rs).
    pub shard_uncertain: bool,
    /// The result of each element of each tolerance check reached.
    pub tolerance: Vec<crate::report::ToleranceResult>,
}

impl Executor<'_> {
    /// Takes the result of the run out of the executor (the end of
    /// `run`): findings and output are moved out, not copied.
    pub(in crate::exec) fn finish(&mut self) -> RunOutcome {
        self.log.settle_upgrade();
        let stats = RunStats {
            paths: self.log.stats.paths,
            merged: self.log.stats.merged,
            instructions: self.log.stats.instructions,
            queries: self.cx.decider.backend.queries(),
            seconds: self.elapsed(),
            decided: self.log.check_stats.clone(),
        };
        RunOutcome {
            findings: std::mem::take(&mut self.log.findings),
            stats,
            limit: self.log.limit_hit,
            path_cuts: self.log.take_notes(NoteKind::PathCut),
            nonterminating: self.log.take_notes(NoteKind::Nonterminating),
            undefined_values: self.log.take_notes(NoteKind::UndefinedValue),
            perf_incomplete: self.log.take_notes(NoteKind::PerfIncomplete),
            unchecked_local_reads: self.log.take_notes(NoteKind::UncheckedLocalRead),
            havoc_doubts: std::mem::take(&mut self.log.havoc_doubts),
            stopped_at_first_finding: self.log.stopped_at_finding,
            coverage: self.log.coverage.clone(),
            output: std::mem::take(&mut self.log.output),
            symbolic_inputs: self
                .cx
                .pool
                .arrays()
                .iter()
                .filter(|a| a.is_input())
                .map(|a| SymbolicInput { name: a.name.clone(), bytes: a.size })
                .collect(),
            shard_uncertain: self.log.shard_uncertain,
            tolerance: std::mem::take(&mut self.log.tolerance),
        }
    }

    /// Whether the program read the bits of a floating-point result with
    /// integer operations (`exec::nan_bits_read`): a verdict under
    /// canonical NaNs does not cover that read.
    pub fn read_float_bits(&self) -> bool {
        crate::exec::nan_bits_read(&self.cx.pool)
    }
}
