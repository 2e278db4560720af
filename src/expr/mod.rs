//! Expressions: a hash-consed DAG of bit-vector and floating-point operations.
//!
//! Every value is a bit-vector of a fixed width. Floating-point operations are
//! typed operations on bit-vectors (the format travels with the operation, not
//! with the operand), so a vector lane can be read as a float by one operation
//! and as an integer by the next. Booleans are bit-vectors of width 1.
//!
//! Nodes live in an [`ExprPool`] and are referred to by [`ExprId`]; building the
//! same node twice yields the same id, so structural equality is id equality.
//! The simplifying builders live in `build.rs`, constant evaluation in
//! `fold.rs`, the human-readable printer in `print.rs`.

mod build;
pub mod element_equality;
mod element_type;
mod estimate;
mod eval;
mod fold;
mod input_at;
mod leaf;
pub mod log_read;
pub mod nan_rules;
mod node_index;
mod print;
pub mod value;

pub use element_type::ElementType;
pub use estimate::{Estimate, EstimateKind};
pub use eval::{evaluate, evaluate_all, evaluate_into, evaluate_node, value_in, Assignment};
pub use fold::{canonical_nan, compare_outcome, fp_is_nan};
pub use leaf::Leaf;
pub use log_read::{LogRead, Update};
pub use nan_rules::NanModel;
pub use print::{print_expr, print_operands, print_pair};

use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Width of a bit-vector in bits.
pub type Width = u32;

/// Handle of a node in an [`ExprPool`].
///
/// Constants whose value fits in 56 bits once sign-extended (nearly every
/// value concrete execution computes) are carried inside the handle itself
/// and never enter the pool: concrete code then builds no nodes and does no
/// hash lookups. Every constant has exactly one handle (inline when it fits,
/// pooled otherwise), so id equality remains structural equality.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(u64);

/// Tag bit of an inline constant; below it, 7 bits of width - 1 and 56 bits
/// of value.
const INLINE: u64 = 1 << 63;
const INLINE_VALUE_BITS: u32 = 56;

/// Tag bit (under a clear `INLINE`) of a constant too wide to be carried
/// inline; below it, its number in the pool's table of wide constants.
/// Wide constants are kept apart from the nodes so that the numbers of
/// nodes do not depend on which constants were made before them:
/// concrete interpretation (exec/engine/fast_concrete/) makes only the
/// constants that outlive a stretch of concrete code, the general step
/// every intermediate one, and both number the nodes alike.
const WIDE: u64 = 1 << 62;

impl ExprId {
    /// Position in the pool's node table (not meaningful for constants,
    /// which have none: see `is_inline`).
    pub fn index(self) -> usize {
        (self.0 & !INLINE) as usize
    }

    /// The number of a wide constant in the pool's table of them.
    #[inline]
    fn wide_slot(self) -> Option<usize> {
        (self.0 & (INLINE | WIDE) == WIDE).then_some((self.0 & !WIDE) as usize)
    }

    fn pooled(index: usize) -> ExprId {
        ExprId(index as u64)
    }

    /// The handle of constant `value` (already masked to `width`) if it is
    /// carried inline.
    #[inline]
    fn inline(width: Width, value: u128) -> Option<ExprId> {
        // Up to 56 bits every value fits and is stored as is.
        if width <= INLINE_VALUE_BITS {
            return Some(ExprId(INLINE | (((width - 1) as u64) << INLINE_VALUE_BITS) | value as u64));
        }
        let low = value as u64 & ((1 << INLINE_VALUE_BITS) - 1);
        if inline_value(width, low) != value {
            return None;
        }
        Some(ExprId(INLINE | (((width - 1) as u64) << INLINE_VALUE_BITS) | low))
    }

    /// The handle of the 8-bit constant `v`, built without the pool (memory
    /// pages of constants hold `u8`s and give handles on every read).
    #[inline]
    pub fn byte_const(v: u8) -> ExprId {
        ExprId(INLINE | (7 << INLINE_VALUE_BITS) | v as u64)
    }

    /// The handle of the 32-bit constant `bits` (a single-precision
    /// float's), as `ExprPool::constant(32, bits)` gives it, built without
    /// the pool (32 bits are always carried inline).
    #[inline]
    pub fn float_const(bits: u32) -> ExprId {
        ExprId(INLINE | (31 << INLINE_VALUE_BITS) | bits as u64)
    }

    /// The value of an 8-bit constant handle; None for anything else.
    #[inline]
    pub fn as_byte_const(self) -> Option<u8> {
        (self.0 >> INLINE_VALUE_BITS == (INLINE >> INLINE_VALUE_BITS) | 7).then_some(self.0 as u8)
    }

