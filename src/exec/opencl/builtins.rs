//! OpenCL C built-in functions on the device side: work-item functions,
//! barriers, atomics, and math built-ins mapped onto the libm semantics of
//! intrinsics.rs (approximate `native_*`/`half_*` yield fresh values).
//! Built-ins arrive as Itanium-mangled calls (`_Z13get_global_idj`). Each
//! has its arity (`opencl_arity`), checked at the call.

use crate::exec::engine::arity::Arity;
use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::model_hooks::IdCall;
use crate::exec::engine::state::State;
use crate::exec::opencl::workitems::Waits;
use crate::expr::value::{scalar, Value};
use crate::expr::{BinOp, CmpOp, ExprId};
use crate::ir::{demangle, Type};

type Outcome = Option<Result<Option<Value>, Step>>;

use crate::exec::opencl::work_item_ids::WorkItemFn as WorkItem;

/// The read-modify-write of an `atomic_*` (or `atom_*`) built-in.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Atomic {
    Inc,
    Dec,
    Add,
    Sub,
    Xchg,
    And,
    Or,
    Xor,
    Min,
    Max,
    CmpXchg,
}

/// What an OpenCL built-in does, by row.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Builtin {
    WorkItem(WorkItem),
    /// barrier and work_group_barrier: the flags are the first argument.
    Barrier,
    WaitGroupEvents,
    MemFence,
    Atomic(Atomic),
    /// OpenCL 2.0's atomic_compare_exchange_strong/weak(_explicit)
    /// (compare_exchange.rs).
    CompareExchange {
        weak: bool,
    },
    /// An `atomic_*` symcross does not model: an `unsupported` finding
    /// naming it.
    UnknownAtomic,
    /// `native_*`, `half_*` and `mad`: implementation-defined precision, so
    /// a fresh value.
    Approximate,
    Shuffle,
    Shuffle2,
    /// min/max on integers or floats; everything else reuses the libm rows.
    MinMax {
        max: bool,
    },
    Math,
    /// read_image*, write_image*, get_image_* (images.rs).
    Image(crate::exec::opencl::images::ImageOp),
}

/// The work-item and synchronisation built-ins and their arity. A kernel
/// may also reach them under their plain C name, when its source declares
/// one itself (`size_t get_global_id(void);`): that call is then checked
/// against this row too.
const WORK_ITEM_ROWS: &[(&str, Builtin, Arity)] = &[
    ("get_work_dim", Builtin::WorkItem(WorkItem::WorkDim), Arity::Exact(0)),
    ("get_local_id", Builtin::WorkItem(WorkItem::LocalId), Arity::Exact(1)),
    ("get_group_id", Builtin::WorkItem(WorkItem::GroupId), Arity::Exact(1)),
    ("get_global_id", Builtin::WorkItem(WorkItem::GlobalId), Arity::Exact(1)),
    ("get_local_size", Builtin::WorkItem(WorkItem::LocalSize), Arity::Exact(1)),
    ("get_enqueued_local_size", Builtin::WorkItem(WorkItem::EnqueuedLocalSize), Arity::Exact(1)),
    ("get_global_linear_id", Builtin::WorkItem(WorkItem::GlobalLinearId), Arity::Exact(0)),
    ("get_local_linear_id", Builtin::WorkItem(WorkItem::LocalLinearId), Arity::Exact(0)),
    ("get_num_groups", Builtin::WorkItem(WorkItem::NumGroups), Arity::Exact(1)),
    ("get_global_size", Builtin::WorkItem(WorkItem::GlobalSize), Arity::Exact(1)),
    ("get_global_offset", Builtin::WorkItem(WorkItem::GlobalOffset), Arity::Exact(1)),
    ("barrier", Builtin::Barrier, Arity::Exact(1)),
    // OpenCL 2.0 adds a memory scope.
    ("work_group_barrier", Builtin::Barrier, Arity::Between(1, 2)),
    ("wait_group_events", Builtin::WaitGroupEvents, Arity::Exact(2)),
    ("mem_fence", Builtin::MemFence, Arity::Exact(1)),
    ("read_mem_fence", Builtin::MemFence, Arity::Exact(1)),
    ("write_mem_fence", Builtin::MemFence, Arity::Exact(1)),
];

