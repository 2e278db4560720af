//! Whether a witness refutes a check in the semantics the user chose, not
//! only in plain IEEE arithmetic. A finding is *confirmed* only when this
//! holds; otherwise it stays *unconfirmed* with the reason.
//!
//! - `positive-zero`, `finite`, `ordered` restrict every operand and result
//!   of every floating-point operation: a witness that produces a -0, an
//!   infinity or a NaN they exclude proves nothing.
//! - `associativity` lets `+` and `*` be regrouped; the solver and the
//!   evaluator know only one grouping. A difference holds under every
//!   grouping when every sum and product the witness computes is exact: then
//!   each equals its real value, whatever the grouping (an exact zero sum is
//!   -0 exactly when all its terms are -0, in any grouping). Exactness is
//!   shown by bounds: every term of a chain is a finite integer and the sum
//!   of the magnitudes of a sum's terms (the product of those of a product's
//!   factors, each at least 1) stays within the format's integer range, so
//!   no partial result of any grouping can round.
//! - Approximate operations (fresh values) and uninterpreted functions have
//!   no definite value: a difference that runs through them is a difference
//!   of the model, which the CPU may never show.

use crate::assumptions::{Assumption, Assumptions};
use crate::expr::{Assignment, Expr, ExprId, ExprPool, FBinOp, FpFormat};
use rustc_hash::FxHashMap;

/// Why a witness does not confirm a finding; `None` when it does.
pub fn unconfirmed_because(pool: &ExprPool, assumptions: Assumptions, roots: &[ExprId], witness: &Assignment) -> Option<String> {
    if let Some(what) = approximate_under(pool, roots, Some(witness), false) {
        if what == CONTRACTION {
            return Some(format!("the difference depends on {what}"));
        }
        return Some(format!(
            "the difference runs through {what}, whose exact result symcross does not model; \
             it is settled only by the accuracy the standard allows"
        ));
    }
    unconfirmed_under_assumptions(pool, assumptions, roots, witness)
}

/// As [`unconfirmed_because`], for the assumptions only: used for the path
/// of any finding, whose unconstrained values (havocked memory, approximate
/// results) a witness may legitimately choose.
pub fn unconfirmed_under_assumptions(pool: &ExprPool, assumptions: Assumptions, roots: &[ExprId], witness: &Assignment) -> Option<String> {
    let restricted = assumptions.restricts_values();
    let associativity = assumptions.has(Assumption::Associativity);
    if !restricted && !associativity {
        return None;
    }
    // A modelled libm call takes this machine's libm's result, as the CPU
    // computes it (the evaluator gives an uninterpreted call an arbitrary
    // value, which may be an infinity or a NaN where the CPU's is not).
    let values = super::libm_model::evaluate_with_host_libm(pool, roots, witness);
    if restricted {
        if let Some(why) = violated_restriction(pool, assumptions, &values) {
            return Some(format!("the witness {why}, which the assumptions exclude"));
        }
    }
    if associativity && !every_chain_exact(pool, &values) {
        return Some(
            "the difference may vanish under reassociation (--assume associativity): \
             the witness rounds in a sum or product"
                .to_string(),
        );
    }
    None
}

/// What a contraction choice is called in reasons.
const CONTRACTION: &str = "whether the compiler fuses a*b+c into one fused multiply-add (llvm.fmuladd, or contract-flagged \
     arithmetic, which -ffp-contract=on/fast allow and the code generator may or may not fuse)";

/// What an approximate operation's result is called in reasons; native
/// replay looks for it to know a finding rests on the model's choice.
pub const APPROXIMATE_RESULT: &str = "the result of an approximate operation (an estimate such as RCPPS/RSQRTPS, \
     OpenCL native_*/half_*/mad or a division with relaxed accuracy)";

/// The first approximate or uninterpreted operation below `roots`, named.
pub fn approximate_operation(pool: &ExprPool, roots: &[ExprId]) -> Option<String> {
    approximate_under(pool, roots, None, false)
}

/// Why a witness of a path (a failing assertion, a memory error) rests on
/// the model's choice of an approximate operation's result: the path
/// condition, under the witness, reads one. `None` when it does not.
pub fn path_runs_through_approximation(pool: &ExprPool, path: &[ExprId], witness: &Assignment) -> Option<String> {
    let what = approximate_under(pool, path, Some(witness), true)?;
    Some(format!(
        "the path to it runs through {what}, whose exact result symcross does not model: the witness shows the model's choice, not the CPU's"
    ))
}

