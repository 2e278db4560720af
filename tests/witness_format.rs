//! Witnesses people can read: inputs decoded by their type element by
//! element (the JSON report keeping the raw bytes beside), byte ranges
//! of one element printed as `src[1]`, the differing elements listed,
//! integer results printed as integers, and the summary counting the
//! element a finding was decided on.

mod common;

fn fixture(rel: &str) -> String {
    common::repo().join(rel).to_str().unwrap().to_string()
}

#[test]
fn a_float_witness_prints_element_by_element() {
    let f = fixture("harnesses/zlimit_broken.c");
    let run = common::symcross(&["check", &f]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("  witness src: float[64]\n    src[0] = -0.0f (0x80000000)\n    src[1..63] = 0.0f (0x00000000)\n"), "{out}");
    // Four bytes of a float input are one element, and read as such.
    assert!(out.contains("FOgt(src[0], 0.0f)") && !out.contains("src[0..3]"), "{out}");
    assert!(out.contains("under the witness (float): left = 0.0f (0x00000000), right = -0.0f (0x80000000)"), "{out}");
    assert!(out.contains("differing elements under the witness: 1\n    [0]: left 0.0f (0x00000000), right -0.0f (0x80000000)"), "{out}");
}

#[test]
fn the_json_report_keeps_the_bytes_and_adds_the_values() {
    let f = fixture("harnesses/zlimit_broken.c");
    let json = common::symcross(&["check", &f, "--json", "-"]).json.expect("report");
    let finding = &json["findings"][0];
    assert!(finding["witness"]["src"].as_str().unwrap().starts_with("00000080"), "{finding}");
    assert_eq!(finding["witness_values"]["src"]["type"], "float[64]");
    assert_eq!(finding["witness_values"]["src"]["elements"][0], "-0.0f (0x80000000)");
    assert_eq!(finding["witness_values"]["src"]["elements"].as_array().unwrap().len(), 64);
    assert_eq!(finding["expressions"]["element_type"], "float");
    assert_eq!(finding["expressions"]["differing"]["count"], 1);
    assert_eq!(finding["expressions"]["differing"]["elements"][0]["index"], 0);
}

#[test]
fn the_summary_counts_the_element_a_finding_was_decided_on() {
    let f = fixture("harnesses/zlimit_broken.c");
    let run = common::symcross(&["check", &f, "--json", "-"]);
    let d = &run.json.expect("report")["stats"]["decided"];
    let total: u64 = ["structural", "canonical", "implied_query", "sampling", "bit_precise"].iter().map(|k| d[k].as_u64().unwrap()).sum();
    assert!(total >= 1, "a finding was decided, yet: {d}");
    // Without sampling, the solver decides it.
    let solver = common::symcross(&["check", &f, "--sample-trials", "0"]);
    assert!(!solver.stdout.contains("0 sampled, 0 bit-precise"), "{}", solver.stdout);
}

