//! Where inside an NDRange a memory finding happened: the work-item that
//! made the access and the element it reached, so that an out-of-bounds
//! message in a kernel reads `by work-item (3,0,0) of group (1,0,0), at
//! a[1024]` rather than naming the buffer alone.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::expr::{Assignment, ExprId};
use crate::memory::ObjectId;

impl<'m> Executor<'m> {
    /// ` by work-item (l) of group (g)` (` by thread (l) of block (g)` in
    /// CUDA code) for the running work-item, or the empty string outside a
    /// kernel.
    pub(in crate::exec) fn running_item_phrase(&self, state: &State, model: Option<&Assignment>) -> String {
        let Some(gpu) = state.gpu.as_deref() else { return String::new() };
        let Some(item) = gpu.items.get(gpu.current) else { return String::new() };
        format!(" by {} {}", self.item_noun(), self.item_label(item, model))
    }

    /// ` by work-item (l) of group (g), at element k (byte offset b)` for an
    /// access at `offset` into `object` made by the running work-item, or
    /// the empty string outside a kernel. Symbolic ids and offsets take
    /// their values from `model`; what has no value is left out.
    pub(in crate::exec) fn kernel_access_site(
        &self,
        state: &State,
        object: ObjectId,
        offset: ExprId,
        len: u64,
        model: Option<&Assignment>,
    ) -> String {
        let who = self.running_item_phrase(state, model);
        if who.is_empty() {
            return who;
        }
        let Some(offset) = crate::expr::value_in(&self.cx.pool, offset, model) else { return who };
        let offset = offset as u64 as i64;
        let o = state.memory.object(object);
        // Inside the declared type (a struct member's array overrun) the
        // source's own indexing names it; past the object, the element
        // count in units of the access.
        let at = match u64::try_from(offset)
            .ok()
            .and_then(|off| crate::report::dwarf_witness::element_label(&self.cx.module.debug_types, &o.name, o.size, off))
        {
            Some(at) => format!("at {at}"),
            None => format!("at element {}", offset.div_euclid(len.max(1) as i64)),
        };
        format!("{who}, {at} (byte offset {offset})")
    }
}
