//! prove_equal and explain_assumptions on the cases of KLEE-CL section 6
//! and of README, Assumptions.

use symcross::canon::*;
use symcross::expr::*;

const F: FpFormat = FpFormat::Single;

fn rules() -> RuleSet {
    RuleSet::builtin().unwrap()
}

/// The rule declarations a default run (`--nan equal`) enables besides the
/// user's assumptions: these pools have canonical NaNs.
fn nan_equal(user: Assumptions) -> Assumptions {
    user.with(Assumption::NanBitsIgnored)
}

fn eq(pool: &ExprPool, a: ExprId, b: ExprId, assume: &str) -> bool {
    prove_equal(pool, a, b, &rules(), nan_equal(assume.parse().unwrap()), &Limits::default()).is_equal()
}

/// explain_assumptions as a default run asks it, without the base.
fn explain(pool: &ExprPool, a: ExprId, b: ExprId) -> Vec<Assumptions> {
    let base = nan_equal(Assumptions::NONE);
    explain_assumptions(pool, a, b, &rules(), base, &Limits::default()).into_iter().map(|s| s.without(Assumption::NanBitsIgnored)).collect()
}

fn vars(pool: &mut ExprPool, n: usize) -> Vec<ExprId> {
    (0..n).map(|_| pool.fresh(32)).collect()
}

fn olt(pool: &mut ExprPool, a: ExprId, b: ExprId) -> ExprId {
    pool.fcmp(Outcomes(Outcomes::LT), F, a, b)
}

#[test]
fn addition_commutes_always() {
    let mut p = ExprPool::new();
    let v = vars(&mut p, 3);
    // Built without the builder's operand ordering: through a - (-b).
    let ab = p.fbin(FBinOp::Add, F, v[0], v[1]);
    let nb = p.fneg(F, v[1]);
    let a_minus_nb = p.fbin(FBinOp::Sub, F, v[0], nb);
    assert!(eq(&p, ab, a_minus_nb, "none"));
}

#[test]
fn reassociation_needs_the_assumption() {
    let mut p = ExprPool::new();
    let v = vars(&mut p, 3);
    let ab = p.fbin(FBinOp::Add, F, v[0], v[1]);
    let l = p.fbin(FBinOp::Add, F, ab, v[2]);
    let bc = p.fbin(FBinOp::Add, F, v[1], v[2]);
    let r = p.fbin(FBinOp::Add, F, v[0], bc);
    assert!(!eq(&p, l, r, "none"));
    assert!(!eq(&p, l, r, "finite,positive-zero"));
    assert!(eq(&p, l, r, "associativity"));
    assert_eq!(explain(&p, l, r), vec!["associativity".parse().unwrap()]);
}

#[test]
fn k_t_t_equals_t_t_k_under_associativity_only() {
    let mut p = ExprPool::new();
    let v = vars(&mut p, 2);
    let (k, t) = (v[0], v[1]);
    let kt = p.fbin(FBinOp::Mul, F, k, t);
    let l = p.fbin(FBinOp::Mul, F, kt, t);
    let tt = p.fbin(FBinOp::Mul, F, t, t);
    let r = p.fbin(FBinOp::Mul, F, tt, k);
    assert!(!eq(&p, l, r, "none"));
    assert!(!eq(&p, l, r, "ordered,finite,positive-zero"));
    assert!(eq(&p, l, r, "associativity"));
}

#[test]
fn serial_and_tree_reductions_meet_under_associativity_and_positive_zero() {
    let mut p = ExprPool::new();
    let t = vars(&mut p, 8);
    let zero = p.constant(32, 0);
    let mut serial = zero;
    for x in &t {
        serial = p.fbin(FBinOp::Add, F, serial, *x);
    }
    let mut level = t.clone();
    while level.len() > 1 {
        level = level.chunks(2).map(|c| p.fbin(FBinOp::Add, F, c[0], c[1])).collect();
    }
    let tree = level[0];
    assert!(!eq(&p, serial, tree, "associativity"), "0 + t0 is not t0 (t0 = -0)");
    let limits = Limits { node_limit: 60_000, ..Limits::default() };
    let all = nan_equal("associativity,positive-zero,ordered".parse().unwrap());
    assert!(prove_equal(&p, serial, tree, &rules(), all, &limits).is_equal());
}

