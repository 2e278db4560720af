//! What a run exercised, for the vacuity rules of README, "Reading a report":
//! symbolic inputs made, checks reached, and paths that reached none. A
//! check is an element compared by `symcross_check_equal`, a call of
//! `klee_assert`, or the evaluation of a condition that guards a failure
//! call (`assert()` expands to a branch into `__assert_fail`; `if (c)
//! abort();` likewise).

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::ir::{BlockId, Callee, FuncId, InstKind, Module};
use rustc_hash::FxHashSet;

/// Functions whose call is a failed check.
/// (`__symcross_cuda_*`: a CUDA kernel's `assert()` and `__trap()`.)
const FAILURE_CALLS: [&str; 5] = ["__assert_fail", "__assert_rtn", "abort", "__symcross_cuda_assert_fail", "__symcross_cuda_trap"];
/// Functions whose call is a check (failed or not).
const CHECK_CALLS: [&str; 2] = ["symcross_check_equal", "klee_assert"];

/// The name of a call's target when it is a declared-only function.
fn external_name<'m>(module: &'m Module, callee: &'m Callee) -> Option<&'m str> {
    match callee {
        Callee::Direct(f) if module.function(*f).is_declaration() => Some(&module.function(*f).name),
        Callee::External(name) => Some(name),
        _ => None,
    }
}

/// The blocks that call a failure function: a branch into one of them is
/// an assertion being evaluated.
pub(in crate::exec) fn failure_blocks(module: &Module) -> FxHashSet<(FuncId, BlockId)> {
    let mut out = FxHashSet::default();
    for (fi, f) in module.functions.iter().enumerate() {
        for (bi, b) in f.blocks.iter().enumerate() {
            let fails = b.insts.iter().any(|i| match &i.kind {
                InstKind::Call { callee, .. } => external_name(module, callee).is_some_and(|n| FAILURE_CALLS.contains(&n)),
                _ => false,
            });
            if fails {
                out.insert((FuncId(fi as u32), BlockId(bi as u32)));
            }
        }
    }
    out
}

/// Whether the program calls any check or failure function at all.
pub(in crate::exec) fn has_checks(module: &Module) -> bool {
    module.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.insts).any(|i| match &i.kind {
        InstKind::Call { callee, .. } => {
            external_name(module, callee).is_some_and(|n| FAILURE_CALLS.contains(&n) || CHECK_CALLS.contains(&n))
        }
        _ => false,
    })
}

impl<'m> Executor<'m> {
    /// Counts `n` checks reached on this path.
    pub(in crate::exec) fn note_checks(&mut self, state: &mut State, n: u64) {
        self.log.coverage.checks += n;
        state.checked = true;
    }

    /// A conditional branch of `func` from the current block: when one
    /// side fails (calls `__assert_fail` or `abort`), it evaluates a check.
    pub(in crate::exec) fn note_branch(&mut self, state: &mut State, func: FuncId, then: BlockId, otherwise: BlockId) {
        if self.failure_blocks.contains(&(func, then)) || self.failure_blocks.contains(&(func, otherwise)) {
            self.note_checks(state, 1);
        }
    }
}
