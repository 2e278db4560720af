//! The contents of one memory object, kept by pages of 4 KiB so that what
//! an object costs follows what was written to it, not its size (issue 14:
//! one expression per byte made a 16 MiB memset cost gigabytes).
//!
//! A page is reference-counted: forked states share it, a memset shares one
//! page among all the pages it fills, a memcpy of whole pages shares the
//! source's; it is copied on first write. A page's bytes are stored as
//! compactly as they allow: one expression for a page holding one value
//! (never written: zero; a memset), one `u8` per byte when all are
//! constants, "byte i of input array A" for bytes made symbolic (each built
//! when read), one expression per byte otherwise. A bitmap per page says
//! which bytes were written (exec/memory/shadow_mem.rs). Pages past the end of the page
//! table were never written, so allocating costs nothing until written.
//!
//! Writes at symbolic offsets are not spread over the pages: they wait in
//! a store log (store_log.rs) that reads resolve, so that an object written
//! at a few symbolic places costs those places, not its size. The pages
//! hold what the bytes were before the log's writes.

use crate::expr::{ExprId, ExprPool};
use crate::memory::store_log::StoreLog;
use std::rc::Rc;

/// Bytes per page: the unit of sharing and copy-on-write.
pub const PAGE_BYTES: u64 = 4096;
const PAGE: usize = PAGE_BYTES as usize;
const WORDS: usize = PAGE / 64;

#[derive(Clone, PartialEq, Debug)]
enum Data {
    /// Every byte is this expression.
    Uniform(ExprId),
    /// Every byte is a constant.
    Concrete(Box<[u8]>),
    /// Byte k is byte `first + k` of input array `array`.
    Input { array: u32, first: u32 },
    /// Any expressions.
    Exprs(Box<[ExprId]>),
}

/// Which bytes of a page were written.
#[derive(Clone, PartialEq, Debug)]
enum Written {
    None,
    All,
    Some(Box<[u64; WORDS]>),
}

#[derive(Clone, PartialEq, Debug)]
struct Page {
    data: Data,
    written: Written,
}

impl Page {
    fn byte(&self, pool: &mut ExprPool, k: usize) -> ExprId {
        match &self.data {
            Data::Uniform(b) => *b,
            Data::Concrete(v) => ExprId::byte_const(v[k]),
            Data::Input { array, first } => pool.input_byte(*array, first + k as u32),
            Data::Exprs(v) => v[k],
        }
    }

    fn is_written(&self, k: usize) -> bool {
        match &self.written {
            Written::None => false,
            Written::All => true,
            Written::Some(bits) => bits[k / 64] >> (k % 64) & 1 == 1,
        }
    }

    fn all_written(&self, from: usize, to: usize) -> bool {
        match &self.written {
            Written::None => from == to,
            Written::All => true,
            Written::Some(_) => (from..to).all(|k| self.is_written(k)),
        }
    }

    /// Marks bytes `from..to` written (of a page of `len` bytes).
    fn mark_written(&mut self, from: usize, to: usize, len: usize) {
        if from == 0 && to >= len {
            self.written = Written::All;
            return;
        }
        let bits = match &mut self.written {
            Written::All => return,
            Written::Some(bits) => bits,
            w @ Written::None => {
                *w = Written::Some(Box::new([0; WORDS]));
                let Written::Some(bits) = w else { unreachable!() };
                bits
            }
        };
        set_bits(bits, from, to);
        // A write reaching the page's end (the last of a loop filling it)
        // may have completed it: then checks of it need not look at bits.
        let (full, rest) = (len / 64, len % 64);
        if to >= len && bits[..full].iter().all(|w| *w == !0) && (rest == 0 || bits[full] & ((1 << rest) - 1) == (1 << rest) - 1) {
            self.written = Written::All;
        }
    }

    /// `mark_written` for a store of a few bytes (`from < to`): bits of
    /// one word set in place, short of the page's end (where the page may
    /// become all written).
    #[inline]
    fn mark_stored(&mut self, from: usize, to: usize, len: usize) {
        match &mut self.written {
            Written::All => {}
            Written::Some(bits) if to < len && from / 64 == (to - 1) / 64 => {
                bits[from / 64] |= (!0u64 >> (64 - (to - from))) << (from % 64);
            }
            _ => self.mark_written(from, to, len),
        }
    }

    /// Makes the bytes storable one by one: as `u8`s when `constants_only`
    /// and the page allows it, else as expressions.
    fn make_writable(&mut self, pool: &mut ExprPool, len: usize, constants_only: bool) {
        let data = match &self.data {
            Data::Concrete(_) if constants_only => return,
            Data::Exprs(_) => return,
            Data::Uniform(b) if constants_only => match b.as_byte_const() {
                Some(c) => Data::Concrete(vec![c; len].into_boxed_slice()),
                None => Data::Exprs(vec![*b; len].into_boxed_slice()),
            },
            _ => Data::Exprs((0..len).map(|k| self.byte(pool, k)).collect()),
        };
        self.data = data;
    }
}

/// Sets bits `from..to`, a word at a time (a scalar store sets a few bits
/// of one word).
#[inline]
fn set_bits(bits: &mut [u64; WORDS], from: usize, to: usize) {
    let mut k = from;
    while k < to {
        let (w, lo) = (k / 64, k % 64);
        let hi = (to - w * 64).min(64);
        bits[w] |= (!0u64 >> (64 - (hi - lo))) << lo;
        k = w * 64 + hi;
    }
}

/// A page never written: zero, indeterminate for objects that track writes.
fn blank_page(zero: ExprId) -> Page {
    Page { data: Data::Uniform(zero), written: Written::None }
}

/// The bytes of one object, by pages, and which of them were written.
#[derive(Clone, Debug)]
pub struct ObjectBytes {
    size: u64,
    /// The zero byte (what a never-written byte holds).
    zero: ExprId,
    /// Page i holds bytes `i * PAGE..`; `None` or past the end: blank.
    pages: Vec<Option<Rc<Page>>>,
    /// Writes made after the pages' contents, resolved when read.
    log: StoreLog,
    /// The masks of the log's writes, once one of them had a shadow
    /// (mask_log.rs); None: every write in the log is defined there, and
    /// the pages' masks are the bytes'.
    masks: Option<crate::memory::mask_log::MaskLog>,
    /// Bytes of arbitrary contents (input pages) read at symbolic offsets,
    /// each given a value of its own (`read_arbitrary`): they stand for
    /// what the pages held there, below the store log.
    initial: StoreLog,
    /// Which bytes writes at numbers covered since the last write at a
    /// symbolic offset went into the log (one bit each), and how many:
    /// once all are, the log hides nothing the pages would not and is
    /// folded into them (a table cleared in a loop after updates at
    /// symbolic slots starts afresh).
    covered: Option<(Box<[u64]>, u64)>,
    /// `base_input_run`'s answer for the pages as they are, once asked:
    /// it walks every page, and a large input read at symbolic offsets
    /// asked it at every read. Cleared wherever the pages change.
    input_run: std::cell::Cell<Option<Option<(u32, u32)>>>,
    /// What the pages hold as runs, when the host's contents laid them
    /// out (`set_layout`) and no page changed since.
    layout: Option<Rc<[Run]>>,
}

