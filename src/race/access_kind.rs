//! How a work-item touched memory, as the race analysis tells accesses
//! apart: two plain reads never race, two atomics never race, anything
//! else with a common byte and no barrier between may.

/// How a kernel touched memory, as the race detector tells accesses apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessKind {
    /// A plain load.
    Read,
    /// A plain store.
    Write,
    /// An atomic read-modify-write (a write that never races another atomic).
    Atomic,
    /// The read of an atomic operation that may write nothing (a
    /// compare-and-exchange, whose write happens only when the compare
    /// succeeds): it races with plain writes only.
    AtomicRead,
}

impl AccessKind {
    /// Whether the access writes.
    pub fn writes(self) -> bool {
        matches!(self, AccessKind::Write | AccessKind::Atomic)
    }

    /// Whether the access is atomic.
    pub fn atomic(self) -> bool {
        matches!(self, AccessKind::Atomic | AccessKind::AtomicRead)
    }

    /// A plain (non-atomic) load or store.
    pub fn plain(write: bool) -> Self {
        if write {
            AccessKind::Write
        } else {
            AccessKind::Read
        }
    }
}
