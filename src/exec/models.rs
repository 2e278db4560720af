//! The composition root of the executor: the models the engine runs with.
//! The engine declares what it needs of them (engine/device.rs,
//! engine/model_hooks.rs) and names none of them; this file answers with
//! the C environment (env/) and OpenCL (opencl/), and holds the run-wide
//! data of those models.

use crate::exec::engine::arity::Arity;
use crate::exec::engine::calls::{CallCtx, Handler};
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::model_hooks::{IdCall, ModelHooks, RememberedBytes};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::ExprId;
use crate::ir::{BlockId, FuncId, Function, Inst, Loc, Type};
use crate::memory::Access;
use crate::memory::{Bytes, MemoryObject, ObjectId};
use crate::race::AccessKind;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// The parallel device a state may carry (`State::gpu`): the work-items of
/// an OpenCL NDRange. The engine uses it through `DeviceState` only.
pub type Device = crate::exec::opencl::workitems::Gpu;

/// The CUDA stream operations of a host path and what each touched
/// (opencl/cuda_streams.rs); the engine only carries it in `State`.
pub type Streams = crate::exec::opencl::cuda_streams::StreamWork;

/// Run-wide data of the models, one field of the executor.
#[derive(Default)]
pub(in crate::exec) struct ModelData {
    /// OpenCL programs built by the host program (opencl/host.rs).
    pub cl: crate::exec::opencl::host::ClPrograms,
    /// Per function, its lane writes (opencl/lane_writes.rs), found when
    /// needed.
    pub lane_tables: FxHashMap<FuncId, Rc<crate::exec::opencl::lane_writes::LaneTable>>,
    /// The image arguments of a kernel run alone, by address
    /// (opencl/images.rs).
    pub images: FxHashMap<u64, crate::exec::opencl::images::ImageShape>,
    /// `race --perf`: per kind and source location, the worst measure
    /// reported and its finding's index (opencl/perf_checks.rs).
    pub perf_worst: FxHashMap<(crate::report::FindingKind, Loc), (u64, usize)>,
    /// The device side of a CUDA program checked with its host code
    /// (opencl/cuda_runtime.rs).
    pub cuda: Option<crate::exec::opencl::cuda_runtime::CudaDevice>,
    /// The `__local` variables no instruction can write, found at the
    /// first barrier of pair mode (opencl/unwritten_locals.rs).
    pub unwritten_locals: Option<Rc<rustc_hash::FxHashSet<crate::ir::GlobalId>>>,
    /// Per kernel, which of its parameters an instruction may write
    /// through, found at the first barrier of pair mode
    /// (opencl/unwritten_buffers.rs).
    pub param_writes: FxHashMap<FuncId, Rc<crate::exec::opencl::unwritten_buffers::ParamWrites>>,
    /// Why a function without a body could follow stored pointers past
    /// the objects its arguments point into, if it could; found at the
    /// first such call (opencl/undefined_call_havoc.rs).
    pub unbounded_pointer_reach: Option<Rc<Option<String>>>,
    /// The byte ranges of `__local` variables only stores at constant
    /// offsets write (opencl/unwritten_locals.rs), found at the first
    /// barrier of pair mode.
    pub local_write_ranges: Option<Rc<crate::exec::opencl::unwritten_locals::WriteRanges>>,
    /// Per block of a CUDA kernel, the loop without effects around it
    /// that may be left from there, if any (opencl/cuda_effect_free_loops.rs).
    pub effect_free_loops: FxHashMap<
        crate::exec::opencl::cuda_effect_free_loops::LoopKey,
        Option<Rc<crate::exec::opencl::cuda_effect_free_loops::EffectFreeLoop>>,
    >,
    /// The fresh values that stand for the initial contents of unsized
    /// `__local` buffers, never written in their group
    /// (opencl/kernel_memory.rs): indeterminate when read.
    pub unsized_local_initial: rustc_hash::FxHashSet<crate::expr::ExprId>,
    /// The fresh values read from unsized `__local` buffers where pair
    /// mode cannot tell whether a work-item wrote the byte (after a
    /// barrier), with the mask of the bits that may be indeterminate: a
    /// use of them is a warning (opencl/unchecked_local.rs).
    pub unsized_local_unchecked: rustc_hash::FxHashMap<crate::expr::ExprId, crate::expr::ExprId>,
    /// The lines where a use of such bytes was already noted (one
    /// warning, and one solver query, per line).
    pub unchecked_local_lines: rustc_hash::FxHashSet<Loc>,
}

