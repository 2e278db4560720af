//! The run's limits: time, paths, instructions and memory, checked by the
//! run loop, and the admission of work that would take much memory (an
//! object's page table, listed bytes, expressions) before it is done, so
//! that a huge allocation is a report naming the memory limit, never a
//! failed host allocation.

use crate::exec::engine::executor::{Executor, LimitHit, Step};

/// What listing a byte costs: its expression in the list (8) and in the
/// page written (8), rounded up.
const COST_PER_TRANSIENT_BYTE: u64 = 16;
/// What one expression costs in the pool: its node, width and hash entry.
const COST_PER_EXPRESSION: u64 = 96;
/// The largest object: bases and sizes stay far from 2^64.
pub const MAX_OBJECT_BYTES: u64 = 1 << 40;

impl<'m> Executor<'m> {
    /// The limits that only need the clock and the interrupt flag.
    pub(in crate::exec) fn time_is_up(&self) -> Option<LimitHit> {
        if crate::process::interrupt::requested() {
            return Some(LimitHit::Interrupted);
        }
        if let Some(t) = self.cx.config.max_time {
            if self.started.elapsed() >= t || self.cx.decider.backend.deadline_hit() {
                return Some(LimitHit::Time);
            }
        }
        None
    }

    pub(in crate::exec) fn limit_reached(&self) -> Option<LimitHit> {
        if let Some(limit) = self.time_is_up() {
            return Some(limit);
        }
        if let Some(p) = self.cx.config.max_paths {
            if self.log.stats.paths >= p {
                return Some(LimitHit::Paths);
            }
        }
        if self.cx.config.max_instructions.is_some_and(|n| self.log.stats.instructions >= n) {
            return Some(LimitHit::Instructions);
        }
        if let Some(mb) = self.cx.config.max_memory_mb {
            if crate::process::memory_ceiling::resident_mb() > mb {
                return Some(LimitHit::Memory);
            }
        }
        None
    }

    /// Admits an object of `bytes` bytes before it is allocated: when it
    /// cannot fit in the memory limit (the configured one, else the
    /// machine's memory) the run stops with the memory limit, so a huge
    /// `malloc` is a report, never a failed host allocation. Its bytes
    /// cost nothing until written (src/memory/object_bytes.rs): what is admitted is
    /// its page table.
    pub(in crate::exec) fn admit_allocation(&mut self, bytes: u64) -> Result<(), Step> {
        if bytes > MAX_OBJECT_BYTES {
            self.log.limit_hit = Some(LimitHit::Memory);
            return Err(Step::Terminated);
        }
        self.admit_host_memory(crate::memory::object_bytes::page_table_bytes(bytes))
    }

    /// Admits an operation that lists `bytes` bytes of an object one by one
    /// (a memcpy between unaligned or partly indeterminate ranges, a memset
    /// at a symbolic address): the temporary list and the pages written.
    pub(in crate::exec) fn admit_transient(&mut self, bytes: u64) -> Result<(), Step> {
        self.admit_host_memory(bytes.saturating_mul(COST_PER_TRANSIENT_BYTE))
    }

    /// Admits `n` new expressions (fresh bytes, selects).
    pub(in crate::exec) fn admit_expressions(&mut self, n: u64) -> Result<(), Step> {
        self.admit_host_memory(n.saturating_mul(COST_PER_EXPRESSION))
    }

    /// Admits an access of `len` bytes at a symbolic offset that can take
    /// `positions` values in an object of `size` bytes: its bytes are
    /// listed, and each byte read or written is a select over those
    /// positions, about two expressions per position (`shadowed`: their
    /// indeterminate bits as well).
    pub(in crate::exec) fn admit_symbolic_access(&mut self, size: u64, positions: u64, len: u64, shadowed: bool) -> Result<(), Step> {
        let listed = size.saturating_mul(COST_PER_TRANSIENT_BYTE);
        let selects = positions.saturating_mul(len + 1).saturating_mul(if shadowed { 4 } else { 2 });
        self.admit_host_memory(listed.saturating_add(selects.saturating_mul(COST_PER_EXPRESSION)))
    }

    /// Admits work expected to take `host_bytes` bytes of the host's memory.
    /// When the resident set plus that would pass the memory limit (the
    /// configured one, else the machine's memory), the run stops with the
    /// memory limit. Under 16 MiB is always admitted.
    pub(in crate::exec) fn admit_host_memory(&mut self, host_bytes: u64) -> Result<(), Step> {
        let need_mb = host_bytes >> 20;
        // Small amounts are always admitted: reading the resident set
        // costs more than they do, and the run loop watches it anyway.
        if need_mb < 16 {
            return Ok(());
        }
        let limit = self.cx.config.max_memory_mb.unwrap_or_else(crate::config::physical_memory_mb);
        if crate::process::memory_ceiling::resident_mb().saturating_add(need_mb) > limit {
            self.log.limit_hit = Some(LimitHit::Memory);
            return Err(Step::Terminated);
        }
        Ok(())
    }
}