/// The first approximate (or, unless `registered_only`, any fresh or
/// uninterpreted) value below `roots`, named. With a witness, only the arm
/// of each select that the witness takes is followed: RCPPS of a zero is
/// exactly an infinity, whatever its estimate elsewhere would be.
fn approximate_under(pool: &ExprPool, roots: &[ExprId], witness: Option<&Assignment>, registered_only: bool) -> Option<String> {
    Some(match open_value_under(pool, roots, witness, registered_only)? {
        OpenValue::Contraction => CONTRACTION.to_string(),
        OpenValue::Fresh(_) => APPROXIMATE_RESULT.to_string(),
        OpenValue::Uninterpreted(function) => format!("the uninterpreted function `{function}`"),
    })
}

/// A value whose result the model leaves open.
enum OpenValue {
    /// A contraction choice (`choice ? fma : split`).
    Contraction,
    /// A fresh value: an approximate result, or (unless `registered_only`)
    /// any other, such as a texture read the model does not follow.
    Fresh(u32),
    /// An uninterpreted function's result.
    Uninterpreted(String),
}

/// The fresh value a difference of `roots` under `witness` runs through,
/// when it is the first open value found there (the one
/// [`unconfirmed_because`] names as an approximate operation's result),
/// so a layer that knows what the value stands for can say so.
pub fn fresh_value_named(pool: &ExprPool, roots: &[ExprId], witness: &Assignment) -> Option<u32> {
    match open_value_under(pool, roots, Some(witness), false)? {
        OpenValue::Fresh(id) => Some(id),
        _ => None,
    }
}

/// The first open value below `roots`, in the order both callers above
/// name it.
fn open_value_under(pool: &ExprPool, roots: &[ExprId], witness: Option<&Assignment>, registered_only: bool) -> Option<OpenValue> {
    let values = witness.map(|w| super::libm_model::evaluate_with_host_libm(pool, roots, w));
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack: Vec<ExprId> = roots.to_vec();
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        match &*pool.get(e) {
            // exec/ops/contraction.rs: `choice ? fma : split`.
            Expr::Ite(c, t, _)
                if !registered_only
                    && matches!(&*pool.get(*c), Expr::Fresh { width: 1, .. })
                    && matches!(&*pool.get(*t), Expr::Fma(..)) =>
            {
                return Some(OpenValue::Contraction)
            }
            Expr::Ite(c, t, f) if values.as_ref().is_some_and(|v| v.contains_key(c)) => {
                let taken = if values.as_ref().map(|v| v[c]) != Some(0) { *t } else { *f };
                stack.extend([*c, taken]);
            }
            Expr::Fresh { id, .. } if !registered_only || pool.is_approximation(*id) => return Some(OpenValue::Fresh(*id)),
            Expr::Apply(app) if !registered_only => return Some(OpenValue::Uninterpreted(app.function.to_string())),
            _ => stack.extend(pool.children(e)),
        }
    }
    None
}

/// A floating-point value read or produced by an operation that an enabled
/// restriction excludes, described.
fn violated_restriction(pool: &ExprPool, a: Assumptions, values: &FxHashMap<ExprId, u128>) -> Option<String> {
    for (&id, &value) in values {
        // An approximation's exact special cases (RCPPS of a subnormal is
        // an infinity) are built from bit operations, not float ones: the
        // value is still the result of a floating-point operation.
        if approximation_result(pool, id) {
            let format = match pool.width(id) {
                16 => Some(FpFormat::Half),
                32 => Some(FpFormat::Single),
                64 => Some(FpFormat::Double),
                _ => None,
            };
            if let Some(why) = format.and_then(|f| excluded(a, f, value)) {
                return Some(why);
            }
        }
        let (format, operands): (FpFormat, smallvec::SmallVec<[ExprId; 3]>) = match &*pool.get(id) {
            Expr::FBin(_, f, x, y) | Expr::FCmp(_, f, x, y) => (*f, smallvec::smallvec![*x, *y]),
            Expr::FUn(_, f, x) => (*f, smallvec::smallvec![*x]),
            Expr::Fma(f, x, y, z) => (*f, smallvec::smallvec![*x, *y, *z]),
            Expr::FpToInt { from, value, .. } => (*from, smallvec::smallvec![*value]),
            Expr::FpConvert { from, value: v, to } => {
                if let Some(why) = excluded(a, *to, value) {
                    return Some(why);
                }
                (*from, smallvec::smallvec![*v])
            }
            Expr::IntToFp { to, .. } => {
                if let Some(why) = excluded(a, *to, value) {
                    return Some(why);
                }
                continue;
            }
            _ => continue,
        };
        let produces_float = matches!(&*pool.get(id), Expr::FBin(..) | Expr::FUn(..) | Expr::Fma(..));
        if produces_float {
            if let Some(why) = excluded(a, format, value) {
                return Some(why);
            }
        }
        for o in operands {
            if let Some(why) = excluded(a, format, values[&o]) {
                return Some(why);
            }
        }
    }
    None
}

