//! x86 SIMD intrinsics (`llvm.x86.*`) that clang leaves as calls. Their
//! semantics are rows in the simd module; this file dispatches, and says
//! which result lanes are defined when some argument bits are not.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::ExprId;
use crate::expr::Leaf;
use crate::ir::Type;
use crate::memory::shadow::{any_bit, Shadow};
use crate::simd::{lower_x86, Lowered};
use rustc_hash::{FxHashMap, FxHashSet};

impl<'m> Executor<'m> {
    pub(in crate::exec) fn call_x86(&mut self, state: &mut State, c: &CallCtx) -> Option<Result<Option<Value>, Step>> {
        match lower_x86(&mut self.cx.pool, c.name, &c.args, &c.inst.ty) {
            // Intrinsics without a result (fences, vzeroupper) give no lanes.
            Lowered::Value(v) if v.is_empty() => Some(Ok(None)),
            Lowered::Value(v) => Some(Ok(Some(v))),
            Lowered::Masked(m) => Some(self.masked_access(state, c, m)),
            Lowered::Unsupported(msg) => Some(Err(self.unsupported(state, c.inst.loc, msg))),
            Lowered::NotX86 => None,
        }
    }
}

impl<'m> Executor<'m> {
    /// The shadow of each lane of an `llvm.x86.*` result: indeterminate
    /// exactly when an argument lane that the lane's model reads has an
    /// indeterminate bit. The model is built again with a fresh value for
    /// every argument lane that has one, so the fresh values a result lane
    /// mentions are the lanes it depends on (PSLLW reads only the low 64
    /// bits of its count; CVTTSD2SI only lane 0). None when the name is not
    /// an x86 intrinsic or the model cannot be rebuilt that way; the caller
    /// then marks every lane.
    pub(in crate::exec) fn x86_result_mask(
        &mut self,
        name: &str,
        shadows: &[Option<Shadow>],
        args: &[Value],
        ret: &Type,
        result: &Value,
    ) -> Option<Value> {
        if !name.starts_with("llvm.x86.") {
            return None;
        }
        let p = &mut self.cx.pool;
        let mut stand_ins: FxHashMap<Leaf, ExprId> = FxHashMap::default();
        let mut generic = Vec::with_capacity(args.len());
        for (arg, shadow) in args.iter().zip(shadows) {
            let Some(s) = shadow.as_ref().filter(|s| s.mask.len() == arg.len()) else {
                if shadow.is_some() {
                    return None;
                }
                generic.push(arg.clone());
                continue;
            };
            let mut lanes = Value::with_capacity(arg.len());
            for (lane, mask) in arg.iter().zip(s.mask.iter()) {
                if p.as_const(*mask) == Some(0) {
                    lanes.push(*lane);
                    continue;
                }
                let fresh = p.fresh(p.width(*lane));
                let crate::expr::Expr::Fresh { id, width } = *p.get(fresh) else { return None };
                stand_ins.insert(Leaf::Fresh { id, width }, any_bit(p, *mask));
                lanes.push(fresh);
            }
            generic.push(lanes);
        }
        let Lowered::Value(lanes) = lower_x86(p, name, &generic, ret) else { return None };
        if lanes.len() != result.len() {
            return None;
        }
        // Any indeterminate argument bit, for lanes whose model says
        // nothing of what they read.
        let mut all = p.constant(1, 0);
        for bad in stand_ins.values() {
            all = p.or(all, *bad);
        }
        let mut mask = Value::with_capacity(lanes.len());
        for (lane, out) in lanes.iter().zip(result.iter()) {
            let mut read = FxHashSet::default();
            p.leaves_of(*lane, &mut read);
            let mut any = p.constant(1, 0);
            for leaf in &read {
                match stand_ins.get(leaf) {
                    Some(bad) => any = p.or(any, *bad),
                    // A fresh value of the model's own (RCPPS's
                    // approximation) hides what the lane reads: every
                    // argument bit counts.
                    None if matches!(leaf, Leaf::Fresh { .. }) => any = p.or(any, all),
                    None => {}
                }
            }
            let w = p.width(*out);
            mask.push(p.sext(any, w));
        }
        Some(mask)
    }
}