/// A run of an object's bytes as the host's contents laid them out: bytes
/// of an input in order, or constants. A read at a symbolic offset of a
/// large buffer partly given reads its runs (input bytes at a symbolic
/// position, a select over the constants), exactly, rather than every byte.
#[derive(Clone, Debug, PartialEq)]
pub enum Run {
    /// Bytes `off..off + len` are bytes `first..` of input `array`.
    Input {
        /// The run's first byte in the object.
        off: u64,
        /// How many bytes.
        len: u64,
        /// The input array.
        array: u32,
        /// The input's byte at `off`.
        first: u32,
    },
    /// Bytes `off..off + bytes.len()` are these.
    Fixed {
        /// The run's first byte in the object.
        off: u64,
        /// The bytes the host gave.
        bytes: Rc<[u8]>,
        /// The given array (`ExprPool::new_given_array`) holding them, read
        /// at a symbolic position, when they are many (mem_ops.rs).
        array: Option<u32>,
    },
}

impl Run {
    /// The run's first byte.
    pub fn off(&self) -> u64 {
        match self {
            Run::Input { off, .. } | Run::Fixed { off, .. } => *off,
        }
    }

    fn len(&self) -> u64 {
        match self {
            Run::Input { len, .. } => *len,
            Run::Fixed { bytes, .. } => bytes.len() as u64,
        }
    }
}

impl PartialEq for ObjectBytes {
    fn eq(&self, other: &Self) -> bool {
        let n = self.pages.len().max(other.pages.len());
        self.size == other.size
            && self.log.same(&other.log)
            && match (&self.masks, &other.masks) {
                (None, None) => true,
                (Some(a), Some(b)) => a.same(b),
                _ => false,
            }
            && self.initial.same(&other.initial)
            && (0..n).all(|i| same_page(self.zero, self.pages.get(i).and_then(|p| p.as_ref()), other.pages.get(i).and_then(|p| p.as_ref())))
    }
}

/// Whether two pages hold the same bytes, written alike (`None`: blank).
fn same_page(zero: ExprId, a: Option<&Rc<Page>>, b: Option<&Rc<Page>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => Rc::ptr_eq(a, b) || a == b,
        (Some(p), None) | (None, Some(p)) => **p == blank_page(zero),
    }
}

impl ObjectBytes {
    /// `size` bytes, all zero and never written; costs nothing until written.
    pub fn new(size: u64, zero: ExprId) -> Self {
        ObjectBytes {
            size,
            zero,
            pages: Vec::new(),
            log: StoreLog::default(),
            masks: None,
            initial: StoreLog::default(),
            covered: None,
            input_run: Default::default(),
            layout: None,
        }
    }

    /// `mask`, the 8-bit mask of byte `k` in the pages, where no write at
    /// a symbolic offset pending in the store log covers the byte; 0 where
    /// one does (in between when a symbolic offset decides).
    /// With masks in the log (mask_log.rs), the newest write's mask there.
    pub fn mask_under_pending_writes(&self, pool: &mut ExprPool, k: u64, mask: ExprId) -> ExprId {
        if self.log.is_empty() {
            return mask;
        }
        if let Some(m) = &self.masks {
            return m.mask_at(pool, k, mask);
        }
        let zero = pool.constant(8, 0);
        self.log.written_mark_at(pool, k, mask, zero)
    }

    /// How many writes at symbolic offsets wait in the store log.
    pub fn pending_writes(&self) -> usize {
        self.log.len()
    }

    /// Records `bytes` (None: left alone) written at the symbolic `offset`
    /// (64 bits, the caller checked that it is in bounds). The written
    /// bits are the caller's (it writes only into objects whose bytes are
    /// all written or that do not track writes).
    pub fn write_symbolic(&mut self, pool: &mut ExprPool, offset: ExprId, bytes: &[Option<ExprId>]) {
        self.log.push(pool, offset, bytes.into());
        self.covered = None;
        if let Some(m) = &mut self.masks {
            // A defined value: zero masks hide older ones where it lands.
            let zero = pool.constant(8, 0);
            m.push(pool, offset, bytes.iter().map(|b| b.map(|_| zero)).collect(), false, None);
        }
    }

    /// `write_symbolic` of a value whose indeterminate bits are `masks`
    /// (laid out as `bytes`), from `origin`: the masks wait in the mask
    /// log beside the write (mask_log.rs). The caller checked that the
    /// pages' bytes are all defined when the mask log starts.
    pub fn write_symbolic_shadowed(
        &mut self,
        pool: &mut ExprPool,
        offset: ExprId,
        bytes: &[Option<ExprId>],
        masks: &[Option<ExprId>],
        origin: crate::memory::OriginId,
    ) {
        let zero = pool.constant(8, 0);
        if self.masks.is_none() {
            // The writes already in the log were of defined values (zero
            // masks); those at numbers defer to the pages' masks, as later
            // ones do. With them the mask log says what the store log
            // writes, entry by entry (a byte under a defined write is
            // zero, as `mask_under_pending_writes` had it).
            let mut log = crate::memory::mask_log::MaskLog::new(origin);
            for (at, written) in self.log.written_places() {
                let defers = pool.as_const(at).is_some();
                log.push(pool, at, written.iter().map(|w| w.then_some(zero)).collect(), defers, None);
            }
            self.masks = Some(log);
        }
        self.log.push(pool, offset, bytes.into());
        self.covered = None;
        // A byte written without a mask keeps the mask it had, as the
        // rewrite of every byte (`store_at` of the masks) keeps it.
        let masks: Box<[Option<ExprId>]> = bytes.iter().enumerate().map(|(k, b)| b.and(masks.get(k).copied().flatten())).collect();
        self.masks.get_or_insert_with(|| crate::memory::mask_log::MaskLog::new(origin)).push(pool, offset, masks, false, Some(origin));
    }

    /// The masks of the store log's writes, when one had a shadow.
    pub fn mask_log(&self) -> Option<&crate::memory::mask_log::MaskLog> {
        self.masks.as_ref()
    }

    /// Forgets the mask log: the caller put every byte's mask, read
    /// through it, into the object's `poison` (path merging).
    pub fn masks_moved_to_pages(&mut self) {
        self.masks = None;
    }

    /// Counts `off..off + len` (the `Some` bytes of a write at a number
    /// that went into the log) as covered; when every byte is, folds the
    /// log into the pages: resolving a byte then stops at the newest write
    /// at a number, so this costs the object's size, once.
    fn cover(&mut self, pool: &mut ExprPool, off: u64, bytes: &[Option<ExprId>]) {
        let size = self.size;
        let (bits, count) = self.covered.get_or_insert_with(|| (vec![0u64; size.div_ceil(64) as usize].into_boxed_slice(), 0));
        for (k, b) in bytes.iter().enumerate() {
            let p = off + k as u64;
            if b.is_some() && p < size && bits[(p / 64) as usize] >> (p % 64) & 1 == 0 {
                bits[(p / 64) as usize] |= 1 << (p % 64);
                *count += 1;
            }
        }
        if *count >= size {
            self.flatten(pool);
        }
    }

    /// Bytes `k..k + len` of an access at the symbolic `offset`, given what
    /// the pages hold there (`base`, one expression per byte).
    pub fn resolve_symbolic(&self, pool: &mut ExprPool, offset: ExprId, base: &[ExprId]) -> Vec<ExprId> {
        // `base` came from the pages and the arbitrary bytes below the log.
        if self.log.is_empty() {
            return base.to_vec();
        }
        self.log.read_at_symbolic(pool, offset, base)
    }