    /// The handle `ExprPool::constant` gives for `value` (already masked
    /// to `width`, at most 64 bits) when it is carried inline; None when
    /// the constant lives in the pool. Concrete interpretation builds its
    /// results with it (exec/engine/fast_concrete/).
    #[inline]
    pub fn word_const(width: Width, value: u64) -> Option<ExprId> {
        debug_assert!(width > 0 && width <= 64);
        ExprId::inline(width, value as u128)
    }

    /// The value of a constant handle of `width` (at most 64) bits carried
    /// inline; None for anything else (another width, a pooled node).
    #[inline]
    pub fn as_word_const(self, width: Width) -> Option<u64> {
        if self.0 >> INLINE_VALUE_BITS != (INLINE >> INLINE_VALUE_BITS) | (width as u64 - 1) {
            return None;
        }
        let low = self.0 & ((1 << INLINE_VALUE_BITS) - 1);
        if width <= INLINE_VALUE_BITS {
            return Some(low);
        }
        // Wider values are kept as 56 bits sign-extended.
        let extended = ((low << (64 - INLINE_VALUE_BITS)) as i64 >> (64 - INLINE_VALUE_BITS)) as u64;
        Some(extended & (u64::MAX >> (64 - width)))
    }

    /// Whether the handle is a constant with no place in the pool's node
    /// table (`index` means nothing for it; `ExprPool::as_const` gives its
    /// value): carried inline, or numbered among the wide constants.
    #[inline]
    pub fn is_inline(self) -> bool {
        self.0 & (INLINE | WIDE) != 0
    }

    /// Whether the handle carries its constant's value itself.
    #[inline]
    fn is_carried(self) -> bool {
        self.0 & INLINE != 0
    }

    #[inline]
    fn inline_width(self) -> Width {
        ((self.0 >> INLINE_VALUE_BITS) & 0x7f) as Width + 1
    }

    #[inline]
    fn inline_const(self) -> u128 {
        let low = self.0 & ((1 << INLINE_VALUE_BITS) - 1);
        let width = self.inline_width();
        if width <= INLINE_VALUE_BITS {
            return low as u128;
        }
        inline_value(width, low)
    }
}

/// The `width`-bit value stored inline as the 56-bit `low` (sign-extended).
fn inline_value(width: Width, low: u64) -> u128 {
    (to_signed(low as u128, INLINE_VALUE_BITS) as u128) & mask(width)
}

impl std::fmt::Debug for ExprId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_carried() {
            write!(f, "ExprId(const {}:{:#x})", self.inline_width(), self.inline_const())
        } else if let Some(k) = self.wide_slot() {
            write!(f, "ExprId(wide const #{k})")
        } else {
            write!(f, "ExprId({})", self.0)
        }
    }
}

/// IEEE 754 binary formats symcross models.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FpFormat {
    /// IEEE binary16.
    Half,
    /// IEEE binary32 (C `float`).
    Single,
    /// IEEE binary64 (C `double`).
    Double,
}

impl FpFormat {
    /// Total width in bits.
    pub fn width(self) -> Width {
        match self {
            FpFormat::Half => 16,
            FpFormat::Single => 32,
            FpFormat::Double => 64,
        }
    }
    /// Exponent field width in bits.
    pub fn exponent_bits(self) -> u32 {
        match self {
            FpFormat::Half => 5,
            FpFormat::Single => 8,
            FpFormat::Double => 11,
        }
    }
    /// Significand bits including the hidden bit (SMT-LIB's `sb`).
    pub fn significand_bits(self) -> u32 {
        self.width() - self.exponent_bits()
    }
    /// The format of this bit width (16, 32 or 64), if any.
    pub fn from_width(width: Width) -> Option<FpFormat> {
        match width {
            16 => Some(FpFormat::Half),
            32 => Some(FpFormat::Single),
            64 => Some(FpFormat::Double),
            _ => None,
        }
    }
    /// The C type name (`half`, `float`, `double`).
    pub fn name(self) -> &'static str {
        match self {
            FpFormat::Half => "half",
            FpFormat::Single => "float",
            FpFormat::Double => "double",
        }
    }
}

/// Binary bit-vector operations. Division by zero is defined as in SMT-LIB
/// (the executor reports it as a finding before building the node).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinOp {
    /// Addition modulo 2^width.
    Add,
    /// Subtraction modulo 2^width.
    Sub,
    /// Multiplication modulo 2^width (low half of the product).
    Mul,
    /// Unsigned division.
    UDiv,
    /// Signed division, rounding toward zero.
    SDiv,
    /// Unsigned remainder.
    URem,
    /// Signed remainder; takes the sign of the dividend.
    SRem,
    /// Bitwise and.
    And,
    /// Bitwise or.
    Or,
    /// Bitwise exclusive or.
    Xor,
    /// Shift amounts at or beyond the width give 0 (or all sign bits for AShr).
    Shl,
    /// Logical shift right (zeros in).
    LShr,
    /// Arithmetic shift right (sign bits in).
    AShr,
}

