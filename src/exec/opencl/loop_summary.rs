//! Summarising a loop that has been unrolled `--loop-bound` times (or, in
//! a kernel, has reached a test on symbolic floating point, control.rs)
//! and touches private variables only: instead of ending the path, the
//! variables the loop writes take arbitrary values, the loop test is run
//! once more, and the path leaves the loop where that test lets it. This
//! over-approximates every trip count at once (as GPUVerify's loop
//! invariants do in their weakest form), so a kernel with no race under it
//! has no race at all; a finding on such a path rests on values the loop
//! may never produce, so it is not confirmed (`State::abstracted`), except
//! a race in a kernel whose accesses do not rest on the summary
//! (summary_marks.rs).
//!
//! Only loops whose every instruction is arithmetic, a phi node, a load or
//! store of a variable of the function's own stack (an `alloca` register),
//! a work-item id query, or a store to shared memory that is the same in
//! every iteration qualify: a loop that otherwise touches shared memory,
//! calls a function or synchronises would hide accesses from the race
//! detector. An invariant store (`A[0] = 42`, `A[get_global_id(0)] = 0.0`
//! in a loop with a symbolic trip count) writes the same value to the same
//! address on every trip, in a block every trip passes through: the
//! unrolled trips already recorded the one access all further trips make,
//! so such a loop is summarised only after one trip past a symbolic test
//! (at its first floating-point test, none has run).
//! The loop must also have one way out, its test: the summary leaves only
//! there, so a `break` or `return` inside would be missed.
//!
//! A counter (`for (int i = 0; i < n; i++)`) keeps one fact through the
//! summary: it only grows, so its arbitrary value is at least the value it
//! had when summarised, provided no trip overflowed it (asked of the
//! solver at the exit, control.rs). Without it a loop bounded by an
//! unsigned test (`i < get_global_id(0)` compares `i` as a `size_t`)
//! could leave with a negative counter, and `p[i]` after it would be a
//! write before the start of an unsized buffer that no trip count gives.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::{ForcedExit, State, SummaryCounter};
use crate::expr::{BinOp, CmpOp, ExprId, ExprPool};
use crate::ir::{BlockId, Callee, Const, Function, InstKind, Operand, RegId, Terminator};

/// Built-ins a summarised loop may call: they read the work-item's ids and
/// the NDRange, nothing else.
const PURE_BUILTINS: [&str; 8] = [
    "get_global_id",
    "get_local_id",
    "get_group_id",
    "get_global_size",
    "get_local_size",
    "get_num_groups",
    "get_work_dim",
    "get_global_offset",
];

