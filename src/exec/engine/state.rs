//! An execution state: one path through the program, with its call stack,
//! memory, path condition and a model (input values) known to satisfy the
//! path condition. Forking clones the state; memory is shared copy-on-write.

use crate::expr::value::Value;
use crate::expr::{Assignment, ExprId};
use crate::ir::{BlockId, FuncId, Loc, RegId};
use crate::memory::{Memory, ObjectId};

#[derive(Clone)]
/// One call on a state's stack: the function, where it is in it, and its
/// registers.
pub struct Frame {
    /// The function this frame runs.
    pub func: FuncId,
    /// The block running now; `pc` indexes its instructions.
    pub block: BlockId,
    /// The block we came from, for phi nodes.
    pub prev_block: Option<BlockId>,
    /// Index of the next instruction in `block`.
    pub pc: usize,
    /// Register values by `RegId` index; `None` until assigned (a read
    /// before then gives zeros).
    pub regs: Vec<Option<Value>>,
    /// Stack objects to free when the frame returns.
    pub allocas: Vec<ObjectId>,
    /// Register of the caller receiving the result.
    pub ret_dest: Option<RegId>,
    /// Where the function was called: the frame's stack objects, freed when
    /// it returns, are reported as freed there.
    pub call_loc: Loc,
    /// Extra arguments of a variadic call, laid out in memory.
    pub varargs: Option<ObjectId>,
    /// Registers holding indeterminate bits (shadow.rs); empty in most code.
    pub shadows: rustc_hash::FxHashMap<RegId, crate::memory::shadow::Shadow>,
    /// Whether shadows are computed in this frame: its function mentions
    /// `undef`, or a register received a shadow.
    pub shadow_on: bool,
}

#[derive(Clone)]
/// One path being explored: everything needed to go on with it. A fork
/// clones it, and each side goes on alone.
pub struct State {
    /// Unique within a run (`Executor::fork_id`); names the state in traces.
    pub id: u32,
    /// The call stack, innermost frame last.
    pub stack: Vec<Frame>,
    /// This path's memory, shared copy-on-write with the states forked from
    /// it.
    pub memory: Memory,
    /// Constraints (width-1 expressions) that hold on this path.
    pub path: Vec<ExprId>,
    /// An input assignment satisfying `path`, when one is known.
    pub model: Option<Assignment>,
    /// Set when the path went through a branch whose feasibility the
    /// solver could not decide: its findings cannot be confirmed by the path
    /// alone.
    pub unconfirmed_path: bool,
    /// Instructions executed on this path.
    pub steps: u64,
    /// Depth in the fork tree (for the random-path searcher).
    pub depth: u32,
    /// The work-items of an OpenCL NDRange, when running a kernel; `stack`
    /// is then the stack of the running work-item. The engine uses it
    /// through `DeviceState` (device.rs) only.
    pub gpu: Option<Box<crate::exec::models::Device>>,
    /// Open merge regions this state belongs to, innermost last.
    pub merge: Vec<crate::exec::engine::merge::MergeTag>,
    /// Whether this path reached a check (coverage.rs).
    pub checked: bool,
    /// The decisions that give this path to a shard (shard.rs).
    pub route: crate::config::Route,
    /// Branch conditions the path is known to decide (implied.rs).
    pub implied: crate::exec::engine::implied::ImpliedBranches,
    /// The path went through a summarised loop (loop_summary.rs): it
    /// covers executions that may not exist, so its findings are never
    /// confirmed.
    pub abstracted: bool,
    /// The bytes of unsized buffers (kernel_memory.rs) this path took as
    /// arbitrary because they could not be related to the bytes they may
    /// alias: a finding that depends on one is not confirmed.
    pub inexact_unsized: Option<InexactBytes>,
    /// A summarised loop's test this path must leave by (loop_summary.rs).
    pub forced_exit: Option<ForcedExit>,
    /// The ladder step that decided the last branch into this side (a
    /// failure reached through it was found, or shown possible, by it).
    pub branch_step: Option<crate::report::DecidedBy>,
    /// Why the solver left a branch of this path undecided (the first such
    /// answer), for the findings on it (`unconfirmed_path`).
    pub path_unknown: Option<crate::solver::Unknown>,
    /// The CUDA stream operations of this path and what each touched
    /// (cuda_streams.rs), once the program issues one.
    pub streams: Option<Box<crate::exec::models::Streams>>,
}

/// Bytes of unsized buffers given arbitrary values where their contents
/// were over-approximated (kernel_memory.rs), and the first such buffer
/// (named in messages).
#[derive(Clone, Debug)]
pub struct InexactBytes {
    /// The first buffer over-approximated on the path.
    pub buffer: String,
    /// The fresh values standing for the over-approximated bytes; shared
    /// between the states a fork makes until one adds to it.
    pub values: std::rc::Rc<rustc_hash::FxHashSet<ExprId>>,
}

impl InexactBytes {
    /// Adds `values` (taken as arbitrary in `buffer`) to `set`.
    pub fn add(set: &mut Option<InexactBytes>, buffer: &str, values: impl IntoIterator<Item = ExprId>) {
        let mut values = values.into_iter().peekable();
        if values.peek().is_none() {
            return;
        }
        let entry = set.get_or_insert_with(|| InexactBytes { buffer: buffer.to_string(), values: Default::default() });
        std::rc::Rc::make_mut(&mut entry.values).extend(values);
    }

    /// Adds everything `other` holds to `set`.
    pub fn union(set: &mut Option<InexactBytes>, other: &Option<InexactBytes>) {
        if let Some(o) = other {
            if set.as_ref().is_some_and(|s| std::rc::Rc::ptr_eq(&s.values, &o.values)) {
                return;
            }
            Self::add(set, &o.buffer, o.values.iter().copied());
        }
    }

    /// Whether an expression below `roots` is one of the arbitrary bytes.
    /// Each shared node is visited once.
    pub fn mentioned_in(&self, pool: &crate::expr::ExprPool, roots: impl Iterator<Item = ExprId>) -> bool {
        pool.any_below(roots, |e, _| self.values.contains(&e))
    }
}

/// A state re-running a summarised loop's test: at `header` (in `func`, at
/// stack depth `depth`) it must take the branch to `exit` (control.rs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcedExit {
    /// The function holding the loop.
    pub func: FuncId,
    /// The loop's test block, where the branch is forced.
    pub header: BlockId,
    /// The stack length of the loop's frame, so that a recursive call of
    /// the same function is not forced.
    pub depth: usize,
    /// The block the path leaves the loop to.
    pub exit: BlockId,
    /// The loop's counters: variables it only steps by a constant.
    pub counters: Vec<SummaryCounter>,
}

/// A counter of a summarised loop, given an arbitrary value by the
/// summary: its one store per trip adds a positive constant to the value
/// it had (`i++` under C's `nsw`), so every value it takes is at least
/// the value it had when the loop was summarised, unless a trip
/// overflowed (control.rs asks that first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SummaryCounter {
    /// `value >= start` (signed).
    pub beyond_start: ExprId,
    /// `value` so near the type's end that one more step overflows.
    pub next_overflows: ExprId,
}

impl State {
    /// The running (innermost) frame. Panics on an empty stack, which a
    /// state still running never has.
    pub fn frame(&self) -> &Frame {
        self.stack.last().expect("state with an empty stack")
    }
    /// The running (innermost) frame, to change.
    pub fn frame_mut(&mut self) -> &mut Frame {
        self.stack.last_mut().expect("state with an empty stack")
    }
}
