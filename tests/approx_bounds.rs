//! x86's reciprocal estimates (RCPPS, RSQRTPS, their scalar and AVX
//! forms) as any value within Intel's documented relative error: a bound
//! that holds for every conforming CPU is proved without the bit-precise
//! solver, a bound this CPU breaks is refuted with a witness the CPU
//! reproduces, and a bound only some conforming CPU breaks is refuted
//! with a witness that stays unconfirmed (the CPU does not reproduce it).

mod common;

/// `symcross check` of a harness under harnesses/approx with `cflags`:
/// exit status, JSON report, and the output for messages.
fn check(name: &str, cflags: &str) -> (i32, serde_json::Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let h = common::repo().join("harnesses/approx").join(name);
    let mut args = vec!["check", h.to_str().unwrap(), "--json", report.to_str().unwrap()];
    if !cflags.is_empty() {
        args.extend(["--cflags", cflags]);
    }
    let run = common::symcross(&args);
    let json = serde_json::from_str(&std::fs::read_to_string(&report).unwrap_or_default()).unwrap_or(serde_json::Value::Null);
    (run.code, json, format!("{}\n{}", run.stdout, run.stderr))
}

fn findings(json: &serde_json::Value) -> &Vec<serde_json::Value> {
    json["findings"].as_array().expect("findings")
}

/// The float a witness gives input `name` (its first element).
fn witness_bits(f: &serde_json::Value, name: &str) -> u32 {
    let v = f["witness_values"][name]["elements"][0].as_str().unwrap_or("");
    u32::from_str_radix(v.rsplit("0x").next().unwrap_or("").trim_end_matches(')'), 16).expect("witness bits")
}

/// Every finding is confirmed because this CPU reproduced it.
fn all_reproduced(json: &serde_json::Value, count: usize) {
    let f = findings(json);
    assert_eq!(f.len(), count, "{json:#}");
    for f in f {
        assert_eq!(f["status"], "confirmed", "{f:#}");
        assert_eq!(f["native"]["outcome"], "reproduced", "{f:#}");
    }
}

#[test]
fn rcp_within_the_documented_bound_is_proved_without_the_solver() {
    let (code, json, out) = check("rcp_bound.c", "-mavx");
    assert_eq!(code, 0, "{out}");
    assert_eq!(json["verdict"], "equivalent", "{json:#}");
    assert_eq!(json["stats"]["queries"], 0, "{json:#}");
}

#[test]
fn rcp_against_a_tighter_bound_is_refuted_on_this_cpu() {
    let (code, json, out) = check("rcp_bound.c", "-mavx -DTIGHT");
    assert_eq!(code, 1, "{out}");
    all_reproduced(&json, 3);
    for f in findings(&json) {
        let x = f32::from_bits(witness_bits(f, "x"));
        assert!(x.abs() >= f32::MIN_POSITIVE && x.abs() <= f32::from_bits(0x7e7f_e800), "{f:#}");
    }
}

/// From 1.11111111110100000000000b * 2^125 the SDM lets the reciprocal be
/// flushed to zero: over that range the bound is not proved, and the
/// flushed witness is one this CPU (which flushes from 2^126) does not give.
#[test]
fn rcp_where_the_reciprocal_may_be_flushed_is_not_proved() {
    let (code, json, out) = check("rcp_bound.c", "-mavx -DFULL_RANGE");
    assert_eq!(code, 3, "{out}");
    assert_eq!(json["verdict"], "inconclusive", "{json:#}");
    let f = &findings(&json)[0];
    assert_eq!(f["status"], "unconfirmed", "{f:#}");
    assert_eq!(f["native"]["outcome"], "not-reproduced", "{f:#}");
    let x = witness_bits(f, "x") & 0x7fff_ffff;
    assert!((0x7e7f_e800..0x7e80_0000).contains(&x), "{f:#}");
}

#[test]
fn rsqrt_within_the_documented_bound_is_proved_without_the_solver() {
    let (code, json, out) = check("rsqrt_bound.c", "");
    assert_eq!(code, 0, "{out}");
    assert_eq!(json["verdict"], "equivalent", "{json:#}");
    assert_eq!(json["stats"]["queries"], 0, "{json:#}");
}

#[test]
fn rsqrt_against_a_tighter_bound_is_refuted_on_this_cpu() {
    let (code, json, out) = check("rsqrt_bound.c", "-DTIGHT");
    assert_eq!(code, 1, "{out}");
    all_reproduced(&json, 2);
}

/// `_mm_rcp_ps` against `1.0f / x` per lane, within a relative tolerance
/// that covers the documented error and the roundings: proved, each lane
/// by the estimate-bound step.
#[test]
fn rcp_ps_within_a_tolerance_of_the_quotient_is_proved() {
    let (code, json, out) = check("rcp_vs_division.c", "");
    assert_eq!(code, 0, "{out}");
    assert_eq!(json["verdict"], "equivalent", "{json:#}");
    assert_eq!(json["stats"]["decided"]["estimate_bound"], 4, "{json:#}");
    assert!(out.contains("4 by estimate bound"), "{out}");
}

