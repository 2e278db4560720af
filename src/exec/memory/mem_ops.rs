//! Memory instructions: alloca, load, store, GEP, atomics, and the pointer
//! resolution they share. A symbolic address is resolved against the object
//! the current model points into; if the address can leave that object, the
//! path splits: inside continues, outside either lands in another object
//! (the instruction is re-run there) or is an `out-of-bounds` finding. A
//! write that stays inside a read-only object is a `write-to-read-only`
//! finding (read_only.rs).

use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::state::State;
use crate::exec::ops::gep_promises::GepStep;
use crate::exec::ops::int_ops::Exec;
use crate::expr::value::{scalar, Value};
use crate::expr::{evaluate, CmpOp, ExprId};
use crate::ir::{AtomicOp, Function, Inst, Loc, Operand};
use crate::memory::layout::{bytes_to_value, value_to_bytes};
use crate::memory::{Access, Bytes, ObjectId, ObjectKind};
use crate::report::FindingKind;

/// Objects larger than this are accessed at a symbolic offset only after
/// checking whether the offset has a single possible value
/// (single_offset.rs).
pub(super) const SYMBOLIC_OFFSET_PROBE: u64 = 64;

/// Objects of arbitrary contents larger than this are read at a symbolic
/// offset as fresh bytes (store_log.rs, `read_arbitrary`) rather than as a
/// select over every byte, when their bytes are not one input's in order
/// (those are read as the input at a symbolic position, exactly, below).
/// Below it the select is affordable and exact: fresh bytes know nothing
/// of what the path says of the input bytes (an `--arg` range,
/// assumptions), so findings resting on them are not confirmed.
const ARBITRARY_READ_BYTES: u64 = 1 << 20;

/// Objects holding one input's bytes in order and larger than this are
/// read at a symbolic offset as that input at a symbolic position (one
/// node a byte, `ExprPool::input_at`; the solvers read it as an array)
/// rather than as a select over every byte. At or below it the select is
/// kept: a page's select is a few thousand shared nodes, and the passes
/// after execution (sweeping, lane symmetry, exhaustive referees) see
/// plain input bytes, as they always did for small tables.
pub(in crate::exec) const INPUT_AT_BYTES: u64 = 4096;

/// A buffer the host gave in parts (or wholly) is read at a symbolic
/// offset run by run (`byte_of_runs`). When its given bytes are at most
/// this many, each read byte selects over them; past it each given run of
/// more than `INPUT_AT_BYTES` is one given array (`ExprPool::new_given_array`,
/// made by `fill_buffer`), read at a symbolic position as an input is: one
/// node a byte at any size, exact (the solvers hold their guesses of it to
/// the given bytes).
pub(in crate::exec) const GIVEN_SELECT_BYTES: u64 = 1 << 16;

/// How many given bytes of `runs` a read at a symbolic offset selects
/// over (those of runs without a given array).
fn selected_bytes(runs: &[crate::memory::object_bytes::Run]) -> u64 {
    runs.iter()
        .map(|r| if let crate::memory::object_bytes::Run::Fixed { bytes, array: None, .. } = r { bytes.len() as u64 } else { 0 })
        .sum()
}