    /// The pages' bytes, before the store log's writes (for a read at a
    /// symbolic offset, which then goes through `resolve_symbolic`).
    pub fn base_to_vec(&self, pool: &mut ExprPool) -> Vec<ExprId> {
        let mut v = Vec::with_capacity(self.size as usize);
        self.read_pages(pool, 0, self.size, &mut v);
        if !self.initial.is_empty() {
            for (k, b) in v.iter_mut().enumerate() {
                *b = self.initial.byte_at(pool, k as u64, *b);
            }
        }
        v
    }

    /// The one value every byte of the pages holds, before the store log's
    /// writes.
    pub fn base_uniform(&self, pool: &mut ExprPool) -> Option<ExprId> {
        if !self.initial.is_empty() {
            return None;
        }
        self.pages_uniform(pool, 0, self.size)
    }

    /// Whether every page holds bytes of input arrays (arbitrary contents,
    /// as a sized buffer the host did not fill).
    pub fn base_is_arbitrary(&self) -> bool {
        let n = self.size.div_ceil(PAGE_BYTES) as usize;
        n > 0
            && self.pages.len() >= n
            && self.pages[..n].iter().all(|p| matches!(p.as_deref(), Some(Page { data: Data::Input { .. }, .. })))
    }

    /// `(array, first)` when the pages hold, in order, bytes `first..` of
    /// one input array and no byte was read as a fresh value: byte `p` of
    /// the object is then byte `first + p` of the input, and a read at a
    /// symbolic offset is a read of the input at a symbolic position
    /// (`ExprPool::input_at`).
    pub fn base_input_run(&self) -> Option<(u32, u32)> {
        if !self.initial.is_empty() {
            return None;
        }
        if let Some(known) = self.input_run.get() {
            return known;
        }
        let run = self.pages_input_run();
        self.input_run.set(Some(run));
        run
    }

    /// Forgets what was known of the pages as a whole (they change).
    fn pages_changed(&mut self) {
        self.input_run.set(None);
        self.layout = None;
    }

    /// Says that the pages hold `runs` (sorted, covering the object
    /// exactly), until a page changes; refused (false) when they do not
    /// cover it exactly or a write at a symbolic offset is pending.
    pub fn set_layout(&mut self, runs: Vec<Run>) -> bool {
        let mut at = 0;
        for r in &runs {
            if r.off() != at || r.len() == 0 {
                return false;
            }
            at += r.len();
        }
        if at != self.size || !self.log.is_empty() || !self.initial.is_empty() {
            return false;
        }
        self.layout = Some(runs.into());
        true
    }

    /// The runs the pages hold (`set_layout`), when no page changed since
    /// they were laid out and no byte was read as a fresh value.
    pub fn base_layout(&self) -> Option<Rc<[Run]>> {
        self.layout.clone().filter(|_| self.initial.is_empty())
    }

    /// `base_input_run` of the pages alone, by a walk over every page.
    fn pages_input_run(&self) -> Option<(u32, u32)> {
        let n = self.size.div_ceil(PAGE_BYTES) as usize;
        if n == 0 || self.pages.len() < n {
            return None;
        }
        let Some(Page { data: Data::Input { array, first }, .. }) = self.pages[0].as_deref() else { return None };
        let (array, first) = (*array, *first);
        let in_order = self.pages[..n].iter().enumerate().all(|(i, p)| match p.as_deref() {
            Some(Page { data: Data::Input { array: a, first: f }, .. }) => {
                *a == array && u64::from(*f) == u64::from(first) + i as u64 * PAGE_BYTES
            }
            _ => false,
        });
        in_order.then_some((array, first))
    }

    /// Bytes of an access at the symbolic `offset` into arbitrary contents
    /// (`base_is_arbitrary`), before the store log's writes, without
    /// listing the object: each byte is a fresh value, equal to the value
    /// read before at an offset it may equal. The fresh values are returned
    /// too: they are not tied to the input bytes read at numbers, an
    /// over-approximation the caller records.
    pub fn read_arbitrary(&mut self, pool: &mut ExprPool, offset: ExprId, len: u64) -> (Vec<ExprId>, Vec<ExprId>) {
        let fresh: Vec<ExprId> = (0..len).map(|_| pool.fresh(8)).collect();
        let values: Vec<ExprId> =
            fresh.iter().enumerate().map(|(k, f)| self.initial.byte_at_symbolic(pool, offset, k as u64, *f)).collect();
        self.initial.push(pool, offset, values.iter().map(|v| Some(*v)).collect());
        (values, fresh)
    }

    /// Folds the store log into the pages (every byte resolved), keeping
    /// which bytes were written. Costs the object's size times the log's
    /// length: only path merging of objects whose logs differ does it.
    fn flatten(&mut self, pool: &mut ExprPool) {
        if self.log.is_empty() && self.initial.is_empty() {
            return;
        }
        let n = self.size.div_ceil(PAGE_BYTES) as usize;
        for i in 0..n {
            let base = i as u64 * PAGE_BYTES;
            let len = self.page_len(i);
            let mut v: Vec<ExprId> = Vec::with_capacity(len);
            self.read(pool, base, len as u64, &mut v);
            let p = self.page_mut(i);
            p.data = Data::Exprs(v.into_boxed_slice());
        }
        self.log.clear();
        self.initial.clear();
        self.covered = None;
        // Every byte's newest write was at a number (`cover`), whose masks
        // the pages keep; or path merging, which moves them there itself.
        self.masks = None;
    }

    /// Marks `off..off + len` written without changing the pages' bytes
    /// (their values went into the store log).
    fn mark_range_written(&mut self, off: u64, bytes: &[Option<ExprId>]) {
        Self::for_pages(off, bytes.len() as u64, |i, from, to, at| {
            let len = self.page_len(i);
            let p = self.page_mut(i);
            for k in from..to {
                if bytes[at + k - from].is_some() {
                    p.mark_written(k, k + 1, len);
                }
            }
        });
    }

    /// The object's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }

    fn page_len(&self, i: usize) -> usize {
        (self.size - i as u64 * PAGE_BYTES).min(PAGE_BYTES) as usize
    }

    fn page(&self, i: usize) -> Option<&Page> {
        self.pages.get(i).and_then(|p| p.as_deref())
    }

    /// Page `i`, unshared, for writing.
    fn page_mut(&mut self, i: usize) -> &mut Page {
        self.pages_changed();
        if self.pages.len() <= i {
            self.pages.resize(i + 1, None);
        }
        let zero = self.zero;
        Rc::make_mut(self.pages[i].get_or_insert_with(|| Rc::new(blank_page(zero))))
    }

    /// Calls `f(page index, first byte in page, end in page, position in
    /// the range)` for the pages that `off..off + len` covers.
    fn for_pages(off: u64, len: u64, mut f: impl FnMut(usize, usize, usize, usize)) {
        let mut at = off;
        let end = off + len;
        while at < end {
            let i = (at / PAGE_BYTES) as usize;
            let from = (at % PAGE_BYTES) as usize;
            let to = ((end - i as u64 * PAGE_BYTES).min(PAGE_BYTES)) as usize;
            f(i, from, to, (at - off) as usize);
            at = i as u64 * PAGE_BYTES + to as u64;
        }
    }

