//! The internal IR: a compact, owned copy of the LLVM module that the
//! executor runs. It keeps what execution needs (types, operands, source
//! locations) and nothing of LLVM's lifetimes. Constant GEP offsets are
//! folded at translation time; debug intrinsics are dropped.

use crate::expr::{BinOp, FBinOp, FpFormat, Outcomes};
use std::collections::HashMap;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalId(pub u32);
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegId(pub u32);

/// A source location; `file` indexes `Module::files`. Line 0 means unknown.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Loc {
    pub file: u32,
    pub line: u32,
    pub column: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Int(u32),
    Float(FpFormat),
    /// Pointers are 64-bit; the address space is kept for OpenCL.
    Ptr {
        addr_space: u32,
    },
    Vector {
        elem: Box<Type>,
        len: u32,
    },
    Array {
        elem: Box<Type>,
        len: u64,
    },
    /// Field types with their byte offsets, and the total size.
    Struct {
        fields: Vec<Type>,
        offsets: Vec<u64>,
        size: u64,
    },
    /// A type symcross does not model (x86_fp80, fp128, ...), by name.
    Unsupported(String),
}

impl Type {
    /// Bit width of a scalar or of one vector lane.
    pub fn scalar_bits(&self) -> u32 {
        match self {
            Type::Int(w) => *w,
            Type::Float(f) => f.width(),
            Type::Ptr { .. } => 64,
            Type::Vector { elem, .. } => elem.scalar_bits(),
            _ => 0,
        }
    }
    /// Allocation size in bytes (as LLVM's DataLayout for x86-64/spir64).
    pub fn size(&self) -> u64 {
        match self {
            Type::Void | Type::Unsupported(_) => 0,
            Type::Int(w) => (*w as u64).div_ceil(8).next_power_of_two(),
            Type::Float(f) => f.width() as u64 / 8,
            Type::Ptr { .. } => 8,
            Type::Vector { elem, len } => {
                let bits = elem.scalar_bits() as u64 * *len as u64;
                bits.div_ceil(8).next_power_of_two()
            }
            Type::Array { elem, len } => elem.size() * len,
            Type::Struct { size, .. } => *size,
        }
    }
    /// Bytes a load or store of this type touches (LLVM's store size):
    /// an i48 touches 6 bytes although it occupies 8 in an array.
    pub fn store_size(&self) -> u64 {
        match self {
            Type::Int(w) => (*w as u64).div_ceil(8),
            Type::Vector { elem, len } => (elem.scalar_bits() as u64 * *len as u64).div_ceil(8),
            t => t.size(),
        }
    }
    /// Number of leaf values (lanes) a register of this type holds.
    pub fn lanes(&self) -> u32 {
        match self {
            Type::Vector { len, .. } => *len,
            Type::Array { elem, len } => elem.lanes() * *len as u32,
            Type::Struct { fields, .. } => fields.iter().map(|f| f.lanes()).sum(),
            Type::Void => 0,
            _ => 1,
        }
    }
    pub fn is_float(&self) -> Option<FpFormat> {
        match self {
            Type::Float(f) => Some(*f),
            Type::Vector { elem, .. } => elem.is_float(),
            _ => None,
        }
    }
    pub fn is_vector(&self) -> bool {
        matches!(self, Type::Vector { .. })
    }
    /// The element type of a vector, or the type itself.
    pub fn lane_type(&self) -> &Type {
        match self {
            Type::Vector { elem, .. } => elem,
            t => t,
        }
    }
}

/// A constant operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Const {
    Int {
        width: u32,
        value: u128,
    },
    Float {
        format: FpFormat,
        bits: u128,
    },
    Null,
    /// `undef`/`poison`: any value; symcross picks zero and says so in the docs.
    Undef(Type),
    GlobalAddr {
        global: GlobalId,
        offset: i64,
    },
    FuncAddr(FuncId),
    Vector(Vec<Const>),
    /// Struct or array value, fields in order.
    Aggregate(Vec<Const>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    Reg(RegId),
    Const(Const),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ICmpPred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    FpTrunc,
    FpExt,
    FpToUi,
    FpToSi,
    UiToFp,
    SiToFp,
    PtrToInt,
    IntToPtr,
    BitCast,
    AddrSpaceCast,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    /// A function defined in the module.
    Direct(FuncId),
    /// A declared-only function (libc, harness API, OpenCL built-in), by name.
    External(String),
    /// An `llvm.*` intrinsic, by its full name (`llvm.fabs.f32`).
    Intrinsic(String),
    /// A call through a function pointer.
    Indirect(Operand),
    /// Inline assembly, which symcross does not run.
    InlineAsm,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Xchg,
    Add,
    Sub,
    And,
    Nand,
    Or,
    Xor,
    Max,
    Min,
    UMax,
    UMin,
    FAdd,
    FSub,
}

