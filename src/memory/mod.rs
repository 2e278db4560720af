//! The memory model: byte-addressed objects at concrete base addresses.
//! It depends on `expr/` and `ir/` only; the executor's memory
//! instructions (exec/memory/) run on it, and the race analysis names its
//! objects.
//!
//! Every object (global, stack slot, heap block, symbolic buffer) gets a
//! concrete base address with a gap after it, so a pointer is an ordinary
//! 64-bit value and an access past the end lands in no object. The bytes
//! are kept by pages (object_bytes.rs): each holds an 8-bit expression, a
//! bitmap says which were written, and a table which hold indeterminate
//! bits (the `poison` of an object, see exec/memory/shadow_mem.rs). Objects
//! and their pages are shared between forked states and copied on first
//! write. `layout.rs` turns typed values into bytes and back;
//! `offset_residue.rs` tells what an offset expression is modulo a power
//! of two; `store_log.rs` keeps the writes at symbolic offsets until a
//! read resolves them; `recent_writes.rs` the last writes at symbolic
//! offsets into objects not wholly defined, which reads at their offsets
//! take directly; `ranged_input.rs` the range a buffer's elements lie in,
//! constrained as they are read; `shadow.rs` holds the data of the uninitialised-bits analysis
//! (shadows, origins, which bytes are defined).

pub mod layout;
pub mod mask_log;
pub mod object_bytes;
pub mod offset_residue;
pub mod ranged_input;
pub mod recent_writes;
pub mod shadow;
pub mod store_log;

pub use shadow::OriginId;

use crate::expr::{ExprId, ExprPool};
use crate::ir::{CONSTANT_SPACE, LOCAL_SPACE, PRIVATE_SPACE};
use object_bytes::ObjectBytes;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The bytes of one access; inline for scalars and vectors up to 32 bytes.
pub type Bytes = smallvec::SmallVec<[ExprId; 32]>;

/// A resolved access: the object and the offset of the first byte.
pub struct Access {
    /// The object accessed.
    pub object: ObjectId,
    /// Byte offset from the object's base (64 bits; may be symbolic).
    pub offset: ExprId,
}

/// Distance between consecutive objects; accesses that overrun an object
/// by less than this hit no other object.
const GAP: u64 = 256;
/// The first address handed out (keeps null and small integers invalid).
const FIRST_ADDRESS: u64 = 0x1_0000;

/// Index of an object in its state's `Memory` (stable for the object's life, never reused).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(pub u32);

/// What kind of storage an object is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// A global variable.
    Global,
    /// A stack slot (`alloca`).
    Stack,
    /// A heap block (`malloc` and friends).
    Heap,
    /// Memory of a kernel argument or other buffer made by the tool.
    Buffer,
    /// A function's address (not readable).
    Function,
}

impl MemoryObject {
    /// What the object is, in messages: its kind, except that a kernel's
    /// `__local` or `__constant` variable (a global of that address
    /// space) is called `local` or `constant`.
    pub fn describe(&self) -> &'static str {
        match (self.kind, self.addr_space) {
            (ObjectKind::Global, LOCAL_SPACE) => "local",
            (ObjectKind::Global, CONSTANT_SPACE) => "constant",
            (kind, _) => kind.describe(),
        }
    }
}

impl ObjectKind {
    /// The kind's name in messages (`global`, `stack`...).
    pub fn describe(self) -> &'static str {
        match self {
            ObjectKind::Global => "global",
            ObjectKind::Stack => "stack",
            ObjectKind::Heap => "heap",
            ObjectKind::Buffer => "buffer",
            ObjectKind::Function => "function",
        }
    }
}

