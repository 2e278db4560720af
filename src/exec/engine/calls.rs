//! Calls: to module functions, through pointers, and to the functions
//! symcross implements itself. Those are a table of rows (name -> handler):
//! the harness API, allocation, process exit; the models add theirs (libc
//! and printf in env/, the OpenCL host API) through
//! `ModelHooks::model_row`, and OpenCL device built-ins through
//! `ModelHooks::call_model`; libm and `llvm.*` intrinsics are in
//! intrinsics.rs. Each row has its arity (arity.rs), checked at the call. A
//! call to anything else is an `unsupported` finding naming the function.

use crate::exec::engine::arity::{mismatch_message, Arity};
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::model_hooks::ModelHooks;
use crate::exec::engine::state::State;
use crate::expr::value::{scalar, Value};
use crate::expr::{evaluate, ExprId};
use crate::ir::{Callee, Function, Inst, Loc, Operand};
use crate::memory::ObjectKind;
use crate::report::FindingKind;

/// Copies and fills up to this many bytes pass the bytes they write to the
/// models (a race of two equal struct copies is benign); larger ones pass
/// none, sparing a byte list per copy.
const MAX_VALUE_BYTES: u64 = 256;

/// Arguments of a built-in call, already evaluated.
pub struct CallCtx<'a> {
    pub name: &'a str,
    pub args: Vec<Value>,
    pub inst: &'a Inst,
}

/// A built-in function: the engine's rows here, the models' rows
/// (`ModelHooks::model_row`).
pub(in crate::exec) type Handler<'m> = fn(&mut Executor<'m>, &mut State, &CallCtx) -> Result<Option<Value>, Step>;

/// What a call to a function symcross implements resolves to by its name
/// alone (and whether the caller is device code, which some arities
/// depend on): its arity, its row's handler, and whether the intrinsics
/// (`llvm.*`, libm) may claim it. Asked once per name and remembered
/// (`Executor::call_routes`): a kernel's work-items each call
/// `get_global_id`, a host loop `sqrtf` on every pass.
pub(in crate::exec) struct CallRoute<'m> {
    arity: Option<(String, Arity)>,
    handler: Option<Handler<'m>>,
    intrinsic: bool,
}

/// The key of a callee's name in `Executor::call_routes`: where the
/// module holds the name (it lives as long as the run, so its place
/// names it) and whether the caller is device code.
pub(in crate::exec) type RouteKey = (usize, usize, bool);

impl<'m> Executor<'m> {
    /// The built-in functions, by exact name: the handler and the
    /// arguments the C declaration takes (checked at the call, so the
    /// handler may index them). Trailing arguments a handler reads only
    /// when present make a range.
    fn builtin(name: &str) -> Option<(Handler<'m>, Arity)> {
        use Arity::{AtLeast, Between, Exact};
        Some(match name {
            "symcross_make_symbolic" | "make_symbolic" | "klee_make_symbolic" => (Self::builtin_make_symbolic, Between(2, 3)),
            "symcross_assume" | "klee_assume" => (Self::builtin_assume, Exact(1)),
            "symcross_check_equal" => (Self::builtin_check_equal, Between(4, 5)),
            "symcross_check_close" => (Self::builtin_check_close, Exact(6)),
            "__assert_fail" | "__assert_rtn" => (Self::builtin_assert_fail, Exact(4)),
            "klee_assert" => (Self::builtin_klee_assert, Exact(1)),
            "klee_prefer_cex" => (Self::builtin_ignore, Exact(2)),
            "klee_warning" | "klee_warning_once" => (Self::builtin_ignore, Exact(1)),
            "klee_print_expr" => (Self::builtin_ignore, AtLeast(1)),
            "abort" => (Self::builtin_abort, Exact(0)),
            "exit" | "_exit" => (Self::builtin_exit, Exact(1)),
            "malloc" => (Self::builtin_malloc, Exact(1)),
            "calloc" => (Self::builtin_calloc, Exact(2)),
            "realloc" => (Self::builtin_realloc, Exact(2)),
            "free" => (Self::builtin_free, Exact(1)),
            "aligned_alloc" => (Self::builtin_aligned_alloc, Exact(2)),
            "posix_memalign" => (Self::builtin_posix_memalign, Exact(3)),
            "memcpy" | "memmove" => (Self::builtin_memmove, Exact(3)),
            "memset" => (Self::builtin_memset, Exact(3)),
            "memcmp" | "bcmp" => (Self::builtin_memcmp, Exact(3)),
            "fflush" => (Self::builtin_ignore, Exact(1)),
            _ => return Self::model_row(name),
        })
    }

