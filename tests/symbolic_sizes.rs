//! Sizes that depend on the input: every feasible size is explored on its
//! own path, and a size with too many values says which were not explored
//! instead of being fixed silently.

mod common;

#[test]
fn memcpy_of_a_symbolic_size_explores_every_size() {
    common::check_fixture("tests/fixtures/sizes/memcpy_symbolic_size.c", &[]);
    let path = common::repo().join("tests/fixtures/sizes/memcpy_symbolic_size.c");
    let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
    let json = run.json.expect("report");
    let f = &json["findings"][0];
    assert_eq!(f["status"], "confirmed", "{json:#}");
    // The witness is the size that breaks the copy: n = 3, little-endian.
    assert_eq!(f["witness"]["n"], "03000000", "{json:#}");
}

#[test]
fn malloc_of_a_symbolic_size_finds_the_small_sizes() {
    common::check_fixture("tests/fixtures/sizes/malloc_symbolic_size.c", &[]);
}

#[test]
fn a_size_with_too_many_values_is_reported() {
    let path = common::repo().join("tests/fixtures/sizes/unbounded_size.c");
    let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
    let json = run.json.unwrap_or_else(|| panic!("{}\n{}", run.stdout, run.stderr));
    let findings = json["findings"].as_array().expect("findings");
    let unexplored = findings
        .iter()
        .find(|f| f["kind"] == "unsupported" && f["message"].as_str().unwrap_or("").contains("were not explored"))
        .unwrap_or_else(|| panic!("no note about unexplored sizes: {json:#}"));
    assert!(unexplored["message"].as_str().unwrap().contains("memset"), "{json:#}");
    assert_ne!(json["verdict"], "equivalent", "{json:#}");
    assert_ne!(run.code, 0, "{json:#}");
}

#[test]
fn a_variable_length_array_is_one_path_per_length_with_no_false_bound() {
    common::check_fixture("tests/fixtures/sizes/vla_pulse_search.c", &[]);
    let path = common::repo().join("tests/fixtures/sizes/vla_pulse_search.c");
    let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
    let json = run.json.unwrap_or_else(|| panic!("{}\n{}", run.stdout, run.stderr));
    assert_eq!(json["verdict"], "equivalent", "{json:#}");
    // One path per length 1..8.
    assert_eq!(json["stats"]["paths"], 8, "{json:#}");
}

#[test]
fn a_read_past_a_variable_length_array_is_a_confirmed_out_of_bounds() {
    common::check_fixture("tests/fixtures/sizes/vla_read_past_end.c", &[]);
    let path = common::repo().join("tests/fixtures/sizes/vla_read_past_end.c");
    let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
    let json = run.json.unwrap_or_else(|| panic!("{}\n{}", run.stdout, run.stderr));
    let f = json["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "out-of-bounds").expect("an out-of-bounds finding");
    assert_eq!(f["status"], "confirmed", "{json:#}");
    assert!(f["message"].as_str().unwrap().contains("outside stack object"), "{json:#}");
}