/// Whether `id` is the result of an approximate operation: a choice one of
/// whose arms (directly or through further choices) is its fresh estimate.
fn approximation_result(pool: &ExprPool, id: ExprId) -> bool {
    fn estimate_arm(pool: &ExprPool, e: ExprId, depth: u32) -> bool {
        match &*pool.get(e) {
            Expr::Fresh { id, .. } => pool.is_approximation(*id),
            Expr::Ite(_, t, f) if depth < 8 => estimate_arm(pool, *t, depth + 1) || estimate_arm(pool, *f, depth + 1),
            _ => false,
        }
    }
    matches!(&*pool.get(id), Expr::Ite(..)) && estimate_arm(pool, id, 0)
}

/// Why a restricting assumption excludes the value `bits` of format `f`.
pub(super) fn excluded(a: Assumptions, f: FpFormat, bits: u128) -> Option<String> {
    let x = as_f64(f, bits);
    if x.is_nan() && a.closure().has(Assumption::Ordered) {
        return Some("produces a NaN".to_string());
    }
    if x.is_infinite() && a.has(Assumption::Finite) {
        return Some("produces an infinity".to_string());
    }
    if x == 0.0 && x.is_sign_negative() && a.has(Assumption::PositiveZero) {
        return Some("produces -0".to_string());
    }
    None
}

/// The value of `bits` in format `f`, widened exactly to f64.
pub fn as_f64(f: FpFormat, bits: u128) -> f64 {
    match f {
        FpFormat::Half => half::f16::from_bits(bits as u16).to_f64(),
        FpFormat::Single => f32::from_bits(bits as u32) as f64,
        FpFormat::Double => f64::from_bits(bits as u64),
    }
}

