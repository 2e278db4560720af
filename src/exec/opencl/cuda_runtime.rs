//! The engine primitives behind the modelled CUDA runtime
//! (cl-runtime-model/host/cuda_runtime.c, declared in
//! cl-runtime-model/cuda/symcross_cuda_runtime.h): device memory, and a
//! `<<<grid, block, shared>>>` launch run like an OpenCL NDRange
//! (launch.rs) on the device side of the same `.cu` file, compiled
//! separately and installed before the run (`install_cuda_device`).
//! Also the check that host code does not dereference device memory,
//! the device's globals (`__device__`, `__constant__`) laid out once for
//! the whole program and reached from the host by symbol, managed and
//! pinned memory, and the kernel paths that fault, from which the host
//! goes on with the launch failed.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::exec::opencl::launch::{KernelArg, Launch};
use crate::exec::opencl::workitems::NdRange;
use crate::expr::value::{scalar, Value};
use crate::expr::{Assignment, ExprId};
use crate::ir::{FuncId, Loc, Module};
use crate::memory::{Access, Memory, ObjectKind};
use crate::report::FindingKind;
use std::rc::Rc;

/// The device side of the `.cu` program being checked.
pub struct CudaDevice {
    pub module: Rc<Module>,
    /// Index in `module.files` where the host module's file names start
    /// (as `ClProgram::host_files_at`).
    pub host_files_at: u32,
    /// Where the device module's globals and functions are in the host
    /// program's memory (laid out when the run starts); None before.
    pub layout: Option<DeviceLayout>,
    /// The addresses of its `__managed__` variables (cuda_managed.rs).
    pub managed: Vec<u64>,
}

/// The addresses of a module's globals and functions in memory.
#[derive(Clone, Debug)]
pub struct DeviceLayout {
    pub global_addr: Vec<u64>,
    pub function_base: Vec<u64>,
}

/// How the objects of memory that both the host and the device may touch
/// are named: `cudaMallocManaged` and `cudaMallocHost` memory.
const HOST_VISIBLE: [&str; 2] = ["managed memory", "pinned host memory"];

/// The faulted kernel paths of one launch kept for the host to go on
/// from (launch.rs), and one more, which tells the launch that its limit
/// was passed; the others end at their finding, which is reported all
/// the same, so only the host's error handling after them is not
/// followed again.
const MAX_FAULTED_PATHS: usize = crate::exec::opencl::launch::MAX_FAULTED_CONTINUATIONS + 1;

/// How clang names a kernel's host stub: the kernel's name with this in
/// front of its identifier (`_Z6vecAddPfi` -> `_Z21__device_stub__vecAddPfi`).
const STUB_PREFIX: &str = "__device_stub__";

/// What `__symcross_cuda_launch` returns when the device side has no
/// kernel for the stub (it returns launch.rs's `KERNEL_RAN` or a
/// `LaunchFault`'s code otherwise).
const NO_SUCH_KERNEL: u32 = 1;

/// How a kernel path that fails its launch ended; the runtime model
/// (cuda_runtime.c) turns the code into the error a GPU reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(in crate::exec) enum LaunchFault {
    /// An access outside every object or past one, a use after free:
    /// cudaErrorIllegalAddress.
    IllegalAddress,
    /// An access not aligned to its type: cudaErrorMisalignedAddress.
    Misaligned,
    /// A failed device-side `assert()`: cudaErrorAssert.
    Assert,
    /// `__trap()`: cudaErrorLaunchFailure.
    Trap,
}

impl LaunchFault {
    /// What `__symcross_cuda_launch` returns for it.
    pub(in crate::exec) fn code(self) -> u32 {
        match self {
            LaunchFault::IllegalAddress => 2,
            LaunchFault::Misaligned => 3,
            LaunchFault::Assert => 4,
            LaunchFault::Trap => 5,
        }
    }
}

/// The device kernel's (mangled) name for the name of its host stub.
pub fn kernel_name_of_stub(stub: &str) -> Option<String> {
    let at = stub.find(STUB_PREFIX)?;
    if at == 0 {
        // extern "C": no mangling.
        return Some(stub[STUB_PREFIX.len()..].to_string());
    }
    // Itanium mangling: the identifier's length is the number before it.
    let digits = stub[..at].bytes().rev().take_while(u8::is_ascii_digit).count();
    let length: usize = stub[at - digits..at].parse().ok()?;
    let rest = length.checked_sub(STUB_PREFIX.len()).filter(|&n| n > 0)?;
    Some(format!("{}{rest}{}", &stub[..at - digits], &stub[at + STUB_PREFIX.len()..]))
}

