//! CUDA texture objects (`cudaTextureObject_t`) read with `tex1Dfetch<T>`
//! (header symcross_cuda.h).
//!
//! In a host program, `cudaCreateTextureObject` over linear memory
//! (cl-runtime-model/host/cuda_runtime.c) makes the object the address of
//! a descriptor in device memory: a tag, the bound pointer and its size in
//! bytes. A fetch through such an object reads the bound memory: element
//! `i` when `0 <= i < size / sizeof(T)`, zero past either end (what a GPU
//! returns for a linear texture, which has no address mode). The read is
//! the fetching thread's, so a thread of the same kernel writing that
//! memory races with it (a GPU's texture cache is not kept coherent with
//! writes of the running kernel).
//!
//! A `tex1Dfetch` through any other object (a kernel run alone: the
//! object is an argument, any value) stands for memory the host chose
//! where symcross cannot see it: any value of its type, as for a texture
//! reference (cuda_textures.rs), which hides nothing, and a finding
//! resting on it is not confirmed.
//!
//! CUDA arrays, surfaces and the coordinate reads (`tex1D`/`tex2D`/
//! `tex3D`) of texture objects over arrays and pitched memory are read by
//! the header itself from tagged descriptors the runtime model writes in
//! device memory (layouts in symcross_cuda.h and cuda_runtime.c): the
//! addressing is plain C there, and the reads and writes are the thread's
//! own loads and stores, checked as any. The engine only says whether a
//! handle is such a descriptor (`__symcross_cuda_descriptor`): a handle
//! from elsewhere is not read at all, since reading it would be an access
//! the program does not make. A surface access outside the surface with
//! the trap boundary mode ends the kernel (`__symcross_cuda_surface_trap`).

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::Value;
use crate::expr::{CmpOp, ExprId};
use crate::ir::Type;
use crate::report::FindingKind;

/// The header's fetch by element index, by its unmangled name.
const OBJECT_FETCH: &str = "__symcross_texture_object_fetch";

/// The first word of a descriptor the runtime model made (cuda_runtime.c
/// writes the same number): an object the host built otherwise, or an
/// address that happens to hold other data, is not read as one.
const DESCRIPTOR_TAG: u64 = 0x5359_4d54_4558_3031;

/// A descriptor: tag, bound pointer, size in bytes (8 bytes each).
const DESCRIPTOR_BYTES: u64 = 24;

/// `void *__symcross_cuda_descriptor(unsigned long long handle,
/// unsigned long long tag, unsigned long long bytes)`: the handle as a
/// pointer when it is the start of a live device object of at least
/// `bytes` bytes whose first word is `tag`, else null.
const DESCRIPTOR_CHECK: &str = "__symcross_cuda_descriptor";

/// `void __symcross_cuda_surface_trap(const char *what)`: an access
/// outside a surface in the trap boundary mode.
const SURFACE_TRAP: &str = "__symcross_cuda_surface_trap";

impl<'m> Executor<'m> {
    /// `__symcross_texture_object_fetch<T>(object, index)`; None for any
    /// other call.
    pub(in crate::exec) fn call_cuda_texture_object(&mut self, state: &mut State, c: &CallCtx) -> Option<Result<Option<Value>, Step>> {
        if c.name == DESCRIPTOR_CHECK && c.args.len() == 3 {
            return Some(self.descriptor_check(state, c));
        }
        if c.name == SURFACE_TRAP && c.args.len() == 1 {
            return Some(self.surface_trap(state, c));
        }
        let (base, _) = crate::ir::demangle(c.name)?;
        if base != OBJECT_FETCH {
            return None;
        }
        if state.gpu.is_none() {
            let what = "a texture fetch outside a kernel".to_string();
            return Some(Err(self.unsupported(state, c.inst.loc, what)));
        }
        let (object, index) = (c.args[0][0], c.args[1][0]);
        match self.bound_linear_memory(state, object, c) {
            Ok(Some((ptr, bytes))) => Some(self.fetch_bound_element(state, c, ptr, bytes, index)),
            Ok(None) => Some(Ok(Some(self.any_fetched_value(c)))),
            Err(step) => Some(Err(step)),
        }
    }

    /// The handle when it is a descriptor with the tag (see
    /// DESCRIPTOR_CHECK), else null. A handle that is not one fixed
    /// address (a kernel run alone: an argument, any value) is not one the
    /// model made.
    fn descriptor_check(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let (handle, tag, bytes) = (c.args[0][0], c.args[1][0], c.args[2][0]);
        let null = self.cx.pool.constant(64, 0);
        let (Some(at), Some(want), Some(bytes)) = (self.cx.pool.as_const(handle), self.cx.pool.as_const(tag), self.cx.pool.as_const(bytes))
        else {
            return Ok(Some(crate::expr::value::scalar(null)));
        };
        let at = at as u64;
        let Some(id) = state.memory.object_near(at) else { return Ok(Some(crate::expr::value::scalar(null))) };
        let o = state.memory.object(id);
        if o.base != at || o.size < (bytes as u64).max(8) || o.freed || o.address_only {
            return Ok(Some(crate::expr::value::scalar(null)));
        }
        let first = self.load_value(state, handle, &Type::Int(64), c.inst.loc)?[0];
        let found = if self.cx.pool.as_const(first) == Some(want) { handle } else { null };
        Ok(Some(crate::expr::value::scalar(found)))
    }

