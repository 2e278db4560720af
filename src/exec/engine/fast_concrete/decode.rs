//! The pre-decoded form of a function for the fast tier: one `Op` per
//! instruction of each block (so a frame's `pc` means the same in both
//! tiers), its terminator, and the phi moves of the block's entry. Operands
//! are register numbers or constants made ready once (globals' and
//! functions' addresses resolved); what the tier does not run is `Slow`
//! and left to the general step. A function is decoded the first time a
//! stretch enters it.

use crate::exec::engine::executor::Executor;
use crate::expr::{BinOp, ExprId, FBinOp, FpFormat, Outcomes};
use crate::ir::{BlockId, CastOp, Const, FuncId, Function, ICmpPred, Inst, InstKind, Operand, PoisonFlags, Terminator, Type};
use std::rc::Rc;

/// An operand as the tier reads it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Src {
    /// A register of the running frame.
    Reg(u32),
    /// A constant carried inside its handle: no pool lookup to read it.
    Imm(ExprId),
    /// A constant of up to 64 bits that lives in the pool: looked up at
    /// each use, as the general step does, so the pool is filled in the
    /// same order by both tiers.
    Num { width: u32, value: u64 },
    /// A constant vector, aggregate or `undef`: `FastFunc::consts[k]`, its
    /// lanes carried inline.
    Lanes(u32),
}

/// A constant of several lanes (or an `undef`), as the general step's
/// `const_value` builds it (`undef` lanes as zeros), with the lanes that
/// are `undef`/`poison`: their bits are indeterminate, which only the
/// lane moves (`Extract`, `Shuffle`) read past, when they pick none of them.
#[derive(Debug)]
pub(super) struct ConstLanes {
    pub value: crate::expr::value::Value,
    /// Bit `i` set: lane `i` is `undef`.
    pub undef: u64,
    /// The lanes as plain bits (`undef` lanes 0), when they fit
    /// (raw_lanes.rs).
    pub raw: Option<super::raw_lanes::Raw>,
}

/// A conversion the tier runs.
#[derive(Clone, Copy, Debug)]
pub(super) enum CastKind {
    Trunc(u32),
    ZExt(u32),
    SExt(u32),
    /// `ptrtoint`/`inttoptr`: zero-extended or truncated.
    Resize(u32),
    /// Lanes re-sliced into lanes of this many bits.
    BitCast(u32),
    FpConvert(FpFormat, FpFormat),
    IntToFp(bool, FpFormat),
}

