//! The internal IR: a compact, owned copy of the LLVM module that the
//! executor runs. It keeps what execution needs (types, operands, source
//! locations) and nothing of LLVM's lifetimes. Constant GEP offsets are
//! folded at translation time; debug intrinsics are dropped.

use crate::expr::{BinOp, FBinOp, FpFormat, Outcomes};
use std::collections::HashMap;

/// Index of a function in `Module::functions`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);
/// Index of a global in `Module::globals`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GlobalId(pub u32);
/// Index of a basic block in `Function::blocks`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);
/// A virtual register of one function; indexes `Function::reg_types`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegId(pub u32);

/// A source location; `file` indexes `Module::files`. Line 0 means unknown.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Loc {
    /// Index into `Module::files`.
    pub file: u32,
    /// 1-based source line; 0 when unknown.
    pub line: u32,
    /// 1-based column; 0 when unknown.
    pub column: u32,
}

/// The type of a register, operand or memory access.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// No value (a call or function that returns nothing).
    Void,
    /// An integer of the given bit width.
    Int(u32),
    /// A floating-point value of the given format.
    Float(FpFormat),
    /// Pointers are 64-bit; the address space is kept for OpenCL.
    Ptr {
        /// LLVM address space (0 private on CPUs; OpenCL's numbers on spir64).
        addr_space: u32,
    },
    /// A fixed-length SIMD vector.
    Vector {
        /// Lane type.
        elem: Box<Type>,
        /// Number of lanes.
        len: u32,
    },
    /// A fixed-length array.
    Array {
        /// Element type.
        elem: Box<Type>,
        /// Number of elements.
        len: u64,
    },
    /// Field types with their byte offsets, and the total size.
    Struct {
        /// Field types in order.
        fields: Vec<Type>,
        /// Byte offset of each field.
        offsets: Vec<u64>,
        /// Allocation size in bytes, padding included.
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
    /// The floating-point format of a float or of a float vector's lanes.
    pub fn is_float(&self) -> Option<FpFormat> {
        match self {
            Type::Float(f) => Some(*f),
            Type::Vector { elem, .. } => elem.is_float(),
            _ => None,
        }
    }
    /// Whether this is a SIMD vector type.
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
    /// The pointers a value of this type holds, in struct fields, array
    /// elements and vector lanes: each one's byte offset and address space.
    pub fn pointer_offsets(&self) -> Vec<(u64, u32)> {
        let mut out = Vec::new();
        self.collect_pointers(0, &mut out);
        out
    }
    fn collect_pointers(&self, at: u64, out: &mut Vec<(u64, u32)>) {
        match self {
            Type::Ptr { addr_space } => out.push((at, *addr_space)),
            Type::Struct { fields, offsets, .. } => {
                for (f, off) in fields.iter().zip(offsets) {
                    f.collect_pointers(at + off, out);
                }
            }
            Type::Array { elem, len } => {
                for k in 0..*len {
                    elem.collect_pointers(at + k * elem.size(), out);
                }
            }
            Type::Vector { elem, len } if matches!(**elem, Type::Ptr { .. }) => {
                for k in 0..*len as u64 {
                    elem.collect_pointers(at + k * 8, out);
                }
            }
            _ => {}
        }
    }
}

/// A constant operand.
/// A constant operand.
#[derive(Clone, Debug, PartialEq)]
pub enum Const {
    /// An integer constant.
    Int {
        /// Bit width.
        width: u32,
        /// The value's bits, zero-extended (only the low `width` bits are set).
        value: u128,
    },
    /// A floating-point constant.
    Float {
        /// Its format.
        format: FpFormat,
        /// Its IEEE bit pattern, zero-extended.
        bits: u128,
    },
    /// The null pointer.
    Null,
    /// `undef`/`poison`: any value; symcross picks zero and says so in the docs.
    Undef(Type),
    /// The address of a global plus a byte offset.
    GlobalAddr {
        /// The global.
        global: GlobalId,
        /// Byte offset from its start.
        offset: i64,
    },
    /// The address of a function.
    FuncAddr(FuncId),
    /// A vector constant, one entry per lane.
    Vector(Vec<Const>),
    /// Struct or array value, fields in order.
    Aggregate(Vec<Const>),
}