/// Whether `name` is a function of the modelled CUDA runtime API
/// (`cudaMemcpy`, `__cudaPopCallConfiguration`, and the header's typed
/// `cudaMalloc<T>`, mangled `_ZL10cudaMallocIfE...`).
pub fn is_runtime_api(name: &str) -> bool {
    let plain = match name.strip_prefix("_Z") {
        Some(rest) => rest.trim_start_matches('L').trim_start_matches(|c: char| c.is_ascii_digit()),
        None => name,
    };
    plain.starts_with("cuda") || plain.starts_with("__cuda")
}

impl<'m> Executor<'m> {
    /// Installs the device side of the program: launches find their
    /// kernels in it. Its file table gets the host's after its own.
    pub fn install_cuda_device(&mut self, mut module: Module) {
        let host_files_at = module.files.len() as u32;
        module.files.extend(self.cx.module.files.iter().cloned());
        self.models.cuda = Some(CudaDevice { module: Rc::new(module), host_files_at, layout: None, managed: Vec::new() });
    }

    /// Lays the device module's globals out in the host program's first
    /// state, once: a `__device__` variable keeps its value from one
    /// launch to the next, and the host reaches it by symbol
    /// (`cudaMemcpyToSymbol`). `__shared__` arrays among them start afresh
    /// in every block of every launch all the same (ndrange_setup.rs).
    pub fn lay_out_cuda_device(&mut self, state: &mut State) {
        let Some(device) = self.models.cuda.as_ref() else { return };
        let module = device.module.clone();
        let mut nested = Executor::new(module.as_ref(), self.cx.config.clone(), self.lent_decider());
        self.trade_engine(&mut nested);
        nested.lay_out_module(&mut state.memory);
        self.trade_engine(&mut nested);
        let layout = DeviceLayout { global_addr: nested.global_addr.clone(), function_base: nested.function_base.clone() };
        drop(nested);
        let managed = self.share_managed_variables(state, &module, &layout.global_addr);
        if let Some(device) = self.models.cuda.as_mut() {
            device.layout = Some(layout);
            device.managed = managed;
        }
    }

    /// A nested kernel executor takes the program's device layout instead
    /// of laying the module out again.
    pub(super) fn adopt_layout(&mut self, layout: &DeviceLayout) {
        self.global_addr = layout.global_addr.clone();
        self.function_base = layout.function_base.clone();
        self.function_addr = layout.function_base.iter().enumerate().map(|(i, b)| (*b, FuncId(i as u32))).collect();
    }

    /// A finding of `kind` on `state`: a CUDA kernel's memory fault (an
    /// access outside every object or past one, a use after free) ends
    /// the kernel path here, and the host goes on from it with the launch
    /// failed, as a GPU's illegal address does (kept while `faulted` is
    /// set, by a CUDA launch).
    pub(in crate::exec) fn keep_faulted_path(&mut self, state: &State, kind: FindingKind) {
        if matches!(kind, FindingKind::OutOfBounds | FindingKind::UseAfterFree) {
            self.fail_launch(state, LaunchFault::IllegalAddress);
        }
    }

    /// Keeps `state`, a kernel path of a CUDA launch that ends at `fault`,
    /// for the host to go on from with the launch failed (nothing outside
    /// a CUDA launch's kernel).
    fn fail_launch(&mut self, state: &State, fault: LaunchFault) {
        if state.gpu.is_none() {
            return;
        }
        if let Some(kept) = self.faulted.as_mut().filter(|k| k.len() < MAX_FAULTED_PATHS) {
            kept.push((state.clone(), fault.code()));
        }
    }

