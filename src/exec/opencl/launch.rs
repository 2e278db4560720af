//! Running an NDRange for the modelled OpenCL host API
//! (`__symcross_cl_run`): the kernel module is executed by a nested
//! executor on the host state's own memory, path and model, with the
//! work-item scheduler of workitems.rs. The expression pool and the decider
//! move into the nested executor for the run and back afterwards
//! (`trade_engine`), so the kernel's values and the host's are one set of
//! expressions. Each kernel path that finishes continues the host program
//! as one host path.

use crate::check::{Backend, Decider, Feasibility};
use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::exec::opencl::cuda_runtime::DeviceLayout;
use crate::exec::opencl::ndrange_setup::NdRangeSetup;
use crate::exec::opencl::workitems::{NdRange, RaceMode};
use crate::expr::value::Value;
use crate::expr::{ExprId, ExprPool};
use crate::ir::{FuncId, Loc, Module, RegId, Type};
use crate::memory::{Memory, ObjectId};
use std::rc::Rc;

/// Above this many work-items an NDRange launched by a host program is
/// not enumerated: two symbolic work-items check it for races and memory
/// errors, and the host path stops there (the kernel's results are not
/// computed). Enumeration costs time and memory linear in the work-items
/// (a 2^20-item vector add takes about 15 s and 2 GB), so this is where
/// following the host stops paying. `symcross race` picks its default mode
/// with a lower bound of its own (`cli::race_cmd::RACE_ENUMERATE_BY_DEFAULT_UP_TO`),
/// since there the pair mode loses nothing the user asked for.
pub const HOST_LAUNCH_ENUMERATE_UP_TO: u64 = 1 << 20;

/// The decider a nested executor is built with, before it trades with the
/// host's (`trade_engine`): from then until the trade back the host holds
/// it, and the host does not run meanwhile (it is borrowed by
/// `run_ndrange`), so no check reaches it. Were one to, it answers
/// `unknown` rather than an answer about expressions it has never seen.
pub(super) struct LentAway;

impl Backend for LentAway {
    fn check(&mut self, _pool: &ExprPool, _path: &[ExprId], _goal: ExprId) -> Feasibility {
        Feasibility::Unknown(crate::solver::Unknown::new(crate::solver::UnknownKind::SolverError, "solver in use by a nested kernel run"))
    }
    fn queries(&self) -> u64 {
        0
    }
}

/// A kernel argument as the host passed it.
pub(super) enum KernelArg {
    Bytes(Vec<ExprId>),
    Local(u64),
}

/// Everything `__symcross_cl_run` (or a CUDA launch) asks for.
pub(super) struct Launch {
    pub module: Rc<Module>,
    pub host_files_at: u32,
    pub kernel: FuncId,
    pub ndrange: NdRange,
    pub args: Vec<KernelArg>,
    /// CUDA: the bytes of dynamic shared memory, which every `extern
    /// __shared__` array of the device code starts at.
    pub dynamic_shared: Option<u64>,
    /// OpenCL: the buffer arguments and what their flags allow the kernel
    /// (host_access.rs).
    pub host_views: Vec<crate::exec::opencl::host_access::HostView>,
}

impl Launch {
    /// A `<<<...>>>` launch of a CUDA program (which always has a dynamic
    /// shared memory size, 0 by default), not an OpenCL NDRange.
    pub fn is_cuda(&self) -> bool {
        self.dynamic_shared.is_some()
    }
}

impl<'m> Executor<'m> {
    /// `void __symcross_cl_run(program, kernel, dims, offset, global, local, num_args, args)`.
    pub(in crate::exec) fn cl_run(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let launch = self.read_launch(state, c)?;
        self.run_ndrange(state, launch, c.inst.loc)
    }

    /// The decider a nested executor starts with (`LentAway`).
    pub(super) fn lent_decider(&self) -> Decider {
        Decider::new(Box::new(LentAway), None)
    }

