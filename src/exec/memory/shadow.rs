//! Uninitialised values in the style of MemorySanitizer. Every register
//! may carry a *shadow*: one mask per lane, a set bit meaning that bit of
//! the value is indeterminate (it comes from memory never written, or from
//! `undef`/`poison`), and the *origin* of those bits (the allocation or the
//! `undef`). Loading, storing, copying, inserting, shuffling and blending
//! indeterminate bits is silent: their shadow travels with them (through
//! memory too, see shadow_mem.rs). Only where such bits decide something
//! (a branch, an address, a divisor, a check, an argument of a library
//! function, the exit status) is an `uninitialized-read` finding reported.
//!
//! Shadows are kept only where they are not zero: a frame holds a map from
//! register to shadow, empty in code that never touched indeterminate
//! bits, and a function that mentions no `undef` runs with one extra test
//! per instruction. A shadow is an expression like the value itself, so
//! it is exact across merged paths and symbolic offsets; at a use, a shadow
//! that is not constant is asked of the solver ("can a bit be set here?").

use crate::check::Feasibility;
use crate::exec::engine::device::DeviceState;
use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::{BinOp, ExprId, ExprPool};
use crate::ir::{CastOp, Const, FuncId, Function, InstKind, Loc, Operand, RegId};
use crate::memory::shadow::{any_bit, has_undef, is_clean, smear, upward, zeros_like, Shadow};
use crate::memory::OriginId;
use crate::report::FindingKind;

impl<'m> Executor<'m> {
    /// Whether shadows need computing in the current frame: it holds some,
    /// or its function mentions `undef`.
    #[inline]
    pub(in crate::exec) fn shadow_active(&self, state: &State) -> bool {
        state.frame().shadow_on
    }

    /// The shadow of an operand, None when fully defined.
    #[inline(never)]
    pub(in crate::exec) fn operand_shadow(&mut self, state: &State, func: &Function, op: &Operand, loc: Loc) -> Option<Shadow> {
        match op {
            Operand::Reg(r) => state.frame().shadows.get(r).cloned(),
            Operand::Const(c) => {
                if !has_undef(op) {
                    return None;
                }
                let v = self.const_value(c);
                let mut mask = Value::new();
                const_mask(&mut self.cx.pool, c, &mut mask);
                if is_clean(&self.cx.pool, &mask) || mask.len() != v.len() {
                    return None;
                }
                let origin = self.undef_origin(func, loc);
                Some(Shadow { mask, origin })
            }
        }
    }

    pub(in crate::exec) fn undef_origin(&mut self, func: &Function, loc: Loc) -> OriginId {
        let what = format!("an undefined value in `{}` (a variable never assigned, or an `undef`/`poison` lane)", func.name);
        self.shadow.intern(what, Some(loc), "appears here")
    }

    /// The origin naming a memory object.
    pub(in crate::exec) fn object_origin(&mut self, o: &crate::memory::MemoryObject) -> OriginId {
        let what = format!("{} `{}`", o.describe(), o.name);
        self.shadow.intern(what, o.alloc_line, "allocated here")
    }

    /// Records (or clears) the shadow of a register of the current frame.
    #[inline(never)]
    pub(in crate::exec) fn set_shadow(&mut self, state: &mut State, reg: RegId, s: Option<Shadow>) {
        let frame = state.frame_mut();
        let shadows = &mut frame.shadows;
        match s {
            Some(s) if !is_clean(&self.cx.pool, &s.mask) => {
                shadows.insert(reg, s);
                frame.shadow_on = true;
            }
            _ => {
                if !shadows.is_empty() {
                    shadows.remove(&reg);
                }
            }
        }
    }

    /// Sets the shadow of `dest`, just written by `inst`.
    #[inline(never)]
    pub(in crate::exec) fn shadow_result(&mut self, state: &mut State, func: &Function, inst: &crate::ir::Inst, dest: RegId) {
        if let InstKind::Load { .. } = inst.kind {
            return; // exec_load set it
        }
        let v = state.frame().regs[dest.0 as usize].clone().unwrap_or_default();
        let s = self.propagate_shadow(state, func, inst, &v);
        self.set_shadow(state, dest, s);
    }

