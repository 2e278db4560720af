//! Pair mode's havoc, and which findings it makes unconfirmable. With two
//! symbolic work-items the other work-items' writes are not modelled, so at
//! each barrier shared (`__global`/`__local`) memory takes arbitrary values
//! (papers/gpuverify.txt). That over-approximates what a device can hold:
//! a race whose path or condition depends on such a value may need memory
//! contents no execution produces (a flag the kernel never sets, two equal
//! entries in a table the kernel filled with distinct ones). Such a race is
//! reported unconfirmed with the reason named, never confirmed: only a
//! finding that holds whatever the havocked bytes are keeps its witness as
//! proof.
//!
//! The values are told apart by number: every fresh value made on a state
//! from its first havoc on may stand for havocked memory (the havoc's own
//! bytes, and reads of unsized buffers whose remembered bytes the havoc
//! forgot). Fresh values made later for other reasons are counted too, which
//! can only turn a confirmed race into an unconfirmed one.

use crate::exec::engine::executor::Executor;
use crate::exec::engine::state::State;
use crate::expr::{Expr, ExprId, ExprPool};
use crate::memory::ObjectKind;

/// At most this many sets of groups are kept for re-checking findings the
/// havoc left unconfirmed.
const MAX_HAVOC_DOUBTS: usize = 8;

/// `__global` objects larger than this are havocked as a havoc array's
/// pages (`havoc_as_array`), smaller ones as a fresh value per byte: a
/// page of fresh values is cheap, and the passes after execution see
/// what they always did for small buffers.
const HAVOC_ARRAY_BYTES: u64 = crate::memory::object_bytes::PAGE_BYTES;

/// Why a race that depends on havocked memory is not confirmed.
pub const HAVOC_REASON: &str =
    "it depends on shared memory assumed arbitrary at a barrier (pair mode: the other work-items' writes are not modelled), \
     so no device may produce it; --mode enumerate runs every work-item";

impl<'m> Executor<'m> {
    /// Pair mode: other work-items may have written any shared byte before
    /// the barrier, so shared memory takes fresh unconstrained values. The
    /// first havoc on a path marks, in the access log, the number from
    /// which fresh values may be havocked.
    pub(in crate::exec) fn havoc_shared_memory(&mut self, state: &mut State) {
        let gpu = crate::exec::opencl::workitems::device_mut(&mut state.gpu);
        if gpu.log.havoc_fresh_from.is_none() {
            // A fresh value of its own gives the mark even when no byte is
            // havocked here (only unsized buffers, read afresh later).
            let marker = self.cx.pool.fresh(1);
            gpu.log.havoc_fresh_from = fresh_number(&self.cx.pool, marker);
        }
        // A buffer no instruction of the kernel writes through keeps its
        // bytes (unwritten_buffers.rs): a read-only input of a megabyte
        // costs nothing here, nor at the reads after the barrier.
        let spared = self.unwritten_argument_objects(state);
        let unsized_known: Vec<_> = state
            .memory
            .objects()
            .filter(|(id, o)| {
                o.address_only
                    && matches!(o.addr_space, 1 | 3)
                    && !(o.known.is_empty() && o.known_symbolic.is_empty())
                    && !spared.contains(id)
            })
            .map(|(id, _)| id)
            .collect();
        // Which bytes of unsized `__local` buffers were written stays
        // known (unchecked_local.rs); only their values are forgotten.
        self.remember_unsized_local_writes(state, &unsized_known);
        for id in unsized_known {
            let o = state.memory.object_mut(id);
            o.known.clear();
            o.known_symbolic.clear();
        }
        // A `__local` variable no work-item can write keeps its bytes, and
        // which of them were never written.
        let unwritten = self.unwritten_local_objects(state);
        // Of a variable only stores at constant offsets write, only those
        // bytes may have been written.
        let partly = self.partly_written_local_objects(state);
        let ids: Vec<_> = state
            .memory
            .objects()
            .filter(|(id, o)| !o.address_only && matches!(o.addr_space, 1 | 3) && !unwritten.contains(id) && !spared.contains(id))
            .map(|(id, _)| id)
            .collect();
        for id in ids {
            let n = state.memory.object(id).size;
            let writable = partly.iter().find(|(o, _)| *o == id).map(|(_, r)| r);
            if self.havoc_as_array(state, id, writable.is_none()) {
                continue;
            }
            let may_write = |k: u64| writable.is_none_or(|r| r.iter().any(|&(a, b)| a <= k && k < b));
            // One fresh expression per byte: the memory limit first (the
            // run stops after this step).
            if self.admit_expressions(n).is_err() {
                return;
            }
            let fresh: Vec<Option<ExprId>> = (0..n).map(|k| may_write(k).then(|| self.cx.pool.fresh(8))).collect();
            // A `__local` byte indeterminate on this path before the
            // barrier may be one no work-item wrote, or one another wrote:
            // it keeps its mask under an unchecked origin, whose use is a
            // warning naming the gap (unchecked_local.rs).
            let undecided = self.undecided_local_bytes(state.memory.object(id), &may_write);
            let undecided = self.without_group_written(state, state.memory.object(id), undecided);
            let o = state.memory.object_mut(id);
            o.bytes.write(&mut self.cx.pool, 0, &fresh);
            // Other work-items may have written any byte they can write:
            // none of those is known to be indeterminate any more.
            o.poison.retain(|&k, _| !may_write(k));
            if let Some((origin, masks)) = undecided {
                o.poison.extend(masks.into_iter().map(|(k, m)| (k, (m, origin))));
            }
        }
    }