    /// Byte `k`.
    pub fn get(&self, pool: &mut ExprPool, k: u64) -> ExprId {
        let base = match self.page((k / PAGE_BYTES) as usize) {
            Some(p) => p.byte(pool, (k % PAGE_BYTES) as usize),
            None => self.zero,
        };
        let base = if self.initial.is_empty() { base } else { self.initial.byte_at(pool, k, base) };
        if self.log.is_empty() {
            return base;
        }
        self.log.byte_at(pool, k, base)
    }

    /// The number (little-endian) that the `len` bytes at `off` hold, when
    /// they lie in one page of constant bytes and nothing waits in the
    /// logs: what `read` gives as byte constants, without building them;
    /// `written`: only when every one of them was written. None otherwise
    /// (also for more than 8 bytes).
    #[inline]
    pub fn constant_number(&self, off: u64, len: u64, written: bool) -> Option<u64> {
        if !self.log.is_empty() || !self.initial.is_empty() || len == 0 || len > 8 {
            return None;
        }
        let from = (off % PAGE_BYTES) as usize;
        let to = from + len as usize;
        if to > PAGE {
            return None;
        }
        let p = self.page((off / PAGE_BYTES) as usize)?;
        let Data::Concrete(v) = &p.data else { return None };
        if written && !p.all_written(from, to) {
            return None;
        }
        let mut le = [0u8; 8];
        le[..to - from].copy_from_slice(v.get(from..to)?);
        Some(u64::from_le_bytes(le))
    }

    /// Appends bytes `off..off + len` to `out`.
    #[inline]
    pub fn read(&self, pool: &mut ExprPool, off: u64, len: u64, out: &mut impl Extend<ExprId>) {
        if self.pending_may_touch(pool, off, len) {
            let mut base: Vec<ExprId> = Vec::with_capacity(len as usize);
            self.read_pages(pool, off, len, &mut base);
            if !self.initial.is_empty() {
                base = self.initial.read_at(pool, off, &base);
            }
            if !self.log.is_empty() {
                base = self.log.read_at(pool, off, &base);
            }
            out.extend(base);
            return;
        }
        self.read_pages(pool, off, len, out)
    }

    /// Whether the store log or the arbitrary bytes read at symbolic
    /// offsets may be at a byte of `off..off + len`.
    fn pending_may_touch(&self, pool: &mut ExprPool, off: u64, len: u64) -> bool {
        (!self.log.is_empty() && self.log.may_touch(pool, off, len)) || (!self.initial.is_empty() && self.initial.may_touch(pool, off, len))
    }

    /// Appends the pages' bytes `off..off + len` to `out` (the store log
    /// left out).
    #[inline]
    fn read_pages(&self, pool: &mut ExprPool, off: u64, len: u64, out: &mut impl Extend<ExprId>) {
        let from = (off % PAGE_BYTES) as usize;
        if from + len as usize <= PAGE {
            // Within one page (every scalar access but a few): no page walk.
            return self.read_in_page((off / PAGE_BYTES) as usize, from, from + len as usize, pool, out);
        }
        Self::for_pages(off, len, |i, from, to, _| self.read_in_page(i, from, to, pool, out));
    }

    #[inline]
    fn read_in_page(&self, i: usize, from: usize, to: usize, pool: &mut ExprPool, out: &mut impl Extend<ExprId>) {
        match self.page(i) {
            None => out.extend(std::iter::repeat_n(self.zero, to - from)),
            Some(p) => match &p.data {
                Data::Uniform(b) => out.extend(std::iter::repeat_n(*b, to - from)),
                Data::Exprs(v) => out.extend(v[from..to].iter().copied()),
                Data::Concrete(v) => out.extend(v[from..to].iter().map(|b| ExprId::byte_const(*b))),
                Data::Input { .. } => out.extend((from..to).map(|k| p.byte(pool, k))),
            },
        }
    }

    /// Every byte, in order (callers admit the memory first).
    pub fn to_vec(&self, pool: &mut ExprPool) -> Vec<ExprId> {
        let mut v = Vec::with_capacity(self.size as usize);
        self.read(pool, 0, self.size, &mut v);
        v
    }

    /// The one value every byte of `off..off + len` holds, if there is one,
    /// found by page without looking at bytes of uniform pages.
    pub fn uniform(&self, pool: &mut ExprPool, off: u64, len: u64) -> Option<ExprId> {
        if !self.initial.is_empty() {
            return None;
        }
        let v = self.pages_uniform(pool, off, len)?;
        // Writes in the log hold that value too, or the bytes are not one value.
        self.log.written_values().all(|b| b == v).then_some(v)
    }

    /// `uniform` of the pages alone.
    fn pages_uniform(&self, pool: &mut ExprPool, off: u64, len: u64) -> Option<ExprId> {
        let mut value: Option<ExprId> = None;
        let mut same = true;
        Self::for_pages(off, len, |i, from, to, _| {
            // Whether `b` agrees with the bytes seen so far.
            let mut agree = |b: ExprId| *value.get_or_insert(b) == b;
            if !same {
                return;
            }
            same = match self.page(i) {
                None => agree(self.zero),
                Some(p) => match &p.data {
                    Data::Uniform(b) => agree(*b),
                    _ => (from..to).all(|k| agree(p.byte(pool, k))),
                },
            };
        });
        value.filter(|_| same)
    }

    /// Whether byte `k` was ever written.
    pub fn is_written(&self, k: u64) -> bool {
        self.page((k / PAGE_BYTES) as usize).is_some_and(|p| p.is_written((k % PAGE_BYTES) as usize))
    }

    /// Whether every byte of `off..off + len` was written.
    #[inline]
    pub fn all_written(&self, off: u64, len: u64) -> bool {
        let from = (off % PAGE_BYTES) as usize;
        if from + len as usize <= PAGE {
            return self.page((off / PAGE_BYTES) as usize).is_some_and(|p| p.all_written(from, from + len as usize));
        }
        let mut all = true;
        Self::for_pages(off, len, |i, from, to, _| {
            all = all && self.page(i).is_some_and(|p| p.all_written(from, to));
        });
        all
    }

    /// The bytes of `off..off + len` never written.
    pub fn unwritten(&self, off: u64, len: u64) -> Vec<u64> {
        let mut out = Vec::new();
        Self::for_pages(off, len, |i, from, to, _| {
            let base = i as u64 * PAGE_BYTES;
            match self.page(i) {
                None => out.extend((from..to).map(|k| base + k as u64)),
                Some(p) => out.extend((from..to).filter(|k| !p.is_written(*k)).map(|k| base + k as u64)),
            }
        });
        out
    }

    /// How many bytes of `off..off + len` were never written, by page.
    pub fn count_unwritten(&self, off: u64, len: u64) -> u64 {
        let mut n = 0;
        Self::for_pages(off, len, |i, from, to, _| {
            n += match self.page(i) {
                None => (to - from) as u64,
                Some(p) => match &p.written {
                    Written::All => 0,
                    Written::None => (to - from) as u64,
                    Written::Some(_) => (from..to).filter(|k| !p.is_written(*k)).count() as u64,
                },
            };
        });
        n
    }