/// Events one `wait_group_events` may name: a work-group has as many
/// live events as copies it started, far fewer in any real kernel; more
/// is an `unsupported` finding rather than a list read in part.
const MAX_WAITED_EVENTS: u64 = 1024;

/// The atomic read-modify-writes, by the name after `atomic_`/`atom_`.
const ATOMIC_ROWS: &[(&str, Atomic, usize)] = &[
    ("inc", Atomic::Inc, 1),
    ("dec", Atomic::Dec, 1),
    ("add", Atomic::Add, 2),
    ("sub", Atomic::Sub, 2),
    ("xchg", Atomic::Xchg, 2),
    ("and", Atomic::And, 2),
    ("or", Atomic::Or, 2),
    ("xor", Atomic::Xor, 2),
    ("min", Atomic::Min, 2),
    ("max", Atomic::Max, 2),
    ("cmpxchg", Atomic::CmpXchg, 3),
];

/// The row of an OpenCL built-in by its plain (demangled) name: what it
/// does and its arity (None for `UnknownAtomic`, which reads nothing).
/// None when symcross has no such built-in.
fn builtin_row(plain: &str) -> Option<(Builtin, Option<Arity>)> {
    if let Some((_, b, a)) = WORK_ITEM_ROWS.iter().find(|(n, _, _)| *n == plain) {
        return Some((*b, Some(*a)));
    }
    if let Some(form) = plain.strip_prefix("atomic_compare_exchange_") {
        let weak = match form.strip_suffix("_explicit").unwrap_or(form) {
            "strong" => false,
            "weak" => true,
            _ => return Some((Builtin::UnknownAtomic, None)),
        };
        // The _explicit forms add two memory orders and a scope.
        return Some((Builtin::CompareExchange { weak }, Some(Arity::Between(3, 6))));
    }
    if let Some(op) = plain.strip_prefix("atomic_").or_else(|| plain.strip_prefix("atom_")) {
        return Some(match ATOMIC_ROWS.iter().find(|(n, _, _)| *n == op) {
            Some((_, atomic, n)) => (Builtin::Atomic(*atomic), Some(Arity::Exact(*n))),
            None => (Builtin::UnknownAtomic, None),
        });
    }
    if let Some(op) = plain.strip_prefix("native_").or_else(|| plain.strip_prefix("half_")) {
        let two = op == "divide" || op == "powr";
        return Some((Builtin::Approximate, Some(Arity::Exact(if two { 2 } else { 1 }))));
    }
    if let Some((op, arity)) = crate::exec::opencl::images::image_row(plain) {
        return Some((Builtin::Image(op), Some(arity)));
    }
    Some(match plain {
        "mad" => (Builtin::Approximate, Some(Arity::Exact(3))),
        "shuffle" => (Builtin::Shuffle, Some(Arity::Exact(2))),
        "shuffle2" => (Builtin::Shuffle2, Some(Arity::Exact(3))),
        "min" => (Builtin::MinMax { max: false }, Some(Arity::Exact(2))),
        "max" => (Builtin::MinMax { max: true }, Some(Arity::Exact(2))),
        _ => (Builtin::Math, Some(crate::exec::ops::intrinsics::libm_arity(plain)?)),
    })
}

/// The arity of the OpenCL built-in a call to `name` reaches, with the
/// name to show (demangled); None when `call_opencl` has no row for it.
/// `in_kernel`: the call runs on the device, where a plain name may
/// stand for a work-item built-in the kernel declared itself.
pub fn opencl_arity(name: &str, in_kernel: bool) -> Option<(String, Arity)> {
    match name {
        "__symcross_async_begin" => return Some((name.to_string(), Arity::Exact(1))),
        "__symcross_async_end" => return Some((name.to_string(), Arity::Exact(0))),
        "__translate_sampler_initializer" => return Some((name.to_string(), Arity::Exact(1))),
        _ => {}
    }
    let Some((plain, _)) = demangle(name) else {
        let reserved = name.starts_with("__") || name.starts_with("llvm.");
        let row = WORK_ITEM_ROWS.iter().find(|(n, _, _)| *n == name).filter(|_| in_kernel && !reserved);
        return row.map(|(_, _, a)| (name.to_string(), *a));
    };
    let (_, arity) = builtin_row(plain)?;
    Some((plain.to_string(), arity?))
}