/// One object: its place in the address space, its bytes and its status.
#[derive(Clone, Debug)]
pub struct MemoryObject {
    /// Concrete base address.
    pub base: u64,
    /// Size in bytes.
    pub size: u64,
    /// What kind of storage.
    pub kind: ObjectKind,
    /// Source name (variable, global, `malloc@file:line`), for messages.
    pub name: String,
    /// The bytes and which of them were written (object_bytes.rs).
    pub bytes: ObjectBytes,
    /// Set for LLVM `constant` globals (C `const` globals, string literals,
    /// OpenCL `__constant` variables): a write into it is a
    /// `write-to-read-only` finding (read_only.rs).
    pub read_only: bool,
    /// Set for a kernel's buffer the host created write-only
    /// (`CL_MEM_WRITE_ONLY`): a kernel's read of it is a
    /// `read-from-write-only` finding (exec/opencl/buffer_inputs.rs).
    pub write_only: bool,
    /// Whether it was freed (a later access is a use-after-free).
    pub freed: bool,
    /// OpenCL address space (0 private, 1 global, 2 constant, 3 local).
    pub addr_space: u32,
    /// Where the object was allocated and, once freed, where.
    pub alloc_line: Option<crate::ir::Loc>,
    /// Where the object was freed, once it is.
    pub free_line: Option<crate::ir::Loc>,
    /// An unbounded buffer of which only addresses matter (kernel arguments
    /// checked alone): its contents are unconstrained, only the bytes in
    /// `known` are remembered, and no access is out of bounds.
    pub address_only: bool,
    /// Bytes written with indeterminate bits: offset -> (8-bit mask of
    /// those bits, their origin). See shadow_mem.rs.
    pub poison: BTreeMap<u64, (ExprId, OriginId)>,
    /// Address-only objects: the bytes read or written so far, keyed by
    /// the offset of the byte, so that reading the same offset twice gives
    /// the same value until it is written (see kernel_memory.rs); concrete
    /// offsets in `known`, symbolic ones (by expression) in `known_symbolic`.
    pub known: rustc_hash::FxHashMap<ExprId, ExprId>,
    /// Symbolic offsets read or written so far (address-only objects), by offset expression.
    pub known_symbolic: rustc_hash::FxHashMap<ExprId, ExprId>,
    /// Address-only objects: remembered bytes were dropped (too many to
    /// relate to a write), so a byte read since at an offset not
    /// remembered may hold a written value, not the initial contents.
    pub forgotten: bool,
    /// What the object's bytes hold, when its type says so (reports only).
    pub element: Option<crate::expr::ElementType>,
    /// The last writes at symbolic offsets, while nothing else changed the
    /// object (recent_writes.rs; emptied by `Memory::object_mut`).
    pub recent_writes: recent_writes::RecentWrites,
    /// A buffer whose arbitrary elements the host put in a range, and the
    /// elements the path constrains so far (ranged_input.rs).
    pub ranged: Option<ranged_input::RangedInput>,
}

/// How many recently found objects `object_near` tries before its tree
/// search: a host loop at -O0 goes round its counter's, its array
/// pointers' slots and the arrays themselves (five in a loop filling two
/// arrays), so fewer would miss on every access in turn.
const RECENT_HITS: usize = 8;

/// The bytes `[lo, lo + len)` of an object found by a lookup (not
/// address-only), and its id: an address inside them has that object as
/// the tree's answer (objects never move, overlap, change size or leave
/// the tree). An empty slot has `len == 0` and holds no address.
#[derive(Clone, Copy, Default)]
struct Extent {
    lo: u64,
    len: u64,
    id: u32,
}

impl Extent {
    #[inline(always)]
    fn holds(self, address: u64) -> bool {
        address.wrapping_sub(self.lo) < self.len
    }
}

/// The objects of one state. Cloning is cheap: objects are shared until
/// written.
#[derive(Clone, Default)]
pub struct Memory {
    objects: Vec<Rc<MemoryObject>>,
    by_base: BTreeMap<u64, ObjectId>,
    next_address: u64,
    /// The extent of the last lookup's object: a loop or a kernel's
    /// work-item mostly goes on in the object it was in, and a hit skips
    /// the search (`Extent`: exact for this memory and every clone of it).
    last_hit: std::cell::Cell<Extent>,
    /// The extents of the objects of the last few lookups, tried after
    /// `last_hit` and replaced in turn (`next_hit`): a loop or a kernel's
    /// work-item goes back and forth between a few objects (`c[i] = a[i] +
    /// b[i]`: three), each found here without the tree. Held as extents,
    /// a try reads no object.
    recent_hits: [std::cell::Cell<Extent>; RECENT_HITS],
    next_hit: std::cell::Cell<u8>,
}