    pub(in crate::exec) fn read_words(&mut self, state: &mut State, ptr: ExprId, n: usize, loc: Loc) -> Result<Vec<u64>, Step> {
        let bytes = self.read_concrete_bytes(state, ptr, 8 * n as u64, loc)?;
        Ok(bytes.chunks(8).map(|w| u64::from_le_bytes(w.try_into().unwrap_or([0; 8]))).collect())
    }

    fn read_launch(&mut self, state: &mut State, c: &CallCtx) -> Result<Launch, Step> {
        let loc = c.inst.loc;
        let program = self.concrete_arg(state, c.args[0][0])?;
        let kernel = self.concrete_arg(state, c.args[1][0])?;
        let dims = self.concrete_arg(state, c.args[2][0])? as u32;
        let offset = self.read_words(state, c.args[3][0], 3, loc)?;
        let global = self.read_words(state, c.args[4][0], 3, loc)?;
        let local = self.read_words(state, c.args[5][0], 3, loc)?;
        let num_args = self.concrete_arg(state, c.args[6][0])?;
        let Some(p) = self.models.cl.programs.get(program as usize) else {
            return Err(self.unsupported(state, loc, format!("NDRange of unknown program {program}")));
        };
        let (module, host_files_at) = (p.module.clone(), p.host_files_at);
        let Some(kernel) = Self::kernel_of(&module, kernel) else {
            return Err(self.unsupported(state, loc, format!("NDRange of unknown kernel {kernel}")));
        };
        let mut args = Vec::new();
        let mut buffers = Vec::new();
        for i in 0..num_args {
            // `struct __symcross_cl_arg` (symcross_cl.h): kind and access,
            // size, bytes, the buffer's size and creation site.
            let base = c.args[7][0];
            let at = self.cx.pool.constant(64, 40 * i as u128);
            let slot = self.cx.pool.add(base, at);
            let words = self.read_words(state, slot, 5, loc)?;
            let (kind, size, bytes) = (words[0] as u32, words[1], words[2]);
            if kind == 1 {
                args.push(KernelArg::Local(size));
            } else {
                let ptr = self.cx.pool.constant(64, bytes as u128);
                let access = self.resolve(state, ptr, size, loc, false)?;
                let value = self.read_bytes(state, &access, size, loc).into_vec();
                if words[3] != 0 && size == 8 {
                    let data = value.iter().rev().try_fold(0u64, |acc, b| self.cx.pool.as_const(*b).map(|b| (acc << 8) | b as u64));
                    if let Some(data) = data {
                        let (access, site) = ((words[0] >> 32) as u32, words[4]);
                        buffers.push(crate::exec::opencl::host_access::RawBufferArg {
                            param: i as usize,
                            data,
                            size: words[3],
                            access,
                            site,
                        });
                    }
                }
                args.push(KernelArg::Bytes(value));
            }
        }
        let host_views = self.host_views(state, &buffers);
        // The host model refuses a global size the local size does not
        // divide (CL_INVALID_WORK_GROUP_SIZE, OpenCL 1.2), so groups are
        // full here; the last would hold the remainder otherwise.
        let local = [local[0].max(1), local[1].max(1), local[2].max(1)];
        let ndrange =
            NdRange { offset: [offset[0], offset[1], offset[2]], ..NdRange::of_global(dims, local, [global[0], global[1], global[2]]) };
        if ndrange.checked_total().is_none() {
            return Err(self.unsupported(state, loc, "NDRange of more than 2^64 work-items".into()));
        }
        Ok(Launch { module, host_files_at, kernel, ndrange, args, dynamic_shared: None, host_views })
    }

    pub(super) fn run_ndrange(&mut self, state: &mut State, launch: Launch, loc: Loc) -> Result<Option<Value>, Step> {
        self.run_launch(state, launch, loc, None).map(|_| None)
    }

