//! Findings: what a run reports. Serialised as the `findings` entries of
//! the JSON report (README, JSON report), so field names are part of the
//! stable interface.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What went wrong; serialised in kebab-case (`out-of-bounds`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    /// Two sides of a `symcross_check_equal` can differ.
    Mismatch,
    /// Two OpenCL work-items access the same location without synchronisation, at least one writing.
    Race,
    /// Work-items of a group can wait at different barriers, or one finish
    /// while another waits, or call `wait_group_events` with different events.
    BarrierDivergence,
    /// A memory access past the end of an object, through a null or invalid
    /// pointer, into no object, or through a function pointer.
    OutOfBounds,
    /// An access to a freed object.
    UseAfterFree,
    /// A second `free` of the same object.
    DoubleFree,
    /// A value whose bits may be uninitialised is used where that matters (a
    /// branch, an address, a divisor...), found by shadow tracking.
    UninitializedRead,
    /// Integer division or remainder by zero.
    DivisionByZero,
    /// An operation C leaves undefined (a shift by the width or more,
    /// signed overflow, an out-of-range float-to-integer conversion): which
    /// one is `Finding::undefined_behaviour`.
    UndefinedBehaviour,
    /// A write (store, memset/memcpy destination, atomic, make_symbolic)
    /// into an object that is really constant: an LLVM `constant` global (a
    /// C `const` global or string literal, in read-only memory natively; an
    /// OpenCL `__constant` object).
    WriteToReadOnly,
    /// A kernel read from a buffer the host created write-only
    /// (`CL_MEM_WRITE_ONLY`, `--arg NAME=BYTES:wo`).
    ReadFromWriteOnly,
    /// `wait_group_events` on an event no asynchronous copy of the
    /// work-item returned, or one already waited for (and so released).
    InvalidEvent,
    /// An OpenCL load or store whose address is not a multiple of its
    /// type's alignment.
    Misaligned,
    /// Something symcross does not model (an intrinsic, a call), so the path stopped here.
    Unsupported,
    /// Performance (`race --perf`): work-items of one warp access distinct
    /// words of one `__local` memory bank at once, which the bank serves
    /// one after the other.
    BankConflict,
    /// Performance (`race --perf`): a warp's global access needs more
    /// memory transactions than the bytes it touches would.
    UncoalescedAccess,
    /// Performance (`race --perf`): work-items of one warp can take
    /// different directions at a branch, so the warp runs both sides.
    WarpDivergence,
    /// A CUDA warp-level function (`__syncwarp`, `__shfl*_sync`, a vote)
    /// called by a thread its mask leaves out, or whose mask names a
    /// thread that does not make the same call: undefined behaviour.
    InvalidWarpMask,
}

impl FindingKind {
    /// Every kind, in the order SARIF lists its rules. A new kind goes here,
    /// which is what makes it a rule and a manifest `expect` value.
    pub const ALL: [FindingKind; 18] = [
        FindingKind::Mismatch,
        FindingKind::Race,
        FindingKind::BarrierDivergence,
        FindingKind::OutOfBounds,
        FindingKind::UseAfterFree,
        FindingKind::DoubleFree,
        FindingKind::UninitializedRead,
        FindingKind::DivisionByZero,
        FindingKind::UndefinedBehaviour,
        FindingKind::WriteToReadOnly,
        FindingKind::ReadFromWriteOnly,
        FindingKind::InvalidEvent,
        FindingKind::Misaligned,
        FindingKind::Unsupported,
        FindingKind::BankConflict,
        FindingKind::UncoalescedAccess,
        FindingKind::WarpDivergence,
        FindingKind::InvalidWarpMask,
    ];