impl<'m> Executor<'m> {
    /// Tries to summarise the loop whose test at `header` branches to
    /// `then` or `otherwise`. On success the state stands at the start of
    /// `header` with the loop's variables havocked and must leave there.
    pub(in crate::exec) fn summarise_loop(
        &mut self,
        state: &mut State,
        func: &Function,
        header: BlockId,
        then: BlockId,
        otherwise: BlockId,
    ) -> bool {
        let succ = crate::exec::engine::postdom::successors(func);
        let (stays_then, stays_else) =
            (reaches(&succ, then.0 as usize, header.0 as usize), reaches(&succ, otherwise.0 as usize, header.0 as usize));
        if stays_then == stays_else {
            return false;
        }
        let (stay, exit) = if stays_then { (then, otherwise) } else { (otherwise, then) };
        let Some(body) = loop_body(&succ, header.0 as usize, stay.0 as usize) else { return false };
        // One way out, the header's test: the summary assumes the loop
        // ends there, so a `break` or `return` inside would be missed.
        let single_exit =
            body.iter().all(|&b| succ[b].iter().all(|&s| body.contains(&s) || (b == header.0 as usize && s == exit.0 as usize)));
        if !single_exit {
            return false;
        }
        let allocas: rustc_hash::FxHashSet<RegId> = func
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter(|i| matches!(i.kind, InstKind::Alloca { .. }))
            .filter_map(|i| i.dest)
            .collect();
        let mut written: Vec<RegId> = Vec::new();
        let mut defined: Vec<RegId> = Vec::new();
        // Stores to shared memory: (block, address, value), accepted below
        // when both operands are loop-invariant.
        let mut shared_stores: Vec<(usize, &Operand, &Operand)> = Vec::new();
        for &b in &body {
            let block = &func.blocks[b];
            if !matches!(block.term, Terminator::Br(_) | Terminator::CondBr { .. } | Terminator::Switch { .. }) {
                return false;
            }
            for inst in &block.insts {
                let ok = match &inst.kind {
                    InstKind::Int { .. }
                    | InstKind::Float { .. }
                    | InstKind::FNeg(_)
                    | InstKind::ICmp { .. }
                    | InstKind::FCmp { .. }
                    | InstKind::Cast { .. }
                    | InstKind::Select { .. }
                    | InstKind::Freeze(_) => true,
                    InstKind::Load { ptr: Operand::Reg(r), volatile: false, .. } => allocas.contains(r),
                    InstKind::Store { ptr: Operand::Reg(r), volatile: false, .. } if allocas.contains(r) => {
                        written.push(*r);
                        true
                    }
                    InstKind::Store { ptr, value, volatile: false, .. } => {
                        shared_stores.push((b, ptr, value));
                        true
                    }
                    InstKind::Gep { .. } => true,
                    InstKind::Call { callee: Callee::External(name), .. } => is_pure_builtin(name),
                    InstKind::Call { callee: Callee::Direct(f), .. } => {
                        let target = self.cx.module.function(*f);
                        target.is_declaration() && is_pure_builtin(&target.name)
                    }
                    InstKind::Call { callee: Callee::Intrinsic(name), .. } => {
                        name.starts_with("llvm.dbg.") || name.starts_with("llvm.lifetime.")
                    }
                    // Loop-carried values: havocked with the rest.
                    InstKind::Phi { .. } => true,
                    _ => false,
                };
                if !ok {
                    return false;
                }
                defined.extend(inst.dest);
            }
        }
        if !shared_stores.is_empty() {
            let invariant = self.loop_invariant_registers(func, &body, &defined);
            let is_invariant = |op: &Operand| match op {
                Operand::Reg(r) => invariant.contains(r),
                Operand::Const(_) => true,
            };
            let every_trip = |b: usize| {
                b == stay.0 as usize || b == header.0 as usize || unavoidable(&succ, &body, stay.0 as usize, header.0 as usize, b)
            };
            if !shared_stores.iter().all(|&(b, ptr, value)| is_invariant(ptr) && is_invariant(value) && every_trip(b)) {
                return false;
            }
            // The summary adds no access: it stands for trips whose one
            // store an unrolled trip already logged. At a loop's first
            // floating-point test no trip may have run (or only trips whose
            // test was decided, which this count of the open unrollings does
            // not see): the path then runs one trip first, logging the
            // store, and is summarised at the next test.
            if self.unrolled(state, header) == 0 {
                return false;
            }
        }
        // The counters' steps, from the code alone. A store through any
        // other pointer might land in a counter, so only a loop whose
        // stores all go to its own variables has counters.
        let steps: Vec<(RegId, u32, u128)> = if shared_stores.is_empty() {
            let mut regs = written.clone();
            regs.sort_unstable();
            regs.dedup();
            regs.into_iter().filter_map(|r| counter_step(func, &succ, &body, header.0 as usize, r).map(|(w, c)| (r, w, c))).collect()
        } else {
            Vec::new()
        };
        // The variables' objects, found before anything changes.
        let mut objects = Vec::new();
        let frame = state.frame();
        for r in &written {
            let Some(addr) =
                frame.regs.get(r.0 as usize).and_then(|v| v.as_ref()).and_then(|v| v.first()).and_then(|a| self.cx.pool.as_const(*a))
            else {
                return false;
            };
            let Some(obj) = state.memory.object_near(addr as u64) else { return false };
            let o = state.memory.object(obj);
            if o.address_only || o.base != addr as u64 || o.addr_space != 0 {
                return false;
            }
            objects.push(obj);
        }
        objects.sort_unstable();
        objects.dedup();
        // Each counter's object and its value now, the start every later
        // value lies beyond (a byte with indeterminate bits: no start).
        let mut starts = Vec::new();
        for &(r, width, step) in &steps {
            let Some(addr) =
                frame.regs.get(r.0 as usize).and_then(|v| v.as_ref()).and_then(|v| v.first()).and_then(|a| self.cx.pool.as_const(*a))
            else {
                continue;
            };
            let Some(obj) = state.memory.object_near(addr as u64) else { continue };
            let o = state.memory.object(obj);
            let size = u64::from(width / 8);
            if o.size != size || o.poison.range(0..size).next().is_some() {
                continue;
            }
            let mut bytes = Vec::new();
            o.bytes.read(&mut self.cx.pool, 0, size, &mut bytes);
            let Some(start) = little_endian(&mut self.cx.pool, &bytes) else { continue };
            starts.push((obj, start, width, step));
        }
        // The fresh values made below are numbered consecutively, from
        // the first to the last (summary_marks.rs tells them apart).
        let mut numbers: Option<(u32, u32)> = None;
        let mut made = |pool: &crate::expr::ExprPool, e: crate::expr::ExprId| {
            if let Some(n) = crate::exec::opencl::summary_marks::fresh_number(pool, e) {
                numbers = Some(numbers.map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n))));
            }
        };
        for obj in objects {
            let n = state.memory.object(obj).bytes.size();
            let fresh: Vec<_> = (0..n).map(|_| Some(self.cx.pool.fresh(8))).collect();
            for e in fresh.iter().flatten() {
                made(&self.cx.pool, *e);
            }
            let o = state.memory.object_mut(obj);
            // Every byte written with an arbitrary value.
            o.bytes.write(&mut self.cx.pool, 0, &fresh);
            o.poison.clear();
        }
        // The counters' arbitrary values, read back from their objects.
        let mut counters = Vec::new();
        for (obj, start, width, step) in starts {
            let mut bytes = Vec::new();
            state.memory.object(obj).bytes.read(&mut self.cx.pool, 0, u64::from(width / 8), &mut bytes);
            let Some(value) = little_endian(&mut self.cx.pool, &bytes) else { continue };
            counters.push(counter_facts(&mut self.cx.pool, value, start, width, step));
        }
        // The header's counters (phi nodes, the form mem2reg gives `i`)
        // and their values now, before the havoc below.
        let phi_starts: Vec<(RegId, u32, u128, ExprId)> = phi_counters(func, &body, header.0 as usize)
            .into_iter()
            .filter(|(r, _, _)| !state.frame().shadows.contains_key(r))
            .filter_map(|(r, width, step)| {
                let start = state.frame().regs.get(r.0 as usize)?.as_ref()?;
                (start.len() == 1).then(|| (r, width, step, start[0]))
            })
            .collect();
        let frame = state.frame_mut();
        for r in defined {
            let widths = crate::exec::engine::step::leaf_widths(&func.reg_types[r.0 as usize]);
            let values: Vec<_> = widths.into_iter().map(|w| self.cx.pool.fresh(w)).collect();
            for e in &values {
                made(&self.cx.pool, *e);
            }
            frame.regs[r.0 as usize] = Some(values.into_iter().collect());
            frame.shadows.remove(&r);
        }
        for (r, width, step, start) in phi_starts {
            if let Some(value) = frame.regs[r.0 as usize].as_ref().and_then(|v| v.first()).copied() {
                counters.push(counter_facts(&mut self.cx.pool, value, start, width, step));
            }
        }
        // The header's phi nodes hold the loop-carried values, havocked
        // above: the test runs from the first instruction after them.
        frame.block = header;
        frame.pc = func.blocks[header.0 as usize].insts.iter().take_while(|i| matches!(i.kind, InstKind::Phi { .. })).count();
        let forced = ForcedExit { func: frame.func, header, depth: state.stack.len(), exit, counters };
        state.forced_exit = Some(forced);
        if let Some(gpu) = state.gpu.as_mut() {
            let place = crate::exec::opencl::summary_marks::SummaryPlace {
                item: gpu.current as u32,
                group_key: (gpu.mode == crate::exec::opencl::workitems::RaceMode::Enumerate).then_some(gpu.group),
                interval: gpu.log.barriers_released(),
                seq: gpu.log.next_seq(),
            };
            gpu.summaries.note(&place, numbers.unwrap_or((u32::MAX, 0)), state.abstracted);
        }
        state.abstracted = true;
        true
    }
}