    /// A load wrote `dest`: its shadow is that of the bytes read.
    #[inline(never)]
    pub(in crate::exec) fn load_shadow(&mut self, state: &mut State, inst: &crate::ir::Inst, dest: RegId) {
        let s = self.shadow.last_read.take().map(|(bytes, origin)| {
            let mask = crate::memory::layout::bytes_to_value(&mut self.cx.pool, &inst.ty, &bytes);
            Shadow { mask, origin }
        });
        self.set_shadow(state, dest, s);
    }

    /// The shadow of the result of `inst` (not a load, call, store or phi), from
    /// the shadows of its operands.
    pub(in crate::exec) fn propagate_shadow(
        &mut self,
        state: &State,
        func: &Function,
        inst: &crate::ir::Inst,
        result: &Value,
    ) -> Option<Shadow> {
        self.shadow.last_read = None;
        let ops = inst.kind.operands();
        let shadows: Vec<Option<Shadow>> = ops.iter().map(|o| self.operand_shadow(state, func, o, inst.loc)).collect();
        // One origin names the result's indeterminate bits: uninitialised
        // ones before the poison of an undefined operation, so that bits
        // mixed from both are never blamed on an operation that did not
        // happen (the finding is then an uninitialised read).
        let first = match shadows.iter().flatten().next() {
            Some(s) => s.origin,
            // A negative shuffle mask entry is a poison lane of its own,
            // whatever the operands hold.
            None if matches!(&inst.kind, InstKind::ShuffleVector { mask, .. } if mask.iter().any(|&m| m < 0)) => {
                self.undef_origin(func, inst.loc)
            }
            None => return None,
        };
        // Bits not known to be indeterminate (pair mode's `__local` bytes
        // after a barrier) name the mix: a use is then a warning, never a
        // finding resting on bytes some work-item may have written.
        let origin = shadows
            .iter()
            .flatten()
            .map(|s| s.origin)
            .find(|o| self.shadow.is_unchecked(*o))
            .or_else(|| shadows.iter().flatten().map(|s| s.origin).find(|o| !self.shadow.is_undefined(*o)))
            .unwrap_or(first);
        let values: Vec<Value> = ops.iter().map(|o| self.operand(state, func, o)).collect();
        // The mask of each operand: zeros when it has none (and all ones,
        // to stay on the safe side, should a mask not match its value).
        let p = &mut self.cx.pool;
        let masks: Vec<Value> = shadows
            .iter()
            .zip(&values)
            .map(|(s, v)| match s {
                Some(s) if s.mask.len() == v.len() => s.mask.clone(),
                Some(_) => v.iter().map(|l| p.constant(p.width(*l), crate::expr::mask(p.width(*l)))).collect(),
                None => zeros_like(p, v),
            })
            .collect();
        let mask = match &inst.kind {
            InstKind::ExtractElement { .. }
            | InstKind::InsertElement { .. }
            | InstKind::ShuffleVector { .. }
            | InstKind::ExtractValue { .. }
            | InstKind::InsertValue { .. } => self.lane_shadow(func, inst, &masks, &values),
            kind => self.arith_shadow(kind, &masks, &values, result)?,
        };
        Some(Shadow { mask, origin })
    }

    /// Arithmetic, comparisons, casts, selects and address computations.
    fn arith_shadow(&mut self, kind: &InstKind, m: &[Value], v: &[Value], result: &Value) -> Option<Value> {
        let p = &mut self.cx.pool;
        let n = result.len();
        Some(match kind {
            InstKind::Int { op, .. } => (0..n).map(|i| int_shadow(p, *op, v[0][i], v[1][i], m[0][i], m[1][i])).collect(),
            InstKind::Float { .. } => (0..n)
                .map(|i| {
                    let s = p.or(m[0][i], m[1][i]);
                    let w = p.width(result[i]);
                    smear(p, s, w)
                })
                .collect(),
            InstKind::FNeg(_) => m[0].clone(),
            InstKind::ICmp { .. } | InstKind::FCmp { .. } => (0..n)
                .map(|i| {
                    let s = p.or(m[0][i], m[1][i]);
                    any_bit(p, s)
                })
                .collect(),
            InstKind::Cast { op, .. } => self.cast_shadow(*op, &m[0], result),
            InstKind::Select { .. } => (0..n)
                .map(|i| {
                    // A scalar condition selects whole vectors or aggregates.
                    let (c, sc) = if v[0].len() == 1 { (v[0][0], m[0][0]) } else { (v[0][i], m[0][i]) };
                    let chosen = p.ite(c, m[1][i], m[2][i]);
                    if p.as_const(sc) == Some(0) {
                        return chosen;
                    }
                    // An indeterminate condition: every bit where the sides
                    // differ, or either side is indeterminate.
                    let differ = p.xor(v[1][i], v[2][i]);
                    let either = p.or(m[1][i], m[2][i]);
                    let blended = p.or(differ, either);
                    p.ite(sc, blended, chosen)
                })
                .collect(),
            InstKind::Gep { .. } | InstKind::Alloca { .. } => {
                let mut any = p.constant(1, 0);
                for l in m.iter().flatten() {
                    let b = any_bit(p, *l);
                    any = p.or(any, b);
                }
                smallvec::smallvec![p.sext(any, 64)]
            }
            // freeze makes indeterminate bits some fixed value; atomics
            // give defined results.
            _ => return None,
        })
    }

