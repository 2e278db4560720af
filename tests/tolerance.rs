//! Tolerance checks (`symcross_check_close`, `--tolerance`, `--plot`):
//! known-answer pairs of harnesses/tolerance/, one proved within its bound
//! and one that exceeds it, with the worst input reported and the
//! excess reproduced natively; the error plot read back as XML.

mod common;
use common::{repo, symcross};
use std::process::Command;

fn harness(name: &str) -> String {
    repo().join("harnesses/tolerance").join(name).display().to_string()
}

#[test]
fn exact_scaling_is_proved_within_zero_ulps() {
    let run = symcross(&["check", &harness("scaled_by_powers_of_two.c"), "--json", "-"]);
    let json = run.json.as_ref().unwrap_or_else(|| panic!("no report: {}", run.stderr));
    assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
    let t = &json["tolerance"][0];
    assert_eq!(t["verdict"], "within-bound");
    assert_eq!(t["decided_by"], "bit-precise");
    assert_eq!(t["tolerance"], "ulp:0");
    assert_eq!(t["worst"]["ulps"], 0);
    assert_eq!(t["proved_max"], 0.0);
}

#[test]
fn an_inexact_scaling_exceeds_zero_ulps_and_the_cpu_reproduces_it() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("error.svg");
    let run = symcross(&["check", &harness("scaled_by_three_broken.c"), "--plot", svg.to_str().unwrap(), "--json", "-"]);
    let json = run.json.as_ref().unwrap_or_else(|| panic!("no report: {}", run.stderr));
    assert_eq!(json["verdict"], "findings", "{}", run.stdout);
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "mismatch");
    assert_eq!(f["status"], "confirmed");
    assert!(f["message"].as_str().unwrap().contains("exceeds ulp:0"), "{}", f["message"]);
    assert_eq!(f["native"]["outcome"], "reproduced", "{f}");
    let t = &json["tolerance"][0];
    assert_eq!(t["verdict"], "exceeds");
    assert!(t["worst"]["ulps"].as_u64().unwrap() >= 1, "{t}");
    assert_eq!(t["plotted_input"], "x");
    let x = t["worst"]["input"].as_f64().unwrap();
    assert!((1.0..2.0).contains(&x), "the worst input lies in the assumed range: {x}");
    assert!(!t["samples"].as_array().unwrap().is_empty());
    // The plot is well-formed XML with one mark per sample and the worst input marked.
    let check = "import sys, xml.etree.ElementTree as E\n\
                 root = E.parse(sys.argv[1]).getroot()\n\
                 marks = [c.get('class') for c in root.iter('{http://www.w3.org/2000/svg}circle')]\n\
                 print(marks.count('sample'), marks.count('worst'))";
    let out = Command::new("python3").args(["-c", check, svg.to_str().unwrap()]).output().expect("python3 runs");
    assert!(out.status.success(), "the SVG does not parse: {}", String::from_utf8_lossy(&out.stderr));
    let counts = String::from_utf8_lossy(&out.stdout);
    let samples = t["samples"].as_array().unwrap().len();
    assert_eq!(counts.trim(), format!("{samples} 1"));
}

#[test]
fn the_tolerance_flag_applies_to_check_equal_of_floats() {
    let run = symcross(&["check", &harness("equal_under_tolerance_flag.c"), "--tolerance", "ulp:0", "--json", "-"]);
    let json = run.json.as_ref().unwrap_or_else(|| panic!("no report: {}", run.stderr));
    assert_eq!(json["verdict"], "findings");
    assert_eq!(json["tolerance"][0]["verdict"], "exceeds");
    assert_eq!(json["tolerance"][0]["tolerance"], "ulp:0");
    assert_eq!(json["tolerance"][0]["worst"]["ulps"], 1);
}

#[test]
fn a_malformed_tolerance_is_a_usage_error() {
    let run = symcross(&["check", &harness("equal_under_tolerance_flag.c"), "--tolerance", "ulp:1.5"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("whole number of ulps"), "{}", run.stderr);
}