/// One instruction.
#[derive(Debug)]
pub(super) enum Op {
    /// Left to the general step.
    Slow,
    /// A step that does nothing (a phi node, assigned on entry; a fence).
    Nop,
    Int {
        op: BinOp,
        flags: PoisonFlags,
        dst: u32,
        a: Src,
        b: Src,
    },
    /// `Int` on one lane of `w` bits.
    Int1 {
        op: BinOp,
        flags: PoisonFlags,
        w: u32,
        dst: u32,
        a: Src,
        b: Src,
    },
    ICmp {
        pred: ICmpPred,
        dst: u32,
        a: Src,
        b: Src,
    },
    /// `ICmp` on one lane of `w` bits.
    ICmp1 {
        pred: ICmpPred,
        w: u32,
        dst: u32,
        a: Src,
        b: Src,
    },
    Float {
        op: FBinOp,
        f: FpFormat,
        dst: u32,
        a: Src,
        b: Src,
    },
    FCmp {
        set: Outcomes,
        f: FpFormat,
        dst: u32,
        a: Src,
        b: Src,
    },
    FNeg {
        f: FpFormat,
        dst: u32,
        a: Src,
    },
    Cast {
        kind: CastKind,
        dst: u32,
        a: Src,
    },
    /// A trunc, zext, sext or pointer resize of one lane of `from` bits;
    /// `flags` its promises (`trunc nuw`/`nsw`, `zext nneg`), whose
    /// breaking the general step marks.
    Cast1 {
        kind: CastKind,
        flags: PoisonFlags,
        from: u32,
        dst: u32,
        a: Src,
    },
    /// The operand's value as it is (`freeze`, `addrspacecast`).
    Copy {
        dst: u32,
        a: Src,
    },
    Select {
        dst: u32,
        c: Src,
        t: Src,
        e: Src,
    },
    /// Each term: the index, its scale and its width. `inbounds`: a
    /// result outside the base's object goes to the general step.
    /// `bounded`: the instruction carries sub-object bounds, which only
    /// device code checks (the general step's there).
    Gep {
        dst: u32,
        base: Src,
        offset: i64,
        terms: Box<[(Src, i64, u32)]>,
        inbounds: bool,
        bounded: bool,
    },
    /// A load of the instruction's type.
    Load {
        dst: u32,
        ptr: Src,
    },
    /// A load of a scalar of `width` bits (`len` bytes); `align` the
    /// instruction's (a work-item's misaligned access is the general
    /// step's finding).
    Load1 {
        dst: u32,
        ptr: Src,
        width: u32,
        len: u32,
        align: u64,
    },
    /// A store of a value of `types[ty]`.
    Store {
        ptr: Src,
        val: Src,
        ty: u32,
    },
    /// A store of a one-lane value of `types[ty]`; `align` as `Load1`'s.
    Store1 {
        ptr: Src,
        val: Src,
        ty: u32,
        len: u32,
        align: u64,
    },
    /// A lane of a vector at a constant index.
    Extract {
        dst: u32,
        v: Src,
        k: Src,
    },
    /// A vector with one lane replaced, at a constant index.
    Insert {
        dst: u32,
        v: Src,
        e: Src,
        k: Src,
    },
    /// Lanes of the concatenation of `a` and `b` (a negative entry is an
    /// `undef` lane, left to the general step).
    Shuffle {
        dst: u32,
        a: Src,
        b: Src,
        mask: Box<[i32]>,
    },
    /// A call of a function defined in the module, with neither variadic
    /// nor by-value parameters.
    Call {
        callee: FuncId,
        dst: Option<u32>,
        args: Box<[Src]>,
    },
}

impl Op {
    /// Whether `f` holds for one of the operands.
    pub fn reads(&self, mut f: impl FnMut(Src) -> bool) -> bool {
        match self {
            Op::Slow | Op::Nop => false,
            Op::Int { a, b, .. }
            | Op::Int1 { a, b, .. }
            | Op::ICmp { a, b, .. }
            | Op::ICmp1 { a, b, .. }
            | Op::Float { a, b, .. }
            | Op::FCmp { a, b, .. }
            | Op::Shuffle { a, b, .. } => f(*a) || f(*b),
            Op::FNeg { a, .. } | Op::Cast { a, .. } | Op::Cast1 { a, .. } | Op::Copy { a, .. } => f(*a),
            Op::Select { c, t, e, .. } => f(*c) || f(*t) || f(*e),
            Op::Gep { base, terms, .. } => f(*base) || terms.iter().any(|(t, _, _)| f(*t)),
            Op::Load { ptr, .. } | Op::Load1 { ptr, .. } => f(*ptr),
            Op::Store { ptr, val, .. } | Op::Store1 { ptr, val, .. } => f(*ptr) || f(*val),
            Op::Extract { v, k, .. } => f(*v) || f(*k),
            Op::Insert { v, e, k, .. } => f(*v) || f(*e) || f(*k),
            Op::Call { args, .. } => args.iter().any(|a| f(*a)),
        }
    }

    /// Whether raw_ops.rs may run it on vectors held as plain bits.
    /// Conversions to and from floats are never run raw (raw_step leaves
    /// them to the handle path): a host loop's `(float)i` does not make
    /// its function run with the raw registers' bookkeeping.
    #[inline(always)]
    pub fn on_vectors(&self) -> bool {
        matches!(
            self,
            Op::Int { .. }
                | Op::ICmp { .. }
                | Op::Cast {
                    kind: CastKind::Trunc(_) | CastKind::ZExt(_) | CastKind::SExt(_) | CastKind::Resize(_) | CastKind::BitCast(_),
                    ..
                }
                | Op::Shuffle { .. }
                | Op::Extract { .. }
                | Op::Insert { .. }
                | Op::Load { .. }
                | Op::Store { .. }
        )
    }