/// The work-item function row a device call of `name` reaches in
/// `call_opencl` (a mangled name: none of its own names, which are not,
/// and a plain one a kernel declares itself goes on to
/// `call_declared_device_function`), by its index in `WORK_ITEM_ROWS`
/// (`work_item_call` reads it back). The fast tier answers such a call
/// itself (fast_concrete/work_item_ids.rs), through the models' hooks.
pub(in crate::exec) fn id_call_row(name: &str) -> Option<IdCall> {
    let (plain, _) = demangle(name)?;
    // builtin_row's first match by name.
    let k = WORK_ITEM_ROWS.iter().position(|(n, _, _)| *n == plain)?;
    matches!(WORK_ITEM_ROWS[k].1, Builtin::WorkItem(_)).then_some(IdCall(k as u8))
}

impl<'m> Executor<'m> {
    /// The value `call_opencl` gives the call `call` (`id_call_row`) with
    /// the argument values `args`; None where it would not give one: an
    /// argument count the row's arity refuses (`exec_call` reports it
    /// before the call), no running work-item.
    pub(in crate::exec) fn work_item_call(&mut self, state: &State, call: IdCall, args: &[Value]) -> Option<Value> {
        let Some((_, Builtin::WorkItem(which), arity)) = WORK_ITEM_ROWS.get(call.0 as usize) else { return None };
        if !arity.admits(args.len()) {
            return None;
        }
        self.work_item_function(state, *which, args).map(scalar)
    }

    pub(in crate::exec) fn call_opencl(&mut self, state: &mut State, c: &CallCtx) -> Outcome {
        match c.name {
            "__symcross_async_begin" => return Some(Ok(Some(scalar(self.async_copy_begin(state, c))))),
            "__symcross_async_end" => {
                if let Some(gpu) = state.gpu.as_mut() {
                    let cur = gpu.current;
                    gpu.items[cur].async_copy = None;
                }
                return Some(Ok(None));
            }
            // clang's spelling of a constant sampler: a sampler is its
            // flags (images.rs).
            "__translate_sampler_initializer" => return Some(Ok(Some(scalar(c.args[0][0])))),
            _ => {}
        }
        let (name, params) = demangle(c.name)?;
        let (builtin, _) = builtin_row(name)?;
        match builtin {
            Builtin::WorkItem(which) => self.work_item_function(state, which, &c.args).map(|v| Ok(Some(scalar(v)))),
            Builtin::Barrier | Builtin::WaitGroupEvents => {
                if state.gpu.is_none() {
                    return Some(Ok(None));
                }
                // wait_group_events completes the asynchronous copies of
                // its events (see cl-runtime-model/device/async_copy.cl):
                // a barrier on both address spaces.
                let (flags, waits) = if builtin == Builtin::WaitGroupEvents {
                    // The number of events is an argument of a work-group
                    // function: the whole group must pass the same one.
                    self.record_group_call(state, "wait_group_events", c.inst.loc, vec![c.args[0][0]]);
                    match self.waited_events(state, c) {
                        Ok(w) => (self.cx.pool.constant(32, 3), w),
                        Err(step) => return Some(Err(step)),
                    }
                } else {
                    (c.args[0][0], Waits::Nothing)
                };
                Some(Err(self.work_item_barrier(state, flags, c.inst.loc, waits)))
            }
            Builtin::MemFence => Some(Ok(None)),
            Builtin::Atomic(op) => Some(self.atomic_builtin(state, c, op, params)),
            Builtin::CompareExchange { weak } => Some(self.compare_exchange(state, c, weak)),
            Builtin::UnknownAtomic => Some(Err(self.unsupported(state, c.inst.loc, format!("OpenCL built-in {name}")))),
            Builtin::Approximate => {
                let w = c.inst.ty.scalar_bits();
                let lanes = c.inst.ty.lanes();
                Some(Ok(Some((0..lanes).map(|_| self.cx.pool.approximation(w)).collect())))
            }
            Builtin::Shuffle | Builtin::Shuffle2 => Some(Ok(Some(self.shuffle_builtin(c)))),
            Builtin::MinMax { .. } | Builtin::Math => self.opencl_math(c, name, builtin, params),
            Builtin::Image(op) => Some(self.image_builtin(state, c, op, name, params)),
        }
    }

