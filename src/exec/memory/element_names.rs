//! Naming the element of a memory object that a finding is about, as the
//! source spells it: `tile[15][0]` or `p[2].v[1]` by the variable's
//! debug-info type, else `element k` in units of the access.

use crate::exec::engine::executor::Executor;
use crate::memory::MemoryObject;

impl<'m> Executor<'m> {
    /// The element of `object` at byte `offset`, as the source names it:
    /// inside the declared type by debug info (`tile[15][0]`, a struct
    /// member's array, or an index past the end), else `element k` in units
    /// of the `unit`-byte access.
    pub(in crate::exec) fn element_at(&self, object: &MemoryObject, offset: i64, unit: u64) -> String {
        u64::try_from(offset)
            .ok()
            .and_then(|off| crate::report::dwarf_witness::element_label(&self.cx.module.debug_types, &object.name, object.size, off))
            .unwrap_or_else(|| format!("element {}", offset.div_euclid(unit.max(1) as i64)))
    }
}
