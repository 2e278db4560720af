//! When one work-group stands for all of them. Groups of an NDRange differ
//! only in their group ids and in the global memory they share; a kernel
//! that never asks for a group-dependent id (`get_group_id`,
//! `get_global_id`, ...) and never holds a pointer to global memory runs
//! the same in every group: same local ids, same arguments, its own fresh
//! `__local` memory, nothing seen from another group. Enumerating one
//! group then decides the kernel for all, which matters for kernels that
//! compute a lot privately (GPUVerify's multiloop_return: 4096 work-items
//! of 600,000 instructions each, no shared access at all).
//!
//! The test is syntactic and errs on the side of "no": any register or
//! instruction result of a global or generic pointer type, any program
//! variable in global memory, and any call through a pointer disqualify.
//! In CUDA device code a generic pointer is NVPTX's address space 0,
//! which symcross keeps as 0 (address_space.rs): there every pointer of
//! space 0 may reach global memory too (a kernel's `int *` argument).

use crate::ir::{Callee, FuncId, InstKind, Module, Type};

/// OpenCL built-ins whose value depends on the work-group.
const GROUP_DEPENDENT: [&str; 5] = ["get_group_id", "get_global_id", "get_global_offset", "get_global_linear_id", "get_group_linear_id"];

/// Whether every work-group of `kernel` behaves alike (see the module doc).
pub fn groups_alike(module: &Module, kernel: FuncId) -> bool {
    if module.globals.iter().any(|g| shared_space(g.addr_space)) {
        return false;
    }
    let cuda = module.is_cuda();
    let shares = |t: &Type| mentions_shared_pointer(t, cuda);
    let mut seen = vec![false; module.functions.len()];
    let mut todo = vec![kernel];
    while let Some(id) = todo.pop() {
        let Some(done) = seen.get_mut(id.0 as usize) else { return false };
        if std::mem::replace(done, true) {
            continue;
        }
        let f = module.function(id);
        if f.reg_types.iter().any(shares) || f.params.iter().any(|p| shares(&p.ty)) {
            return false;
        }
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            if shares(&inst.ty) {
                return false;
            }
            let InstKind::Call { callee, .. } = &inst.kind else { continue };
            // Built-ins are declared functions, called directly or by name.
            let declared = match callee {
                Callee::Direct(g) if !module.function(*g).is_declaration() => {
                    todo.push(*g);
                    continue;
                }
                Callee::Direct(g) => &module.function(*g).name,
                Callee::External(name) => name,
                Callee::Intrinsic(_) => continue,
                Callee::Indirect(_) | Callee::InlineAsm => return false,
            };
            let plain = crate::ir::demangle(declared).map(|(n, _)| n).unwrap_or(declared);
            if GROUP_DEPENDENT.contains(&plain) {
                return false;
            }
        }
    }
    true
}

/// Global (1) or generic (4) memory, which may be shared between groups.
/// Constant memory (2) is read-only and the same for every group.
fn shared_space(space: u32) -> bool {
    matches!(space, 1 | 4)
}

/// Whether `t` holds a pointer that may reach memory shared between
/// groups; `cuda`: NVPTX's generic pointers (space 0) may.
fn mentions_shared_pointer(t: &Type, cuda: bool) -> bool {
    match t {
        Type::Ptr { addr_space } => shared_space(*addr_space) || (cuda && *addr_space == 0),
        Type::Vector { elem, .. } | Type::Array { elem, .. } => mentions_shared_pointer(elem, cuda),
        Type::Struct { fields, .. } => fields.iter().any(|f| mentions_shared_pointer(f, cuda)),
        _ => false,
    }
}