impl<'m> Executor<'m> {
    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec) fn exec_alloca(
        &mut self,
        state: &mut State,
        func: &Function,
        inst: &Inst,
        elem_size: u64,
        count: &Operand,
        align: u64,
        element: Option<crate::expr::ElementType>,
    ) -> Exec {
        let c = self.operand1(state, func, count);
        // A variable-length array of symbolic length: one path per length
        // (symbolic_size.rs), each with an object of exactly that size.
        let n = match self.cx.pool.as_const(c) {
            Some(n) => n,
            None => u128::from(self.concrete_size(state, c, inst.loc, "the length of a variable-length array")?),
        };
        let name = inst.dest.map(|d| func.reg_names[d.0 as usize].clone()).unwrap_or_default();
        // A size past 64 bits cannot be allocated: the memory limit.
        let size = elem_size.saturating_mul(n as u64);
        self.admit_allocation(size)?;
        let id = state.memory.allocate(&mut self.cx.pool, size, align, ObjectKind::Stack, name);
        // Allocas carry no line of their own at -O0: the function's then.
        state.memory.object_mut(id).alloc_line = Some(if inst.loc.line == 0 { func.loc } else { inst.loc });
        state.memory.object_mut(id).element = element;
        state.frame_mut().allocas.push(id);
        let base = state.memory.object(id).base;
        Ok(scalar(self.cx.pool.constant(64, base as u128)))
    }

    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec) fn exec_gep(
        &mut self,
        state: &mut State,
        func: &Function,
        base: &Operand,
        offset: i64,
        terms: &[(Operand, i64)],
        bounds: &[crate::ir::ArrayBound],
        flags: crate::ir::PoisonFlags,
        loc: Loc,
    ) -> Exec {
        let from = self.operand1(state, func, base);
        let off = self.cx.pool.constant(64, offset as u64 as u128);
        let mut addr = self.cx.pool.add(from, off);
        let start = addr;
        let mut index = smallvec::SmallVec::<[(ExprId, i64); 4]>::new();
        let mut steps = smallvec::SmallVec::<[GepStep; 4]>::new();
        if flags.nuw {
            steps.push(GepStep { before: from, after: addr, index: None });
        }
        for (idx, scale) in terms {
            let i = self.operand1(state, func, idx);
            let i = if self.cx.pool.width(i) < 64 { self.cx.pool.sext(i, 64) } else { self.cx.pool.trunc(i, 64) };
            index.push((i, *scale));
            let s = self.cx.pool.constant(64, *scale as u64 as u128);
            let term = self.cx.pool.mul(i, s);
            let before = addr;
            addr = self.cx.pool.add(addr, term);
            if flags.nuw {
                steps.push(GepStep { before, after: addr, index: Some((i, *scale)) });
            }
        }
        self.check_array_bounds(state, func, base, start, &index, bounds, loc)?;
        if flags.inbounds || flags.nuw {
            self.gep_promise_poison(state, loc, flags, from, addr, &steps);
        }
        Ok(scalar(addr))
    }

    pub(in crate::exec) fn exec_load(&mut self, state: &mut State, func: &Function, inst: &Inst, ptr: &Operand) -> Exec {
        let addr = self.operand1(state, func, ptr);
        let len = inst.ty.store_size();
        let access = self.resolve(state, addr, len, inst.loc, false)?;
        self.breach_after_access(state, func, ptr, addr, &access, inst.loc, "the address of a load")?;
        if let crate::ir::InstKind::Load { align, .. } = inst.kind {
            if !self.constant_and_aligned(addr, align) {
                self.check_alignment(state, addr, &access, len, align, false, inst.loc)?;
            }
        }
        let bytes = self.read_bytes(state, &access, len, inst.loc);
        // The value read matters only to the read-write tolerance.
        let seen = (self.cx.config.benign_read_write && state.gpu.is_some()).then(|| bytes.to_vec());
        self.plain_access(state, func, inst, &inst.ty, &access, len, false, seen);
        if let Some(d) = inst.dest {
            if self.shadow.last_read.is_some() || state.frame().shadow_on {
                self.load_shadow(state, inst, d);
            }
        }
        Ok(bytes_to_value(&mut self.cx.pool, &inst.ty, &bytes))
    }

    pub(in crate::exec) fn exec_store(&mut self, state: &mut State, func: &Function, inst: &Inst, ptr: &Operand, value: &Operand) -> Step {
        let t = self.operand_type(func, value);
        let v = self.operand(state, func, value);
        let addr = self.operand1(state, func, ptr);
        let bytes = value_to_bytes(&mut self.cx.pool, &t, &v);
        let value_shadow = if !self.shadow_active(state) { None } else { self.operand_shadow(state, func, value, inst.loc) };
        let shadow = value_shadow.as_ref().map(|s| (value_to_bytes(&mut self.cx.pool, &t, &s.mask), s.origin));
        match self.resolve(state, addr, bytes.len() as u64, inst.loc, true) {
            Ok(access) => {
                if let Err(step) = self.breach_after_access(state, func, ptr, addr, &access, inst.loc, "the address of a store") {
                    return step;
                }
                // The poison of an undefined operation is not: a kernel's
                // arithmetic on arbitrary buffer contents would all be
                // findings. It is one where it decides something, in the
                // kernel or in the host that reads it back.
                // (`race --check-stored-overflow` makes it one.)
                let undefined = value_shadow.as_ref().is_some_and(|s| self.shadow.is_undefined(s.origin))
                    && !(self.cx.config.stored_overflow_is_use && state.gpu.is_some());
                if let Some(mut s) = value_shadow.filter(|_| !undefined && self.indeterminate_store_is_use(state, access.object)) {
                    // A three-component vector's padding lane is not stored
                    // data (vec3_padding.rs).
                    if let Some(lane) = crate::exec::memory::vec3_padding::widened_vec3_padding(func, value) {
                        if let Some(m) = s.mask.get_mut(lane) {
                            *m = self.cx.pool.constant(self.cx.pool.width(*m), 0);
                        }
                    }
                    let o = state.memory.object(access.object);
                    let at = match self.cx.pool.as_const(access.offset) {
                        Some(off) => {
                            format!(" at {} (byte offset {})", self.element_at(o, off as u64 as i64, bytes.len() as u64), off as u64)
                        }
                        None => String::new(),
                    };
                    let what = format!("the value stored into {} `{}`{at}", o.describe(), o.name);
                    self.uninit_use(state, &s, inst.loc, &what);
                }
                if let crate::ir::InstKind::Store { align, .. } = inst.kind {
                    if !self.constant_and_aligned(addr, align) {
                        if let Err(step) = self.check_alignment(state, addr, &access, bytes.len() as u64, align, true, inst.loc) {
                            return step;
                        }
                    }
                }
                let written: Option<Vec<ExprId>> = bytes.iter().copied().collect();
                self.plain_access(state, func, inst, &t, &access, bytes.len() as u64, true, written);
                self.write_bytes_shadowed(state, &access, &bytes, shadow.as_ref().map(|(m, o)| (&m[..], *o)));
                Step::Continue
            }
            Err(step) => step,
        }
    }

    pub(in crate::exec) fn exec_atomic_rmw(
        &mut self,
        state: &mut State,
        func: &Function,
        inst: &Inst,
        op: AtomicOp,
        ptr: &Operand,
        value: &Operand,
    ) -> Exec {
        let addr = self.operand1(state, func, ptr);
        let x = self.operand1(state, func, value);
        let len = inst.ty.store_size();
        let access = self.resolve(state, addr, len, inst.loc, true)?;
        self.breach_after_access(state, func, ptr, addr, &access, inst.loc, "the address of an atomic operation")?;
        let bytes = self.read_bytes(state, &access, len, inst.loc);
        let old = bytes_to_value(&mut self.cx.pool, &inst.ty, &bytes)[0];
        let p = &mut self.cx.pool;
        let new = match op {
            AtomicOp::Xchg => x,
            AtomicOp::Add => p.add(old, x),
            AtomicOp::Sub => p.sub(old, x),
            AtomicOp::And => p.and(old, x),
            AtomicOp::Nand => {
                let a = p.and(old, x);
                p.not(a)
            }
            AtomicOp::Or => p.or(old, x),
            AtomicOp::Xor => p.xor(old, x),
            AtomicOp::Max | AtomicOp::Min | AtomicOp::UMax | AtomicOp::UMin => {
                let (cmp, want_less) = match op {
                    AtomicOp::Max => (CmpOp::Slt, false),
                    AtomicOp::Min => (CmpOp::Slt, true),
                    AtomicOp::UMax => (CmpOp::Ult, false),
                    _ => (CmpOp::Ult, true),
                };
                let lt = p.cmp(cmp, old, x);
                if want_less {
                    p.ite(lt, old, x)
                } else {
                    p.ite(lt, x, old)
                }
            }
            AtomicOp::FAdd | AtomicOp::FSub => {
                let f = self.float_format(state, inst, &inst.ty)?;
                let o = if op == AtomicOp::FAdd { crate::expr::FBinOp::Add } else { crate::expr::FBinOp::Sub };
                self.cx.pool.fbin(o, f, old, x)
            }
        };
        let out = value_to_bytes(&mut self.cx.pool, &inst.ty, &[new]);
        self.atomic_access(state, &access, len, None, inst.loc);
        self.write_bytes(state, &access, &out);
        Ok(scalar(old))
    }

    pub(in crate::exec) fn exec_cmpxchg(
        &mut self,
        state: &mut State,
        func: &Function,
        inst: &Inst,
        ptr: &Operand,
        expected: &Operand,
        new: &Operand,
    ) -> Exec {
        let t = self.operand_type(func, expected);
        let addr = self.operand1(state, func, ptr);
        let e = self.operand1(state, func, expected);
        let n = self.operand1(state, func, new);
        let access = self.resolve(state, addr, t.store_size(), inst.loc, true)?;
        self.breach_after_access(state, func, ptr, addr, &access, inst.loc, "the address of an atomic operation")?;
        let bytes = self.read_bytes(state, &access, t.store_size(), inst.loc);
        let old = bytes_to_value(&mut self.cx.pool, &t, &bytes)[0];
        let ok = self.cx.pool.eq(old, e);
        let stored = self.cx.pool.ite(ok, n, old);
        let out = value_to_bytes(&mut self.cx.pool, &t, &[stored]);
        self.atomic_access(state, &access, t.store_size(), Some(ok), inst.loc);
        self.write_bytes(state, &access, &out);
        Ok(smallvec::smallvec![old, ok])
    }

    /// Finds the object `addr` points into and checks that `len` bytes fit
    /// and, for a write, that the object is not read-only (read_only.rs).
    pub(in crate::exec) fn resolve(&mut self, state: &mut State, addr: ExprId, len: u64, loc: Loc, is_write: bool) -> Result<Access, Step> {
        if let Some(a) = self.cx.pool.as_const(addr) {
            if let Some(placed) = self.resolve_constant_inside(state, a as u64, len, loc, is_write) {
                return placed;
            }
        }
        let addr = self.split_pointer_select(state, addr)?;
        let candidate = match self.cx.pool.as_const(addr) {
            Some(a) => a as u64,
            None => match self.current_model(state) {
                Some(m) => evaluate(&self.cx.pool, addr, &m) as u64,
                None => return Err(self.unsupported(state, loc, "pointer whose value no solver could find".into())),
            },
        };
        let what = if is_write { "write" } else { "read" };
        let Some(obj) = state.memory.object_near(candidate) else {
            let msg = if candidate < 0x1_0000 {
                format!("{what} of {len} bytes through a null or invalid pointer (address {candidate:#x})")
            } else {
                format!("{what} of {len} bytes at address {candidate:#x}, which is in no object")
            };
            let model = if self.cx.pool.is_const(addr) { None } else { self.current_model(state) };
            if model.is_some() {
                // The finding is at this address: the path says so, so that
                // what judges the witness (a device's havoc) sees the
                // address's dependence too.
                let at = self.cx.pool.constant(64, candidate as u128);
                let here = self.cx.pool.eq(addr, at);
                state.path.push(here);
            }
            self.report(state, FindingKind::OutOfBounds, loc, msg, model.as_ref(), None);
            return Err(Step::Terminated);
        };
        let o = state.memory.object(obj);
        let (base, size, kind, freed) = (o.base, o.size, o.kind, o.freed);
        if freed || kind == ObjectKind::Function {
            let (k, msg) = if freed {
                (FindingKind::UseAfterFree, format!("{what} of {len} bytes in {} `{}` after it was freed", kind.describe(), o.name))
            } else {
                (FindingKind::OutOfBounds, format!("{what} through a function pointer"))
            };
            let free_line = o.free_line;
            if let Some(f) = self.report(state, k, loc, msg, None, None) {
                f.related.clear();
                if let Some(fl) = free_line {
                    let l = self.cx.location(fl);
                    if let Some(f) = self.log.findings.last_mut() {
                        f.related.push(crate::report::Related { message: "freed here".into(), location: l });
                    }
                }
            }
            return Err(Step::Terminated);
        }
        if let Some(what) = is_write.then(|| self.stray_write_into_spared(state, obj)).flatten() {
            // No instruction writes this object, so the address was
            // computed from another object and left it; pair mode's havoc
            // relies on that (havoc.rs).
            let msg = format!("write of {len} bytes into {what}: the address left the object it was computed from");
            let model = if self.cx.pool.is_const(addr) { None } else { self.current_model(state) };
            self.report(state, FindingKind::OutOfBounds, loc, msg, model.as_ref(), None);
            return Err(Step::Terminated);
        }
        let base_e = self.cx.pool.constant(64, base as u128);
        let offset = self.cx.pool.sub(addr, base_e);
        if o.address_only {
            // An unsized buffer has no end, but it starts at its base, as
            // every buffer the host allocates does: a negative offset is
            // out of bounds.
            // An offset whose structure keeps it at 0 or more (an id, a
            // counter's slot, a zero-extended index) needs no query.
            let from_start = self.cx.pool.cmp(CmpOp::Ule, base_e, addr);
            let nonnegative = self.shadow.operand_ranges.range(&self.cx.pool, offset).signed.lo >= 0;
            if !nonnegative && self.cx.pool.as_const(from_start) != Some(1) {
                let (inside, outside) = self.branch(state, from_start);
                if let Some(mut out) = outside {
                    self.before_unsized_start(&mut out, offset, obj, len, loc, what);
                }
                match inside {
                    Some(s) => *state = s,
                    None => return Err(Step::Terminated),
                }
            }
            self.check_writable(state, obj, offset, len, loc, is_write)?;
            return Ok(Access { object: obj, offset });
        }
        let in_bounds = if size >= len {
            let last = self.cx.pool.constant(64, (size - len) as u128);
            self.cx.pool.cmp(CmpOp::Ule, offset, last)
        } else {
            self.cx.pool.bool_const(false)
        };
        // An offset whose range (from its structure: an index clamped, a
        // count shifted) lies inside needs no query.
        let inside_by_range = size >= len && self.shadow.operand_ranges.range(&self.cx.pool, offset).unsigned.hi <= (size - len) as i128;
        if self.cx.pool.as_const(in_bounds) == Some(1) || inside_by_range {
            self.check_writable(state, obj, offset, len, loc, is_write)?;
            return Ok(Access { object: obj, offset });
        }
        let (inside, outside) = self.branch(state, in_bounds);
        // Whether the outside part re-runs on another object is the
        // model's choice (shard.rs): both parts' routes are frozen.
        let model_decides = outside.is_some();
        if let Some(mut out) = outside {
            self.freeze_route(&mut out);
            self.outside_object(&mut out, addr, obj, len, loc, what);
        }
        match inside {
            Some(mut s) => {
                if model_decides {
                    self.freeze_route(&mut s);
                }
                *state = s;
                // Only the part inside the object writes into it.
                self.check_writable(state, obj, offset, len, loc, is_write)?;
                Ok(Access { object: obj, offset })
            }
            None => Err(Step::Terminated),
        }
    }

    /// The part of a path where an access leaves its object: another object
    /// (re-run the instruction there) or an out-of-bounds finding.
    fn outside_object(&mut self, out: &mut State, addr: ExprId, obj: ObjectId, len: u64, loc: Loc, what: &str) {
        let model = self.current_model(out);
        if let Some(m) = &model {
            let a = evaluate(&self.cx.pool, addr, m) as u64;
            if let Some(other) = out.memory.object_near(a) {
                let o = out.memory.object(other);
                // Not into an object pair mode's havoc spares (a buffer
                // or `__local` variable no instruction writes): a write
                // there is out of bounds of its own object (havoc.rs).
                let spared = what == "write" && self.stray_write_into_spared(out, other).is_some();
                if other != obj && a >= o.base && a + len <= o.base + o.size && !spared {
                    out.frame_mut().pc -= 1;
                    self.pending.push(out.clone());
                    return;
                }
            }
        }
        let o = out.memory.object(obj);
        let base = self.cx.pool.constant(64, o.base as u128);
        let offset = self.cx.pool.sub(addr, base);
        let site = self.kernel_access_site(out, obj, offset, len, model.as_ref());
        let picture = self.out_of_bounds_site(out, obj, offset, len, what, model.as_ref());
        let o = out.memory.object(obj);
        let msg = format!("{what} of {len} bytes outside {} object `{}` of {} bytes{site}", o.describe(), o.name, o.size);
        if let Some(f) = self.report(out, FindingKind::OutOfBounds, loc, msg, model.as_ref(), None) {
            f.kernel_site = picture;
        }
    }

    /// The part of a path where an access to an unsized buffer is at a
    /// negative offset: an out-of-bounds finding.
    fn before_unsized_start(&mut self, out: &mut State, offset: ExprId, obj: ObjectId, len: u64, loc: Loc, what: &str) {
        let model = self.current_model(out);
        let site = self.kernel_access_site(out, obj, offset, len, model.as_ref());
        let picture = self.out_of_bounds_site(out, obj, offset, len, what, model.as_ref());
        let o = out.memory.object(obj);
        let msg = format!("{what} of {len} bytes before the start of unsized {} object `{}`{site}", o.describe(), o.name);
        if let Some(f) = self.report(out, FindingKind::OutOfBounds, loc, msg, model.as_ref(), None) {
            f.kernel_site = picture;
        }
    }

    /// The state's model, asking the solver for one if the path has none.
    pub(in crate::exec) fn current_model(&mut self, state: &mut State) -> Option<crate::expr::Assignment> {
        if state.model.is_none() {
            let t = self.cx.pool.bool_const(true);
            if let crate::check::Feasibility::Sat(m) = self.cx.decider.feasible(&self.cx.pool, &state.path, t) {
                state.model = Some(m);
            }
        }
        state.model.clone()
    }

    /// The bytes at `access`. Their shadow (which bits are indeterminate,
    /// see shadow.rs) is left in `self.shadow.last_read`.
    pub(in crate::exec) fn read_bytes(&mut self, state: &mut State, access: &Access, len: u64, _loc: Loc) -> Bytes {
        self.shadow.last_read = None;
        if state.memory.object(access.object).address_only {
            return self.read_address_only(state, access, len);
        }
        let offset = self.concrete_offset(state, access);
        self.before_shared_access(state, access.object, offset.map(|o| o as usize..(o + len) as usize));
        if let Some(off) = offset {
            self.constrain_read_elements(state, access.object, Some((off, len)));
        }
        let o = state.memory.object(access.object);
        if let Some(off) = offset {
            let mut bytes = Bytes::new();
            o.bytes.read(&mut self.cx.pool, off, len, &mut bytes);
            if !crate::memory::shadow::range_is_defined(o, off, len) {
                self.shadow.last_read = self.range_shadow(o, off, len);
            }
            return bytes;
        }
        // A symbolic offset. At the offset of a recent write the bytes and
        // masks are that write's (recent_writes.rs), not a select over the
        // object.
        if let Some(f) = o.recent_writes.read(&mut self.cx.pool, access.offset, len) {
            if let Some(origin) = f.origin {
                self.shadow.last_read = Some((f.masks.into_iter().collect(), origin));
            }
            return f.bytes.into_iter().collect();
        }
        // Contents holding one value everywhere (a memset buffer) read as
        // that value at any offset, whatever the object's size.
        let defined = crate::memory::shadow::range_is_defined(o, 0, o.size);
        if let Some(b) = o.bytes.uniform(&mut self.cx.pool, 0, o.size).filter(|_| defined) {
            return smallvec::smallvec![b; len as usize];
        }
        if defined && o.size > SYMBOLIC_OFFSET_PROBE {
            return self.read_through_log(state, access, len);
        }
        if let Some(log) =
            o.bytes.mask_log().filter(|_| o.size > SYMBOLIC_OFFSET_PROBE && crate::memory::shadow::pages_defined(o, 0, o.size))
        {
            // Defined pages below writes of which some had a shadow: bytes
            // and masks both read through the log (mask_log.rs), at the
            // cost of the writes that may be here, not of the object.
            let log = log.clone();
            let bytes = self.read_through_log(state, access, len);
            let zero = self.cx.pool.constant(8, 0);
            let masks: crate::memory::Bytes = (0..len)
                .map(|k| {
                    log.mask_at_symbolic(&mut self.cx.pool, access.offset, k, zero, &mut |p: &mut crate::expr::ExprPool, _| {
                        p.constant(8, 0)
                    })
                })
                .collect();
            if !crate::memory::shadow::is_clean(&self.cx.pool, &masks) {
                self.shadow.last_read = Some((masks, log.origin()));
            }
            return bytes;
        }
        let positions = self.position_count(access.offset, o.size, len);
        if self.admit_symbolic_access(o.size, positions, len, !defined).is_err() {
            // The memory limit: the run stops after this step.
            self.note_symbolic_access_limit(state, access.object, "read");
            let zero = self.cx.pool.constant(8, 0);
            return smallvec::smallvec![zero; len as usize];
        }
        self.constrain_read_elements(state, access.object, None);
        let o = state.memory.object(access.object);
        let shadow = self.object_shadow(o);
        let bytes = o.bytes.to_vec(&mut self.cx.pool);
        let out = self.select_at(access.offset, &bytes, len);
        if let Some((masks, origin)) = shadow {
            let m = self.select_at(access.offset, &masks, len);
            self.shadow.last_read = Some((m, origin));
        }
        out
    }

    /// The bytes at a symbolic offset of an object whose bytes are all
    /// defined: the writes of its store log that may be there over what it
    /// held before them (one value, fresh bytes for arbitrary contents, or
    /// a select over its bytes).
    fn read_through_log(&mut self, state: &mut State, access: &Access, len: u64) -> Bytes {
        let o = state.memory.object(access.object);
        let (size, pending) = (o.size, o.bytes.pending_writes() as u64);
        let zero = self.cx.pool.constant(8, 0);
        if self.admit_expressions(pending.saturating_mul(len).saturating_mul(2)).is_err() {
            self.note_symbolic_access_limit(state, access.object, "read");
            return smallvec::smallvec![zero; len as usize];
        }
        // Only a large object is asked whether it holds one input in
        // order (`base_input_run` walks every page once, then keeps the
        // answer until a page changes).
        let input_run = |o: &crate::memory::MemoryObject| (size > INPUT_AT_BYTES).then(|| o.bytes.base_input_run()).flatten();
        let base: Vec<ExprId> = if let Some(b) = o.bytes.base_uniform(&mut self.cx.pool) {
            vec![b; len as usize]
        } else if let Some((array, first)) = input_run(o) {
            // Exact whatever the size: byte k of the read is the input's
            // byte at first + offset + k. A ranged input's elements these
            // bytes lie in are said to be in its range (buffer_inputs.rs),
            // exactly: not every element, as the select did, nor fresh
            // bytes standing for them, as past 1 MiB.
            let first = self.cx.pool.constant(64, u128::from(first));
            let at = self.cx.pool.add(access.offset, first);
            let bytes: Vec<ExprId> = (0..len)
                .map(|k| {
                    let k = self.cx.pool.constant(64, u128::from(k));
                    let p = self.cx.pool.add(at, k);
                    self.cx.pool.input_at(array, p)
                })
                .collect();
            self.constrain_elements_at(state, access.object, at, len);
            bytes
        } else if let Some(runs) = (size > INPUT_AT_BYTES).then(|| o.bytes.base_layout()).flatten() {
            // A buffer the host gave in parts (listed elements, a file
            // shorter than it) or wholly: each byte is its run's, exactly.
            let cost = (runs.len() as u64 + selected_bytes(&runs)).saturating_mul(len).saturating_mul(2);
            if self.admit_expressions(cost).is_err() {
                self.note_symbolic_access_limit(state, access.object, "read");
                return smallvec::smallvec![zero; len as usize];
            }
            (0..len)
                .map(|k| {
                    let k = self.cx.pool.constant(64, u128::from(k));
                    let p = self.cx.pool.add(access.offset, k);
                    self.byte_of_runs(p, &runs)
                })
                .collect()
        } else if size > ARBITRARY_READ_BYTES && o.bytes.base_is_arbitrary() {
            let name = o.name.clone();
            let o = state.memory.object_mut(access.object);
            let (values, fresh) = o.bytes.read_arbitrary(&mut self.cx.pool, access.offset, len);
            // Within the host's range, when there is one and they are
            // whole elements.
            self.constrain_fresh_elements(state, access.object, access.offset, &fresh);
            // Not tied to the input bytes read at numbers: findings resting
            // on them are not confirmed.
            crate::exec::engine::state::InexactBytes::add(&mut state.inexact_unsized, &name, fresh);
            values
        } else {
            let positions = self.position_count(access.offset, size, len);
            if self.admit_symbolic_access(size, positions, len, false).is_err() {
                self.note_symbolic_access_limit(state, access.object, "read");
                return smallvec::smallvec![zero; len as usize];
            }
            self.constrain_read_elements(state, access.object, None);
            let all = state.memory.object(access.object).bytes.base_to_vec(&mut self.cx.pool);
            self.select_at(access.offset, &all, len).to_vec()
        };
        let o = state.memory.object(access.object);
        o.bytes.resolve_symbolic(&mut self.cx.pool, access.offset, &base).into_iter().collect()
    }

    /// The byte at the symbolic position `p` of an object whose bytes are
    /// `runs` (sorted, covering it): a balanced tree of tests of `p`
    /// against the runs' starts, each leaf the run's byte there.
    fn byte_of_runs(&mut self, p: ExprId, runs: &[crate::memory::object_bytes::Run]) -> ExprId {
        use crate::memory::object_bytes::Run;
        if runs.len() > 1 {
            let mid = runs.len() / 2;
            let start = self.cx.pool.constant(64, u128::from(runs[mid].off()));
            let before = self.cx.pool.cmp(CmpOp::Ult, p, start);
            let lo = self.byte_of_runs(p, &runs[..mid]);
            let hi = self.byte_of_runs(p, &runs[mid..]);
            return self.cx.pool.ite(before, lo, hi);
        }
        match &runs[0] {
            Run::Input { off, array, first, .. } => {
                let shift = self.cx.pool.constant(64, u128::from(u64::from(*first).wrapping_sub(*off)));
                let at = self.cx.pool.add(p, shift);
                self.cx.pool.input_at(*array, at)
            }
            Run::Fixed { off, array: Some(array), .. } => {
                // The given array at the run's position (exact).
                let start = self.cx.pool.constant(64, u128::from(*off));
                let at = self.cx.pool.sub(p, start);
                self.cx.pool.input_at(*array, at)
            }
            Run::Fixed { off, bytes, array: None } => {
                let all: Vec<ExprId> = bytes.iter().map(|&b| ExprId::byte_const(b)).collect();
                if all.iter().all(|b| *b == all[0]) {
                    return all[0];
                }
                let start = self.cx.pool.constant(64, u128::from(*off));
                let at = self.cx.pool.sub(p, start);
                self.select_at(at, &all, 1)[0]
            }
        }
    }

    /// Says, when the memory limit stops an access at a symbolic offset,
    /// which object it would have listed and how to avoid it.
    fn note_symbolic_access_limit(&mut self, state: &State, object: ObjectId, what: &str) {
        let o = state.memory.object(object);
        let way_out = if o.kind == ObjectKind::Buffer {
            format!("give its contents one value (--arg {n}=BYTES:fill:V) or leave the buffer unsized", n = o.name)
        } else {
            "write it at numbers, or make it smaller".to_string()
        };
        let note = format!(
            "memory limit: a {what} at a symbolic offset into {} `{}` ({} bytes) needed a select over its bytes; {way_out}",
            o.describe(),
            o.name,
            o.size
        );
        self.log.note(crate::exec::engine::run_log::NoteKind::PathCut, note);
    }

    /// Bytes `offset..offset + len` of `all`, for a symbolic offset.
    fn select_at(&mut self, offset: ExprId, all: &[ExprId], len: u64) -> Bytes {
        let size = all.len() as u64;
        let mut out = Bytes::with_capacity(len as usize);
        let mut splits = rustc_hash::FxHashMap::default();
        let positions = self.reachable_positions(offset, size - len);
        for k in 0..len as usize {
            let column: Vec<ExprId> = positions.iter().map(|&p| all[p + k]).collect();
            let b = self.select_byte(offset, &positions, &column, 0, positions.len(), &mut splits);
            out.push(b);
        }
        out
    }

    /// How many offsets an access of `len` bytes at `offset` can take in an
    /// object of `size` bytes (`reachable_positions`, without listing them).
    fn position_count(&self, offset: ExprId, size: u64, len: u64) -> u64 {
        let Some(last) = size.checked_sub(len) else { return 0 };
        let (m, r) = crate::memory::offset_residue::residue(&self.cx.pool, offset, 12);
        if r > last {
            return last + 1;
        }
        (last - r) / m + 1
    }

    /// The offsets in `0..=last` that `offset` can take, by its known low
    /// bits (src/memory/offset_residue.rs).
    fn reachable_positions(&self, offset: ExprId, last: u64) -> Vec<usize> {
        let (m, r) = crate::memory::offset_residue::residue(&self.cx.pool, offset, 12);
        let positions: Vec<usize> = (r..=last).step_by(m as usize).map(|p| p as usize).collect();
        if positions.is_empty() {
            // Only an access the path cannot make; keep every position.
            return (0..=last as usize).collect();
        }
        positions
    }

    /// The byte at position `offset` of `bytes`, for an offset known to be
    /// in `lo..hi`: a balanced tree of selects on `offset < mid`, so that
    /// its depth is logarithmic in the object's size (a chain as long as the
    /// object overflowed the stack of every recursive expression operation)
    /// and all the bytes of one access share their conditions.
    fn select_byte(
        &mut self,
        offset: ExprId,
        positions: &[usize],
        bytes: &[ExprId],
        lo: usize,
        hi: usize,
        splits: &mut rustc_hash::FxHashMap<usize, ExprId>,
    ) -> ExprId {
        if hi - lo <= 1 || bytes[lo..hi].iter().all(|b| *b == bytes[lo]) {
            return bytes[lo];
        }
        let mid = lo + (hi - lo) / 2;
        let below = self.select_byte(offset, positions, bytes, lo, mid, splits);
        let above = self.select_byte(offset, positions, bytes, mid, hi, splits);
        let at = positions[mid];
        let cond = *splits.entry(at).or_insert_with(|| {
            let m = self.cx.pool.constant(64, at as u128);
            self.cx.pool.cmp(CmpOp::Ult, offset, m)
        });
        self.cx.pool.ite(cond, below, above)
    }

    /// Writes defined bytes (`None` entries are left alone).
    pub(in crate::exec) fn write_bytes(&mut self, state: &mut State, access: &Access, bytes: &[Option<ExprId>]) {
        self.write_bytes_shadowed(state, access, bytes, None);
    }

    /// Writes bytes whose indeterminate bits are given by `shadow` (masks
    /// laid out as `bytes`, and their origin); None: all defined.
    pub(in crate::exec) fn write_bytes_shadowed(
        &mut self,
        state: &mut State,
        access: &Access,
        bytes: &[Option<ExprId>],
        shadow: Option<(&[Option<ExprId>], crate::memory::OriginId)>,
    ) {
        if state.memory.object(access.object).address_only {
            self.write_address_only(state, access, bytes);
            return;
        }
        let offset = self.concrete_offset(state, access);
        if let Some(off) = offset {
            let o = state.memory.object_mut(access.object);
            o.bytes.write(&mut self.cx.pool, off, bytes);
            match shadow {
                Some((masks, origin)) => self.set_range_shadow(o, off, masks, Some(origin)),
                None if !o.poison.is_empty() => {
                    let zero = self.cx.pool.constant(8, 0);
                    let masks: Vec<Option<ExprId>> = bytes.iter().map(|b| b.map(|_| zero)).collect();
                    self.set_range_shadow(o, off, &masks, None);
                }
                None => {}
            }
            return;
        }
        // A kernel's `__local` object never written so far gets its
        // indeterminate bytes first: it is then not all defined, and the
        // write's masks must cover them.
        self.before_shared_access(state, access.object, None);
        let o = state.memory.object(access.object);
        let pages_defined = crate::memory::shadow::pages_defined(o, 0, o.size);
        let defined = crate::memory::shadow::range_is_defined(o, 0, o.size);
        let shadow = match shadow {
            Some((masks, _)) if defined && o.size > INPUT_AT_BYTES && self.no_mask_bit_set(state, masks) => None,
            s => s,
        };
        // Masks wait in the mask log beside the store log (mask_log.rs)
        // in objects past `INPUT_AT_BYTES` whose pages are all defined;
        // smaller ones keep the rewrite of every byte, which is cheap.
        let masks_logged = pages_defined && o.size > INPUT_AT_BYTES && (shadow.is_some() || o.bytes.mask_log().is_some());
        if (defined && shadow.is_none() || masks_logged) && o.size > SYMBOLIC_OFFSET_PROBE {
            // Every byte defined in the pages before and after: the write
            // (and its masks, when it has a shadow) waits in the object's
            // store log, read through when read.
            let cost = if shadow.is_some() { 4 } else { 2 } * bytes.len() as u64;
            if self.admit_expressions(cost).is_err() {
                return;
            }
            self.before_shared_access(state, access.object, None);
            let o = state.memory.object_mut(access.object);
            match shadow {
                Some((masks, origin)) => o.bytes.write_symbolic_shadowed(&mut self.cx.pool, access.offset, bytes, masks, origin),
                None => o.bytes.write_symbolic(&mut self.cx.pool, access.offset, bytes),
            }
            return;
        }
        let positions = self.position_count(access.offset, o.size, bytes.len() as u64);
        if self.admit_symbolic_access(o.size, positions, bytes.len() as u64, !defined || shadow.is_some()).is_err() {
            // The memory limit: the run stops after this step.
            self.note_symbolic_access_limit(state, access.object, "write");
            return;
        }
        self.before_shared_access(state, access.object, None);
        let kept = state.memory.object(access.object).recent_writes.clone();
        let old_shadow = self.object_shadow(state.memory.object(access.object));
        let old = state.memory.object(access.object).bytes.to_vec(&mut self.cx.pool);
        let new = self.store_at(access.offset, &old, bytes);
        let masks = if old_shadow.is_some() || shadow.is_some() {
            let zero = self.cx.pool.constant(8, 0);
            let (old_masks, old_origin) = match old_shadow {
                Some((m, o)) => (m, Some(o)),
                None => (vec![zero; old.len()], None),
            };
            let new_masks: Vec<Option<ExprId>> = match shadow {
                Some((m, _)) => m.to_vec(),
                None => bytes.iter().map(|b| b.map(|_| zero)).collect(),
            };
            let merged: Vec<Option<ExprId>> = self.store_at(access.offset, &old_masks, &new_masks).into_iter().map(Some).collect();
            shadow.map(|(_, o)| o).or(old_origin).map(|origin| (merged, origin))
        } else {
            None
        };
        let new: Vec<Option<ExprId>> = new.into_iter().map(Some).collect();
        let o = state.memory.object_mut(access.object);
        o.bytes.write(&mut self.cx.pool, 0, &new);
        if let Some((masks, origin)) = masks {
            self.set_range_shadow(o, 0, &masks, Some(origin));
        }
        let zero = self.cx.pool.constant(8, 0);
        let write_masks = (0..bytes.len()).map(|k| shadow.and_then(|(m, _)| m[k]).unwrap_or(zero)).collect();
        let write = crate::memory::recent_writes::RecentWrite {
            offset: access.offset,
            bytes: bytes.into(),
            masks: write_masks,
            origin: shadow.map(|(_, o)| o),
        };
        state.memory.record_symbolic_write(access.object, kept, write);
    }

    /// Whether no bit of `masks` (a value's indeterminate bits, by byte)
    /// can be set on the path of `state`: the value is then defined here,
    /// and a write of it at a symbolic offset may wait in the store log
    /// (which keeps no masks) rather than rewrite every byte of the object.
    /// One query, asked only for objects larger than `INPUT_AT_BYTES`: a
    /// tiled transpose's read of its padded `__local` tile carries masks
    /// that are zero at every place it reads, and listing its 4 MiB output
    /// at the store took 1.5 GB. Unknown keeps the masks.
    fn no_mask_bit_set(&mut self, state: &State, masks: &[Option<ExprId>]) -> bool {
        let mut any = self.cx.pool.constant(1, 0);
        for m in masks.iter().flatten() {
            let b = crate::memory::shadow::any_bit(&mut self.cx.pool, *m);
            any = self.cx.pool.or(any, b);
        }
        match self.cx.pool.as_const(any) {
            Some(v) => v == 0,
            None => matches!(self.cx.decider.feasible(&self.cx.pool, &state.path, any), crate::check::Feasibility::Unsat),
        }
    }

    /// `old` with `bytes` written at a symbolic offset.
    fn store_at(&mut self, offset: ExprId, old: &[ExprId], bytes: &[Option<ExprId>]) -> Vec<ExprId> {
        let size = old.len() as u64;
        let len = bytes.len() as u64;
        let mut new = old.to_vec();
        if size >= len {
            for p in self.reachable_positions(offset, size - len) {
                let c = self.cx.pool.constant(64, p as u128);
                let hit = self.cx.pool.eq(offset, c);
                for (k, b) in bytes.iter().enumerate() {
                    if let Some(b) = b {
                        new[p + k] = self.cx.pool.ite(hit, *b, new[p + k]);
                    }
                }
            }
        }
        new
    }

    /// Reads `len` bytes at a concrete or symbolic address as a value of `t`.
    pub(in crate::exec) fn load_value(&mut self, state: &mut State, addr: ExprId, t: &crate::ir::Type, loc: Loc) -> Result<Value, Step> {
        let len = t.store_size();
        let access = self.resolve(state, addr, len, loc, false)?;
        let bytes = self.read_bytes(state, &access, len, loc);
        Ok(bytes_to_value(&mut self.cx.pool, t, &bytes))
    }
}
