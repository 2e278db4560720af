//! The executor: the run context (run_context.rs) and the run log
//! (run_log.rs), the addresses of the module's globals and functions, and
//! the run loop that explores states. Instruction semantics live in the
//! per-family files next to this one; the initial state is
//! initial_state.rs, forking branching.rs, the run's limits limits.rs and
//! the reporting of findings findings.rs.

use crate::check::Decider;
use crate::config::Config;
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::run_context::RunContext;
use crate::exec::engine::run_log::RunLog;
use crate::exec::engine::searcher::Searcher;
use crate::exec::engine::state::{Frame, State};
use crate::expr::value::Value;
use crate::expr::ExprPool;
use crate::ir::{FuncId, Loc, Module};
use crate::report::Status;
use rustc_hash::{FxHashMap, FxHashSet};
use std::time::Instant;

/// What executing one instruction did to the state.
pub enum Step {
    /// The state goes on with its next instruction.
    Continue,
    /// The state split; the other states are to be explored later.
    Fork(Vec<State>),
    /// The path ended normally.
    Finished,
    /// The path ended with a finding or an infeasible assumption.
    Terminated,
}

pub use crate::exec::engine::run_log::LimitHit;

/// Symbolic execution of one module. A driver (src/driver/) builds it
/// (`new`), makes the initial state (`entry_state` for a function called
/// as a program's entry, `standalone_kernel_state` for a kernel run
/// alone) and calls `run`, which returns the result. The fields are
/// the engine's own: what a driver needs of them is a method.
pub struct Executor<'m> {
    /// What every part of the run reads and builds with: the module, the
    /// expression pool, the configuration and the decision ladder.
    pub(in crate::exec) cx: RunContext<'m>,
    /// What the run found and counted, handed to the driver at the end
    /// (`finish`, outcome.rs).
    pub(in crate::exec) log: RunLog,
    /// Addresses of globals and functions, fixed for the whole run.
    pub(in crate::exec) global_addr: Vec<u64>,
    pub(in crate::exec) function_addr: FxHashMap<u64, FuncId>,
    pub(in crate::exec) function_base: Vec<u64>,
    /// Fresh values standing for the result of a function declared without
    /// a body (by fresh number, with the function's source name): a
    /// finding that depends on one is not confirmed.
    pub(in crate::exec) declared_results: FxHashMap<u32, String>,
    pub(in crate::exec) next_state_id: u32,
    pub(in crate::exec) started: Instant,
    /// States created outside the normal forking (an access re-run against
    /// another object); the run loop hands them to the searcher.
    pub(in crate::exec) pending: Vec<State>,
    /// How many values of a symbolic size each call site has explored.
    pub(in crate::exec) size_values: FxHashMap<Loc, u32>,
    pub(in crate::exec) regions: FxHashMap<u32, crate::exec::engine::merge::Region>,
    pub(in crate::exec) next_region: u32,
    pub(in crate::exec) postdoms: FxHashMap<FuncId, Vec<Option<crate::ir::BlockId>>>,
    /// Run-wide data of the models the engine runs with (the OpenCL
    /// programs built, lane-write tables), held for them (exec/models.rs).
    pub(in crate::exec) models: crate::exec::models::ModelData,
    /// When set, paths that finish normally are kept here instead of being
    /// dropped (a kernel run nested in a host program, opencl/launch.rs).
    pub(in crate::exec) finished: Option<Vec<State>>,
    /// When set, a kernel path ended by a fault (an out-of-bounds or
    /// misaligned access, a use after free, a failed `assert`, `__trap`)
    /// is kept here as it stood at the fault, with the code the launch
    /// primitive returns for it: a CUDA host program goes on from it with
    /// the launch failed (opencl/cuda_runtime.rs).
    pub(in crate::exec) faulted: Option<Vec<(State, u32)>>,
    /// Blocks that call `__assert_fail` or `abort` (coverage.rs).
    pub(in crate::exec) failure_blocks: FxHashSet<(FuncId, crate::ir::BlockId)>,
    /// Origins and caches of the uninitialised-bits analysis (shadow.rs).
    pub(in crate::exec) shadow: crate::memory::shadow::ShadowCx,
    /// The ladder step that ruled out one side of the last symbolic branch
    /// (branching.rs): when that side was a failure, a check was proved.
    pub(in crate::exec) ruled_out_by: Option<crate::report::DecidedBy>,
    /// The pre-decoded functions of the fast tier for concrete code
    /// (fast_concrete/).
    pub(in crate::exec) fast: crate::exec::engine::fast_concrete::FastCode,
    /// The routes of calls to functions symcross implements, by callee
    /// name (calls.rs).
    pub(in crate::exec) call_routes: FxHashMap<crate::exec::engine::calls::RouteKey, crate::exec::engine::calls::CallRoute<'m>>,
    /// Whether a device call of each function is one the models answer
    /// from the work-item's ids alone (`ModelHooks::id_call`), asked once
    /// per declared function (by its name in the module, as `call_routes`)
    /// by the fast tier (fast_concrete/work_item_ids.rs).
    pub(in crate::exec) id_calls: FxHashMap<(usize, usize), Option<crate::exec::engine::model_hooks::IdCall>>,
    /// The registers of kernel work-items' bottom frames that returned,
    /// emptied, for the entry frames of later work-items (the device
    /// model's work-item switch): an enumerated NDRange would otherwise
    /// allocate and free one register vector per work-item.
    pub(in crate::exec) spare_entry_regs: Vec<Vec<Option<crate::expr::value::Value>>>,
}