    /// `__symcross_async_begin(e)`: the running work-item's accesses until
    /// `__symcross_async_end` are an asynchronous copy's. Its event is `e`
    /// when the call names one, else the next number of the work-item's
    /// copies (the same for every work-item making the same calls).
    fn async_copy_begin(&mut self, state: &mut State, c: &CallCtx) -> ExprId {
        let given = c.args[0][0];
        // Reported at the user's call of async_work_group_copy.
        let call = state.frame().call_loc;
        let loc = if call == crate::ir::Loc::default() { c.inst.loc } else { call };
        if state.gpu.is_none() {
            return given;
        }
        self.note_group_call(state, loc);
        let gpu = state.gpu.as_mut().expect("checked above");
        let cur = gpu.current;
        let item = &mut gpu.items[cur];
        let event = match self.cx.pool.as_const(given) {
            Some(e) if e != 0 => e as u64,
            _ => {
                item.async_started += 1;
                // Numbered far from small integers an event is not.
                (1 << 48) | item.async_started
            }
        };
        item.async_copy = Some((event, loc));
        if !item.live_events.contains(&event) {
            item.live_events.push(event);
        }
        self.cx.pool.constant(64, event as u128)
    }

    /// The events of `wait_group_events(n, list)`, read from the list and
    /// checked (events.rs); `UnknownCount` when `n` is not fixed on the
    /// path.
    fn waited_events(&mut self, state: &mut State, c: &CallCtx) -> Result<Waits, Step> {
        let Some(n) = self.fixed_value(state, c.args[0][0]) else { return Ok(Waits::UnknownCount) };
        if n > MAX_WAITED_EVENTS {
            let msg = format!("wait_group_events with {n} events (symcross reads at most {MAX_WAITED_EVENTS})");
            return Err(self.unsupported(state, c.inst.loc, msg));
        }
        let list = c.args[1][0];
        let mut handles = Vec::new();
        for k in 0..n {
            let off = self.cx.pool.constant(64, (k * 8) as u128);
            let addr = self.cx.pool.add(list, off);
            handles.push(self.load_value(state, addr, &Type::Int(64), c.inst.loc)?[0]);
        }
        let mut out = self.wait_for_events(state, &handles, c.inst.loc)?;
        out.sort_unstable();
        Ok(Waits::Events(out))
    }

    /// `shuffle(x, mask)` and `shuffle2(x, y, mask)`: lane i of the result
    /// is lane `mask[i] mod n` of x (or of x then y for shuffle2); only the
    /// low bits of each mask lane count. A symbolic mask lane selects among
    /// all candidate lanes.
    fn shuffle_builtin(&mut self, c: &CallCtx) -> Value {
        let mut sources: Vec<ExprId> = c.args[0].to_vec();
        if c.args.len() == 3 {
            sources.extend(c.args[1].iter().copied());
        }
        let mask = &c.args[c.args.len() - 1];
        // Only log2(number of source lanes) low bits of a mask lane count.
        let n = sources.len() as u128;
        let mut out = Value::new();
        for &m in mask.iter() {
            let w = self.cx.pool.width(m);
            let modulus = self.cx.pool.constant(w, n);
            let index = self.cx.pool.bin(BinOp::URem, m, modulus);
            let mut lane = sources[0];
            for (k, &s) in sources.iter().enumerate().skip(1) {
                let kc = self.cx.pool.constant(w, k as u128);
                let hit = self.cx.pool.eq(index, kc);
                lane = self.cx.pool.ite(hit, s, lane);
            }
            out.push(lane);
        }
        out
    }

