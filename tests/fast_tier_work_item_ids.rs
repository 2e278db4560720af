//! A work-item's calls of the work-item functions (`get_global_id` and
//! the others) are answered inside the fast tier from its concrete ids
//! (src/exec/engine/fast_concrete/work_item_ids.rs), through the models'
//! hooks, exactly as the general step answers them: every dimension, the
//! out-of-range dimension's 0 or 1, a global offset, a non-uniform
//! NDRange's smaller last groups. The fixtures of
//! tests/fixtures/fast_concrete/ids/ turn a wrong value into a finding (a
//! failed host check, a race), and the reports with and without the tier
//! are identical.

mod common;

use serde_json::Value;

/// The report without what depends on the machine (seconds).
fn without_timings(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.remove("seconds");
            map.values_mut().for_each(without_timings);
        }
        Value::Array(items) => items.iter_mut().for_each(without_timings),
        _ => {}
    }
}

#[test]
fn work_item_functions_answer_alike_in_both_tiers() {
    let file = common::repo().join("tests/fixtures/fast_concrete/ids/ids_3d_offset.c");
    let path = file.to_str().expect("utf-8 path");
    let run = |fast: bool| {
        let mut args: Vec<&str> = if fast { Vec::new() } else { vec!["--no-fast-concrete"] };
        args.extend(["check", path, "--json", "-", "--no-replay", "--query-timeout", "1000"]);
        let run = common::symcross(&args);
        if let Err(e) = common::verify(&file, &run) {
            panic!("{} tier: {e}", if fast { "fast" } else { "general" });
        }
        let mut json = run.json.expect("a JSON report");
        without_timings(&mut json);
        (run.code, json)
    };
    let (fast_code, fast) = run(true);
    let (slow_code, slow) = run(false);
    assert_eq!((fast_code, &fast), (slow_code, &slow), "the fast tier changed the report");
    assert_eq!(fast["verdict"], "equivalent");
    assert!(fast["findings"].as_array().is_none_or(|f| f.is_empty()), "no finding expected: {fast}");
}

/// `race` enumerates a 3-D NDRange whose last group is smaller in every
/// dimension; each work-item checks its ids and sizes against one
/// another (a wrong one makes it write the element every work-item
/// reads: a race). No finding, and the same report in both tiers.
#[test]
fn work_item_functions_of_a_non_uniform_ndrange_alike_in_both_tiers() {
    let file = common::repo().join("tests/fixtures/fast_concrete/ids/ids_3d_nonuniform.cl");
    let path = file.to_str().expect("utf-8 path");
    let text = std::fs::read_to_string(&file).expect("read fixture");
    let extra: Vec<&str> = text.lines().find_map(|l| l.strip_prefix("// args:")).expect("an `// args:` line").split_whitespace().collect();
    let run = |fast: bool| {
        let mut args: Vec<&str> = if fast { Vec::new() } else { vec!["--no-fast-concrete"] };
        args.extend(["race", path, "--json", "-", "--query-timeout", "1000"]);
        args.extend_from_slice(&extra);
        let run = common::symcross(&args);
        if let Err(e) = common::verify(&file, &run) {
            panic!("{} tier: {e}", if fast { "fast" } else { "general" });
        }
        let mut json = run.json.expect("a JSON report");
        without_timings(&mut json);
        (run.code, json)
    };
    let (fast_code, fast) = run(true);
    let (slow_code, slow) = run(false);
    assert_eq!((fast_code, &fast), (slow_code, &slow), "the fast tier changed the report");
    assert!(fast["mode"].as_str().is_some_and(|m| m.starts_with("enumerate")), "enumerated: {fast}");
    assert!(fast["findings"].as_array().is_none_or(|f| f.is_empty()), "no finding expected: {fast}");
}