    /// Runs the launch's kernel on `state`'s memory and continues the host
    /// from each kernel path that finished, with `KERNEL_RAN` in `dest`
    /// (the register the launch primitive's result goes to) and, for a
    /// CUDA launch, also from each path that faulted, with its fault's code
    /// (cuda_runtime.rs, `LaunchFault`) there: returns the code of the path `state` continues with.
    pub(super) fn run_launch(&mut self, state: &mut State, launch: Launch, loc: Loc, dest: Option<RegId>) -> Result<u32, Step> {
        let module = launch.module.clone();
        let mut config = self.cx.config.clone();
        // The host's paths are what shards split; a kernel's run under one
        // host path is that path's, whole.
        config.shard = None;
        if let Some(t) = config.max_time {
            config.max_time = Some(t.saturating_sub(std::time::Duration::from_secs_f64(self.elapsed())));
        }
        let mut nested = Executor::new(module.as_ref(), config, Decider::new(Box::new(LentAway), None));
        self.trade_engine(&mut nested);
        nested.finished = Some(Vec::new());
        if launch.is_cuda() {
            nested.faulted = Some(Vec::new());
        }
        let mut kstate = state.clone();
        kstate.stack.clear();
        let shifted = shift_host_lines(&mut kstate.memory, launch.host_files_at as i64, None);
        let layout = self.models.cuda.as_ref().filter(|_| launch.is_cuda()).and_then(|d| d.layout.clone());
        let mode = nested.prepare_kernel(&mut kstate, &launch, layout.as_ref());
        let marks = nested.restrict_host_views(&mut kstate, launch.host_views.clone(), launch.kernel);
        if mode.is_some() {
            nested.start_kernel(&mut kstate);
            nested.explore(kstate);
        }
        self.trade_engine(&mut nested);
        let finished = nested.finished.take().unwrap_or_default();
        let faulted = nested.faulted.take().unwrap_or_default();
        let site = if launch.is_cuda() { loc } else { self.api_call_loc(state, loc) };
        self.absorb(&mut nested, site);
        let pair = mode == Some(RaceMode::Pair);
        drop(nested);
        if mode.is_none() {
            return Err(self.unsupported(state, loc, "kernel argument whose size does not match its parameter".into()));
        }
        if pair {
            return Err(self.unsupported(state, loc, above_enumeration_limit(&launch)));
        }
        if faulted.len() > MAX_FAULTED_CONTINUATIONS {
            let line = self.cx.location(loc).line;
            self.cut_path(
                crate::exec::engine::executor::LimitHit::FaultedLaunchPaths,
                format!(
                    "more than {MAX_FAULTED_CONTINUATIONS} kernel paths of the launch at line {line} faulted: each fault is reported, but the \
                     host program was followed past the failed launch from the first {MAX_FAULTED_CONTINUATIONS} only"
                ),
            );
        }
        let mut results: Vec<(State, u32)> =
            finished.into_iter().map(|k| (k, KERNEL_RAN)).chain(faulted.into_iter().take(MAX_FAULTED_CONTINUATIONS)).collect();
        // The buffer flags restrict the kernel, not the host.
        for (k, _) in &mut results {
            crate::exec::opencl::host_access::unmark(&mut k.memory, &marks);
        }
        self.continue_host(state, results, &shifted, launch.host_files_at as i64, dest)
    }

    /// Swaps the expression pool, the decider and the shadow origins with
    /// `nested`: once before a nested kernel run, so that the kernel's
    /// values and the host's are one set of expressions decided by one
    /// solver, and once after, to take them back with the kernel's
    /// additions. A swap rather than a borrow because the executor owns
    /// its pool (every instruction's semantics reach it as `self.cx.pool`);
    /// between the two swaps the host holds the nested executor's fresh,
    /// unused pool and its `LentAway` decider, and is not run.
    pub(super) fn trade_engine(&mut self, nested: &mut Executor) {
        std::mem::swap(&mut self.cx.pool, &mut nested.cx.pool);
        std::mem::swap(&mut self.cx.decider, &mut nested.cx.decider);
        self.shadow.swap_origins(&mut nested.shadow);
    }