impl<'m> Executor<'m> {
    /// The registers whose value is the same on every trip round the loop
    /// `body`: those defined outside it, and those computed inside by
    /// arithmetic, address arithmetic or a work-item id query from such
    /// registers and constants (no phi node, no load: their values change
    /// or are havocked).
    fn loop_invariant_registers(&self, func: &Function, body: &[usize], defined: &[RegId]) -> rustc_hash::FxHashSet<RegId> {
        let inside: rustc_hash::FxHashSet<RegId> = defined.iter().copied().collect();
        let mut invariant: rustc_hash::FxHashSet<RegId> = rustc_hash::FxHashSet::default();
        let holds = |op: &Operand, inv: &rustc_hash::FxHashSet<RegId>| match op {
            Operand::Reg(r) => !inside.contains(r) || inv.contains(r),
            Operand::Const(_) => true,
        };
        // To a fixed point: each round adds what the last one made known.
        loop {
            let before = invariant.len();
            for &b in body {
                for inst in &func.blocks[b].insts {
                    let Some(dest) = inst.dest else { continue };
                    if invariant.contains(&dest) {
                        continue;
                    }
                    let ok = match &inst.kind {
                        InstKind::Int { lhs, rhs, .. } | InstKind::ICmp { lhs, rhs, .. } => {
                            holds(lhs, &invariant) && holds(rhs, &invariant)
                        }
                        InstKind::Cast { value, .. } | InstKind::Freeze(value) => holds(value, &invariant),
                        InstKind::Gep { base, terms, .. } => holds(base, &invariant) && terms.iter().all(|(t, _)| holds(t, &invariant)),
                        InstKind::Call { callee, args } => {
                            let pure = match callee {
                                Callee::External(name) => is_pure_builtin(name),
                                Callee::Direct(f) => {
                                    let target = self.cx.module.function(*f);
                                    target.is_declaration() && is_pure_builtin(&target.name)
                                }
                                _ => false,
                            };
                            pure && args.iter().all(|a| holds(a, &invariant))
                        }
                        _ => false,
                    };
                    if ok {
                        invariant.insert(dest);
                    }
                }
            }
            if invariant.len() == before {
                break;
            }
        }
        let mut all: rustc_hash::FxHashSet<RegId> = (0..func.reg_types.len() as u32).map(RegId).filter(|r| !inside.contains(r)).collect();
        all.extend(invariant);
        all
    }
}