impl Memory {
    /// An empty memory; the first object gets address 0x1_0000.
    pub fn new() -> Self {
        Memory {
            objects: Vec::new(),
            by_base: BTreeMap::new(),
            next_address: FIRST_ADDRESS,
            last_hit: Default::default(),
            recent_hits: Default::default(),
            next_hit: Default::default(),
        }
    }

    /// Allocates `size` bytes, uninitialised: their value reads as zero
    /// until written, and for stack and heap objects the shadow marks them
    /// indeterminate (shadow_mem.rs); nothing is stored until written.
    pub fn allocate(&mut self, pool: &mut ExprPool, size: u64, align: u64, kind: ObjectKind, name: String) -> ObjectId {
        let align = align.clamp(16, 4096);
        let base = self.next_address.div_ceil(align) * align;
        self.next_address = base + size.max(1) + GAP;
        let zero = pool.constant(8, 0);
        let id = ObjectId(self.objects.len() as u32);
        self.objects.push(Rc::new(MemoryObject {
            base,
            size,
            kind,
            name,
            bytes: ObjectBytes::new(size, zero),
            read_only: false,
            write_only: false,
            freed: false,
            addr_space: PRIVATE_SPACE,
            alloc_line: None,
            free_line: None,
            address_only: false,
            poison: BTreeMap::new(),
            known: Default::default(),
            known_symbolic: Default::default(),
            forgotten: false,
            element: None,
            recent_writes: Default::default(),
            ranged: None,
        }));
        self.by_base.insert(base, id);
        id
    }

    /// The object with this id.
    pub fn object(&self, id: ObjectId) -> &MemoryObject {
        &self.objects[id.0 as usize]
    }

    /// Whether `self` holds the very objects `other` holds (each shared
    /// with it, never written since one was cloned from the other): then
    /// every byte is the same. Copy-on-write makes this exact in one
    /// direction only: a write that stores what was there already still
    /// makes the memories differ here.
    pub fn shares_every_object_with(&self, other: &Memory) -> bool {
        self.next_address == other.next_address
            && self.objects.len() == other.objects.len()
            && self.objects.iter().zip(&other.objects).all(|(a, b)| Rc::ptr_eq(a, b))
    }

    /// The object with this id, for writing: copied first if another state shares it.
    /// Any change may overwrite bytes the recent writes stored, so they
    /// are forgotten.
    pub fn object_mut(&mut self, id: ObjectId) -> &mut MemoryObject {
        let o = Rc::make_mut(&mut self.objects[id.0 as usize]);
        if !o.recent_writes.is_empty() {
            o.recent_writes = Default::default();
        }
        o
    }

    /// Sets the recent writes of object `id` to `kept` (taken before a write
    /// at a symbolic offset, whose changes made through `object_mut` are
    /// that write's) plus `write`.
    pub fn record_symbolic_write(&mut self, id: ObjectId, mut kept: recent_writes::RecentWrites, write: recent_writes::RecentWrite) {
        kept.push(write);
        Rc::make_mut(&mut self.objects[id.0 as usize]).recent_writes = kept;
    }

    /// Allocates an address-only buffer (see `MemoryObject::address_only`).
    /// It owns a window of 2^40 bytes on each side of its base, so that
    /// negative offsets resolve to it as well.
    pub fn allocate_address_only(&mut self, pool: &mut ExprPool, name: String, addr_space: u32) -> ObjectId {
        const WINDOW: u64 = 1 << 40;
        let base = (self.next_address + WINDOW).div_ceil(WINDOW) * WINDOW + WINDOW;
        self.next_address = base + WINDOW;
        let id = ObjectId(self.objects.len() as u32);
        self.objects.push(Rc::new(MemoryObject {
            base,
            size: WINDOW,
            kind: ObjectKind::Buffer,
            name,
            bytes: ObjectBytes::new(0, pool.constant(8, 0)),
            read_only: false,
            write_only: false,
            freed: false,
            addr_space,
            alloc_line: None,
            free_line: None,
            address_only: true,
            poison: BTreeMap::new(),
            known: Default::default(),
            known_symbolic: Default::default(),
            forgotten: false,
            element: None,
            recent_writes: Default::default(),
            ranged: None,
        }));
        self.by_base.insert(base - WINDOW, id);
        id
    }

