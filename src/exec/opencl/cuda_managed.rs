//! `__managed__` variables: one variable that host code and kernels both
//! read and write. clang knows the attribute for HIP only, so the CUDA
//! header (symcross_cuda.h) makes such a variable `__device__` and marks
//! it with the annotation `symcross_managed`. When the device side is
//! laid out, the host's shadow of each marked variable is pointed at the
//! device's: the host's accesses reach the one object, and are checked
//! against the stream work that may still run like managed memory's.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::ir::{GlobalId, Module, Reloc};

/// The annotation the header puts on a `__managed__` variable.
const MANAGED: &[u8] = b"symcross_managed";

/// Where clang lists annotated globals: an array of
/// `{ ptr global, ptr annotation, ptr file, i32 line, ptr args }`.
const ANNOTATIONS: &str = "llvm.global.annotations";
/// The bytes of one entry of that array, and where its annotation is.
const ENTRY: u64 = 40;
const ANNOTATION_AT: u64 = 8;

/// The globals of `module` marked `__managed__`.
pub fn managed_globals(module: &Module) -> Vec<GlobalId> {
    let Some(list) = module.global_index.get(ANNOTATIONS).map(|g| module.global(*g)) else { return Vec::new() };
    let target = |at: u64| {
        list.relocs.iter().find(|(o, _)| *o == at).and_then(|(_, r)| match r {
            Reloc::Global { global, offset } => Some((*global, *offset)),
            Reloc::Function(_) => None,
        })
    };
    let mut out = Vec::new();
    for (at, _) in list.relocs.iter().filter(|(o, _)| o % ENTRY == ANNOTATION_AT) {
        let Some((text, from)) = target(*at) else { continue };
        let bytes = module.global(text).init.as_deref().unwrap_or_default();
        let from = usize::try_from(from).unwrap_or(usize::MAX).min(bytes.len());
        let annotation = bytes[from..].split(|&b| b == 0).next().unwrap_or_default();
        if annotation == MANAGED {
            if let Some((variable, 0)) = target(at - ANNOTATION_AT) {
                out.push(variable);
            }
        }
    }
    out
}

impl<'m> Executor<'m> {
    /// Points the host's shadow of each `__managed__` variable at the
    /// device's variable (laid out in `state` at `device_addr`), and lays
    /// out again the host globals whose initializers take its address.
    /// Returns the device variables' addresses.
    pub(super) fn share_managed_variables(&mut self, state: &mut State, device: &Module, device_addr: &[u64]) -> Vec<u64> {
        let mut shared = Vec::new();
        let mut moved = Vec::new();
        for g in managed_globals(device) {
            let name = &device.global(g).name;
            let Some(&host) = self.cx.module.global_index.get(name) else { continue };
            let at = device_addr[g.0 as usize];
            self.global_addr[host.0 as usize] = at;
            shared.push(at);
            moved.push(host);
        }
        let module = self.cx.module;
        for (k, def) in module.globals.iter().enumerate() {
            let names_moved = def.relocs.iter().any(|(_, r)| matches!(r, Reloc::Global { global, .. } if moved.contains(global)));
            if names_moved && !moved.contains(&GlobalId(k as u32)) {
                if let Some(id) = state.memory.object_near(self.global_addr[k]) {
                    self.init_global(&mut state.memory, def, id);
                }
            }
        }
        shared
    }

    /// Whether the object at `base` is a `__managed__` variable.
    pub(super) fn is_managed_variable(&self, base: u64) -> bool {
        self.models.cuda.as_ref().is_some_and(|d| d.managed.contains(&base))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Global;

    fn global(name: &str, size: u64, init: Option<Vec<u8>>, relocs: Vec<(u64, Reloc)>) -> Global {
        Global { name: name.into(), size, align: 8, init, relocs, constant: false, addr_space: 0, loc: Default::default(), element: None }
    }

    #[test]
    fn only_variables_annotated_managed_are() {
        let at = |g: u32, offset: i64| Reloc::Global { global: GlobalId(g), offset };
        let mut module = Module::default();
        module.globals = vec![
            global("counter", 4, Some(vec![0; 4]), vec![]),
            global("other", 4, Some(vec![0; 4]), vec![]),
            global(".str", 17, Some(b"symcross_managed\0".to_vec()), vec![]),
            global(".str1", 6, Some(b"other\0".to_vec()), vec![]),
            global(ANNOTATIONS, 80, Some(vec![0; 80]), vec![(0, at(1, 0)), (8, at(3, 0)), (40, at(0, 0)), (48, at(2, 0))]),
        ];
        module.global_index = module.globals.iter().enumerate().map(|(k, g)| (g.name.clone(), GlobalId(k as u32))).collect();
        assert_eq!(managed_globals(&module), vec![GlobalId(0)]);
    }
}