#[test]
fn minps_and_fmin_differ_by_default() {
    let mut p = ExprPool::new();
    let v = vars(&mut p, 2);
    let (a, b) = (v[0], v[1]);
    let c = olt(&mut p, a, b);
    let minps = p.ite(c, a, b);
    let fmin = p.fbin(FBinOp::Min, F, a, b);
    assert!(!eq(&p, minps, fmin, "none"));
    assert!(!eq(&p, minps, fmin, "ordered"));
    assert!(!eq(&p, minps, fmin, "positive-zero"));
    assert!(eq(&p, minps, fmin, "ordered,positive-zero"));
}

#[test]
fn minps_and_std_min_operand_orders() {
    let mut p = ExprPool::new();
    let v = vars(&mut p, 2);
    let (a, b) = (v[0], v[1]);
    // MINPS(a, b) = a < b ? a : b.
    let c = olt(&mut p, a, b);
    let minps = p.ite(c, a, b);
    // std::min(x, y) = y < x ? y : x, so std::min(b, a) = a < b ? a : b.
    let c_ba = olt(&mut p, a, b);
    let std_min_b_a = p.ite(c_ba, a, b);
    assert!(eq(&p, minps, std_min_b_a, "none"));
    // std::min(a, b) = b < a ? b : a differs for NaN and for (-0, +0).
    let c2 = olt(&mut p, b, a);
    let std_min_a_b = p.ite(c2, b, a);
    assert!(!eq(&p, minps, std_min_a_b, "ordered"));
    assert!(!eq(&p, minps, std_min_a_b, "positive-zero"));
    assert!(eq(&p, minps, std_min_a_b, "ordered,positive-zero"));
    let why = explain(&p, minps, std_min_a_b);
    let expected: Vec<Assumptions> = vec!["ordered,positive-zero".parse().unwrap(), "finite,positive-zero".parse().unwrap()];
    assert!(why.len() == 2 && expected.iter().all(|e| why.contains(e)), "{why:?}");
}

#[test]
fn min_chain_with_infinity_matches_operands_under_positive_zero() {
    let mut p = ExprPool::new();
    let v = vars(&mut p, 3);
    let inf = p.constant(32, 0x7f80_0000);
    let min = |p: &mut ExprPool, x: ExprId, y: ExprId| {
        let c = p.fcmp(Outcomes(Outcomes::LT), F, x, y);
        p.ite(c, x, y)
    };
    let zi = min(&mut p, v[2], inf);
    let yz = min(&mut p, v[1], zi);
    let l = min(&mut p, v[0], yz);
    let xz = min(&mut p, v[0], zi);
    let r = min(&mut p, v[1], xz);
    assert!(!eq(&p, l, r, "none"));
    assert!(eq(&p, l, r, "positive-zero"));
}

#[test]
fn fcmp_outcome_sets_combine() {
    let mut p = ExprPool::new();
    let v = vars(&mut p, 2);
    let lt = olt(&mut p, v[0], v[1]);
    let eqc = p.fcmp(Outcomes(Outcomes::EQ), F, v[0], v[1]);
    let or = p.or(lt, eqc);
    let le = p.fcmp(Outcomes(Outcomes::LT | Outcomes::EQ), F, v[0], v[1]);
    assert!(eq(&p, or, le, "none"));
    // Or(FOlt(x, y), FOgt(y, x)) is FOlt(x, y) (rule 6).
    let gt_swapped = p.fcmp(Outcomes(Outcomes::GT), F, v[1], v[0]);
    let or2 = p.or(lt, gt_swapped);
    assert!(eq(&p, or2, lt, "none"));
    // Not(FOlt) is FUge, not FOge.
    let not_lt = p.not(lt);
    let oge = p.fcmp(Outcomes(Outcomes::GT | Outcomes::EQ), F, v[0], v[1]);
    assert!(!eq(&p, not_lt, oge, "none"));
    assert!(eq(&p, not_lt, oge, "ordered"));
}

#[test]
fn integer_comparison_through_float_becomes_integer() {
    // cmpneq(cvtepi32(x), 0) from KLEE-CL 6.2(3) against x != 0.
    let mut p = ExprPool::new();
    let x = p.fresh(32);
    let fx = p.int_to_fp(true, F, x);
    let zero_f = p.constant(32, 0);
    let ne = p.fcmp(Outcomes(Outcomes::LT | Outcomes::GT | Outcomes::UNO), F, fx, zero_f);
    let zero_i = p.constant(32, 0);
    let is_zero = p.eq(x, zero_i);
    let int_ne = p.not(is_zero);
    assert!(eq(&p, ne, int_ne, "none"));
    // x < 3.5 is not rewritten (3.5 is not an integer).
    let c = p.constant(32, 3.5f32.to_bits() as u128);
    let lt = p.fcmp(Outcomes(Outcomes::LT), F, fx, c);
    let three = p.constant(32, 3);
    let int_lt = p.cmp(CmpOp::Slt, x, three);
    assert!(!eq(&p, lt, int_lt, "none"));
}