    /// The object whose extent (plus its trailing gap) contains `address`.
    /// Returns the object even when `address` is past its end, so that an
    /// overrun can be reported against the object it overran.
    #[inline]
    pub fn object_near(&self, address: u64) -> Option<ObjectId> {
        match self.recent_extent(address) {
            Some(e) => Some(ObjectId(e.id)),
            None => self.object_near_in_tree(address),
        }
    }

    /// The remembered extent holding `address`, if any (made the last hit).
    #[inline(always)]
    fn recent_extent(&self, address: u64) -> Option<Extent> {
        let last = self.last_hit.get();
        if last.holds(address) {
            return Some(last);
        }
        for slot in &self.recent_hits {
            let e = slot.get();
            if e.holds(address) {
                self.last_hit.set(e);
                return Some(e);
            }
        }
        None
    }

    /// `object_near` by the tree search; the object found is remembered
    /// when `address` is inside its bytes (the only addresses a remembered
    /// extent answers).
    #[inline(never)]
    fn object_near_in_tree(&self, address: u64) -> Option<ObjectId> {
        let (_, id) = self.by_base.range(..=address).next_back()?;
        let o = self.object(*id);
        if o.address_only {
            return (address < o.base + o.size).then_some(*id);
        }
        let e = Extent { lo: o.base, len: o.size, id: id.0 };
        if e.holds(address) {
            let k = self.next_hit.get() as usize % RECENT_HITS;
            self.recent_hits[k].set(e);
            self.next_hit.set((k + 1) as u8);
            self.last_hit.set(e);
        }
        (address < o.base + o.size.max(1) + GAP).then_some(*id)
    }

    /// The extent `(base, base + size)` of the object (not address-only)
    /// whose bytes include `address`; None when there is none. A loop
    /// stepping through one array asks this of every pointer it makes,
    /// and the answer is a remembered one without a lookup.
    #[inline]
    pub fn extent_holding(&self, address: u64) -> Option<(u64, u64)> {
        if let Some(e) = self.recent_extent(address) {
            return Some((e.lo, e.lo + e.len));
        }
        let o = self.object(self.object_near_in_tree(address)?);
        let end = o.base + o.size;
        if o.address_only || address < o.base || address >= end {
            return None;
        }
        Some((o.base, end))
    }