    /// A work-item function's value for the running work-item; None on
    /// the host (no work-item runs there: the call is unsupported).
    fn work_item_function(&mut self, state: &State, which: WorkItem, args: &[Value]) -> Option<ExprId> {
        let gpu = state.gpu.as_ref()?;
        let item = &gpu.items[gpu.current];
        let ids = crate::exec::opencl::work_item_ids::ItemIds { local: item.local, group: item.group };
        // The row's arity guarantees the dimension argument of those
        // that take one; a symbolic dimension reads as 0.
        let dim = if which.takes_dimension() { self.cx.pool.as_const(args[0][0]).unwrap_or(0) as u64 } else { 0 };
        Some(crate::exec::opencl::work_item_ids::work_item_value(&mut self.cx.pool, &gpu.ndrange, &ids, which, dim))
    }

    /// `atomic_add(p, v)` and friends: read-modify-write, recorded as atomic.
    fn atomic_builtin(&mut self, state: &mut State, c: &CallCtx, op: Atomic, params: &str) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let t = c.inst.ty.clone();
        let len = t.store_size();
        let ptr = c.args[0][0];
        let access = self.resolve(state, ptr, len, loc, true)?;
        let bytes = self.read_bytes(state, &access, len, loc);
        let old = crate::memory::layout::bytes_to_value(&mut self.cx.pool, &t, &bytes)[0];
        let w = self.cx.pool.width(old);
        let unsigned = params.ends_with('j') || params.ends_with('m');
        // The row's arity guarantees the operands each form reads.
        let arg = |k: usize| c.args[k][0];
        let p = &mut self.cx.pool;
        let one = p.constant(w, 1);
        // A compare-and-exchange writes only when its compare succeeds.
        let mut written_when = None;
        let new = match op {
            Atomic::Inc => p.add(old, one),
            Atomic::Dec => p.sub(old, one),
            Atomic::Add => p.add(old, arg(1)),
            Atomic::Sub => p.sub(old, arg(1)),
            Atomic::Xchg => arg(1),
            Atomic::And => p.and(old, arg(1)),
            Atomic::Or => p.or(old, arg(1)),
            Atomic::Xor => p.xor(old, arg(1)),
            Atomic::Min | Atomic::Max => {
                let lt = p.cmp(if unsigned { CmpOp::Ult } else { CmpOp::Slt }, old, arg(1));
                if op == Atomic::Min {
                    p.ite(lt, old, arg(1))
                } else {
                    p.ite(lt, arg(1), old)
                }
            }
            Atomic::CmpXchg => {
                let eq = p.eq(old, arg(1));
                written_when = Some(eq);
                p.ite(eq, arg(2), old)
            }
        };
        let out = crate::memory::layout::value_to_bytes(&mut self.cx.pool, &t, &[new]);
        self.observe_atomic(state, &access, len, written_when, loc);
        self.write_bytes(state, &access, &out);
        Ok(Some(scalar(old)))
    }

    /// Math built-ins with exact semantics, lane by lane, reusing the libm
    /// rows (`sqrt`, `fabs`, `fmin`, ...) and integer min/max/clamp.
    fn opencl_math(&mut self, c: &CallCtx, name: &str, builtin: Builtin, params: &str) -> Outcome {
        let lanes = c.inst.ty.lanes() as usize;
        let fmt = c.inst.ty.is_float();
        let mut out = Value::new();
        for i in 0..lanes {
            let lane_args: Vec<Value> = c.args.iter().map(|a| scalar(if a.len() > 1 { a[i] } else { a[0] })).collect();
            let v = match (builtin, fmt) {
                (Builtin::MinMax { max }, None) => {
                    let signed = !first_param_unsigned(params);
                    let lt = self.cx.pool.cmp(if signed { CmpOp::Slt } else { CmpOp::Ult }, lane_args[0][0], lane_args[1][0]);
                    if max {
                        self.cx.pool.ite(lt, lane_args[1][0], lane_args[0][0])
                    } else {
                        self.cx.pool.ite(lt, lane_args[0][0], lane_args[1][0])
                    }
                }
                // Devices break fmin/fmax ties (+0 and -0) differently: the
                // OpenCL text gives the first operand, PoCL on x86-64 the
                // second (measured). Either may come back.
                (Builtin::MinMax { max }, Some(f)) => crate::exec::ops::intrinsics::min_max_num(
                    &mut self.cx.pool,
                    crate::exec::ops::intrinsics::MinMaxTies::EitherOperand,
                    max,
                    f,
                    lane_args[0][0],
                    lane_args[1][0],
                ),
                (_, Some(f)) => {
                    let scalar_ty = Type::Float(f);
                    let inst = crate::ir::Inst { kind: c.inst.kind.clone(), dest: c.inst.dest, ty: scalar_ty, loc: c.inst.loc };
                    let libm_name = if f == crate::expr::FpFormat::Single { format!("{name}f") } else { name.to_string() };
                    let sub = CallCtx { name: &libm_name, args: lane_args, inst: &inst };
                    self.libm(&sub)?[0]
                }
                _ => return None,
            };
            out.push(v);
        }
        Some(Ok(Some(out)))
    }
}