    /// The register written (a call's, only when its callee returns).
    pub fn dst(&self) -> Option<u32> {
        match self {
            Op::Slow | Op::Nop | Op::Store { .. } | Op::Store1 { .. } | Op::Call { .. } => None,
            Op::Int { dst, .. }
            | Op::Int1 { dst, .. }
            | Op::ICmp { dst, .. }
            | Op::ICmp1 { dst, .. }
            | Op::Float { dst, .. }
            | Op::FCmp { dst, .. }
            | Op::FNeg { dst, .. }
            | Op::Cast { dst, .. }
            | Op::Cast1 { dst, .. }
            | Op::Copy { dst, .. }
            | Op::Select { dst, .. }
            | Op::Gep { dst, .. }
            | Op::Load { dst, .. }
            | Op::Load1 { dst, .. }
            | Op::Extract { dst, .. }
            | Op::Insert { dst, .. }
            | Op::Shuffle { dst, .. } => Some(*dst),
        }
    }
}

/// A block's terminator.
#[derive(Debug)]
pub(super) enum Term {
    Slow,
    Br(Edge),
    /// `check`: one side fails (`assert`), so taking the branch counts a
    /// check reached, as the general step's `note_branch` does.
    CondBr {
        c: Src,
        then: Edge,
        otherwise: Edge,
        check: bool,
    },
    Switch {
        v: Src,
        default: u32,
        cases: Box<[(u128, u32)]>,
    },
    Ret(Option<Src>),
}

/// A phi node: its register and the operand on each incoming edge (None:
/// a constant the tier does not build, left to the general step).
#[derive(Debug)]
pub(super) struct Phi {
    pub dst: u32,
    pub incoming: Box<[(u32, Option<Src>)]>,
}

/// A branch from one block to another, with the phi moves of the target
/// for that edge: each phi's register and the operand it takes (None: a
/// constant the tier does not build). A phi with no operand for the edge
/// keeps its value, as in the general step.
#[derive(Debug)]
pub(super) struct Edge {
    pub target: u32,
    pub moves: Box<[(u32, Option<Src>)]>,
    /// Every move takes one lane: a constant of one lane or a register of
    /// a one-lane type (integer, float, pointer), at most 8 moves.
    pub scalar: bool,
}

/// One block.
#[derive(Debug)]
pub(super) struct FastBlock {
    pub ops: Box<[Op]>,
    pub term: Term,
    /// The leading phi nodes, assigned when the block is entered.
    pub phis: Box<[Phi]>,
    /// How many instructions the leading phi nodes are (each a step).
    pub lead: u32,
}

/// One function.
#[derive(Debug)]
pub(super) struct FastFunc {
    pub blocks: Box<[FastBlock]>,
    /// The types of stored values (`Op::Store::ty`).
    pub types: Box<[Type]>,
    /// The constants of several lanes (`Src::Lanes`).
    pub consts: Box<[ConstLanes]>,
    /// Some instruction may run on raw vectors (`Op::on_vectors`): else
    /// no register of a run in this function is ever held raw, and the
    /// run skips that bookkeeping (scalar code runs most instructions).
    pub vectors: bool,
}

/// The decoded functions of a run, by `FuncId`, and whether the tier is on.
pub(in crate::exec) struct FastCode {
    pub(super) enabled: bool,
    funcs: Vec<Option<Rc<FastFunc>>>,
    /// The constants of several lanes of the function being decoded.
    building: Vec<ConstLanes>,
    /// Register files of returned frames, kept for the next calls.
    pub(super) spare_regs: Vec<Vec<Option<crate::expr::value::Value>>>,
    /// The running frame's vectors held as plain bits.
    pub(super) raw: super::raw_lanes::RawRegs,
}