/// The documented bound taken literally against the rounded quotient is
/// broken by an estimate at the bound's edge, which this CPU never gives.
#[test]
fn rcp_ps_within_exactly_the_documented_bound_of_the_quotient_is_not_proved() {
    let (code, json, out) = check("rcp_vs_division.c", "-DLITERAL");
    assert_eq!(code, 3, "{out}");
    assert_eq!(json["verdict"], "inconclusive", "{json:#}");
    let f = &findings(&json)[0];
    assert_eq!(f["status"], "unconfirmed", "{f:#}");
    assert!(f["message"].as_str().unwrap().contains("approximate operation"), "{f:#}");
    assert_eq!(f["native"]["outcome"], "not-reproduced", "{f:#}");
}

/// The same question as a tolerance check (`symcross_check_close` with
/// `SYMCROSS_REL`): every element within the bound, proved by the
/// rounding-error bounds (each estimate is the exact reciprocal within
/// Intel's relative bound), on one box per sign of the input, which the
/// harness's `fabsf(x) >= 0x1p-100f` keeps away from zero.
#[test]
fn rcp_ps_as_a_tolerance_check_is_proved_within_the_bound() {
    let (code, json, out) = check("rcp_close.c", "");
    assert_eq!(code, 0, "{out}");
    assert_eq!(json["verdict"], "equivalent", "{json:#}");
    let results = json["tolerance"].as_array().expect("tolerance results");
    assert_eq!(results.len(), 4, "{json:#}");
    for r in results {
        assert_eq!(r["verdict"], "within-bound", "{r:#}");
        assert_eq!(r["decided_by"], "error-analysis", "{r:#}");
        assert!(r["proof"].as_str().unwrap().contains("on 2 box(es)"), "{r:#}");
        assert!(r["proved_max"].as_f64().unwrap() <= 1.51 * 2f64.powi(-12), "{r:#}");
    }
}

/// With exactly the documented bound the tolerance check is not proved:
/// an estimate at the edge exceeds it, which this CPU does not reproduce.
#[test]
fn rcp_ps_as_a_tolerance_check_of_exactly_the_documented_bound_is_not_proved() {
    let (code, json, out) = check("rcp_close.c", "-DLITERAL");
    assert_eq!(code, 3, "{out}");
    assert_eq!(json["verdict"], "inconclusive", "{json:#}");
    let f = &findings(&json)[0];
    assert_eq!(f["status"], "unconfirmed", "{f:#}");
    assert_eq!(f["native"]["outcome"], "not-reproduced", "{f:#}");
    assert!(json["tolerance"].as_array().unwrap().iter().all(|r| r["verdict"] != "within-bound"), "{json:#}");
}

/// FRECPE and FRSQRTE as the NEON lowering computes them stay within the
/// relative error recorded for them (expr/estimate.rs), which proofs use
/// in place of the tables: checked at both ends of every table interval
/// (the estimate is constant on one, the error monotone), in several
/// binades and of both signs (FRECPE), and it is not loose.
#[test]
fn the_arm_estimate_tables_stay_within_their_recorded_bounds() {
    use symcross::expr::{evaluate, Assignment, EstimateKind, Expr, ExprPool, FpFormat};
    use symcross::ir::Type;
    use symcross::neon::{lower_neon, Lowered};
    for (name, bound, root) in [
        ("llvm.aarch64.neon.frecpe.f32", EstimateKind::ARM_RECIPROCAL_ERROR, false),
        ("llvm.aarch64.neon.frsqrte.f32", EstimateKind::ARM_RECIPROCAL_SQRT_ERROR, true),
    ] {
        let mut p = ExprPool::new();
        let x = p.fresh(32);
        let Expr::Fresh { id, .. } = *p.get(x) else { unreachable!() };
        let arg: symcross::expr::value::Value = smallvec::smallvec![x];
        let Lowered::Value(r) = lower_neon(&mut p, name, &[arg], &Type::Float(FpFormat::Single)) else { panic!("{name} lowers") };
        let mut worst = 0f64;
        // Exponent fields: the smallest normal, around 1, and the largest
        // the analysis admits (|x| < 2^126 for the reciprocal).
        for exponent in [1u32, 2, 100, 127, 128, 251, 252] {
            for bucket in 0..256u32 {
                for low in [0u32, 0x7fff] {
                    for sign in [0u32, 0x8000_0000] {
                        if root && sign != 0 {
                            continue;
                        }
                        let bits = sign | exponent << 23 | bucket << 15 | low;
                        let mut w = Assignment::default();
                        w.fresh.insert(id, bits as u128);
                        let e = f32::from_bits(evaluate(&p, r[0], &w) as u32) as f64;
                        let v = f32::from_bits(bits) as f64;
                        let err = if root { (e * v.sqrt() - 1.0).abs() } else { (e * v - 1.0).abs() };
                        worst = worst.max(err);
                    }
                }
            }
        }
        assert!(worst <= bound, "{name}: {worst} above {bound}");
        assert!(worst >= 0.97 * bound, "{name}: {worst} far below {bound}");
    }
}