/// Whether the first parameter of a mangled OpenCL built-in is of an
/// unsigned integer type (`h` uchar, `t` ushort, `j` uint, `m` ulong),
/// scalar or vector (`Dv4_j`).
fn first_param_unsigned(params: &str) -> bool {
    let elem = match params.strip_prefix("Dv") {
        Some(rest) => rest.trim_start_matches(|c: char| c.is_ascii_digit()).strip_prefix('_').unwrap_or(rest),
        None => params,
    };
    matches!(elem.chars().next(), Some('h' | 't' | 'j' | 'm'))
}

#[cfg(test)]
mod tests {
    use super::{first_param_unsigned, opencl_arity};
    use crate::exec::engine::arity::Arity;

    #[test]
    fn arity_of_mangled_and_plain_builtins() {
        let arity = |name: &str, in_kernel: bool| opencl_arity(name, in_kernel);
        assert_eq!(arity("_Z13get_global_idj", true), Some(("get_global_id".into(), Arity::Exact(1))));
        assert_eq!(arity("_Z12get_work_dimv", true), Some(("get_work_dim".into(), Arity::Exact(0))));
        assert_eq!(arity("_Z14atomic_cmpxchgPU3AS1Vjjj", true), Some(("atomic_cmpxchg".into(), Arity::Exact(3))));
        assert_eq!(arity("_Z10atomic_incPU3AS1Vj", true), Some(("atomic_inc".into(), Arity::Exact(1))));
        assert_eq!(arity("_Z13native_divideff", true), Some(("native_divide".into(), Arity::Exact(2))));
        assert_eq!(arity("_Z4fminff", true), Some(("fmin".into(), Arity::Exact(2))));
        assert_eq!(arity("_Z5clampfff", true), None, "no row: unsupported as before");
        assert_eq!(arity("_Z11read_imagef14ocl_image2d_ro11ocl_samplerDv2_i", true), Some(("read_imagef".into(), Arity::Between(2, 3))));
        assert_eq!(arity("_Z12write_imagef14ocl_image2d_woDv2_iDv4_f", true), Some(("write_imagef".into(), Arity::Exact(3))));
        assert_eq!(arity("_Z15get_image_width14ocl_image2d_ro", true), Some(("get_image_width".into(), Arity::Exact(1))));
        // A plain name is a built-in only on the device.
        assert_eq!(arity("get_global_id", true), Some(("get_global_id".into(), Arity::Exact(1))));
        assert_eq!(arity("get_global_id", false), None);
        assert_eq!(arity("__get_global_id", true), None);
    }

    #[test]
    fn signedness_of_mangled_parameters() {
        assert!(first_param_unsigned("jj"));
        assert!(first_param_unsigned("Dv4_mS_"));
        assert!(first_param_unsigned("h"));
        assert!(!first_param_unsigned("ii"));
        assert!(!first_param_unsigned("Dv16_cS_"));
        assert!(!first_param_unsigned("l"));
    }
}