    /// Havocs the `__global` object `id` larger than `HAVOC_ARRAY_BYTES`
    /// as the pages of a new havoc array (`ExprPool::new_havoc_array`):
    /// each byte is the array's, built when read at a number, read at a
    /// symbolic offset as the array at a symbolic position (exact, as an
    /// input's; mem_ops.rs). It costs the object's pages, not a fresh value
    /// per byte: a 4 MiB output took 4 Mi fresh values at every barrier.
    /// A `__local` object (`whole`: other work-items may write any of its
    /// bytes, no store at constant offsets bounds them) is havocked so too
    /// when none of its bytes is undecided (every byte written, with no
    /// mask bit that can be set, or `--local-memory arbitrary`): then
    /// nothing of it is tracked byte by byte, and a 64 KiB tile took
    /// 64 Ki fresh values at every barrier.
    /// False, doing nothing, for any other object (fresh bytes below).
    fn havoc_as_array(&mut self, state: &mut State, id: crate::memory::ObjectId, whole: bool) -> bool {
        let o = state.memory.object(id);
        if o.size <= HAVOC_ARRAY_BYTES {
            return false;
        }
        match o.addr_space {
            crate::ir::GLOBAL_SPACE => {}
            crate::ir::LOCAL_SPACE if whole => {
                // The bytes that keep their masks under an unchecked
                // origin (below) need their own fresh values.
                let undecided = self.undecided_local_bytes(o, &|_| true);
                if self.without_group_written(state, o, undecided).is_some() {
                    return false;
                }
            }
            _ => return false,
        }
        let Ok(size) = u32::try_from(o.size) else { return false };
        // The memory limit first, in pages (the run stops after this step).
        if self.admit_expressions(o.size.div_ceil(crate::memory::object_bytes::PAGE_BYTES)).is_err() {
            return true;
        }
        let name = format!("{}.havoc", o.name);
        let array = self.cx.pool.new_havoc_array(&name, size);
        let o = state.memory.object_mut(id);
        o.bytes.fill_input(&mut self.cx.pool, 0, o.size, array, 0);
        // Every byte may have been written by another work-item: none is
        // known to be indeterminate any more.
        o.poison.clear();
        true
    }