/// Whether every trip from `stay` back to `header` passes through `block`
/// (within the loop `body`).
fn unavoidable(succ: &[Vec<usize>], body: &[usize], stay: usize, header: usize, block: usize) -> bool {
    !reaches_within(succ, body, vec![stay], header, block)
}

/// Whether a way from one of the blocks `from` leads to `target` within
/// the loop `body` without passing `avoid`.
fn reaches_within(succ: &[Vec<usize>], body: &[usize], from: Vec<usize>, target: usize, avoid: usize) -> bool {
    let mut seen = vec![false; succ.len()];
    let mut todo = from;
    while let Some(b) = todo.pop() {
        if b == target {
            return true;
        }
        if b == avoid || b >= succ.len() || !body.contains(&b) || std::mem::replace(&mut seen[b], true) {
            continue;
        }
        todo.extend(&succ[b]);
    }
    false
}

/// Whether `to` can be reached from `from`.
fn reaches(succ: &[Vec<usize>], from: usize, to: usize) -> bool {
    let mut seen = vec![false; succ.len()];
    let mut todo = vec![from];
    while let Some(b) = todo.pop() {
        if b == to {
            return true;
        }
        if b >= succ.len() || std::mem::replace(&mut seen[b], true) {
            continue;
        }
        todo.extend(&succ[b]);
    }
    false
}

/// The blocks of the loop: the header and every block reachable from
/// `stay` without passing the header that can reach the header again.
fn loop_body(succ: &[Vec<usize>], header: usize, stay: usize) -> Option<Vec<usize>> {
    let n = succ.len();
    let mut forward = vec![false; n];
    let mut todo = vec![stay];
    while let Some(b) = todo.pop() {
        if b >= n || b == header || std::mem::replace(&mut forward[b], true) {
            continue;
        }
        todo.extend(&succ[b]);
    }
    let mut body = vec![header];
    body.extend((0..n).filter(|&b| forward[b] && reaches(succ, b, header)));
    Some(body)
}

