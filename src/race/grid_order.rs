//! The grid barrier of CUDA cooperative groups orders every access of
//! every block before it before every access after it: once the phase
//! that ended was checked (within each block and between blocks), its
//! records can never race with anything to come, and are dropped.

use super::AccessLog;

impl AccessLog {
    /// Every thread of the grid passed a grid barrier: the records so far
    /// are ordered before all later accesses. The last block to arrive has
    /// just been parked through `forget_local`, which also reset its warp
    /// meetings (their count only tells merge regions apart, and every
    /// region was left at the thread switches before); the `__syncwarp`s
    /// of before are forgotten here, so none orders an access after the
    /// barrier (fixtures cuda_warp/grid_sync_then_warp_*).
    pub fn grid_barrier(&mut self) {
        self.commit();
        std::rc::Rc::make_mut(&mut self.records).clear();
        self.group_first = 0;
        self.checked = self.next_seq;
        self.start_barrier_history();
    }
}
