//! `--warp-sync N`: the threads of a warp (N consecutive threads of a
//! block by linear index) run in lockstep, as warps did before independent
//! thread scheduling (sm_70) and as warp-synchronous code assumes.
//!
//! The lanes of a warp that stand at the same instruction (the same call
//! stack of function, block and instruction) execute it together: each of
//! them runs that one instruction, in lane order, before any runs the
//! next. That is one step of the warp. Lanes that diverged stand at
//! different places: the warp then runs one group of them at a time, the
//! group first in block order (the deeper call first), so that the lanes
//! behind catch up with those ahead and the warp reconverges where their
//! paths meet (a thread frontier). Values read are those of this lockstep
//! schedule.
//!
//! A step orders the accesses of the lanes that took part in it: all they
//! did before it comes before all they do after it (it is recorded as a
//! warp meeting of those lanes, race/warp_order.rs). Two lanes' accesses of
//! one step (one store instruction writing the same bytes for both) stay
//! unordered, and so do the accesses two lanes made while they had
//! diverged: the hardware's order of divergent paths is not defined, so
//! both are races under lockstep too. Other warps of the block, and other
//! blocks, are ordered only by barriers, as without the flag.
//!
//! Pair mode runs two threads, not warps: the flag is not applied there
//! (the report says so), which can only report more races, never fewer.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::{Frame, State};
use crate::exec::opencl::workitems::{device_mut, ItemStatus, WorkItem};
use std::cmp::Ordering;

/// The lockstep schedule of the running block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lockstep {
    /// Lanes per warp (1 to 32).
    width: usize,
    /// The lanes (one bit each, of the warp of the running thread) that
    /// run the warp's present step; 0 between barrier intervals.
    step: u32,
    /// The running lane has run its instruction of the step.
    ran: bool,
    /// Instructions each thread of the block ran in this barrier interval
    /// before its present turn (the work-item step budget counts them all).
    steps: Vec<u64>,
    /// Thread switches so far: a merge region never spans one (the
    /// other lanes moved).
    switches: u32,
}

impl Lockstep {
    /// A schedule of warps of `width` lanes.
    pub fn new(width: u32) -> Lockstep {
        Lockstep { width: width as usize, step: 0, ran: false, steps: Vec::new(), switches: 0 }
    }

    /// Lanes per warp.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Thread switches so far (device_state.rs folds them into the epoch).
    pub fn switches(&self) -> u32 {
        self.switches
    }
}

/// Which of two lanes' places runs first: at the first frame where their
/// stacks differ, the earlier function, block and instruction; when one
/// stack extends the other, the deeper one (it returns to where the other
/// stands).
fn runs_first(a: &[Frame], b: &[Frame]) -> Ordering {
    for (fa, fb) in a.iter().zip(b) {
        let ka = (fa.func.0, fa.block.0, fa.pc);
        let kb = (fb.func.0, fb.block.0, fb.pc);
        if ka != kb {
            return ka.cmp(&kb);
        }
    }
    b.len().cmp(&a.len())
}

/// The lanes of the warp `first..end` that run its next step: the running
/// lanes standing where the one that runs first stands. None when no lane
/// of the warp is running.
fn next_step(items: &[WorkItem], first: usize, end: usize) -> Option<u32> {
    let running: Vec<usize> = (first..end).filter(|&i| items[i].status == ItemStatus::Running).collect();
    let lead = running.iter().copied().min_by(|&x, &y| runs_first(&items[x].stack, &items[y].stack).then(x.cmp(&y)))?;
    let mut lanes = 0u32;
    for i in running {
        if runs_first(&items[i].stack, &items[lead].stack) == Ordering::Equal {
            lanes |= 1 << (i - first);
        }
    }
    Some(lanes)
}

impl<'m> Executor<'m> {
    /// At the start of an instruction: when the running lane has run its
    /// instruction of the step, the next lane of the step takes over (or
    /// the warp's next step starts).
    pub(in crate::exec) fn lockstep_turn(&mut self, state: &mut State) {
        let Some(gpu) = state.gpu.as_deref_mut() else { return };
        let Some(ls) = gpu.lockstep.as_mut() else { return };
        // At the first instruction of an interval (no step yet) the warp's
        // first step starts; after the running lane's instruction, the
        // next lane of the step takes over.
        if ls.ran || ls.step == 0 {
            let cur = gpu.current;
            std::mem::swap(&mut state.stack, &mut gpu.items[cur].stack);
            // The running lane is still running: some lane is found.
            let next = self.next_lockstep_lane(state, cur).unwrap_or(cur);
            let gpu = device_mut(&mut state.gpu);
            gpu.current = next;
            std::mem::swap(&mut state.stack, &mut gpu.items[next].stack);
            self.lockstep_entered(state, cur, next);
        }
        if let Some(ls) = device_mut(&mut state.gpu).lockstep.as_mut() {
            ls.ran = true;
        }
    }

