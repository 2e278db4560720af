//! Leaving a loop of CUDA device code that has no effect a check could
//! see: no memory access, no barrier or warp function, no arithmetic that
//! can be undefined, only calls to the thread-id functions and to
//! `__device__` functions declared without a body that take no pointer
//! (cuda_declared_functions.rs: such a call only returns an arbitrary
//! value). `while (nondet()) { while (nondet()) {} }` forks at every test
//! and never ends within the loop bound; unrolling it checks nothing.
//!
//! The loop is any set of blocks the running thread stands in: from
//! there, whatever the trips, the thread either stays in those blocks for
//! ever (doing nothing another thread or a check could see) or leaves by
//! one of the edges out of them, with the registers the blocks define
//! holding values of their trips and every other register as it was (SSA:
//! the blocks redefine none of them). So the thread is moved to each exit
//! edge in turn, one path per edge, with those registers given arbitrary
//! values: every trip count and every way out at once, for loops with any
//! number of exits (a `goto` out of a nest, a `break`, a `return`).
//! Nothing is left out, so no race, divergence or memory error is hidden;
//! a finding later on the path is not confirmed (the loop may never end,
//! or never leave by that edge), except a race whose accesses do not rest
//! on the loop (summary_marks.rs).
//!
//! When no register the loop defines is read after it (its result is
//! dead), nothing is lost by leaving it at its first test on symbolic
//! values: that is done then, for the whole nest at once, so nested loops
//! do not multiply paths. Otherwise the loop is left this way only after
//! `--loop-bound` trips, when the general summary (loop_summary.rs)
//! refused it; before then its values are exact.
//!
//! Not under `--warp-sync`: lanes in lockstep meet at every instruction,
//! and skipping a lane's trips would change which lanes meet where.

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::exec::opencl::undefined_call_havoc::holds_pointer;
use crate::expr::BinOp;
use crate::ir::{BlockId, CastOp, Const, FuncId, Function, InstKind, Module, Operand, RegId, Terminator};
use std::rc::Rc;

/// The thread-id functions of the CUDA header (`threadIdx`, `blockIdx`,
/// `blockDim`, `gridDim`): they read the thread's ids and the launch's
/// sizes, nothing else.
const ID_FUNCTIONS: [&str; 4] = ["get_local_id", "get_group_id", "get_local_size", "get_num_groups"];

/// A set of blocks whose instructions have no effect a check could see,
/// with the edges out of it.
#[derive(Debug, PartialEq)]
pub(in crate::exec) struct EffectFreeLoop {
    /// The blocks, by index, sorted.
    blocks: Vec<usize>,
    /// The edges out: (block inside, block outside), each once.
    exits: Vec<(BlockId, BlockId)>,
    /// The registers its instructions define.
    defined: Vec<RegId>,
}

/// When a loop may be left this way.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(in crate::exec) enum LeaveWhen {
    /// At a test on symbolic values: only loops whose result is dead.
    FirstTest,
    /// After `--loop-bound` trips: any loop without effects.
    AtBound,
}