impl FastCode {
    /// The tier for a run, on unless `--no-fast-concrete` turned it off.
    pub(in crate::exec) fn new() -> Self {
        FastCode {
            enabled: crate::config::fast_concrete::enabled(),
            funcs: Vec::new(),
            building: Vec::new(),
            spare_regs: Vec::new(),
            raw: Default::default(),
        }
    }
}

/// Whether the pool carries `value` (of `width` bits) inside its handle:
/// up to 56 bits always, wider when it is a 56-bit value sign-extended.
pub(super) fn carried_inline(width: u32, value: u128) -> bool {
    const LOW: u128 = (1 << 56) - 1;
    if width <= 56 {
        return true;
    }
    let low = value & LOW;
    let extended = if low >> 55 & 1 == 1 { low | !LOW } else { low };
    extended & crate::expr::mask(width) == value
}

/// The width of an operand's (lane's) type.
fn operand_width(func: &Function, op: &Operand) -> Option<u32> {
    match op {
        Operand::Reg(r) => Some(func.reg_types[r.0 as usize].scalar_bits()).filter(|w| *w > 0),
        Operand::Const(Const::Int { width, .. }) => Some(*width),
        Operand::Const(Const::Float { format, .. }) => Some(format.width()),
        Operand::Const(Const::Null | Const::GlobalAddr { .. } | Const::FuncAddr(_)) => Some(64),
        Operand::Const(_) => None,
    }
}

/// Whether a register of type `t` holds one lane.
fn is_scalar(t: &Type) -> bool {
    matches!(t, Type::Int(_) | Type::Float(_) | Type::Ptr { .. })
}

impl<'m> Executor<'m> {
    /// The decoded form of `f`, decoded on first use.
    pub(super) fn fast_code(&mut self, f: FuncId) -> Rc<FastFunc> {
        let i = f.0 as usize;
        if self.fast.funcs.len() <= i {
            self.fast.funcs.resize(self.cx.module.functions.len().max(i + 1), None);
        }
        if let Some(code) = &self.fast.funcs[i] {
            return code.clone();
        }
        let code = Rc::new(self.decode_function(f));
        self.fast.funcs[i] = Some(code.clone());
        code
    }

    fn decode_function(&mut self, fid: FuncId) -> FastFunc {
        let module: &'m crate::ir::Module = self.cx.module;
        let func = module.function(fid);
        let mut types = Vec::new();
        let mut blocks = Vec::with_capacity(func.blocks.len());
        for (b, block) in func.blocks.iter().enumerate() {
            let ops = block.insts.iter().map(|inst| self.decode_inst(func, inst, &mut types).unwrap_or(Op::Slow)).collect();
            let phis = block
                .insts
                .iter()
                .map_while(|inst| match &inst.kind {
                    InstKind::Phi { incoming } => Some((inst.dest, incoming)),
                    _ => None,
                })
                .filter_map(|(dest, incoming)| {
                    let incoming = incoming.iter().map(|(b, op)| (b.0, self.src(op))).collect();
                    dest.map(|d| Phi { dst: d.0, incoming })
                })
                .collect();
            let term = self.decode_term(func, fid, b, &block.term).unwrap_or(Term::Slow);
            let lead = block.insts.iter().take_while(|i| matches!(i.kind, InstKind::Phi { .. })).count() as u32;
            blocks.push(FastBlock { ops, term, phis, lead });
        }
        let consts = std::mem::take(&mut self.fast.building).into_boxed_slice();
        let vectors = blocks.iter().any(|b| b.ops.iter().any(Op::on_vectors));
        FastFunc { blocks: blocks.into_boxed_slice(), types: types.into_boxed_slice(), consts, vectors }
    }

