//! Decisions that scale and never depend on the clock: floating-point
//! reductions of realistic length under `--assume associativity`, fast
//! witnesses for real mismatches, honest statuses under assumptions, and
//! buffer comparisons with memcmp. Harnesses: harnesses/reductions/ and
//! tests/fixtures/reductions/.

mod common;

use serde_json::Value;

const REORDER: &str = "associativity,positive-zero,ordered";

fn run(path: &str, extra: &[&str]) -> Value {
    let full = common::repo().join(path);
    let mut args = vec!["check", full.to_str().unwrap(), "--json", "-"];
    args.extend_from_slice(extra);
    let run = common::symcross(&args);
    run.json.unwrap_or_else(|| panic!("no report for {path} {extra:?}: {}\n{}", run.stdout, run.stderr))
}

fn verdict(report: &Value) -> &str {
    report["verdict"].as_str().unwrap_or("")
}

fn first_finding(report: &Value) -> (&str, &str) {
    let f = &report["findings"][0];
    (f["status"].as_str().unwrap_or(""), f["decided_by"].as_str().unwrap_or(""))
}

/// Each reduction is proved equal to its serial reference at every size,
/// and the variant that drops one term is refuted with a confirmed witness
/// found by sampling (no solver needed).
#[test]
fn reductions_are_proved_and_dropped_terms_refuted() {
    for (harness, flags) in
        [("harnesses/reductions/sum_sse.c", ""), ("harnesses/reductions/dot_avx.c", "-mavx"), ("harnesses/reductions/sum_pairwise.c", "")]
    {
        for n in ["8", "64", "1024"] {
            let define = format!("N={n}");
            let report = run(harness, &["-D", &define, "--cflags", flags, "--assume", REORDER]);
            assert_eq!(verdict(&report), "equivalent", "{harness} N={n}: {report:#}");
            let report = run(harness, &["-D", &define, "-D", "DROP", "--cflags", flags, "--assume", REORDER]);
            assert_eq!(verdict(&report), "findings", "{harness} N={n} DROP: {report:#}");
            assert_eq!(first_finding(&report), ("confirmed", "sampling"), "{harness} N={n} DROP: {report:#}");
        }
    }
}

/// Real rounding differences get their witness from sampling.
#[test]
fn real_mismatches_are_found_by_sampling() {
    for (fixture, extra) in [
        ("regrouped_product.c", vec![]),
        ("squared_distance.c", vec![]),
        ("double_accumulator.c", vec![]),
        ("fused_multiply_add.c", vec!["--cflags", "-mfma -ffp-contract=off", "--assume", "all"]),
    ] {
        let path = format!("tests/fixtures/reductions/{fixture}");
        let report = run(&path, &extra);
        assert_eq!(verdict(&report), "findings", "{fixture}: {report:#}");
        assert_eq!(first_finding(&report), ("confirmed", "sampling"), "{fixture}: {report:#}");
    }
}

/// Regroupings are equal under associativity, and the report says so when
/// they are refuted without it.
#[test]
fn regroupings_are_equal_under_associativity() {
    for fixture in ["regrouped_product.c", "squared_distance.c"] {
        let path = format!("tests/fixtures/reductions/{fixture}");
        let report = run(&path, &[]);
        let under = report["findings"][0]["expressions"]["equal_under"].to_string();
        assert!(under.contains("associativity"), "{fixture}: {report:#}");
        let report = run(&path, &["--assume", "associativity"]);
        assert_eq!(verdict(&report), "equivalent", "{fixture}: {report:#}");
    }
}

/// A solver witness is not a refutation under associativity when the
/// difference may vanish under another grouping: a double accumulator
/// against float partial sums differs only by rounding, which a witness of
/// exact small integers cannot show.
#[test]
fn solver_witnesses_under_associativity_stay_unconfirmed() {
    // A work budget, not a time limit, bounds the one bit-precise query, so
    // the answer is the same on a busy machine (about 2 s idle).
    let report = run(
        "tests/fixtures/reductions/double_accumulator.c",
        &["--assume", "all", "--fp-solver-budget", "2000000", "--query-timeout", "300"],
    );
    let f = &report["findings"][0];
    assert_eq!(f["status"], "unconfirmed", "{report:#}");
    assert!(f["message"].as_str().unwrap_or("").contains("reassociation"), "{report:#}");
}

/// Without positive-zero, `0 + v0 + ... + v7` and the tree sum differ for
/// all -0 inputs in every grouping: a confirmed finding under associativity
/// alone, and its witness respects the (empty) restrictions.
#[test]
fn exact_witnesses_confirm_under_associativity() {
    let report = run("harnesses/paper/sum_reduction.c", &["--assume", "associativity"]);
    assert_eq!(verdict(&report), "findings", "{report:#}");
    assert_eq!(first_finding(&report).0, "confirmed", "{report:#}");
    // Under ordered, no witness may hold a NaN.
    let report =
        run("tests/fixtures/reductions/regrouped_product.c", &["--assume", "ordered", "--sample-trials", "0", "--query-timeout", "300"]);
    let witness = report["findings"][0]["witness"].clone();
    for name in ["k", "t"] {
        let hex = witness[name].as_str().unwrap_or_else(|| panic!("witness {name}: {report:#}"));
        for word in hex.as_bytes().chunks(8) {
            let text = std::str::from_utf8(word).unwrap();
            let bits = u32::from_str_radix(text, 16).unwrap().swap_bytes();
            assert!(!f32::from_bits(bits).is_nan(), "NaN in a witness under ordered: {report:#}");
        }
    }
}

/// memcmp of two buffers costs about what symcross_check_equal costs: the
/// chunks the ladder proves equal drop out of the comparison.
#[test]
fn memcmp_decides_whole_chunks() {
    let report = run("tests/fixtures/reductions/doubled_memcmp.c", &[]);
    assert_eq!(verdict(&report), "equivalent", "{report:#}");
    let queries = report["stats"]["queries"].as_u64().unwrap_or(u64::MAX);
    assert!(queries <= 64, "one query at most per 16-byte chunk, got {queries}: {report:#}");
    let report = run("tests/fixtures/reductions/doubled_memcmp.c", &["-D", "BROKEN"]);
    assert_eq!(verdict(&report), "findings", "{report:#}");
    let report = run("tests/fixtures/reductions/select_memcmp.c", &[]);
    assert_eq!(verdict(&report), "equivalent", "{report:#}");
}

/// The verdict never depends on the machine's load: the same report (but
/// for times) while every core is kept busy.
#[test]
fn verdicts_do_not_depend_on_load() {
    let quiet = run("harnesses/paper/sum_reduction.c", &["--assume", REORDER]);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get()) * 2;
    let busy: Vec<_> = (0..cores)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    let loaded: Vec<Value> = (0..3).map(|_| run("harnesses/paper/sum_reduction.c", &["--assume", REORDER])).collect();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for t in busy {
        t.join().unwrap();
    }
    let strip = |mut r: Value| {
        r["stats"]["seconds"] = Value::Null;
        r
    };
    for r in loaded {
        assert_eq!(strip(r), strip(quiet.clone()));
    }
}