impl<'m> Executor<'m> {
    /// The running thread of a CUDA kernel branches at the end of `here`
    /// on a condition both ways of which may hold: when `here` lies in a
    /// loop without effects that may be left `when`, the thread leaves it
    /// by each of its exits (one path each) and the step to go on with is
    /// returned; None otherwise, the state untouched.
    pub(in crate::exec) fn leave_effect_free_loop(
        &mut self,
        state: &mut State,
        func: &'m Function,
        here: BlockId,
        when: LeaveWhen,
    ) -> Option<Step> {
        let gpu = state.gpu.as_ref()?;
        if !self.cx.module.is_cuda() || gpu.lockstep.is_some() {
            return None;
        }
        let frame = state.frame();
        let key = (frame.func, here, when);
        let found = match self.models.effect_free_loops.get(&key) {
            Some(found) => found.clone(),
            None => {
                let found = effect_free_loop(self.cx.module, func, here.0 as usize, when).map(Rc::new);
                self.models.effect_free_loops.insert(key, found.clone());
                found
            }
        };
        let region = found?;
        // A value with indeterminate bits read in the loop would be a
        // finding at the branch or call that uses it.
        if !frame.shadows.is_empty() && reads_shadowed(func, &region, &frame.shadows) {
            return None;
        }
        let place = crate::exec::opencl::summary_marks::SummaryPlace {
            item: gpu.current as u32,
            group_key: (gpu.mode == crate::exec::opencl::workitems::RaceMode::Enumerate).then_some(gpu.group),
            interval: gpu.log.barriers_released(),
            seq: gpu.log.next_seq(),
        };
        // The loop's registers: arbitrary values, numbered consecutively
        // (summary_marks.rs tells a race resting on them apart).
        let mut numbers: Option<(u32, u32)> = None;
        let frame = state.frame_mut();
        for &r in &region.defined {
            let widths = crate::exec::engine::step::leaf_widths(&func.reg_types[r.0 as usize]);
            let values: Vec<_> = widths.into_iter().map(|w| self.cx.pool.fresh(w)).collect();
            for &e in &values {
                if let Some(n) = crate::exec::opencl::summary_marks::fresh_number(&self.cx.pool, e) {
                    numbers = Some(numbers.map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n))));
                }
            }
            frame.regs[r.0 as usize] = Some(values.into_iter().collect());
            frame.shadows.remove(&r);
        }
        let abstracted = state.abstracted;
        if let Some(gpu) = state.gpu.as_mut() {
            gpu.summaries.note(&place, numbers.unwrap_or((u32::MAX, 0)), abstracted);
        }
        state.abstracted = true;
        tracing::debug!(
            function = %func.name,
            block = here.0,
            blocks = region.blocks.len(),
            exits = region.exits.len(),
            state = state.id,
            "loop without effects left by each of its exits"
        );
        // One path per exit; the running state takes the last.
        let (&(last_from, last_to), others) = region.exits.split_last()?;
        let mut paths: Vec<State> = Vec::with_capacity(others.len());
        for &(from, to) in others {
            let mut path = state.clone();
            path.id = self.fork_id();
            path.frame_mut().block = from;
            self.jump(&mut path, func, to);
            paths.push(path);
        }
        // The paths meet again where the loop's block is post-dominated,
        // and merge there as the two sides of a branch do.
        if let Some((first, rest)) = paths.split_first_mut() {
            let (func_id, before) = (state.frame().func, state.merge.len());
            let prefix = state.path.len();
            self.open_region(state, first, func_id, here, prefix);
            if let Some(tag) = state.merge.get(before).cloned() {
                for p in rest {
                    p.merge.push(tag.clone());
                }
            }
        }
        state.frame_mut().block = last_from;
        self.jump(state, func, last_to);
        Some(if paths.is_empty() { Step::Continue } else { Step::Fork(paths) })
    }
}

/// Whether an instruction of the loop reads a register holding
/// indeterminate bits.
fn reads_shadowed(func: &Function, region: &EffectFreeLoop, shadows: &rustc_hash::FxHashMap<RegId, crate::memory::shadow::Shadow>) -> bool {
    let shadowed = |op: &Operand| matches!(op, Operand::Reg(r) if shadows.contains_key(r));
    region.blocks.iter().map(|&b| &func.blocks[b]).any(|block| {
        block.insts.iter().any(|i| i.kind.operands().into_iter().any(shadowed)) || block.term.operands().into_iter().any(shadowed)
    })
}