    /// The kebab-case name, as in the JSON report.
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::Mismatch => "mismatch",
            FindingKind::Race => "race",
            FindingKind::BarrierDivergence => "barrier-divergence",
            FindingKind::OutOfBounds => "out-of-bounds",
            FindingKind::UseAfterFree => "use-after-free",
            FindingKind::DoubleFree => "double-free",
            FindingKind::UninitializedRead => "uninitialized-read",
            FindingKind::DivisionByZero => "division-by-zero",
            FindingKind::UndefinedBehaviour => "undefined-behaviour",
            FindingKind::WriteToReadOnly => "write-to-read-only",
            FindingKind::ReadFromWriteOnly => "read-from-write-only",
            FindingKind::InvalidEvent => "invalid-event",
            FindingKind::Misaligned => "misaligned",
            FindingKind::Unsupported => "unsupported",
            FindingKind::BankConflict => "bank-conflict",
            FindingKind::UncoalescedAccess => "uncoalesced-access",
            FindingKind::WarpDivergence => "warp-divergence",
            FindingKind::InvalidWarpMask => "invalid-warp-mask",
        }
    }

    /// A performance diagnostic (`race --perf`): always a warning, never
    /// part of the verdict or the exit status, and no reason to stop at
    /// the first finding.
    pub fn is_performance(self) -> bool {
        matches!(self, FindingKind::BankConflict | FindingKind::UncoalescedAccess | FindingKind::WarpDivergence)
    }
}

/// Which undefined operation an `undefined-behaviour` finding is;
/// serialised in kebab-case (`shift-out-of-range`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UndefinedOperation {
    /// `<<` or `>>` by the width of the value or more (IR `shl`, `lshr`,
    /// `ashr`).
    ShiftOutOfRange,
    /// Signed `+`, `-` or `*` whose result does not fit (IR `nsw`).
    SignedOverflow,
    /// Signed division or remainder of the minimum by -1.
    DivisionOverflow,
    /// A float-to-integer conversion of NaN or of a value outside the
    /// integer's range.
    FloatCastOverflow,
    /// C's `<<` of a negative value, or of one whose set bits reach or
    /// pass the sign bit (IR `shl nsw`, or clang's test of the rule).
    LeftShiftOverflow,
    /// An `add`, `sub`, `mul` or `shl` the compiler marked `nuw` (from C's
    /// rules) wraps around.
    UnsignedWrap,
    /// A division or right shift the compiler marked `exact` leaves a
    /// remainder (C's pointer difference of pointers into different
    /// objects, or misaligned ones).
    InexactDivision,
    /// `__builtin_clz`/`__builtin_ctz` of zero (IR `llvm.ctlz`/`llvm.cttz`
    /// whose flag says a zero operand is poison).
    InvalidBuiltinUse,
    /// Another promise the optimiser wrote from C's rules is broken (`or
    /// disjoint`: a bit set in both operands; `trunc nuw`/`nsw`: a bit or
    /// the sign dropped; `zext nneg`/`uitofp nneg`: a negative operand).
    BrokenPromise,
    /// Pointer arithmetic the compiler marked `inbounds` (C's rule) leaves
    /// its object: an address before its start or past one past its end.
    OutOfBoundsPointerArithmetic,
}

impl UndefinedOperation {
    /// The kebab-case name, as in the JSON report.
    pub fn name(self) -> &'static str {
        match self {
            UndefinedOperation::ShiftOutOfRange => "shift-out-of-range",
            UndefinedOperation::SignedOverflow => "signed-overflow",
            UndefinedOperation::DivisionOverflow => "division-overflow",
            UndefinedOperation::FloatCastOverflow => "float-cast-overflow",
            UndefinedOperation::LeftShiftOverflow => "left-shift-overflow",
            UndefinedOperation::UnsignedWrap => "unsigned-wrap",
            UndefinedOperation::InexactDivision => "inexact-division",
            UndefinedOperation::InvalidBuiltinUse => "invalid-builtin-use",
            UndefinedOperation::BrokenPromise => "broken-promise",
            UndefinedOperation::OutOfBoundsPointerArithmetic => "out-of-bounds-pointer-arithmetic",
        }
    }
}