    /// A misaligned access in a kernel of a CUDA launch, `misaligned`
    /// being the condition under which it is (None: on every input of the
    /// path): a GPU stops the kernel there, so those inputs fail the
    /// launch with a misaligned address, and the path goes on only with
    /// the inputs for which the access is aligned (`model` satisfies
    /// `misaligned`). Elsewhere (OpenCL, a kernel run alone) the path goes
    /// on, the finding made.
    pub(in crate::exec) fn misaligned_fails_launch(
        &mut self,
        state: &mut State,
        misaligned: Option<ExprId>,
        model: Option<&Assignment>,
    ) -> Result<(), Step> {
        if self.faulted.is_none() || state.gpu.is_none() {
            return Ok(());
        }
        let Some(misaligned) = misaligned else {
            self.fail_launch(state, LaunchFault::Misaligned);
            return Err(Step::Terminated);
        };
        let mut faulting = state.clone();
        faulting.path.push(misaligned);
        faulting.model = model.cloned();
        self.fail_launch(&faulting, LaunchFault::Misaligned);
        let aligned = self.cx.pool.not(misaligned);
        if self.assume(state, aligned) {
            Ok(())
        } else {
            Err(Step::Terminated)
        }
    }

    /// `__symcross_cuda_assert_fail(assertion, file, line, function)`: a
    /// kernel's `assert()` that fails (symcross_cuda_faults.h): a
    /// `mismatch` as on the host, and in a CUDA launch the launch fails
    /// with cudaErrorAssert.
    pub(in crate::exec) fn cuda_assert_fail(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        self.fail_launch(state, LaunchFault::Assert);
        self.builtin_assert_fail(state, c)
    }

    /// `__symcross_cuda_trap()`: a kernel's `__trap()` aborts it. Reaching
    /// it is a `mismatch`, as `abort()` is on the host, and in a CUDA
    /// launch the launch fails with cudaErrorLaunchFailure.
    pub(in crate::exec) fn cuda_trap(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        self.fail_launch(state, LaunchFault::Trap);
        let model = state.model.clone();
        let decided = state.branch_step.filter(|_| !state.unconfirmed_path);
        self.log.check_stats.record(decided.as_slice());
        let witness = model.as_ref().filter(|_| !state.unconfirmed_path);
        let message = "__trap() can be called: it aborts the kernel".to_string();
        self.report(state, FindingKind::Mismatch, c.inst.loc, message, witness, decided);
        Err(Step::Terminated)
    }

    /// The host global at `addr` (a `__device__` or `__constant__`
    /// variable's host shadow, as `&symbol` gives it): the device global
    /// of the same name, as its index in the device module.
    fn device_symbol(&self, addr: u64) -> Option<usize> {
        let device = self.models.cuda.as_ref()?;
        let host = self.global_addr.iter().position(|&a| a == addr)?;
        let name = &self.cx.module.globals[host].name;
        device
            .module
            .globals
            .iter()
            .position(|g| &g.name == name && matches!(g.addr_space, crate::ir::GLOBAL_SPACE | crate::ir::CONSTANT_SPACE) && g.size > 0)
    }

    /// `void *__symcross_cuda_symbol(const void *symbol)`: the device
    /// address of the `__device__`/`__constant__` variable whose host
    /// shadow is at `symbol`, or null when it is no such variable.
    pub(in crate::exec) fn cuda_symbol(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let addr = self.concrete_arg(state, c.args[0][0])?;
        let at =
            self.device_symbol(addr).and_then(|g| self.models.cuda.as_ref()?.layout.as_ref()?.global_addr.get(g).copied()).unwrap_or(0);
        Ok(Some(scalar(self.cx.pool.constant(64, at as u128))))
    }

    /// `size_t __symcross_cuda_symbol_size(const void *symbol)`: its size in
    /// bytes (0 when it is no device variable).
    pub(in crate::exec) fn cuda_symbol_size(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let addr = self.concrete_arg(state, c.args[0][0])?;
        let size = match (self.device_symbol(addr), self.models.cuda.as_ref()) {
            (Some(g), Some(d)) => d.module.globals[g].size,
            _ => 0,
        };
        Ok(Some(scalar(self.cx.pool.constant(64, size as u128))))
    }

    /// `void __symcross_cuda_copy_to_symbol(void *dst, const void *src,
    /// size_t n)`: the host's write into a device variable. `__constant__`
    /// memory is read-only to kernels only: this copy writes it.
    pub(in crate::exec) fn cuda_copy_to_symbol(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = self.cuda_call_loc(state, c.inst.loc);
        let n = self.concrete_size(state, c.args[2][0], loc, "the size of a cudaMemcpyToSymbol")?;
        let dst = self.concrete_arg(state, c.args[0][0])?;
        let constant = state.memory.object_near(dst).filter(|&o| {
            let o = state.memory.object(o);
            o.addr_space == crate::ir::CONSTANT_SPACE && o.read_only
        });
        if let Some(o) = constant {
            state.memory.object_mut(o).read_only = false;
        }
        let copied = self.copy_bytes(state, c.args[0][0], c.args[1][0], n, loc);
        if let Some(o) = constant {
            state.memory.object_mut(o).read_only = true;
        }
        copied.map(|_| None)
    }

