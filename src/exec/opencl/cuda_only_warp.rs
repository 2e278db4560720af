//! `race --only-warp` (GPUVerify's `--only-warp`): only races between
//! threads of one warp are looked for (`--no-warp`: only the others). A pair of accesses is a candidate
//! only when its two threads are in the same block and in the same warp of
//! it (consecutive threads by linear index, 32 of them, or the `N` of
//! `--warp-sync N`); races between warps or between blocks are not asked
//! about, and the report says so. With symbolic ids (pair mode) "in one
//! warp" is a condition the race's witness must meet.

use crate::exec::engine::executor::Executor;
use crate::exec::opencl::cuda_warps::WARP_SIZE;
use crate::expr::{BinOp, ExprId};
use crate::race::{AccessLog, AccessRecord};

impl<'m> Executor<'m> {
    /// When `a` and `b` were made by threads of one warp of one block
    /// (blocks of `block` threads): true when they may be so, a condition
    /// on symbolic ids, false when they are not.
    pub(in crate::exec) fn same_warp_condition(&mut self, log: &AccessLog, a: &AccessRecord, b: &AccessRecord, block: [u64; 3]) -> ExprId {
        let width = self.cx.config.warp_sync.map_or(WARP_SIZE, u64::from);
        let (la, lb) = (log.local_ids(a), log.local_ids(b));
        let (ga, gb) = (log.group_ids(a), log.group_ids(b));
        let mut same = self.cx.pool.bool_const(true);
        for (&x, &y) in ga.iter().zip(&gb) {
            let e = self.cx.pool.eq(x, y);
            same = self.cx.pool.and(same, e);
        }
        let warp_a = self.warp_of(la, block, width);
        let warp_b = self.warp_of(lb, block, width);
        let e = self.cx.pool.eq(warp_a, warp_b);
        self.cx.pool.and(same, e)
    }

    /// The warp of a thread with local ids `l`: its linear index in the
    /// block divided by the warp's width.
    fn warp_of(&mut self, l: [ExprId; 3], block: [u64; 3], width: u64) -> ExprId {
        let w = self.cx.pool.width(l[0]);
        let bx = self.cx.pool.constant(w, block[0] as u128);
        let by = self.cx.pool.constant(w, block[1] as u128);
        let z_rows = self.cx.pool.mul(l[2], by);
        let rows = self.cx.pool.add(l[1], z_rows);
        let row_start = self.cx.pool.mul(rows, bx);
        let linear = self.cx.pool.add(l[0], row_start);
        let lanes = self.cx.pool.constant(w, width as u128);
        self.cx.pool.bin(BinOp::UDiv, linear, lanes)
    }
}
