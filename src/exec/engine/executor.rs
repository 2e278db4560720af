//! The executor: owns the expression pool, the states waiting to run and
//! the findings, and drives exploration. Instruction semantics live in the
//! per-family files next to this one; this file holds the run loop,
//! forking and the reporting of findings.

use crate::check::{Decider, Feasibility};
use crate::config::Config;
use crate::exec::engine::device::DeviceState;
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::searcher::Searcher;
use crate::exec::engine::state::{Frame, State};
use crate::expr::value::Value;
use crate::expr::{Assignment, ExprId, ExprPool};
use crate::ir::{FuncId, GlobalId, Loc, Module, Reloc};
use crate::memory::{Memory, ObjectId, ObjectKind};
use crate::report::{DecidedBy, Finding, FindingKind, Location, Related, Status};
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;
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

/// Symbolic execution of one module. A driver (src/driver/) builds it
/// (`new`), makes the initial state (`entry_state` for a function called
/// as a program's entry, `standalone_kernel_state` for a kernel run
/// alone) and calls `run`, which returns the result. The fields are
/// the engine's own: what a driver needs of them is a method.
pub struct Executor<'m> {
    pub(in crate::exec) module: &'m Module,
    pub(in crate::exec) pool: ExprPool,
    pub(in crate::exec) config: Config,
    pub(in crate::exec) decider: Decider,
    pub(in crate::exec) findings: Vec<Finding>,
    pub(in crate::exec) stats: Stats,
    pub(in crate::exec) limit_hit: Option<LimitHit>,
    /// A limit that ended some paths but not the run (path_budget.rs), and
    /// what each cut was, for the report.
    pub(in crate::exec) path_limit: Option<LimitHit>,
    pub(in crate::exec) path_limit_notes: Vec<String>,
    /// Work-items found never to terminate (opencl/nontermination.rs), one
    /// line each, for the report's warnings.
    pub(in crate::exec) nontermination_notes: Vec<String>,
    /// Operations whose result OpenCL leaves undefined, taken as
    /// arbitrary (images.rs), one line each.
    pub(in crate::exec) undefined_value_notes: Vec<String>,
    /// Pair mode: the work-groups (flat indices) of each finding that the
    /// havoc left unconfirmed (havoc.rs).
    pub(in crate::exec) havoc_doubts: Vec<Vec<u64>>,
    /// The run ended at its first confirmed finding
    /// (`Config::stop_at_first_finding`).
    pub(in crate::exec) stopped_at_finding: bool,
    /// Addresses of globals and functions, fixed for the whole run.
    pub(in crate::exec) global_addr: Vec<u64>,
    pub(in crate::exec) function_addr: FxHashMap<u64, FuncId>,
    pub(in crate::exec) function_base: Vec<u64>,
    seen: FxHashSet<(FindingKind, Loc, String)>,
    next_state_id: u32,
    started: Instant,
    /// States created outside the normal forking (an access re-run against
    /// another object); the run loop hands them to the searcher.
    pub(in crate::exec) pending: Vec<State>,
    /// How many values of a symbolic size each call site has explored.
    pub(in crate::exec) size_values: FxHashMap<Loc, u32>,
    pub(in crate::exec) check_stats: crate::report::DecidedCounts,
    pub(in crate::exec) regions: FxHashMap<u32, crate::exec::engine::merge::Region>,
    pub(in crate::exec) next_region: u32,
    pub(in crate::exec) postdoms: FxHashMap<FuncId, Vec<Option<crate::ir::BlockId>>>,
    /// Output written by the program (printf, puts) on each path, kept for
    /// `symcross run` and the differential tests.
    pub(in crate::exec) output: Vec<u8>,
    /// Run-wide data of the models the engine runs with (the OpenCL
    /// programs built, lane-write tables), held for them (exec/models.rs).
    pub(in crate::exec) models: crate::exec::models::ModelData,
    /// When set, paths that finish normally are kept here instead of being
    /// dropped (a kernel run nested in a host program, opencl/launch.rs).
    pub(in crate::exec) finished: Option<Vec<State>>,
    /// What the run exercised (symbolic inputs, checks reached).
    pub(in crate::exec) coverage: crate::report::Coverage,
    /// Blocks that call `__assert_fail` or `abort` (coverage.rs).
    pub(in crate::exec) failure_blocks: FxHashSet<(FuncId, crate::ir::BlockId)>,
    /// Origins and caches of the uninitialised-bits analysis (shadow.rs).
    pub(in crate::exec) shadow: crate::exec::memory::shadow::ShadowCx,
    /// With `Config::shard`: a state not yet given to a shard rested on an
    /// `unknown` solver answer, so the shards may disagree on the split
    /// (shard.rs).
    pub(in crate::exec) shard_uncertain: bool,
}