fn is_pure_builtin(name: &str) -> bool {
    let plain = crate::ir::demangle(name).map(|(n, _)| n).unwrap_or(name);
    PURE_BUILTINS.contains(&plain)
}

/// The facts of a summarised loop's counter now holding `value`, which
/// held `start` when the loop was summarised and is stepped by `step > 0`
/// (signed, `width` bits): `value >= start`, and `value > MAX - step` (one
/// more step would overflow).
fn counter_facts(pool: &mut ExprPool, value: ExprId, start: ExprId, width: u32, step: u128) -> SummaryCounter {
    let max = crate::expr::mask(width) >> 1;
    let last = pool.constant(width, max - step);
    let beyond_start = pool.cmp(CmpOp::Sle, start, value);
    let next_overflows = pool.cmp(CmpOp::Slt, last, value);
    SummaryCounter { beyond_start, next_overflows }
}

/// The integer whose little-endian bytes are `bytes`.
fn little_endian(pool: &mut ExprPool, bytes: &[ExprId]) -> Option<ExprId> {
    let (&first, rest) = bytes.split_first()?;
    Some(rest.iter().fold(first, |low, &byte| pool.concat(byte, low)))
}

/// The width and step of the loop variable `var` (an `alloca` register)
/// when it is a counter: the loop's one store to it, in a block no trip
/// runs twice, writes `load var + step` computed in that block, with a
/// positive step, under C's signed-overflow rule (`nsw`: clang's `i++`,
/// `i += 2`; a count down bounds the side its exit test bounds already,
/// so it is not one), and nothing else
/// in the loop uses its address (the caller has made sure no store goes
/// through any other pointer).
fn counter_step(func: &Function, succ: &[Vec<usize>], body: &[usize], header: usize, var: RegId) -> Option<(u32, u128)> {
    let mut store = None;
    for &b in body {
        for (k, inst) in func.blocks[b].insts.iter().enumerate() {
            let uses_var = |op: &Operand| *op == Operand::Reg(var);
            match &inst.kind {
                InstKind::Load { ptr, .. } if uses_var(ptr) => {}
                InstKind::Store { ptr, value, .. } if uses_var(ptr) => {
                    // A second store, or the address stored as a value.
                    let second = store.replace((b, k, value)).is_some();
                    if second || uses_var(value) {
                        return None;
                    }
                }
                InstKind::Store { value, .. } if uses_var(value) => return None,
                InstKind::Call { args, .. } if args.iter().any(uses_var) => return None,
                InstKind::Gep { base, .. } if uses_var(base) => return None,
                InstKind::Cast { value, .. } if uses_var(value) => return None,
                InstKind::Select { then, otherwise, .. } if uses_var(then) || uses_var(otherwise) => return None,
                InstKind::Phi { incoming } if incoming.iter().any(|(_, op)| uses_var(op)) => return None,
                _ => {}
            }
        }
    }
    let (b, k, Operand::Reg(sum)) = store? else { return None };
    if runs_twice_per_trip(succ, body, header, b) {
        return None;
    }
    let insts = &func.blocks[b].insts[..k];
    let defined_here = |r: &RegId| insts.iter().position(|i| i.dest == Some(*r));
    let add = defined_here(sum)?;
    let InstKind::Int { op: BinOp::Add, lhs, rhs, flags } = &insts[add].kind else { return None };
    if !flags.nsw {
        return None;
    }
    let (loaded, step) = match (lhs, rhs) {
        (Operand::Reg(l), Operand::Const(Const::Int { width, value })) | (Operand::Const(Const::Int { width, value }), Operand::Reg(l)) => {
            (*l, signed(*width, *value)?)
        }
        _ => return None,
    };
    let load = defined_here(&loaded).filter(|&i| i < add)?;
    if !matches!(insts[load].kind, InstKind::Load { ptr: Operand::Reg(p), volatile: false, .. } if p == var) {
        return None;
    }
    let width = match func.reg_types[sum.0 as usize] {
        crate::ir::Type::Int(w) if w % 8 == 0 && (8..=64).contains(&w) => w,
        _ => return None,
    };
    (step > 0).then_some((width, step as u128))
}