    /// Writes bytes at `off` (`None` entries are left alone), marking them
    /// written.
    #[inline]
    pub fn write(&mut self, pool: &mut ExprPool, off: u64, bytes: &[Option<ExprId>]) {
        if !self.log.is_empty() || !self.initial.is_empty() {
            if off == 0 && bytes.len() as u64 >= self.size && bytes.iter().all(|b| b.is_some()) {
                // Every byte rewritten: the log's writes are hidden.
                self.log.clear();
                self.initial.clear();
                self.covered = None;
                self.masks = None;
            } else if self.pending_may_touch(pool, off, bytes.len() as u64) {
                // After a write that may be here: it joins the log, in order.
                let at = pool.constant(64, off as u128);
                self.log.push(pool, at, bytes.into());
                if let Some(m) = &mut self.masks {
                    // Its masks are the pages' (`poison`), which the writer
                    // sets: the entry defers to them.
                    let zero = pool.constant(8, 0);
                    m.push(pool, at, bytes.iter().map(|b| b.map(|_| zero)).collect(), true, None);
                }
                self.mark_range_written(off, bytes);
                self.cover(pool, off, bytes);
                return;
            }
        }
        let from = (off % PAGE_BYTES) as usize;
        if from + bytes.len() <= PAGE {
            // Within one page (every scalar access but a few): no page walk.
            let i = (off / PAGE_BYTES) as usize;
            // Constants into a page of constants held alone, with nothing
            // pending (a concrete store): straight into its bytes, as
            // `write_in_page` would put them.
            if !bytes.is_empty()
                && self.log.is_empty()
                && self.initial.is_empty()
                && bytes.iter().all(|b| b.is_some_and(|b| b.as_byte_const().is_some()))
            {
                let len = self.page_len(i);
                if let Some(p) = self.own_concrete_page(i) {
                    if let Data::Concrete(v) = &mut p.data {
                        for (d, b) in v[from..from + bytes.len()].iter_mut().zip(bytes) {
                            *d = b.and_then(|b| b.as_byte_const()).unwrap_or(0);
                        }
                    }
                    p.mark_stored(from, from + bytes.len(), len);
                    self.pages_changed();
                    return;
                }
            }
            return self.write_in_page(i, from, bytes, pool);
        }
        Self::for_pages(off, bytes.len() as u64, |i, from, to, at| self.write_in_page(i, from, &bytes[at..at + (to - from)], pool));
    }

    /// Writes the `len` little-endian bytes of the number `v` (zero past
    /// its eighth) at `off`, marking them written: `write` of their byte
    /// constants. When
    /// they land in one page of constant bytes held by this object alone
    /// and no write at a symbolic offset waits (a concrete program's store),
    /// the numbers go straight into the page's bytes, with no handle per
    /// byte; anything else goes through `write`.
    #[inline]
    pub fn write_number(&mut self, pool: &mut ExprPool, off: u64, len: usize, v: u64) {
        let from = (off % PAGE_BYTES) as usize;
        let to = from + len;
        let i = (off / PAGE_BYTES) as usize;
        if (1..=8).contains(&len) && to <= PAGE && self.log.is_empty() && self.initial.is_empty() {
            let page_len = self.page_len(i);
            if let Some(p) = self.own_concrete_page(i) {
                if let Data::Concrete(bytes) = &mut p.data {
                    for (k, b) in bytes[from..to].iter_mut().enumerate() {
                        *b = (v >> (8 * k)) as u8;
                    }
                }
                p.mark_stored(from, to, page_len);
                self.pages_changed();
                return;
            }
        }
        let bytes: smallvec::SmallVec<[Option<ExprId>; 8]> =
            (0..len).map(|k| Some(ExprId::byte_const(v.checked_shr(8 * k as u32).unwrap_or(0) as u8))).collect();
        self.write(pool, off, &bytes);
    }

    /// Page `i` when it holds constant bytes and no other object or state
    /// shares it: a store of constants changes it in place.
    #[inline]
    fn own_concrete_page(&mut self, i: usize) -> Option<&mut Page> {
        let p = Rc::get_mut(self.pages.get_mut(i)?.as_mut()?)?;
        matches!(p.data, Data::Concrete(_)).then_some(p)
    }

    /// Writes `chunk` at `from` in page `i`.
    fn write_in_page(&mut self, i: usize, from: usize, chunk: &[Option<ExprId>], pool: &mut ExprPool) {
        {
            let to = from + chunk.len();
            let len = self.page_len(i);
            let p = self.page_mut(i);
            // Writing the value a uniform page already holds changes no byte.
            let unchanged = matches!(&p.data, Data::Uniform(u) if chunk.iter().flatten().all(|b| b == u));
            if !unchanged {
                let constants = !matches!(p.data, Data::Exprs(_)) && chunk.iter().flatten().all(|b| b.as_byte_const().is_some());
                p.make_writable(pool, len, constants);
                match &mut p.data {
                    Data::Concrete(v) => {
                        for (k, b) in chunk.iter().enumerate() {
                            if let Some(b) = b {
                                v[from + k] = b.as_byte_const().unwrap_or(0);
                            }
                        }
                    }
                    Data::Exprs(v) => {
                        for (k, b) in chunk.iter().enumerate() {
                            if let Some(b) = b {
                                v[from + k] = *b;
                            }
                        }
                    }
                    _ => unreachable!("make_writable leaves bytes or expressions"),
                }
            }
            if chunk.iter().all(|b| b.is_some()) {
                p.mark_written(from, to, len);
            } else {
                for (k, b) in chunk.iter().enumerate() {
                    if b.is_some() {
                        p.mark_written(from + k, from + k + 1, len);
                    }
                }
            }
        }
    }

    /// Sets byte `k` (written).
    pub fn set(&mut self, pool: &mut ExprPool, k: u64, byte: ExprId) {
        self.write(pool, k, &[Some(byte)]);
    }

    /// Sets `off..off + len` to `byte` (memset): whole pages share one page.
    pub fn fill(&mut self, pool: &mut ExprPool, off: u64, len: u64, byte: ExprId) {
        if self.log_hides_or_takes(pool, off, len) {
            self.write(pool, off, &vec![Some(byte); len as usize]);
            return;
        }
        let shared = Rc::new(Page { data: Data::Uniform(byte), written: Written::All });
        self.pages_changed();
        Self::for_pages(off, len, |i, from, to, _| {
            if from == 0 && to == self.page_len(i) {
                if self.pages.len() <= i {
                    self.pages.resize(i + 1, None);
                }
                self.pages[i] = Some(shared.clone());
            } else {
                let at = i as u64 * PAGE_BYTES + from as u64;
                self.write(pool, at, &vec![Some(byte); to - from]);
            }
        });
    }

    /// Makes `off..off + len` bytes `first..` of input `array`, built when
    /// read (make_symbolic).
    pub fn fill_input(&mut self, pool: &mut ExprPool, off: u64, len: u64, array: u32, first: u32) {
        if self.log_hides_or_takes(pool, off, len) {
            let bytes: Vec<Option<ExprId>> = (0..len as u32).map(|k| Some(pool.input_byte(array, first + k))).collect();
            self.write(pool, off, &bytes);
            return;
        }
        self.pages_changed();
        Self::for_pages(off, len, |i, from, to, at| {
            let start = first + at as u32;
            if from == 0 && to == self.page_len(i) {
                if self.pages.len() <= i {
                    self.pages.resize(i + 1, None);
                }
                self.pages[i] = Some(Rc::new(Page { data: Data::Input { array, first: start }, written: Written::All }));
            } else {
                let bytes: Vec<Option<ExprId>> = (0..(to - from) as u32).map(|k| Some(pool.input_byte(array, start + k))).collect();
                self.write(pool, i as u64 * PAGE_BYTES + from as u64, &bytes);
            }
        });
    }