impl<'m> Executor<'m> {
    /// An executor for `module` with no state yet: the driver makes the
    /// initial state and calls `run`.
    pub fn new(module: &'m Module, config: Config, decider: Decider) -> Self {
        let coverage =
            crate::report::Coverage { program_has_checks: crate::exec::engine::coverage::has_checks(module), ..Default::default() };
        Executor {
            cx: RunContext { module, pool: ExprPool::with_nan_model(config.nan), config, decider },
            log: RunLog::new(coverage),
            global_addr: Vec::new(),
            function_addr: FxHashMap::default(),
            function_base: Vec::new(),
            declared_results: FxHashMap::default(),
            next_state_id: 0,
            started: Instant::now(),
            pending: Vec::new(),
            size_values: FxHashMap::default(),
            regions: FxHashMap::default(),
            next_region: 0,
            postdoms: FxHashMap::default(),
            models: Default::default(),
            finished: None,
            faulted: None,
            failure_blocks: crate::exec::engine::coverage::failure_blocks(module),
            shadow: crate::memory::shadow::ShadowCx::new(module),
            ruled_out_by: None,
            fast: crate::exec::engine::fast_concrete::FastCode::new(),
            call_routes: FxHashMap::default(),
            id_calls: FxHashMap::default(),
            spare_entry_regs: Vec::new(),
        }
    }

    /// Builds the initial state: globals laid out, `entry` called with `args`.
    pub(in crate::exec) fn initial_state(&mut self, entry: FuncId, args: Vec<Value>) -> State {
        let mut state = self.memory_state();
        self.push_frame(&mut state, entry, args, None, Loc::default());
        state
    }