#[test]
fn fpext_is_removed_from_comparisons_and_conversions() {
    let mut p = ExprPool::new();
    let v = vars(&mut p, 2);
    let d = FpFormat::Double;
    let ex = p.fp_convert(F, d, v[0]);
    let ey = p.fp_convert(F, d, v[1]);
    let wide = p.fcmp(Outcomes(Outcomes::LT), d, ex, ey);
    let narrow = olt(&mut p, v[0], v[1]);
    assert!(eq(&p, wide, narrow, "none"));
    let i_wide = p.fp_to_int(true, IntRounding::TowardZero, d, ex, 32);
    let i_narrow = p.fp_to_int(true, IntRounding::TowardZero, F, v[0], 32);
    assert!(eq(&p, i_wide, i_narrow, "none"));
    // 0.1 (double) is not a float: no rewrite to a float comparison.
    let tenth = p.constant(64, 0.1f64.to_bits() as u128);
    let c_wide = p.fcmp(Outcomes(Outcomes::LT), d, ex, tenth);
    let tenth_f = p.constant(32, 0.1f32.to_bits() as u128);
    let c_narrow = olt(&mut p, v[0], tenth_f);
    assert!(!eq(&p, c_wide, c_narrow, "none"));
}

#[test]
fn categories_decide_comparisons() {
    // uitofp(i) is in {0, +}: "< -1 or unordered" is impossible (6.2(2)).
    let mut p = ExprPool::new();
    let i = p.fresh(8);
    let fi = p.int_to_fp(false, F, i); // 0 .. 255, never NaN, never negative
    let neg_one = p.constant(32, (-1.0f32).to_bits() as u128);
    let lt = p.fcmp(Outcomes(Outcomes::LT | Outcomes::UNO), F, fi, neg_one);
    let f = p.bool_const(false);
    assert!(eq(&p, lt, f, "none"));
}

/// Under `--nan exact` (x86's NaN bits) a + b and b + a differ for two
/// NaN operands: the rules declaring `nan-bits-ignored` are not enabled and
/// nothing else may prove them equal.
#[test]
fn addition_does_not_commute_with_exact_nan_bits() {
    let mut p = ExprPool::with_nan_model(NanModel::EXACT_X86);
    let v = vars(&mut p, 2);
    let ab = p.fbin(FBinOp::Add, F, v[0], v[1]);
    let ba = p.fbin(FBinOp::Add, F, v[1], v[0]);
    assert_ne!(ab, ba, "the builder must keep the operand order");
    assert!(!prove_equal(&p, ab, ba, &rules(), Assumptions::NONE, &Limits::default()).is_equal());
    assert!(prove_equal(&p, ab, ba, &rules(), nan_equal(Assumptions::NONE), &Limits::default()).is_equal());
}

#[test]
fn stop_reason_is_a_value() {
    let mut p = ExprPool::new();
    let v = vars(&mut p, 2);
    let a = p.fbin(FBinOp::Div, F, v[0], v[1]);
    let b = p.fbin(FBinOp::Div, F, v[1], v[0]);
    match prove_equal(&p, a, b, &rules(), Assumptions::NONE, &Limits::default()) {
        CanonResult::NotShown { stop_reason } => assert_eq!(stop_reason, StopReason::Saturated),
        r => panic!("{r:?}"),
    }
    let t = vars(&mut p, 10);
    let mut l = t[0];
    for x in &t[1..] {
        l = p.fbin(FBinOp::Mul, F, l, *x);
    }
    let r = p.fbin(FBinOp::Mul, F, t[9], t[0]);
    let tiny = Limits { node_limit: 300, ..Limits::default() };
    match prove_equal(&p, l, r, &rules(), nan_equal("associativity".parse().unwrap()), &tiny) {
        CanonResult::NotShown { stop_reason: StopReason::NodeLimit(_) } => {}
        r => panic!("{r:?}"),
    }
}

#[test]
fn canonical_form_is_rebuilt_in_the_dag() {
    let mut p = ExprPool::new();
    let x = p.fresh(32);
    let one = p.constant(32, 1.0f32.to_bits() as u128);
    let m = p.fbin(FBinOp::Mul, F, x, one);
    let (c, _) = canonicalize(&mut p, m, &rules(), nan_equal("ordered".parse().unwrap()), &Limits::default());
    assert_eq!(c, x);
}
