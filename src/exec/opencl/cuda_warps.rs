//! Warps of a CUDA block: 32 threads by linear thread index. Code written
//! for warp-synchronous execution (the last steps of a reduction on
//! `volatile` shared memory, without `__syncwarp`) assumes that the
//! threads of a warp run in lockstep; since independent thread scheduling
//! (sm_70) they need not, and such code races. A race between two threads
//! of one warp is reported with a note saying so: that pair races only
//! when the warp's threads do not run in lockstep. A write-write race of
//! one instruction is a race in lockstep too (which lane's store lands is
//! not defined), so it gets no note; nor does a read racing with a write
//! whose store the reading lane makes too, at the same bytes (`*sum += x`:
//! in lockstep every lane reads, then every lane stores its own sum, and
//! updates are lost).

use crate::exec::engine::executor::Executor;
use crate::expr::Assignment;
use crate::race::{AccessLog, AccessRecord};

/// Threads per warp on every NVIDIA GPU so far.
pub const WARP_SIZE: u64 = 32;

/// The note of a race between two threads of one warp.
pub const LOCKSTEP_NOTE: &str = "; the two threads are in one warp: this pair races only when the threads of a warp do not run in \
                                 lockstep, as they need not since independent thread scheduling (sm_70); __syncwarp() between \
                                 the accesses orders them";

/// The note of a race between two threads of one warp when warps run in
/// lockstep (`--warp-sync`, cuda_lockstep.rs).
pub const LOCKSTEP_ASSUMED_NOTE: &str = "; the two threads are in one warp, assumed to run in lockstep (--warp-sync): the accesses are \
                                         of one instruction, or were made while the warp's threads had diverged, whose paths run in \
                                         an order the hardware does not define";

impl<'m> Executor<'m> {
    /// The note for a race between `a` and `b` when they are threads of
    /// one warp of one block of a CUDA kernel (with the witness's values
    /// for symbolic ids), else "". `lockstep`: the warp width when warps
    /// run in lockstep (`--warp-sync`).
    pub(in crate::exec) fn warp_lockstep_note(
        &self,
        log: &AccessLog,
        a: &AccessRecord,
        b: &AccessRecord,
        block: [u64; 3],
        lockstep: Option<usize>,
        model: Option<&Assignment>,
    ) -> &'static str {
        if lockstep.is_none() && (!self.cx.module.is_cuda() || (a.write && b.write && log.loc(a) == log.loc(b))) {
            return "";
        }
        if lockstep.is_none() && a.write != b.write {
            let (reader, writer) = if a.write { (b, a) } else { (a, b) };
            let reader_stores_there = log.records.iter().any(|r| {
                r.write
                    && r.item == reader.item
                    && log.loc(r) == log.loc(writer)
                    && r.object == writer.object
                    && r.offset == writer.offset
                    && r.size() == writer.size()
            });
            if reader_stores_there {
                return "";
            }
        }
        let ids = |r: &AccessRecord| -> Option<([u64; 3], [u64; 3])> {
            let (local, group) = self.id_values(&log.local_ids(r), &log.group_ids(r), model);
            Some((local?, group?))
        };
        let (Some((la, ga)), Some((lb, gb))) = (ids(a), ids(b)) else { return "" };
        let linear = |l: [u64; 3]| l[0] + block[0] * (l[1] + block[1] * l[2]);
        let warp = lockstep.map_or(WARP_SIZE, |w| w as u64);
        match (ga == gb && linear(la) / warp == linear(lb) / warp, lockstep) {
            (false, _) => "",
            (true, None) => LOCKSTEP_NOTE,
            (true, Some(_)) => LOCKSTEP_ASSUMED_NOTE,
        }
    }
}

/// The CUDA function behind an NVVM intrinsic (clang lowers `__shfl_sync`
/// to `llvm.nvvm.shfl.sync.idx.*`, ...), for reports.
pub fn cuda_function_of(intrinsic: &str) -> Option<&'static str> {
    let rest = intrinsic.strip_prefix("llvm.nvvm.")?;
    Some(match rest {
        r if r.starts_with("shfl.sync.idx") => "__shfl_sync",
        r if r.starts_with("shfl.sync.up") => "__shfl_up_sync",
        r if r.starts_with("shfl.sync.down") => "__shfl_down_sync",
        r if r.starts_with("shfl.sync.bfly") => "__shfl_xor_sync",
        r if r.starts_with("vote.ballot") => "__ballot_sync",
        r if r.starts_with("vote.all") => "__all_sync",
        r if r.starts_with("vote.any") => "__any_sync",
        r if r.starts_with("bar.warp.sync") => "__syncwarp",
        r if r.starts_with("activemask") => "__activemask",
        r if r.starts_with("match.any.sync") => "__match_any_sync",
        r if r.starts_with("match.all.sync") => "__match_all_sync",
        "redux.sync.add" => "__reduce_add_sync",
        "redux.sync.min" | "redux.sync.umin" => "__reduce_min_sync",
        "redux.sync.max" | "redux.sync.umax" => "__reduce_max_sync",
        "redux.sync.and" => "__reduce_and_sync",
        "redux.sync.or" => "__reduce_or_sync",
        "redux.sync.xor" => "__reduce_xor_sync",
        _ => "a CUDA device intrinsic",
    })
}