    /// An access outside a surface in the trap boundary mode: the kernel
    /// traps there, an out-of-bounds finding, and a CUDA launch fails as
    /// at any illegal address.
    fn surface_trap(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let what = self.read_c_string(state, c.args[0][0], c.inst.loc)?;
        self.keep_faulted_path(state, FindingKind::OutOfBounds);
        let model = state.model.clone();
        let decided = state.branch_step.filter(|_| !state.unconfirmed_path);
        self.log.check_stats.record(decided.as_slice());
        let witness = model.as_ref().filter(|_| !state.unconfirmed_path);
        let message = format!("{what} outside the surface (boundary mode trap): the kernel traps");
        self.report(state, FindingKind::OutOfBounds, c.inst.loc, message, witness, decided);
        Err(Step::Terminated)
    }

    /// Any value of the fetch's type, noted as a fetched one.
    fn any_fetched_value(&mut self, c: &CallCtx) -> Value {
        let mut out = Value::new();
        for w in crate::exec::engine::step::leaf_widths(&c.inst.ty) {
            let v = self.cx.pool.fresh(w);
            if let crate::expr::Expr::Fresh { id, .. } = *self.cx.pool.get(v) {
                self.declared_results.insert(id, crate::exec::opencl::cuda_textures::FETCHED_VALUE.to_string());
            }
            out.push(v);
        }
        out
    }

    /// The bound pointer and size of the descriptor at `object`, when it
    /// is one the runtime model made (a fixed address at the start of a
    /// live object holding the tag); None otherwise.
    fn bound_linear_memory(&mut self, state: &mut State, object: ExprId, c: &CallCtx) -> Result<Option<(ExprId, u64)>, Step> {
        let Some(at) = self.cx.pool.as_const(object).map(|a| a as u64) else { return Ok(None) };
        let Some(id) = state.memory.object_near(at) else { return Ok(None) };
        let o = state.memory.object(id);
        if o.base != at || o.size < DESCRIPTOR_BYTES || o.freed || o.address_only {
            return Ok(None);
        }
        let word = |this: &mut Self, state: &mut State, k: u64| -> Result<ExprId, Step> {
            let off = this.cx.pool.constant(64, (k * 8) as u128);
            let addr = this.cx.pool.add(object, off);
            Ok(this.load_value(state, addr, &Type::Int(64), c.inst.loc)?[0])
        };
        let tag = word(self, state, 0)?;
        if self.cx.pool.as_const(tag) != Some(DESCRIPTOR_TAG as u128) {
            return Ok(None);
        }
        let ptr = word(self, state, 1)?;
        let bytes = word(self, state, 2)?;
        // The model writes both as the host gave them: a size that is not
        // fixed is read as any memory, which hides nothing.
        Ok(self.cx.pool.as_const(bytes).map(|n| (ptr, n as u64)))
    }

    /// Element `index` of the `bytes` bytes at `ptr`, zero when `index`
    /// is outside them. An index that can be either reads the element at
    /// the index clamped into range and keeps it only when in range.
    fn fetch_bound_element(
        &mut self,
        state: &mut State,
        c: &CallCtx,
        ptr: ExprId,
        bytes: u64,
        index: ExprId,
    ) -> Result<Option<Value>, Step> {
        let size = c.inst.ty.size();
        let widths = crate::exec::engine::step::leaf_widths(&c.inst.ty);
        let count = bytes.checked_div(size).unwrap_or(0);
        let zero = |this: &mut Self| -> Value { widths.iter().map(|&w| this.cx.pool.constant(w, 0)).collect() };
        if count == 0 {
            return Ok(Some(zero(self)));
        }
        let i64x = self.cx.pool.sext(index, 64);
        let lo = self.cx.pool.constant(64, 0);
        let hi = self.cx.pool.constant(64, (count - 1) as u128);
        let below = self.cx.pool.cmp(CmpOp::Slt, i64x, lo);
        let above = self.cx.pool.cmp(CmpOp::Slt, hi, i64x);
        let clamped_low = self.cx.pool.ite(below, lo, i64x);
        let clamped = self.cx.pool.ite(above, hi, clamped_low);
        let scale = self.cx.pool.constant(64, size as u128);
        let off = self.cx.pool.bin(crate::expr::BinOp::Mul, clamped, scale);
        let addr = self.cx.pool.add(ptr, off);
        let element = self.load_value(state, addr, &c.inst.ty, c.inst.loc)?;
        let outside = self.cx.pool.or(below, above);
        let zeros = zero(self);
        Ok(Some(element.iter().zip(zeros.iter()).map(|(&e, &z)| self.cx.pool.ite(outside, z, e)).collect()))
    }
}