impl<'m> Executor<'m> {
    /// An executor for `module` with no state yet: the driver makes the
    /// initial state and calls `run`.
    pub fn new(module: &'m Module, config: Config, decider: Decider) -> Self {
        Executor {
            module,
            pool: ExprPool::with_nan_model(config.nan),
            config,
            decider,
            findings: Vec::new(),
            stats: Stats::default(),
            limit_hit: None,
            path_limit: None,
            path_limit_notes: Vec::new(),
            nontermination_notes: Vec::new(),
            undefined_value_notes: Vec::new(),
            havoc_doubts: Vec::new(),
            stopped_at_finding: false,
            global_addr: Vec::new(),
            function_addr: FxHashMap::default(),
            function_base: Vec::new(),
            seen: FxHashSet::default(),
            next_state_id: 0,
            started: Instant::now(),
            pending: Vec::new(),
            size_values: FxHashMap::default(),
            check_stats: Default::default(),
            regions: FxHashMap::default(),
            next_region: 0,
            postdoms: FxHashMap::default(),
            output: Vec::new(),
            models: Default::default(),
            finished: None,
            coverage: crate::report::Coverage {
                program_has_checks: crate::exec::engine::coverage::has_checks(module),
                ..Default::default()
            },
            failure_blocks: crate::exec::engine::coverage::failure_blocks(module),
            shadow: crate::exec::memory::shadow::ShadowCx::new(module),
            shard_uncertain: false,
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
        let function = self.module.function(entry);
        let is_main = function.name == "main";
        let args: Vec<Value> = function
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let mut v = self.undef_value(&p.ty);
                if i == 0 && is_main {
                    if let crate::ir::Type::Int(w) = p.ty {
                        v[0] = self.pool.constant(w, 1);
                    }
                }
                v
            })
            .collect();
        self.initial_state(entry, args)
    }

    /// Places this module's functions and globals in `memory` (a fresh
    /// state's memory, or a host state's for a nested kernel run).
    pub(in crate::exec) fn lay_out_module(&mut self, memory: &mut Memory) {
        for f in &self.module.functions {
            let id = memory.allocate(&mut self.pool, 1, 16, ObjectKind::Function, f.name.clone());
            self.function_base.push(memory.object(id).base);
        }
        for (i, base) in self.function_base.iter().enumerate() {
            self.function_addr.insert(*base, FuncId(i as u32));
        }
        let mut ids = Vec::new();
        for g in &self.module.globals {
            let id = memory.allocate(&mut self.pool, g.size, g.align, ObjectKind::Global, g.name.clone());
            memory.object_mut(id).addr_space = g.addr_space;
            memory.object_mut(id).element = g.element;
            self.global_addr.push(memory.object(id).base);
            ids.push(id);
        }
        for (g, id) in self.module.globals.iter().zip(&ids) {
            self.init_global(memory, g, *id);
        }
    }

    /// A state with the globals laid out and an empty stack.
    pub(in crate::exec) fn memory_state(&mut self) -> State {
        let mut memory = Memory::new();
        self.lay_out_module(&mut memory);
        let state = State {
            id: 0,
            stack: Vec::new(),
            memory,
            path: Vec::new(),
            model: Some(Assignment::default()),
            unconfirmed_path: false,
            steps: 0,
            depth: 0,
            gpu: None,
            merge: Vec::new(),
            checked: false,
            route: Default::default(),
            implied: Default::default(),
            abstracted: false,
            inexact_unsized: None,
            forced_exit: None,
        };
        self.next_state_id = 1;
        state
    }

    pub(in crate::exec) fn init_global(&mut self, memory: &mut Memory, g: &crate::ir::Global, id: ObjectId) {
        let Some(init) = &g.init else {
            // External without initializer: contents unknown but defined.
            memory.object_mut(id).bytes.set_all_written(true);
            return;
        };
        let o = memory.object_mut(id);
        let n = (o.size as usize).min(init.len());
        // By page: all-zero pages (most of a large zero-initialised array)
        // stay blank, the others are stored as constants.
        for (k, chunk) in init[..n].chunks(crate::memory::object_bytes::PAGE_BYTES as usize).enumerate() {
            if chunk.iter().any(|b| *b != 0) {
                let bytes: Vec<Option<ExprId>> = chunk.iter().map(|b| Some(self.pool.constant(8, *b as u128))).collect();
                o.bytes.write(&mut self.pool, k as u64 * crate::memory::object_bytes::PAGE_BYTES, &bytes);
            }
        }
        o.bytes.set_all_written(true);
        o.read_only = g.constant;
        for (offset, reloc) in &g.relocs {
            let addr = match reloc {
                Reloc::Global { global, offset } => self.global_addr[global.0 as usize].wrapping_add(*offset as u64),
                Reloc::Function(f) => self.function_base[f.0 as usize],
            };
            let o = memory.object_mut(id);
            for k in 0..8 {
                let at = *offset + k;
                if at < (o.size).min(init.len() as u64) {
                    let b = self.pool.constant(8, ((addr >> (8 * k)) & 0xff) as u128);
                    o.bytes.set(&mut self.pool, at, b);
                }
            }
        }
    }

    pub(in crate::exec) fn global_address(&self, g: GlobalId) -> u64 {
        self.global_addr[g.0 as usize]
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
        let mut searcher = Searcher::new(self.config.searcher, self.config.seed);
        searcher.push(initial);
        crate::process::memory_ceiling::set_limit(self.config.max_memory_mb.unwrap_or_else(crate::config::physical_memory_mb));
        let mut last_progress = Instant::now();
        // Limits are also checked inside a long path (a loop that runs for
        // minutes is one path), every this many instructions; the clock
        // and the interrupt flag, which cost nothing to read, more often:
        // a kernel's instruction may build large expressions, and 65,536
        // of them can take longer than the user's --max-time.
        const CHECK_EVERY: u32 = 1 << 16;
        const CLOCK_EVERY: u32 = 1 << 10;
        let mut until_check = CHECK_EVERY;
        let mut findings_seen = 0;
        'paths: while let Some(mut state) = searcher.pop() {
            // Paths waiting: counted, so the stop is the same on any machine.
            let too_many_open = self.config.max_open_paths.is_some_and(|m| searcher.len() as u64 > m);
            if let Some(limit) = self.limit_reached().or(too_many_open.then_some(LimitHit::OpenPaths)) {
                self.limit_hit = Some(limit);
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
                        self.limit_hit = Some(limit);
                        self.stopped_unfinished(&mut state);
                        break 'paths;
                    }
                    // A long path reports progress too.
                    if full_check {
                        self.report_progress(&mut last_progress, searcher.len());
                        if self.path_over_budget(&state) {
                            tracing::debug!(state = state.id, "path ended: work-item step budget");
                            self.stats.paths += 1;
                            let mut push = |s: State| searcher.push(s);
                            for s in self.leave_regions(&state) {
                                self.settle(s, &mut push);
                            }
                            break;
                        }
                    }
                }
                let found_before = self.findings.len();
                let step = self.step(&mut state);
                if self.limit_hit.is_some() {
                    // The step hit a limit itself (an allocation past the
                    // memory limit). What it went on to find rests on
                    // bytes it could not build: dropped.
                    self.findings.truncate(found_before);
                    break 'paths;
                }
                if crate::process::memory_ceiling::tripped() {
                    // A solver query of this step was stopped at the
                    // memory limit: what the step decided may rest on it.
                    let mut k = 0;
                    self.findings.retain(|f| {
                        k += 1;
                        k <= found_before || f.status == Status::Confirmed
                    });
                    self.limit_hit = Some(LimitHit::Memory);
                    break 'paths;
                }
                if crate::process::interrupt::requested() {
                    // What this step decided may rest on a solver call cut
                    // short by the signal: its unconfirmed findings are
                    // artefacts of the interruption, and the path is
                    // dropped unfinished.
                    let mut k = 0;
                    self.findings.retain(|f| {
                        k += 1;
                        k <= found_before || f.status == Status::Confirmed
                    });
                    self.limit_hit = Some(LimitHit::Interrupted);
                    break 'paths;
                }
                if self.config.stop_at_first_finding && self.findings.len() != findings_seen {
                    findings_seen = self.findings.len();
                    if self.findings.iter().any(|f| f.status == Status::Confirmed) {
                        self.stopped_at_finding = true;
                        break 'paths;
                    }
                }
                if self.config.shard.is_some() {
                    self.note_uncertain(&state);
                }
                // States made by this step (a fork, or extra states such
                // as another value of a symbolic size): with shards, the
                // step is a decision, and a state may be another shard's.
                let mut forked = std::mem::take(&mut self.pending);
                let step = match step {
                    Step::Fork(others) => {
                        self.stats.forks += others.len() as u64;
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
                            self.stats.paths += 1;
                            if !state.checked {
                                self.coverage.paths_without_check += 1;
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
                            why = if self.findings.len() > found_before { "a finding" } else { "infeasible or cut" },
                            "path ended: terminated"
                        );
                        if self.owns_path(&state) {
                            self.stats.paths += 1;
                        }
                        for s in self.leave_regions(&state) {
                            self.settle(s, &mut push);
                        }
                        break;
                    }
                }
            }
        }
        if self.limit_hit.is_none() && !searcher.is_empty() {
            self.limit_hit = self.limit_reached();
        }
        if self.limit_hit.is_none() {
            self.limit_hit = self.path_limit;
        }
        // A solver query cut short by --max-time leaves its answer open even
        // when every path finished: the run was stopped by the limit.
        if self.limit_hit.is_none() && self.decider.backend.deadline_hit() {
            self.limit_hit = Some(LimitHit::Time);
        }
        if let Some(limit) = &self.limit_hit {
            tracing::info!(limit = limit.name(), paths = self.stats.paths, waiting = searcher.len(), "exploration stopped by a limit");
        }
    }

    /// With --progress, a line on stderr at most every two seconds.
    fn report_progress(&self, last: &mut Instant, waiting: usize) {
        if !self.config.progress || last.elapsed().as_secs() < 2 {
            return;
        }
        *last = Instant::now();
        eprintln!(
            "symcross: {} paths done, {} waiting, {} instructions, {} queries, {:.1}s",
            self.stats.paths,
            waiting,
            self.stats.instructions,
            self.decider.backend.queries(),
            self.started.elapsed().as_secs_f64()
        );
    }

    /// The limits that only need the clock and the interrupt flag.
    fn time_is_up(&self) -> Option<LimitHit> {
        if crate::process::interrupt::requested() {
            return Some(LimitHit::Interrupted);
        }
        if let Some(t) = self.config.max_time {
            if self.started.elapsed() >= t || self.decider.backend.deadline_hit() {
                return Some(LimitHit::Time);
            }
        }
        None
    }

    fn limit_reached(&self) -> Option<LimitHit> {
        if let Some(limit) = self.time_is_up() {
            return Some(limit);
        }
        if let Some(p) = self.config.max_paths {
            if self.stats.paths >= p {
                return Some(LimitHit::Paths);
            }
        }
        if self.config.max_instructions.is_some_and(|n| self.stats.instructions >= n) {
            return Some(LimitHit::Instructions);
        }
        if let Some(mb) = self.config.max_memory_mb {
            if crate::process::memory_ceiling::resident_mb() > mb {
                return Some(LimitHit::Memory);
            }
        }
        None
    }

    /// Admits an object of `bytes` bytes before it is allocated: when it
    /// cannot fit in the memory limit (the configured one, else the
    /// machine's memory) the run stops with the memory limit, so a huge
    /// `malloc` is a report, never a failed host allocation. Its bytes
    /// cost nothing until written (object_bytes.rs): what is admitted is
    /// its page table.
    pub fn admit_allocation(&mut self, bytes: u64) -> Result<(), Step> {
        if bytes > MAX_OBJECT_BYTES {
            self.limit_hit = Some(LimitHit::Memory);
            return Err(Step::Terminated);
        }
        self.admit_host_memory(crate::memory::object_bytes::page_table_bytes(bytes))
    }

    /// Admits an operation that lists `bytes` bytes of an object one by one
    /// (a memcpy between unaligned or partly indeterminate ranges, a memset
    /// at a symbolic address): the temporary list and the pages written.
    pub fn admit_transient(&mut self, bytes: u64) -> Result<(), Step> {
        self.admit_host_memory(bytes.saturating_mul(COST_PER_TRANSIENT_BYTE))
    }

    /// Admits `n` new expressions (fresh bytes, selects).
    pub fn admit_expressions(&mut self, n: u64) -> Result<(), Step> {
        self.admit_host_memory(n.saturating_mul(COST_PER_EXPRESSION))
    }

    /// Admits an access of `len` bytes at a symbolic offset that can take
    /// `positions` values in an object of `size` bytes: its bytes are
    /// listed, and each byte read or written is a select over those
    /// positions, about two expressions per position (`shadowed`: their
    /// indeterminate bits as well).
    pub fn admit_symbolic_access(&mut self, size: u64, positions: u64, len: u64, shadowed: bool) -> Result<(), Step> {
        let listed = size.saturating_mul(COST_PER_TRANSIENT_BYTE);
        let selects = positions.saturating_mul(len + 1).saturating_mul(if shadowed { 4 } else { 2 });
        self.admit_host_memory(listed.saturating_add(selects.saturating_mul(COST_PER_EXPRESSION)))
    }

    /// Admits work expected to take `host_bytes` bytes of the host's memory.
    /// When the resident set plus that would pass the memory limit (the
    /// configured one, else the machine's memory), the run stops with the
    /// memory limit. Under 16 MiB is always admitted.
    pub fn admit_host_memory(&mut self, host_bytes: u64) -> Result<(), Step> {
        let need_mb = host_bytes >> 20;
        // Small amounts are always admitted: reading the resident set
        // costs more than they do, and the run loop watches it anyway.
        if need_mb < 16 {
            return Ok(());
        }
        let limit = self.config.max_memory_mb.unwrap_or_else(crate::config::physical_memory_mb);
        if crate::process::memory_ceiling::resident_mb().saturating_add(need_mb) > limit {
            self.limit_hit = Some(LimitHit::Memory);
            return Err(Step::Terminated);
        }
        Ok(())
    }

    /// Seconds since the executor was made: the run's time in the report.
    pub fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Calls `func`: pushes a frame with its parameters bound to `args`. Its
    /// result goes to `ret_dest` in the caller; `call_loc` is the call site.
    pub fn push_frame(&mut self, state: &mut State, func: FuncId, args: Vec<Value>, ret_dest: Option<crate::ir::RegId>, call_loc: Loc) {
        let frame = self.new_frame(func, args, ret_dest, call_loc);
        state.stack.push(frame);
    }

    /// A frame at the entry of `func` with its parameters bound to `args`.
    pub fn new_frame(&self, func: FuncId, args: Vec<Value>, ret_dest: Option<crate::ir::RegId>, call_loc: Loc) -> Frame {
        let f = self.module.function(func);
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
    pub fn fork_id(&mut self) -> u32 {
        let id = self.next_state_id;
        self.next_state_id += 1;
        id
    }

    /// Splits `state` on `cond`: returns whether the true side and the false
    /// side are feasible, updating models. The caller continues `state` on
    /// one side and gets a clone for the other.
    pub fn branch(&mut self, state: &mut State, cond: ExprId) -> (Option<State>, Option<State>) {
        if let Some(v) = self.pool.as_const(cond) {
            return if v != 0 { (Some(state.clone()), None) } else { (None, Some(state.clone())) };
        }
        if let Some(truth) = self.decided_by_path(state, cond) {
            let mut n = state.clone();
            n.depth += 1;
            return if truth { (Some(n), None) } else { (None, Some(n)) };
        }
        let not_cond = self.pool.not(cond);
        let witnessed = self.model_value(state, cond);
        let mut sides: [Option<(Option<Assignment>, bool)>; 2] = [None, None];
        for (i, (c, truth)) in [(cond, true), (not_cond, false)].into_iter().enumerate() {
            if witnessed == Some(truth) {
                sides[i] = Some((state.model.clone(), false));
                continue;
            }
            if witnessed.is_some() {
                if let Some(m) = self.probe(state, c) {
                    sides[i] = Some((Some(m), false));
                    continue;
                }
            }
            match self.decider.feasible(&self.pool, &state.path, c) {
                Feasibility::Sat(m) => sides[i] = Some((Some(m), false)),
                Feasibility::Unsat => {}
                Feasibility::Unknown(_) => sides[i] = Some((None, true)),
            }
        }
        let [t, f] = sides;
        // When the other side is infeasible the path already implies the
        // condition: pushing it again would only grow the path (a loop
        // re-deciding an implied branch would make every later query slower).
        let implied = t.is_none() || f.is_none();
        // Only a side the solver (or a constant) ruled out makes the other
        // one implied: an undecided side was kept as feasible.
        if implied && (t.is_some() || f.is_some()) {
            state.implied.insert(&state.path, cond, t.is_some());
        }
        let make = |s: &State, c: ExprId, (model, unknown): (Option<Assignment>, bool)| {
            let mut n = s.clone();
            if !implied {
                n.path.push(c);
            }
            n.model = model;
            n.unconfirmed_path |= unknown;
            n.depth += 1;
            n
        };
        let ts = t.map(|side| make(state, cond, side));
        let fs = f.map(|side| make(state, not_cond, side));
        (ts, fs)
    }

    /// The value the path gives `cond` without a solver: remembered as
    /// implied, or asserted outright by a constraint (implied.rs).
    pub(in crate::exec) fn decided_by_path(&self, state: &mut State, cond: ExprId) -> Option<bool> {
        if let Some(truth) = state.implied.get(&state.path, cond) {
            return Some(truth);
        }
        let truth = crate::exec::engine::implied::asserted(&self.pool, &state.path, cond)?;
        state.implied.insert(&state.path, cond, truth);
        Some(truth)
    }

    /// Adds `cond` to the path. Returns false (and counts a pruned path)
    /// when the path becomes infeasible.
    pub fn assume(&mut self, state: &mut State, cond: ExprId) -> bool {
        if let Some(v) = self.pool.as_const(cond) {
            if v == 0 {
                self.stats.pruned += 1;
            }
            return v != 0;
        }
        if self.model_value(state, cond) == Some(true) {
            state.path.push(cond);
            return true;
        }
        if let Some(m) = self.probe(state, cond) {
            state.model = Some(m);
            state.path.push(cond);
            return true;
        }
        match self.decider.feasible(&self.pool, &state.path, cond) {
            Feasibility::Sat(m) => {
                state.model = Some(m);
                state.path.push(cond);
                true
            }
            Feasibility::Unsat => {
                self.stats.pruned += 1;
                false
            }
            Feasibility::Unknown(_) => {
                state.model = None;
                state.unconfirmed_path = true;
                state.path.push(cond);
                true
            }
        }
    }

    /// Looks for a model of `path /\ cond` without a solver: the state's
    /// model with the bytes `cond` reads set to a few telling patterns
    /// (zero, small positive and negative, huge, NaN for floats, -1 for
    /// integers). Only used where evaluation has the solver's semantics.
    fn probe(&self, state: &State, cond: ExprId) -> Option<Assignment> {
        const PATTERNS: [u8; 6] = [0x00, 0x3f, 0xbf, 0x7f, 0x80, 0xff];
        let base = state.model.as_ref()?;
        let mut leaves = rustc_hash::FxHashSet::default();
        self.pool.leaves_of(cond, &mut leaves);
        let mut inputs = Vec::with_capacity(leaves.len());
        let mut fresh = Vec::new();
        for leaf in leaves {
            match leaf {
                crate::expr::Leaf::Input { array, index } => inputs.push((array, index)),
                // A fresh value (an approximate operation's result,
                // havocked memory) takes the pattern in every byte, as an
                // input would: the model is checked below like any other.
                crate::expr::Leaf::Fresh { id, width } => fresh.push((id, width)),
            }
        }
        for pattern in PATTERNS {
            let mut m = base.clone();
            for &(id, width) in &fresh {
                m.fresh.insert(id, u128::from_le_bytes([pattern; 16]) & crate::expr::mask(width));
            }
            for (array, index) in &inputs {
                let size = self.pool.arrays()[*array as usize].size as usize;
                let bytes = m.arrays.entry(*array).or_insert_with(|| vec![0; size]);
                if bytes.len() < size {
                    bytes.resize(size, 0);
                }
                bytes[*index as usize] = pattern;
            }
            let holds = |e: ExprId| crate::expr::evaluate(&self.pool, e, &m) != 0;
            if holds(cond) && state.path.iter().all(|c| holds(*c)) {
                return Some(m);
            }
        }
        None
    }

    /// The value of `cond` under the state's model, when that model's
    /// semantics are the solver's: FP assumptions change the meaning of FP
    /// operations (e.g. zero results are +0), so FP conditions are then left
    /// to the solver.
    fn model_value(&self, state: &State, cond: ExprId) -> Option<bool> {
        let m = state.model.as_ref()?;
        if self.config.assumptions.any() && self.pool.mentions_fp(cond) {
            return None;
        }
        Some(crate::expr::evaluate(&self.pool, cond, m) != 0)
    }

    /// The source location `loc` as a report names it: file, line, column.
    pub fn location(&self, loc: Loc) -> Location {
        Location { file: self.module.file_name(loc).to_string(), line: loc.line, column: loc.column }
    }

    /// Hex bytes per input name.
    pub fn witness(&self, model: &Assignment) -> BTreeMap<String, String> {
        let mut w = BTreeMap::new();
        for (i, a) in self.pool.arrays().iter().enumerate() {
            let bytes = model.arrays.get(&(i as u32));
            let hex: String = (0..a.size as usize).map(|k| format!("{:02x}", bytes.and_then(|b| b.get(k)).copied().unwrap_or(0))).collect();
            w.insert(a.name.clone(), hex);
        }
        w
    }

    /// The witness decoded by type, for the inputs whose type is known.
    pub fn witness_values(&self, model: &Assignment) -> BTreeMap<String, crate::report::DecodedInput> {
        let mut out = BTreeMap::new();
        for (i, a) in self.pool.arrays().iter().enumerate() {
            let Some(t) = a.element else { continue };
            let bytes = model.arrays.get(&(i as u32));
            let n = (a.size / t.size()) as usize;
            // Huge inputs stay hex only: a million decoded strings help no one.
            if n > MAX_DECODED_ELEMENTS {
                continue;
            }
            let elements = (0..n)
                .map(|k| {
                    let raw: Vec<u8> = (0..t.size() as usize)
                        .map(|b| bytes.and_then(|v| v.get(k * t.size() as usize + b)).copied().unwrap_or(0))
                        .collect();
                    t.show(&raw)
                })
                .collect();
            let type_name = if n == 1 { t.name() } else { format!("{}[{n}]", t.name()) };
            out.insert(a.name.clone(), crate::report::DecodedInput { type_name, elements });
        }
        out
    }

    /// Records a finding at `loc` unless the same one was already reported.
    /// The witness, if any, decides the status.
    #[allow(clippy::too_many_arguments)]
    pub fn report(
        &mut self,
        state: &State,
        kind: FindingKind,
        loc: Loc,
        message: String,
        witness: Option<&Assignment>,
        decided_by: Option<DecidedBy>,
    ) -> Option<&mut Finding> {
        let key = (kind, loc, if kind == FindingKind::Unsupported { message.clone() } else { String::new() });
        if !self.seen.insert(key) {
            return None;
        }
        let witness = witness.or(if state.unconfirmed_path { None } else { state.model.as_ref() });
        let mut message = message;
        let mut status = if witness.is_some() { Status::Confirmed } else { Status::Unconfirmed };
        if state.abstracted && kind != FindingKind::Unsupported {
            status = Status::Unconfirmed;
            message.push_str(
                "; not confirmed: the path went through a loop summarised after --loop-bound unrollings, or at its first floating-point \
                 test in a kernel (its variables were given arbitrary values)",
            );
        }
        // Races and barrier divergences are judged by their own condition
        // too (`inexact_note`); any other finding's condition is not known
        // here, so any over-approximated byte on the path unconfirms it.
        let judged_by_condition = matches!(kind, FindingKind::Race | FindingKind::BarrierDivergence);
        if let Some(inexact) = state.inexact_unsized.as_ref().filter(|_| kind != FindingKind::Unsupported) {
            if !judged_by_condition || inexact.mentioned_in(&self.pool, state.path.iter().copied()) {
                status = Status::Unconfirmed;
                message.push_str(&Self::inexact_unsized_note(&inexact.buffer));
            }
        }
        if let Some(why) = witness.and_then(|w| self.decider.path_unconfirmed_because(&self.pool, &state.path, w)) {
            status = Status::Unconfirmed;
            message.push_str(&format!("; not confirmed: {why}"));
        }
        // Races and barrier divergence weigh the device's over-approximation
        // against their own condition (they hold it apart from the path).
        let judged_by_device = !matches!(kind, FindingKind::Unsupported | FindingKind::Race | FindingKind::BarrierDivergence);
        if let Some(why) = state.gpu.as_ref().filter(|_| judged_by_device).and_then(|d| d.unconfirmable_because(&self.pool, &state.path)) {
            if status == Status::Confirmed {
                status = Status::Unconfirmed;
                message.push_str(&format!("; not confirmed: {why}"));
            }
        }
        tracing::debug!(kind = kind.name(), ?status, line = loc.line, "finding: {message}");
        let related = state
            .stack
            .iter()
            .rev()
            .skip(1)
            .zip(state.stack.iter().rev())
            .map(|(caller, callee)| Related {
                message: format!("called from {}", self.module.function(caller.func).name),
                location: self.location(callee.call_loc),
            })
            .collect();
        self.findings.push(Finding {
            kind,
            status,
            message,
            location: self.location(loc),
            witness: witness.map(|w| self.witness(w)),
            witness_values: witness.map(|w| self.witness_values(w)).filter(|v| !v.is_empty()),
            expressions: None,
            decided_by,
            related,
        });
        self.findings.last_mut()
    }

    /// Stops the path with an `unsupported` finding naming the construct
    /// and the function it is in (the location gives the source line). The
    /// path ends here: nothing after the construct can be trusted.
    pub fn unsupported(&mut self, state: &State, loc: Loc, what: String) -> Step {
        let message = match state.stack.last() {
            Some(frame) => format!("{what}, in function `{}`", self.module.function(frame.func).name),
            None => what,
        };
        self.report(state, FindingKind::Unsupported, loc, message, None, None);
        Step::Terminated
    }
}

/// What listing a byte costs: its expression in the list (8) and in the
/// page written (8), rounded up.
const COST_PER_TRANSIENT_BYTE: u64 = 16;
/// What one expression costs in the pool: its node, width and hash entry.
const COST_PER_EXPRESSION: u64 = 96;
/// The largest object: bases and sizes stay far from 2^64.
pub const MAX_OBJECT_BYTES: u64 = 1 << 40;

/// Witness inputs with more elements than this are not decoded (the hex
/// bytes stay in the report).
const MAX_DECODED_ELEMENTS: usize = 4096;