/// The largest loop around block `here` of `func` without effects that
/// may be left `when`: the blocks `here` can reach and come back from,
/// then, if those have effects and one block leads into them, the same
/// without that block (the loop nested inside), and so on.
fn effect_free_loop(module: &Module, func: &Function, here: usize, when: LeaveWhen) -> Option<EffectFreeLoop> {
    let succ = crate::exec::engine::postdom::successors(func);
    let n = succ.len();
    let mut allowed = vec![true; n];
    loop {
        let blocks = cycle_through(&succ, &allowed, here)?;
        let inside = |b: usize| blocks.binary_search(&b).is_ok();
        if let Some(region) = without_effects(module, func, &succ, &blocks, when) {
            return Some(region);
        }
        // Go one loop inwards: through its one way in.
        let mut entries = blocks.iter().copied().filter(|&b| b == 0 || (0..n).any(|p| !inside(p) && succ[p].contains(&b)));
        let entry = entries.next()?;
        if entries.next().is_some() || entry == here {
            return None;
        }
        allowed[entry] = false;
    }
}

/// The blocks on a cycle through `here` using `allowed` blocks only
/// (reachable from it and reaching it), sorted; None when there is no
/// such cycle.
fn cycle_through(succ: &[Vec<usize>], allowed: &[bool], here: usize) -> Option<Vec<usize>> {
    let n = succ.len();
    let mut forward = vec![false; n];
    let mut todo: Vec<usize> = succ[here].iter().copied().filter(|&s| allowed[s]).collect();
    while let Some(b) = todo.pop() {
        if std::mem::replace(&mut forward[b], true) {
            continue;
        }
        todo.extend(succ[b].iter().copied().filter(|&s| allowed[s]));
    }
    if !forward[here] {
        return None;
    }
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, ss) in succ.iter().enumerate() {
        for &s in ss {
            pred[s].push(b);
        }
    }
    let mut backward = vec![false; n];
    let mut todo = vec![here];
    while let Some(b) = todo.pop() {
        if std::mem::replace(&mut backward[b], true) {
            continue;
        }
        todo.extend(pred[b].iter().copied().filter(|&p| allowed[p] && forward[p]));
    }
    Some((0..n).filter(|&b| forward[b] && backward[b]).collect())
}

/// The loop made of `blocks`, if none of its instructions has an effect a
/// check could see and it may be left `when`.
fn without_effects(module: &Module, func: &Function, succ: &[Vec<usize>], blocks: &[usize], when: LeaveWhen) -> Option<EffectFreeLoop> {
    let inside = |b: usize| blocks.binary_search(&b).is_ok();
    let mut defined = Vec::new();
    for &b in blocks {
        let block = &func.blocks[b];
        if !matches!(block.term, Terminator::Br(_) | Terminator::CondBr { .. } | Terminator::Switch { .. }) {
            return None;
        }
        for inst in &block.insts {
            if !has_no_effect(module, &inst.kind) || inst.kind.operands().into_iter().any(is_undef) {
                return None;
            }
            defined.extend(inst.dest);
        }
        if block.term.operands().into_iter().any(is_undef) {
            return None;
        }
    }
    let is_defined = |op: &Operand| matches!(op, Operand::Reg(r) if defined.contains(r));
    let read_after = (0..func.blocks.len()).filter(|&b| !inside(b)).map(|b| &func.blocks[b]).any(|block| {
        block.insts.iter().any(|i| i.kind.operands().into_iter().any(is_defined)) || block.term.operands().into_iter().any(is_defined)
    });
    match when {
        LeaveWhen::FirstTest if read_after => return None,
        // An arbitrary pointer read after the loop could point anywhere.
        LeaveWhen::AtBound if read_after && defined.iter().any(|r| holds_pointer(&func.reg_types[r.0 as usize])) => return None,
        _ => {}
    }
    // Edges into a block without phi nodes leave the thread in the same
    // state whichever block they come from: one path for all of them.
    let has_phis = |b: usize| matches!(func.blocks[b].insts.first().map(|i| &i.kind), Some(InstKind::Phi { .. }));
    let mut exits: Vec<(BlockId, BlockId)> = Vec::new();
    for &b in blocks {
        for &s in &succ[b] {
            let (from, to) = (BlockId(b as u32), BlockId(s as u32));
            let same = |&(f, t): &(BlockId, BlockId)| t == to && (f == from || !has_phis(s));
            if !inside(s) && !exits.iter().any(same) {
                exits.push((from, to));
            }
        }
    }
    if exits.is_empty() {
        // A loop it cannot leave: the step budget and the repeated-state
        // watch (nontermination.rs) judge it as they do today.
        return None;
    }
    Some(EffectFreeLoop { blocks: blocks.to_vec(), exits, defined })
}