/// Integer comparisons; the others are built from these by swapping or negating.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CmpOp {
    /// Equal.
    Eq,
    /// Unsigned less than.
    Ult,
    /// Unsigned less or equal.
    Ule,
    /// Signed less than.
    Slt,
    /// Signed less or equal.
    Sle,
}

/// Binary floating-point operations, all rounding to nearest-even.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FBinOp {
    /// Addition.
    Add,
    /// Subtraction.
    Sub,
    /// Multiplication.
    Mul,
    /// Division.
    Div,
    /// C `fmod` (truncating remainder), LLVM `frem`.
    Rem,
    /// libm fmin / llvm.minnum: a NaN operand yields the other; min(-0,+0) = -0.
    Min,
    /// libm fmax / llvm.maxnum: a NaN operand yields the other; max(-0,+0) = +0.
    Max,
}

/// Unary floating-point operations with exact IEEE semantics.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FUnOp {
    /// Square root.
    Sqrt,
    /// Round to integral, ties to even (rint/nearbyint/roundeven).
    RoundEven,
    /// Round to integral, ties away from zero (C `round`).
    RoundAway,
    /// Round toward negative infinity.
    Floor,
    /// Round toward positive infinity.
    Ceil,
    /// Round toward zero.
    Trunc,
}

/// Outcome set of a floating-point comparison (KLEE-CL Table 1): bit 0 `<`,
/// bit 1 `=`, bit 2 `>`, bit 3 unordered.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Outcomes(pub u8);

impl Outcomes {
    /// The `<` outcome bit.
    pub const LT: u8 = 1;
    /// The `=` outcome bit.
    pub const EQ: u8 = 2;
    /// The `>` outcome bit.
    pub const GT: u8 = 4;
    /// The unordered outcome bit (a NaN operand).
    pub const UNO: u8 = 8;
    /// The comparison that is always false.
    pub const NONE: Outcomes = Outcomes(0);
    /// The comparison that is always true.
    pub const ALL: Outcomes = Outcomes(15);
    /// Whether the outcome `bit` (one of the constants above) makes it true.
    pub fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
    /// The set with operands swapped (`<` and `>` exchange).
    pub fn swapped(self) -> Outcomes {
        let b = self.0;
        Outcomes((b & (Self::EQ | Self::UNO)) | ((b & Self::LT) << 2) | ((b & Self::GT) >> 2))
    }
    /// The set of outcomes that make it false (the negated comparison).
    pub fn complement(self) -> Outcomes {
        Outcomes(!self.0 & 15)
    }
    /// Shorthand name as in KLEE-CL Table 1 (`FOlt`, `FUne`, ...).
    pub fn name(self) -> &'static str {
        const NAMES: [&str; 16] = [
            "false", "FOlt", "FOeq", "FOle", "FOgt", "FOne", "FOge", "FOrd", "FUno", "FUlt", "FUeq", "FUle", "FUgt", "FUne", "FUge", "true",
        ];
        NAMES[self.0 as usize]
    }
}

/// Rounding of a float-to-integer conversion.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntRounding {
    /// C casts, LLVM fptosi/fptoui, CVTT*.
    TowardZero,
    /// CVT* under the default MXCSR.
    NearestEven,
}

