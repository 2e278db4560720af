//! Where inside an NDRange a kernel finding happened: the work-item that
//! made the access and the element it reached, so that an out-of-bounds
//! message in a kernel reads `by work-item (3,0,0) of group (1,0,0), at
//! a[1024]` rather than naming the buffer alone; and the same as values
//! (`NdrangeSite`) for the HTML report's NDRange picture.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::exec::opencl::workitems::WorkItem;
use crate::expr::{Assignment, ExprId};
use crate::memory::ObjectId;
use crate::report::{NdrangeSite, SiteAccess};

impl<'m> Executor<'m> {
    /// ` by work-item (l) of group (g)` (` by thread (l) of block (g)` in
    /// CUDA code) for the running work-item, or the empty string outside a
    /// kernel.
    pub(in crate::exec) fn running_item_phrase(&self, state: &State, model: Option<&Assignment>) -> String {
        self.running_item_label(state, model).map(|who| format!(" by {who}")).unwrap_or_default()
    }

    /// `work-item (l) of group (g)` (`thread (l) of block (g)` in CUDA
    /// code) for the running work-item; None outside a kernel.
    pub(in crate::exec) fn running_item_label(&self, state: &State, model: Option<&Assignment>) -> Option<String> {
        let gpu = state.gpu.as_deref()?;
        let item = gpu.items.get(gpu.current)?;
        Some(format!("{} {}", self.item_noun(), self.item_label(item, model)))
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
        let at = self.element_at(state.memory.object(object), offset, len);
        format!("{who}, at {at} (byte offset {offset})")
    }

    /// The NDRange and the running work-item's access of `len` bytes at
    /// `offset` into `object`, past its bounds, as values for pictures;
    /// none outside a kernel.
    pub(in crate::exec) fn out_of_bounds_site(
        &self,
        state: &State,
        object: ObjectId,
        offset: ExprId,
        len: u64,
        access: &str,
        model: Option<&Assignment>,
    ) -> Option<NdrangeSite> {
        let gpu = state.gpu.as_deref()?;
        let item = gpu.items.get(gpu.current)?;
        let o = state.memory.object(object);
        let byte_offset = crate::expr::value_in(&self.cx.pool, offset, model).map(|v| v as u64 as i64);
        let (local_id, group_id) = self.item_ids(item, model);
        Some(NdrangeSite {
            dims: gpu.ndrange.dims,
            local_size: gpu.ndrange.local,
            num_groups: gpu.ndrange.groups,
            buffer: o.name.clone(),
            // Kernel buffers are global memory, as a race site names them.
            space: if o.describe() == "buffer" { "global" } else { o.describe() }.to_string(),
            buffer_bytes: Some(o.size),
            accesses: vec![SiteAccess { access: access.to_string(), local_id, group_id, byte_offset, bytes: len }],
        })
    }

    /// The NDRange and two work-items that disagree on a barrier, each
    /// with where it stopped (`waits at the barrier at line 9`).
    pub(in crate::exec) fn divergence_site(
        &self,
        state: &State,
        items: [(&WorkItem, String); 2],
        model: Option<&Assignment>,
    ) -> Option<NdrangeSite> {
        let gpu = state.gpu.as_deref()?;
        let accesses = items
            .into_iter()
            .map(|(item, stop)| {
                let (local_id, group_id) = self.item_ids(item, model);
                SiteAccess { access: stop, local_id, group_id, byte_offset: None, bytes: 0 }
            })
            .collect();
        Some(NdrangeSite {
            dims: gpu.ndrange.dims,
            local_size: gpu.ndrange.local,
            num_groups: gpu.ndrange.groups,
            buffer: String::new(),
            space: String::new(),
            buffer_bytes: None,
            accesses,
        })
    }

    /// A work-item's local and group ids as values (from `model` when
    /// symbolic); none for ids without a value.
    pub(in crate::exec) fn item_ids(&self, item: &WorkItem, model: Option<&Assignment>) -> (Option<[u64; 3]>, Option<[u64; 3]>) {
        self.id_values(&item.local, &item.group, model)
    }

    /// Local and group ids as values (from `model` when symbolic).
    pub(in crate::exec) fn id_values(
        &self,
        local: &[ExprId; 3],
        group: &[ExprId; 3],
        model: Option<&Assignment>,
    ) -> (Option<[u64; 3]>, Option<[u64; 3]>) {
        let ids = |ids: &[ExprId; 3]| -> Option<[u64; 3]> {
            let v = |e: ExprId| crate::expr::value_in(&self.cx.pool, e, model).map(|v| v as u64);
            Some([v(ids[0])?, v(ids[1])?, v(ids[2])?])
        };
        (ids(local), ids(group))
    }
}