/// True when every sum and product of three or more terms that the witness
/// evaluates is exact under every grouping (see the module comment). A chain
/// of two terms can only be commuted, which is exact: `fma(a, b, c)` against
/// `a * b + c` needs no exactness to be a real difference.
fn every_chain_exact(pool: &ExprPool, values: &FxHashMap<ExprId, u128>) -> bool {
    // Children precede parents in the pool, so ascending ids are bottom-up;
    // inline constants are leaves and sort last.
    let mut ids: Vec<ExprId> = values.keys().copied().collect();
    ids.sort();
    // Per chain node: its number of terms, and a bound on every partial
    // result of any grouping (`None` when a term is not a finite integer or
    // the bound leaves the format's exact integers).
    let mut chain: FxHashMap<ExprId, (u32, Option<f64>)> = FxHashMap::default();
    for id in ids {
        let Expr::FBin(op @ (FBinOp::Add | FBinOp::Sub | FBinOp::Mul), f, x, y) = *pool.get(id) else { continue };
        let term = |t: ExprId| -> (u32, Option<f64>) {
            let same_kind = match *pool.get(t) {
                Expr::FBin(o @ (FBinOp::Add | FBinOp::Sub | FBinOp::Mul), g, ..) => g == f && (o == FBinOp::Mul) == (op == FBinOp::Mul),
                _ => false,
            };
            if same_kind {
                if let Some(c) = chain.get(&t) {
                    return *c;
                }
            }
            let v = as_f64(f, values[&t]);
            (1, (v.is_finite() && v.fract() == 0.0).then_some(v.abs()))
        };
        let ((nx, bx), (ny, by)) = (term(x), term(y));
        let limit = (1u64 << f.significand_bits()) as f64;
        let bound = match (bx, by) {
            (Some(bx), Some(by)) => {
                let b = if op == FBinOp::Mul { bx.max(1.0) * by.max(1.0) } else { bx + by };
                (b <= limit).then_some(b)
            }
            _ => None,
        };
        let terms = nx + ny;
        if terms >= 3 && bound.is_none() {
            return false;
        }
        chain.insert(id, (terms, bound));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn witness(values: &[f32]) -> Assignment {
        let mut a = Assignment::default();
        a.arrays.insert(0, values.iter().flat_map(|v| v.to_le_bytes()).collect());
        a
    }

    fn setup(n: u32) -> (ExprPool, Vec<ExprId>) {
        let mut p = ExprPool::new();
        let arr = p.new_array("v", 4 * n);
        let v = (0..n).map(|i| p.input_word(arr, 4 * i, 32)).collect();
        (p, v)
    }

    const ASSOC: Assumptions = Assumptions::NONE.with(Assumption::Associativity);

    #[test]
    fn exact_sums_confirm_under_associativity() {
        let (mut p, v) = setup(3);
        let f = FpFormat::Single;
        let ab = p.fbin(FBinOp::Add, f, v[0], v[1]);
        let s = p.fbin(FBinOp::Add, f, ab, v[2]);
        assert_eq!(unconfirmed_because(&p, ASSOC, &[s, ab], &witness(&[1.0, 2.0, -7.0])), None);
        // 1e8 + 1 rounds: another grouping could give another answer.
        assert!(unconfirmed_because(&p, ASSOC, &[s], &witness(&[1e8, 1.0, -1e8])).is_some());
        // Non-integers round in some grouping.
        assert!(unconfirmed_because(&p, ASSOC, &[s], &witness(&[0.1, 0.2, 0.3])).is_some());
        // Two terms can only be commuted: any witness stands.
        assert_eq!(unconfirmed_because(&p, ASSOC, &[ab], &witness(&[0.1, 0.2, 0.3])), None);
    }

    #[test]
    fn restrictions_reject_witnesses() {
        let (mut p, v) = setup(2);
        let f = FpFormat::Single;
        let s = p.fbin(FBinOp::Add, f, v[0], v[1]);
        let ordered = Assumptions::of(&[Assumption::Ordered]);
        let pz = Assumptions::of(&[Assumption::PositiveZero]);
        let finite = Assumptions::of(&[Assumption::Finite]);
        assert!(unconfirmed_because(&p, ordered, &[s], &witness(&[f32::NAN, 1.0])).is_some());
        assert!(unconfirmed_because(&p, pz, &[s], &witness(&[-0.0, -0.0])).is_some());
        assert!(unconfirmed_because(&p, finite, &[s], &witness(&[f32::MAX, f32::MAX])).is_some());
        assert_eq!(unconfirmed_because(&p, finite, &[s], &witness(&[1.5, 2.25])), None);
    }

    /// Under the assumptions, a libm call takes this machine's result: an
    /// `expf` that overflows produces an infinity, one that does not keeps
    /// its positive sign (the evaluator's arbitrary value for the call
    /// was a tiny negative number, finite where the CPU's is infinite and
    /// making a -0 where the CPU's product is +0).
    #[test]
    fn assumptions_judge_a_libm_call_by_this_machines_result() {
        let (mut p, v) = setup(1);
        let f = FpFormat::Single;
        let e = p.apply("exp.float", vec![v[0]], 32);
        let zero = p.constant(32, 0);
        let plus = p.fbin(FBinOp::Add, f, e, v[0]);
        let times_zero = p.fbin(FBinOp::Mul, f, e, zero);
        let finite = Assumptions::of(&[Assumption::Finite]);
        let pz = Assumptions::of(&[Assumption::PositiveZero]);
        let why = unconfirmed_under_assumptions(&p, finite, &[plus], &witness(&[100.0])).expect("expf(100) is infinite");
        assert!(why.contains("infinity"), "{why}");
        assert_eq!(unconfirmed_under_assumptions(&p, finite, &[plus], &witness(&[1.0])), None);
        assert_eq!(unconfirmed_under_assumptions(&p, pz, &[times_zero], &witness(&[1.0])), None);
    }

    #[test]
    fn approximate_values_never_confirm() {
        let (mut p, v) = setup(1);
        let fresh = p.fresh(32);
        let s = p.fbin(FBinOp::Add, FpFormat::Single, v[0], fresh);
        assert!(unconfirmed_because(&p, Assumptions::default(), &[s], &witness(&[1.0])).is_some());
        let sin = p.apply("sinf", vec![v[0]], 32);
        let why = unconfirmed_because(&p, Assumptions::default(), &[sin], &witness(&[1.0])).unwrap();
        assert!(why.contains("sinf"), "{why}");
    }
}
