//! Every shape of comparison is decided by the same ladder as
//! `symcross_check_equal`: bits copied into integers (memcpy, a union, a
//! pointer cast) and compared with `==`, `memcmp`, a float `==` per
//! element, and values read back from an OpenCL kernel. A real difference
//! gets a confirmed witness from sampling, with no solver query; a
//! regrouping is proved under the assumptions that allow it, again with no
//! solver query. Fixtures: tests/fixtures/shapes/.

mod common;

use serde_json::Value;

fn run(fixture: &str, extra: &[&str]) -> Value {
    let path = common::repo().join("tests/fixtures/shapes").join(fixture);
    let mut args = vec!["check", path.to_str().unwrap(), "--json", "-"];
    args.extend_from_slice(extra);
    let run = common::symcross(&args);
    run.json.unwrap_or_else(|| panic!("no report for {fixture} {extra:?}: {}\n{}", run.stdout, run.stderr))
}

fn queries(report: &Value) -> u64 {
    report["stats"]["queries"].as_u64().expect("a query count")
}

/// A confirmed mismatch found by sampling, without a solver query; the
/// report's first finding.
fn sampled_witness<'r>(report: &'r Value, what: &str) -> &'r Value {
    assert_eq!(report["verdict"], "findings", "{what}: {report:#}");
    let f = &report["findings"][0];
    assert_eq!(f["kind"], "mismatch", "{what}: {report:#}");
    assert_eq!(f["status"], "confirmed", "{what}: {report:#}");
    assert_eq!(f["decided_by"], "sampling", "{what}: {report:#}");
    assert!(f["witness"].is_object(), "{what}: {report:#}");
    assert_eq!(queries(report), 0, "{what}: {report:#}");
    &f["witness"]
}

/// Proved equivalent without a solver query.
fn proved(report: &Value, what: &str) {
    assert_eq!(report["verdict"], "equivalent", "{what}: {report:#}");
    assert_eq!(queries(report), 0, "{what}: {report:#}");
}

/// Proved by the normal form: the failing side of the assertion was ruled
/// out by it, and the summary counts that check as canonical.
fn proved_in_normal_form(report: &Value, what: &str) {
    proved(report, what);
    assert_eq!(report["stats"]["decided"]["canonical"], 1, "{what}: {report:#}");
}

/// The floats of a witness array (hex bytes, little-endian).
fn floats(witness: &Value, name: &str) -> Vec<f32> {
    let hex = witness[name].as_str().unwrap_or_else(|| panic!("no `{name}` in {witness:#}"));
    let bytes: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
    bytes.chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// A serial sum against SSE partial sums, compared on the bits through
/// memcpy, a union and a pointer cast, by assert or abort: a witness
/// without assumptions, proved under associativity and positive-zero as
/// through `symcross_check_equal`, and a dropped term still refuted there.
#[test]
fn bits_of_a_sum_compared_as_integers() {
    for copy in [&[][..], &["-D", "UNION"], &["-D", "POINTER"], &["-D", "ABORT"]] {
        let what = format!("sum_bits_memcpy.c {copy:?}");
        sampled_witness(&run("sum_bits_memcpy.c", copy), &what);
        let mut assumed = copy.to_vec();
        assumed.extend(["--assume", "associativity,positive-zero"]);
        proved_in_normal_form(&run("sum_bits_memcpy.c", &assumed), &what);
    }
    let report = run("sum_bits_memcpy.c", &["-D", "DROP", "--assume", "associativity,positive-zero"]);
    sampled_witness(&report, "sum_bits_memcpy.c DROP");
}

/// A double-precision reference rounded once against float SSE arithmetic,
/// compared with memcmp under every assumption: the witness is a real
/// difference on the CPU (this process computes both sides).
#[test]
fn double_reference_against_float_simd_by_memcmp() {
    let report = run("double_weights_memcmp.c", &["--assume", "all"]);
    let w = sampled_witness(&report, "double_weights_memcmp.c");
    let (a, b) = (floats(w, "a"), floats(w, "b"));
    let differs = a.iter().zip(&b).any(|(a, b)| {
        let reference = (*a as f64 * 0.5 + *b as f64 * 0.25) as f32;
        let simd = a * 0.5 + b * 0.25;
        reference.to_bits() != simd.to_bits()
    });
    assert!(differs, "the witness a = {a:?}, b = {b:?} does not differ: {report:#}");
}

/// A fused multiply-add against separate roundings, compared with memcmp
/// under every assumption: a real difference.
#[test]
fn fused_against_separate_rounding_by_memcmp() {
    let report = run("fused_memcmp.c", &["--cflags", "-mfma -ffp-contract=off", "--assume", "all"]);
    let w = sampled_witness(&report, "fused_memcmp.c");
    let (a, b, c) = (floats(w, "a"), floats(w, "b"), floats(w, "c"));
    let differs = (0..4).any(|i| a[i].mul_add(b[i], c[i]).to_bits() != (a[i] * b[i] + c[i]).to_bits());
    assert!(differs, "the witness a = {a:?}, b = {b:?}, c = {c:?} does not differ: {report:#}");
}

/// A float `==` per element in a loop: a witness without assumptions; the
/// regrouped products meet in normal form, and the assertion holds once
/// NaN (unequal to itself) is excluded.
#[test]
fn float_equality_per_element() {
    let report = run("elementwise_float_eq.c", &[]);
    assert_eq!(report["verdict"], "findings", "{report:#}");
    assert_eq!(report["findings"][0]["status"], "confirmed", "{report:#}");
    let report = run("elementwise_float_eq.c", &["--assume", "associativity,ordered"]);
    proved(&report, "elementwise ordered");
    assert_eq!(report["stats"]["decided"]["canonical"], 4, "one check per element: {report:#}");
    // Without `ordered`, a NaN input fails the assertion in every grouping:
    // never proved.
    let report = run("elementwise_float_eq.c", &["--assume", "associativity", "--query-timeout", "30"]);
    assert_ne!(report["verdict"], "equivalent", "{report:#}");
}

/// A kernel's result read back with clEnqueueReadBuffer and compared on the
/// bytes in the host: a witness without assumptions, proved under
/// associativity.
#[test]
fn kernel_result_read_back_by_memcmp() {
    sampled_witness(&run("ocl_distance_memcmp.c", &[]), "ocl_distance_memcmp.c");
    proved(&run("ocl_distance_memcmp.c", &["--assume", "associativity"]), "ocl_distance_memcmp.c associativity");
}

/// A tree reduction in __local memory read back and compared with the
/// serial sum on the bits: proved under associativity and positive-zero;
/// without positive-zero all -0 inputs give -0 against the serial +0, in
/// every grouping, so the witness confirms under associativity alone.
#[test]
fn tree_reduction_read_back_on_the_bits() {
    proved_in_normal_form(
        &run("ocl_tree_reduction_bits.c", &["--assume", "associativity,positive-zero"]),
        "tree associativity,positive-zero",
    );
    let report = run("ocl_tree_reduction_bits.c", &["--assume", "associativity"]);
    let w = sampled_witness(&report, "tree associativity");
    assert!(floats(w, "in").iter().all(|x| x.to_bits() == 0x8000_0000), "all -0 is the only witness: {report:#}");
    sampled_witness(&run("ocl_tree_reduction_bits.c", &[]), "tree");
}
