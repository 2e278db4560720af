//! OpenCL kernel arguments of struct type, passed `byval`: the launch
//! holds a read-only template of the host's bytes and each work-item's
//! entry frame gets its own copy of it, so writes in one work-item never
//! reach another's (C calls with `byval` arguments: engine/byval_args.rs).

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::Frame;
use crate::expr::value::{scalar, Value};
use crate::ir::{FuncId, Loc};
use crate::memory::{Memory, ObjectId, ObjectKind};

impl<'m> Executor<'m> {
    /// The entry frame of one work-item of `kernel`: `byval` arguments point
    /// to the launch's copy of the host's bytes (see `byval_template`), and
    /// each work-item gets its own private copy of them.
    pub(in crate::exec) fn kernel_frame(&mut self, memory: &mut Memory, kernel: FuncId, args: &[Value]) -> Vec<Frame> {
        let mut frame = self.new_frame(kernel, args.to_vec(), None, Loc::default());
        let func = self.cx.module.function(kernel);
        for p in &func.params {
            if p.byval.is_none() {
                continue;
            }
            let Some(addr) = frame.regs[p.reg.0 as usize].as_ref().and_then(|v| self.cx.pool.as_const(v[0])) else { continue };
            // Only the launch's template is copied.
            let Some(template) = memory.object_near(addr as u64) else { continue };
            let t = memory.object(template);
            if t.address_only || t.base != addr as u64 || Some(t.size) != p.byval.map(|(size, _)| size) {
                continue;
            }
            let copy = copy_object(memory, template, &mut self.cx.pool, format!("argument `{}`", p.name));
            frame.allocas.push(copy);
            frame.regs[p.reg.0 as usize] = Some(scalar(self.cx.pool.constant(64, memory.object(copy).base as u128)));
        }
        vec![frame]
    }
}

impl<'m> Executor<'m> {
    /// A by-value kernel argument of `size` bytes with symbolic contents
    /// (`symcross race`, where no host gives the bytes), except for the
    /// 8-byte pointers at the offsets `pointers` gives, which hold the
    /// addresses given with them: the template each work-item copies.
    /// Returns its address. (The input keeps all `size` bytes, so that a
    /// witness decodes by the struct's type; a pointer's bytes there are
    /// unused.)
    pub(in crate::exec) fn symbolic_byval_argument(
        &mut self,
        memory: &mut Memory,
        name: &str,
        size: u64,
        align: u64,
        pointers: &[(u64, u64)],
    ) -> u64 {
        let array = self.cx.pool.new_array(name, size as u32);
        let mut bytes: Vec<crate::expr::ExprId> = (0..size as u32).map(|i| self.cx.pool.input_byte(array, i)).collect();
        for &(at, address) in pointers {
            for (k, byte) in address.to_le_bytes().into_iter().enumerate() {
                if let Some(slot) = bytes.get_mut(at as usize + k) {
                    *slot = self.cx.pool.constant(8, byte as u128);
                }
            }
        }
        byval_template(memory, &mut self.cx.pool, &bytes, align, format!("argument `{name}`"))
    }
}

/// A private stack object with the contents of `template`.
fn copy_object(memory: &mut Memory, template: ObjectId, pool: &mut crate::expr::ExprPool, name: String) -> ObjectId {
    let (size, bytes, poison) = {
        let t = memory.object(template);
        (t.size, t.bytes.clone(), t.poison.clone())
    };
    let id = memory.allocate(pool, size, 16, ObjectKind::Stack, name);
    let o = memory.object_mut(id);
    o.bytes = bytes;
    o.poison = poison;
    id
}

/// Makes the launch's object holding a by-value kernel argument's bytes,
/// from which each work-item copies; returns its address.
///
/// It is not marked read-only: a `byval` parameter is the callee's own
/// copy, which C and OpenCL let it modify, and should `kernel_frame` ever
/// leave a work-item pointing at the template itself (its `continue`
/// cases), the kernel's writes to its parameter would be legal code, not
/// a `write-to-read-only` finding.
pub(in crate::exec) fn byval_template(
    memory: &mut Memory,
    pool: &mut crate::expr::ExprPool,
    bytes: &[crate::expr::ExprId],
    align: u64,
    name: String,
) -> u64 {
    let id = memory.allocate(pool, bytes.len() as u64, align, ObjectKind::Buffer, name);
    let o = memory.object_mut(id);
    let bytes: Vec<Option<crate::expr::ExprId>> = bytes.iter().copied().map(Some).collect();
    o.bytes.write(pool, 0, &bytes);
    memory.object(id).base
}
