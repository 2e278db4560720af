//! CUDA's asynchronous copies into shared memory and the device
//! constructs the model names but does not follow (header
//! symcross_cuda.h, cuda_pipeline.h).
//!
//! `cooperative_groups::memcpy_async(block, dst, src, n)` is the block's
//! copy, as OpenCL's `async_work_group_copy` is the work-group's: the
//! header brackets each thread's share of it with
//! `__symcross_async_begin`/`__symcross_async_end` (builtins.rs), so its
//! accesses belong to the copy, not to the thread, and are ordered only
//! before accesses after a wait that completes it. `cooperative_groups::
//! wait(block)` and `wait_prior<N>(block)` are that wait: the block meets
//! (a barrier on shared and global memory) and the copies the thread
//! started, all but its newest N, complete. A read of the destination or
//! a write of the source before the wait is then a race with the copy, as
//! in OpenCL. CUDA's wait names no event, which is why it is its own call
//! here and not `wait_group_events`.
//!
//! What is not followed ends the path with an `unsupported` finding that
//! names it, so the verdict is no proof: the per-thread pipeline of
//! `<cuda_pipeline.h>` (its wait orders the copies before the issuing
//! thread only, which the access log cannot say: a thread's wait is not a
//! meeting of the block), and surfaces (the memory a surface object
//! stands for is bound by the host, and writes to it are not modelled).

use crate::exec::engine::arity::Arity;
use crate::exec::engine::calls::{CallCtx, Handler};
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::exec::opencl::workitems::Waits;
use crate::expr::value::Value;
use crate::ir::Loc;

/// `void __symcross_cuda_async_wait(unsigned pending)`: the block's wait
/// for its copies, leaving the newest `pending` of them running.
const ASYNC_WAIT: &str = "__symcross_cuda_async_wait";

/// `void __symcross_cuda_not_modelled(const char *what)`: a device
/// construct the model does not follow.
const NOT_MODELLED: &str = "__symcross_cuda_not_modelled";

impl<'m> Executor<'m> {
    /// The rows of the calls above, by exact name.
    pub(in crate::exec) fn cuda_device_row(name: &str) -> Option<(Handler<'m>, Arity)> {
        match name {
            ASYNC_WAIT => Some((Self::cuda_async_wait, Arity::Exact(1))),
            NOT_MODELLED => Some((Self::cuda_not_modelled, Arity::Exact(1))),
            _ => None,
        }
    }

    /// The user's call of the header's wrapper (a real call, so the frame
    /// running is the wrapper's), else `fallback`.
    fn wrapper_call_loc(state: &State, fallback: Loc) -> Loc {
        let call = state.frame().call_loc;
        if call == Loc::default() {
            fallback
        } else {
            call
        }
    }

    /// `cooperative_groups::wait` / `wait_prior<N>`: a barrier of the block
    /// that completes the running thread's copies but its newest `pending`.
    /// Every thread of the block starts the same copies, so they all name
    /// the same events; a thread that names others is a divergence, as in
    /// `wait_group_events`.
    fn cuda_async_wait(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        if state.gpu.is_none() {
            return Ok(None);
        }
        let loc = Self::wrapper_call_loc(state, c.inst.loc);
        let pending = c.args[0][0];
        let Some(keep) = self.fixed_value(state, pending) else {
            let what = "cooperative_groups::wait_prior with a count that depends on the input".to_string();
            return Err(self.unsupported(state, loc, what));
        };
        // A collective call: the block must make it with the same count.
        self.record_group_call(state, "cooperative_groups::wait", loc, vec![pending]);
        let gpu = crate::exec::opencl::workitems::device(&state.gpu);
        let live = gpu.items[gpu.current].live_events.clone();
        let done = live.len().saturating_sub(usize::try_from(keep).unwrap_or(usize::MAX));
        let handles: Vec<_> = live[..done].iter().map(|&e| self.cx.pool.constant(64, e as u128)).collect();
        let mut events = self.wait_for_events(state, &handles, loc)?;
        events.sort_unstable();
        let both = self.cx.pool.constant(32, 3);
        Err(self.work_item_barrier(state, both, loc, Waits::Events(events)))
    }

    /// A device construct the model does not follow: an `unsupported`
    /// finding at the user's call; the path ends, since what comes after
    /// rests on it.
    fn cuda_not_modelled(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let what = self.read_c_string(state, c.args[0][0], c.inst.loc)?;
        let loc = Self::wrapper_call_loc(state, c.inst.loc);
        Err(self.unsupported(state, loc, format!("CUDA device construct not modelled: {what}")))
    }
}