    /// The bytes of the `__local` object `o` that other work-items may
    /// write (`may_write`) and that are indeterminate on this path before
    /// the barrier (never written, or with a mask that can be set), with
    /// their masks and the object's unchecked origin; None when there are
    /// none, or with `--local-memory arbitrary`.
    fn undecided_local_bytes(
        &mut self,
        o: &crate::memory::MemoryObject,
        may_write: &dyn Fn(u64) -> bool,
    ) -> Option<(crate::memory::OriginId, Vec<(u64, ExprId)>)> {
        if o.addr_space != crate::ir::LOCAL_SPACE || self.cx.config.local_memory_arbitrary {
            return None;
        }
        let all = self.cx.pool.constant(8, 0xff);
        let pool = &mut self.cx.pool;
        // A byte no write reached yet, not even one at a symbolic offset
        // waiting in the store log, or one written with indeterminate bits.
        let zero = pool.constant(8, 0);
        let masks: Vec<(u64, ExprId)> = (0..o.size)
            .filter(|&k| may_write(k))
            .filter_map(|k| {
                let in_pages = if o.bytes.is_written(k) { o.poison.get(&k).map_or(zero, |(m, _)| *m) } else { all };
                let m = o.bytes.mask_under_pending_writes(pool, k, in_pages);
                (pool.as_const(m) != Some(0)).then_some((k, m))
            })
            .collect();
        if masks.is_empty() {
            return None;
        }
        Some((self.unchecked_local_origin(o), masks))
    }

    /// The objects of `state` that hold `__local` variables no instruction
    /// can write (unwritten_locals.rs).
    fn unwritten_local_objects(&mut self, state: &State) -> Vec<crate::memory::ObjectId> {
        let module = self.cx.module;
        let globals = self
            .models
            .unwritten_locals
            .get_or_insert_with(|| std::rc::Rc::new(crate::exec::opencl::unwritten_locals::unwritten_local_globals(module)))
            .clone();
        globals.iter().filter_map(|g| self.global_addr.get(g.0 as usize)).filter_map(|&base| state.memory.object_near(base)).collect()
    }

    /// The objects behind the arguments of the running kernel that no
    /// instruction can write through (unwritten_buffers.rs), less any
    /// that an argument written through may also point into (a host may
    /// pass one buffer twice). Empty when an argument written through has
    /// an address not known here.
    pub(in crate::exec) fn unwritten_argument_objects(&mut self, state: &State) -> Vec<crate::memory::ObjectId> {
        let Some(gpu) = state.gpu.as_deref() else { return Vec::new() };
        let module = self.cx.module;
        let writes = self
            .models
            .param_writes
            .entry(gpu.kernel)
            .or_insert_with(|| std::rc::Rc::new(crate::exec::opencl::unwritten_buffers::param_writes(module, gpu.kernel)))
            .clone();
        if *writes == crate::exec::opencl::unwritten_buffers::ParamWrites::Any {
            return Vec::new();
        }
        let (mut spared, mut written) = (Vec::new(), Vec::new());
        for (k, value) in gpu.args.iter().enumerate() {
            let may_write = writes.may_write(k);
            for &lane in value {
                let Some(address) = self.cx.pool.as_const(lane) else {
                    if may_write {
                        return Vec::new();
                    }
                    continue;
                };
                let Some(obj) = state.memory.object_near(address as u64) else { continue };
                // A global variable's address may also be written by name
                // (a CUDA `__device__` array passed as an argument).
                let by_name = !matches!(state.memory.object(obj).kind, ObjectKind::Buffer | ObjectKind::Heap);
                if may_write || by_name {
                    written.push(obj)
                } else {
                    spared.push(obj)
                }
            }
        }
        spared.retain(|o| !written.contains(o));
        spared
    }

    /// What `obj` is, when a write into it strayed there from another
    /// object: in pair mode, `obj` is an object the havoc spares because
    /// no instruction writes it (a buffer no instruction writes through
    /// its argument, a `__local` variable whose address only loads use),
    /// so only an address that left the object it was computed from
    /// reaches it. Reported out of bounds, the first write that could
    /// change a spared object is a finding (unwritten_buffers.rs,
    /// unwritten_locals.rs); run there, it would change bytes the havoc
    /// keeps as this work-item's alone, and another work-item's same
    /// write would be missed (a never-written mark kept where every
    /// work-item wrote).
    pub(in crate::exec) fn stray_write_into_spared(&mut self, state: &State, obj: crate::memory::ObjectId) -> Option<String> {
        let pair = state.gpu.as_deref().is_some_and(|g| g.mode == crate::exec::opencl::workitems::RaceMode::Pair);
        if !pair {
            return None;
        }
        let o = state.memory.object(obj);
        let name = o.name.clone();
        let buffer = matches!(o.kind, ObjectKind::Buffer | ObjectKind::Heap) && matches!(o.addr_space, 1 | 3);
        let local = o.addr_space == crate::ir::LOCAL_SPACE && !o.address_only;
        if buffer && self.unwritten_argument_objects(state).contains(&obj) {
            return Some(format!("buffer `{name}`, which the kernel never writes through its argument"));
        }
        if local && self.unwritten_local_objects(state).contains(&obj) {
            return Some(format!("local `{name}`, which no instruction writes"));
        }
        None
    }