fn is_undef(op: &Operand) -> bool {
    matches!(op, Operand::Const(Const::Undef(_)))
}

/// Whether an instruction has no effect a check could see: no memory
/// access, no synchronisation, no arithmetic that can be undefined or
/// poison (signed overflow, a broken promise, division, a shift, a
/// float-to-int conversion out of range), no call but to the id functions
/// and to `__device__` functions declared without a body that take no
/// pointer.
fn has_no_effect(module: &Module, kind: &InstKind) -> bool {
    let no_flags = |f: &crate::ir::PoisonFlags| !(f.nsw || f.nuw || f.exact || f.disjoint || f.nneg);
    match kind {
        InstKind::Int { op, rhs, flags, .. } => {
            let constant = match rhs {
                Operand::Const(Const::Int { width, value }) => Some((*width, *value)),
                _ => None,
            };
            no_flags(flags)
                && match op {
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor => true,
                    // By a constant amount within the width.
                    BinOp::Shl | BinOp::LShr | BinOp::AShr => constant.is_some_and(|(w, v)| v < w as u128),
                    // By a constant that is neither 0 nor (signed) -1.
                    BinOp::UDiv | BinOp::URem => constant.is_some_and(|(_, v)| v != 0),
                    BinOp::SDiv | BinOp::SRem => {
                        constant.is_some_and(|(w, v)| v != 0 && v != (if w >= 128 { u128::MAX } else { (1u128 << w) - 1 }))
                    }
                }
        }
        InstKind::Cast { op, flags, .. } => {
            matches!(
                op,
                CastOp::Trunc
                    | CastOp::ZExt
                    | CastOp::SExt
                    | CastOp::FpTrunc
                    | CastOp::FpExt
                    | CastOp::UiToFp
                    | CastOp::SiToFp
                    | CastOp::BitCast
            ) && no_flags(flags)
        }
        InstKind::Float { .. }
        | InstKind::FNeg(_)
        | InstKind::ICmp { .. }
        | InstKind::FCmp { .. }
        | InstKind::Select { .. }
        | InstKind::Freeze(_)
        | InstKind::Phi { .. } => true,
        InstKind::Call { callee, .. } => match callee {
            crate::ir::Callee::Intrinsic(name) => name.starts_with("llvm.dbg.") || name.starts_with("llvm.lifetime."),
            crate::ir::Callee::External(name) => {
                module.functions.iter().any(|f| &f.name == name && f.is_declaration() && calls_nothing_seen(module, f))
            }
            crate::ir::Callee::Direct(f) => {
                let f = module.function(*f);
                f.is_declaration() && calls_nothing_seen(module, f)
            }
            _ => false,
        },
        _ => false,
    }
}

/// Whether a call of the declared-only function `f` has no effect a check
/// could see: an id function, or a user's `__device__` function that takes
/// no pointer and that cuda_declared_functions.rs models as returning an
/// arbitrary value.
fn calls_nothing_seen(module: &Module, f: &Function) -> bool {
    let Some((base, _)) = crate::ir::demangle(&f.name) else { return false };
    if ID_FUNCTIONS.contains(&base) {
        return true;
    }
    // A name the OpenCL model answers (`barrier`, `atomic_add`...) runs
    // as that built-in, whatever the declaration says.
    !base.starts_with("__")
        && crate::exec::opencl::builtins::opencl_arity(&f.name, true).is_none()
        && f.params.iter().all(|p| p.byval.is_none() && !holds_pointer(&p.ty))
        && !holds_pointer(&f.ret)
        && crate::exec::opencl::cuda_declared_functions::reason_not_pure(module, f).is_none()
}

/// The function a block belongs to and the block: the cache's key, with
/// when the loop is left.
pub(in crate::exec) type LoopKey = (FuncId, BlockId, LeaveWhen);