    /// Lays the kernel module out in the state's memory and sets up the
    /// NDRange; None if an argument cannot be passed.
    fn prepare_kernel(&mut self, state: &mut State, launch: &Launch, layout: Option<&DeviceLayout>) -> Option<RaceMode> {
        match layout {
            // A CUDA program's device globals live as long as the program.
            Some(l) => self.adopt_layout(l),
            None => self.lay_out_module(&mut state.memory),
        }
        let kf = self.cx.module.function(launch.kernel);
        let mut args = Vec::new();
        let mut local_objects = Vec::new();
        for (p, a) in kf.params.iter().zip(&launch.args) {
            let v = match (a, &p.ty) {
                (KernelArg::Local(n), Type::Ptr { .. }) => {
                    let name = format!("__local argument `{}`", p.name);
                    let obj = self.argument_buffer(&mut state.memory, *n, crate::ir::LOCAL_SPACE, name)?;
                    local_objects.push(obj);
                    smallvec::smallvec![self.cx.pool.constant(64, state.memory.object(obj).base as u128)]
                }
                (KernelArg::Bytes(b), Type::Ptr { .. }) if p.byval.is_some_and(|(size, _)| b.len() as u64 == size) => {
                    let align = p.byval.map_or(16, |(_, a)| a);
                    let name = format!("by-value argument `{}`", p.name);
                    let base = crate::exec::opencl::byval::byval_template(&mut state.memory, &mut self.cx.pool, b, align, name);
                    smallvec::smallvec![self.cx.pool.constant(64, base as u128)]
                }
                (KernelArg::Bytes(b), t) if b.len() as u64 >= t.size() && !matches!(t, Type::Struct { .. }) && p.byval.is_none() => {
                    crate::memory::layout::bytes_to_value(&mut self.cx.pool, t, &b[..t.size() as usize])
                }
                _ => return None,
            };
            args.push(v);
        }
        if let Some(bytes) = launch.dynamic_shared {
            self.place_dynamic_shared(&mut state.memory, bytes)?;
        }
        let nd = launch.ndrange;
        let mode = if nd.total() <= HOST_LAUNCH_ENUMERATE_UP_TO { RaceMode::Enumerate } else { RaceMode::Pair };
        // A host's kernel is followed group by group with concrete results,
        // so every group runs, and benign races are reported as races.
        let setup = NdRangeSetup { kernel: launch.kernel, ndrange: nd, mode, allow_benign: false, only_groups: None };
        self.install_ndrange(state, setup, args, local_objects);
        Some(mode)
    }

    /// Takes the nested run's findings (each once), counters and output.
    /// Performance warnings name the line of the `launch` (`<<<...>>>`,
    /// clEnqueueNDRangeKernel): the kernel's lines alone do not say which
    /// launch, with which sizes, they were measured under.
    fn absorb(&mut self, nested: &mut Executor, launch: Loc) {
        // What the kernel's open values stand for (texture reads, results
        // of functions declared without a body) holds on the host too:
        // they are fresh values of the one traded pool, so a host finding
        // resting on one says what it is and stays unconfirmed.
        self.declared_results.extend(nested.declared_results.drain());
        for mut f in std::mem::take(&mut nested.log.findings) {
            if f.kind.is_performance() {
                let at = launch;
                let site = self.cx.location(at);
                f.message.push_str(&format!(" (kernel launched at line {})", site.line));
                f.related.push(crate::report::Related { message: "kernel launched here".into(), location: site });
            }
            let dup = self.log.findings.iter().any(|g| g.kind == f.kind && g.location == f.location && g.message == f.message);
            if !dup {
                self.log.findings.push(f);
            }
        }
        self.log.stats.instructions += nested.log.stats.instructions;
        self.log.stats.forks += nested.log.stats.forks;
        self.log.stats.pruned += nested.log.stats.pruned;
        self.log.check_stats += &nested.log.check_stats;
        // A kernel's tolerance checks belong to the host's report too.
        self.log.tolerance.append(&mut nested.log.tolerance);
        self.log.output.append(&mut nested.log.output);
        if self.log.limit_hit.is_none() {
            self.log.limit_hit = nested.log.limit_hit;
        }
    }

