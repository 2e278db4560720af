//! The state a run starts from: the module's functions and globals laid
//! out in memory at fixed addresses, globals initialised (relocations
//! resolved to those addresses).

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::expr::{Assignment, ExprId};
use crate::ir::{FuncId, GlobalId, Reloc};
use crate::memory::{Memory, ObjectId, ObjectKind};

impl<'m> Executor<'m> {
    /// Places this module's functions and globals in `memory` (a fresh
    /// state's memory, or a host state's for a nested kernel run).
    pub(in crate::exec) fn lay_out_module(&mut self, memory: &mut Memory) {
        for f in &self.cx.module.functions {
            let id = memory.allocate(&mut self.cx.pool, 1, 16, ObjectKind::Function, f.name.clone());
            self.function_base.push(memory.object(id).base);
        }
        for (i, base) in self.function_base.iter().enumerate() {
            self.function_addr.insert(*base, FuncId(i as u32));
        }
        let mut ids = Vec::new();
        for g in &self.cx.module.globals {
            // A function-local static (a CUDA kernel's `__shared__` array)
            // is named as its source declares it.
            let name = crate::ir::local_static_name(&g.name).map_or_else(|| g.name.clone(), str::to_string);
            // An `extern __shared__` array has no size until a launch from
            // a host program gives it one (cuda_runtime.rs,
            // `place_dynamic_shared`); a kernel run alone reads it as an
            // unsized `__local` buffer, like a `__local` argument given no
            // size, not as an object of 0 bytes.
            let id = if g.is_dynamic_shared() {
                memory.allocate_address_only(&mut self.cx.pool, name, g.addr_space)
            } else {
                memory.allocate(&mut self.cx.pool, g.size, g.align, ObjectKind::Global, name)
            };
            memory.object_mut(id).addr_space = g.addr_space;
            memory.object_mut(id).element = g.element;
            self.global_addr.push(memory.object(id).base);
            ids.push(id);
        }
        for (g, id) in self.cx.module.globals.iter().zip(&ids) {
            self.init_global(memory, g, *id);
        }
    }

    /// A state with the globals laid out and an empty stack.
    pub(in crate::exec) fn memory_state(&mut self) -> State {
        let mut memory = Memory::new();
        self.lay_out_module(&mut memory);
        let state = State {
            id: 0,
            stack: Vec::new(),
            memory,
            path: Vec::new(),
            model: Some(Assignment::default()),
            unconfirmed_path: false,
            steps: 0,
            depth: 0,
            gpu: None,
            merge: Vec::new(),
            checked: false,
            route: Default::default(),
            implied: Default::default(),
            abstracted: false,
            inexact_unsized: None,
            forced_exit: None,
            branch_step: None,
            path_unknown: None,
            streams: None,
        };
        self.next_state_id = 1;
        state
    }

    pub(in crate::exec) fn init_global(&mut self, memory: &mut Memory, g: &crate::ir::Global, id: ObjectId) {
        // CUDA `__constant__` memory is read-only to device code, though
        // clang cannot mark the global constant (the host may set it).
        let read_only = g.constant || (self.cx.module.is_cuda() && g.addr_space == crate::ir::CONSTANT_SPACE);
        let Some(init) = &g.init else {
            // External without initializer: contents unknown but defined.
            memory.object_mut(id).bytes.set_all_written(true);
            memory.object_mut(id).read_only = read_only;
            return;
        };
        let o = memory.object_mut(id);
        let n = (o.size as usize).min(init.len());
        // By page: all-zero pages (most of a large zero-initialised array)
        // stay blank, the others are stored as constants.
        for (k, chunk) in init[..n].chunks(crate::memory::object_bytes::PAGE_BYTES as usize).enumerate() {
            if chunk.iter().any(|b| *b != 0) {
                let bytes: Vec<Option<ExprId>> = chunk.iter().map(|b| Some(self.cx.pool.constant(8, *b as u128))).collect();
                o.bytes.write(&mut self.cx.pool, k as u64 * crate::memory::object_bytes::PAGE_BYTES, &bytes);
            }
        }
        o.bytes.set_all_written(true);
        o.read_only = read_only;
        for (offset, reloc) in &g.relocs {
            let addr = match reloc {
                Reloc::Global { global, offset } => self.global_addr[global.0 as usize].wrapping_add(*offset as u64),
                Reloc::Function(f) => self.function_base[f.0 as usize],
            };
            let o = memory.object_mut(id);
            for k in 0..8 {
                let at = *offset + k;
                if at < (o.size).min(init.len() as u64) {
                    let b = self.cx.pool.constant(8, ((addr >> (8 * k)) & 0xff) as u128);
                    o.bytes.set(&mut self.cx.pool, at, b);
                }
            }
        }
    }

    pub(in crate::exec) fn global_address(&self, g: GlobalId) -> u64 {
        self.global_addr[g.0 as usize]
    }
}