    /// An operand, or None for a constant the tier does not build
    /// (integers wider than 64 bits, lanes of more than 64 bits, more than
    /// 64 lanes).
    fn src(&mut self, op: &Operand) -> Option<Src> {
        let (width, value): (u32, u128) = match op {
            Operand::Reg(r) => return Some(Src::Reg(r.0)),
            Operand::Const(c) => match c {
                Const::Int { width, value } => (*width, *value),
                Const::Float { format, bits } => (format.width(), *bits),
                Const::Null => (64, 0),
                Const::GlobalAddr { global, offset } => (64, self.global_address(*global).wrapping_add(*offset as u64) as u128),
                Const::FuncAddr(f) => (64, self.function_base[f.0 as usize] as u128),
                Const::Undef(crate::ir::Type::Void) => return None,
                Const::Undef(_) | Const::Vector(_) | Const::Aggregate(_) => return self.const_lanes(c),
            },
        };
        if width == 0 || width > 128 {
            return None;
        }
        let value = value & crate::expr::mask(width);
        if carried_inline(width, value) {
            // An inline handle: building it touches no pool entry.
            return Some(Src::Imm(self.cx.pool.constant(width, value)));
        }
        (width <= 64).then_some(Src::Num { width, value: value as u64 })
    }

    /// A constant of several lanes, or an `undef`, as `Src::Lanes`: the
    /// general step's value (`undef` lanes as zeros) with its `undef`
    /// lanes marked. None when a lane is not carried inline.
    fn const_lanes(&mut self, c: &Const) -> Option<Src> {
        let mut lanes = ConstLanes { value: crate::expr::value::Value::new(), undef: 0, raw: None };
        self.push_lanes(c, &mut lanes)?;
        lanes.raw = super::raw_lanes::const_raw(&self.cx.pool, &lanes);
        self.fast.building.push(lanes);
        Some(Src::Lanes((self.fast.building.len() - 1) as u32))
    }

    fn push_lanes(&mut self, c: &Const, out: &mut ConstLanes) -> Option<()> {
        match c {
            Const::Vector(items) | Const::Aggregate(items) => items.iter().try_for_each(|i| self.push_lanes(i, out)),
            Const::Undef(t) => {
                for w in crate::exec::engine::step::leaf_widths(t) {
                    if out.value.len() >= 64 || w == 0 || w > 64 {
                        return None;
                    }
                    out.undef |= 1 << out.value.len();
                    out.value.push(ExprId::word_const(w, 0)?);
                }
                Some(())
            }
            c => match self.src(&Operand::Const(c.clone()))? {
                Src::Imm(e) if out.value.len() < 64 => {
                    out.value.push(e);
                    Some(())
                }
                _ => None,
            },
        }
    }

    /// The type of a stored operand: a register's, or a scalar constant's.
    fn stored_type(func: &Function, op: &Operand) -> Option<Type> {
        match op {
            Operand::Reg(r) => Some(func.reg_types[r.0 as usize].clone()),
            Operand::Const(Const::Int { width, .. }) => Some(Type::Int(*width)),
            Operand::Const(Const::Float { format, .. }) => Some(Type::Float(*format)),
            Operand::Const(Const::Null | Const::GlobalAddr { .. } | Const::FuncAddr(_)) => Some(Type::Ptr { addr_space: 0 }),
            Operand::Const(_) => None,
        }
    }

    /// The floating-point format of an operand's type.
    fn operand_format(func: &Function, op: &Operand) -> Option<FpFormat> {
        match op {
            Operand::Reg(r) => func.reg_types[r.0 as usize].is_float(),
            Operand::Const(Const::Float { format, .. }) => Some(*format),
            Operand::Const(_) => None,
        }
    }