    /// `void *__symcross_cuda_alloc_shared(size, pinned)`: memory both the
    /// host and kernels may touch (`cudaMallocManaged`, or with `pinned`
    /// `cudaMallocHost`), named after the user's line.
    pub(in crate::exec) fn cuda_alloc_shared(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let pinned = self.concrete_arg(state, c.args[1][0])? != 0;
        let what = HOST_VISIBLE[pinned as usize];
        self.cuda_allocate(state, c, what)
    }

    /// `void __symcross_cuda_limit(const char *what)`: something the model
    /// does not check (work of two streams that may overlap): an
    /// `unsupported` finding, so the verdict cannot be a proof; the path
    /// goes on in program order, so what it finds later is still found.
    pub(in crate::exec) fn cuda_limit(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let what = self.read_c_string(state, c.args[0][0], c.inst.loc)?;
        let user = self.cuda_call_loc(state, c.inst.loc);
        self.report(state, FindingKind::Unsupported, user, format!("not checked: {what}"), None, None);
        Ok(None)
    }

    /// `void __symcross_cuda_unsupported(const char *what)`: a CUDA
    /// runtime use the model does not follow; ends the path.
    pub(in crate::exec) fn cuda_unsupported(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let what = self.read_c_string(state, c.args[0][0], c.inst.loc)?;
        let user = self.cuda_call_loc(state, c.inst.loc);
        self.report(state, FindingKind::Unsupported, user, format!("CUDA runtime use not modelled: {what}"), None, None);
        Err(Step::Terminated)
    }

    /// The user's line for a call inside the CUDA runtime model: where
    /// the outermost runtime API function on the stack was called, or the
    /// kernel's host stub (the `<<<...>>>` line, not the stub's own call
    /// of cudaLaunchKernel).
    pub(super) fn cuda_call_loc(&self, state: &State, fallback: Loc) -> Loc {
        let user_facing = |name: &str| is_runtime_api(name) || name.contains(STUB_PREFIX);
        state.stack.iter().find(|f| user_facing(&self.cx.module.function(f.func).name)).map(|f| f.call_loc).unwrap_or(fallback)
    }

    /// `void *__symcross_cuda_alloc(size)`: global memory named after the
    /// user's cudaMalloc line.
    pub(in crate::exec) fn cuda_alloc(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        self.cuda_allocate(state, c, "device memory")
    }

    /// Global memory of `c.args[0]` bytes named `what` and the user's line.
    fn cuda_allocate(&mut self, state: &mut State, c: &CallCtx, what: &str) -> Result<Option<Value>, Step> {
        let n = self.concrete_arg(state, c.args[0][0])?;
        let user = self.cuda_call_loc(state, c.inst.loc);
        let file = self.cx.module.file_name(user);
        let name = format!("{what} allocated at {}:{}", file.rsplit('/').next().unwrap_or(file), user.line);
        self.admit_allocation(n)?;
        let id = state.memory.allocate(&mut self.cx.pool, n, 256, ObjectKind::Heap, name);
        let o = state.memory.object_mut(id);
        o.alloc_line = Some(user);
        o.addr_space = crate::ir::GLOBAL_SPACE;
        let base = o.base;
        Ok(Some(scalar(self.cx.pool.constant(64, base as u128))))
    }

    /// `void __symcross_cuda_free(p)`: frees, recording the user's cudaFree line.
    pub(in crate::exec) fn cuda_free(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let user = self.cuda_call_loc(state, c.inst.loc);
        self.free_pointer(state, c.args[0][0], user)?;
        Ok(None)
    }

