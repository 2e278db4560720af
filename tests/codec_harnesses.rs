//! Codec-class routines of harnesses/codec/ (transforms, distortion
//! metrics, fixed-point filters, each SSE2/SSE4.1 code against the C
//! reference a codec library would write): equal ones are proved, broken
//! ones are refuted with a witness that reproduces on the CPU. The equal
//! transforms and metrics are decided by the integer normal form without
//! a solver query (the solver alone times out on them).
//!
//! Every limit here is a count (the solver's work units inside the
//! ladder); `--max-time` is only a backstop far above what a run takes.

mod common;

use std::path::{Path, PathBuf};

fn harness(name: &str) -> PathBuf {
    common::repo().join("harnesses/codec").join(name)
}

fn cflags(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).expect("read harness");
    text.lines().find_map(|l| l.trim().strip_prefix("// cflags:").map(|s| s.trim().to_string()))
}

/// Checks `name` (its `// expect:` line decides the verdict) and returns
/// the JSON report.
fn check(name: &str, report: &Path) -> serde_json::Value {
    let path = harness(name);
    let p = path.to_str().expect("utf-8 path");
    let rp = report.to_str().expect("utf-8 path");
    let flags = cflags(&path);
    let mut args = vec!["check", p, "--json", rp, "--max-time", "300"];
    if let Some(f) = flags.as_deref() {
        args.extend(["--cflags", f]);
    }
    let mut run = common::symcross(&args);
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(rp).expect("report written")).expect("JSON report");
    run.json = Some(json.clone());
    if let Err(e) = common::verify(&path, &run) {
        panic!("{e}");
    }
    json
}

/// Proved by the normal form: every check canonical, none by the solver.
/// (The solver may still be asked whether the C reference's `int` sums
/// can overflow, the undefined-behaviour test, which is not a check.)
fn proved_by_normal_form(name: &str) {
    let report = tempfile::NamedTempFile::new().unwrap();
    let json = check(name, report.path());
    let decided = &json["stats"]["decided"];
    assert!(decided["canonical"].as_u64().unwrap_or(0) > 0, "{name}: {json:#}");
    for step in ["bit_precise", "sampling", "implied_query"] {
        assert_eq!(decided[step], 0, "{name}: {step}: {json:#}");
    }
}

/// Refuted with a confirmed witness, which replays on the CPU.
fn refuted_and_reproduced(name: &str) {
    let path = harness(name);
    let report = tempfile::NamedTempFile::new().unwrap();
    let json = check(name, report.path());
    let finding = json["findings"].as_array().and_then(|f| f.iter().find(|x| x["kind"] == "mismatch")).cloned().expect("a mismatch");
    assert_eq!(finding["status"], "confirmed", "{name}: {json:#}");
    assert!(finding["witness"].is_object(), "{name}: {json:#}");
    let (p, rp) = (path.to_str().unwrap(), report.path().to_str().unwrap());
    let mut args = vec!["replay", p, rp];
    let flags = cflags(&path);
    if let Some(f) = flags.as_deref() {
        args.extend(["--cflags", f]);
    }
    let replay = common::symcross(&args);
    assert_eq!(replay.code, 1, "{name}: the witness did not reproduce:\n{}\n{}", replay.stdout, replay.stderr);
}

#[test]
fn sum_of_squared_errors_is_proved() {
    proved_by_normal_form("sse4x4.c");
}

#[test]
fn sum_of_squared_errors_broken_is_refuted() {
    refuted_and_reproduced("sse4x4_broken.c");
}

#[test]
fn forward_transform_is_proved() {
    proved_by_normal_form("fdct4x4.c");
}

#[test]
fn forward_transform_broken_is_refuted() {
    refuted_and_reproduced("fdct4x4_broken.c");
}

/// Needs the path's 12-bit bounds: without them the 16-bit lanes could
/// overflow where the int reference does not.
#[test]
fn inverse_transform_of_12_bit_coefficients_is_proved() {
    proved_by_normal_form("idct4x4.c");
}

/// A byte clamp written with a mask test (`(v & ~0xff) == 0 ? v : ...`)
/// meets PACKUSWB's saturation in the normal form, with no query.
#[test]
fn clamp_by_mask_meets_the_saturating_pack() {
    proved_by_normal_form("clip_by_mask.c");
}

#[test]
fn inverse_transform_broken_is_refuted() {
    refuted_and_reproduced("idct4x4_broken.c");
}

#[test]
fn bounded_fir_is_proved() {
    let report = tempfile::NamedTempFile::new().unwrap();
    check("fir_bounded.c", report.path());
}

/// The same filter on any 16-bit input overflows its 32-bit lanes.
#[test]
fn unbounded_fir_differs() {
    refuted_and_reproduced("fir_any.c");
}

/// |x| written as PMAXSW(x, 0 - x) on 16-bit lanes meets the C `abs` of
/// the int reference in the normal form.
#[test]
fn hadamard_distortion_is_proved() {
    proved_by_normal_form("hadamard4x4.c");
}