    fn decode_inst(&mut self, func: &Function, inst: &Inst, types: &mut Vec<Type>) -> Option<Op> {
        let dst = inst.dest.map(|d| d.0);
        Some(match &inst.kind {
            InstKind::Phi { .. } | InstKind::Fence => Op::Nop,
            InstKind::Int { op, lhs, rhs, flags } if is_scalar(&inst.ty) => {
                Op::Int1 { op: *op, flags: *flags, w: inst.ty.scalar_bits(), dst: dst?, a: self.src(lhs)?, b: self.src(rhs)? }
            }
            InstKind::Int { op, lhs, rhs, flags } => Op::Int { op: *op, flags: *flags, dst: dst?, a: self.src(lhs)?, b: self.src(rhs)? },
            InstKind::ICmp { pred, lhs, rhs } if is_scalar(&inst.ty) => {
                Op::ICmp1 { pred: *pred, w: operand_width(func, lhs)?, dst: dst?, a: self.src(lhs)?, b: self.src(rhs)? }
            }
            InstKind::ICmp { pred, lhs, rhs } => Op::ICmp { pred: *pred, dst: dst?, a: self.src(lhs)?, b: self.src(rhs)? },
            // Approximate and contractible operations build fresh values
            // or fused forms: the general step's.
            InstKind::Float { op, lhs, rhs, approximate: false, contract: false } => {
                Op::Float { op: *op, f: inst.ty.is_float()?, dst: dst?, a: self.src(lhs)?, b: self.src(rhs)? }
            }
            InstKind::FCmp { outcomes, lhs, rhs } => {
                Op::FCmp { set: *outcomes, f: Self::operand_format(func, lhs)?, dst: dst?, a: self.src(lhs)?, b: self.src(rhs)? }
            }
            InstKind::FNeg(a) => Op::FNeg { f: inst.ty.is_float()?, dst: dst?, a: self.src(a)? },
            InstKind::Cast { op, value, flags } => {
                let to = inst.ty.scalar_bits();
                // A promise is tested lane by lane on one-lane casts only;
                // a flagged vector cast (rare) is the general step's.
                let promised = *flags != PoisonFlags::default();
                if promised && (!is_scalar(&inst.ty) || !matches!(op, CastOp::Trunc | CastOp::ZExt)) {
                    return None;
                }
                let kind = match op {
                    CastOp::Trunc => CastKind::Trunc(to),
                    CastOp::ZExt => CastKind::ZExt(to),
                    CastOp::SExt => CastKind::SExt(to),
                    CastOp::PtrToInt | CastOp::IntToPtr => CastKind::Resize(to),
                    CastOp::BitCast => CastKind::BitCast(to),
                    CastOp::AddrSpaceCast => return Some(Op::Copy { dst: dst?, a: self.src(value)? }),
                    CastOp::FpTrunc | CastOp::FpExt => CastKind::FpConvert(Self::operand_format(func, value)?, inst.ty.is_float()?),
                    CastOp::SiToFp | CastOp::UiToFp => CastKind::IntToFp(*op == CastOp::SiToFp, inst.ty.is_float()?),
                    // Out-of-range conversions are undefined, and their
                    // value depends on the target: the general step's.
                    CastOp::FpToSi | CastOp::FpToUi => return None,
                };
                if to == 0 {
                    return None;
                }
                let one_lane = matches!(kind, CastKind::Trunc(_) | CastKind::ZExt(_) | CastKind::SExt(_) | CastKind::Resize(_));
                if one_lane && is_scalar(&inst.ty) {
                    return Some(Op::Cast1 { kind, flags: *flags, from: operand_width(func, value)?, dst: dst?, a: self.src(value)? });
                }
                Op::Cast { kind, dst: dst?, a: self.src(value)? }
            }
            InstKind::Freeze(a) => Op::Copy { dst: dst?, a: self.src(a)? },
            InstKind::ExtractElement { vector, index } => Op::Extract { dst: dst?, v: self.src(vector)?, k: self.src(index)? },
            InstKind::InsertElement { vector, element, index } => {
                Op::Insert { dst: dst?, v: self.src(vector)?, e: self.src(element)?, k: self.src(index)? }
            }
            InstKind::ShuffleVector { a, b, mask } => {
                Op::Shuffle { dst: dst?, a: self.src(a)?, b: self.src(b)?, mask: mask.clone().into_boxed_slice() }
            }
            InstKind::Select { cond, then, otherwise, .. } => {
                Op::Select { dst: dst?, c: self.src(cond)?, t: self.src(then)?, e: self.src(otherwise)? }
            }
            // A `nuw` promise is the general step's to test.
            InstKind::Gep { base, offset, terms, flags, bounds, .. } if !flags.nuw => {
                let terms = terms
                    .iter()
                    .map(|(op, scale)| Some((self.src(op)?, *scale, operand_width(func, op)?)))
                    .collect::<Option<Box<[_]>>>()?;
                Op::Gep { dst: dst?, base: self.src(base)?, offset: *offset, terms, inbounds: flags.inbounds, bounded: !bounds.is_empty() }
            }
            InstKind::Load { ptr, align, .. } if is_scalar(&inst.ty) && inst.ty.store_size() > 0 => Op::Load1 {
                dst: dst?,
                ptr: self.src(ptr)?,
                width: inst.ty.scalar_bits().max(1),
                len: inst.ty.store_size() as u32,
                align: *align,
            },
            InstKind::Load { ptr, .. } if inst.ty.store_size() > 0 => Op::Load { dst: dst?, ptr: self.src(ptr)? },
            InstKind::Store { ptr, value, align, .. } => {
                let t = Self::stored_type(func, value)?;
                if t.store_size() == 0 {
                    return None;
                }
                let (ptr, val) = (self.src(ptr)?, self.src(value)?);
                let (one_lane, len) = (is_scalar(&t), t.store_size() as u32);
                types.push(t);
                let ty = (types.len() - 1) as u32;
                if one_lane {
                    return Some(Op::Store1 { ptr, val, ty, len, align: *align });
                }
                Op::Store { ptr, val, ty }
            }
            InstKind::Call { callee: crate::ir::Callee::Direct(f), args } => {
                let module: &'m crate::ir::Module = self.cx.module;
                let target = module.function(*f);
                if target.is_declaration()
                    || target.varargs
                    || target.params.len() != args.len()
                    || target.params.iter().any(|p| p.byval.is_some())
                {
                    return None;
                }
                let args = args.iter().map(|a| self.src(a)).collect::<Option<Box<[_]>>>()?;
                Op::Call { callee: *f, dst, args }
            }
            _ => return None,
        })
    }