/// An instruction's input: a register or a constant.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// The value of a register of the current function.
    Reg(RegId),
    /// A constant.
    Const(Const),
}

/// Integer comparison predicate of `icmp`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ICmpPred {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Unsigned greater than.
    Ugt,
    /// Unsigned greater or equal.
    Uge,
    /// Unsigned less than.
    Ult,
    /// Unsigned less or equal.
    Ule,
    /// Signed greater than.
    Sgt,
    /// Signed greater or equal.
    Sge,
    /// Signed less than.
    Slt,
    /// Signed less or equal.
    Sle,
}

/// LLVM's conversion instructions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CastOp {
    /// Keep the low bits of an integer.
    Trunc,
    /// Widen an integer with zero bits.
    ZExt,
    /// Widen an integer with copies of its sign bit.
    SExt,
    /// Round a float to a narrower format.
    FpTrunc,
    /// Widen a float to a wider format (exact).
    FpExt,
    /// Float to unsigned integer, rounding toward zero.
    FpToUi,
    /// Float to signed integer, rounding toward zero.
    FpToSi,
    /// Unsigned integer to float.
    UiToFp,
    /// Signed integer to float.
    SiToFp,
    /// Pointer to integer.
    PtrToInt,
    /// Integer to pointer.
    IntToPtr,
    /// Reinterpret the bits as another type of the same size.
    BitCast,
    /// Move a pointer to another address space.
    AddrSpaceCast,
}

/// The target of a call instruction.
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

/// The operation of an `atomicrmw` instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// Store the operand, return the old value.
    Xchg,
    /// Integer add.
    Add,
    /// Integer subtract.
    Sub,
    /// Bitwise and.
    And,
    /// Bitwise not-and: `!(old & operand)`.
    Nand,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Signed maximum.
    Max,
    /// Signed minimum.
    Min,
    /// Unsigned maximum.
    UMax,
    /// Unsigned minimum.
    UMin,
    /// Floating-point add.
    FAdd,
    /// Floating-point subtract.
    FSub,
}

/// The flags of an integer operation that promise something of its
/// operands; where the promise fails the result is poison.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PoisonFlags {
    /// `nsw` on `add`, `sub`, `mul`, `shl`: no signed overflow (C's signed
    /// `+ - *`; `shl nsw` where the optimiser knows C's `<<` rule); on
    /// `trunc`: the value fits the narrower type as a signed number.
    pub nsw: bool,
    /// `nuw` on `add`, `sub`, `mul`, `shl`: no unsigned wrap (written by
    /// the optimiser from facts C's rules give it); on `trunc`: no set bit
    /// is dropped.
    pub nuw: bool,
    /// `exact` on `udiv`, `sdiv`, `lshr`, `ashr`: no remainder, no set bit
    /// shifted out (`sdiv exact` is C's pointer difference).
    pub exact: bool,
    /// `disjoint` on `or`: no bit is set in both operands (written by the
    /// optimiser where the `or` stands for a sum or a merge of fields).
    pub disjoint: bool,
    /// `nneg` on `zext` and `uitofp`: the operand is not negative (the
    /// optimiser may then read it as signed).
    pub nneg: bool,
    /// `inbounds` on `getelementptr`: the base and the result are inside
    /// one object, or one past its end (C's rule for pointer arithmetic).
    /// On a GEP, `nuw` says no offset addition wraps unsigned.
    pub inbounds: bool,
}