#[test]
fn a_size_t_result_prints_as_an_integer() {
    let f = fixture("tests/fixtures/habits/size_t_counts.c");
    let run = common::symcross(&["check", &f, "--json", "-"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let e = &run.json.expect("report")["findings"][0]["expressions"];
    assert_eq!(e["element_type"], "i64", "{e}");
    let (l, r) = (e["left_value"].as_str().unwrap(), e["right_value"].as_str().unwrap());
    let ints = |s: &str| s.chars().all(|c| c.is_ascii_digit());
    assert!(ints(l) && ints(r) && l != r, "{l} / {r}");
}

#[test]
fn an_int_witness_prints_as_integers() {
    let f = fixture("tests/fixtures/habits/scaled_ints.c");
    let run = common::symcross(&["check", &f, "--json", "-"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let json = run.json.expect("report");
    let v = &json["findings"][0]["witness_values"]["v"];
    // Debug info names the C type (the LLVM type alone said `i32`).
    assert_eq!(v["type"], "int[3]", "{v}");
    // Some element is at least 2^30 in magnitude, else doubling fits.
    let big = v["elements"].as_array().unwrap().iter().any(|e| {
        let s = e.as_str().unwrap();
        let n: i128 = s.split_whitespace().next().unwrap().parse().unwrap();
        let signed = if n >= 1 << 31 { n - (1 << 32) } else { n };
        signed.abs() >= 1 << 30
    });
    assert!(big, "{v}");
    assert_eq!(json["findings"][0]["expressions"]["element_type"], "i64");
}

#[test]
fn neighbouring_floats_print_apart_in_the_report_and_on_the_cpu() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let f = fixture("tests/fixtures/habits/neighbouring_floats.c");
    let run = common::symcross(&["check", &f, "--json", report.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("left = 59.999992f (0x426ffffe), right = 59.999996f (0x426fffff)"), "{}", run.stdout);
    let replay = common::symcross(&["replay", report.to_str().unwrap()]);
    assert_eq!(replay.code, 1, "{}\n{}", replay.stdout, replay.stderr);
    assert!(replay.stdout.contains("59.9999924 as float") && replay.stdout.contains("59.9999962 as float"), "{}", replay.stdout);
}

#[test]
fn a_witness_prints_by_the_c_types_debug_info_gives() {
    let f = fixture("tests/fixtures/witness/debug_types.c");
    let run = common::symcross(&["check", &f]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let out = &run.stdout;
    assert!(out.contains("  witness a: uint8_t[4]\n    a[0] = 0\n    a[1] = 200\n    a[2..3] = 0\n"), "uint8_t, unsigned: {out}");
    assert!(out.contains("  witness p: struct pixel\n    p.r = 0\n    p.g = 7\n    p.v = -3\n"), "fields by name, int16_t signed: {out}");
    assert!(out.contains("    tile[1][0] = 2.5f (0x40200000)\n"), "two indices: {out}");
    assert!(out.contains("    tile[0][0]..tile[0][2] = 0.0f (0x00000000)\n"), "{out}");
    let json = common::symcross(&["check", &f, "--json", "-"]).json.expect("report");
    let values = &json["findings"][0]["witness_values"];
    assert_eq!(values["a"]["type"], "uint8_t[4]");
    assert_eq!(values["a"]["elements"][1], "200");
    assert!(values["a"].get("labels").is_none(), "a plain array keeps its plain form: {values}");
    assert_eq!(values["p"]["labels"], serde_json::json!([".r", ".g", ".v"]));
    assert_eq!(values["p"]["elements"][2], "-3");
    assert_eq!(values["tile"]["labels"][3], "[1][0]");
    // The raw bytes stay beside.
    assert_eq!(json["findings"][0]["witness"]["p"], "0007fdff");
}

#[test]
fn race_witnesses_are_decoded_not_hex() {
    let k = fixture("tests/fixtures/witness/scalar_args.cl");
    let run = common::symcross(&["race", &k, "--local-size", "4", "--num-groups", "2"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("  witness height: int = 77\n"), "{}", run.stdout);
    assert!(run.stdout.contains("  witness shift: uchar = 200\n"), "{}", run.stdout);
    let pair = common::symcross(&["race", &k, "--local-size", "4", "--num-groups", "2", "--mode", "pair", "--json", "-"]);
    assert_eq!(pair.code, 1, "{}", pair.stderr);
    let values = &pair.json.expect("report")["findings"][0]["witness_values"];
    for w in ["work_item_1", "work_item_2"] {
        assert_eq!(values[w]["type"], "work-item", "{values}");
        assert_eq!(values[w]["labels"], serde_json::json!([".local_id", ".group_id"]), "{values}");
        let local = values[w]["elements"][0].as_str().unwrap();
        assert!(local.starts_with('(') && local.ends_with(",0,0)"), "{values}");
    }
    assert_eq!(values["height"]["elements"][0], "77");
    let text = common::symcross(&["race", &k, "--local-size", "4", "--num-groups", "2", "--mode", "pair"]);
    assert!(text.stdout.contains("    work_item_1.local_id = ("), "{}", text.stdout);
    assert!(!text.stdout.contains("work_item_1 = "), "no raw hex: {}", text.stdout);
}

#[test]
fn a_race_in_a_two_dimensional_array_names_both_indices() {
    let k = fixture("tests/fixtures/witness/tile_race.cl");
    let run = common::symcross(&["race", &k, "--local-size", "4,4", "--num-groups", "1,1"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("race on local buffer `corner.tile` at tile[15][0] (byte offset 1020)"), "{}", run.stdout);
    assert!(!run.stdout.contains("element 255"), "{}", run.stdout);
}