/// How sure a finding is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A concrete input (the witness) makes it happen: in `check`, the
    /// witness was also run natively and the CPU showed it.
    Confirmed,
    /// It may happen, but no solver confirmed it (timeout, or a path whose
    /// feasibility is unknown), or the CPU did not show it on the witness.
    Unconfirmed,
    /// The model's witness makes it happen, but no native run could check
    /// that (`--no-replay`, no emulator, a kind a native run cannot show);
    /// `native` says why.
    #[serde(rename = "confirmed-by-model")]
    ConfirmedByModel,
}

impl Status {
    /// Whether a witness stands behind the finding: reproduced natively,
    /// or confirmed by the model where no native run was possible.
    pub fn is_confirmed(self) -> bool {
        matches!(self, Status::Confirmed | Status::ConfirmedByModel)
    }

    /// How the status reads in text (`mismatch (confirmed): ...`).
    pub fn words(self) -> &'static str {
        match self {
            Status::Confirmed => "confirmed",
            Status::Unconfirmed => "unconfirmed",
            Status::ConfirmedByModel => "confirmed by the model only",
        }
    }
}

/// What running a finding's witness natively showed (`check` runs the
/// same build on this CPU, under qemu-aarch64 for AArch64, against the
/// installed OpenCL implementation for host programs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NativeOutcome {
    /// The native run showed the finding.
    Reproduced,
    /// The native run did not: the model and the CPU disagree on this input.
    NotReproduced,
    /// No native run was made (the reason says why).
    NotRun,
}

/// The clause a finding's message gets when its native run did not show
/// it (the finding is then unconfirmed).
pub const NOT_REPRODUCED_CLAUSE: &str = "; not confirmed: the model and the CPU disagree on this input";

/// The native run of one finding's witness.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NativeRun {
    /// What it showed.
    pub outcome: NativeOutcome,
    /// Where it ran (`this CPU`, `qemu-aarch64`); absent when it did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on: Option<String>,
    /// What the run showed, or why there was none, in one line.
    pub detail: String,
    /// The model's values under the witness (`left = ..., right = ...`),
    /// when the outcome differs from the model's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The CPU's values of the same elements, when the run recorded them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<String>,
}

/// A source position from the debug info; line and column are 1-based, 0 when unknown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// Source file as recorded in the debug info.
    pub file: String,
    /// Line number.
    pub line: u32,
    /// Column number.
    pub column: u32,
}

/// Which step of the decision ladder (README, How a check is decided) decided a check.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecidedBy {
    /// The sides are one node, or their equality folds to true (hash-consing
    /// and the simplifying builders).
    Structural,
    /// Canonicalisation made the sides one term: reassociation (under
    /// `associativity`), the e-graph, or sweeping an integer check.
    Canonical,
    /// KLEE-CL's implied integer query (an integer over-approximation of the
    /// failure) is unsatisfiable.
    ImpliedQuery,
    /// Concrete evaluation of both sides on sampled inputs (a refutation).
    Sampling,
    /// A complete bit-precise solver query: unsatisfiable (proved), or a
    /// model that confirms the difference.
    BitPrecise,
    /// Not decided: the solver ran out of time (the query's limit or the
    /// run's `--max-time`), so a faster machine might decide it.
    Timeout,
    /// Not decided: the solver gave no answer for another reason (a work
    /// budget, an unsupported construct, a model that cannot be trusted, a
    /// solver failure); the finding's message says which.
    SolverUnknown,
    /// Proved by reusing an earlier lane's proof under a checked renaming
    /// of input leaves (check/lane_symmetry.rs): the lanes compute the same
    /// formula on their own inputs.
    LaneSymmetry,
    /// Proved by the estimate-bound analysis (check/estimate_bound.rs):
    /// each RCPPS/RSQRTPS result is the exact value times 1 + d, |d| at
    /// most Intel's documented 1.5 * 2^-12, and every rounding after it
    /// is bounded; sound for every conforming CPU, not bit-precise.
    EstimateBound,
    /// A tolerance check evaluated on every input its one float input may
    /// take (check/error_analysis/enumerate.rs): a complete proof or a
    /// refutation by exact evaluation.
    Exhaustive,
    /// A tolerance check's bound proved by bounding the rounding errors of
    /// both sides over boxes of the inputs
    /// (check/error_analysis/rounding_bounds.rs): sound, not bit-precise.
    ErrorAnalysis,
    /// A difference found by evaluating both sides on sampled inputs with
    /// every RCPPS/RSQRTPS estimate this CPU's result
    /// (check/cpu_estimates.rs): a witness for this CPU only (another
    /// conforming CPU may estimate otherwise), confirmed only when the
    /// native replay on this CPU reproduces it.
    CpuEstimates,
    /// An integer check decided on every value of each element it reads
    /// (check/guarded_elements.rs, check/element_conditions.rs): guards
    /// the element's own test implies dropped (each implication proved by
    /// the solver), then the sides evaluated on all values of an element,
    /// or the elements' conditions replaced by variables constrained to
    /// the combinations those values give them.
    ElementEvaluation,
}