    /// Every object with its id, in allocation order.
    pub fn objects(&self) -> impl Iterator<Item = (ObjectId, &MemoryObject)> {
        self.objects.iter().enumerate().map(|(i, o)| (ObjectId(i as u32), o.as_ref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extent_holding_an_address_is_its_objects_and_none_between_objects() {
        let mut pool = ExprPool::new();
        let mut m = Memory::new();
        let a = m.allocate(&mut pool, 64, 16, ObjectKind::Stack, "a".into());
        let b = m.allocate(&mut pool, 16, 16, ObjectKind::Stack, "b".into());
        let (a0, b0) = (m.object(a).base, m.object(b).base);
        assert_eq!(m.extent_holding(a0 + 10), Some((a0, a0 + 64)));
        // The remembered extent answers only inside it: one past the end
        // is in the gap after `a`, and `b` is found by a lookup.
        assert_eq!(m.extent_holding(a0 + 64), None);
        assert_eq!(m.extent_holding(b0 + 15), Some((b0, b0 + 16)));
        assert_eq!(m.extent_holding(a0), Some((a0, a0 + 64)));
        // A clone that allocates more keeps every earlier extent.
        let mut c = m.clone();
        let d = c.allocate(&mut pool, 8, 16, ObjectKind::Heap, "d".into());
        let d0 = c.object(d).base;
        assert_eq!(c.extent_holding(a0 + 63), Some((a0, a0 + 64)));
        assert_eq!(c.extent_holding(d0), Some((d0, d0 + 8)));
        assert_eq!(m.extent_holding(d0), None, "not an object of the original");
        // An address-only buffer has no extent of bytes.
        let u = c.allocate_address_only(&mut pool, "u".into(), 1);
        assert_eq!(c.extent_holding(c.object(u).base + 4), None);
    }

    /// The recent hits give the tree's answer: objects taken in turn (a
    /// kernel's `c[i] = a[i] + b[i]`), more of them than are remembered,
    /// the gap after an object (an overrun reported against it), an
    /// address past every object, and an address-only buffer.
    #[test]
    fn objects_near_addresses_taken_in_turn_are_the_trees() {
        let mut pool = ExprPool::new();
        let mut m = Memory::new();
        let ids: Vec<ObjectId> =
            (0..RECENT_HITS as u64 + 2).map(|k| m.allocate(&mut pool, 16 * (k + 1), 16, ObjectKind::Heap, format!("o{k}"))).collect();
        let fresh = m.clone();
        for round in 0..3 {
            for (k, &id) in ids.iter().enumerate().rev().chain(ids.iter().enumerate()) {
                let o = m.object(id);
                let (base, end) = (o.base, o.base + o.size);
                for at in [base, base + 7, end - 1] {
                    assert_eq!(m.object_near(at), Some(id), "object {k}, round {round}");
                }
                // One past the end: the gap after the object is its own.
                assert_eq!(m.object_near(end), fresh.clone().object_near(end), "object {k}, round {round}");
                assert_eq!(m.object_near(end), Some(id));
            }
        }
        let last = m.object(*ids.last().unwrap());
        let past = last.base + last.size + (1 << 20);
        assert_eq!(m.object_near(past), None);
        assert_eq!(m.object_near(0x10), None);
        let u = m.allocate_address_only(&mut pool, "u".into(), 1);
        let ub = m.object(u).base;
        assert_eq!(m.object_near(ub + 4), Some(u));
        assert_eq!(m.object_near(ub - 4), Some(u), "an address-only buffer owns the window before its base");
        assert_eq!(m.object_near(m.object(ids[0]).base), Some(ids[0]));
    }

    /// The remembered extents answer exactly as a search of every object
    /// would: addresses taken from more objects than are remembered, in a
    /// scattered order (inside, at both ends, in the gaps, before the first
    /// object, in an address-only buffer's window, past every object),
    /// asked of a memory and of clones made along the way that allocate
    /// objects of their own.
    #[test]
    fn remembered_extents_answer_as_a_search_of_every_object() {
        fn searched(m: &Memory, at: u64) -> Option<ObjectId> {
            let mut found = None;
            for (id, o) in m.objects() {
                let (start, end) =
                    if o.address_only { (o.base - (1 << 40), o.base + o.size) } else { (o.base, o.base + o.size.max(1) + GAP) };
                if start <= at && at < end {
                    found = Some(id);
                }
            }
            found
        }
        let mut pool = ExprPool::new();
        let mut m = Memory::new();
        for k in 0..3 * RECENT_HITS as u64 {
            m.allocate(&mut pool, 1 + 13 * k % 97, 16, ObjectKind::Heap, format!("o{k}"));
        }
        m.allocate_address_only(&mut pool, "u".into(), 1);
        m.allocate(&mut pool, 0, 16, ObjectKind::Heap, "empty".into());
        let mut probes: Vec<u64> = vec![0, FIRST_ADDRESS - 1];
        for (_, o) in m.objects() {
            let end = o.base + o.size;
            probes.extend([o.base, o.base + o.size / 2, end.saturating_sub(1), end, end + GAP - 1, end + GAP, o.base.wrapping_sub(1)]);
        }
        probes.push(m.next_address + (1 << 41));
        let mut memories = vec![m];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for round in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let at = probes[(seed % probes.len() as u64) as usize];
            let which = (seed >> 32) as usize % memories.len();
            let m = &memories[which];
            assert_eq!(m.object_near(at), searched(m, at), "address {at:#x}, round {round}");
            let extent = searched(m, at).map(|id| m.object(id)).filter(|o| !o.address_only && o.base <= at && at < o.base + o.size);
            assert_eq!(m.extent_holding(at), extent.map(|o| (o.base, o.base + o.size)), "address {at:#x}, round {round}");
            if round % 500 == 499 {
                let mut c = memories[which].clone();
                let id = c.allocate(&mut pool, 40, 16, ObjectKind::Heap, format!("c{round}"));
                let o = c.object(id);
                probes.extend([o.base, o.base + 39, o.base + 40]);
                memories.push(c);
            }
        }
    }
}
