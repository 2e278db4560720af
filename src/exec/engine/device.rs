//! The seam between the engine and a parallel device a state may carry
//! (`State::gpu`: the work-items of an OpenCL NDRange). The engine merges
//! and bounds paths through these operations only; what a device is, and
//! how it schedules and records its accesses, is the device model's
//! business (the composition root, exec/models.rs, names the type).

use crate::exec::engine::merge::KernelEpoch;
use crate::expr::{ExprId, ExprPool};
use crate::ir::{BlockId, FuncId};

/// What the engine asks of the device state of one path.
pub trait DeviceState {
    /// Where the running work-item stands; it changes at every barrier and
    /// work-item switch, so a merge region never spans one.
    fn epoch(&self) -> KernelEpoch;

    /// How many shared-memory access records the path holds so far.
    fn record_count(&self) -> usize;

    /// Merges the records `other` made since `since` into this path's,
    /// each side's under its guard. False when they cannot be merged (the
    /// paths are then kept apart).
    fn merge_records_from(&mut self, other: &Self, since: usize, guard: ExprId, other_guard: ExprId, pool: &mut ExprPool) -> bool;

    /// Whether the work-items that are not running stand where `other`'s
    /// do (a path merge needs both sides to hold the same schedule).
    fn same_items_as(&self, other: &Self) -> bool;

    /// Unrollings of the loop test at `block` (in `func`, at stack depth
    /// `depth`) that the running work-item made before the barriers it has
    /// passed (path_budget.rs counts them against the loop bound).
    fn unrollings_before_barriers(&self, func: FuncId, block: BlockId, depth: usize) -> usize;

    /// Whether a byte of an object in `addr_space` that a path never wrote
    /// holds an arbitrary value rather than the zero it is stored as
    /// (merging must then not take the stored byte as known).
    fn unwritten_is_arbitrary(&self, addr_space: u32) -> bool;

    /// Why a finding on a path constrained by `path` cannot be confirmed by
    /// its witness, when the device model over-approximates what memory
    /// may hold (values assumed arbitrary that no device need produce);
    /// None when the witness stands.
    fn unconfirmable_because(&self, pool: &ExprPool, path: &[ExprId]) -> Option<&'static str>;

    /// Whether the running work-item runs alone on concrete ids with no
    /// bookkeeping of the device's between its instructions (an
    /// enumerated NDRange without warp lockstep or a grid barrier), so
    /// that its pure instructions may run on the fast concrete tier.
    fn items_run_alone_on_concrete_ids(&self) -> bool;
}