#[test]
fn hadamard_distortion_broken_is_refuted() {
    refuted_and_reproduced("hadamard4x4_broken.c");
}

#[test]
fn alpha_premultiply_is_proved() {
    proved_by_normal_form("alpha_multiply.c");
}

#[test]
fn alpha_premultiply_broken_is_refuted() {
    refuted_and_reproduced("alpha_multiply_broken.c");
}

/// Signed-byte products shifted right by 5, in 16-bit lanes against int.
#[test]
fn colour_transform_inverse_is_proved() {
    proved_by_normal_form("colour_inverse.c");
}

#[test]
fn colour_transform_inverse_broken_is_refuted() {
    refuted_and_reproduced("colour_inverse_broken.c");
}

/// 64 squares and cross products per statistic, PSADBW and PMADDWD.
#[test]
fn ssim_window_statistics_are_proved() {
    proved_by_normal_form("ssim_stats.c");
}

#[test]
fn ssim_window_statistics_broken_are_refuted() {
    refuted_and_reproduced("ssim_stats_broken.c");
}

/// |x - y| of bytes as two saturating differences ORed, against abs() of
/// ints, summed over four channels and compared with 0.
#[test]
fn select_predictor_is_proved() {
    proved_by_normal_form("predictor_select.c");
}

#[test]
fn select_predictor_broken_is_refuted() {
    refuted_and_reproduced("predictor_select_broken.c");
}

/// `(x * 85627) >> 16` on int against PMULHW plus x, the coefficients
/// bounded with `&&`: the bounds on the path rule the int products'
/// overflow out, so the run asks no solver query at all (before, each
/// product's overflow went to the solver and stayed undecided).
#[test]
fn bounded_rotation_needs_no_overflow_query() {
    let report = tempfile::NamedTempFile::new().unwrap();
    let json = check("mulhi_rotation.c", report.path());
    assert_eq!(json["stats"]["queries"], 0, "{json:#}");
    assert_eq!(json["findings"].as_array().map_or(0, |f| f.len()), 0, "{json:#}");
}

/// The same on any 16-bit coefficient: the int product overflows, found
/// with a witness UBSan reproduces.
#[test]
fn unbounded_rotation_overflows() {
    let report = tempfile::NamedTempFile::new().unwrap();
    let json = check("mulhi_rotation_unbounded.c", report.path());
    let findings = json["findings"].as_array().cloned().unwrap_or_default();
    let ub = findings.iter().find(|f| f["kind"] == "undefined-behaviour").unwrap_or_else(|| panic!("{json:#}"));
    assert_eq!(ub["undefined_behaviour"], "signed-overflow", "{json:#}");
    assert_eq!(ub["status"], "confirmed", "{json:#}");
    assert_eq!(ub["native"]["outcome"], "reproduced", "{json:#}");
}

#[test]
fn every_harness_is_tested() {
    let this = std::fs::read_to_string(common::repo().join("tests/codec_harnesses.rs")).unwrap();
    for e in std::fs::read_dir(common::repo().join("harnesses/codec")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(this.contains(&format!("\"{name}\"")), "harnesses/codec/{name} is not tested here");
    }
}

/// A dead-zone quantizer with its end of block: the C reference's
/// backward scan guards every element (a select chain over all later
/// coefficients) and its forward loop keeps the last nonzero position,
/// the SSE2 code masks each lane with its own zero-bin test and takes a
/// maximum of lane indices. Every element is decided by evaluating every
/// value of the coefficient it reads once the scan's guards are dropped,
/// and the end of block by abstracting each coefficient's conditions to
/// the combinations its 2^16 values give them; the solver alone times out
/// on the quantizer's multiplies.
#[test]
fn quantization_with_end_of_block_is_proved_element_by_element() {
    let report = tempfile::NamedTempFile::new().unwrap();
    let json = check("quantize_eob.c", report.path());
    let decided = &json["stats"]["decided"];
    assert_eq!(decided["element_evaluation"], 9, "{json:#}");
    assert_eq!(decided["bit_precise"], 0, "{json:#}");
    assert_eq!(json["findings"].as_array().map_or(0, |f| f.len()), 0, "{json:#}");
}

/// The SSE2 zero-bin mask off by one: a coefficient of exactly the zero
/// bin is dropped; refuted with a witness the CPU reproduces.
#[test]
fn quantization_with_the_zero_bin_off_by_one_is_refuted() {
    refuted_and_reproduced("quantize_eob_broken.c");
}

/// A coefficient of -32768 allowed: the SSE2 code's 16-bit absolute value
/// drops it; the evaluation of that coefficient's values finds it, and
/// the witness reproduces.
#[test]
fn quantization_of_minus_32768_is_refuted() {
    refuted_and_reproduced("quantize_eob_any_input.c");
}