    /// The lane to run after `cur` (whose stack is already put back): the
    /// next lane of the step, else the first of the warp's next step, else
    /// of another warp's. None when no thread of the block is running (the
    /// barrier interval ends).
    pub(in crate::exec) fn next_lockstep_lane(&mut self, state: &mut State, cur: usize) -> Option<usize> {
        let steps_now = state.steps;
        let gpu = device_mut(&mut state.gpu);
        let n = gpu.items.len();
        let started = gpu.item_started;
        let ls = gpu.lockstep.as_mut().expect("a lockstep schedule");
        if ls.steps.len() != n {
            ls.steps = vec![0; n];
        }
        ls.steps[cur] += steps_now.saturating_sub(started);
        let w = ls.width;
        let first = cur - cur % w;
        let end = (first + w).min(n);
        let rest =
            ((cur - first + 1)..(end - first)).find(|&l| ls.step & (1 << l) != 0 && gpu.items[first + l].status == ItemStatus::Running);
        if let Some(l) = rest {
            return Some(first + l);
        }
        // The step is over: its lanes met.
        if ls.step != 0 {
            gpu.log.warp_sync(first, ls.step);
        }
        let warps = std::iter::once(first).chain((1..=n).map(|k| (cur + k) % n).map(|i| i - i % w));
        for start in warps {
            let stop = (start + w).min(n);
            if let Some(lanes) = next_step(&gpu.items, start, stop) {
                let ls = gpu.lockstep.as_mut().expect("a lockstep schedule");
                ls.step = lanes;
                gpu.log.warp_sync(start, lanes);
                return Some(start + lanes.trailing_zeros() as usize);
            }
        }
        let ls = gpu.lockstep.as_mut().expect("a lockstep schedule");
        ls.step = 0;
        ls.steps = vec![0; n];
        None
    }

    /// `__activemask()` in lockstep: the lanes of the hardware warp (32
    /// threads) that run this step, the running one among them. None
    /// when warps do not run in lockstep.
    pub(in crate::exec) fn lockstep_active_mask(&self, state: &State) -> Option<u32> {
        let gpu = state.gpu.as_deref()?;
        let ls = gpu.lockstep.as_ref()?;
        let cur = gpu.current;
        let first = cur - cur % ls.width;
        let lanes = ls.step | 1 << (cur - first);
        Some(lanes << (first % 32))
    }

    /// Lane `next` took over from `cur`: its budget counts what it ran
    /// before in this interval.
    pub(in crate::exec) fn lockstep_entered(&mut self, state: &mut State, cur: usize, next: usize) {
        let steps_now = state.steps;
        let gpu = device_mut(&mut state.gpu);
        let Some(ls) = gpu.lockstep.as_mut() else { return };
        ls.ran = false;
        if next != cur {
            ls.switches = ls.switches.wrapping_add(1);
        }
        let before = ls.steps.get(next).copied().unwrap_or(0);
        gpu.item_started = steps_now.saturating_sub(before);
    }
}

#[cfg(test)]
mod tests {
    use super::runs_first;
    use crate::exec::engine::state::Frame;
    use crate::ir::{BlockId, FuncId};
    use std::cmp::Ordering;

    fn frame(block: u32, pc: usize) -> Frame {
        Frame {
            func: FuncId(0),
            block: BlockId(block),
            prev_block: None,
            pc,
            regs: Vec::new(),
            allocas: Vec::new(),
            ret_dest: None,
            call_loc: Default::default(),
            varargs: None,
            shadows: Default::default(),
            shadow_on: false,
        }
    }

    #[test]
    fn the_lane_behind_runs_first_and_a_call_before_its_return() {
        assert_eq!(runs_first(&[frame(1, 3)], &[frame(2, 0)]), Ordering::Less, "earlier block");
        assert_eq!(runs_first(&[frame(2, 1)], &[frame(2, 4)]), Ordering::Less, "earlier instruction");
        assert_eq!(runs_first(&[frame(2, 4)], &[frame(2, 4)]), Ordering::Equal);
        assert_eq!(runs_first(&[frame(2, 4), frame(0, 0)], &[frame(2, 4)]), Ordering::Less, "inside the call");
    }
}
