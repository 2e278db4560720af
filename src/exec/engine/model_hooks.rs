//! The seam between the engine and the models it runs with (the C
//! environment, OpenCL): the few questions the run loop, calls, path
//! merging and the memory instructions (exec/memory/) ask of them. The engine declares them here and calls nothing
//! else of the models; the composition root (exec/models.rs) answers them.
//! The implementation is on `Executor` itself, so each call is static
//! dispatch, as cheap as the direct calls it replaces.

use crate::exec::engine::arity::Arity;
use crate::exec::engine::calls::{CallCtx, Handler};
use crate::exec::engine::executor::Step;
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::ExprId;
use crate::ir::{BlockId, Function, Inst, Loc, Type};
use crate::memory::Access;
use crate::memory::{Bytes, MemoryObject, ObjectId, OriginId};

/// The bytes of an address-only object remembered by offset (its `known`
/// and `known_symbolic` maps).
pub(in crate::exec) type RememberedBytes = rustc_hash::FxHashMap<ExprId, ExprId>;

/// A call of a declared function that the models answer from the running
/// work-item's ids alone, with no other effect (`get_global_id` and the
/// other work-item functions of an enumerated NDRange): which one, as the
/// models number them (`ModelHooks::id_call`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(in crate::exec) struct IdCall(pub(in crate::exec) u8);