/// One node of the DAG.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A constant of up to 128 bits.
    Const {
        /// Bit width.
        width: Width,
        /// The value, zero-extended.
        value: u128,
    },
    /// Byte `index` of the symbolic input array number `array`.
    Input {
        /// Index into `ExprPool::arrays`.
        array: u32,
        /// Byte offset in the array.
        index: u32,
    },
    /// A value constrained by nothing: an approximate operation's result,
    /// an unmodelled input. `id` makes each occurrence distinct.
    Fresh {
        /// Distinguishes this value from every other fresh one.
        id: u32,
        /// Bit width.
        width: Width,
    },
    /// Integer operation on two operands of the same width.
    Bin(BinOp, ExprId, ExprId),
    /// Bitwise complement.
    Not(ExprId),
    /// Comparison; the result is 1 bit.
    Cmp(CmpOp, ExprId, ExprId),
    /// If-then-else: a 1-bit condition and two values of the same width.
    Ite(ExprId, ExprId, ExprId),
    /// `hi` in the high bits, `lo` in the low bits.
    Concat(ExprId, ExprId),
    /// Bits `offset .. offset + width` of `value`.
    Extract {
        /// The value read.
        value: ExprId,
        /// Lowest bit taken.
        offset: Width,
        /// Number of bits taken.
        width: Width,
    },
    /// Zero-extension to the given width.
    ZExt(ExprId, Width),
    /// Sign-extension to the given width.
    SExt(ExprId, Width),
    /// Floating-point operation on two operands of the given format.
    FBin(FBinOp, FpFormat, ExprId, ExprId),
    /// Floating-point unary operation.
    FUn(FUnOp, FpFormat, ExprId),
    /// Fused multiply-add `a * b + c` with one rounding.
    Fma(FpFormat, ExprId, ExprId, ExprId),
    /// Floating-point comparison: true when the operands' ordering is one of
    /// the outcomes; the result is 1 bit.
    FCmp(Outcomes, FpFormat, ExprId, ExprId),
    /// Float to integer; NaN and out-of-range inputs give x86's integer
    /// indefinite (only the sign bit set).
    FpToInt {
        /// Signed (rather than unsigned) result.
        signed: bool,
        /// How the float is rounded to an integer.
        rounding: IntRounding,
        /// Format of the input.
        from: FpFormat,
        /// The float converted.
        value: ExprId,
        /// Width of the result.
        width: Width,
    },
    /// Integer to float, rounding to nearest-even.
    IntToFp {
        /// Signed (rather than unsigned) input.
        signed: bool,
        /// Format of the result.
        to: FpFormat,
        /// The integer converted.
        value: ExprId,
    },
    /// Float to float of another format, rounding to nearest-even.
    FpConvert {
        /// Format of the input.
        from: FpFormat,
        /// Format of the result.
        to: FpFormat,
        /// The float converted.
        value: ExprId,
    },
    /// A function whose only known property is that equal arguments give equal
    /// results (libm functions without exact IEEE semantics).
    Apply(Box<Application>),
    /// A read through a list of writes at symbolic offsets, resolved when
    /// evaluated or encoded (log_read.rs), boxed as `Apply` is.
    LogRead(Box<LogRead>),
    /// The byte of symbolic input array `array` at the 64-bit position
    /// `index`, 0 past the array's end: a read at a symbolic offset of an
    /// input, one node whatever the input's size (input_at.rs).
    InputAt {
        /// Index into `ExprPool::arrays`.
        array: u32,
        /// The byte's position in the array (64 bits).
        index: ExprId,
    },
}

/// An application of an uninterpreted function (`Expr::Apply`), boxed so
/// that the common nodes stay 32 bytes: the pool holds millions of them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Application {
    /// The function's name.
    pub function: Arc<str>,
    /// Arguments in order.
    pub args: Vec<ExprId>,
    /// Width of the result.
    pub width: Width,
}

/// Metadata of a symbolic input array (`make_symbolic` call).
#[derive(Clone, Debug)]
pub struct InputArray {
    /// Unique name, shown in witnesses.
    pub name: String,
    /// Size in bytes.
    pub size: u32,
    /// What the input's bytes hold, when the program's types say so (for
    /// printing only).
    pub element: Option<ElementType>,
    /// Not an input: what pair mode's barrier takes a shared buffer to
    /// hold after other work-items' writes (opencl/havoc.rs), any value.
    /// A witness does not list it, and a finding resting on it is not
    /// confirmed.
    pub havoc: bool,
    /// Not an input: bytes the host gave (a file, listed values), read at
    /// symbolic positions as one solver array (`Expr::InputAt`) rather
    /// than a select over every byte. Each byte is exactly the given one:
    /// evaluation reads it here, whatever an assignment says, and the
    /// solver backends hold their guesses to it (z3_backend.rs,
    /// process.rs). A witness does not list it.
    pub given: Option<Arc<[u8]>>,
}

impl InputArray {
    /// Whether a run can be given this array's bytes: neither a havoc
    /// array nor given bytes.
    pub fn is_input(&self) -> bool {
        !self.havoc && self.given.is_none()
    }
}

/// The store of all expression nodes, with hash-consing.
#[derive(Default)]
pub struct ExprPool {
    nodes: Vec<Expr>,
    /// Each node's width; `u16::MAX` sends the reader to `wide_widths`
    /// (two bytes a node rather than four: pools hold millions).
    widths: Vec<u16>,
    wide_widths: FxHashMap<u32, Width>,
    index: node_index::NodeIndex,
    arrays: Vec<InputArray>,
    /// The names of `arrays`, so that `new_array` finds a free name without
    /// comparing it with every input's (a kernel drawing one input per
    /// thread, cuRAND's draws, made thousands).
    array_names: rustc_hash::FxHashSet<String>,
    /// Per name asked for, the suffix `new_array` tries first for it next
    /// time (1: the bare name): every smaller suffix is taken (names are
    /// never freed), so the search for a free one resumes there.
    array_suffixes: FxHashMap<String, u32>,
    /// Names `new_array` has tried: a step count for the test that keeps
    /// naming linear in the inputs.
    array_name_tries: u64,
    next_fresh: u32,
    /// The fresh values that stand for the result of an approximate
    /// operation (RCPPS, OpenCL native_*, a relaxed division): a witness
    /// that rests on one shows the model's choice, not the CPU's.
    approximations: rustc_hash::FxHashSet<u32>,
    /// Nodes that are x86 reciprocal estimates, with what they estimate
    /// (estimate.rs).
    estimates: FxHashMap<ExprId, Estimate>,
    /// Constants too wide to be carried inline, by (width, value), looked
    /// up without hashing a whole `Expr`.
    consts: FxHashMap<(Width, u128), ExprId>,
    /// The wide constants by number (`WIDE` handles): not nodes.
    wide_consts: Vec<(Width, u128)>,
    /// What NaN an FP operation produces in this pool (`--nan`).
    nan: NanModel,
    /// Concatenations of selects already joined (build.rs, `concat_at`),
    /// by (high, low) operands: the bytes of a word that symbolic-offset
    /// writes made into long chains of selects are joined once, not again
    /// at every later read.
    pub(crate) joined_concats: FxHashMap<(ExprId, ExprId), ExprId>,
}