    /// Lane and field moves: the masks move as the values do; an
    /// indeterminate index makes every lane it can reach indeterminate.
    fn lane_shadow(&mut self, func: &Function, inst: &crate::ir::Inst, m: &[Value], v: &[Value]) -> Value {
        match &inst.kind {
            InstKind::ExtractElement { .. } => {
                let lane = self.select_lane(&m[0], v[1][0]);
                let p = &mut self.cx.pool;
                let bad = any_bit(p, m[1][0]);
                let w = p.width(lane);
                let bad = p.sext(bad, w);
                smallvec::smallvec![p.or(lane, bad)]
            }
            InstKind::InsertElement { .. } => {
                let (mut sv, i) = (m[0].clone(), v[2][0]);
                let p = &mut self.cx.pool;
                let bad = any_bit(p, m[2][0]);
                match p.as_const(i) {
                    Some(k) => {
                        if let Some(l) = sv.get_mut(k as usize) {
                            *l = m[1][0];
                        }
                    }
                    None => {
                        for (k, l) in sv.iter_mut().enumerate() {
                            let kc = p.constant(p.width(i), k as u128);
                            let hit = p.eq(i, kc);
                            *l = p.ite(hit, m[1][0], *l);
                        }
                    }
                }
                sv.iter()
                    .map(|l| {
                        let w = p.width(*l);
                        let b = p.sext(bad, w);
                        p.or(*l, b)
                    })
                    .collect()
            }
            InstKind::ShuffleVector { mask, .. } => {
                let n = m[0].len();
                let w = inst.ty.scalar_bits();
                mask.iter()
                    .map(|&k| match k {
                        // An undef mask entry gives a poison lane.
                        k if k < 0 => self.cx.pool.constant(w, crate::expr::mask(w)),
                        k if (k as usize) < n => m[0][k as usize],
                        k => m[1][k as usize - n],
                    })
                    .collect()
            }
            InstKind::ExtractValue { aggregate, indices } => {
                let t = self.operand_type(func, aggregate);
                let (start, len) = crate::exec::ops::vector_ops::leaf_range(&t, indices);
                m[0][start..start + len].iter().copied().collect()
            }
            InstKind::InsertValue { aggregate, indices, .. } => {
                let t = self.operand_type(func, aggregate);
                let mut s = m[0].clone();
                let (start, len) = crate::exec::ops::vector_ops::leaf_range(&t, indices);
                s[start..start + len].copy_from_slice(&m[1][..len]);
                s
            }
            _ => unreachable!("lane_shadow of a non-lane instruction"),
        }
    }

    fn cast_shadow(&mut self, op: CastOp, s: &Value, result: &Value) -> Value {
        let p = &mut self.cx.pool;
        let to = result.first().map(|r| p.width(*r)).unwrap_or(1);
        match op {
            CastOp::Trunc => s.iter().map(|x| p.trunc(*x, to)).collect(),
            CastOp::ZExt => s.iter().map(|x| p.zext(*x, to)).collect(),
            CastOp::SExt => s.iter().map(|x| p.sext(*x, to)).collect(),
            CastOp::PtrToInt | CastOp::IntToPtr => s.iter().map(|x| crate::expr::value::resize(p, *x, to)).collect(),
            CastOp::AddrSpaceCast => s.clone(),
            CastOp::BitCast => crate::expr::value::relane(p, s, to),
            _ => s.iter().map(|x| smear(p, *x, to)).collect(),
        }
    }

