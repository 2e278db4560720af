//! CUDA `__constant__` memory in a kernel checked alone (`symcross race
//! K.cu`): the host may overwrite it before any launch
//! (`cudaMemcpyToSymbol`), so its initializer is only one of the contents
//! a kernel can see. Each `__constant__` variable holds a symbolic input
//! named after it instead, the same for every thread and block. A host
//! program (`symcross check host.cu`) keeps the initializer, since there
//! the host's own writes are run.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;

impl<'m> Executor<'m> {
    /// Makes every CUDA `__constant__` variable's contents a symbolic
    /// input (module doc); nothing for OpenCL, whose `__constant`
    /// program-scope variables the host cannot set.
    pub(in crate::exec) fn constant_memory_set_by_host(&mut self, state: &mut State) {
        if !self.cx.module.is_cuda() {
            return;
        }
        let module = self.cx.module;
        for (k, g) in module.globals.iter().enumerate() {
            if g.addr_space != crate::ir::CONSTANT_SPACE || g.size == 0 {
                continue;
            }
            let Some(obj) = state.memory.object_near(self.global_addr[k]) else { continue };
            let Ok(size) = u32::try_from(g.size) else { continue };
            let name = crate::ir::local_static_name(&g.name).unwrap_or(&g.name).to_string();
            let array = self.cx.pool.new_array(&name, size);
            if let Some(element) = g.element {
                self.cx.pool.set_element_type(array, element);
            }
            state.memory.object_mut(obj).bytes.fill_input(&mut self.cx.pool, 0, g.size, array, 0);
        }
    }
}
