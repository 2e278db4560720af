//! Undefined behaviour is a finding (README, "Undefined behaviour"): a
//! shift by the width or more, signed overflow of `+ - *`, INT_MIN / -1
//! and a float-to-integer conversion out of range are
//! `undefined-behaviour` findings whose witness UndefinedBehaviorSanitizer
//! reproduces (through `symcross replay`), and nothing is proved through
//! them. Each fixture in tests/fixtures/undefined/ has a fixed twin that is
//! equivalent. At -O2 clang leaves poison in vector lanes an x86
//! instruction never reads: the result lanes stay defined.

mod common;

use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    common::repo().join("tests/fixtures/undefined").join(name)
}

/// The `// cflags:` line of a fixture, if any.
fn cflags(path: &std::path::Path) -> Option<String> {
    let text = std::fs::read_to_string(path).expect("read fixture");
    text.lines().find_map(|l| l.trim().strip_prefix("// cflags:").map(|s| s.trim().to_string()))
}

/// `symcross check` of a fixture with its own flags plus `extra` (which,
/// when it has `--cflags`, replaces them), JSON on stdout.
fn check(name: &str, extra: &[&str]) -> common::Run {
    let path = fixture(name);
    let p = path.to_str().expect("utf-8 path").to_string();
    let flags = cflags(&path);
    let mut args: Vec<&str> = vec!["check", &p, "--json", "-"];
    if !extra.contains(&"--cflags") {
        if let Some(f) = flags.as_deref() {
            args.extend(["--cflags", f]);
        }
    }
    args.extend_from_slice(extra);
    common::symcross(&args)
}

/// Checks a fixture against its `// expect:` line.
fn known_answer(name: &str, extra: &[&str]) {
    let run = check(name, extra);
    if let Err(e) = common::verify(&fixture(name), &run) {
        panic!("{e}");
    }
}

macro_rules! known_answers {
    ($($test:ident => $file:expr),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                known_answer($file, &[]);
            }
        )*
    };
}

known_answers!(
    shift_by_the_width_is_undefined => "shift_sllv_bound.c",
    shift_guarded_below_the_width_is_equivalent => "shift_sllv_bound_fixed.c",
    signed_overflow_is_undefined => "signed_overflow.c",
    unsigned_wrap_is_equivalent => "signed_overflow_fixed.c",
    division_of_min_by_minus_one_is_undefined => "division_overflow.c",
    division_without_minus_one_is_equivalent => "division_overflow_fixed.c",
    float_cast_out_of_range_is_undefined => "float_cast.c",
    float_cast_in_range_is_equivalent => "float_cast_fixed.c",
    psllw_reads_only_the_low_count_quadword => "psllw_count_o2.c",
    cvttsd2si_reads_only_lane_zero => "cvttsd2si_o2.c",
    left_shift_of_a_negative_int_is_undefined => "left_shift_negative.c",
    left_shift_of_the_same_bits_as_unsigned_is_equivalent => "left_shift_negative_fixed.c",
    kept_nuw_nsw_and_exact_promises_are_equivalent => "promises_kept.ll",
    abs_of_int_min_is_undefined => "abs_int_min.c",
    abs_negated_as_unsigned_is_equivalent => "abs_int_min_fixed.c",
    clz_of_zero_is_undefined => "clz_of_zero.c",
    clz_with_zero_handled_is_equivalent => "clz_of_zero_fixed.c",
    broken_or_disjoint_is_undefined => "disjoint_broken.ll",
    kept_or_disjoint_is_equivalent => "disjoint_kept.ll",
    broken_cast_promises_are_undefined => "cast_promises_broken.ll",
    kept_cast_promises_are_equivalent => "cast_promises_kept.ll",
    cast_promises_clang_writes_at_o2_hold_on_clamped_values => "cast_promises_o2.c",
    a_square_widened_with_zext_nneg_at_o2_overflows => "cast_promises_o2_broken.c",
    overflow_in_a_host_programs_kernel_is_undefined => "kernel_signed_overflow_host.c",
    wrapping_unsigned_product_in_a_kernel_is_equivalent => "kernel_signed_overflow_host_fixed.c",
    a_pointer_moved_out_of_its_array_and_back_is_undefined => "gep_moved_back.c",
    the_same_element_by_its_index_is_equivalent => "gep_moved_back_fixed.c",
    a_pointer_stepped_past_one_past_the_end_is_undefined => "gep_stride_past_end.c",
    the_same_stride_by_index_is_equivalent => "gep_stride_past_end_fixed.c",
    end_pointers_and_backward_loops_are_no_finding => "gep_idioms.c",
    a_read_past_the_end_stays_out_of_bounds => "gep_read_past_end.c",
    a_pointer_out_of_its_array_passed_to_printf_is_undefined => "gep_passed_to_printf.c",
    broken_gep_nuw_is_undefined => "gep_nuw_broken.ll",
    kept_gep_nuw_is_no_finding => "gep_nuw_kept.ll",
    conditional_negation_of_a_widened_value_is_equivalent => "conditional_negation.c",
    a_variance_of_saturated_byte_differences_is_equivalent => "saturating_difference_variance.c",
    a_variance_of_any_16_bit_values_overflows => "saturating_difference_variance_any.c",
);