    /// The initial state of a run from `entry` as a program's entry: for
    /// `main(argc, argv)`, argc = 1 and argv all null bytes; every other
    /// parameter (of `main` or another entry) zero.
    pub fn entry_state(&mut self, entry: FuncId) -> State {
        let function = self.cx.module.function(entry);
        let is_main = function.name == "main";
        let args: Vec<Value> = function
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut v = self.undef_value(&p.ty);
                if i == 0 && is_main {
                    if let crate::ir::Type::Int(w) = p.ty {
                        v[0] = self.cx.pool.constant(w, 1);
                    }
                }
                v
            })
            .collect();
        self.initial_state(entry, args)
    }

    /// Runs from `initial` until no state is left or a limit is hit, and
    /// returns the outcome. Call it once: the findings and output are
    /// moved into the outcome.
    pub fn run(&mut self, initial: State) -> crate::exec::RunOutcome {
        self.explore(initial);
        self.finish()
    }

    /// Runs states until none is left or a limit is hit; the results stay
    /// in the executor (a nested kernel run's are absorbed by its host,
    /// launch.rs).
    pub(in crate::exec) fn explore(&mut self, initial: State) {
        let mut searcher = Searcher::new(self.cx.config.searcher, self.cx.config.seed);
        searcher.push(initial);
        let mut last_progress = Instant::now();
        // Limits are also checked inside a long path (a loop that runs for
        // minutes is one path), every this many instructions; the clock
        // and the interrupt flag, which cost nothing to read, more often:
        // a kernel's instruction may build large expressions, and 65,536
        // of them can take longer than the user's --max-time.
        const CHECK_EVERY: u32 = 1 << 16;
        const CLOCK_EVERY: u32 = 1 << 10;
        let mut until_check = CHECK_EVERY;
        let mut findings_seen = (0, 0);
        'paths: while let Some(mut state) = searcher.pop() {
            // Paths waiting: counted, so the stop is the same on any machine.
            let too_many_open = self.cx.config.max_open_paths.is_some_and(|m| searcher.len() as u64 > m);
            if let Some(limit) = self.limit_reached().or(too_many_open.then_some(LimitHit::OpenPaths)) {
                self.log.limit_hit = Some(limit);
                self.stopped_unfinished(&mut state);
                break;
            }
            self.report_progress(&mut last_progress, searcher.len());
            loop {
                until_check -= 1;
                if until_check.is_multiple_of(CLOCK_EVERY) {
                    let full_check = until_check == 0;
                    if full_check {
                        until_check = CHECK_EVERY;
                    }
                    let limit = if full_check { self.limit_reached() } else { self.time_is_up() };
                    if let Some(limit) = limit {
                        // The unfinished path is dropped; the report says
                        // which limit stopped the run. A kernel's accesses
                        // so far are still checked for races.
                        self.log.limit_hit = Some(limit);
                        self.stopped_unfinished(&mut state);
                        break 'paths;
                    }
                    // A long path reports progress too.
                    if full_check {
                        self.report_progress(&mut last_progress, searcher.len());
                        if self.path_over_budget(&state) {
                            tracing::debug!(state = state.id, "path ended: work-item step budget");
                            self.log.stats.paths += 1;
                            let mut push = |s: State| searcher.push(s);
                            for s in self.leave_regions(&state) {
                                self.settle(s, &mut push);
                            }
                            break;
                        }
                    }
                }
                let found_before = self.log.findings.len();
                // A stretch of concrete instructions runs in this one turn
                // (fast_concrete/), each counted here as a turn of its own,
                // so the checks above come at the same instructions: it
                // ends before the next one.
                let until_clock = match until_check % CLOCK_EVERY {
                    0 => CLOCK_EVERY,
                    r => r,
                };
                let stretch = self.concrete_stretch(&mut state, until_clock);
                let step = if stretch > 0 {
                    until_check -= stretch - 1;
                    Step::Continue
                } else {
                    self.step(&mut state)
                };
                if self.log.limit_hit.is_some() {
                    // The step hit a limit itself (an allocation past the
                    // memory limit). What it went on to find rests on
                    // bytes it could not build: dropped.
                    self.log.findings.truncate(found_before);
                    break 'paths;
                }
                if self.cx.decider.memory_ceiling.tripped() {
                    // A solver query of this step was stopped at the
                    // memory limit: what the step decided may rest on it.
                    let mut k = 0;
                    self.log.findings.retain(|f| {
                        k += 1;
                        k <= found_before || f.status == Status::Confirmed
                    });
                    self.log.limit_hit = Some(LimitHit::Memory);
                    break 'paths;
                }
                if crate::process::interrupt::requested() {
                    // What this step decided may rest on a solver call cut
                    // short by the signal: its unconfirmed findings are
                    // artefacts of the interruption, and the path is
                    // dropped unfinished.
                    let mut k = 0;
                    self.log.findings.retain(|f| {
                        k += 1;
                        k <= found_before || f.status == Status::Confirmed
                    });
                    self.log.limit_hit = Some(LimitHit::Interrupted);
                    break 'paths;
                }
                self.log.settle_upgrade();
                if self.cx.config.stop_at_first_finding && (self.log.findings.len(), self.log.upgrades) != findings_seen {
                    findings_seen = (self.log.findings.len(), self.log.upgrades);
                    if self.log.findings.iter().any(|f| f.status == Status::Confirmed && !f.kind.is_performance()) {
                        self.log.stopped_at_finding = true;
                        break 'paths;
                    }
                }
                if self.cx.config.shard.is_some() {
                    self.note_uncertain(&state);
                }
                // States made by this step (a fork, or extra states such
                // as another value of a symbolic size): with shards, the
                // step is a decision, and a state may be another shard's.
                let mut forked = std::mem::take(&mut self.pending);
                let step = match step {
                    Step::Fork(others) => {
                        self.log.stats.forks += others.len() as u64;
                        forked.extend(others);
                        Step::Fork(Vec::new())
                    }
                    other => other,
                };
                let keep = self.route_step(&mut state, &mut forked);
                // States go to the searcher through `settle`, which lets
                // those standing at their region's join arrive there.
                let mut push = |s: State| searcher.push(s);
                for p in forked {
                    self.count_new_state(&p);
                    self.settle(p, &mut push);
                }
                if !keep {
                    continue 'paths;
                }
                match step {
                    Step::Continue => {
                        if self.in_stale_region(&state) {
                            for s in self.leave_stale_regions(&mut state) {
                                self.settle(s, &mut push);
                            }
                        }
                        if self.at_join(&state) {
                            self.settle(state, &mut push);
                            break;
                        }
                    }
                    Step::Fork(_) => {
                        self.settle(state, &mut push);
                        break;
                    }
                    Step::Finished => {
                        tracing::trace!(state = state.id, depth = state.depth, path_constraints = state.path.len(), "path ended: returned");
                        if self.owns_path(&state) {
                            self.log.stats.paths += 1;
                            if !state.checked {
                                self.log.coverage.paths_without_check += 1;
                            }
                        }
                        for s in self.leave_regions(&state) {
                            self.settle(s, &mut push);
                        }
                        if let Some(done) = self.finished.as_mut() {
                            done.push(state);
                        }
                        break;
                    }
                    Step::Terminated => {
                        tracing::trace!(
                            state = state.id,
                            depth = state.depth,
                            why = if self.log.findings.len() > found_before { "a finding" } else { "infeasible or cut" },
                            "path ended: terminated"
                        );
                        if self.owns_path(&state) {
                            self.log.stats.paths += 1;
                        }
                        for s in self.leave_regions(&state) {
                            self.settle(s, &mut push);
                        }
                        break;
                    }
                }
            }
        }
        if self.log.limit_hit.is_none() && !searcher.is_empty() {
            self.log.limit_hit = self.limit_reached();
        }
        if self.log.limit_hit.is_none() {
            self.log.limit_hit = self.log.path_limit;
        }
        // A solver query cut short by --max-time leaves its answer open even
        // when every path finished: the run was stopped by the limit.
        if self.log.limit_hit.is_none() && self.cx.decider.backend.deadline_hit() {
            self.log.limit_hit = Some(LimitHit::Time);
        }
        if let Some(limit) = &self.log.limit_hit {
            tracing::info!(limit = limit.name(), paths = self.log.stats.paths, waiting = searcher.len(), "exploration stopped by a limit");
        }
    }

    /// With --progress, a line on stderr at most every two seconds.
    fn report_progress(&self, last: &mut Instant, waiting: usize) {
        if !self.cx.config.progress || last.elapsed().as_secs() < 2 {
            return;
        }
        *last = Instant::now();
        eprintln!(
            "symcross: {} paths done, {} waiting, {} instructions, {} queries, {:.1}s",
            self.log.stats.paths,
            waiting,
            self.log.stats.instructions,
            self.cx.decider.backend.queries(),
            self.started.elapsed().as_secs_f64()
        );
    }

    /// Seconds since the executor was made: the run's time in the report.
    pub(in crate::exec) fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Calls `func`: pushes a frame with its parameters bound to `args`. Its
    /// result goes to `ret_dest` in the caller; `call_loc` is the call site.
    pub(in crate::exec) fn push_frame(
        &mut self,
        state: &mut State,
        func: FuncId,
        args: Vec<Value>,
        ret_dest: Option<crate::ir::RegId>,
        call_loc: Loc,
    ) {
        let frame = self.new_frame(func, args, ret_dest, call_loc);
        state.stack.push(frame);
    }

    /// A frame at the entry of `func` with its parameters bound to `args`.
    pub(in crate::exec) fn new_frame(&self, func: FuncId, args: Vec<Value>, ret_dest: Option<crate::ir::RegId>, call_loc: Loc) -> Frame {
        let f = self.cx.module.function(func);
        let mut regs: Vec<Option<Value>> = vec![None; f.num_regs as usize];
        for (p, a) in f.params.iter().zip(args) {
            regs[p.reg.0 as usize] = Some(a);
        }
        Frame {
            func,
            block: crate::ir::BlockId(0),
            prev_block: None,
            pc: 0,
            regs,
            allocas: Vec::new(),
            ret_dest,
            call_loc,
            varargs: None,
            shadows: Default::default(),
            shadow_on: self.shadow.mentions_undef(func),
        }
    }

    /// A fresh state id, for a state made by a fork.
    pub(in crate::exec) fn fork_id(&mut self) -> u32 {
        let id = self.next_state_id;
        self.next_state_id += 1;
        id
    }
}
