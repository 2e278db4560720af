//! The static `__shared__` memory of a CUDA kernel: the `__shared__`
//! arrays with a size (not `extern`) that the kernel or a function it
//! calls names, each once. The runtime model counts it with the launch's
//! dynamic shared memory against the per-block limit, as the toolkit's
//! `sharedSizeBytes` is.

use crate::ir::{Callee, Const, FuncId, GlobalId, Module, Operand, LOCAL_SPACE};
use rustc_hash::FxHashSet;

/// The bytes of static shared memory `kernel` uses, each array placed at
/// its alignment after the ones before it.
pub fn static_shared_bytes(module: &Module, kernel: FuncId) -> u64 {
    let mut seen_functions = FxHashSet::default();
    let mut arrays = FxHashSet::default();
    let mut todo = vec![kernel];
    while let Some(f) = todo.pop() {
        if !seen_functions.insert(f) {
            continue;
        }
        let func = module.function(f);
        let operands = func.blocks.iter().flat_map(|b| b.insts.iter().flat_map(|i| i.kind.operands()).chain(b.term.operands()));
        for op in operands {
            match op {
                Operand::Const(Const::GlobalAddr { global, .. }) if is_static_shared(module, *global) => {
                    arrays.insert(*global);
                }
                Operand::Const(Const::FuncAddr(callee)) => todo.push(*callee),
                _ => {}
            }
        }
        for inst in func.blocks.iter().flat_map(|b| &b.insts) {
            if let crate::ir::InstKind::Call { callee: Callee::Direct(callee), .. } = &inst.kind {
                todo.push(*callee);
            }
        }
    }
    let mut arrays: Vec<GlobalId> = arrays.into_iter().collect();
    arrays.sort();
    arrays.iter().fold(0u64, |end, g| {
        let global = module.global(*g);
        end.next_multiple_of(global.align.max(1)) + global.size
    })
}

/// A `__shared__` array of a size the compile fixed.
fn is_static_shared(module: &Module, g: GlobalId) -> bool {
    let global = module.global(g);
    global.addr_space == LOCAL_SPACE && global.size > 0
}