/// What an instruction does, with its operands.
#[derive(Clone, Debug, PartialEq)]
pub enum InstKind {
    /// Integer arithmetic, elementwise on vectors; the operation is the
    /// expression layer's own, so the executor needs no mapping.
    Int {
        /// The operation.
        op: BinOp,
        /// Left operand.
        lhs: Operand,
        /// Right operand.
        rhs: Operand,
        /// The flags that make the result poison when they do not hold.
        flags: PoisonFlags,
    },
    /// FP arithmetic. `approximate` is set for `!fpmath` ulp metadata.
    /// `contract`: an fadd/fsub the back end may fuse with a multiply
    /// feeding it (the `contract` flag of -ffp-contract=fast).
    Float {
        /// The operation.
        op: FBinOp,
        /// Left operand.
        lhs: Operand,
        /// Right operand.
        rhs: Operand,
        /// Result may be off by the `!fpmath` ulps.
        approximate: bool,
        /// May be fused with a multiply feeding it.
        contract: bool,
    },
    /// Floating-point negation (flips the sign bit only).
    FNeg(Operand),
    /// Integer or pointer comparison; the result is `i1` (per lane).
    ICmp {
        /// The predicate.
        pred: ICmpPred,
        /// Left operand.
        lhs: Operand,
        /// Right operand.
        rhs: Operand,
    },
    /// Floating-point comparison; `outcomes` are the orderings (less, equal,
    /// greater, unordered) for which it yields true.
    FCmp {
        /// Orderings that make the comparison true.
        outcomes: Outcomes,
        /// Left operand.
        lhs: Operand,
        /// Right operand.
        rhs: Operand,
    },
    /// A conversion to the instruction's result type.
    Cast {
        /// Which conversion.
        op: CastOp,
        /// The value converted.
        value: Operand,
        /// The promises (`trunc nuw`/`nsw`, `zext nneg`, `uitofp nneg`)
        /// that make the result poison when they do not hold.
        flags: PoisonFlags,
    },
    /// `folded` marks a select that stands for a branch of the source
    /// (made by if-conversion): its condition is used as a branch's is.
    Select {
        /// Chooses `then` when true (per lane for a vector condition).
        cond: Operand,
        /// The value when `cond` holds.
        then: Operand,
        /// The value when it does not.
        otherwise: Operand,
        /// Made by if-conversion from a branch.
        folded: bool,
    },
    /// Picks the operand of the predecessor block the path came from.
    Phi {
        /// Predecessor block and the value on that edge.
        incoming: Vec<(BlockId, Operand)>,
    },
    /// `count` elements of `elem_size` bytes on the stack.
    Alloca {
        /// Bytes per element.
        elem_size: u64,
        /// Number of elements.
        count: Operand,
        /// Alignment in bytes.
        align: u64,
        /// What the memory holds, for reports.
        element: Option<crate::expr::ElementType>,
    },
    /// Reads a value of the instruction's result type.
    Load {
        /// Address read.
        ptr: Operand,
        /// Alignment in bytes.
        align: u64,
        /// A volatile access.
        volatile: bool,
    },
    /// Writes `value` to memory.
    Store {
        /// Address written.
        ptr: Operand,
        /// The value stored.
        value: Operand,
        /// Alignment in bytes.
        align: u64,
        /// A volatile access.
        volatile: bool,
    },
    /// `base + offset + sum(index * scale)`, indices sign-extended to 64 bits.
    Gep {
        /// Base pointer.
        base: Operand,
        /// Constant byte offset folded from constant indices.
        offset: i64,
        /// Variable indices, each with its byte scale.
        terms: Vec<(Operand, i64)>,
        /// The terms that index into an array of a declared length (a
        /// struct's array member, a local array): C's sub-object bounds.
        bounds: Vec<ArrayBound>,
        /// `inbounds` and `nuw` (exec/ops/gep_promises.rs).
        flags: PoisonFlags,
    },
    /// A call; the result is the callee's return value.
    Call {
        /// What is called.
        callee: Callee,
        /// Arguments in order.
        args: Vec<Operand>,
    },
    /// Reads one lane of a vector.
    ExtractElement {
        /// The vector.
        vector: Operand,
        /// Lane index.
        index: Operand,
    },
    /// Returns the vector with one lane replaced.
    InsertElement {
        /// The vector.
        vector: Operand,
        /// The new lane value.
        element: Operand,
        /// Lane index.
        index: Operand,
    },
    /// Mask entries index the concatenation of both inputs; -1 is undef.
    ShuffleVector {
        /// First input vector.
        a: Operand,
        /// Second input vector.
        b: Operand,
        /// Lane of the concatenation for each result lane; -1 is undef.
        mask: Vec<i32>,
    },
    /// Reads a field of a struct or array value.
    ExtractValue {
        /// The aggregate.
        aggregate: Operand,
        /// Field indices, outermost first.
        indices: Vec<u32>,
    },
    /// Returns the aggregate with one field replaced.
    InsertValue {
        /// The aggregate.
        aggregate: Operand,
        /// The new field value.
        value: Operand,
        /// Field indices, outermost first.
        indices: Vec<u32>,
    },
    /// Stops undef/poison from propagating; symcross's undef is already a
    /// fixed value, so this passes its operand through.
    Freeze(Operand),
    /// Atomic read-modify-write; the result is the old value.
    AtomicRmw {
        /// The operation.
        op: AtomicOp,
        /// Address.
        ptr: Operand,
        /// The operand combined with the old value.
        value: Operand,
    },
    /// Result is `{ old value, success flag }`.
    CmpXchg {
        /// Address.
        ptr: Operand,
        /// The value compared with memory.
        expected: Operand,
        /// The value stored when they are equal.
        new: Operand,
    },
    /// A memory fence; a no-op for the single-threaded executor.
    Fence,
    /// An instruction symcross does not model; executing it stops the path
    /// with an `unsupported` finding carrying this description.
    Unsupported(String),
}