    /// The edge from block `from` to `target`.
    fn edge(&mut self, func: &Function, from: usize, target: BlockId) -> Edge {
        let moves = func.blocks[target.0 as usize]
            .insts
            .iter()
            .map_while(|inst| match &inst.kind {
                InstKind::Phi { incoming } => Some((inst.dest, incoming)),
                _ => None,
            })
            .filter_map(|(dest, incoming)| {
                let (_, op) = incoming.iter().find(|(b, _)| b.0 as usize == from)?;
                Some((dest?.0, self.src(op)))
            })
            .collect::<Box<[_]>>();
        let scalar = moves.len() <= 8
            && moves.iter().all(|(_, s)| match s {
                Some(Src::Imm(_) | Src::Num { .. }) => true,
                Some(Src::Reg(r)) => is_scalar(&func.reg_types[*r as usize]),
                Some(Src::Lanes(_)) | None => false,
            });
        Edge { target: target.0, moves, scalar }
    }

    fn decode_term(&mut self, func: &Function, fid: FuncId, from: usize, term: &Terminator) -> Option<Term> {
        Some(match term {
            Terminator::Br(t) => Term::Br(self.edge(func, from, *t)),
            Terminator::CondBr { cond, then, otherwise } => {
                // A branch to a failing block (`assert`) counts a check
                // where it runs (coverage.rs `note_branch`): the tier counts
                // it when it takes the branch (a host loop checking every
                // element ran one general step per element).
                let check = self.failure_blocks.contains(&(fid, *then)) || self.failure_blocks.contains(&(fid, *otherwise));
                let c = self.src(cond)?;
                Term::CondBr { c, then: self.edge(func, from, *then), otherwise: self.edge(func, from, *otherwise), check }
            }
            Terminator::Switch { value, default, cases } => {
                Term::Switch { v: self.src(value)?, default: default.0, cases: cases.iter().map(|(c, b)| (*c, b.0)).collect() }
            }
            Terminator::Ret(v) => Term::Ret(match v {
                Some(v) => Some(self.src(v)?),
                None => None,
            }),
            Terminator::Unreachable | Terminator::Unsupported(_) => return None,
        })
    }
}
