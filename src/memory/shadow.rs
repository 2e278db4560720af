//! The data of the uninitialised-bits analysis, in the style of
//! MemorySanitizer: a register's *shadow* (one mask per lane, a set bit
//! meaning that bit of the value is indeterminate) and the *origin* of
//! those bits, the table of origins, the masks' arithmetic, and which bytes
//! of an object are defined. How the executor propagates shadows through
//! instructions and reports a use is exec/memory/shadow.rs; through memory,
//! exec/memory/shadow_mem.rs.

use crate::expr::value::Value;
use crate::expr::{ExprId, ExprPool};
use crate::ir::{Const, FuncId, Function, Loc, Operand};
use crate::memory::{MemoryObject, ObjectKind};
use rustc_hash::FxHashMap;

/// Where indeterminate bits come from: an index into `ShadowCx`'s table
/// of origins.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OriginId(pub u32);

/// A description of an origin for messages: `stack `buf``, with the line of
/// the allocation when known.
#[derive(Clone, Debug)]
pub struct Origin {
    /// What the bits come from (`stack `buf``, `undef`).
    pub what: String,
    /// Where, when known.
    pub loc: Option<Loc>,
    /// What `loc` is: "allocated here", "appears here".
    pub note: &'static str,
    /// For the poison of an undefined operation (a shift by the width or
    /// more, signed overflow): which one. A use of these bits is then an
    /// `undefined-behaviour` finding at `loc`, not an uninitialised read.
    pub undefined: Option<crate::report::UndefinedOperation>,
    /// Bits whose definedness was not decided: pair mode's `__local`
    /// bytes after a barrier that some work-item not modelled may or may
    /// not have written (exec/opencl/unchecked_local.rs). A use of them is
    /// a warning naming the gap, never a finding.
    pub unchecked: bool,
}

/// The shadow of a register value: one mask per lane (same widths as the
/// value's lanes), set bits indeterminate.
#[derive(Clone, Debug, PartialEq)]
pub struct Shadow {
    /// One mask per lane; set bits are indeterminate.
    pub mask: Value,
    /// Where the indeterminate bits come from.
    pub origin: OriginId,
}

impl Shadow {
    /// One bit, set when some bit of some lane may be indeterminate: the
    /// condition under which a use of the value is a finding.
    pub fn any_set(&self, p: &mut ExprPool) -> ExprId {
        let mut any = p.constant(1, 0);
        for l in &self.mask {
            let b = any_bit(p, *l);
            any = p.or(any, b);
        }
        any
    }
}

/// Executor-wide bookkeeping of the shadow analysis.
#[derive(Default)]
pub struct ShadowCx {
    origins: Vec<Origin>,
    by_text: FxHashMap<(String, Option<Loc>), OriginId>,
    /// Per function: whether it mentions an `undef`/`poison` constant.
    undef_in: Vec<bool>,
    /// The shadow of the bytes of the last `read_bytes` (None: all defined).
    pub last_read: Option<(crate::memory::Bytes, OriginId)>,
    /// The lanes the instruction being executed makes poison by an
    /// undefined operation (exec/ops/undefined.rs), one mask per lane, and
    /// their origin; merged into the result's shadow once it is written.
    pub poison: Option<(Value, OriginId)>,
    /// Set by a call's model whose result is one argument's value where a
    /// condition holds and a defined value elsewhere (a shuffle that reads
    /// the caller's own lane or another's): the argument and the
    /// condition. Taken when the result's shadow is made.
    pub result_from_argument: Option<(usize, crate::expr::ExprId)>,
    /// Ranges of the operands of undefined-operation tests, read from the
    /// structure of their expressions (no path facts, so one memo serves
    /// every path): a sum of weighted absolute differences of bytes that
    /// cannot overflow needs no query.
    pub operand_ranges: crate::ranges::RangeAnalysis,
    /// The same narrowed by the facts of the path being run (its
    /// `symcross_assume` bounds), asked only when structure alone leaves
    /// an overflow possible.
    pub path_ranges: crate::ranges::PathRanges,
}

impl ShadowCx {
    /// Whether `func` has an `undef`/`poison` constant among its operands
    /// (only then do its registers need shadows from the start).
    pub fn mentions_undef(&self, func: FuncId) -> bool {
        self.undef_in.get(func.0 as usize).copied().unwrap_or(false)
    }

    /// The bookkeeping of a run of `module`: no origin yet.
    pub fn new(module: &crate::ir::Module) -> Self {
        let undef_in = module.functions.iter().map(mentions_undef).collect();
        ShadowCx { undef_in, ..Default::default() }
    }

    /// Whether an origin is the poison of an undefined operation.
    pub fn is_undefined(&self, id: OriginId) -> bool {
        self.origins.get(id.0 as usize).is_some_and(|o| o.undefined.is_some())
    }

    /// Whether an origin stands for bits not known to be indeterminate
    /// (`Origin::unchecked`).
    pub fn is_unchecked(&self, id: OriginId) -> bool {
        self.origins.get(id.0 as usize).is_some_and(|o| o.unchecked)
    }

    /// The description of an origin, for messages.
    pub fn origin(&self, id: OriginId) -> Origin {
        self.origins.get(id.0 as usize).cloned().unwrap_or(Origin {
            what: "memory never written".into(),
            loc: None,
            note: "",
            undefined: None,
            unchecked: false,
        })
    }