/// One instruction of a block.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// What it does.
    pub kind: InstKind,
    /// The register written, if the instruction produces a value.
    pub dest: Option<RegId>,
    /// Result type (`Void` when none).
    pub ty: Type,
    /// Where it comes from in the source.
    pub loc: Loc,
}

/// The instruction that ends a block.
#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    /// Unconditional branch.
    Br(BlockId),
    /// Two-way branch on an `i1`.
    CondBr {
        /// The condition.
        cond: Operand,
        /// Target when true.
        then: BlockId,
        /// Target when false.
        otherwise: BlockId,
    },
    /// Multi-way branch on an integer.
    Switch {
        /// The value switched on.
        value: Operand,
        /// Target when no case matches.
        default: BlockId,
        /// Case values and their targets.
        cases: Vec<(u128, BlockId)>,
    },
    /// Return, with the value unless the function returns void.
    Ret(Option<Operand>),
    /// Reaching it stops the path with an `unsupported` finding.
    Unreachable,
    /// A terminator symcross does not model; reaching it stops the path
    /// with an `unsupported` finding carrying this description.
    Unsupported(String),
}

/// A basic block.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// LLVM's name of the block (may be empty).
    pub name: String,
    /// Instructions before the terminator.
    pub insts: Vec<Inst>,
    /// How the block ends.
    pub term: Terminator,
    /// Source location of the terminator.
    pub term_loc: Loc,
}

/// A function parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The register holding it in the body.
    pub reg: RegId,
    /// Its type.
    pub ty: Type,
    /// Source name where LLVM kept one.
    pub name: String,
    /// Size and alignment of the pointee of a `byval` pointer: the callee
    /// works on its own copy of that many bytes.
    pub byval: Option<(u64, u64)>,
    /// The pointers a `byval` struct holds: each one's byte offset in it
    /// and the address space it points to (a CUDA kernel's generic
    /// pointers as global ones, as for its pointer parameters).
    pub byval_pointers: Vec<(u64, u32)>,
    /// An OpenCL image parameter (image1d_t, image2d_t, image3d_t): its
    /// dimensions; the parameter's value is the address of its pixels.
    pub image_dims: Option<u8>,
    /// An OpenCL kernel parameter's type as the source spells it, typedefs
    /// resolved (`float*`, `uint __attribute__((ext_vector_type(4)))*`),
    /// from `!kernel_arg_base_type`; None for other functions.
    pub cl_type: Option<String>,
}

/// A function of the module, defined or declared.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// Symbol name.
    pub name: String,
    /// Parameters in order.
    pub params: Vec<Param>,
    /// Return type (`Void` when none).
    pub ret: Type,
    /// Takes variable arguments (`...`).
    pub varargs: bool,
    /// Empty for declarations.
    pub blocks: Vec<Block>,
    /// Number of registers (params included); RegIds are below this.
    pub num_regs: u32,
    /// Type of each register, indexed by RegId.
    pub reg_types: Vec<Type>,
    /// Source names of registers where LLVM kept them (for messages).
    pub reg_names: Vec<String>,
    /// Where it is defined in the source.
    pub loc: Loc,
    /// OpenCL `__kernel` functions (spir_kernel calling convention).
    pub is_kernel: bool,
}