impl DecidedBy {
    /// The step in words, as the text and HTML reports print it.
    pub fn words(self) -> &'static str {
        match self {
            DecidedBy::Structural => "structural identity",
            DecidedBy::Canonical => "e-graph canonicalisation",
            DecidedBy::ImpliedQuery => "implied integer query",
            DecidedBy::Sampling => "evaluation on sampled inputs",
            DecidedBy::BitPrecise => "bit-precise solver",
            DecidedBy::Timeout => "solver timeout (not confirmed)",
            DecidedBy::SolverUnknown => "no solver answer (not confirmed)",
            DecidedBy::LaneSymmetry => "lane symmetry (lane 0 proof reused)",
            DecidedBy::EstimateBound => "estimate bound (Intel's documented RCP/RSQRT error, rounding bounds)",
            DecidedBy::Exhaustive => "exhaustive evaluation of every input",
            DecidedBy::ErrorAnalysis => "error analysis (rounding-error bounds on input boxes)",
            DecidedBy::CpuEstimates => {
                "sampling with this CPU's RCPPS/RSQRTPS estimates (a witness for this CPU, confirmed by replaying it on the CPU)"
            }
            DecidedBy::ElementEvaluation => "evaluation of every value of each element",
        }
    }
}

/// One reported problem.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Finding {
    /// What kind of problem.
    pub kind: FindingKind,
    /// Whether a witness confirms it.
    pub status: Status,
    /// Human-readable description.
    pub message: String,
    /// Where it happens.
    pub location: Location,
    /// Hex bytes per symbolic input name.
    pub witness: Option<BTreeMap<String, String>>,
    /// The same witness decoded by type, for the inputs whose type the
    /// program gives (`float src[64]`): element by element.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub witness_values: Option<BTreeMap<String, DecodedInput>>,
    /// For mismatches: both sides, printed with explicit brackets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expressions: Option<MismatchExprs>,
    /// Which ladder step decided the check, for checks and confirmed findings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<DecidedBy>,
    /// Further source locations involved (the other access of a race, the
    /// free of a use-after-free, the call stack).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
    /// What running the witness natively showed (`check` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub native: Option<NativeRun>,
    /// For `undefined-behaviour`: which operation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undefined_behaviour: Option<UndefinedOperation>,
    /// For `race`: the NDRange and both accesses as values (work-items,
    /// groups, bytes), for pictures of the race.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race: Option<super::NdrangeSite>,
    /// For an out-of-bounds access in a kernel and a barrier divergence:
    /// the NDRange and the work-items involved, for pictures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel_site: Option<super::NdrangeSite>,
}