/// The warp meeting an NVVM intrinsic stands for, when symcross models it.
pub fn warp_op(intrinsic: &str) -> Option<crate::exec::opencl::warp_meeting::WarpOp> {
    use crate::exec::opencl::warp_meeting::{ReduceOp, ShuffleMode, WarpOp};
    let rest = intrinsic.strip_prefix("llvm.nvvm.")?;
    // The `p` forms (`shfl.sync.idx.i32p`) also return whether the source
    // lane was valid, which the header never asks for.
    let shuffle = |mode| (rest.ends_with(".i32") || rest.ends_with(".f32")).then_some(WarpOp::Shuffle(mode));
    match rest {
        "bar.warp.sync" => Some(WarpOp::Sync),
        "vote.ballot.sync" => Some(WarpOp::Ballot),
        "vote.all.sync" => Some(WarpOp::All),
        "vote.any.sync" => Some(WarpOp::Any),
        "match.any.sync.i32" | "match.any.sync.i64" => Some(WarpOp::MatchAny),
        // The `p` forms return the predicate beside the mask.
        "match.all.sync.i32p" | "match.all.sync.i64p" => Some(WarpOp::MatchAll),
        "redux.sync.add" => Some(WarpOp::Reduce(ReduceOp::Add)),
        "redux.sync.min" => Some(WarpOp::Reduce(ReduceOp::Min)),
        "redux.sync.umin" => Some(WarpOp::Reduce(ReduceOp::UMin)),
        "redux.sync.max" => Some(WarpOp::Reduce(ReduceOp::Max)),
        "redux.sync.umax" => Some(WarpOp::Reduce(ReduceOp::UMax)),
        "redux.sync.and" => Some(WarpOp::Reduce(ReduceOp::And)),
        "redux.sync.or" => Some(WarpOp::Reduce(ReduceOp::Or)),
        "redux.sync.xor" => Some(WarpOp::Reduce(ReduceOp::Xor)),
        r if r.starts_with("shfl.sync.idx.") => shuffle(ShuffleMode::Idx),
        r if r.starts_with("shfl.sync.up.") => shuffle(ShuffleMode::Up),
        r if r.starts_with("shfl.sync.down.") => shuffle(ShuffleMode::Down),
        r if r.starts_with("shfl.sync.bfly.") => shuffle(ShuffleMode::Xor),
        _ => None,
    }
}

impl<'m> Executor<'m> {
    /// A call of an NVVM intrinsic: a warp meeting (warp_meeting.rs),
    /// `__activemask`, or an `unsupported` finding naming the CUDA
    /// function; None for any other call.
    pub(in crate::exec) fn call_cuda_intrinsic(
        &mut self,
        state: &mut crate::exec::engine::state::State,
        c: &crate::exec::engine::calls::CallCtx,
    ) -> Option<Result<Option<crate::expr::value::Value>, crate::exec::engine::executor::Step>> {
        if c.name == crate::exec::opencl::cuda_grid_sync::GRID_SYNC && state.gpu.is_some() {
            return Some(Err(self.arrive_at_grid_barrier(state, c)));
        }
        let function = cuda_function_of(c.name)?;
        if state.gpu.is_none() {
            let msg = format!("{function} ({}) outside a kernel run", c.name);
            return Some(Err(self.unsupported(state, c.inst.loc, msg)));
        }
        if c.name == "llvm.nvvm.activemask" {
            if let Some(lanes) = self.lockstep_active_mask(state) {
                return Some(Ok(Some(smallvec::smallvec![self.cx.pool.constant(32, lanes as u128)])));
            }
            return Some(Ok(Some(self.active_mask(state, c))));
        }
        let Some(op) = warp_op(c.name) else {
            let msg = format!("{function} ({}) is not modelled", c.name);
            return Some(Err(self.unsupported(state, c.inst.loc, msg)));
        };
        if let Some(result) = self.warp_call_with_active_mask(state, c, op, function) {
            return Some(result);
        }
        Some(Err(self.arrive_at_warp_meeting(state, c, op, function)))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn warp_intrinsics_are_named_by_their_cuda_functions() {
        assert_eq!(super::cuda_function_of("llvm.nvvm.shfl.sync.bfly.i32"), Some("__shfl_xor_sync"));
        assert_eq!(super::cuda_function_of("llvm.nvvm.vote.ballot.sync"), Some("__ballot_sync"));
        assert_eq!(super::cuda_function_of("llvm.nvvm.bar.warp.sync"), Some("__syncwarp"));
        assert_eq!(super::cuda_function_of("llvm.sqrt.f32"), None);
    }

    #[test]
    fn modelled_warp_intrinsics_are_decoded() {
        use crate::exec::opencl::warp_meeting::{ReduceOp, ShuffleMode, WarpOp};
        assert_eq!(super::warp_op("llvm.nvvm.shfl.sync.down.f32"), Some(WarpOp::Shuffle(ShuffleMode::Down)));
        assert_eq!(super::warp_op("llvm.nvvm.shfl.sync.idx.i32p"), None, "the predicate form is not modelled");
        assert_eq!(super::warp_op("llvm.nvvm.vote.any.sync"), Some(WarpOp::Any));
        assert_eq!(super::warp_op("llvm.nvvm.vote.uni.sync"), None);
        assert_eq!(super::warp_op("llvm.nvvm.match.all.sync.i64p"), Some(WarpOp::MatchAll));
        assert_eq!(super::warp_op("llvm.nvvm.redux.sync.umin"), Some(WarpOp::Reduce(ReduceOp::UMin)));
        assert_eq!(super::cuda_function_of("llvm.nvvm.redux.sync.umax"), Some("__reduce_max_sync"));
    }
}