    /// `int __symcross_cuda_launch(stub, gx, gy, gz, bx, by, bz, args,
    /// shared)`: runs the kernel whose host stub is `stub` on the current
    /// memory; 1 when the device side has no such kernel.
    pub(in crate::exec) fn cuda_launch(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let user = self.cuda_call_loc(state, loc);
        let stub = self.concrete_arg(state, c.args[0][0])?;
        let mut sizes = [0u64; 6];
        for (k, s) in sizes.iter_mut().enumerate() {
            *s = self.concrete_arg(state, c.args[1 + k][0])?;
        }
        let shared = self.concrete_arg(state, c.args[8][0])?;
        let Some(device) = self.models.cuda.as_ref() else {
            return Err(self.unsupported(state, user, "a kernel launch without the device side of a .cu file".into()));
        };
        let (module, host_files_at) = (device.module.clone(), device.host_files_at);
        let Some(kernel) = self.kernel_of_stub(stub) else { return Ok(Some(scalar(self.cx.pool.constant(32, NO_SUCH_KERNEL as u128)))) };
        let params: Vec<u64> =
            module.function(kernel).params.iter().map(|p| p.byval.map_or_else(|| p.ty.size(), |(size, _)| size)).collect();
        let pointers = if params.is_empty() { Vec::new() } else { self.read_words(state, c.args[7][0], params.len(), loc)? };
        let mut args = Vec::with_capacity(params.len());
        for (size, at) in params.into_iter().zip(pointers) {
            let ptr = self.cx.pool.constant(64, at as u128);
            let access = self.resolve(state, ptr, size, loc, false)?;
            args.push(KernelArg::Bytes(self.read_bytes(state, &access, size, loc).into_vec()));
        }
        let [gx, gy, gz, bx, by, bz] = sizes;
        let ndrange = NdRange::of_groups(3, [bx, by, bz], [gx, gy, gz]);
        if ndrange.checked_total().is_none() {
            return Err(self.unsupported(state, user, "a launch of more than 2^64 threads".into()));
        }
        let launch = Launch { module, host_files_at, kernel, ndrange, args, dynamic_shared: Some(shared), host_views: Vec::new() };
        let code = self.run_launch(state, launch, user, c.inst.dest)?;
        Ok(Some(scalar(self.cx.pool.constant(32, code as u128))))
    }

    /// The device kernel whose host stub is at `stub`.
    fn kernel_of_stub(&self, stub: u64) -> Option<FuncId> {
        let module = &self.models.cuda.as_ref()?.module;
        let name = kernel_name_of_stub(&self.cx.module.function(*self.function_addr.get(&stub)?).name)?;
        let k = module.functions.iter().position(|k| k.is_kernel && !k.is_declaration() && k.name == name)?;
        Some(FuncId(k as u32))
    }

    /// `size_t __symcross_cuda_static_shared(const void *stub)`: the bytes
    /// of static `__shared__` memory of the kernel whose host stub is
    /// `stub` (0 when there is no such kernel).
    pub(in crate::exec) fn cuda_static_shared(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let stub = self.concrete_arg(state, c.args[0][0])?;
        let bytes = match (self.kernel_of_stub(stub), self.models.cuda.as_ref()) {
            (Some(k), Some(d)) => super::cuda_static_shared::static_shared_bytes(&d.module, k),
            _ => 0,
        };
        Ok(Some(scalar(self.cx.pool.constant(64, bytes as u128))))
    }

    /// Points every `extern __shared__` array of the kernel module at one
    /// block of `bytes` bytes of shared memory (they all start at the
    /// launch's dynamic shared memory, as in CUDA); each block gets its
    /// own, like a `__local` argument. None if the memory limit refuses it.
    pub(super) fn place_dynamic_shared(&mut self, memory: &mut Memory, bytes: u64) -> Option<()> {
        let module = self.cx.module;
        let externs: Vec<usize> = (0..module.globals.len()).filter(|&g| module.globals[g].is_dynamic_shared()).collect();
        let Some(&first) = externs.first() else { return Some(()) };
        let name = crate::ir::local_static_name(&module.globals[first].name).unwrap_or(&module.globals[first].name).to_string();
        let obj = self.argument_buffer(memory, bytes, crate::ir::LOCAL_SPACE, name)?;
        let base = memory.object(obj).base;
        for g in externs {
            self.global_addr[g] = base;
        }
        Some(())
    }