#[derive(Clone, Debug, PartialEq)]
pub enum InstKind {
    /// Integer arithmetic, elementwise on vectors; the operation is the
    /// expression layer's own, so the executor needs no mapping.
    Int {
        op: BinOp,
        lhs: Operand,
        rhs: Operand,
    },
    /// FP arithmetic. `approximate` is set for `!fpmath` ulp metadata.
    /// `contract`: an fadd/fsub the back end may fuse with a multiply
    /// feeding it (the `contract` flag of -ffp-contract=fast).
    Float {
        op: FBinOp,
        lhs: Operand,
        rhs: Operand,
        approximate: bool,
        contract: bool,
    },
    FNeg(Operand),
    ICmp {
        pred: ICmpPred,
        lhs: Operand,
        rhs: Operand,
    },
    FCmp {
        outcomes: Outcomes,
        lhs: Operand,
        rhs: Operand,
    },
    Cast {
        op: CastOp,
        value: Operand,
    },
    /// `folded` marks a select that stands for a branch of the source
    /// (made by if-conversion): its condition is used as a branch's is.
    Select {
        cond: Operand,
        then: Operand,
        otherwise: Operand,
        folded: bool,
    },
    Phi {
        incoming: Vec<(BlockId, Operand)>,
    },
    /// `count` elements of `elem_size` bytes on the stack.
    Alloca {
        elem_size: u64,
        count: Operand,
        align: u64,
        element: Option<crate::expr::ElementType>,
    },
    Load {
        ptr: Operand,
        align: u64,
        volatile: bool,
    },
    Store {
        ptr: Operand,
        value: Operand,
        align: u64,
        volatile: bool,
    },
    /// `base + offset + sum(index * scale)`, indices sign-extended to 64 bits.
    Gep {
        base: Operand,
        offset: i64,
        terms: Vec<(Operand, i64)>,
    },
    Call {
        callee: Callee,
        args: Vec<Operand>,
    },
    ExtractElement {
        vector: Operand,
        index: Operand,
    },
    InsertElement {
        vector: Operand,
        element: Operand,
        index: Operand,
    },
    /// Mask entries index the concatenation of both inputs; -1 is undef.
    ShuffleVector {
        a: Operand,
        b: Operand,
        mask: Vec<i32>,
    },
    ExtractValue {
        aggregate: Operand,
        indices: Vec<u32>,
    },
    InsertValue {
        aggregate: Operand,
        value: Operand,
        indices: Vec<u32>,
    },
    Freeze(Operand),
    AtomicRmw {
        op: AtomicOp,
        ptr: Operand,
        value: Operand,
    },
    /// Result is `{ old value, success flag }`.
    CmpXchg {
        ptr: Operand,
        expected: Operand,
        new: Operand,
    },
    Fence,
    /// An instruction symcross does not model; executing it stops the path
    /// with an `unsupported` finding carrying this description.
    Unsupported(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub kind: InstKind,
    /// The register written, if the instruction produces a value.
    pub dest: Option<RegId>,
    /// Result type (`Void` when none).
    pub ty: Type,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    Br(BlockId),
    CondBr { cond: Operand, then: BlockId, otherwise: BlockId },
    Switch { value: Operand, default: BlockId, cases: Vec<(u128, BlockId)> },
    Ret(Option<Operand>),
    Unreachable,
    Unsupported(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub name: String,
    pub insts: Vec<Inst>,
    pub term: Terminator,
    pub term_loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub reg: RegId,
    pub ty: Type,
    pub name: String,
    /// Size and alignment of the pointee of a `byval` pointer: the callee
    /// works on its own copy of that many bytes.
    pub byval: Option<(u64, u64)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub params: Vec<Param>,
    pub ret: Type,
    pub varargs: bool,
    /// Empty for declarations.
    pub blocks: Vec<Block>,
    /// Number of registers (params included); RegIds are below this.
    pub num_regs: u32,
    /// Type of each register, indexed by RegId.
    pub reg_types: Vec<Type>,
    /// Source names of registers where LLVM kept them (for messages).
    pub reg_names: Vec<String>,
    pub loc: Loc,
    /// OpenCL `__kernel` functions (spir_kernel calling convention).
    pub is_kernel: bool,
}

impl Function {
    pub fn is_declaration(&self) -> bool {
        self.blocks.is_empty()
    }
}

/// Initial contents of a global: bytes, plus addresses to patch in.
#[derive(Clone, Debug, PartialEq)]
pub enum Reloc {
    Global { global: GlobalId, offset: i64 },
    Function(FuncId),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    pub name: String,
    pub size: u64,
    pub align: u64,
    /// `None` for external declarations without initializer.
    pub init: Option<Vec<u8>>,
    /// 8-byte pointer values to write at these offsets.
    pub relocs: Vec<(u64, Reloc)>,
    pub constant: bool,
    pub addr_space: u32,
    pub loc: Loc,
    /// What its bytes hold, for reports (see `element_of`).
    pub element: Option<crate::expr::ElementType>,
}

#[derive(Clone, Debug, Default)]
pub struct Module {
    pub functions: Vec<Function>,
    pub globals: Vec<Global>,
    pub function_index: HashMap<String, FuncId>,
    pub global_index: HashMap<String, GlobalId>,
    /// Source file paths referred to by `Loc::file`. Index 0 is "<unknown>".
    pub files: Vec<String>,
    /// What the translation could not model outside any instruction (for
    /// example a global initializer holding an x86_fp80 constant); such a
    /// global has `init: None`. Shown to the user as warnings.
    pub diagnostics: Vec<String>,
    /// The module's target triple (empty when it names none): which CPU's
    /// rules apply where the IR leaves them open (NaN bits, --nan exact).
    pub triple: String,
}

impl Module {
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }
    pub fn global(&self, id: GlobalId) -> &Global {
        &self.globals[id.0 as usize]
    }
    pub fn find_function(&self, name: &str) -> Option<FuncId> {
        self.function_index.get(name).copied()
    }
    pub fn file_name(&self, loc: Loc) -> &str {
        self.files.get(loc.file as usize).map(|s| s.as_str()).unwrap_or("<unknown>")
    }
    /// Applies `f` to every source location of the module.
    pub fn map_locs(&mut self, mut f: impl FnMut(&mut Loc)) {
        for func in &mut self.functions {
            f(&mut func.loc);
            for b in &mut func.blocks {
                f(&mut b.term_loc);
                for i in &mut b.insts {
                    f(&mut i.loc);
                }
            }
        }
        for g in &mut self.globals {
            f(&mut g.loc);
        }
    }
}
