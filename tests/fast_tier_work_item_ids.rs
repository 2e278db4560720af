//! A work-item's calls of the work-item functions (`get_global_id` and
//! the others) are answered inside the fast tier from its concrete ids
//! (src/exec/engine/fast_concrete/work_item_ids.rs), through the models'
//! hooks, exactly as the general step answers them: every dimension, the
//! out-of-range dimension's 0 or 1, and a global offset. The host program
//! of tests/fixtures/fast_concrete/ids/ checks every value the kernel
//! wrote, and the reports with and without the tier are identical.

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