    /// Before a write of `off..off + len` that fills whole pages: clears
    /// the log when the write covers the object (it hides every write
    /// there); true when the write must go into the log instead (a write
    /// in it may be there), byte by byte.
    fn log_hides_or_takes(&mut self, pool: &mut ExprPool, off: u64, len: u64) -> bool {
        if self.log.is_empty() && self.initial.is_empty() {
            return false;
        }
        if off == 0 && len >= self.size {
            self.log.clear();
            self.initial.clear();
            self.covered = None;
            self.masks = None;
            return false;
        }
        self.pending_may_touch(pool, off, len)
    }

    /// Copies `len` bytes of `src` at `src_off` to `off` (written), sharing
    /// whole pages when both ranges start at the same place in a page.
    /// The source range must be written (copies of unwritten bytes carry
    /// their shadow, see `Executor::copy_bytes`).
    pub fn copy_from(&mut self, pool: &mut ExprPool, off: u64, src: &ObjectBytes, src_off: u64, len: u64) {
        // Pages are shared only when no store log is involved: the log's
        // writes must be read through (source) and kept in order (here).
        let aligned = off % PAGE_BYTES == src_off % PAGE_BYTES
            && src.log.is_empty()
            && self.log.is_empty()
            && src.initial.is_empty()
            && self.initial.is_empty();
        self.pages_changed();
        Self::for_pages(off, len, |i, from, to, at| {
            let s = src_off + at as u64;
            let si = (s / PAGE_BYTES) as usize;
            let whole = from == 0 && to == self.page_len(i) && to == src.page_len(si);
            if aligned && whole {
                if self.pages.len() <= i {
                    self.pages.resize(i + 1, None);
                }
                let page = self.pages[i].insert(src.pages.get(si).cloned().flatten().unwrap_or_else(|| Rc::new(blank_page(src.zero))));
                if page.written != Written::All {
                    Rc::make_mut(page).written = Written::All;
                }
            } else {
                let mut bytes: Vec<ExprId> = Vec::with_capacity(to - from);
                src.read(pool, s, (to - from) as u64, &mut bytes);
                let bytes: Vec<Option<ExprId>> = bytes.into_iter().map(Some).collect();
                self.write(pool, i as u64 * PAGE_BYTES + from as u64, &bytes);
            }
        });
    }

    /// The same contents restricted to the pages `off..off + len` covers
    /// (a cheap snapshot of a copy's source: pages are shared).
    pub fn window(&self, off: u64, len: u64) -> ObjectBytes {
        let mut pages = Vec::new();
        if len > 0 {
            let (first, last) = ((off / PAGE_BYTES) as usize, ((off + len - 1) / PAGE_BYTES) as usize);
            let end = (last + 1).min(self.pages.len());
            if first < end {
                pages.resize(first, None);
                pages.extend_from_slice(&self.pages[first..end]);
            }
        }
        ObjectBytes {
            size: self.size,
            zero: self.zero,
            pages,
            log: self.log.clone(),
            masks: self.masks.clone(),
            initial: self.initial.clone(),
            covered: self.covered.clone(),
            input_run: Default::default(),
            layout: None,
        }
    }

    /// Marks every byte written, or none (forgetting the log).
    pub fn set_all_written(&mut self, written: bool) {
        self.pages_changed();
        if written {
            let n = self.size.div_ceil(PAGE_BYTES) as usize;
            self.pages.resize(n, None);
            let shared = Rc::new(Page { data: Data::Uniform(self.zero), written: Written::All });
            for p in self.pages.iter_mut() {
                match p {
                    None => *p = Some(shared.clone()),
                    Some(p) if p.written != Written::All => Rc::make_mut(p).written = Written::All,
                    Some(_) => {}
                }
            }
            return;
        }
        // Bytes never written hold nothing a write made (a work-group's
        // `__local` memory, workitems.rs): the writes waiting in the log
        // and their masks go too, else a byte under a logged write would
        // keep that write's mask rather than read as never written.
        self.log.clear();
        self.initial.clear();
        self.covered = None;
        self.masks = None;
        for p in self.pages.iter_mut().flatten() {
            if Rc::get_mut(p).is_none() && p.written == Written::None {
                continue;
            }
            Rc::make_mut(p).written = Written::None;
        }
    }

    /// Combines the bytes of pages that differ from `other`'s with `f`,
    /// which is also told whether each side wrote the byte (path merging);
    /// the written bytes are those of either side.
    pub fn merge(
        &mut self,
        pool: &mut ExprPool,
        other: &ObjectBytes,
        mut f: impl FnMut(&mut ExprPool, ExprId, ExprId, bool, bool) -> ExprId,
    ) {
        // The same log on both sides stays above the merged pages;
        // different ones are folded into the pages first.
        let flat;
        let other = if self.log.same(&other.log) && self.initial.same(&other.initial) {
            other
        } else {
            self.flatten(pool);
            let mut o = other.clone();
            o.flatten(pool);
            flat = o;
            &flat
        };
        // The pages merge under the shared log, which is set aside meanwhile
        // (else the merged bytes would be taken for writes after it).
        let (log, initial) = (std::mem::take(&mut self.log), std::mem::take(&mut self.initial));
        let n = self.size.div_ceil(PAGE_BYTES) as usize;
        for i in 0..n {
            let (a, b) = (self.pages.get(i).cloned().flatten(), other.pages.get(i).cloned().flatten());
            if same_page(self.zero, a.as_ref(), b.as_ref()) {
                continue;
            }
            let len = self.page_len(i);
            let base = i as u64 * PAGE_BYTES;
            let (mut xs, mut ys) = (Vec::with_capacity(len), Vec::with_capacity(len));
            self.read_pages(pool, base, len as u64, &mut xs);
            other.read_pages(pool, base, len as u64, &mut ys);
            let written_a: Vec<bool> = (0..len).map(|k| a.as_ref().is_some_and(|p| p.is_written(k))).collect();
            let written_b: Vec<bool> = (0..len).map(|k| b.as_ref().is_some_and(|p| p.is_written(k))).collect();
            let merged: Vec<Option<ExprId>> = (0..len)
                .map(|k| {
                    let (x, y, wa, wb) = (xs[k], ys[k], written_a[k], written_b[k]);
                    Some(if x == y && wa == wb { x } else { f(pool, x, y, wa, wb) })
                })
                .collect();
            let written: Vec<bool> = written_a.iter().zip(&written_b).map(|(x, y)| *x || *y).collect();
            self.write(pool, base, &merged);
            let p = self.page_mut(i);
            p.written = Written::None;
            for (k, w) in written.iter().enumerate() {
                if *w {
                    p.mark_written(k, k + 1, len);
                }
            }
        }
        self.log = log;
        self.initial = initial;
    }
}