    /// The objects of `state` that hold `__local` variables only stores at
    /// constant offsets write, with the byte ranges those stores cover
    /// (unwritten_locals.rs).
    fn partly_written_local_objects(&mut self, state: &State) -> Vec<(crate::memory::ObjectId, Vec<(u64, u64)>)> {
        let module = self.cx.module;
        let ranges = self
            .models
            .local_write_ranges
            .get_or_insert_with(|| std::rc::Rc::new(crate::exec::opencl::unwritten_locals::constant_offset_writes(module)))
            .clone();
        ranges
            .iter()
            .filter(|(_, r)| !r.is_empty())
            .filter_map(|(g, r)| {
                let base = *self.global_addr.get(g.0 as usize)?;
                Some((state.memory.object_near(base)?, r.clone()))
            })
            .collect()
    }

    /// Why a race or barrier divergence between work-items of `groups`,
    /// found under `condition` with `witness`, is not confirmed (a `; not
    /// confirmed: ...` clause): it depends on havocked memory (`havocked`;
    /// its groups are then noted for re-checking), or on a byte of an
    /// unsized buffer taken as arbitrary (kernel_memory.rs). `sizes` is
    /// the NDRange's number of groups in each dimension.
    pub(in crate::exec) fn doubt_of_shared_finding(
        &mut self,
        state: &State,
        havocked: bool,
        sizes: [u64; 3],
        groups: &[[ExprId; 3]],
        witness: Option<&crate::expr::Assignment>,
        condition: ExprId,
    ) -> Option<String> {
        if !havocked {
            return self.inexact_doubt(state, condition);
        }
        self.note_havoc_doubt(sizes, groups, witness);
        Some(format!("; not confirmed: {HAVOC_REASON}"))
    }

    /// A finding of the running work-item other than a race or barrier
    /// divergence (an out-of-bounds access, an uninitialised read) was
    /// left unconfirmed because its path depends on havocked memory
    /// (`why` is `HAVOC_REASON`): its work-group is noted for re-checking,
    /// as a race's two are.
    pub(in crate::exec) fn note_havoc_doubt_of_running_item(
        &mut self,
        state: &State,
        witness: Option<&crate::expr::Assignment>,
        why: &str,
    ) {
        if why != HAVOC_REASON {
            return;
        }
        let Some(gpu) = state.gpu.as_deref() else { return };
        let Some(item) = gpu.items.get(gpu.current) else { return };
        let (group, sizes) = (item.group, gpu.ndrange.groups);
        self.note_havoc_doubt(sizes, &[group], witness);
    }

    /// Notes the work-groups of a finding left unconfirmed by the havoc,
    /// as the witness places its work-items: enumerating every work-item
    /// of just those groups may confirm it (driver/group_recheck.rs).
    fn note_havoc_doubt(&mut self, sizes: [u64; 3], groups: &[[ExprId; 3]], witness: Option<&crate::expr::Assignment>) {
        let mut flat = Vec::new();
        for g in groups {
            let mut id = [0u64; 3];
            for (k, e) in g.iter().enumerate() {
                id[k] = match (self.cx.pool.as_const(*e), witness) {
                    (Some(v), _) => v as u64,
                    (None, Some(m)) => crate::expr::evaluate(&self.cx.pool, *e, m) as u64,
                    (None, None) => return,
                };
            }
            let f = crate::exec::opencl::workitems::NdRange::flatten(id, sizes);
            if !flat.contains(&f) {
                flat.push(f);
            }
        }
        if self.log.havoc_doubts.len() < MAX_HAVOC_DOUBTS && !self.log.havoc_doubts.contains(&flat) {
            self.log.havoc_doubts.push(flat);
        }
    }

