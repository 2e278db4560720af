//! Lane symmetry (src/check/lane_symmetry.rs): an alpha blend whose pixels
//! all run the same formula costs one pixel's proof whatever the number
//! of pixels, counted in solver queries; its broken twin, whose pixel 5
//! alone differs, is still refuted at pixel 5 with a witness the CPU
//! reproduces.

mod common;

use serde_json::Value;

fn run(file: &str, extra: &[&str]) -> Value {
    let path = common::repo().join("harnesses/simd").join(file);
    let mut args = vec!["check", path.to_str().expect("utf-8 path"), "--json", "-", "--max-time", "300"];
    args.extend_from_slice(extra);
    let run = common::symcross(&args);
    run.json.unwrap_or_else(|| panic!("no JSON report (exit {}): {}\n{}", run.code, run.stdout, run.stderr))
}

fn decided(report: &Value, step: &str) -> u64 {
    report["stats"]["decided"][step].as_u64().unwrap_or_else(|| panic!("no decided.{step} in {}", report["stats"]))
}

#[test]
fn sixteen_symmetric_pixels_cost_the_queries_of_eight() {
    let eight = run("alpha_blend.c", &["--cflags", "-DPIXELS=8"]);
    let sixteen = run("alpha_blend.c", &[]);
    for (report, pixels) in [(&eight, 8), (&sixteen, 16)] {
        assert_eq!(report["verdict"], "equivalent", "{report}");
        // One pixel goes to the solver; every other one reuses its proof.
        assert_eq!(decided(report, "bit_precise"), 1, "{}", report["stats"]);
        assert_eq!(decided(report, "lane_symmetry"), pixels - 1, "{}", report["stats"]);
    }
    let queries = |r: &Value| r["stats"]["queries"].as_u64().expect("query count");
    assert_eq!(queries(&sixteen), queries(&eight), "twice the pixels, the same solver queries");
}

#[test]
fn the_broken_pixel_is_refuted_among_symmetric_ones() {
    let report = run("alpha_blend_broken.c", &[]);
    assert_eq!(report["verdict"], "findings", "{report}");
    let finding = &report["findings"][0];
    assert_eq!(finding["status"], "confirmed", "{finding}");
    let message = finding["message"].as_str().expect("message");
    assert!(message.contains("element 5 of 16"), "{message}");
    let differing = &finding["expressions"]["differing"]["elements"];
    assert_eq!(differing.as_array().map(|d| d.len()), Some(1), "{differing}");
    assert_eq!(differing[0]["index"], 5, "{differing}");
    // Pixels 0 to 4 were proved, the first by the solver, the rest by
    // renaming; the witness reproduces on this CPU.
    assert_eq!(decided(&report, "lane_symmetry"), 4, "{}", report["stats"]);
    assert_eq!(finding["native"]["outcome"], "reproduced", "{finding}");
}