/// The header's phi nodes that are counters, with their widths and
/// largest steps: every value the loop passes back to one (on an edge
/// from inside the loop) is the phi itself, the phi plus a positive
/// constant under C's signed-overflow rule (`nsw`), or a phi node of the
/// loop choosing among such values (`if (c) i++;`). Each trip then starts
/// with the counter at least where the last one started, and only those
/// additions may overflow it.
fn phi_counters(func: &Function, body: &[usize], header: usize) -> Vec<(RegId, u32, u128)> {
    let definition = |r: RegId| body.iter().flat_map(|&b| &func.blocks[b].insts).find(|i| i.dest == Some(r)).map(|i| &i.kind);
    // The largest step by which `op` exceeds `phi` (0: it is `phi`), None
    // when it is not such a value; `depth` bounds nested phi nodes.
    fn grows_from<'f>(op: &Operand, phi: RegId, depth: u32, definition: &dyn Fn(RegId) -> Option<&'f InstKind>) -> Option<u128> {
        let Operand::Reg(r) = op else { return None };
        if *r == phi {
            return Some(0);
        }
        match definition(*r)? {
            InstKind::Int { op: BinOp::Add, lhs, rhs, flags } if flags.nsw => {
                let (base, constant) = if matches!(rhs, Operand::Const(_)) { (lhs, rhs) } else { (rhs, lhs) };
                let Operand::Const(Const::Int { width, value }) = constant else { return None };
                let step = signed(*width, *value).filter(|&c| c > 0)? as u128;
                (*base == Operand::Reg(phi)).then_some(step)
            }
            InstKind::Phi { incoming } if depth > 0 => {
                incoming.iter().map(|(_, v)| grows_from(v, phi, depth - 1, definition)).try_fold(0, |m, s| s.map(|s| m.max(s)))
            }
            _ => None,
        }
    }
    let mut found = Vec::new();
    for inst in &func.blocks[header].insts {
        let InstKind::Phi { incoming } = &inst.kind else { break };
        let (Some(phi), crate::ir::Type::Int(width)) = (inst.dest, &inst.ty) else { continue };
        if !(8..=64).contains(width) {
            continue;
        }
        let back: Vec<_> = incoming.iter().filter(|(b, _)| body.contains(&(b.0 as usize))).collect();
        let steps: Option<Vec<u128>> = back.iter().map(|(_, v)| grows_from(v, phi, 4, &definition)).collect();
        if let Some(step) = steps.and_then(|s| s.into_iter().max()).filter(|&s| s > 0) {
            found.push((phi, *width, step));
        }
    }
    found
}

/// The value of a `width`-bit constant read as a signed number.
fn signed(width: u32, value: u128) -> Option<i128> {
    if !(1..=64).contains(&width) {
        return None;
    }
    let v = value as i128;
    Some(if v >> (width - 1) & 1 == 1 { v - (1i128 << width) } else { v })
}

/// Whether a trip may run `block` twice: a way from it back to itself
/// within the loop `body` that does not pass the loop's test.
fn runs_twice_per_trip(succ: &[Vec<usize>], body: &[usize], header: usize, block: usize) -> bool {
    reaches_within(succ, body, succ.get(block).cloned().unwrap_or_default(), block, header)
}

#[cfg(test)]
mod tests {
    use super::{runs_twice_per_trip, signed};

    #[test]
    fn constants_read_as_signed() {
        assert_eq!(signed(32, 1), Some(1));
        assert_eq!(signed(32, 0xffff_ffff), Some(-1));
        assert_eq!(signed(8, 0x80), Some(-128));
        assert_eq!(signed(64, u64::MAX as u128), Some(-1));
        assert_eq!(signed(128, 1), None);
    }

    #[test]
    fn a_block_of_an_inner_loop_runs_twice_per_trip() {
        // 0: header -> 1 (outer body) -> 2 (inner test) -> 3 (inner body)
        // -> 2; 2 -> 4 (latch) -> 0; 0 -> 5 (exit).
        let succ = vec![vec![1, 5], vec![2], vec![3, 4], vec![2], vec![0], vec![]];
        let body = [0, 1, 2, 3, 4];
        assert!(runs_twice_per_trip(&succ, &body, 0, 3));
        assert!(runs_twice_per_trip(&succ, &body, 0, 2));
        assert!(!runs_twice_per_trip(&succ, &body, 0, 1));
        assert!(!runs_twice_per_trip(&succ, &body, 0, 4));
    }
}