impl ExprPool {
    /// An empty pool with the default NaN model.
    pub fn new() -> Self {
        Self::default()
    }

    /// A pool whose FP operations produce NaNs per `nan`.
    pub fn with_nan_model(nan: NanModel) -> Self {
        ExprPool { nan, ..Self::default() }
    }

    /// The NaN model the builders fold with.
    pub fn nan_model(&self) -> NanModel {
        self.nan
    }

    /// Every node of the pool (constants are not nodes).
    pub fn node_ids(&self) -> impl Iterator<Item = ExprId> + '_ {
        (0..self.nodes.len()).map(ExprId::pooled)
    }

    /// The node of `id`. Inline constants are materialised on the fly.
    #[inline]
    pub fn get(&self, id: ExprId) -> std::borrow::Cow<'_, Expr> {
        if id.is_carried() {
            return std::borrow::Cow::Owned(Expr::Const { width: id.inline_width(), value: id.inline_const() });
        }
        if let Some(k) = id.wide_slot() {
            let (width, value) = self.wide_consts[k];
            return std::borrow::Cow::Owned(Expr::Const { width, value });
        }
        std::borrow::Cow::Borrowed(&self.nodes[id.index()])
    }

    /// Bit width of a node.
    #[inline]
    pub fn width(&self, id: ExprId) -> Width {
        if id.is_carried() {
            return id.inline_width();
        }
        if let Some(k) = id.wide_slot() {
            return self.wide_consts[k].0;
        }
        match self.widths[id.index()] {
            u16::MAX => self.wide_widths[&(id.index() as u32)],
            w => w as Width,
        }
    }

    /// Number of pooled nodes (constants are not nodes).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether no node has been pooled.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The constant value of `id`, if it is a constant.
    #[inline]
    pub fn as_const(&self, id: ExprId) -> Option<u128> {
        if id.is_carried() {
            return Some(id.inline_const());
        }
        if let Some(k) = id.wide_slot() {
            return Some(self.wide_consts[k].1);
        }
        match self.nodes[id.index()] {
            Expr::Const { value, .. } => Some(value),
            _ => None,
        }
    }

    /// Whether the node is a constant.
    #[inline]
    pub fn is_const(&self, id: ExprId) -> bool {
        // Constants are never nodes (`intern` sends them to `constant`).
        id.is_inline()
    }

    /// All symbolic input arrays, indexed by array number.
    pub fn arrays(&self) -> &[InputArray] {
        &self.arrays
    }

    /// Registers a new symbolic input array and returns its number.
    pub fn new_array(&mut self, name: &str, size: u32) -> u32 {
        // Names must be unique for witnesses to be unambiguous.
        // The same names as trying `name`, `name_2`, `name_3`, ... in turn,
        // resumed where the last search for `name` stopped: that search was
        // linear in the inputs at every try, cubic over a kernel's draws.
        let mut n = self.array_suffixes.get(name).copied().unwrap_or(1);
        let with_suffix = |n: u32| if n == 1 { name.to_string() } else { format!("{name}_{n}") };
        let mut unique = with_suffix(n);
        self.array_name_tries += 1;
        while self.array_names.contains(&unique) {
            n += 1;
            unique = with_suffix(n);
            self.array_name_tries += 1;
        }
        self.array_suffixes.insert(name.to_string(), n + 1);
        self.array_names.insert(unique.clone());
        self.arrays.push(InputArray { name: unique, size, element: None, havoc: false, given: None });
        (self.arrays.len() - 1) as u32
    }

    /// Registers an array of `size` arbitrary bytes standing for a shared
    /// buffer after pair mode's barrier (`InputArray::havoc`), and returns
    /// its number.
    pub fn new_havoc_array(&mut self, name: &str, size: u32) -> u32 {
        let a = self.new_array(name, size);
        self.arrays[a as usize].havoc = true;
        a
    }

    /// Registers the bytes a host gave (`InputArray::given`) as an array
    /// read at symbolic positions, and returns its number.
    pub fn new_given_array(&mut self, name: &str, bytes: &[u8]) -> u32 {
        let a = self.new_array(name, bytes.len() as u32);
        self.arrays[a as usize].given = Some(bytes.into());
        a
    }

    /// The bytes of `array` when the host gave them (`InputArray::given`).
    pub fn given_bytes(&self, array: u32) -> Option<&[u8]> {
        self.arrays.get(array as usize).and_then(|a| a.given.as_deref())
    }

    /// Whether input array `array` was made by pair mode's barrier
    /// (`InputArray::havoc`).
    pub fn is_havoc_array(&self, array: u32) -> bool {
        self.arrays.get(array as usize).is_some_and(|a| a.havoc)
    }

    /// Records what input `array` holds, when its size is a whole number of
    /// such elements (anything else would mislead the printer).
    pub fn set_element_type(&mut self, array: u32, element: ElementType) {
        if let Some(a) = self.arrays.get_mut(array as usize) {
            if a.size > 0 && a.size % element.size() == 0 {
                a.element = Some(element);
            }
        }
    }

    /// A new unconstrained value of `width` bits, distinct from every other.
    pub fn fresh(&mut self, width: Width) -> ExprId {
        let id = self.next_fresh;
        self.next_fresh += 1;
        self.intern(Expr::Fresh { id, width })
    }

    /// A fresh value standing for an approximate operation's result (see
    /// `approximations`).
    pub fn approximation(&mut self, width: Width) -> ExprId {
        self.approximations.insert(self.next_fresh);
        self.fresh(width)
    }

    /// Whether fresh value `id` stands for an approximate result.
    pub fn is_approximation(&self, id: u32) -> bool {
        self.approximations.contains(&id)
    }

    /// Appends a wide constant that is known not to exist yet.
    pub(crate) fn push_wide_const(&mut self, width: Width, value: u128) -> ExprId {
        let id = ExprId(WIDE | self.wide_consts.len() as u64);
        self.wide_consts.push((width, value));
        id
    }

    pub(crate) fn intern(&mut self, e: Expr) -> ExprId {
        // Constants live in their own table (see `constant`), so that the
        // many values of concrete execution cost no hash at all.
        if let Expr::Const { width, value } = e {
            return self.constant(width, value);
        }
        if let node_index::Lookup::Found(n) = self.index.find_or_claim(&self.nodes, &e) {
            return ExprId::pooled(n);
        }
        let w = self.compute_width(&e);
        let id = ExprId::pooled(self.nodes.len());
        self.nodes.push(e);
        self.push_width(w);
        id
    }

    /// Records the width of the node just pushed.
    fn push_width(&mut self, w: Width) {
        match u16::try_from(w) {
            Ok(narrow) if narrow != u16::MAX => self.widths.push(narrow),
            _ => {
                self.wide_widths.insert((self.widths.len()) as u32, w);
                self.widths.push(u16::MAX);
            }
        }
    }

    fn compute_width(&self, e: &Expr) -> Width {
        match *e {
            Expr::Const { width, .. } => width,
            Expr::Input { .. } => 8,
            Expr::Fresh { width, .. } => width,
            Expr::Bin(_, a, _) => self.width(a),
            Expr::Not(a) => self.width(a),
            Expr::Cmp(..) | Expr::FCmp(..) => 1,
            Expr::Ite(_, t, _) => self.width(t),
            Expr::Concat(h, l) => self.width(h) + self.width(l),
            Expr::Extract { width, .. } => width,
            Expr::ZExt(_, w) | Expr::SExt(_, w) => w,
            Expr::FBin(_, f, ..) | Expr::FUn(_, f, _) | Expr::Fma(f, ..) => f.width(),
            Expr::FpToInt { width, .. } => width,
            Expr::IntToFp { to, .. } => to.width(),
            Expr::FpConvert { to, .. } => to.width(),
            Expr::Apply(ref app) => app.width,
            Expr::LogRead(ref r) => self.width(r.base),
            Expr::InputAt { .. } => 8,
        }
    }

    /// The nodes below `roots` (the roots included), each once, every
    /// node after its operands: the order in which a walk that evaluates
    /// or rebuilds nodes visits them. Iterative, so deep expressions do
    /// not overflow the stack.
    pub fn operands_first(&self, roots: &[ExprId]) -> Vec<ExprId> {
        let mut order = Vec::new();
        let mut placed: rustc_hash::FxHashSet<ExprId> = rustc_hash::FxHashSet::default();
        let mut stack: Vec<(ExprId, bool)> = roots.iter().map(|&r| (r, false)).collect();
        while let Some((id, expanded)) = stack.pop() {
            if placed.contains(&id) {
                continue;
            }
            if !expanded {
                stack.push((id, true));
                stack.extend(self.children(id).into_iter().filter(|k| !placed.contains(k)).map(|k| (k, false)));
                continue;
            }
            placed.insert(id);
            order.push(id);
        }
        order
    }

    /// `roots` with every node of `replace` replaced by its image, the
    /// nodes above them rebuilt (iterative, as `operands_first`).
    pub fn substitute(&mut self, roots: &[ExprId], replace: &FxHashMap<ExprId, ExprId>) -> Vec<ExprId> {
        self.rewrite_bottom_up(roots, replace.clone(), |_, rebuilt| rebuilt)
    }

    /// `roots` rebuilt bottom-up: a node in `done` becomes its image there;
    /// any other node is rebuilt over its children's images and then given
    /// to `step`, whose answer is its image. One walk (iterative, as
    /// `operands_first`) serves plain substitution (`step` the identity)
    /// and rewrites that look at each rebuilt node, so they visit the
    /// nodes in the same order and never repeat the rebuild.
    pub fn rewrite_bottom_up(
        &mut self,
        roots: &[ExprId],
        mut done: FxHashMap<ExprId, ExprId>,
        mut step: impl FnMut(&mut ExprPool, ExprId) -> ExprId,
    ) -> Vec<ExprId> {
        let mut stack: Vec<(ExprId, bool)> = roots.iter().map(|&r| (r, false)).collect();
        while let Some((id, expanded)) = stack.pop() {
            if done.contains_key(&id) {
                continue;
            }
            let kids = self.children(id);
            if !expanded {
                stack.push((id, true));
                stack.extend(kids.into_iter().filter(|k| !done.contains_key(k)).map(|k| (k, false)));
                continue;
            }
            let new_kids: Vec<ExprId> = kids.iter().map(|k| done[k]).collect();
            let rebuilt = if new_kids[..] == kids[..] { id } else { self.rebuild(id, &new_kids) };
            let new = step(self, rebuilt);
            done.insert(id, new);
        }
        roots.iter().map(|r| done[r]).collect()
    }

    /// Children of a node, in order.
    pub fn children(&self, id: ExprId) -> smallvec::SmallVec<[ExprId; 3]> {
        use smallvec::smallvec;
        match &*self.get(id) {
            Expr::Const { .. } | Expr::Input { .. } | Expr::Fresh { .. } => smallvec![],
            Expr::Bin(_, a, b) | Expr::Cmp(_, a, b) | Expr::Concat(a, b) => smallvec![*a, *b],
            Expr::FBin(_, _, a, b) | Expr::FCmp(_, _, a, b) => smallvec![*a, *b],
            Expr::Not(a) | Expr::ZExt(a, _) | Expr::SExt(a, _) | Expr::FUn(_, _, a) | Expr::InputAt { index: a, .. } => smallvec![*a],
            Expr::Extract { value, .. } | Expr::FpToInt { value, .. } | Expr::IntToFp { value, .. } | Expr::FpConvert { value, .. } => {
                smallvec![*value]
            }
            Expr::Ite(c, t, e) | Expr::Fma(_, c, t, e) => smallvec![*c, *t, *e],
            Expr::Apply(app) => app.args.iter().copied().collect(),
            Expr::LogRead(r) => r.operands(),
        }
    }

    /// True if any node below `id` is a floating-point operation (such
    /// queries go to the bit-precise FP solver).
    pub fn mentions_fp(&self, id: ExprId) -> bool {
        self.any_below(std::iter::once(id), |_, e| {
            matches!(
                e,
                Expr::FBin(..)
                    | Expr::FUn(..)
                    | Expr::Fma(..)
                    | Expr::FCmp(..)
                    | Expr::FpToInt { .. }
                    | Expr::IntToFp { .. }
                    | Expr::FpConvert { .. }
            )
        })
    }

    /// Whether a node below `roots` (the roots included, constants left
    /// out) satisfies `hit`, given its id and its node. Each shared node is
    /// visited once; nothing below a hit is visited.
    pub fn any_below(&self, roots: impl Iterator<Item = ExprId>, mut hit: impl FnMut(ExprId, &Expr) -> bool) -> bool {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack: Vec<ExprId> = roots.collect();
        while let Some(e) = stack.pop() {
            if self.is_const(e) || !seen.insert(e) {
                continue;
            }
            if hit(e, &self.get(e)) {
                return true;
            }
            stack.extend(self.children(e));
        }
        false
    }
}