    /// The host continues once per kernel path that came back (with the
    /// launch's result code in `dest`): `state` with the first, copies of
    /// it (handed to the searcher) with the others.
    fn continue_host(
        &mut self,
        state: &mut State,
        results: Vec<(State, u32)>,
        shifted: &[ObjectId],
        files_at: i64,
        dest: Option<RegId>,
    ) -> Result<u32, Step> {
        // How many kernel paths come back rests on the kernel run's models
        // too (shard.rs).
        self.freeze_route(state);
        let mut results = results.into_iter().map(|(mut k, code)| {
            shift_host_lines(&mut k.memory, -files_at, Some(shifted));
            (k, code)
        });
        let Some((first, first_code)) = results.next() else {
            // Every kernel path ended with a finding (or a limit).
            return Err(Step::Terminated);
        };
        for (k, code) in results {
            let mut s = state.clone();
            adopt(&mut s, k);
            s.id = self.fork_id();
            if let Some(d) = dest {
                if !s.frame().shadows.is_empty() {
                    self.set_shadow(&mut s, d, None);
                }
                let v = smallvec::smallvec![self.cx.pool.constant(32, code as u128)];
                self.set_reg(&mut s, d, v);
            }
            self.pending.push(s);
        }
        adopt(state, first);
        Ok(first_code)
    }
}

/// What a launch primitive returns for a kernel path that ran to its end.
pub(super) const KERNEL_RAN: u32 = 0;
/// The faulted kernel paths of one launch the host goes on from: each is
/// one input region where the launch fails; past this many the others end
/// at their finding (which is reported all the same), so the host's
/// error handling is followed for a few of them and the run stays small.
/// Going past it is the limit `faulted-launch-paths`, named in the report.
pub(super) const MAX_FAULTED_CONTINUATIONS: usize = 16;

/// The message of a launch above `HOST_LAUNCH_ENUMERATE_UP_TO`, in the
/// words of the launch's language.
fn above_enumeration_limit(launch: &Launch) -> String {
    let nd = launch.ndrange;
    if launch.is_cuda() {
        let dim = |v: [u64; 3]| format!("({},{},{})", v[0], v[1], v[2]);
        format!(
            "launch of {} threads (a grid of {} blocks of {} threads) is above the enumeration limit ({HOST_LAUNCH_ENUMERATE_UP_TO} threads): \
             checked with two symbolic threads for races and memory errors; the host program is not followed past it",
            nd.total(),
            dim(nd.groups),
            dim(nd.local)
        )
    } else {
        format!(
            "NDRange of {} work-items is above the enumeration limit ({HOST_LAUNCH_ENUMERATE_UP_TO}): checked with two symbolic \
             work-items for races and memory errors; the host program is not followed past it",
            nd.total()
        )
    }
}

fn adopt(host: &mut State, kernel: State) {
    host.memory = kernel.memory;
    host.path = kernel.path;
    host.implied = kernel.implied;
    host.abstracted |= kernel.abstracted;
    crate::exec::engine::state::InexactBytes::union(&mut host.inexact_unsized, &kernel.inexact_unsized);
    host.model = kernel.model;
    host.unconfirmed_path = kernel.unconfirmed_path;
    host.steps = kernel.steps;
    host.depth = kernel.depth;
    host.streams = kernel.streams;
}

/// Moves the file index of the release lines of freed objects by `delta`,
/// so that host locations read right in the kernel module's file table
/// (whose host part starts at `delta`), and back. Returns the objects moved.
fn shift_host_lines(memory: &mut Memory, delta: i64, only: Option<&[ObjectId]>) -> Vec<ObjectId> {
    let ids: Vec<ObjectId> = match only {
        Some(ids) => ids.to_vec(),
        None => memory.objects().filter(|(_, o)| o.freed && o.free_line.is_some()).map(|(id, _)| id).collect(),
    };
    for id in &ids {
        let o = memory.object_mut(*id);
        if let Some(l) = o.free_line.as_mut() {
            l.file = (l.file as i64 + delta).max(0) as u32;
        }
    }
    ids
}
