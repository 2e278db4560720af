//! Native replay inside `check`: a finding is `confirmed` only when its
//! witness, run natively on the same build (this CPU, or qemu-aarch64),
//! shows it; a witness the CPU does not reproduce leaves it unconfirmed;
//! with `--no-replay` it is `confirmed-by-model`. And the false
//! confirmations that native replay exposed, each kept as an answer: the
//! RCPPS/RSQRTPS model is exact where the hardware is, a witness that
//! rests on an estimate is never confirmed by the model, and check and
//! replay compare NaNs by one rule.

mod common;

use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    common::repo().join("tests/fixtures/replay").join(name)
}

/// `symcross check` of a fixture with `extra` flags: exit status and JSON.
fn check(name: &str, extra: &[&str]) -> (i32, serde_json::Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let f = fixture(name);
    let mut args = vec!["check", f.to_str().unwrap(), "--json", report.to_str().unwrap()];
    args.extend_from_slice(extra);
    let run = common::symcross(&args);
    let json = serde_json::from_str(&std::fs::read_to_string(&report).unwrap_or_default()).unwrap_or(serde_json::Value::Null);
    (run.code, json, format!("{}\n{}", run.stdout, run.stderr))
}

/// qemu-aarch64 and the AArch64 C library; required under CI=true.
fn have_qemu() -> bool {
    let ok = std::process::Command::new("qemu-aarch64").arg("--version").output().map(|o| o.status.success()).unwrap_or(false)
        && std::path::Path::new("/usr/aarch64-linux-gnu/lib").is_dir();
    if !ok {
        common::skip_or_fail_under_ci("native_replay", "qemu-aarch64 or the AArch64 C library is missing");
    }
    ok
}

#[test]
fn a_reproduced_finding_is_confirmed_and_counted() {
    let (code, json, out) = check("sized_mismatch.c", &["-D", "N=4"]);
    assert_eq!(code, 1, "{out}");
    let f = &json["findings"][0];
    assert_eq!(f["status"], "confirmed", "{f:#}");
    assert_eq!(f["native"]["outcome"], "reproduced", "{f:#}");
    assert_eq!(f["native"]["on"], "this CPU", "{f:#}");
    assert_eq!(json["native_replay"]["reproduced"], 1, "{json:#}");
    assert_eq!(json["native_replay"]["not_reproduced"], 0, "{json:#}");
    assert!(out.contains("reproduced on this CPU: mismatch at sized_mismatch.c:16"), "{out}");
    assert!(out.contains("native replay (this CPU): 1 reproduced, 0 not reproduced"), "{out}");
}

#[test]
fn without_replay_a_finding_is_confirmed_by_the_model_only() {
    let (code, json, out) = check("sized_mismatch.c", &["-D", "N=4", "--no-replay"]);
    assert_eq!(code, 1, "{out}");
    let f = &json["findings"][0];
    assert_eq!(f["status"], "confirmed-by-model", "{f:#}");
    assert_eq!(f["native"]["outcome"], "not-run", "{f:#}");
    assert_eq!(json["native_replay"]["confirmed_by_model"], 1, "{json:#}");
    assert!(out.contains("error: mismatch (confirmed by the model only)"), "{out}");
}

/// RSQRTPS against 1/sqrtf through `assert(memcmp(...) == 0)`: the
/// witness is not a zero (where both are +inf), it runs through the
/// estimate, and the CPU shows the failure, so it is confirmed.
#[test]
fn rsqrt_against_one_over_sqrt_is_confirmed_by_the_cpu_on_a_nonzero_witness() {
    let (code, json, out) = check("rsqrt_assert_memcmp.c", &[]);
    assert_eq!(code, 1, "{out}");
    let f = &json["findings"][0];
    assert_eq!(f["status"], "confirmed", "{f:#}");
    assert_eq!(f["native"]["outcome"], "reproduced", "{f:#}");
    let v = f["witness"]["v"].as_str().unwrap();
    assert_ne!(&v[..8], "00000000", "{f:#}");
}