/// What the engine asks of the models.
pub(in crate::exec) trait ModelHooks<'m> {
    /// The models' built-in functions by exact name (libc, printf, the
    /// OpenCL host API...), with their arity, in the shape of the engine's
    /// own rows (calls.rs).
    fn model_row(name: &str) -> Option<(Handler<'m>, Arity)>;

    /// The arity of a model function that is not a row (OpenCL device
    /// built-ins), with the name to show; None when no model claims it.
    fn model_arity(&self, state: &State, name: &str) -> Option<(String, Arity)>;

    /// Runs a call no row, `llvm.*` or libm intrinsic claimed; None when no
    /// model claims it either (the call is then unsupported).
    fn call_model(&mut self, state: &mut State, ctx: &CallCtx) -> Option<Result<Option<Value>, Step>>;

    /// Whether a device call of the declared function `name`, which no
    /// engine row, `llvm.*` or libm intrinsic claims, reaches a model
    /// function that only reads the running work-item's ids (`call_model`
    /// would answer it by `answer_id_call`); asked once per function.
    fn id_call(name: &str) -> Option<IdCall>;

    /// The value of the call `call` with the argument values `args` for
    /// the running work-item: exactly what `call_model` returns for it
    /// (the same pool calls in the same order), with nothing else done.
    /// None when the general step must run it (an argument count the
    /// function's arity refuses, which it reports; no device).
    fn answer_id_call(&mut self, state: &State, call: IdCall, args: &[Value]) -> Option<Value>;

    /// The running code branches on `cond` at `loc` (a conditional branch,
    /// before it is taken): the models may keep it (warp divergence, for
    /// `race --perf`).
    fn branch_condition(&mut self, state: &mut State, cond: ExprId, loc: Loc);

    /// The path's bottom frame returned at `loc` (`state.stack` is empty):
    /// the path ends, or the device goes on with another work-item.
    fn bottom_frame_returned(&mut self, state: &mut State, loc: Loc) -> Step;

    /// Checked every so many instructions of a path: true when the models
    /// end the path (a work-item past its step budget), the cut noted.
    fn path_over_budget(&mut self, state: &State) -> bool;

    /// The running part of the path took a loop's back edge: the models
    /// may end its run there (a work-item whose state repeats never
    /// terminates) and say how the path goes on.
    fn loop_back_edge(&mut self, state: &mut State) -> Option<Step>;

    /// A kernel's next instruction is about to run: the models may hand
    /// the turn to another work-item first (warps in lockstep).
    fn before_kernel_instruction(&mut self, state: &mut State);

    /// A limit stopped the run with `state` unfinished: what the models
    /// can still judge of it (a kernel's accesses so far, for races).
    fn stopped_unfinished(&mut self, state: &mut State);

    /// The loop whose test at `header` branches to `then` or `otherwise`
    /// reached the loop bound: true when it was summarised instead, the
    /// state standing at `header` with `State::forced_exit` set.
    fn summarise_loop_at_bound(&mut self, state: &mut State, func: &Function, header: BlockId, then: BlockId, otherwise: BlockId) -> bool;

    /// The running code may go either way at the end of `here`, which has
    /// (`at_bound`) or has not yet reached the loop bound: the models may
    /// move it out of a loop that has no effect a check could see, by
    /// each of its exits, and say how the path goes on.
    fn leave_loop_without_effects(&mut self, state: &mut State, func: &'m Function, here: BlockId, at_bound: bool) -> Option<Step>;

    /// Merges the remembered bytes of two versions of an address-only
    /// object, under `guard` for `a`'s, on the path of `state` (the side
    /// `a` is from): the merged maps and the fresh values that
    /// over-approximate bytes (`State::inexact_unsized`).
    fn merge_address_only(
        &mut self,
        state: &State,
        guard: ExprId,
        a: &MemoryObject,
        b: &MemoryObject,
    ) -> (RememberedBytes, RememberedBytes, Vec<ExprId>);

    /// What the models call the running part of the path, for messages
    /// (`work-item (x,y,z) of group (a,b,c)`, `thread ... of block ...` in
    /// CUDA code), its ids valued by `model` when symbolic; None outside a
    /// kernel.
    fn running_unit(&self, state: &State, model: Option<&crate::expr::Assignment>) -> Option<String>;

    /// A finding of the running unit, with `witness`, is unconfirmed only
    /// because the device over-approximates (`why`, as
    /// `DeviceState::unconfirmable_because` said): the models may note it
    /// to be re-checked exactly.
    fn unconfirmed_by_device(&mut self, state: &State, witness: Option<&crate::expr::Assignment>, why: &str);

    /// Why a finding on a path that over-approximated the unsized buffer
    /// `name` (`State::inexact_unsized`) is not confirmed.
    fn inexact_unsized_note(name: &str) -> String;

    /// A load (`write` false, `value` the bytes read when the models
    /// asked for them) or store (`value` the bytes written) of `len`
    /// bytes of type `ty` at `access`: the models observe it (a kernel's
    /// accesses, for races).
    #[allow(clippy::too_many_arguments)]
    fn plain_access(
        &mut self,
        state: &mut State,
        func: &Function,
        inst: &Inst,
        ty: &Type,
        access: &Access,
        len: u64,
        write: bool,
        value: Option<Vec<ExprId>>,
    );

    /// A read (`write` false) or write of `len` bytes at `access` by a
    /// block copy or fill (`llvm.memcpy`, `memmove`, `memset`: a struct
    /// assignment at -O0); `value` is the bytes written when known. The
    /// models observe it as they observe plain loads and stores.
    fn bulk_access(&mut self, state: &mut State, access: &Access, len: u64, write: bool, value: Option<Vec<ExprId>>, loc: Loc);

    /// Whether storing indeterminate bits into `object` is a use of them
    /// (an `uninitialized-read`): a kernel's store into a `__global`
    /// buffer, whose contents the host reads back.
    fn indeterminate_store_is_use(&self, state: &State, object: ObjectId) -> bool;

    /// A block copy from `from` to `to` (whose store is a use, see
    /// `indeterminate_store_is_use`) carries bytes with the indeterminate
    /// bits `masks` (one per byte): report those that are not padding.
    fn indeterminate_copy(&mut self, state: &mut State, from: &Access, to: &Access, masks: &[Option<ExprId>], origin: OriginId, loc: Loc);

    /// Whether OpenCL C's rules for device code hold on this path: loads
    /// and stores naturally aligned, array indices within their arrays
    /// (a breach of either is a finding).
    fn device_code_rules(&self, state: &State) -> bool;

    /// An atomic read-modify-write of `len` bytes at `access`, which
    /// writes only when `written_when` holds (a compare-and-exchange; None:
    /// always).
    fn atomic_access(&mut self, state: &mut State, access: &Access, len: u64, written_when: Option<ExprId>, loc: Loc);

    /// Bytes `[offset, offset + len)` of `object` are about to be read or
    /// written (`range` None: some bytes at a symbolic offset): the models
    /// may give never-written bytes their contents first (a work-group's
    /// `__local` memory, arbitrary at the start of each group).
    fn before_shared_access(&mut self, state: &mut State, object: ObjectId, range: Option<std::ops::Range<usize>>);

    /// Reads `len` bytes of an address-only object (`MemoryObject::address_only`),
    /// whose contents the models keep.
    fn read_address_only(&mut self, state: &mut State, access: &Access, len: u64) -> Bytes;

    /// Writes bytes (None: left alone) into an address-only object.
    fn write_address_only(&mut self, state: &mut State, access: &Access, bytes: &[Option<ExprId>]);

    /// A write of `len` bytes at `offset` reached `object`, marked
    /// read-only: the models judge it when they made the mark (a host
    /// program's buffer, read-only for a kernel's run in whole or in
    /// part): allowed, or reported with the path's end or split. None:
    /// the object itself is constant.
    fn write_into_marked(&mut self, state: &mut State, object: ObjectId, offset: ExprId, len: u64, loc: Loc) -> Option<Result<(), Step>>;
}