    /// Host code of a CUDA program reading or writing device memory (a
    /// `cudaMalloc` pointer dereferenced on the host, which has no access
    /// to it): an out-of-bounds finding. The runtime's own copies, inside
    /// its API functions, are what the host must use instead. Managed and
    /// pinned memory the host may touch, but not while a launch or an
    /// asynchronous copy it has not waited for may still run: the model
    /// ran that work to its end already, so what the host sees is one
    /// outcome of a race it does not check, named as not checked.
    pub(in crate::exec) fn check_host_touches_device(&mut self, state: &mut State, access: &Access, len: u64, write: bool, loc: Loc) {
        if state.gpu.is_some() || self.models.cuda.is_none() {
            return;
        }
        let o = state.memory.object(access.object);
        let managed_variable = self.is_managed_variable(o.base);
        if o.addr_space != crate::ir::GLOBAL_SPACE || (o.kind != ObjectKind::Heap && !managed_variable) {
            return;
        }
        if state.stack.iter().any(|f| is_runtime_api(&self.cx.module.function(f.func).name)) {
            return;
        }
        let verb = if write { "writes" } else { "reads" };
        if managed_variable || HOST_VISIBLE.iter().any(|p| o.name.starts_with(p)) {
            let name = if managed_variable { format!("managed variable `{}`", o.name) } else { o.name.clone() };
            if self.device_busy(state) && !self.host_access_clear_of_streams(state, access, len, write, loc) {
                let message = format!(
                    "not checked: host code {verb} {name} while device work it has not waited for may still run (a launch or an \
                     asynchronous copy, with no cudaDeviceSynchronize, cudaStreamSynchronize or cudaEventSynchronize since), and \
                     whether that work touches the same bytes was not decided"
                );
                self.report(state, FindingKind::Unsupported, loc, message, None, None);
            }
            return;
        }
        let at = match self.cx.pool.as_const(access.offset) {
            Some(off) => format!(" at byte offset {}", off as u64),
            None => String::new(),
        };
        let message =
            format!("host code {verb} {}{at}: a pointer from cudaMalloc is not dereferenceable on the host (copy with cudaMemcpy)", o.name);
        self.report(state, FindingKind::OutOfBounds, loc, message, None, None);
    }

    /// Whether the runtime model says device work the host has not waited
    /// for may still run (its flag `BUSY_FLAG`, non-zero).
    fn device_busy(&mut self, state: &State) -> bool {
        self.runtime_words(state, BUSY_FLAG, 1).is_some_and(|w| w.first().is_some_and(|&b| b & 0xff != 0))
    }

    /// The little-endian words of `width` bytes of the runtime model's
    /// global `name`, when all its bytes are numbers.
    pub(super) fn runtime_words(&mut self, state: &State, name: &str, width: u64) -> Option<Vec<u64>> {
        let g = self.cx.module.globals.iter().position(|g| g.name == name)?;
        let obj = self.global_addr.get(g).and_then(|&a| state.memory.object_near(a))?;
        let o = state.memory.object(obj);
        let mut bytes = crate::memory::Bytes::new();
        o.bytes.read(&mut self.cx.pool, 0, o.size, &mut bytes);
        let mut words = Vec::new();
        for chunk in bytes.chunks(width as usize) {
            let mut w = 0u64;
            for (k, &b) in chunk.iter().enumerate() {
                w |= (self.cx.pool.as_const(b)? as u64 & 0xff) << (8 * k);
            }
            words.push(w);
        }
        Some(words)
    }
}

/// The runtime model's flag (cuda_runtime.c): device work not waited for.
const BUSY_FLAG: &str = "__symcross_cuda_device_busy";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stubs_name_their_kernels() {
        assert_eq!(kernel_name_of_stub("_Z21__device_stub__vecAddPKfS0_Pfi").as_deref(), Some("_Z6vecAddPKfS0_Pfi"));
        assert_eq!(kernel_name_of_stub("_ZN2ns21__device_stub__vecAddEPf").as_deref(), Some("_ZN2ns6vecAddEPf"));
        assert_eq!(kernel_name_of_stub("__device_stub__plain").as_deref(), Some("plain"));
        assert_eq!(kernel_name_of_stub("_Z6vecAddPf"), None);
    }

    #[test]
    fn runtime_api_names() {
        assert!(is_runtime_api("cudaMemcpy"));
        assert!(is_runtime_api("__cudaPopCallConfiguration"));
        assert!(is_runtime_api("_ZL10cudaMallocIfE9cudaErrorPPT_m"));
        assert!(!is_runtime_api("main"));
        assert!(!is_runtime_api("_Z6vecAddPf"));
    }
}