    /// Hands the origins to the executor of a nested run (a kernel started
    /// by a host program, which shares the host's memory) and back.
    pub fn swap_origins(&mut self, other: &mut ShadowCx) {
        std::mem::swap(&mut self.origins, &mut other.origins);
        std::mem::swap(&mut self.by_text, &mut other.by_text);
    }

    /// The id of the origin `what` at `loc`, made on first use.
    pub fn intern(&mut self, what: String, loc: Option<Loc>, note: &'static str) -> OriginId {
        self.intern_origin(what, loc, note, None)
    }

    /// The id of the origin `what` at `loc` whose bits may or may not be
    /// indeterminate (`Origin::unchecked`), made on first use. `what`
    /// must differ from the texts of other origins.
    pub fn intern_unchecked(&mut self, what: String, loc: Option<Loc>) -> OriginId {
        let id = self.intern_origin(what, loc, "allocated here", None);
        if let Some(o) = self.origins.get_mut(id.0 as usize) {
            o.unchecked = true;
        }
        id
    }

    /// The id of the poison of undefined operation `op` at `loc`
    /// (described by `what`), made on first use.
    pub fn intern_undefined(&mut self, what: String, loc: Loc, op: crate::report::UndefinedOperation) -> OriginId {
        self.intern_origin(what, Some(loc), "happens here", Some(op))
    }

    fn intern_origin(
        &mut self,
        what: String,
        loc: Option<Loc>,
        note: &'static str,
        undefined: Option<crate::report::UndefinedOperation>,
    ) -> OriginId {
        let key = (what, loc);
        if let Some(id) = self.by_text.get(&key) {
            return *id;
        }
        let id = OriginId(self.origins.len() as u32);
        self.origins.push(Origin { what: key.0.clone(), loc, note, undefined, unchecked: false });
        self.by_text.insert(key, id);
        id
    }
}

/// Whether every lane of a mask is the constant 0.
pub fn is_clean(p: &ExprPool, mask: &[ExprId]) -> bool {
    mask.iter().all(|m| p.as_const(*m) == Some(0))
}

/// All bits set when any bit of `s` is, at width `w`.
pub fn smear(p: &mut ExprPool, s: ExprId, w: u32) -> ExprId {
    if let Some(v) = p.as_const(s) {
        return p.constant(w, if v == 0 { 0 } else { crate::expr::mask(w) });
    }
    let zero = p.constant(p.width(s), 0);
    let clean = p.eq(s, zero);
    let any = p.not(clean);
    p.sext(any, w)
}

/// The bit `s != 0`.
pub fn any_bit(p: &mut ExprPool, s: ExprId) -> ExprId {
    smear(p, s, 1)
}

/// Set bits at and above the lowest set bit of `s`: how carries spread an
/// indeterminate bit through addition, subtraction and multiplication.
pub fn upward(p: &mut ExprPool, s: ExprId) -> ExprId {
    if p.as_const(s) == Some(0) {
        return s;
    }
    let zero = p.constant(p.width(s), 0);
    let neg = p.sub(zero, s);
    p.or(s, neg)
}

/// Zero masks with the lane widths of `v`.
pub fn zeros_like(p: &mut ExprPool, v: &[ExprId]) -> Value {
    v.iter().map(|l| p.constant(p.width(*l), 0)).collect()
}

/// Whether a function has an `undef`/`poison` constant among its operands,
/// or a shuffle with an undefined mask entry (a poison lane).
fn mentions_undef(f: &Function) -> bool {
    f.blocks.iter().any(|b| {
        b.insts.iter().any(|inst| {
            inst.kind.operands().iter().any(|o| has_undef(o))
                || matches!(&inst.kind, crate::ir::InstKind::ShuffleVector { mask, .. } if mask.iter().any(|&m| m < 0))
        })
            || matches!(&b.term, crate::ir::Terminator::CondBr { cond: o, .. } | crate::ir::Terminator::Switch { value: o, .. } | crate::ir::Terminator::Ret(Some(o)) if has_undef(o))
    })
}

/// Whether an operand is, or contains, an `undef`/`poison` constant.
pub fn has_undef(op: &Operand) -> bool {
    fn in_const(c: &Const) -> bool {
        match c {
            Const::Undef(t) => *t != crate::ir::Type::Void,
            Const::Vector(items) | Const::Aggregate(items) => items.iter().any(in_const),
            _ => false,
        }
    }
    matches!(op, Operand::Const(c) if in_const(c))
}

/// Whether never-written bytes of `o` are indeterminate.
pub fn tracks_writes(o: &MemoryObject) -> bool {
    matches!(o.kind, ObjectKind::Stack | ObjectKind::Heap)
}

/// Whether every byte of `o` in `[off, off + len)` is defined.
#[inline]
pub fn range_is_defined(o: &MemoryObject, off: u64, len: u64) -> bool {
    pages_defined(o, off, len) && o.bytes.mask_log().is_none_or(|m| !m.may_touch(off, len))
}

/// Whether every byte of `o` in `[off, off + len)` is defined in the
/// pages, below the writes of the store log (whose masks, when one had a
/// shadow, are in its mask log: memory/mask_log.rs).
#[inline]
pub fn pages_defined(o: &MemoryObject, off: u64, len: u64) -> bool {
    (!tracks_writes(o) || o.bytes.all_written(off, len)) && (o.poison.is_empty() || o.poison.range(off..off + len).next().is_none())
}