impl Finding {
    /// A finding with its kind, status, message and place, and none of the
    /// optional parts (witness, related places, pictures): callers add what
    /// they know.
    pub fn new(kind: FindingKind, status: Status, message: String, location: Location) -> Finding {
        Finding {
            kind,
            status,
            message,
            location,
            witness: None,
            witness_values: None,
            expressions: None,
            decided_by: None,
            related: Vec::new(),
            native: None,
            undefined_behaviour: None,
            race: None,
            kernel_site: None,
        }
    }

    /// The finding is not confirmed, for the reason `note` gives (a
    /// `; not confirmed: ...` clause, appended to the message) unless it
    /// already was not.
    pub fn doubt(&mut self, note: &str) {
        if self.status == Status::Confirmed {
            self.status = Status::Unconfirmed;
            self.message.push_str(note);
        }
    }
}

/// A further source location involved in a finding, with what it is.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Related {
    /// What this location is (the other access, the free, a caller).
    pub message: String,
    /// Where.
    pub location: Location,
}

/// Both sides of a mismatch as printed expressions.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MismatchExprs {
    /// Shared subterms as `N0 := ...` lines, one per line, named across both sides.
    pub definitions: String,
    /// The left side, its first differing subterm marked with `⟪ ⟫`.
    pub left: String,
    /// The right side, its first differing subterm marked with `⟪ ⟫`.
    pub right: String,
    /// Concrete values of both sides under the witness, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_value: Option<String>,
    /// Concrete value of the right side under the witness, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right_value: Option<String>,
    /// The assumption set under which the sides are equal, if any was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equal_under: Option<Vec<String>>,
    /// The type `left_value` and `right_value` are read in (`float`, `i64`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element_type: Option<String>,
    /// The element of a `symcross_check_equal` the finding is about (its
    /// index in the compared buffers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<u64>,
    /// Whether the element was compared as a float with all NaNs equal
    /// (`--nan equal`; see `expr::nan_rule`); false: bit for bit. Native
    /// replay compares the CPU's values by the same rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nans_equal: Option<bool>,
    /// Under the witness, how many compared elements differ and the first
    /// of them (at most 64), when the buffers could be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub differing: Option<DifferingElements>,
    /// For a failing assertion: the comparison that fails, in words
    /// (`left > right`), `left` and `right` being its operands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// For an integer check left undecided: both sides in the integer
    /// normal form, where they still differ (what no rule made meet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normal_forms: Option<NormalForms>,
}

/// Both sides of an undecided integer check in the integer normal form,
/// printed as `MismatchExprs` prints the sides.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NormalForms {
    /// Shared subterms as `N0 := ...` lines.
    pub definitions: String,
    /// The left side's normal form, its first differing subterm marked.
    pub left: String,
    /// The right side's normal form, its first differing subterm marked.
    pub right: String,
}

/// The elements of a `symcross_check_equal` that differ under the witness.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DifferingElements {
    /// How many compared elements differ (all of them, not only those listed).
    pub count: u64,
    /// The first differing elements, at most 64.
    pub elements: Vec<ElementDifference>,
}

/// One differing element of a `symcross_check_equal`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ElementDifference {
    /// Element index in the compared buffers.
    pub index: u64,
    /// The left element as text.
    pub left: String,
    /// The right element as text.
    pub right: String,
}

/// One witness input decoded by its type: `type` is `float[64]`, `i32`,
/// ...; `elements` holds each element as text (`1.5f (0x3fc00000)`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct DecodedInput {
    /// The C type, e.g. `float[64]`, `uint8_t`, `struct pixel` (from debug
    /// info when it names the input's variable, else the LLVM type).
    #[serde(rename = "type")]
    pub type_name: String,
    /// Each element as text.
    pub elements: Vec<String>,
    /// Where each element sits in the input, when it is not simply the
    /// i-th of a one-dimensional array: `[15][0]`, `.rgb[2]`, `.local_id`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub labels: Option<Vec<String>>,
}