/// An `inbounds` address computation that leaves its object is the
/// finding, at the GEP, whatever uses it: a read after moving the pointer
/// back inside, a comparison with the end. Confirmed by the model only
/// (UBSan tests no object bounds of pointer arithmetic), with the witness
/// that breaks the rule; -O0 and -O2 alike.
#[test]
fn pointer_arithmetic_out_of_its_object_is_found_at_the_gep() {
    for opt in ["-O0", "-O2"] {
        // Fixture, line of the GEP, input, the use, whether a value breaks it.
        type Case = (&'static str, u64, &'static str, &'static str, fn(u32) -> bool);
        let cases: [Case; 2] = [
            ("gep_moved_back.c", 13, "k", "the address of a load", |k| (5..8).contains(&k)),
            ("gep_stride_past_end.c", 10, "n", "a branch condition", |n| n == 5),
        ];
        for (name, line, input, use_, breaks) in cases {
            let f = undefined_finding(&check(name, &["--cflags", opt]));
            assert_eq!(f["undefined_behaviour"], "out-of-bounds-pointer-arithmetic", "{opt} {name}: {f:#}");
            assert_eq!(f["location"]["line"], line, "{opt} {name}: at the GEP: {f:#}");
            assert_eq!(f["status"], "confirmed-by-model", "{opt} {name}: {f:#}");
            assert!(f["message"].as_str().unwrap_or("").contains("one past its end"), "{f:#}");
            assert!(f["related"][0]["message"].as_str().unwrap_or("").contains(use_), "{opt} {name}: the use is named: {f:#}");
            assert!(f["native"]["detail"].as_str().unwrap_or("").contains("pointer-overflow"), "{opt} {name}: why not replayed: {f:#}");
            let v = words(f["witness"][input].as_str().unwrap_or_else(|| panic!("{input} in the witness: {f:#}")))[0];
            assert!(breaks(v), "{opt} {name}: {input} = {v} keeps the pointer inside");
        }
    }
}

/// The finding of a run, which must be the only one and of kind
/// `undefined-behaviour`.
fn undefined_finding(run: &common::Run) -> serde_json::Value {
    let json = run.json.as_ref().unwrap_or_else(|| panic!("no JSON report:\n{}\n{}", run.stdout, run.stderr));
    let findings = json["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 1, "one finding: {findings:#?}");
    let f = findings[0].clone();
    assert_eq!(f["kind"], "undefined-behaviour", "{f:#}");
    f
}

/// Lanes (32-bit, little-endian) of a witness input given as hex bytes.
fn words(hex: &str) -> Vec<u32> {
    let bytes: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")).collect();
    bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

#[test]
fn the_shift_finding_names_the_operation_its_use_and_a_count_of_32() {
    let f = undefined_finding(&check("shift_sllv_bound.c", &[]));
    assert_eq!(f["status"], "confirmed");
    assert_eq!(f["undefined_behaviour"], "shift-out-of-range");
    assert_eq!(f["location"]["line"], 15, "at the shift: {f:#}");
    assert!(f["message"].as_str().unwrap().contains("by 32 or more"), "{f:#}");
    assert!(f["related"][0]["message"].as_str().unwrap().contains("`sllv`"), "the use is named: {f:#}");
    // Only a count of exactly 32 gets past the guard `> 32`.
    let cnt = words(f["witness"]["cnt"].as_str().expect("cnt in the witness"));
    assert!(cnt.contains(&32), "a lane of the count is 32: {cnt:?}");
}

#[test]
fn at_o2_the_speculated_shift_is_undefined_only_where_the_guard_lets_it_through() {
    let f = undefined_finding(&check("shift_sllv_bound.c", &["--cflags", "-mavx2 -O2"]));
    assert_eq!(f["undefined_behaviour"], "shift-out-of-range");
    let run = check("shift_sllv_bound_fixed.c", &["--cflags", "-mavx2 -O2"]);
    assert_eq!(run.json.as_ref().map(|j| j["verdict"].clone()), Some("equivalent".into()), "{}\n{}", run.stdout, run.stderr);
}

#[test]
fn each_kind_of_undefined_operation_is_named() {
    for (name, kind) in
        [("signed_overflow.c", "signed-overflow"), ("division_overflow.c", "division-overflow"), ("float_cast.c", "float-cast-overflow")]
    {
        let f = undefined_finding(&check(name, &[]));
        assert_eq!(f["undefined_behaviour"], kind, "{name}: {f:#}");
        assert_eq!(f["status"], "confirmed", "{name}: {f:#}");
    }
}

#[test]
fn signed_overflow_at_o2_is_found_in_the_vectorised_loop() {
    let f = undefined_finding(&check("signed_overflow.c", &["--cflags", "-O2"]));
    assert_eq!(f["undefined_behaviour"], "signed-overflow");
    let run = check("signed_overflow_fixed.c", &["--cflags", "-O2"]);
    assert_eq!(run.json.as_ref().map(|j| j["verdict"].clone()), Some("equivalent".into()), "{}\n{}", run.stdout, run.stderr);
}

/// Every undefined-behaviour witness, replayed on the CPU with
/// UndefinedBehaviorSanitizer, shows the same undefined operation.
#[test]
fn undefined_behaviour_witnesses_replay_under_ubsan() {
    for name in ["shift_sllv_bound.c", "signed_overflow.c", "division_overflow.c", "float_cast.c"] {
        let dir = tempfile::tempdir().expect("temporary directory");
        let report = dir.path().join("report.json");
        let path = fixture(name);
        let p = path.to_str().unwrap().to_string();
        let r = report.to_str().unwrap().to_string();
        let flags = cflags(&path);
        let mut args: Vec<&str> = vec!["check", &p, "--json", &r];
        if let Some(f) = flags.as_deref() {
            args.extend(["--cflags", f]);
        }
        let run = common::symcross(&args);
        assert_eq!(run.code, 1, "{name}: {}\n{}", run.stdout, run.stderr);
        let replay = common::symcross(&["replay", &r]);
        assert_eq!(replay.code, 1, "{name}: replay reproduces: {}\n{}", replay.stdout, replay.stderr);
        assert!(
            replay.stdout.contains("reproduced on the CPU: undefined-behaviour") && replay.stdout.contains("UndefinedBehaviorSanitizer"),
            "{name}: {}",
            replay.stdout
        );
    }
}

#[test]
fn sarif_has_a_rule_for_undefined_behaviour() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let sarif = dir.path().join("r.sarif");
    let path = fixture("signed_overflow.c");
    let run = common::symcross(&["check", path.to_str().unwrap(), "--sarif", sarif.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let log: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&sarif).expect("sarif written")).expect("JSON");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(results.iter().any(|r| r["ruleId"] == "undefined-behaviour"), "{results:#?}");
    let rules = log["runs"][0]["tool"]["driver"]["rules"].as_array().expect("rules");
    assert!(rules.iter().any(|r| r["id"] == "undefined-behaviour"), "{rules:#?}");
}

/// C's `<<` of a negative `int` (or one whose bits reach the sign bit)
/// is undefined although the IR's `shl` has no flag for it: the finding
/// is at the shift, and UndefinedBehaviorSanitizer reproduces it.
#[test]
fn a_left_shift_of_a_negative_value_is_found_at_the_shift_and_reproduced() {
    let f = undefined_finding(&check("left_shift_negative.c", &[]));
    assert_eq!(f["undefined_behaviour"], "left-shift-overflow", "{f:#}");
    assert_eq!(f["location"]["line"], 13, "at the shift: {f:#}");
    assert_eq!(f["status"], "confirmed", "{f:#}");
    assert_eq!(f["native"]["outcome"], "reproduced", "{f:#}");
    assert!(f["native"]["detail"].as_str().unwrap().contains("left shift of"), "{f:#}");
    // Some lane of the witness has one of its top five bits set.
    let x = words(f["witness"]["x"].as_str().expect("x in the witness"));
    assert!(x.iter().any(|v| v >> 27 != 0), "{x:?}");
}

/// Each promise the compiler writes on an integer operation (`add nuw`,
/// `shl nsw`, `lshr exact`, `udiv exact`), when an input breaks it, is a
/// finding of its own kind at its own line: the result is poison there.
#[test]
fn every_broken_promise_of_the_ir_is_undefined() {
    let run = check("promises_broken.ll", &["--no-replay"]);
    let json = run.json.as_ref().unwrap_or_else(|| panic!("no JSON report:\n{}\n{}", run.stdout, run.stderr));
    assert_eq!(json["verdict"], "findings", "{}", run.stdout);
    let seen: Vec<(u64, &str)> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| (f["location"]["line"].as_u64().unwrap(), f["undefined_behaviour"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(
        seen,
        [(36, "unsigned-wrap"), (39, "left-shift-overflow"), (42, "inexact-division"), (45, "inexact-division")],
        "{}",
        run.stdout
    );
}

/// Poison stored to memory and loaded back keeps its origin: the finding
/// names the shift that made it, with the branch that used it as a note.
#[test]
fn poison_through_memory_names_the_operation_that_made_it() {
    let f = undefined_finding(&check("poison_through_memory.c", &[]));
    assert_eq!(f["undefined_behaviour"], "shift-out-of-range", "{f:#}");
    assert_eq!(f["location"]["line"], 8, "at the shift: {f:#}");
    assert_eq!(f["related"][0]["location"]["line"], 16, "the use: {f:#}");
}

/// A poison value that never decides anything is no finding: the guarded
/// shift's result is thrown away by the select when the count is too big.
#[test]
fn a_discarded_poison_is_no_finding() {
    let run = check("shift_sllv_bound_fixed.c", &[]);
    let json = run.json.as_ref().expect("JSON");
    assert_eq!(json["verdict"], "equivalent", "{}\n{}", run.stdout, run.stderr);
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(0));
}

fn aarch64_tools_present() -> bool {
    let qemu = std::process::Command::new("qemu-aarch64").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    let present = qemu && std::path::Path::new("/usr/aarch64-linux-gnu/lib").is_dir();
    if !present {
        common::skip_or_fail_under_ci(
            "aarch64_cast_values_match_qemu",
            "qemu-aarch64 or the AArch64 C library is missing (scripts/setup.sh installs them)",
        );
    }
    present
}

#[test]
fn an_aarch64_float_cast_out_of_range_is_undefined() {
    let f = undefined_finding(&check("float_cast_aarch64.c", &["--target", "aarch64"]));
    assert_eq!(f["undefined_behaviour"], "float-cast-overflow", "{f:#}");
}

/// The value symcross gives a C cast whose input is NaN or out of range,
/// under `--target aarch64`, is what FCVTZS gives under qemu (0 for NaN,
/// saturation), not x86's INT32_MIN.
#[test]
fn aarch64_cast_values_match_qemu() {
    if !aarch64_tools_present() {
        return;
    }
    use symcross::expr::{ExprPool, FpFormat, IntRounding};
    let inputs: [f32; 7] = [f32::NAN, 3e9, -3e9, 2147483648.0, -2147483904.0, f32::INFINITY, -1.5];
    let dir = tempfile::tempdir().expect("temporary directory");
    let src = dir.path().join("casts.c");
    let exe = dir.path().join("casts");
    let list: Vec<String> = inputs.iter().map(|x| format!("0x{:08x}u", x.to_bits())).collect();
    std::fs::write(
        &src,
        format!(
            "#include <stdio.h>\n#include <stdint.h>\n#include <string.h>\n\
             int main(void) {{ static volatile uint32_t in[] = {{{}}};\n\
             for (unsigned i = 0; i < sizeof in / sizeof in[0]; i++) {{ uint32_t b = in[i]; float x; memcpy(&x, &b, 4);\n\
             printf(\"%u %u\\n\", (unsigned)(int32_t)x, (unsigned)(uint32_t)x); }} return 0; }}\n",
            list.join(", ")
        ),
    )
    .unwrap();
    let built = std::process::Command::new("clang-19")
        .args(["--target=aarch64-linux-gnu", "-O0", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .expect("run clang-19");
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let out = std::process::Command::new("qemu-aarch64").args(["-L", "/usr/aarch64-linux-gnu"]).arg(&exe).output().expect("run qemu");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut p = ExprPool::new();
    let mut differs_from_x86 = false;
    for (x, line) in inputs.iter().zip(text.lines()) {
        let cpu: Vec<u128> = line.split(' ').map(|v| v.parse().expect("number")).collect();
        let c = p.constant(32, x.to_bits() as u128);
        for (signed, want) in [(true, cpu[0]), (false, cpu[1])] {
            let model = symcross::neon::saturating_to_int(&mut p, FpFormat::Single, signed, c, 32);
            assert_eq!(p.as_const(model), Some(want), "({}) {x} under qemu", if signed { "int32_t" } else { "uint32_t" });
            let x86 = p.fp_to_int(signed, IntRounding::TowardZero, FpFormat::Single, c, 32);
            differs_from_x86 |= p.as_const(x86) != Some(want);
        }
    }
    assert_eq!(text.lines().count(), inputs.len(), "{text}");
    assert!(differs_from_x86, "the inputs tell AArch64 from x86");
}

/// The flags of `llvm.abs` (`abs(INT_MIN)`) and `llvm.ctlz`
/// (`__builtin_clz(0)`) make the special operand poison: each is a finding
/// at the call, of its own kind, whose witness is that operand and which
/// UndefinedBehaviorSanitizer reproduces on the CPU.
#[test]
fn abs_of_the_minimum_and_clz_of_zero_are_found_and_reproduced() {
    for (name, kind, line, detail) in
        [("abs_int_min.c", "signed-overflow", 15, "negation of"), ("clz_of_zero.c", "invalid-builtin-use", 12, "passing zero to")]
    {
        let f = undefined_finding(&check(name, &[]));
        assert_eq!(f["undefined_behaviour"], kind, "{name}: {f:#}");
        assert_eq!(f["location"]["line"], line, "{name}: at the call: {f:#}");
        assert_eq!(f["status"], "confirmed", "{name}: {f:#}");
        assert_eq!(f["native"]["outcome"], "reproduced", "{name}: {f:#}");
        assert!(f["native"]["detail"].as_str().unwrap_or("").contains(detail), "{name}: {f:#}");
        let x = words(f["witness"]["x"].as_str().expect("x in the witness"));
        let special = if kind == "signed-overflow" { 0x8000_0000 } else { 0 };
        assert!(x.contains(&special), "{name}: {x:?}");
    }
}

/// A broken `or disjoint` (an optimiser's promise that no bit is set in
/// both operands) is a `broken-promise` finding at the `or`, confirmed
/// by the model only: UBSan has no test of it.
#[test]
fn a_broken_or_disjoint_is_a_broken_promise() {
    let f = undefined_finding(&check("disjoint_broken.ll", &[]));
    assert_eq!(f["undefined_behaviour"], "broken-promise", "{f:#}");
    assert_eq!(f["location"]["line"], 29, "at the `or`: {f:#}");
    assert_eq!(f["status"], "confirmed-by-model", "{f:#}");
    let (x, y) = (words(f["witness"]["a"].as_str().expect("a")), words(f["witness"]["b"].as_str().expect("b")));
    assert_ne!(x[0] & y[0], 0, "a bit set in both: {x:?} {y:?}");
}

/// The promises clang -O2 writes on casts (`trunc nuw`/`nsw`, `zext
/// nneg`, `uitofp nneg`), each broken by some input: a `broken-promise`
/// finding at each cast, confirmed by the model only (UBSan has no test
/// of them), whose witness breaks that promise.
#[test]
fn broken_cast_promises_are_found_at_each_cast() {
    let run = check("cast_promises_broken.ll", &[]);
    let json = run.json.as_ref().unwrap_or_else(|| panic!("no JSON report:\n{}\n{}", run.stdout, run.stderr));
    let findings = json["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 4, "one finding per cast: {findings:#?}");
    // Line, input, a phrase of the message, whether a value breaks it.
    type Case = (u64, &'static str, &'static str, fn(u32) -> bool);
    let cases: [Case; 4] = [
        (64, "a", "`nuw`", |v| v > 0xffff),
        (67, "b", "`nsw`", |v| (v as i32) < -32768 || (v as i32) > 32767),
        (70, "c", "zero extension", |v| (v as i32) < 0),
        (73, "d", "unsigned conversion to float", |v| (v as i32) < 0),
    ];
    for (line, input, says, breaks) in cases {
        let f =
            findings.iter().find(|f| f["location"]["line"] == line).unwrap_or_else(|| panic!("a finding at line {line}: {findings:#?}"));
        assert_eq!(f["kind"], "undefined-behaviour", "{f:#}");
        assert_eq!(f["undefined_behaviour"], "broken-promise", "{f:#}");
        assert_eq!(f["status"], "confirmed-by-model", "{f:#}");
        assert!(f["message"].as_str().unwrap_or("").contains(says), "line {line}: {f:#}");
        let v = words(f["witness"][input].as_str().unwrap_or_else(|| panic!("{input} in the witness: {f:#}")))[0];
        assert!(breaks(v), "line {line}: {input} = {v:#x} keeps the promise");
    }
}

/// At -O2 the square's `zext nneg` carries the product's poison: the
/// finding is the signed overflow at the product, which UBSan reproduces.
#[test]
fn a_widened_overflowing_square_is_a_signed_overflow_at_the_product() {
    let f = undefined_finding(&check("cast_promises_o2_broken.c", &[]));
    assert_eq!(f["undefined_behaviour"], "signed-overflow", "{f:#}");
    assert_eq!(f["location"]["line"], 13, "at the product: {f:#}");
    assert_eq!(f["status"], "confirmed", "{f:#}");
    let x = words(f["witness"]["x"].as_str().expect("x"))[0] as i32;
    assert!(x.unsigned_abs() > 46340, "the square of {x} fits");
}

/// `symcross race` of a kernel: OpenCL C leaves signed overflow undefined,
/// so an `nsw` product whose result decides a branch is a finding at the
/// product; the same product on 64 bits is none.
#[test]
fn signed_overflow_in_a_kernel_is_found_by_race() {
    let run_race = |name: &str| {
        let path = fixture(name);
        common::symcross(&["race", path.to_str().unwrap(), "--local-size", "4", "--num-groups", "1", "--json", "-"])
    };
    let run = run_race("kernel_signed_overflow.cl");
    let f = undefined_finding(&run);
    assert_eq!(f["undefined_behaviour"], "signed-overflow", "{f:#}");
    assert_eq!(f["location"]["line"], 5, "at the product: {f:#}");
    assert_eq!(f["related"][0]["location"]["line"], 6, "the branch it decides: {f:#}");
    assert_eq!(run.code, 1, "{}", run.stdout);
    let fixed = run_race("kernel_signed_overflow_fixed.cl");
    let json = fixed.json.as_ref().expect("JSON");
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(0), "{}\n{}", fixed.stdout, fixed.stderr);
    assert_eq!(fixed.code, 0, "{}", fixed.stdout);
}

/// CUDA device code is C++, whose signed overflow is undefined too: the
/// same finding by `race` of a `.cu` kernel, none for its 64-bit twin.
#[test]
fn signed_overflow_in_a_cuda_kernel_is_found_by_race() {
    let run_race = |name: &str| {
        let path = fixture(name);
        common::symcross(&["race", path.to_str().unwrap(), "--block", "4", "--grid", "1", "--json", "-"])
    };
    let run = run_race("cuda_signed_overflow.cu");
    let f = undefined_finding(&run);
    assert_eq!(f["undefined_behaviour"], "signed-overflow", "{f:#}");
    assert_eq!(f["location"]["line"], 6, "at the product: {f:#}");
    assert_eq!(f["related"][0]["location"]["line"], 7, "the branch it decides: {f:#}");
    assert_eq!(run.code, 1, "{}", run.stdout);
    let fixed = run_race("cuda_signed_overflow_fixed.cu");
    let json = fixed.json.as_ref().unwrap_or_else(|| panic!("JSON:\n{}\n{}", fixed.stdout, fixed.stderr));
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(0), "{}\n{}", fixed.stdout, fixed.stderr);
    assert_eq!(fixed.code, 0, "{}", fixed.stdout);
}

/// In a host program, the overflow is found in the kernel text (where the
/// product is stored to the buffer read back); the kernel runs on pocl,
/// which no sanitizer instruments, so it is confirmed by the model only,
/// and the report says why.
#[test]
fn overflow_in_a_host_programs_kernel_is_confirmed_by_the_model_and_says_why() {
    let f = undefined_finding(&check("kernel_signed_overflow_host.c", &[]));
    assert_eq!(f["undefined_behaviour"], "signed-overflow", "{f:#}");
    assert_eq!(f["status"], "confirmed-by-model", "{f:#}");
    let why = f["native"]["detail"].as_str().unwrap_or("");
    assert!(why.contains("OpenCL kernel") && why.contains("pocl"), "{f:#}");
}

/// Every work-item of 256 can overflow the same `nsw` sum, an address:
/// the finding is reported once, and the items after it ask the solver
/// nothing more about it (before, two queries per item on a growing path).
#[test]
fn a_kernels_overflow_is_asked_of_the_solver_until_found_not_per_item() {
    let path = fixture("kernel_overflow_every_item.cl");
    let run = common::symcross(&["race", path.to_str().unwrap(), "--local-size", "256", "--num-groups", "1", "--json", "-"]);
    let f = undefined_finding(&run);
    assert_eq!(f["undefined_behaviour"], "signed-overflow", "{f:#}");
    assert_eq!(f["location"]["line"], 6, "{f:#}");
    let queries = run.json.as_ref().unwrap()["stats"]["queries"].as_u64().expect("queries");
    assert!(queries < 40, "{queries} solver queries for one operation of 256 work-items");
}

/// Kernels' questions about undefined behaviour have a budget
/// (`--max-undefined-queries`): past it, uses of undefined results are
/// not checked, the limit `undefined-queries` is named and the verdict is
/// inconclusive; with the default budget the same kernel is race-free.
#[test]
fn kernel_undefined_behaviour_questions_have_a_named_budget() {
    let path = fixture("kernel_undefined_budget.cl");
    let race = |extra: &[&str]| {
        let mut args = vec!["race", path.to_str().unwrap(), "--local-size", "4", "--num-groups", "1", "--json", "-"];
        args.extend_from_slice(extra);
        common::symcross(&args)
    };
    let run = race(&["--max-undefined-queries", "2"]);
    let json = run.json.as_ref().unwrap_or_else(|| panic!("no JSON report:\n{}\n{}", run.stdout, run.stderr));
    assert_eq!(json["verdict"], "inconclusive", "{json:#}");
    assert_eq!(json["limit"], "undefined-queries", "{json:#}");
    assert!(run.stdout.contains("--max-undefined-queries 2"), "the budget is named: {}", run.stdout);
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(0), "{json:#}");
    let run = race(&[]);
    let json = run.json.as_ref().unwrap_or_else(|| panic!("no JSON report:\n{}\n{}", run.stdout, run.stderr));
    assert_eq!(json["verdict"], "equivalent", "race-free: {json:#}");
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(0), "{json:#}");
}

/// `race --check-stored-overflow`: a kernel's store of an overflowed
/// product into `__global` memory is a use, a `signed-overflow` finding
/// at the product; without it only its uses in the kernel are.
#[test]
fn a_stored_overflow_is_a_finding_under_check_stored_overflow() {
    let path = fixture("kernel_stored_overflow.cl");
    let race = |extra: &[&str]| {
        let mut args = vec!["race", path.to_str().unwrap(), "--local-size", "4", "--num-groups", "1", "--json", "-"];
        args.extend_from_slice(extra);
        common::symcross(&args)
    };
    let run = race(&["--check-stored-overflow"]);
    let f = undefined_finding(&run);
    assert_eq!(f["undefined_behaviour"], "signed-overflow", "{f:#}");
    assert_eq!(f["location"]["line"], 7, "at the product: {f:#}");
    assert!(f["related"][0]["message"].as_str().unwrap_or("").contains("the value stored into"), "{f:#}");
    assert_eq!(run.code, 1, "{}", run.stdout);
    let run = race(&[]);
    let json = run.json.as_ref().unwrap_or_else(|| panic!("no JSON report:\n{}\n{}", run.stdout, run.stderr));
    assert_eq!(json["findings"].as_array().map(Vec::len), Some(0), "{json:#}");
}

/// The variance's `sse - ((mean * mean) >> 4)` over saturating
/// differences of bytes is settled by the ranges, with no query (the
/// clamps' constants made it a solver question, 2 queries); on any 16-bit
/// values the same `-` overflows, found at its line and confirmed.
#[test]
fn the_variance_overflow_is_settled_by_ranges_and_a_real_one_stays_found() {
    let run = check("saturating_difference_variance.c", &[]);
    let json = run.json.as_ref().unwrap_or_else(|| panic!("no JSON report:\n{}\n{}", run.stdout, run.stderr));
    assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
    assert_eq!(json["stats"]["queries"], 0, "no solver query: {}", run.stdout);
    let f = undefined_finding(&check("saturating_difference_variance_any.c", &[]));
    assert_eq!(f["undefined_behaviour"], "signed-overflow", "{f:#}");
    assert_eq!(f["status"], "confirmed", "{f:#}");
    assert_eq!(f["location"]["line"], 16, "at the `-`: {f:#}");
}
