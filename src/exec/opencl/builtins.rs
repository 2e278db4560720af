//! OpenCL C built-in functions on the device side: work-item functions,
//! barriers, atomics, and math built-ins mapped onto the libm semantics of
//! intrinsics.rs (approximate `native_*`/`half_*` yield fresh values).
//! Built-ins arrive as Itanium-mangled calls (`_Z13get_global_idj`). Each
//! has its arity (`opencl_arity`), checked at the call.

use crate::exec::engine::arity::Arity;
use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::exec::engine::value::{scalar, Value};
use crate::expr::{BinOp, CmpOp, ExprId};
use crate::ir::Type;

type Outcome = Option<Result<Option<Value>, Step>>;

/// The plain name of a mangled function: `_Z13get_global_idj` ->
/// (`get_global_id`, `j`).
pub fn demangle(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("_Z")?;
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    let len: usize = rest[..digits].parse().ok()?;
    let body = &rest[digits..];
    (body.len() >= len).then(|| (&body[..len], &body[len..]))
}

/// The work-item and synchronisation built-ins and their arity. A kernel
/// may also reach them under their plain C name, when its source declares
/// one itself (`size_t get_global_id(void);`): that call is then checked
/// against this row too.
const WORK_ITEM_ROWS: &[(&str, Arity)] = &[
    ("get_work_dim", Arity::Exact(0)),
    ("get_local_id", Arity::Exact(1)),
    ("get_group_id", Arity::Exact(1)),
    ("get_global_id", Arity::Exact(1)),
    ("get_local_size", Arity::Exact(1)),
    ("get_enqueued_local_size", Arity::Exact(1)),
    ("get_num_groups", Arity::Exact(1)),
    ("get_global_size", Arity::Exact(1)),
    ("get_global_offset", Arity::Exact(1)),
    ("barrier", Arity::Exact(1)),
    // OpenCL 2.0 adds a memory scope.
    ("work_group_barrier", Arity::Between(1, 2)),
    ("wait_group_events", Arity::Exact(2)),
    ("mem_fence", Arity::Exact(1)),
    ("read_mem_fence", Arity::Exact(1)),
    ("write_mem_fence", Arity::Exact(1)),
];

/// The arity of the OpenCL built-in a call to `name` reaches, with the
/// name to show (demangled); None when `call_opencl` has no row for it.
/// `in_kernel`: the call runs on the device, where a plain name may
/// stand for a work-item built-in the kernel declared itself.
pub fn opencl_arity(name: &str, in_kernel: bool) -> Option<(String, Arity)> {
    match name {
        "__symcross_async_begin" => return Some((name.to_string(), Arity::Exact(1))),
        "__symcross_async_end" => return Some((name.to_string(), Arity::Exact(0))),
        _ => {}
    }
    let work_item = |plain: &str| WORK_ITEM_ROWS.iter().find(|(n, _)| *n == plain).map(|(_, a)| *a);
    let Some((plain, _)) = demangle(name) else {
        let reserved = name.starts_with("__") || name.starts_with("llvm.");
        return if in_kernel && !reserved { work_item(name).map(|a| (name.to_string(), a)) } else { None };
    };
    let arity = if let Some(a) = work_item(plain) {
        a
    } else if let Some(op) = plain.strip_prefix("atomic_").or_else(|| plain.strip_prefix("atom_")) {
        match op {
            "inc" | "dec" => Arity::Exact(1),
            "cmpxchg" => Arity::Exact(3),
            "add" | "sub" | "xchg" | "and" | "or" | "xor" | "min" | "max" => Arity::Exact(2),
            _ => return None,
        }
    } else if let Some(op) = plain.strip_prefix("native_").or_else(|| plain.strip_prefix("half_")) {
        if op == "divide" || op == "powr" {
            Arity::Exact(2)
        } else {
            Arity::Exact(1)
        }
    } else {
        match plain {
            "mad" | "shuffle2" => Arity::Exact(3),
            "shuffle" | "min" | "max" => Arity::Exact(2),
            _ => crate::exec::ops::intrinsics::libm_arity(plain)?,
        }
    };
    Some((plain.to_string(), arity))
}