/// Mask of the low `width` bits.
pub fn mask(width: Width) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// Sign-extends the low `width` bits of `v` to an i128.
pub fn to_signed(v: u128, width: Width) -> i128 {
    if width >= 128 {
        v as i128
    } else {
        let shift = 128 - width;
        ((v << shift) as i128) >> shift
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inputs asked for under one name are numbered in turn (a name asked
    /// for as such takes its place in the numbering), and finding the next
    /// free name takes a bounded number of tries however many inputs
    /// exist: one cuRAND draw per thread of a 512-thread block named
    /// thousands of inputs `curand`, and the search compared each new name
    /// with every input at each try (cubic; 15 s at 512 threads).
    #[test]
    fn input_names_are_numbered_in_turn_in_bounded_tries() {
        let mut p = ExprPool::new();
        let names = |p: &mut ExprPool, base: &str, k: usize| -> Vec<String> {
            (0..k)
                .map(|_| {
                    let a = p.new_array(base, 4);
                    p.arrays()[a as usize].name.clone()
                })
                .collect()
        };
        assert_eq!(names(&mut p, "curand", 3), ["curand", "curand_2", "curand_3"]);
        assert_eq!(names(&mut p, "curand_4", 1), ["curand_4"]);
        assert_eq!(names(&mut p, "curand", 2), ["curand_5", "curand_6"]);
        assert_eq!(names(&mut p, "x", 1), ["x"]);
        let before = p.array_name_tries;
        let draws = 20_000;
        let last = names(&mut p, "curand", draws).pop();
        assert_eq!(last.as_deref(), Some("curand_20006"));
        assert!(p.array_name_tries - before <= draws as u64 + 1, "{} tries", p.array_name_tries - before);
    }

    /// The pool holds millions of nodes: a node must stay 32 bytes, so
    /// rare large variants are boxed.
    #[test]
    fn nodes_are_32_bytes() {
        assert_eq!(std::mem::size_of::<Expr>(), 32);
    }

    /// Widths are kept in two bytes; wider nodes are looked up aside.
    #[test]
    fn widths_past_two_bytes_are_kept() {
        let mut p = ExprPool::new();
        let (wide, edge, narrow) = (p.fresh(70_000), p.fresh(65_535), p.fresh(65_534));
        let small = p.fresh(8);
        assert_eq!((p.width(wide), p.width(edge), p.width(narrow), p.width(small)), (70_000, 65_535, 65_534, 8));
    }

    /// Values at the edges of the inline encoding, for several widths.
    fn edge_values(width: Width) -> Vec<u128> {
        let m = mask(width);
        let mut v = vec![0, 1, 2, m, m - 1, m >> 1, (m >> 1) + 1];
        for k in [54u32, 55, 56, 57, 63, 64, 100, 127] {
            if k < width {
                v.extend([1u128 << k, (1u128 << k) - 1, m - (1u128 << k) + 1, m ^ (1u128 << k)]);
            }
        }
        v.into_iter().map(|x| x & m).collect()
    }

    #[test]
    fn every_constant_reads_back_with_its_width() {
        let mut p = ExprPool::new();
        for width in [1, 7, 8, 16, 32, 55, 56, 57, 63, 64, 65, 80, 127, 128] {
            for value in edge_values(width) {
                let id = p.constant(width, value);
                assert_eq!(p.as_const(id), Some(value), "width {width} value {value:#x}");
                assert_eq!(p.width(id), width);
                assert!(p.is_const(id));
                assert_eq!(*p.get(id), Expr::Const { width, value });
            }
        }
    }

    #[test]
    fn a_constant_has_one_handle_however_it_is_built() {
        let mut p = ExprPool::new();
        for width in [8, 56, 57, 64, 128] {
            for value in edge_values(width) {
                let a = p.constant(width, value);
                let b = p.intern(Expr::Const { width, value });
                let c = p.constant(width, value | ((1u128 << 127) * (width < 128) as u128));
                assert_eq!(a, b, "width {width} value {value:#x}");
                assert_eq!(a, c, "bits above the width are dropped");
            }
        }
        // Equal values of different widths are different constants.
        assert_ne!(p.constant(8, 1), p.constant(16, 1));
        // Wide values that do not fit inline are kept once, and not as
        // nodes: the next node's number does not depend on them.
        let big = p.constant(64, 1 << 60);
        assert_eq!(p.constant(64, 1 << 60), big);
        let x = p.input_byte(0, 0);
        let mut q = ExprPool::new();
        assert_eq!(q.input_byte(0, 0), x);
        assert!(big.is_inline() && p.is_const(big));
        assert_ne!(big, p.constant(64, 1 << 61));
    }

    #[test]
    fn folding_across_the_inline_boundary_is_exact() {
        let mut p = ExprPool::new();
        let a = p.constant(64, (1 << 55) - 1);
        let one = p.constant(64, 1);
        let sum = p.bin(BinOp::Add, a, one);
        assert_eq!(p.as_const(sum), Some(1 << 55));
        let back = p.bin(BinOp::Sub, sum, one);
        assert_eq!(back, a);
        let minus_one = p.constant(64, u64::MAX as u128);
        let neg = p.bin(BinOp::Mul, minus_one, sum);
        assert_eq!(p.as_const(neg), Some((1u128 << 64) - (1 << 55)));
    }
}