    /// Lane `i` of `lanes` (a select chain when `i` is symbolic; lane 0 for
    /// an index out of range, as the value).
    fn select_lane(&mut self, lanes: &[ExprId], i: ExprId) -> ExprId {
        let p = &mut self.cx.pool;
        if let Some(k) = p.as_const(i) {
            return *lanes.get(k as usize).unwrap_or(&lanes[0]);
        }
        let mut acc = lanes[0];
        for (k, lane) in lanes.iter().enumerate().skip(1) {
            let kc = p.constant(p.width(i), k as u128);
            let hit = p.eq(i, kc);
            acc = p.ite(hit, *lane, acc);
        }
        acc
    }

    /// The operands of `inst` whose indeterminate bits are a use. Returns
    /// false when the path cannot go on (an undefined operation's poison
    /// decides the use on every input left).
    #[inline(never)]
    pub(in crate::exec) fn check_inst_uses(&mut self, state: &mut State, func: &Function, inst: &crate::ir::Inst) -> bool {
        let (op, what) = match &inst.kind {
            InstKind::Load { ptr, .. } => (ptr, "the address of a load"),
            InstKind::Store { ptr, .. } => (ptr, "the address of a store"),
            InstKind::AtomicRmw { ptr, .. } | InstKind::CmpXchg { ptr, .. } => (ptr, "the address of an atomic operation"),
            InstKind::Int { op: BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem, rhs, .. } => (rhs, "a divisor"),
            InstKind::Alloca { count, .. } => (count, "the size of a stack allocation"),
            InstKind::Call { callee: crate::ir::Callee::Indirect(f), .. } => (f, "a called function pointer"),
            InstKind::Select { cond, folded: true, .. } => (cond, "a branch condition"),
            _ => return true,
        };
        let access =
            matches!(inst.kind, InstKind::Load { .. } | InstKind::Store { .. } | InstKind::AtomicRmw { .. } | InstKind::CmpXchg { .. });
        match self.operand_shadow(state, func, op, inst.loc) {
            // An address a GEP moved out of its object: checked once the
            // access is resolved (exec/ops/gep_promises.rs).
            Some(s) if access && self.is_breach(s.origin) => true,
            Some(s) => self.uninit_use(state, &s, inst.loc, what),
            None => true,
        }
    }

    /// A use of possibly indeterminate bits: an `uninitialized-read` finding
    /// when some bit of `s` can be set on this path, or an
    /// `undefined-behaviour` one when they are the poison of an undefined
    /// operation (exec/ops/undefined.rs). Returns false when the path
    /// cannot go on.
    #[inline(never)]
    pub(in crate::exec) fn uninit_use(&mut self, state: &mut State, s: &Shadow, loc: Loc, what: &str) -> bool {
        if self.shadow.is_undefined(s.origin) {
            return self.undefined_use(state, s, loc, what);
        }
        if self.shadow.is_unchecked(s.origin) {
            self.unchecked_local_use(state, s, loc, what);
            return true;
        }
        self.uninitialized_use(state, s, loc, what);
        true
    }

    fn uninitialized_use(&mut self, state: &mut State, s: &Shadow, loc: Loc, what: &str) {
        let any = s.any_set(&mut self.cx.pool);
        let (witness, confirmed) = match self.cx.pool.as_const(any) {
            Some(0) => return,
            Some(_) => (state.model.clone(), !state.unconfirmed_path),
            None => match self.cx.decider.feasible(&self.cx.pool, &state.path, any) {
                Feasibility::Unsat => return,
                Feasibility::Sat(m) => (Some(m), !state.unconfirmed_path),
                Feasibility::Unknown(_) => (None, false),
            },
        };
        let origin = self.shadow.origin(s.origin);
        let msg = format!("{what} depends on uninitialised bits of {}", origin.what);
        let alloc = origin.loc.filter(|l| l.line != 0).map(|l| self.cx.location(l));
        // The device's doubts (values its model leaves open) weigh the
        // bits' condition too: the path need not mention such a value.
        let device_doubt = state.gpu.as_ref().and_then(|d| {
            let roots: Vec<ExprId> = state.path.iter().copied().chain([any]).collect();
            d.unconfirmable_because(&self.cx.pool, &roots)
        });
        if let Some(f) = self.report(state, FindingKind::UninitializedRead, loc, msg, witness.as_ref(), None) {
            if !confirmed {
                f.status = crate::report::Status::Unconfirmed;
            }
            if let Some(why) = device_doubt {
                f.doubt(&format!("; not confirmed: {why}"));
            }
            if let Some(l) = alloc {
                f.related.insert(0, crate::report::Related { message: format!("{} {}", origin.what, origin.note), location: l });
            }
        }
    }