/// Zeros, infinities, NaNs and negative numbers: RCPPS and RSQRTPS are
/// exact there, in the model as on the CPU.
#[test]
fn rcp_and_rsqrt_are_exact_on_special_inputs() {
    let (code, json, out) = check("rcp_rsqrt_special.c", &[]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(json["verdict"], "equivalent", "{json:#}");
}

/// |x * rcp(x) - 1| <= 0.001 holds on the CPU for x in [1, 2]: the model's
/// witness rests on its unconstrained estimate, so it is unconfirmed, and
/// the native run says the CPU does not reproduce it.
#[test]
fn an_assertion_broken_only_by_the_estimate_is_never_confirmed() {
    let (code, json, out) = check("rcp_relative_error.c", &[]);
    assert_eq!(code, 3, "{out}");
    let f = &json["findings"][0];
    assert_eq!(f["status"], "unconfirmed", "{f:#}");
    assert!(f["message"].as_str().unwrap().contains("approximate operation"), "{f:#}");
    assert_eq!(f["native"]["outcome"], "not-reproduced", "{f:#}");
    assert_eq!(json["verdict"], "inconclusive", "{json:#}");
}

/// A NaN copied from the input against the same NaN with its sign
/// flipped, in float buffers: equal under --nan equal (as replay compares
/// them), a reproduced difference under --nan exact.
#[test]
fn copied_nans_compare_by_the_rule_replay_uses() {
    let (code, json, out) = check("nan_copied_sign_flip.c", &[]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(json["verdict"], "equivalent", "{json:#}");
    let (code, json, out) = check("nan_copied_sign_flip.c", &["--nan", "exact"]);
    assert_eq!(code, 1, "{out}");
    let f = &json["findings"][0];
    assert_eq!(f["status"], "confirmed", "{f:#}");
    assert_eq!(f["expressions"]["nans_equal"], false, "{f:#}");
    assert_eq!(f["native"]["outcome"], "reproduced", "{f:#}");
}

/// x * 1 against x differs only in NaN bits: equal under --nan equal.
#[test]
fn a_difference_of_nan_bits_alone_is_no_finding() {
    let (code, json, out) = check("nan_times_one.c", &[]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(json["verdict"], "equivalent", "{json:#}");
}

/// FMIN of a value with itself only quiets a signalling NaN: both sides
/// are NaN, equal under --nan equal.
#[test]
fn fmin_of_itself_is_equal_under_the_nan_rule() {
    if !have_qemu() {
        return;
    }
    let (code, json, out) = check("neon_min_self.c", &["--target", "aarch64"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(json["verdict"], "equivalent", "{json:#}");
}

/// The FMIN port of _mm_min_ps against the scalar select: a real
/// difference, whose witness (never two NaNs) qemu-aarch64 reproduces.
#[test]
fn the_fmin_port_differs_on_a_witness_qemu_reproduces() {
    if !have_qemu() {
        return;
    }
    let (code, json, out) = check("neon_min_port.c", &["--target", "aarch64"]);
    assert_eq!(code, 1, "{out}");
    let f = &json["findings"][0];
    assert_eq!(f["status"], "confirmed", "{f:#}");
    assert_eq!(f["native"]["outcome"], "reproduced", "{f:#}");
    assert_eq!(f["native"]["on"], "qemu-aarch64", "{f:#}");
}

/// An assertion whose failing path the solver cannot decide within its
/// work budget: unconfirmed, labelled with the step that stopped and why.
#[test]
fn an_undecided_assertion_says_why() {
    let (code, json, out) = check("undecided_assert.c", &["--fp-solver-budget", "1000"]);
    assert_eq!(code, 3, "{out}");
    let f = &json["findings"][0];
    assert_eq!(f["status"], "unconfirmed", "{f:#}");
    assert_eq!(f["decided_by"], "solver-unknown", "{f:#}");
    let m = f["message"].as_str().unwrap();
    assert!(m.contains("could not decide whether the path to it is feasible (the solver's work budget"), "{m}");
    assert!(out.contains("decided by: no solver answer (not confirmed)"), "{out}");
}

#[test]
fn every_witness_of_a_run_is_replayed_by_one_batch() {
    // Aborts and an AddressSanitizer stop among the runs: each witness runs
    // in a child of its own, so every finding is judged on its own run.
    let (code, json, out) = check("mixed_findings.c", &[]);
    assert_eq!(code, 1, "{out}");
    let findings = json["findings"].as_array().unwrap();
    let seen: Vec<(&str, u64)> = findings.iter().map(|f| (f["kind"].as_str().unwrap(), f["location"]["line"].as_u64().unwrap())).collect();
    assert_eq!(seen, [("mismatch", 15), ("out-of-bounds", 17), ("mismatch", 20), ("mismatch", 23)], "{out}");
    for f in findings {
        assert_eq!(f["status"], "confirmed", "{f:#}");
        assert_eq!(f["native"]["outcome"], "reproduced", "{f:#}");
    }
    assert!(findings[1]["native"]["detail"].as_str().unwrap().contains("AddressSanitizer: heap-buffer-overflow"), "{out}");
    assert!(findings[2]["native"]["detail"].as_str().unwrap().contains("left = 0x0000003c, right = 0x0000003d"), "{out}");
    assert_eq!(json["native_replay"]["reproduced"], 4, "{json:#}");
}

/// Every witness of a run is replayed by one process: each run's parent
/// is one and the same process, and it runs the harness's own build (with
/// a process per witness, the parent would be symcross itself).
#[test]
fn the_batch_replay_starts_one_process_per_run() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("parents.txt");
    let f = fixture("one_process.c");
    let run = common::symcross_in(
        dir.path(),
        &[("SYMCROSS_TEST_PARENT_LOG", log.to_str().unwrap())],
        &["check", f.to_str().unwrap(), "--json", "-"],
    );
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let json = run.json.as_ref().expect("JSON report");
    assert_eq!(json["native_replay"]["reproduced"], 3, "{json:#}");
    let text = std::fs::read_to_string(&log).expect("each run logs its parent");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "one line per witness: {text}");
    assert!(lines.iter().all(|l| l.ends_with(" same")), "the parent runs the harness's build: {text}");
    assert!(lines.iter().all(|l| *l == lines[0]), "one parent for every run: {text}");
}

/// A failing assertion shows what its comparison compared, under the
/// witness: both operands and the comparison that fails.
#[test]
fn a_failing_assertion_shows_its_compared_values() {
    let (code, json, out) = check("assert_values.c", &[]);
    assert_eq!(code, 1, "{out}");
    let e = &json["findings"][0]["expressions"];
    assert_eq!(e["condition"], "left > right, or either is NaN", "{e:#}");
    assert_eq!(e["element_type"], "float", "{e:#}");
    let (l, r) = (e["left_value"].as_str().unwrap(), e["right_value"].as_str().unwrap());
    assert!(r.starts_with("1.5f"), "{e:#}");
    let left: f32 = l.split('f').next().unwrap().parse().unwrap();
    assert!(left > 1.5, "the witness breaks the bound: {e:#}");
    assert!(out.contains("(the assertion fails where left > right, or either is NaN)"), "{out}");
}

/// A failing assertion whose condition is a chain of `&&` and `||` shows
/// the comparison that fails under the witness (the first link here),
/// at -O0 (a select, after if-conversion) and at -O2 (one `and` of both
/// links; before, no values at all).
#[test]
fn a_failing_chain_of_conditions_shows_the_comparison_that_fails() {
    for flags in [&[][..], &["--cflags", "-O2"][..]] {
        let (code, json, out) = check("assert_and_values.c", flags);
        assert_eq!(code, 1, "{out}");
        let e = &json["findings"][0]["expressions"];
        assert_eq!(e["condition"], "left >= right", "{e:#}");
        let value = |k: &str| {
            let v = e[k].as_str().unwrap_or_else(|| panic!("{k}: {e:#}"));
            let parsed = match v.strip_prefix("0x") {
                Some(hex) => i64::from_str_radix(hex, 16).ok(),
                None => v.parse().ok(),
            };
            parsed.unwrap_or_else(|| panic!("{k} = {v}"))
        };
        assert_eq!(value("right_value"), 50, "{e:#}");
        assert!((50..100).contains(&value("left_value")), "a = left breaks `a < 50`: {e:#}");
    }
}

/// An unconfirmed assertion (its path runs through an estimate) shows the
/// model's values of its comparison, in the report and beside the CPU's.
#[test]
fn an_unconfirmed_assertion_shows_the_model_values_of_its_comparison() {
    let (code, json, out) = check("rcp_relative_error.c", &[]);
    assert_eq!(code, 3, "{out}");
    let f = &json["findings"][0];
    assert_eq!(f["status"], "unconfirmed", "{f:#}");
    assert!(f["expressions"]["left_value"].is_string() && f["expressions"]["right_value"].is_string(), "{f:#}");
    assert!(f["native"]["model"].as_str().is_some_and(|m| m.starts_with("left = ")), "{f:#}");
}

/// Under --target aarch64 no sanitizer exists, but the replay build puts
/// heap blocks on guard pages: a read past a block, and a read of a freed
/// one, fault under qemu-aarch64 and are reproduced; the fixed twin has
/// no finding.
#[test]
fn aarch64_heap_errors_are_reproduced_on_guard_pages() {
    if !have_qemu() {
        return;
    }
    for (name, kind) in [("aarch64_heap_overflow.c", "out-of-bounds"), ("aarch64_use_after_free.c", "use-after-free")] {
        let (code, json, out) = check(name, &["--target", "aarch64"]);
        assert_eq!(code, 1, "{name}: {out}");
        let f = &json["findings"][0];
        assert_eq!(f["kind"], kind, "{name}: {f:#}");
        assert_eq!(f["status"], "confirmed", "{name}: {f:#}");
        assert_eq!(f["native"]["outcome"], "reproduced", "{name}: {f:#}");
        assert_eq!(json["native_replay"]["on"], "qemu-aarch64", "{name}: {json:#}");
    }
    let (code, json, out) = check("aarch64_heap_overflow.c", &["--target", "aarch64", "-D", "LIMIT=6"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(0), "{out}");
}

/// Blocks from posix_memalign and aligned_alloc end on a guard page too:
/// a read past either is reproduced under qemu, and the twin reading
/// within them has no finding.
#[test]
fn aarch64_aligned_heap_blocks_end_on_guard_pages() {
    if !have_qemu() {
        return;
    }
    let (code, json, out) = check("aarch64_aligned_overflow.c", &["--target", "aarch64"]);
    assert_eq!(code, 1, "{out}");
    let findings = json["findings"].as_array().expect("findings");
    let lines: Vec<u64> = findings.iter().map(|f| f["location"]["line"].as_u64().unwrap_or(0)).collect();
    assert!(lines.contains(&27) && lines.contains(&29), "both blocks: {out}");
    for f in findings {
        assert_eq!(f["kind"], "out-of-bounds", "{f:#}");
        assert_eq!(f["native"]["outcome"], "reproduced", "{f:#}");
    }
    let (code, json, out) = check("aarch64_aligned_overflow.c", &["--target", "aarch64", "-D", "LIMIT=16"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(0), "{out}");
}

/// The replay executable is built once per content: a second `check` of
/// the same harness takes it from the cache (no clang or linker runs,
/// `native_replay.build_cached`) and still reproduces the finding; a
/// changed header (found through clang's dependency file) or a changed
/// `-D` builds it again.
#[test]
fn a_warm_replay_takes_its_executable_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let header = dir.path().join("bad_value.h");
    std::fs::write(&header, "#define BAD 200\n").unwrap();
    let harness = dir.path().join("cached.c");
    std::fs::write(
        &harness,
        "#include \"symcross.h\"\n#include \"bad_value.h\"\nint main(void) {\n  unsigned char in[N], a[N], b[N];\n  \
         symcross_make_symbolic(in, sizeof in, \"in\");\n  for (int i = 0; i < N; i++) {\n    a[i] = in[i] / 2;\n    \
         b[i] = in[i] == BAD ? 0 : in[i] >> 1;\n  }\n  symcross_check_equal(a, b, 1, N, \"halves\");\n  return 0;\n}\n",
    )
    .unwrap();
    let run = |n: &str| {
        let out = common::symcross_in(
            dir.path(),
            &[("SYMCROSS_CACHE_DIR", cache.to_str().unwrap())],
            &["check", "cached.c", "-D", n, "--json", "-"],
        );
        let json = out.json.clone().unwrap_or_else(|| panic!("no JSON report:\n{}\n{}", out.stdout, out.stderr));
        assert_eq!(json["native_replay"]["reproduced"], 1, "{json:#}");
        (json["native_replay"]["build_cached"].as_bool().expect("build_cached"), out.stdout)
    };
    assert!(!run("N=2").0, "the first run builds");
    let (cached, text) = run("N=2");
    assert!(cached, "the second run takes the executable from the cache");
    assert!(text.contains("(executable from the cache)") || !text.contains("native replay"), "{text}");
    std::fs::write(&header, "#define BAD 100\n").unwrap();
    assert!(!run("N=2").0, "a changed header builds again");
    assert!(run("N=2").0);
    assert!(!run("N=3").0, "another -D builds again");
}

/// C++'s `new[]` under --target aarch64: the model checks it as malloc
/// (`operator new` is a block of the C heap), and the replay build's
/// operator new ends the block on a guard page, so qemu-aarch64 faults
/// on the witness and the read past it is reproduced; the fixed twin has
/// no finding. Before, the call to `operator new[]` was unsupported.
#[test]
fn aarch64_blocks_from_new_end_on_guard_pages() {
    if !have_qemu() {
        return;
    }
    let (code, json, out) = check("aarch64_new_overflow.cc", &["--target", "aarch64"]);
    assert_eq!(code, 1, "{out}");
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "out-of-bounds", "{f:#}");
    assert_eq!(f["location"]["line"], 19, "{f:#}");
    assert_eq!(f["native"]["outcome"], "reproduced", "{f:#}");
    assert_eq!(f["native"]["on"], "qemu-aarch64", "{f:#}");
    let (code, json, out) = check("aarch64_new_overflow.cc", &["--target", "aarch64", "-D", "LIMIT=16"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(0), "{out}");
}

/// A finding on a block from C++'s `new` names the user's `new` line as
/// where the block was allocated, not the runtime model's call to malloc
/// inside `operator new[]` (it said `libcxx_new.c:11`).
#[test]
fn a_block_from_new_is_named_after_the_users_new_line() {
    let (code, json, out) = check("aarch64_new_overflow.cc", &["--no-replay"]);
    assert_eq!(code, 1, "{out}");
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "out-of-bounds", "{f:#}");
    let msg = f["message"].as_str().unwrap_or("");
    assert!(msg.contains("heap object `heap block allocated at aarch64_new_overflow.cc:14`"), "{f:#}");
}