    /// The arity of the built-in a call to `name` reaches, found in the
    /// order `exec_call` dispatches (this table, `llvm.*` and libm, OpenCL
    /// built-ins), with the name to show (OpenCL names demangled). None
    /// when no row claims the call: it is then unsupported, or a function
    /// a kernel declares without defining, either way with no arguments
    /// read. The x86 and AArch64 rows check their operands themselves.
    fn builtin_arity(&self, state: &State, name: &str) -> Option<(String, Arity)> {
        if let Some((_, arity)) = Self::builtin(name) {
            return Some((name.to_string(), arity));
        }
        if let Some(rest) = name.strip_prefix("llvm.") {
            return crate::exec::ops::intrinsics::llvm_arity(rest).map(|a| (name.to_string(), a));
        }
        if let Some(arity) = crate::exec::ops::intrinsics::libm_arity(name) {
            return Some((name.to_string(), arity));
        }
        self.model_arity(state, name)
    }

    /// The route of a call to `name` (`CallRoute`), worked out on its
    /// first call from here.
    fn call_route(&mut self, state: &State, name: &'m str) -> &CallRoute<'m> {
        let key = (name.as_ptr() as usize, name.len(), state.gpu.is_some());
        if !self.call_routes.contains_key(&key) {
            let route = CallRoute {
                arity: self.builtin_arity(state, name),
                handler: Self::builtin(name).map(|(h, _)| h),
                // `call_intrinsic` claims only these names (its libm
                // rows and `llvm.*`); any other it passes on at once.
                intrinsic: name.starts_with("llvm.") || crate::exec::ops::intrinsics::libm_arity(name).is_some(),
            };
            self.call_routes.insert(key, route);
        }
        &self.call_routes[&key]
    }

    pub(in crate::exec) fn exec_call(
        &mut self,
        state: &mut State,
        func: &'m Function,
        inst: &'m Inst,
        callee: &'m Callee,
        args: &'m [Operand],
    ) -> Step {
        let values: Vec<Value> = args.iter().map(|a| self.operand(state, func, a)).collect();
        let shadows = if self.shadow_active(state) { self.arg_shadows(state, func, args, inst.loc) } else { Vec::new() };
        let name: &str = match callee {
            Callee::Direct(f) => {
                let target = self.cx.module.function(*f);
                if !target.is_declaration() {
                    let depth = state.stack.len();
                    let step = self.call_function(state, *f, values, inst.dest, inst.loc);
                    if !shadows.is_empty() && state.stack.len() > depth {
                        self.enter_with_shadows(state, *f, shadows);
                    }
                    return step;
                }
                &target.name
            }
            Callee::Indirect(op) => {
                let ptr = self.operand1(state, func, op);
                let depth = state.stack.len();
                let step = self.call_indirect(state, ptr, values, inst);
                if !shadows.is_empty() && state.stack.len() > depth {
                    let f = state.frame().func;
                    self.enter_with_shadows(state, f, shadows);
                }
                return step;
            }
            Callee::External(name) | Callee::Intrinsic(name) => name,
            Callee::InlineAsm => return self.unsupported(state, inst.loc, "inline assembly".into()),
        };
        let (handler, intrinsic) = {
            let route = self.call_route(state, name);
            // Checked before anything reads an argument (the shadows included).
            if let Some((shown, arity)) = &route.arity {
                if !arity.admits(values.len()) {
                    let msg = mismatch_message(shown, *arity, values.len());
                    return self.unsupported(state, inst.loc, msg);
                }
            }
            (route.handler, route.intrinsic)
        };
        let origin = if shadows.is_empty() { None } else { self.builtin_call_shadows(state, name, &shadows, inst.loc) };
        let ctx = CallCtx { name, args: values, inst };
        let result = if let Some(h) = handler {
            h(self, state, &ctx)
        } else if let Some(r) = intrinsic.then(|| self.call_intrinsic(state, &ctx)).flatten() {
            r
        } else if let Some(r) = self.call_model(state, &ctx) {
            r
        } else {
            return self.unsupported(state, inst.loc, format!("call to unmodelled function `{name}`"));
        };
        let from_argument = self.shadow.result_from_argument.take();
        match result {
            Ok(v) => {
                if let (Some(d), Some(v)) = (inst.dest, v) {
                    if let Some(origin) = origin {
                        let s = match from_argument {
                            Some((k, cond)) => self.argument_shadow_where(&shadows, k, cond, origin),
                            None => self.intrinsic_result_shadow(name, &shadows, &ctx.args, &inst.ty, &v, origin),
                        };
                        self.set_shadow(state, d, s);
                    } else if !state.frame().shadows.is_empty() {
                        self.set_shadow(state, d, None);
                    }
                    self.set_reg(state, d, v);
                    // Lanes an intrinsic's flag makes poison (exec/ops/undefined.rs).
                    if self.shadow.poison.is_some() {
                        self.merge_poison(state, d);
                    }
                }
                self.shadow.poison = None;
                Step::Continue
            }
            Err(step) => {
                self.shadow.poison = None;
                step
            }
        }
    }

    fn call_indirect(&mut self, state: &mut State, ptr: ExprId, values: Vec<Value>, inst: &'m Inst) -> Step {
        let addr = match self.cx.pool.as_const(ptr) {
            Some(a) => a as u64,
            None => {
                let Some(m) = self.current_model(state) else {
                    return self.unsupported(state, inst.loc, "call through a pointer no solver could resolve".into());
                };
                let a = evaluate(&self.cx.pool, ptr, &m);
                let c = self.cx.pool.constant(64, a);
                let eq = self.cx.pool.eq(ptr, c);
                if !self.assume(state, eq) {
                    return Step::Terminated;
                }
                a as u64
            }
        };
        match self.function_addr.get(&addr).copied() {
            Some(f) if !self.cx.module.function(f).is_declaration() => self.call_function(state, f, values, inst.dest, inst.loc),
            Some(f) => {
                let name = self.cx.module.function(f).name.clone();
                self.unsupported(state, inst.loc, format!("call through a pointer to unmodelled function `{name}`"))
            }
            None => {
                self.report(
                    state,
                    FindingKind::OutOfBounds,
                    inst.loc,
                    format!("call through invalid function pointer {addr:#x}"),
                    None,
                    None,
                );
                Step::Terminated
            }
        }
    }

    /// A concrete integer argument; symbolic ones are fixed to the model's
    /// value (and the path constrained to it). When another value was
    /// possible, an `unsupported` finding says so: the verdict then covers
    /// only the value taken. Sizes fork instead (`concrete_size`).
    pub(in crate::exec) fn concrete_arg(&mut self, state: &mut State, v: ExprId) -> Result<u64, Step> {
        if let Some(c) = self.cx.pool.as_const(v) {
            return Ok(c as u64);
        }
        let (c, eq, other) = self.model_value_and_others(state, v).ok_or(Step::Terminated)?;
        if let crate::check::Feasibility::Sat(_) = other {
            let loc = self.current_inst_loc(state).unwrap_or_default();
            let msg = format!("a value that depends on the input was fixed to {c} here; the other values were not explored");
            self.report(state, crate::report::FindingKind::Unsupported, loc, msg, None, None);
        }
        if self.assume(state, eq) {
            Ok(c as u64)
        } else {
            Err(Step::Terminated)
        }
    }

    /// The value `v` must have on this path, if there is only one.
    pub(in crate::exec) fn fixed_value(&mut self, state: &mut State, v: ExprId) -> Option<u64> {
        if let Some(c) = self.cx.pool.as_const(v) {
            return Some(c as u64);
        }
        let (c, _, other) = self.model_value_and_others(state, v)?;
        matches!(other, crate::check::Feasibility::Unsat).then_some(c as u64)
    }

    /// The value `c` of symbolic `v` in the path's model, the condition
    /// `v == c`, and whether `v` can take another value on the path.
    fn model_value_and_others(&mut self, state: &mut State, v: ExprId) -> Option<(u128, ExprId, crate::check::Feasibility)> {
        let m = self.current_model(state)?;
        let c = evaluate(&self.cx.pool, v, &m);
        let ce = self.cx.pool.constant(self.cx.pool.width(v), c);
        let eq = self.cx.pool.eq(v, ce);
        let other = self.cx.pool.not(eq);
        Some((c, eq, self.cx.decider.feasible(&self.cx.pool, &state.path, other)))
    }

    /// Reads a NUL-terminated string with concrete bytes (at most 4096).
    pub(in crate::exec) fn read_c_string(&mut self, state: &mut State, ptr: ExprId, loc: Loc) -> Result<String, Step> {
        let mut out = Vec::new();
        let base = self.concrete_arg(state, ptr)?;
        for k in 0..4096u64 {
            let a = self.cx.pool.constant(64, (base + k) as u128);
            let access = self.resolve(state, a, 1, loc, false)?;
            let b = self.read_bytes(state, &access, 1, loc)[0];
            if let Some((mask, origin)) = self.shadow.last_read.take() {
                let s = crate::memory::shadow::Shadow { mask: mask.into_iter().collect(), origin };
                if !self.uninit_use(state, &s, loc, "a string read by a library function") {
                    return Err(Step::Terminated);
                }
            }
            let b = self.concrete_arg(state, b)? as u8;
            if b == 0 {
                break;
            }
            out.push(b);
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }

    fn builtin_make_symbolic(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let n = self.concrete_size(state, c.args[1][0], loc, "the size given to make_symbolic")?;
        let name = match c.args.get(2) {
            Some(p) if self.cx.pool.as_const(p[0]) != Some(0) => self.read_c_string(state, p[0], loc)?,
            _ => "input".to_string(),
        };
        if n > 0 {
            self.log.coverage.symbolic_inputs += 1;
        }
        // Input bytes are numbered by 32 bits: a larger input is past any
        // memory limit.
        let Ok(count) = u32::try_from(n) else {
            self.log.limit_hit = Some(crate::exec::engine::executor::LimitHit::Memory);
            return Err(Step::Terminated);
        };
        let array = self.cx.pool.new_array(&name, count);
        let access = self.resolve(state, c.args[0][0], n, loc, true)?;
        // The input holds what the object holds (`float src[64]`: floats)
        // when it starts at an element boundary: the witness then prints
        // as values.
        if let (Some(element), Some(offset)) = (state.memory.object(access.object).element, self.cx.pool.as_const(access.offset)) {
            if offset % element.size() as u128 == 0 {
                self.cx.pool.set_element_type(array, element);
            }
        }
        if let Some(off) = self.plain_offset(state, &access) {
            // Whole pages hold "byte i of the input", built when read.
            self.admit_host_memory(crate::memory::object_bytes::page_table_bytes(n))?;
            let o = state.memory.object_mut(access.object);
            o.bytes.fill_input(&mut self.cx.pool, off, n, array, 0);
            forget_shadow(o, off, n);
            return Ok(None);
        }
        self.admit_transient(n)?;
        let bytes: Vec<Option<ExprId>> = (0..count).map(|i| Some(self.cx.pool.input_byte(array, i))).collect();
        self.write_bytes(state, &access, &bytes);
        Ok(None)
    }

    fn builtin_assume(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let v = c.args[0][0];
        let zero = self.cx.pool.constant(self.cx.pool.width(v), 0);
        let is_zero = self.cx.pool.eq(v, zero);
        let holds = self.cx.pool.not(is_zero);
        if self.assume(state, holds) {
            Ok(None)
        } else {
            Err(Step::Terminated)
        }
    }

    pub(in crate::exec) fn builtin_assert_fail(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let text = self.read_c_string(state, c.args[0][0], c.inst.loc).unwrap_or_default();
        let mut msg = format!("assertion `{text}` can fail");
        let model = state.model.clone();
        let decided = if state.unconfirmed_path { None } else { Some(state.branch_step.unwrap_or(crate::report::DecidedBy::BitPrecise)) };
        self.log.check_stats.record(decided.as_slice());
        let decided = decided.or_else(|| Some(undecided_path(state, &mut msg)));
        let witness = model.as_ref().filter(|_| !state.unconfirmed_path);
        let compared = self.branch_into_block(state).and_then(|failing| self.condition_values(failing, witness));
        if let Some(f) = self.report(state, FindingKind::Mismatch, c.inst.loc, msg, witness, decided) {
            f.expressions = compared;
        }
        Err(Step::Terminated)
    }

    /// The condition under which the last branch took the path into the
    /// block it is in (the failing side of `assert`'s test), if a
    /// two-way branch did.
    fn branch_into_block(&mut self, state: &State) -> Option<ExprId> {
        let frame = state.frame();
        let func = self.cx.module.function(frame.func);
        let (here, from) = (frame.block, frame.prev_block?);
        let crate::ir::Terminator::CondBr { cond, then, otherwise } = &func.blocks[from.0 as usize].term else { return None };
        if then == otherwise {
            return None;
        }
        let taken = *self.operand(state, func, cond).first()?;
        if *then == here {
            Some(taken)
        } else {
            Some(self.cx.pool.not(taken))
        }
    }

    /// `klee_assert(cond)`: a check that `cond` is non-zero on every input
    /// reaching it. A failing input is a `mismatch`; the path goes on with
    /// the inputs for which it holds.
    fn builtin_klee_assert(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        self.note_checks(state, 1);
        let v = c.args[0][0];
        let zero = self.cx.pool.constant(self.cx.pool.width(v), 0);
        let fails = self.cx.pool.eq(v, zero);
        let (bad, good) = self.branch(state, fails);
        if let Some(bad) = bad {
            let witness = bad.model.clone().filter(|_| !bad.unconfirmed_path);
            let decided = witness.as_ref().map(|_| bad.branch_step.unwrap_or(crate::report::DecidedBy::BitPrecise));
            self.log.check_stats.record(decided.as_slice());
            let mut msg = "klee_assert can fail".to_string();
            let decided = if bad.unconfirmed_path { Some(undecided_path(&bad, &mut msg)) } else { decided };
            let compared = self.condition_values(fails, witness.as_ref());
            if let Some(f) = self.report(&bad, FindingKind::Mismatch, c.inst.loc, msg, witness.as_ref(), decided) {
                f.expressions = compared;
            }
        }
        match good {
            Some(g) => {
                *state = g;
                Ok(None)
            }
            None => Err(Step::Terminated),
        }
    }

    fn builtin_abort(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let model = state.model.clone();
        // The ladder step that showed the branch into the call possible, when one did.
        let decided = state.branch_step.filter(|_| !state.unconfirmed_path);
        self.log.check_stats.record(decided.as_slice());
        self.report(
            state,
            FindingKind::Mismatch,
            c.inst.loc,
            "abort() can be called".into(),
            model.as_ref().filter(|_| !state.unconfirmed_path),
            decided,
        );
        Err(Step::Terminated)
    }

    fn builtin_exit(&mut self, _state: &mut State, _c: &CallCtx) -> Result<Option<Value>, Step> {
        Err(Step::Finished)
    }

    fn builtin_ignore(&mut self, _state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        Ok(Some(self.zero_result(c)))
    }

    /// Zeros of the call's result type: the result of a builtin whose
    /// value does not matter (one that is ignored).
    pub(in crate::exec) fn zero_result(&mut self, c: &CallCtx) -> Value {
        let t = c.inst.ty.clone();
        self.undef_value(&t)
    }

    /// A heap block; a size past the memory limit stops the run with that
    /// limit (`Executor::admit_allocation`).
    pub(in crate::exec) fn heap_allocate(&mut self, state: &mut State, size: u64, align: u64, loc: Loc) -> Result<ExprId, Step> {
        self.admit_allocation(size)?;
        // A block the runtime model allocates for the user (C++'s `new`,
        // `strdup`) is named after the user's call, not the model's line.
        let loc = match self.in_runtime_model(loc) {
            true => state.stack.iter().rev().map(|f| f.call_loc).find(|l| l.line != 0 && !self.in_runtime_model(*l)).unwrap_or(loc),
            false => loc,
        };
        let file = self.cx.module.file_name(loc).rsplit('/').next().unwrap_or("").to_string();
        let name = format!("heap block allocated at {file}:{}", loc.line);
        let id = state.memory.allocate(&mut self.cx.pool, size, align, ObjectKind::Heap, name);
        state.memory.object_mut(id).alloc_line = Some(loc);
        let base = state.memory.object(id).base;
        Ok(self.cx.pool.constant(64, base as u128))
    }

    fn builtin_malloc(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let n = self.concrete_size(state, c.args[0][0], c.inst.loc, "the size of a malloc")?;
        Ok(Some(scalar(self.heap_allocate(state, n, 16, c.inst.loc)?)))
    }

    fn builtin_aligned_alloc(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let align = self.concrete_arg(state, c.args[0][0])?;
        let n = self.concrete_size(state, c.args[1][0], c.inst.loc, "the size of an aligned_alloc")?;
        Ok(Some(scalar(self.heap_allocate(state, n, align, c.inst.loc)?)))
    }

    fn builtin_posix_memalign(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let align = self.concrete_arg(state, c.args[1][0])?;
        let n = self.concrete_size(state, c.args[2][0], c.inst.loc, "the size of a posix_memalign")?;
        let p = self.heap_allocate(state, n, align, c.inst.loc)?;
        let bytes = crate::memory::layout::value_to_bytes(&mut self.cx.pool, &crate::ir::Type::Ptr { addr_space: 0 }, &[p]);
        let access = self.resolve(state, c.args[0][0], 8, c.inst.loc, true)?;
        self.write_bytes(state, &access, &bytes);
        Ok(Some(scalar(self.cx.pool.constant(32, 0))))
    }

    fn builtin_calloc(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let n = self.concrete_size(state, c.args[0][0], c.inst.loc, "the element count of a calloc")?;
        let size = self.concrete_size(state, c.args[1][0], c.inst.loc, "the element size of a calloc")?;
        // n * size past 64 bits cannot be allocated: the memory limit.
        let total = n.saturating_mul(size);
        let p = self.heap_allocate(state, total, 16, c.inst.loc)?;
        let zero = self.cx.pool.constant(8, 0);
        self.fill_bytes(state, p, zero, total, c.inst.loc)?;
        Ok(Some(scalar(p)))
    }

    fn builtin_realloc(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let old = c.args[0][0];
        let n = self.concrete_size(state, c.args[1][0], c.inst.loc, "the size of a realloc")?;
        let p = self.heap_allocate(state, n, 16, c.inst.loc)?;
        if self.cx.pool.as_const(old) != Some(0) {
            let old_addr = self.concrete_arg(state, old)?;
            let keep = state.memory.object_near(old_addr).map(|o| state.memory.object(o).size.min(n)).unwrap_or(0);
            self.copy_bytes(state, p, old, keep, c.inst.loc)?;
            self.free_pointer(state, old, c.inst.loc)?;
        }
        Ok(Some(scalar(p)))
    }

    fn builtin_free(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        self.free_pointer(state, c.args[0][0], c.inst.loc)?;
        Ok(None)
    }

    /// `free(ptr)`: marks the heap block at `ptr` freed. Null does nothing;
    /// a pointer that is not the start of a heap block, or a block already
    /// freed, is a finding and ends the path.
    pub(in crate::exec) fn free_pointer(&mut self, state: &mut State, ptr: ExprId, loc: Loc) -> Result<(), Step> {
        let a = self.concrete_arg(state, ptr)?;
        if a == 0 {
            return Ok(());
        }
        let obj = state.memory.object_near(a).filter(|o| state.memory.object(*o).base == a);
        let Some(obj) = obj else {
            self.report(
                state,
                FindingKind::OutOfBounds,
                loc,
                format!("free of {a:#x}, which is not the start of a heap block"),
                None,
                None,
            );
            return Err(Step::Terminated);
        };
        let o = state.memory.object(obj);
        if o.kind != ObjectKind::Heap {
            let msg = format!("free of {} object `{}`, which was not allocated with malloc", o.describe(), o.name);
            self.report(state, FindingKind::OutOfBounds, loc, msg, None, None);
            return Err(Step::Terminated);
        }
        if o.freed {
            let first = o.free_line;
            let msg = format!("double free of `{}`", o.name);
            if self.report(state, FindingKind::DoubleFree, loc, msg, None, None).is_some() {
                if let Some(fl) = first {
                    let l = self.cx.location(fl);
                    if let Some(f) = self.log.findings.last_mut() {
                        f.related.insert(0, crate::report::Related { message: "first freed here".into(), location: l });
                    }
                }
            }
            return Err(Step::Terminated);
        }
        let o = state.memory.object_mut(obj);
        o.freed = true;
        o.free_line = Some(loc);
        Ok(())
    }

    fn builtin_memmove(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let n = self.concrete_length(state, c.args[2][0], c.inst.loc, "the size of a memcpy")?;
        self.copy_bytes(state, c.args[0][0], c.args[1][0], n, c.inst.loc)?;
        Ok(Some(c.args[0].clone()))
    }

    fn builtin_memset(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let n = self.concrete_length(state, c.args[2][0], c.inst.loc, "the size of a memset")?;
        let byte = self.cx.pool.trunc(c.args[1][0], 8);
        self.fill_bytes(state, c.args[0][0], byte, n, c.inst.loc)?;
        Ok(Some(c.args[0].clone()))
    }

    /// memmove semantics: reads everything before writing.
    pub(in crate::exec) fn copy_bytes(&mut self, state: &mut State, dst: ExprId, src: ExprId, n: u64, loc: Loc) -> Result<(), Step> {
        if n == 0 {
            return Ok(());
        }
        let from = self.resolve(state, src, n, loc, false)?;
        // The copy reads and writes memory as loads and stores do: in a
        // kernel, its bytes are accesses for the race detector, and
        // never-written shared bytes get their contents first.
        let from_range = self.cx.pool.as_const(from.offset).map(|o| o as usize..(o as u64 + n) as usize);
        self.before_shared_access(state, from.object, from_range);
        self.bulk_access(state, &from, n, false, None, loc);
        let mut resolved_to = None;
        if let Some(from_off) = self.plain_offset(state, &from) {
            // The copied elements of a ranged buffer are read here.
            self.constrain_read_elements(state, from.object, Some((from_off, n)));
            let o = state.memory.object(from.object);
            if crate::memory::shadow::range_is_defined(o, from_off, n) {
                // Defined bytes at a known place: copied by page.
                let source = o.bytes.window(from_off, n);
                self.admit_host_memory(crate::memory::object_bytes::page_table_bytes(n))?;
                let to = self.resolve(state, dst, n, loc, true)?;
                if let Some(to_off) = self.plain_offset(state, &to) {
                    let o = state.memory.object_mut(to.object);
                    o.bytes.copy_from(&mut self.cx.pool, to_off, &source, from_off, n);
                    forget_shadow(o, to_off, n);
                    let written = self.copied_bytes(state, &to, n);
                    self.bulk_access(state, &to, n, true, written, loc);
                    return Ok(());
                }
                resolved_to = Some(to);
            }
        }
        self.admit_transient(n)?;
        let bytes: Vec<Option<ExprId>> = self.read_bytes_raw(state, &from, n).into_iter().map(Some).collect();
        let shadow = self.shadow.last_read.take().map(|(m, origin)| (m.into_iter().map(Some).collect::<Vec<_>>(), origin));
        let to = match resolved_to {
            Some(to) => to,
            None => self.resolve(state, dst, n, loc, true)?,
        };
        if let Some((masks, origin)) = shadow.as_ref().filter(|_| self.indeterminate_store_is_use(state, to.object)) {
            self.indeterminate_copy(state, &from, &to, masks, *origin, loc);
        }
        let written = (n <= MAX_VALUE_BYTES).then(|| bytes.iter().flatten().copied().collect());
        self.bulk_access(state, &to, n, true, written, loc);
        self.write_bytes_shadowed(state, &to, &bytes, shadow.as_ref().map(|(m, o)| (&m[..], *o)));
        Ok(())
    }

    /// The bytes a copy just wrote at `to` (a plain offset), for telling a
    /// benign race of equal copies; None for large copies, or outside a
    /// kernel, where no one compares them.
    fn copied_bytes(&mut self, state: &State, to: &crate::memory::Access, n: u64) -> Option<Vec<ExprId>> {
        if n > MAX_VALUE_BYTES || state.gpu.is_none() {
            return None;
        }
        let off = self.cx.pool.as_const(to.offset)? as u64;
        let mut out = Vec::new();
        state.memory.object(to.object).bytes.read(&mut self.cx.pool, off, n, &mut out);
        Some(out)
    }

    /// Writes `byte` (8 bits) to `n` bytes from `dst` (memset, calloc's
    /// zeroing); an access outside an object is a finding.
    pub(in crate::exec) fn fill_bytes(&mut self, state: &mut State, dst: ExprId, byte: ExprId, n: u64, loc: Loc) -> Result<(), Step> {
        if n == 0 {
            return Ok(());
        }
        let to = self.resolve(state, dst, n, loc, true)?;
        let written = (n <= MAX_VALUE_BYTES).then(|| vec![byte; n as usize]);
        self.bulk_access(state, &to, n, true, written, loc);
        if let Some(off) = self.plain_offset(state, &to) {
            // Whole pages share one page holding `byte`.
            self.admit_host_memory(crate::memory::object_bytes::page_table_bytes(n))?;
            let o = state.memory.object_mut(to.object);
            o.bytes.fill(&mut self.cx.pool, off, n, byte);
            forget_shadow(o, off, n);
            return Ok(());
        }
        self.admit_transient(n)?;
        self.write_bytes(state, &to, &vec![Some(byte); n as usize]);
        Ok(())
    }

    /// The offset of an access as a number, in an object with bytes of its
    /// own (not an address-only buffer, whose bytes are kept by offset).
    fn plain_offset(&self, state: &State, access: &crate::memory::Access) -> Option<u64> {
        let o = state.memory.object(access.object);
        if o.address_only {
            return None;
        }
        self.cx.pool.as_const(access.offset).map(|v| v as u64)
    }

    /// The bytes of a copy; their shadow is left in `self.shadow.last_read`
    /// (copying indeterminate bytes is no use of them).
    fn read_bytes_raw(&mut self, state: &mut State, access: &crate::memory::Access, n: u64) -> Vec<ExprId> {
        if let Some(off) = self.cx.pool.as_const(access.offset) {
            self.constrain_read_elements(state, access.object, Some((off as u64, n)));
            let o = state.memory.object(access.object);
            if !o.address_only {
                self.shadow.last_read = self.range_shadow(o, off as u64, n);
                let mut bytes = Vec::new();
                o.bytes.read(&mut self.cx.pool, off as u64, n, &mut bytes);
                return bytes;
            }
        }
        self.read_bytes(state, access, n, Loc::default()).into_vec()
    }
}

/// Bytes `off..off + len` of `o` were just written with defined bits:
/// they lose any indeterminate bits they had.
fn forget_shadow(o: &mut crate::memory::MemoryObject, off: u64, len: u64) {
    if o.poison.is_empty() {
        return;
    }
    let mut tail = o.poison.split_off(&off);
    let mut rest = tail.split_off(&off.saturating_add(len));
    o.poison.append(&mut rest);
}

/// For a failure on a path the solver left undecided: the step name of
/// that answer (`timeout` when time ran out, else `solver-unknown`), with
/// its reason and limit appended to `message`.
fn undecided_path(state: &State, message: &mut String) -> crate::report::DecidedBy {
    match &state.path_unknown {
        Some(why) => {
            message.push_str(&format!("; not confirmed: the solver could not decide whether the path to it is feasible ({why})"));
            crate::exec::checks::check_equal::undecided_by(why.kind)
        }
        None => {
            message.push_str("; not confirmed: the path to it was not shown feasible (a merged or undecided branch)");
            crate::report::DecidedBy::SolverUnknown
        }
    }
}