/// Host bytes of the page table of an object of `size` bytes, once every
/// page is touched (admitted when the object is allocated).
pub fn page_table_bytes(size: u64) -> u64 {
    size.div_ceil(PAGE_BYTES).saturating_mul(8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(pool: &mut ExprPool, values: &[u8]) -> Vec<Option<ExprId>> {
        values.iter().map(|v| Some(pool.constant(8, *v as u128))).collect()
    }

    fn read(o: &ObjectBytes, pool: &mut ExprPool, off: u64, len: u64) -> Vec<u128> {
        let mut out = Vec::new();
        o.read(pool, off, len, &mut out);
        out.into_iter().map(|b| pool.as_const(b).expect("constant")).collect()
    }

    #[test]
    fn a_write_across_a_page_boundary_reads_back_and_marks_only_its_bytes() {
        let mut pool = ExprPool::new();
        let mut o = ObjectBytes::new(3 * PAGE_BYTES, pool.constant(8, 0));
        let values = bytes(&mut pool, &[1, 2, 3, 4]);
        o.write(&mut pool, PAGE_BYTES - 2, &values);
        assert_eq!(read(&o, &mut pool, PAGE_BYTES - 3, 6), vec![0, 1, 2, 3, 4, 0]);
        assert!(o.all_written(PAGE_BYTES - 2, 4));
        assert!(!o.is_written(PAGE_BYTES - 3) && !o.is_written(PAGE_BYTES + 2));
        assert_eq!(o.count_unwritten(0, 3 * PAGE_BYTES), 3 * PAGE_BYTES - 4);
    }

    #[test]
    fn a_fill_shares_whole_pages_and_writes_the_partial_ones() {
        let mut pool = ExprPool::new();
        let mut o = ObjectBytes::new(10 * PAGE_BYTES + 5, pool.constant(8, 0));
        let x = pool.fresh(8);
        o.fill(&mut pool, 3, 10 * PAGE_BYTES, x);
        assert_eq!(o.uniform(&mut pool, 3, 10 * PAGE_BYTES), Some(x));
        assert_eq!(o.get(&mut pool, 2), pool.constant(8, 0));
        assert_eq!(o.get(&mut pool, 10 * PAGE_BYTES + 3), pool.constant(8, 0));
        assert!(o.all_written(3, 10 * PAGE_BYTES) && !o.is_written(2));
        let shared = o.pages[2].as_ref().unwrap();
        assert!(Rc::ptr_eq(shared, o.pages[5].as_ref().unwrap()));
    }

    #[test]
    fn an_unaligned_copy_moves_the_bytes_and_an_aligned_one_shares_pages() {
        let mut pool = ExprPool::new();
        let zero = pool.constant(8, 0);
        let mut src = ObjectBytes::new(4 * PAGE_BYTES, zero);
        let values: Vec<u8> = (0..4 * PAGE_BYTES).map(|k| (k * 7 % 251) as u8).collect();
        let v = bytes(&mut pool, &values);
        src.write(&mut pool, 0, &v);
        let mut dst = ObjectBytes::new(4 * PAGE_BYTES, zero);
        dst.copy_from(&mut pool, 1, &src.window(0, 3 * PAGE_BYTES), 0, 3 * PAGE_BYTES);
        let want: Vec<u128> = values[..3 * PAGE_BYTES as usize].iter().map(|b| *b as u128).collect();
        assert_eq!(read(&dst, &mut pool, 1, 3 * PAGE_BYTES), want);
        let mut aligned = ObjectBytes::new(4 * PAGE_BYTES, zero);
        aligned.copy_from(&mut pool, 0, &src, 0, 4 * PAGE_BYTES);
        assert!(Rc::ptr_eq(aligned.pages[1].as_ref().unwrap(), src.pages[1].as_ref().unwrap()));
        assert!(aligned == src);
    }

    #[test]
    fn input_pages_give_the_input_bytes_in_order() {
        let mut pool = ExprPool::new();
        let mut o = ObjectBytes::new(2 * PAGE_BYTES + 10, pool.constant(8, 0));
        let a = pool.new_array("in", (2 * PAGE_BYTES) as u32);
        o.fill_input(&mut pool, 10, 2 * PAGE_BYTES, a, 0);
        for k in [0u32, 1, 4085, 4086, 4087, 8191] {
            let want = pool.input_byte(a, k);
            assert_eq!(o.get(&mut pool, 10 + k as u64), want);
        }
    }

    /// The answer is kept until the pages change: a write at a number,
    /// a fill, a copy or a fresh fill each make it asked again.
    #[test]
    fn the_input_run_is_kept_until_a_page_changes() {
        let mut pool = ExprPool::new();
        let zero = pool.constant(8, 0);
        let a = pool.new_array("in", (3 * PAGE_BYTES) as u32);
        let mut o = ObjectBytes::new(3 * PAGE_BYTES, zero);
        o.fill_input(&mut pool, 0, 3 * PAGE_BYTES, a, 0);
        assert_eq!(o.base_input_run(), Some((a, 0)));
        assert_eq!(o.input_run.get(), Some(Some((a, 0))));
        let shared = o.clone();
        o.set(&mut pool, PAGE_BYTES + 5, zero);
        assert_eq!(o.base_input_run(), None);
        // A clone shares the pages it was made from, and their answer.
        assert_eq!(shared.base_input_run(), Some((a, 0)));
        o.fill_input(&mut pool, PAGE_BYTES, PAGE_BYTES, a, PAGE_BYTES as u32);
        assert_eq!(o.base_input_run(), Some((a, 0)));
        o.fill(&mut pool, 2 * PAGE_BYTES, PAGE_BYTES, zero);
        assert_eq!(o.base_input_run(), None);
        o.copy_from(&mut pool, 0, &shared, 0, 3 * PAGE_BYTES);
        assert_eq!(o.base_input_run(), Some((a, 0)));
        o.set_all_written(false);
        o.write(&mut pool, 7, &[Some(zero)]);
        assert_eq!(o.base_input_run(), None);
    }

    #[test]
    fn byte_constants_are_the_pools() {
        let mut pool = ExprPool::new();
        for v in [0u8, 1, 0x7f, 0x80, 0xff] {
            assert_eq!(ExprId::byte_const(v), pool.constant(8, v as u128));
            assert_eq!(pool.constant(8, v as u128).as_byte_const(), Some(v));
        }
        let wide = pool.constant(16, 5);
        let fresh = pool.fresh(8);
        assert_eq!((wide.as_byte_const(), fresh.as_byte_const()), (None, None));
    }

    #[test]
    fn a_constant_page_takes_a_symbolic_byte() {
        let mut pool = ExprPool::new();
        let mut o = ObjectBytes::new(100, pool.constant(8, 0));
        let v = bytes(&mut pool, &[9; 100]);
        o.write(&mut pool, 0, &v);
        let x = pool.fresh(8);
        o.set(&mut pool, 50, x);
        assert_eq!(o.get(&mut pool, 50), x);
        assert_eq!(o.get(&mut pool, 49), pool.constant(8, 9));
    }

    #[test]
    fn merging_combines_only_the_bytes_that_differ_and_unites_what_was_written() {
        let mut pool = ExprPool::new();
        let zero = pool.constant(8, 0);
        let mut a = ObjectBytes::new(2 * PAGE_BYTES, zero);
        let mut b = a.clone();
        let (one, two) = (pool.constant(8, 1), pool.constant(8, 2));
        a.set(&mut pool, 5, one);
        b.set(&mut pool, 5, two);
        b.set(&mut pool, 6, two);
        let c = pool.fresh(1);
        a.merge(&mut pool, &b, |p, x, y, _, _| p.ite(c, x, y));
        let five = pool.ite(c, one, two);
        let six = pool.ite(c, zero, two);
        assert_eq!((a.get(&mut pool, 5), a.get(&mut pool, 6), a.get(&mut pool, 7)), (five, six, zero));
        assert!(a.is_written(5) && a.is_written(6) && !a.is_written(7));
    }

    /// A number written into a page of constants goes into its bytes
    /// directly; every other case (a blank page, a page shared with a
    /// clone, a pending write at a symbolic offset, a page boundary) goes
    /// through `write`: either way the object is the one `write` of the
    /// byte constants makes, bytes and written marks alike.
    #[test]
    fn a_written_number_is_its_bytes_written() {
        let mut pool = ExprPool::new();
        let zero = pool.constant(8, 0);
        let mut by_number = ObjectBytes::new(3 * PAGE_BYTES, zero);
        let mut by_bytes = by_number.clone();
        // The general page write, without the shortcut `write` takes.
        let mut by_pages = by_number.clone();
        let le = |v: u64, len: usize| -> Vec<Option<ExprId>> { (0..len).map(|k| Some(ExprId::byte_const((v >> (8 * k)) as u8))).collect() };
        let mut writes = vec![
            (8u64, 4usize, 0x1122_3344u64),
            (12, 4, 0xdead_beef),
            (9, 2, 0xabcd),
            (PAGE_BYTES - 2, 4, 0x0102_0304),
            (100, 8, u64::MAX),
        ];
        // A store of a whole page, word by word, completes its written marks.
        writes.extend((0..PAGE_BYTES / 8).map(|k| (2 * PAGE_BYTES + 8 * k, 8, k * 0x0101)));
        for &(off, len, v) in &writes {
            by_number.write_number(&mut pool, off, len, v);
            by_bytes.write(&mut pool, off, &le(v, len));
            let bytes = le(v, len);
            ObjectBytes::for_pages(off, len as u64, |i, from, to, at| {
                by_pages.write_in_page(i, from, &bytes[at..at + (to - from)], &mut pool)
            });
        }
        assert!(by_number == by_bytes && by_number == by_pages);
        assert_eq!(by_number.count_unwritten(0, 3 * PAGE_BYTES), by_pages.count_unwritten(0, 3 * PAGE_BYTES));
        assert_eq!(read(&by_number, &mut pool, 8, 8), vec![0x44, 0xcd, 0xab, 0x11, 0xef, 0xbe, 0xad, 0xde]);
        assert!(by_number.all_written(8, 8) && !by_number.is_written(7) && !by_number.is_written(16));
        assert!(matches!(by_number.pages[2].as_deref(), Some(Page { written: Written::All, .. })));
        assert_eq!(by_number.count_unwritten(0, 3 * PAGE_BYTES), by_bytes.count_unwritten(0, 3 * PAGE_BYTES));
        // A clone shares the pages: the write copies the page, the clone keeps its bytes.
        let before = by_number.clone();
        by_number.write_number(&mut pool, 8, 4, 7);
        assert_eq!(read(&before, &mut pool, 8, 4), vec![0x44, 0xcd, 0xab, 0x11]);
        assert_eq!(read(&by_number, &mut pool, 8, 4), vec![7, 0, 0, 0]);
        // After a write at a symbolic offset the number joins the store log, in order.
        let at = pool.fresh(64);
        let x = pool.fresh(8);
        by_number.write_symbolic(&mut pool, at, &[Some(x)]);
        by_bytes = by_number.clone();
        by_number.write_number(&mut pool, 20, 2, 0x0506);
        by_bytes.write(&mut pool, 20, &le(0x0506, 2));
        assert_eq!(by_number.pending_writes(), by_bytes.pending_writes());
        // Logs are compared by identity: the bytes read through them instead.
        let (mut a, mut b) = (Vec::new(), Vec::new());
        by_number.read(&mut pool, 16, 8, &mut a);
        by_bytes.read(&mut pool, 16, 8, &mut b);
        assert_eq!(a, b);
        assert!(by_number.all_written(20, 2));
    }

    #[test]
    fn masks_of_writes_in_the_log_are_read_through_it_and_writes_at_numbers_defer_to_the_pages() {
        use crate::expr::{evaluate, Assignment, Expr};
        let mut pool = ExprPool::new();
        let zero = pool.constant(8, 0);
        let mut o = ObjectBytes::new(8192, zero);
        let (i, j) = (pool.fresh(64), pool.fresh(64));
        let x = pool.constant(8, 1);
        // A defined write, then one with a shadow: the mask log starts
        // with the first one's zero masks.
        o.write_symbolic(&mut pool, i, &[Some(x)]);
        assert!(o.mask_log().is_none());
        let ff = pool.constant(8, 0xff);
        o.write_symbolic_shadowed(&mut pool, j, &[Some(x)], &[Some(ff)], crate::memory::OriginId(2));
        assert_eq!(o.mask_log().map(|m| m.origin()), Some(crate::memory::OriginId(2)));
        let page = pool.constant(8, 0x0f);
        let m = o.mask_under_pending_writes(&mut pool, 5, page);
        let at = |pool: &ExprPool, iv: u128, jv: u128| {
            let mut a = Assignment::default();
            for (e, v) in [(i, iv), (j, jv)] {
                let Expr::Fresh { id, .. } = *pool.get(e) else { unreachable!() };
                a.fresh.insert(id, v);
            }
            a
        };
        assert_eq!(evaluate(&pool, m, &at(&pool, 5, 6)), 0);
        assert_eq!(evaluate(&pool, m, &at(&pool, 6, 5)), 0xff);
        assert_eq!(evaluate(&pool, m, &at(&pool, 5, 5)), 0xff);
        assert_eq!(evaluate(&pool, m, &at(&pool, 6, 6)), 0x0f);
        // A write at number 5 joins the log: its mask is the pages'.
        o.write(&mut pool, 5, &[Some(x)]);
        assert_eq!(o.mask_under_pending_writes(&mut pool, 5, page), page);
        // A defined write at a symbolic offset after it: zero where it lands.
        o.write_symbolic(&mut pool, i, &[Some(x)]);
        let m = o.mask_under_pending_writes(&mut pool, 5, page);
        assert_eq!((evaluate(&pool, m, &at(&pool, 5, 5)), evaluate(&pool, m, &at(&pool, 6, 5))), (0, 0x0f));
        // A write of every byte hides the log and its masks.
        o.fill(&mut pool, 0, 8192, x);
        assert!(o.mask_log().is_none() && o.pending_writes() == 0);
    }

    /// A work-group's `__local` memory starts unwritten (workitems.rs):
    /// the last group's writes waiting in the log, and their masks, go
    /// with it, as the rewrite of every byte at the store (which left no
    /// log) had them: every byte's mask is then the never-written one.
    #[test]
    fn bytes_marked_unwritten_forget_the_writes_and_masks_of_the_log() {
        let mut pool = ExprPool::new();
        let zero = pool.constant(8, 0);
        let mut o = ObjectBytes::new(8192, zero);
        o.set_all_written(true);
        let (i, j) = (pool.fresh(64), pool.fresh(64));
        let x = pool.constant(8, 1);
        let m = pool.constant(8, 0x0f);
        o.write_symbolic_shadowed(&mut pool, j, &[Some(x)], &[Some(m)], crate::memory::OriginId(2));
        o.write_symbolic(&mut pool, i, &[Some(x)]);
        o.set_all_written(false);
        let all = pool.constant(8, 0xff);
        for k in [0, 5, 8191] {
            assert_eq!(o.mask_under_pending_writes(&mut pool, k, all), all, "byte {k}");
        }
        assert!(o.mask_log().is_none() && o.pending_writes() == 0 && !o.is_written(5));
    }
}
