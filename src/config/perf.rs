//! The GPU the performance diagnostics of `symcross race --perf` measure
//! against: how work-items are grouped into warps (wavefronts), how
//! `__local` memory is split into banks, and how global memory is fetched.

/// Widths of the modelled GPU (`--warp-size`, `--banks`, `--bank-width`,
/// `--segment`), and the solver work the diagnostics may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerfConfig {
    /// Work-items that issue an instruction together: consecutive local
    /// linear ids of a group, in runs of this many (32 on NVIDIA, 64 for
    /// AMD wavefronts).
    pub warp_size: u32,
    /// `__local` memory banks: successive words fall in successive banks.
    pub banks: u32,
    /// Bytes of one bank word.
    pub bank_width: u32,
    /// Bytes of one global memory transaction (a segment; a 128-byte
    /// cache line is reported beside it).
    pub segment: u32,
    /// Solver queries one check (a barrier interval) may spend raising the
    /// worst case of accesses and branches whose addresses or conditions
    /// depend on the inputs; past it the rest keep the degree the path's
    /// own inputs give, and the report says so.
    pub max_queries: u64,
}

impl Default for PerfConfig {
    fn default() -> Self {
        PerfConfig { warp_size: 32, banks: 32, bank_width: 4, segment: 32, max_queries: 200 }
    }
}

/// The cache line a segment's transactions are also counted in.
pub const CACHE_LINE: u32 = 128;