impl<'m> Executor<'m> {
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
            _ => {}
        }
        let (name, params) = demangle(c.name)?;
        if let Some(v) = self.work_item_function(state, name, c) {
            return Some(Ok(Some(scalar(v))));
        }
        match name {
            "barrier" | "work_group_barrier" | "wait_group_events" => {
                if state.gpu.is_none() {
                    return Some(Ok(None));
                }
                // wait_group_events completes the asynchronous copies of
                // its events (see cl-runtime-model/device/async_copy.cl):
                // a barrier on both address spaces.
                let (flags, waits) = if name == "wait_group_events" {
                    match self.waited_events(state, c) {
                        Ok(w) => (self.pool.constant(32, 3), Some(w)),
                        Err(step) => return Some(Err(step)),
                    }
                } else {
                    (c.args[0][0], None)
                };
                return Some(Err(self.work_item_barrier(state, flags, c.inst.loc, waits)));
            }
            "mem_fence" | "read_mem_fence" | "write_mem_fence" => return Some(Ok(None)),
            _ => {}
        }
        if let Some(op) = name.strip_prefix("atomic_").or_else(|| name.strip_prefix("atom_")) {
            return Some(self.atomic_builtin(state, c, op, params));
        }
        if name.starts_with("native_") || name.starts_with("half_") || name == "mad" {
            let w = c.inst.ty.scalar_bits();
            let lanes = c.inst.ty.lanes();
            return Some(Ok(Some((0..lanes).map(|_| self.pool.fresh(w)).collect())));
        }
        if name == "shuffle" || name == "shuffle2" {
            return Some(Ok(Some(self.shuffle_builtin(c))));
        }
        self.opencl_math(c, name, params)
    }

    /// `__symcross_async_begin(e)`: the running work-item's accesses until
    /// `__symcross_async_end` are an asynchronous copy's. Its event is `e`
    /// when the call names one, else the next number of the work-item's
    /// copies (the same for every work-item making the same calls).
    fn async_copy_begin(&mut self, state: &mut State, c: &CallCtx) -> ExprId {
        let given = c.args.first().map(|a| a[0]).unwrap_or_else(|| self.pool.constant(64, 0));
        // Reported at the user's call of async_work_group_copy.
        let call = state.frame().call_loc;
        let loc = if call == crate::ir::Loc::default() { c.inst.loc } else { call };
        let Some(gpu) = state.gpu.as_mut() else { return given };
        let cur = gpu.current;
        let item = &mut gpu.items[cur];
        let event = match self.pool.as_const(given) {
            Some(e) if e != 0 => e as u64,
            _ => {
                item.async_started += 1;
                // Numbered far from small integers an event is not.
                (1 << 48) | item.async_started
            }
        };
        item.async_copy = Some((event, loc));
        self.pool.constant(64, event as u128)
    }

    /// The events of `wait_group_events(n, list)`, read from the list.
    fn waited_events(&mut self, state: &mut State, c: &CallCtx) -> Result<Vec<u64>, Step> {
        let n = self.concrete_arg(state, c.args[0][0])?;
        let list = c.args[1][0];
        let mut out = Vec::new();
        for k in 0..n.min(1024) {
            let off = self.pool.constant(64, (k * 8) as u128);
            let addr = self.pool.add(list, off);
            let v = self.load_value(state, addr, &Type::Int(64), c.inst.loc)?[0];
            // An event no copy returned (a symbolic or stale handle) waits
            // for nothing in particular.
            out.push(self.pool.as_const(v).map(|e| e as u64).unwrap_or(0));
        }
        out.sort_unstable();
        Ok(out)
    }

    /// A function the kernel's source declares but never defines: as
    /// GPUVerify assumes, it returns an arbitrary value and touches no
    /// shared memory. Only plain C names qualify: an OpenCL built-in (an
    /// overloaded, mangled `_Z...` name) or a reserved `__` name that
    /// symcross does not model stays an `unsupported` finding.
    pub(in crate::exec) fn call_undefined_in_kernel(&mut self, state: &State, c: &CallCtx) -> Outcome {
        state.gpu.as_ref()?;
        if demangle(c.name).is_some() || c.name.starts_with("__") || c.name.starts_with("llvm.") {
            return None;
        }
        let widths = crate::exec::engine::step::leaf_widths(&c.inst.ty);
        if widths.is_empty() {
            return Some(Ok(None));
        }
        Some(Ok(Some(widths.into_iter().map(|w| self.pool.fresh(w)).collect())))
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
            let w = self.pool.width(m);
            let modulus = self.pool.constant(w, n);
            let index = self.pool.bin(BinOp::URem, m, modulus);
            let mut lane = sources[0];
            for (k, &s) in sources.iter().enumerate().skip(1) {
                let kc = self.pool.constant(w, k as u128);
                let hit = self.pool.eq(index, kc);
                lane = self.pool.ite(hit, s, lane);
            }
            out.push(lane);
        }
        out
    }

    fn work_item_function(&mut self, state: &State, name: &str, c: &CallCtx) -> Option<ExprId> {
        const NAMES: &[&str] = &[
            "get_work_dim",
            "get_local_id",
            "get_group_id",
            "get_global_id",
            "get_local_size",
            "get_enqueued_local_size",
            "get_num_groups",
            "get_global_size",
            "get_global_offset",
        ];
        if !NAMES.contains(&name) {
            return None;
        }
        let gpu = state.gpu.as_ref()?;
        let nd = gpu.ndrange;
        let item = &gpu.items[gpu.current];
        let d = c.args.first().and_then(|a| self.pool.as_const(a[0])).unwrap_or(0) as usize;
        let out_of_range = d >= nd.dims as usize;
        let p = &mut self.pool;
        let k = |p: &mut crate::expr::ExprPool, v: u64| p.constant(64, v as u128);
        Some(match name {
            "get_work_dim" => p.constant(32, nd.dims as u128),
            _ if out_of_range => match name {
                "get_global_id" | "get_local_id" | "get_group_id" | "get_global_offset" => k(p, 0),
                _ => k(p, 1),
            },
            "get_local_id" => item.local[d],
            "get_group_id" => item.group[d],
            "get_global_id" => {
                let size = k(p, nd.local[d]);
                let base = p.mul(item.group[d], size);
                let id = p.add(base, item.local[d]);
                let offset = k(p, nd.offset[d]);
                p.add(id, offset)
            }
            "get_local_size" | "get_enqueued_local_size" => k(p, nd.local[d]),
            "get_num_groups" => k(p, nd.groups[d]),
            "get_global_size" => k(p, nd.local[d] * nd.groups[d]),
            "get_global_offset" => k(p, nd.offset[d]),
            _ => return None,
        })
    }

    /// `atomic_add(p, v)` and friends: read-modify-write, recorded as atomic.
    fn atomic_builtin(&mut self, state: &mut State, c: &CallCtx, op: &str, params: &str) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let t = c.inst.ty.clone();
        let len = t.store_size();
        let ptr = c.args[0][0];
        let access = self.resolve(state, ptr, len, loc, true)?;
        let bytes = self.read_bytes(state, &access, len, loc);
        let old = crate::exec::memory::layout::bytes_to_value(&mut self.pool, &t, &bytes)[0];
        let w = self.pool.width(old);
        let unsigned = params.ends_with('j') || params.ends_with('m');
        let arg = |k: usize| c.args.get(k).map(|a| a[0]);
        let p = &mut self.pool;
        let one = p.constant(w, 1);
        let new = match (op, arg(1)) {
            ("inc", _) => p.add(old, one),
            ("dec", _) => p.sub(old, one),
            ("add", Some(v)) => p.add(old, v),
            ("sub", Some(v)) => p.sub(old, v),
            ("xchg", Some(v)) => v,
            ("and", Some(v)) => p.and(old, v),
            ("or", Some(v)) => p.or(old, v),
            ("xor", Some(v)) => p.xor(old, v),
            ("min" | "max", Some(v)) => {
                let lt = p.cmp(if unsigned { CmpOp::Ult } else { CmpOp::Slt }, old, v);
                if op == "min" {
                    p.ite(lt, old, v)
                } else {
                    p.ite(lt, v, old)
                }
            }
            ("cmpxchg", Some(cmp)) => {
                let v = arg(2).unwrap_or(cmp);
                let eq = p.eq(old, cmp);
                p.ite(eq, v, old)
            }
            _ => return Err(self.unsupported(state, loc, format!("OpenCL built-in atomic_{op}"))),
        };
        let out = crate::exec::memory::layout::value_to_bytes(&mut self.pool, &t, &[new]);
        self.observe_access(state, &access, len, true, true, None, loc);
        self.write_bytes(state, &access, &out);
        let _ = BinOp::Add;
        Ok(Some(scalar(old)))
    }

    /// Math built-ins with exact semantics, lane by lane, reusing the libm
    /// rows (`sqrt`, `fabs`, `fmin`, ...) and integer min/max/clamp.
    fn opencl_math(&mut self, c: &CallCtx, name: &str, params: &str) -> Outcome {
        let lanes = c.inst.ty.lanes() as usize;
        let fmt = c.inst.ty.is_float();
        let mut out = Value::new();
        for i in 0..lanes {
            let lane_args: Vec<Value> = c.args.iter().map(|a| scalar(if a.len() > 1 { a[i] } else { a[0] })).collect();
            let v = match (name, fmt) {
                ("min" | "max", None) => {
                    let signed = !first_param_unsigned(params);
                    let lt = self.pool.cmp(if signed { CmpOp::Slt } else { CmpOp::Ult }, lane_args[0][0], lane_args[1][0]);
                    if name == "min" {
                        self.pool.ite(lt, lane_args[0][0], lane_args[1][0])
                    } else {
                        self.pool.ite(lt, lane_args[1][0], lane_args[0][0])
                    }
                }
                ("min" | "max", Some(f)) => {
                    let op = if name == "min" { crate::expr::FBinOp::Min } else { crate::expr::FBinOp::Max };
                    self.pool.fbin(op, f, lane_args[0][0], lane_args[1][0])
                }
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
        let arity = |name: &str, in_kernel: bool| opencl_arity(name, in_kernel).map(|(shown, a)| (shown, a));
        assert_eq!(arity("_Z13get_global_idj", true), Some(("get_global_id".into(), Arity::Exact(1))));
        assert_eq!(arity("_Z12get_work_dimv", true), Some(("get_work_dim".into(), Arity::Exact(0))));
        assert_eq!(arity("_Z14atomic_cmpxchgPU3AS1Vjjj", true), Some(("atomic_cmpxchg".into(), Arity::Exact(3))));
        assert_eq!(arity("_Z10atomic_incPU3AS1Vj", true), Some(("atomic_inc".into(), Arity::Exact(1))));
        assert_eq!(arity("_Z13native_divideff", true), Some(("native_divide".into(), Arity::Exact(2))));
        assert_eq!(arity("_Z4fminff", true), Some(("fmin".into(), Arity::Exact(2))));
        assert_eq!(arity("_Z5clampfff", true), None, "no row: unsupported as before");
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
