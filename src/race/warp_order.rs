//! Warp-scoped ordering: CUDA's `__syncwarp(mask)` orders the memory
//! accesses of the threads of one warp that meet at it, and nothing else.
//! It is not a barrier of the block: accesses of threads of other warps,
//! or of lanes outside the mask, stay unordered, so a race between warps
//! is still found. A meeting happens at one point of the schedule (every
//! access before it has a smaller sequence number than every access
//! after it), so an access of lane `a` is ordered before an access of lane
//! `b` when some meeting that both took part in lies between them.

use super::{AccessLog, AccessRecord};

/// One `__syncwarp` meeting of the running block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarpSync {
    /// The sequence number of the first access after the meeting.
    at: u64,
    /// Index (in the block) of the warp's first thread.
    first_item: usize,
    /// The lanes that met, one bit each.
    lanes: u32,
}

impl WarpSync {
    fn includes(&self, item: usize) -> bool {
        item >= self.first_item && item - self.first_item < 32 && self.lanes & (1 << (item - self.first_item)) != 0
    }
}

impl AccessLog {
    /// The lanes `lanes` of the warp whose first thread is `first_item`
    /// met at a `__syncwarp`: their accesses so far are ordered before
    /// their accesses from now on.
    pub fn warp_sync(&mut self, first_item: usize, lanes: u32) {
        self.warp_syncs.push(WarpSync { at: self.next_seq, first_item, lanes });
    }

    /// Whether a `__syncwarp` that both threads took part in lies between
    /// the two accesses (of the running block).
    pub(super) fn warp_ordered(&self, a: &AccessRecord, b: &AccessRecord) -> bool {
        if self.warp_syncs.is_empty() || a.async_event().is_some() || b.async_event().is_some() {
            return false;
        }
        let (first, second) = if a.seq < b.seq { (a, b) } else { (b, a) };
        // Meetings are in schedule order: those after the first access.
        let from = self.warp_syncs.partition_point(|s| s.at <= first.seq);
        self.warp_syncs[from..]
            .iter()
            .take_while(|s| s.at <= second.seq)
            .any(|s| s.includes(first.item as usize) && s.includes(second.item as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::WarpSync;

    #[test]
    fn a_meeting_includes_only_its_lanes_of_its_warp() {
        let s = WarpSync { at: 0, first_item: 32, lanes: 0b101 };
        assert!(s.includes(32));
        assert!(!s.includes(33));
        assert!(s.includes(34));
        assert!(!s.includes(2), "lane 2 of another warp");
        assert!(!s.includes(64));
    }
}
