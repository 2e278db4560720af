//! `--sarif` and `--junit` for `check` and `race`, read back by real
//! consumers: the OASIS SARIF 2.1.0 schema (through jsonschema), Microsoft's
//! sarif-tools, and junitparser (tests/ci/consumers.py; scripts/setup.sh
//! installs them from tests/requirements.txt). When they are missing the
//! consumer half of a test is skipped with a message saying so (under CI it
//! fails: set-up installs them).

mod common;

use std::path::Path;
use std::process::Command;

/// What a consumer saw, or None when it is not installed (skipped; a failure under CI).
fn consume(kind: &str, file: &Path) -> Option<serde_json::Value> {
    let script = common::repo().join("tests/ci/consumers.py");
    let out = Command::new("python3").arg(script).arg(kind).arg(file).output().expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.code() == Some(77) {
        common::skip_or_fail_under_ci(&format!("the {kind} consumer"), stdout.trim());
        return None;
    }
    assert!(out.status.success(), "{kind} consumer rejected {}:\n{stdout}\n{}", file.display(), String::from_utf8_lossy(&out.stderr));
    Some(serde_json::from_str(&stdout).expect("consumer output"))
}

/// Runs symcross in the repository root (so paths stay relative) with
/// `--sarif` and `--junit` into a temporary directory.
fn run(args: &[&str]) -> (i32, serde_json::Value, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let sarif = dir.path().join("r.sarif");
    let junit = dir.path().join("r.xml");
    let out = Command::new(env!("CARGO_BIN_EXE_symcross"))
        .current_dir(common::repo())
        .args(args)
        .arg("--sarif")
        .arg(&sarif)
        .arg("--junit")
        .arg(&junit)
        .output()
        .unwrap();
    let log: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&sarif).expect("sarif written")).expect("sarif is JSON");
    let xml = std::fs::read_to_string(&junit).expect("junit written");
    (out.status.code().unwrap_or(-1), log, xml, dir)
}

#[test]
fn a_mismatch_is_one_sarif_error_and_one_junit_failure() {
    let (code, log, xml, dir) = run(&["check", "harnesses/zlimit_broken.c"]);
    assert_eq!(code, 1);
    let results = &log["runs"][0]["results"];
    assert_eq!(results.as_array().unwrap().len(), 1, "{log:#}");
    let r = &results[0];
    assert_eq!(r["ruleId"], "mismatch");
    assert_eq!(r["level"], "error");
    let phys = &r["locations"][0]["physicalLocation"];
    assert_eq!(phys["artifactLocation"]["uri"], "harnesses/zlimit_broken.c");
    assert_eq!(phys["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(phys["region"]["startLine"], 38);
    assert!(r["properties"]["witness"]["src"].as_str().unwrap().starts_with("00000080"), "{r:#}");
    assert_eq!(r["properties"]["status"], "confirmed");
    assert!(xml.contains("<failure"), "{xml}");
    if let Some(seen) = consume("sarif", &dir.path().join("r.sarif")) {
        assert_eq!(seen["tools"], serde_json::json!(["symcross"]));
        assert_eq!(seen["records"][0]["rule"], "mismatch");
        assert_eq!(seen["records"][0]["line"], 38);
        assert_eq!(seen["records"][0]["severity"], "error");
    }
    if let Some(seen) = consume("junit", &dir.path().join("r.xml")) {
        assert_eq!(seen["tests"], 1);
        assert_eq!(seen["failures"], 1);
        let case = &seen["cases"][0];
        assert_eq!(case["name"], "harnesses/zlimit_broken.c");
        assert_eq!(case["classname"], "symcross.check");
        assert_eq!(case["results"][0]["tag"], "failure");
        let text = case["results"][0]["text"].as_str().unwrap();
        assert!(text.contains("harnesses/zlimit_broken.c:38:3: error: mismatch (confirmed)"), "{text}");
        assert!(case["time"].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn an_equivalent_run_has_no_results_and_a_passing_testcase() {
    let (code, log, _, dir) = run(&["check", "harnesses/zlimit.c"]);
    assert_eq!(code, 0);
    assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
    assert_eq!(log["version"], "2.1.0");
    consume("sarif", &dir.path().join("r.sarif"));
    if let Some(seen) = consume("junit", &dir.path().join("r.xml")) {
        assert_eq!((seen["tests"].as_u64(), seen["failures"].as_u64(), seen["errors"].as_u64()), (Some(1), Some(0), Some(0)));
        assert_eq!(seen["cases"][0]["results"], serde_json::json!([]));
    }
}

#[test]
fn a_race_points_at_the_other_access() {
    let (code, log, _, dir) = run(&["race", "tests/fixtures/race/inter_group_race.cl", "--local-size", "8", "--num-groups", "4"]);
    assert_eq!(code, 1);
    let r = &log["runs"][0]["results"][0];
    assert_eq!(r["ruleId"], "race");
    assert_eq!(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "tests/fixtures/race/inter_group_race.cl");
    let related = r["relatedLocations"].as_array().expect("relatedLocations");
    assert!(!related.is_empty());
    assert!(related.iter().all(|l| l["physicalLocation"]["region"]["startLine"].as_u64().unwrap() > 0), "{r:#}");
    assert!(r["partialFingerprints"]["symcrossFinding/v1"].as_str().unwrap().len() == 16);
    consume("sarif", &dir.path().join("r.sarif"));
    if let Some(seen) = consume("junit", &dir.path().join("r.xml")) {
        assert_eq!(seen["cases"][0]["classname"], "symcross.race");
        assert_eq!(seen["failures"], 1);
    }
}

#[test]
fn fingerprints_are_stable_across_runs() {
    let (_, a, _, _d1) = run(&["check", "harnesses/simd/blend_broken.c", "--cflags", "-msse4.1"]);
    let (_, b, _, _d2) =
        run(&["check", "harnesses/simd/blend_broken.c", "--cflags", "-msse4.1", "--seed", "7", "--searcher", "random-path"]);
    let prints = |log: &serde_json::Value| -> Vec<String> {
        let mut v: Vec<String> = log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["partialFingerprints"]["symcrossFinding/v1"].as_str().unwrap().to_string())
            .collect();
        v.sort();
        v
    };
    assert!(!prints(&a).is_empty());
    assert_eq!(prints(&a), prints(&b));
}

#[test]
fn an_inconclusive_run_is_a_junit_error_with_the_reason() {
    // No check is ever reached: inconclusive (README "Reading a report").
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("nocheck.c");
    std::fs::write(&src, "#include <assert.h>\nint main(void) { int x = 1; if (x == 2) assert(x == 3); return 0; }\n").unwrap();
    let (code, log, xml, out) = run(&["check", src.to_str().unwrap()]);
    assert_eq!(code, 3);
    let notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"].as_array().unwrap();
    assert!(notes.iter().any(|n| n["descriptor"]["id"] == "no-check-reached"), "{log:#}");
    assert!(xml.contains("<error type=\"inconclusive\""), "{xml}");
    consume("sarif", &out.path().join("r.sarif"));
    if let Some(seen) = consume("junit", &out.path().join("r.xml")) {
        assert_eq!(seen["errors"], 1);
        assert!(seen["cases"][0]["results"][0]["message"].as_str().unwrap().contains("no path reached a check"));
    }
}
