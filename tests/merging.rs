//! Path merging: per-element branches stay a handful of paths, verdicts do
//! not change with --no-merge, and findings inside merged regions keep
//! their line and witness.

mod common;

fn report(file: &str, extra: &[&str]) -> serde_json::Value {
    let path = common::repo().join(file);
    let mut args = vec!["check", path.to_str().unwrap(), "--json", "-"];
    args.extend_from_slice(extra);
    let run = common::symcross(&args);
    run.json.unwrap_or_else(|| panic!("no report: {}\n{}", run.stdout, run.stderr))
}

#[test]
fn per_element_branches_are_one_path() {
    for n in ["N=64", "N=256"] {
        let j = report("harnesses/zlimit.c", &["-D", n]);
        assert_eq!(j["verdict"], "equivalent", "{j:#}");
        assert_eq!(j["stats"]["paths"], 1, "{n}: {j:#}");
    }
}

#[test]
fn no_merge_gives_the_same_verdicts_at_small_sizes() {
    for file in ["harnesses/zlimit.c", "harnesses/zlimit_broken.c"] {
        let merged = report(file, &["-D", "N=4"]);
        let split = report(file, &["-D", "N=4", "--no-merge"]);
        assert_eq!(merged["verdict"], split["verdict"], "{file}");
        assert!(split["stats"]["paths"].as_u64() > merged["stats"]["paths"].as_u64(), "{file}: {split:#}");
    }
}

#[test]
fn out_of_bounds_inside_a_merged_region_keeps_its_line() {
    let j = report("tests/fixtures/check/merged_region_oob.c", &[]);
    let f = &j["findings"][0];
    assert_eq!(f["kind"], "out-of-bounds", "{j:#}");
    assert_eq!(f["location"]["line"], 10, "{j:#}");
    assert_eq!(f["status"], "confirmed", "{j:#}");
    assert!(j["stats"]["paths"].as_u64().unwrap() <= 32, "{j:#}");
}

#[test]
fn merged_stores_are_exact() {
    // Branches around stores (not if-convertible) merged dynamically: a
    // select of the stored values, checked against a branch-free version.
    let j = report("tests/fixtures/check/branchy_abs_proved.c", &[]);
    assert_eq!(j["verdict"], "equivalent", "{j:#}");
    assert!(j["stats"]["paths"].as_u64().unwrap() <= 2, "{j:#}");
}
