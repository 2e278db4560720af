//! `__local` bytes whose definedness pair mode cannot decide. At a barrier
//! pair mode havocks shared memory: the work-items it does not run may
//! have written any byte they can write (havoc.rs). A `__local` byte that
//! was indeterminate on the modelled work-items' path before the barrier
//! (never written, or written at an index that may miss it) may still be
//! one no work-item wrote; which it is depends on the paths of the other
//! work-items, which are not followed. Such a byte keeps its mask across
//! the barrier under an origin of its own, marked unchecked, as do the
//! bytes pair mode reads afresh from an unsized `__local` buffer after a
//! barrier. A use of them where an indeterminate value is a finding (a
//! branch, an address, a divisor, a store into a `__global` buffer) is a
//! `local-read-unchecked` warning naming the line, never a finding: the
//! gap is in the report, and `--mode enumerate` decides it.

use crate::check::Feasibility;
use crate::exec::engine::executor::Executor;
use crate::exec::engine::run_log::NoteKind;
use crate::exec::engine::state::State;
use crate::ir::Loc;
use crate::memory::shadow::Shadow;
use crate::memory::{MemoryObject, OriginId};

/// Solver work units for asking whether an unchecked byte can be used
/// (deterministic, not seconds; the probe of single_offset.rs uses as many).
const GAP_QUERY_UNITS: u32 = 2_000_000;
/// Nodes (lazy reads counted as their encoding) above which the masks are
/// not sent to the solver and the gap is named.
const GAP_QUERY_NODES: usize = 20_000;

impl<'m> Executor<'m> {
    /// The origin of `o`'s bytes that pair mode cannot tell written or
    /// not after a barrier.
    pub(in crate::exec) fn unchecked_local_origin(&mut self, o: &MemoryObject) -> OriginId {
        let kind = if o.address_only { "buffer" } else { "variable" };
        let what = format!("`__local` {kind} `{}` after a barrier", o.name);
        self.shadow.intern_unchecked(what, o.alloc_line)
    }

    /// `what` at `loc` uses bits of `s`, whose origin is unchecked: when
    /// some of them can be set on this path, a warning says the use was
    /// not checked (once per line).
    pub(in crate::exec) fn unchecked_local_use(&mut self, state: &State, s: &Shadow, loc: Loc, what: &str) {
        if self.models.unchecked_local_lines.contains(&loc) {
            return;
        }
        let any = s.any_set(&mut self.cx.pool);
        let possible = match self.cx.pool.as_const(any) {
            Some(v) => v != 0,
            // Only whether to name the gap is asked, so the solver gets a
            // budget, and masks that select over much of a large array (a
            // histogram's table at slots read from a 64 KiB buffer: a
            // gigabyte to encode) are not asked about at all. Unknown: the
            // gap may be there, so it is named.
            None => {
                crate::check::dag_size(&self.cx.pool, &[any], GAP_QUERY_NODES) >= GAP_QUERY_NODES
                    || !matches!(
                        self.cx.decider.backend.check_budgeted(&self.cx.pool, &state.path, any, GAP_QUERY_UNITS),
                        Feasibility::Unsat
                    )
            }
        };
        if !possible {
            return;
        }
        self.models.unchecked_local_lines.insert(loc);
        let origin = self.shadow.origin(s.origin);
        let line = self.cx.location(loc).line;
        let note = format!(
            "line {line}: {what} depends on bytes of {} that may be ones no work-item wrote; pair mode does not model the other \
             work-items' writes, so whether one wrote them was not checked and an uninitialised read there is not reported \
             (--mode enumerate checks it)",
            origin.what
        );
        self.log.note(NoteKind::UncheckedLocalRead, note);
    }
}