impl Function {
    /// A function declared without a body, returning `int`, with these
    /// parameters (type, byval size and alignment): for unit tests of the
    /// rules that model such calls.
    #[cfg(test)]
    pub fn declared_for_test(name: &str, params: Vec<(Type, Option<(u64, u64)>)>) -> Function {
        Function {
            name: name.into(),
            params: params
                .into_iter()
                .enumerate()
                .map(|(k, (ty, byval))| Param {
                    reg: RegId(k as u32),
                    ty,
                    name: String::new(),
                    byval,
                    byval_pointers: Vec::new(),
                    image_dims: None,
                    cl_type: None,
                })
                .collect(),
            ret: Type::Int(32),
            varargs: false,
            blocks: Vec::new(),
            num_regs: 0,
            reg_types: Vec::new(),
            reg_names: Vec::new(),
            loc: Default::default(),
            is_kernel: false,
        }
    }

    /// Whether the function has no body.
    pub fn is_declaration(&self) -> bool {
        self.blocks.is_empty()
    }
}

/// Initial contents of a global: bytes, plus addresses to patch in.
#[derive(Clone, Debug, PartialEq)]
pub enum Reloc {
    /// The address of a global plus a byte offset.
    Global {
        /// The global.
        global: GlobalId,
        /// Byte offset from its start.
        offset: i64,
    },
    /// The address of a function.
    Function(FuncId),
}

/// A global variable.
#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    /// Symbol name.
    pub name: String,
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes.
    pub align: u64,
    /// `None` for external declarations without initializer.
    pub init: Option<Vec<u8>>,
    /// 8-byte pointer values to write at these offsets.
    pub relocs: Vec<(u64, Reloc)>,
    /// Declared `constant` (read-only).
    pub constant: bool,
    /// Address space (OpenCL's `__constant`, `__global`, ...).
    pub addr_space: u32,
    /// Where it is defined in the source.
    pub loc: Loc,
    /// What its bytes hold, for reports (see `element_of`).
    pub element: Option<crate::expr::ElementType>,
}

impl Global {
    /// A CUDA `extern __shared__` array: shared memory with no size of its
    /// own (the launch's dynamic shared memory gives it one).
    pub fn is_dynamic_shared(&self) -> bool {
        self.addr_space == super::LOCAL_SPACE && self.init.is_none() && self.size == 0
    }
}

/// A translated LLVM module: the unit the executor runs.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// All functions, indexed by `FuncId`.
    pub functions: Vec<Function>,
    /// All globals, indexed by `GlobalId`.
    pub globals: Vec<Global>,
    /// Functions by symbol name.
    pub function_index: HashMap<String, FuncId>,
    /// Globals by symbol name.
    pub global_index: HashMap<String, GlobalId>,
    /// Source file paths referred to by `Loc::file`. Index 0 is `<unknown>`.
    pub files: Vec<String>,
    /// What the translation could not model outside any instruction (for
    /// example a global initializer holding an x86_fp80 constant); such a
    /// global has `init: None`. Shown to the user as warnings.
    pub diagnostics: Vec<String>,
    /// The module's target triple (empty when it names none): which CPU's
    /// rules apply where the IR leaves them open (NaN bits, --nan exact).
    pub triple: String,
    /// The C types of the program's variables, from debug info: how a
    /// witness prints.
    pub debug_types: super::debug_types::DebugTypes,
}

impl Module {
    /// Whether this is CUDA device code (an nvptx64 module): messages
    /// name threads and blocks, not work-items and groups.
    pub fn is_cuda(&self) -> bool {
        super::address_space::is_cuda_triple(&self.triple)
    }
    /// The function with this id.
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.0 as usize]
    }
    /// The global with this id.
    pub fn global(&self, id: GlobalId) -> &Global {
        &self.globals[id.0 as usize]
    }
    /// The id of the function with this name, if any.
    pub fn find_function(&self, name: &str) -> Option<FuncId> {
        self.function_index.get(name).copied()
    }
    /// The source file path of a location, or `<unknown>`.
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

/// A GEP index into an array type (`getelementptr [2 x i8], ptr %b, i64 0,
/// i64 %i`): C (and OpenCL C) makes an index past the array's length
/// undefined even when the address stays inside the enclosing object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayBound {
    /// Which of the GEP's terms is the index.
    pub term: usize,
    /// The array's declared number of elements.
    pub len: u64,
    /// Every use of the GEP's result loads or stores through it: the
    /// element must exist (index below `len`); otherwise the address one
    /// past the end is allowed too.
    pub dereferenced: bool,
}