    /// Whether a finding on `state` that holds under `condition` may depend
    /// on havocked memory: the condition or a constraint of the path (which
    /// decides whether the accesses happen at all) mentions a fresh value
    /// numbered `havoc_fresh_from` or more (the state's access log has the
    /// number; the race check holds the log apart from the state).
    pub(in crate::exec) fn depends_on_havoc(&self, state: &State, havoc_fresh_from: Option<u32>, condition: ExprId) -> bool {
        let Some(from) = havoc_fresh_from else { return false };
        mentions_fresh_from(&self.cx.pool, state.path.iter().copied().chain([condition]), from)
    }
}

/// The number of a fresh value.
fn fresh_number(pool: &ExprPool, e: ExprId) -> Option<u32> {
    match *pool.get(e) {
        Expr::Fresh { id, .. } => Some(id),
        _ => None,
    }
}

/// Whether an expression below `roots` is a fresh value numbered `from` or
/// more, or a byte of a havoc array (`havoc_as_array`: only a barrier makes
/// one, so it needs no mark). Each shared node is visited once.
pub(in crate::exec) fn mentions_fresh_from(pool: &ExprPool, roots: impl Iterator<Item = ExprId>, from: u32) -> bool {
    pool.any_below(roots, |e, x| match *x {
        Expr::Input { array, .. } | Expr::InputAt { array, .. } => pool.is_havoc_array(array),
        _ => fresh_number(pool, e).is_some_and(|n| n >= from),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only fresh values numbered at or past the mark count, however deep
    /// they sit in the expression.
    #[test]
    fn only_values_from_the_mark_on_count() {
        let mut pool = ExprPool::new();
        let before = pool.fresh(8);
        let marker = pool.fresh(1);
        let after = pool.fresh(8);
        let from = fresh_number(&pool, marker).expect("a fresh value has a number");
        let one = pool.constant(8, 1);
        let old = pool.add(before, one);
        let old_test = pool.eq(old, one);
        let mixed = pool.add(old, after);
        let new_test = pool.eq(mixed, one);
        assert!(!mentions_fresh_from(&pool, [old_test].into_iter(), from));
        assert!(mentions_fresh_from(&pool, [old_test, new_test].into_iter(), from));
        assert!(!mentions_fresh_from(&pool, std::iter::empty(), from));
    }

    /// A byte of a havoc array counts wherever it was made, read at a
    /// number or at a symbolic position; an input's bytes never do.
    #[test]
    fn bytes_of_havoc_arrays_count_and_inputs_do_not() {
        let mut pool = ExprPool::new();
        let input = pool.new_array("data", 8192);
        let marker = pool.fresh(1);
        let from = fresh_number(&pool, marker).expect("a fresh value has a number");
        let havoc = pool.new_havoc_array("data.havoc", 8192);
        assert!(pool.is_havoc_array(havoc) && !pool.is_havoc_array(input));
        let at = pool.fresh(64);
        let seven = pool.constant(8, 7);
        let input_test = {
            let b = pool.input_at(input, at);
            pool.eq(b, seven)
        };
        let read_at_number = {
            let b = pool.input_byte(havoc, 3);
            pool.eq(b, seven)
        };
        let read_at_position = {
            let b = pool.input_at(havoc, at);
            pool.eq(b, seven)
        };
        // No fresh value counts past the last number: only the arrays do.
        assert!(mentions_fresh_from(&pool, [input_test].into_iter(), from));
        assert!(!mentions_fresh_from(&pool, [input_test].into_iter(), u32::MAX));
        assert!(mentions_fresh_from(&pool, [read_at_number].into_iter(), u32::MAX));
        assert!(mentions_fresh_from(&pool, [read_at_position].into_iter(), u32::MAX));
        let names: Vec<&str> = pool.arrays().iter().filter(|a| !a.havoc).map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["data"]);
    }
}