    /// Calls: the shadows of the arguments (callers skip this when the
    /// frame runs without shadows).
    #[inline(never)]
    pub(in crate::exec) fn arg_shadows(&mut self, state: &State, func: &Function, args: &[Operand], loc: Loc) -> Vec<Option<Shadow>> {
        args.iter().map(|a| self.operand_shadow(state, func, a, loc)).collect()
    }

    /// A function defined in the module was entered: its parameters take
    /// the shadows of the arguments.
    #[inline(never)]
    pub(in crate::exec) fn enter_with_shadows(&mut self, state: &mut State, callee: FuncId, shadows: Vec<Option<Shadow>>) {
        if shadows.iter().all(Option::is_none) {
            return;
        }
        let params: Vec<RegId> = self.cx.module.function(callee).params.iter().map(|p| p.reg).collect();
        for (reg, s) in params.into_iter().zip(shadows) {
            self.set_shadow(state, reg, s);
        }
    }

    /// A call to a function symcross implements: arguments with
    /// indeterminate bits are uses, except for the computations of
    /// `llvm.*` intrinsics and libm, whose results inherit them; copies
    /// (memcpy) carry the shadow of memory themselves.
    #[inline(never)]
    pub(in crate::exec) fn builtin_call_shadows(
        &mut self,
        state: &mut State,
        name: &str,
        shadows: &[Option<Shadow>],
        loc: Loc,
    ) -> Option<OriginId> {
        if shadows.iter().all(Option::is_none) {
            return None;
        }
        let computes = (name.starts_with("llvm.")
            && !name.starts_with("llvm.assume")
            && !name.starts_with("llvm.mem")
            && !name.starts_with("llvm.va_"))
            || self.is_libm(name);
        if computes {
            return shadows.iter().flatten().next().map(|s| s.origin);
        }
        // Built-ins that access memory through a pointer find an address
        // outside its object there (`out-of-bounds`): a GEP's breach is
        // not a use of theirs.
        let accesses = name.starts_with("llvm.mem") || name.starts_with("symcross_");
        for (k, s) in shadows.iter().enumerate() {
            if let Some(s) = s.as_ref().filter(|s| !(accesses && self.is_breach(s.origin))) {
                let what = if name.starts_with("llvm.assume") {
                    "the condition of `llvm.assume`".to_string()
                } else {
                    format!("argument {} of `{name}`", k + 1)
                };
                // A path that cannot go on was made unsatisfiable
                // (undefined.rs): the call finds and proves nothing on it.
                let _ = self.uninit_use(state, s, loc, &what);
            }
        }
        None
    }

    /// The shadow of a call's result that is argument `k` where `cond`
    /// holds and a defined value elsewhere.
    pub(in crate::exec) fn argument_shadow_where(
        &mut self,
        shadows: &[Option<Shadow>],
        k: usize,
        cond: ExprId,
        origin: OriginId,
    ) -> Option<Shadow> {
        let s = shadows.get(k).cloned().flatten()?;
        let p = &mut self.cx.pool;
        let mask = s
            .mask
            .iter()
            .map(|&m| {
                let zero = p.constant(p.width(m), 0);
                p.ite(cond, m, zero)
            })
            .collect();
        Some(Shadow { mask, origin })
    }