impl<'m> ModelHooks<'m> for Executor<'m> {
    fn model_row(name: &str) -> Option<(Handler<'m>, Arity)> {
        Self::env_row(name).or_else(|| Self::host_api_row(name)).or_else(|| Self::cuda_device_row(name))
    }

    fn model_arity(&self, state: &State, name: &str) -> Option<(String, Arity)> {
        crate::exec::opencl::builtins::opencl_arity(name, state.gpu.is_some())
    }

    fn call_model(&mut self, state: &mut State, ctx: &CallCtx) -> Option<Result<Option<Value>, Step>> {
        if let Some(r) = self.call_opencl(state, ctx) {
            return Some(r);
        }
        // Before the intrinsics: a texture's handle is an `llvm.nvvm` one.
        if let Some(r) = self.call_cuda_texture(state, ctx) {
            return Some(r);
        }
        if let Some(r) = self.call_cuda_texture_object(state, ctx) {
            return Some(r);
        }
        if let Some(r) = self.call_cuda_intrinsic(state, ctx) {
            return Some(r);
        }
        if let Some(r) = self.call_declared_device_function(state, ctx) {
            return Some(r);
        }
        self.call_undefined_in_kernel(state, ctx)
    }

    fn id_call(name: &str) -> Option<IdCall> {
        // A name a row claims goes to its handler, not to call_model.
        if Self::model_row(name).is_some() {
            return None;
        }
        crate::exec::opencl::builtins::id_call_row(name)
    }

    fn answer_id_call(&mut self, state: &State, call: IdCall, args: &[Value]) -> Option<Value> {
        self.work_item_call(state, call, args)
    }

    fn branch_condition(&mut self, state: &mut State, cond: ExprId, loc: Loc) {
        self.note_branch_for_perf(state, cond, loc);
    }

    fn bottom_frame_returned(&mut self, state: &mut State, loc: Loc) -> Step {
        if state.gpu.is_some() {
            return self.work_item_finished(state, loc);
        }
        Step::Finished
    }

    fn path_over_budget(&mut self, state: &State) -> bool {
        self.work_item_over_budget(state)
    }

    fn loop_back_edge(&mut self, state: &mut State) -> Option<Step> {
        self.work_item_back_edge(state)
    }

    fn before_kernel_instruction(&mut self, state: &mut State) {
        self.lockstep_turn(state);
    }

    fn stopped_unfinished(&mut self, state: &mut State) {
        self.check_races_at_limit(state);
    }

    fn summarise_loop_at_bound(&mut self, state: &mut State, func: &Function, header: BlockId, then: BlockId, otherwise: BlockId) -> bool {
        self.summarise_loop(state, func, header, then, otherwise)
    }

    fn leave_loop_without_effects(&mut self, state: &mut State, func: &'m Function, here: BlockId, at_bound: bool) -> Option<Step> {
        use crate::exec::opencl::cuda_effect_free_loops::LeaveWhen;
        self.leave_effect_free_loop(state, func, here, if at_bound { LeaveWhen::AtBound } else { LeaveWhen::FirstTest })
    }

    fn merge_address_only(
        &mut self,
        state: &State,
        guard: ExprId,
        a: &MemoryObject,
        b: &MemoryObject,
    ) -> (RememberedBytes, RememberedBytes, Vec<ExprId>) {
        self.merge_unsized(state, guard, a, b)
    }

    fn running_unit(&self, state: &State, model: Option<&crate::expr::Assignment>) -> Option<String> {
        self.running_item_label(state, model)
    }

    fn unconfirmed_by_device(&mut self, state: &State, witness: Option<&crate::expr::Assignment>, why: &str) {
        self.note_havoc_doubt_of_running_item(state, witness, why);
    }

    fn inexact_unsized_note(name: &str) -> String {
        format!(
            "; not confirmed: the path read or wrote the buffer `{name}` at an offset where its contents were taken as arbitrary \
             (an unsized buffer at an offset that may equal more than {} offsets already read or written there, too many to relate; \
             or a large buffer of arbitrary contents read at a symbolic offset, whose value there is not tied to the bytes read at numbers)",
            crate::exec::opencl::kernel_memory::MAX_ALIASES
        )
    }

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
    ) {
        self.check_host_touches_device(state, access, len, write, inst.loc);
        if write {
            self.note_group_write(state, func, inst, access, len);
        }
        self.observe_lanes(state, func, inst, ty, access, len, write, value);
    }

    fn bulk_access(&mut self, state: &mut State, access: &Access, len: u64, write: bool, value: Option<Vec<ExprId>>, loc: Loc) {
        self.check_host_touches_device(state, access, len, write, loc);
        self.observe_access(state, access, len, AccessKind::plain(write), value, loc);
    }

    fn indeterminate_store_is_use(&self, state: &State, object: ObjectId) -> bool {
        state.gpu.is_some() && state.memory.object(object).addr_space == crate::ir::GLOBAL_SPACE
    }

    fn indeterminate_copy(
        &mut self,
        state: &mut State,
        from: &Access,
        to: &Access,
        masks: &[Option<ExprId>],
        origin: crate::memory::OriginId,
        loc: Loc,
    ) {
        self.copied_indeterminate_bytes(state, from, to, masks, origin, loc);
    }

    fn device_code_rules(&self, state: &State) -> bool {
        state.gpu.is_some()
    }

    fn atomic_access(&mut self, state: &mut State, access: &Access, len: u64, written_when: Option<ExprId>, loc: Loc) {
        self.observe_atomic(state, access, len, written_when, loc);
    }

    fn before_shared_access(&mut self, state: &mut State, object: ObjectId, range: Option<std::ops::Range<usize>>) {
        self.fill_unwritten_local(state, object, range);
    }

    fn read_address_only(&mut self, state: &mut State, access: &Access, len: u64) -> Bytes {
        self.read_unsized(state, access, len)
    }

    fn write_address_only(&mut self, state: &mut State, access: &Access, bytes: &[Option<ExprId>]) {
        self.write_unsized(state, access, bytes);
    }

    fn write_into_marked(&mut self, state: &mut State, object: ObjectId, offset: ExprId, len: u64, loc: Loc) -> Option<Result<(), Step>> {
        self.host_view_write(state, object, offset, len, loc)
    }
}