    /// The shadow of the result of a computing intrinsic: lane by lane when
    /// every argument has the result's lanes (elementwise `llvm.*`); for
    /// `llvm.x86.*`, each lane from the argument lanes its model reads
    /// (exec/ops/x86.rs); else every lane indeterminate when any argument
    /// bit is. Intrinsics that return their first argument (the
    /// `PassThrough` rows of the `llvm.*` table, exec/ops/intrinsics.rs)
    /// return its shadow.
    #[inline(never)]
    pub(in crate::exec) fn intrinsic_result_shadow(
        &mut self,
        name: &str,
        shadows: &[Option<Shadow>],
        args: &[Value],
        ret: &crate::ir::Type,
        result: &Value,
        origin: OriginId,
    ) -> Option<Shadow> {
        if crate::exec::ops::intrinsics::returns_first_argument(name) {
            return shadows.first().cloned().flatten();
        }
        if let Some(mask) = self.x86_result_mask(name, shadows, args, ret, result) {
            return Some(Shadow { mask, origin });
        }
        let rest = name.strip_prefix("llvm.").unwrap_or(name);
        let p = &mut self.cx.pool;
        let lanewise = !rest.starts_with("x86.") && args.iter().all(|a| a.len() == result.len());
        let mut all = p.constant(1, 0);
        if !lanewise {
            for s in shadows.iter().flatten() {
                for l in &s.mask {
                    let b = any_bit(p, *l);
                    all = p.or(all, b);
                }
            }
        }
        let mask = (0..result.len())
            .map(|i| {
                let mut any = all;
                if lanewise {
                    for s in shadows.iter().flatten() {
                        let b = any_bit(p, s.mask[i]);
                        any = p.or(any, b);
                    }
                }
                let w = p.width(result[i]);
                p.sext(any, w)
            })
            .collect();
        Some(Shadow { mask, origin })
    }

    /// Conditions of branches and switches, and the exit status. Returns
    /// false when the path cannot go on.
    #[inline(never)]
    pub(in crate::exec) fn check_operand_use(&mut self, state: &mut State, func: &Function, op: &Operand, loc: Loc, what: &str) -> bool {
        if !self.shadow_active(state) {
            return true;
        }
        match self.operand_shadow(state, func, op, loc) {
            Some(s) => self.uninit_use(state, &s, loc, what),
            None => true,
        }
    }
}

/// MemorySanitizer's propagation for integer operations, lane by lane.
fn int_shadow(p: &mut ExprPool, op: BinOp, a: ExprId, b: ExprId, sa: ExprId, sb: ExprId) -> ExprId {
    let w = p.width(a);
    match op {
        // A bit of `a & b` is defined when both are, or either is a
        // defined 0.
        BinOp::And => {
            let both = p.and(sa, sb);
            let x = p.and(sa, b);
            let y = p.and(a, sb);
            let xy = p.or(x, y);
            p.or(both, xy)
        }
        // ... and of `a | b` when either is a defined 1.
        BinOp::Or => {
            let both = p.and(sa, sb);
            let nb = p.not(b);
            let na = p.not(a);
            let x = p.and(sa, nb);
            let y = p.and(na, sb);
            let xy = p.or(x, y);
            p.or(both, xy)
        }
        BinOp::Xor => p.or(sa, sb),
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            let moved = match op {
                BinOp::Shl => p.bin(BinOp::Shl, sa, b),
                BinOp::LShr => p.bin(BinOp::LShr, sa, b),
                _ => p.bin(BinOp::AShr, sa, b),
            };
            let amount = smear(p, sb, w);
            p.or(moved, amount)
        }
        BinOp::Add | BinOp::Sub | BinOp::Mul => {
            let s = p.or(sa, sb);
            upward(p, s)
        }
        BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem => {
            let s = p.or(sa, sb);
            smear(p, s, w)
        }
    }
}

/// The shadow of a constant: all ones in `undef` lanes.
fn const_mask(p: &mut ExprPool, c: &Const, out: &mut Value) {
    match c {
        Const::Undef(t) => {
            for w in crate::exec::engine::step::leaf_widths(t) {
                out.push(p.constant(w, crate::expr::mask(w)));
            }
        }
        Const::Vector(items) | Const::Aggregate(items) => {
            for i in items {
                const_mask(p, i, out);
            }
        }
        Const::Int { width, .. } => out.push(p.constant(*width, 0)),
        Const::Float { format, .. } => out.push(p.constant(format.width(), 0)),
        Const::Null | Const::GlobalAddr { .. } | Const::FuncAddr(_) => out.push(p.constant(64, 0)),
    }
}
