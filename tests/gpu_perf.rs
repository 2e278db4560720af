//! `symcross race --perf`: bank conflicts, uncoalesced accesses and warp
//! divergence of the kernels in tests/fixtures/perf/, each with the
//! degree, transactions or split it must report and the work-items that
//! show it; and that these warnings leave the verdict and exit status to
//! the correctness findings.

mod common;

use serde_json::Value;

/// Runs a fixture with its `// args:` line and `extra`, JSON on stdout.
fn run(name: &str, extra: &[&str]) -> (common::Run, Value) {
    let dir = common::repo().join("tests/fixtures/perf");
    let cl = dir.join(format!("{name}.cl"));
    let path = if cl.exists() { cl } else { dir.join(format!("{name}.cu")) };
    let text = std::fs::read_to_string(&path).expect("read fixture");
    let line = text.lines().find_map(|l| l.strip_prefix("// args:")).expect("an `// args:` line");
    let p = path.to_str().expect("utf-8 path");
    let mut args = vec!["race", p, "--json", "-"];
    args.extend(line.split_whitespace());
    args.extend(extra);
    let run = common::symcross(&args);
    let json = run.json.clone().unwrap_or_else(|| panic!("no JSON report\nstdout:\n{}\nstderr:\n{}", run.stdout, run.stderr));
    (run, json)
}

/// The findings of `kind` as (line, message), in line order.
fn of_kind(json: &Value, kind: &str) -> Vec<(u64, String)> {
    let mut out: Vec<(u64, String)> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["kind"] == kind)
        .map(|f| (f["location"]["line"].as_u64().unwrap(), f["message"].as_str().unwrap().to_string()))
        .collect();
    out.sort();
    out
}

const PERF_KINDS: [&str; 3] = ["bank-conflict", "uncoalesced-access", "warp-divergence"];

fn assert_no_perf_findings(json: &Value) {
    for kind in PERF_KINDS {
        assert_eq!(of_kind(json, kind), vec![], "{kind}");
    }
}

fn assert_clean(run: &common::Run, json: &Value) {
    assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
    assert_eq!(run.code, 0);
}

#[test]
fn an_unpadded_tile_read_down_its_columns_is_a_32_way_conflict() {
    let (run, json) = run("transpose_unpadded", &[]);
    assert_eq!(
        of_kind(&json, "bank-conflict"),
        vec![(
            16,
            "32-way bank conflict: threads 0, 1, 2, 3 and 28 more of warp 0 of group (0,0,0) hit bank 0 at 32 different words of local \
             buffer `transpose.tile` (read; 32 banks of 4 bytes, warp size 32)"
                .to_string()
        )]
    );
    assert_eq!(of_kind(&json, "uncoalesced-access"), vec![]);
    assert_eq!(of_kind(&json, "warp-divergence"), vec![]);
    // A warning beside the verdict: no correctness finding, exit 0.
    assert_clean(&run, &json);
}

#[test]
fn a_tile_padded_to_33_columns_has_no_conflict() {
    let (run, json) = run("transpose_padded", &[]);
    assert_no_perf_findings(&json);
    assert_clean(&run, &json);
}

#[test]
fn padding_a_16_wide_tile_leaves_a_2_way_conflict_between_the_two_rows_of_a_warp() {
    let (run, json) = run("transpose16_padded", &[]);
    let conflicts = of_kind(&json, "bank-conflict");
    let lines: Vec<u64> = conflicts.iter().map(|c| c.0).collect();
    assert_eq!(lines, vec![11, 13], "{conflicts:?}");
    for (_, m) in &conflicts {
        assert!(m.starts_with("2-way bank conflict: threads 0 and 31 of warp 0 of group (0,0,0) hit bank 0"), "{m}");
    }
    assert_clean(&run, &json);
}

#[test]
fn sixteen_banks_serve_a_warp_in_halves() {
    // 16 banks: the two rows of a warp are served apart, and each row of
    // the padded 16-wide tile spans 16 consecutive words: no conflict.
    let (_, json) = run("transpose16_padded", &["--banks", "16"]);
    assert_eq!(of_kind(&json, "bank-conflict"), vec![]);
}

#[test]
fn a_broadcast_read_is_no_conflict() {
    let (run, json) = run("broadcast", &[]);
    assert_no_perf_findings(&json);
    assert_clean(&run, &json);
}

#[test]
fn a_contiguous_copy_is_coalesced() {
    let (run, json) = run("copy_coalesced", &[]);
    assert_no_perf_findings(&json);
    assert_clean(&run, &json);
}

#[test]
fn a_strided_read_needs_a_transaction_per_work_item() {
    let (run, json) = run("copy_strided", &[]);
    assert_eq!(
        of_kind(&json, "uncoalesced-access"),
        vec![(
            7,
            "uncoalesced access: a warp's read of global buffer `in` needs 32 transactions of 32 bytes (16 lines of 128 bytes) where 4 \
             would do; threads 0 and 1 of warp 0 of group (0,0,0) access bytes 64 apart (warp size 32)"
                .to_string()
        )]
    );
    assert_clean(&run, &json);
}

#[test]
fn a_128_byte_segment_counts_lines() {
    let (_, json) = run("copy_strided", &["--segment", "128"]);
    let found = of_kind(&json, "uncoalesced-access");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1.contains("needs 16 transactions of 128 bytes (16 lines of 128 bytes) where 1 would do"), "{found:?}");
}

#[test]
fn the_worst_stride_of_an_input_is_found_with_its_witness() {
    let (_, json) = run("copy_stride_argument", &[]);
    let found = of_kind(&json, "uncoalesced-access");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1.contains("needs 32 transactions of 32 bytes"), "{found:?}");
    // The witness's stride must really put the 32 reads in 32 segments.
    let f = json["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "uncoalesced-access").unwrap();
    let hex = f["witness"]["stride"].as_str().expect("a stride in the witness");
    let bytes: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
    let stride = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as u64;
    assert!(stride < 32, "the kernel reads only when stride < 32, got {stride}");
    let segments: std::collections::BTreeSet<u64> = (0..32u64).map(|i| ((i * stride) % 1024) * 4 / 32).collect();
    assert_eq!(segments.len(), 32, "stride {stride}");
}

#[test]
fn interleaved_reduction_splits_every_warp() {
    let (run, json) = run("reduce_interleaved", &[]);
    let found = of_kind(&json, "warp-divergence");
    let lines: Vec<u64> = found.iter().map(|c| c.0).collect();
    assert_eq!(lines, vec![11, 15], "{found:?}");
    assert!(
        found[0].1.starts_with(
            "warp divergence: threads 0 and 1 of warp 0 of group (0,0,0) take different directions at this branch (thread 0 takes it, \
             thread 1 does not)"
        ),
        "{found:?}"
    );
    assert_eq!(of_kind(&json, "bank-conflict"), vec![]);
    assert_clean(&run, &json);
}

#[test]
fn sequential_reduction_stopped_at_a_warp_does_not_diverge() {
    let (run, json) = run("reduce_sequential", &[]);
    assert_no_perf_findings(&json);
    assert_clean(&run, &json);
}

#[test]
fn a_wavefront_of_64_splits_where_warps_of_32_do_not() {
    let (_, json) = run("reduce_sequential", &["--warp-size", "64"]);
    let found = of_kind(&json, "warp-divergence");
    let lines: Vec<u64> = found.iter().map(|c| c.0).collect();
    assert_eq!(lines, vec![11, 14], "{found:?}");
    assert!(found[0].1.contains("threads 0 and 32 of warp 0"), "{found:?}");
    assert!(found[0].1.contains("(warp size 64)"), "{found:?}");
    // 32 banks serve a wavefront of 64 in halves: consecutive words of
    // the whole wavefront do not conflict.
    assert_eq!(of_kind(&json, "bank-conflict"), vec![]);
}

#[test]
fn without_perf_nothing_is_measured() {
    let path = common::repo().join("tests/fixtures/perf/transpose_unpadded.cl");
    let run = common::symcross(&[
        "race",
        path.to_str().unwrap(),
        "--local-size",
        "32,8",
        "--num-groups",
        "1,1",
        "--arg",
        "width=32",
        "--arg",
        "in=4096",
        "--arg",
        "out=4096",
        "--json",
        "-",
    ]);
    let json = run.json.expect("JSON report");
    assert_no_perf_findings(&json);
}

#[test]
fn a_warning_neither_stops_the_run_nor_hides_a_race() {
    let (run, json) = run("strided_then_race", &[]);
    assert_eq!(of_kind(&json, "uncoalesced-access").len(), 1, "{}", run.stdout);
    assert_eq!(of_kind(&json, "race").len(), 1, "{}", run.stdout);
    assert_eq!(json["verdict"], "findings");
    assert_eq!(run.code, 1);
}

#[test]
fn sarif_gives_perf_findings_the_warning_level() {
    let path = common::repo().join("tests/fixtures/perf/copy_strided.cl");
    let run = common::symcross(&[
        "race",
        path.to_str().unwrap(),
        "--perf",
        "--local-size",
        "64",
        "--num-groups",
        "1",
        "--arg",
        "in=4096",
        "--arg",
        "out=256",
        "--sarif",
        "-",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sarif: Value = serde_json::from_str(&run.stdout).expect("SARIF on stdout");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let perf: Vec<&Value> = results.iter().filter(|r| r["ruleId"] == "uncoalesced-access").collect();
    assert_eq!(perf.len(), 1, "{results:?}");
    assert_eq!(perf[0]["level"], "warning");
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"].as_array().expect("rules");
    for kind in PERF_KINDS {
        assert!(rules.iter().any(|r| r["id"] == kind && r["defaultConfiguration"]["level"] == "warning"), "{kind}");
    }
}

#[test]
fn pair_mode_says_it_measured_nothing() {
    let (run, json) = run("copy_strided", &["--mode", "pair"]);
    assert_no_perf_findings(&json);
    let warnings = json["warnings"].as_array().expect("warnings");
    assert!(
        warnings.iter().any(|w| w["kind"] == "perf-incomplete" && w["message"].as_str().unwrap().contains("pair mode")),
        "{}",
        run.stdout
    );
}

#[test]
fn a_warp_size_that_is_not_a_power_of_two_is_refused() {
    let path = common::repo().join("tests/fixtures/perf/copy_strided.cl");
    let run = common::symcross(&["race", path.to_str().unwrap(), "--perf", "--local-size", "64", "--num-groups", "1", "--warp-size", "48"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--warp-size must be a power of two from 1 to 4096, not 48"), "{}", run.stderr);
}

#[test]
fn branches_past_the_interval_limit_are_named_not_dropped_silently() {
    let (run, json) = run("long_loop", &[]);
    assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
    let warnings = json["warnings"].as_array().expect("warnings");
    assert!(
        warnings.iter().any(|w| w["kind"] == "perf-incomplete"
            && w["message"] == "--perf: a barrier interval ran more than 262144 branches (work-items looping long between barriers); the 57888 past them were not measured for warp divergence"),
        "{warnings:?}"
    );
}

#[test]
fn cuda_an_unpadded_shared_tile_is_a_32_way_conflict_named_as_cuda_names_it() {
    let (run, json) = run("transpose_unpadded_cuda", &[]);
    assert_eq!(
        of_kind(&json, "bank-conflict"),
        vec![(
            13,
            "32-way bank conflict: threads 0, 1, 2, 3 and 28 more of warp 0 of block (0,0,0) hit bank 0 at 32 different words of shared \
             buffer `tile` (read; 32 banks of 4 bytes, warp size 32)"
                .to_string()
        )]
    );
    assert_eq!(of_kind(&json, "uncoalesced-access"), vec![]);
    assert_clean(&run, &json);
}

#[test]
fn cuda_a_padded_shared_tile_has_no_conflict() {
    let (run, json) = run("transpose_padded_cuda", &[]);
    assert_no_perf_findings(&json);
    assert_clean(&run, &json);
}

#[test]
fn cuda_interleaved_reduction_splits_every_warp() {
    let (run, json) = run("reduce_interleaved_cuda", &[]);
    let found = of_kind(&json, "warp-divergence");
    let lines: Vec<u64> = found.iter().map(|c| c.0).collect();
    assert_eq!(lines, vec![10, 14], "{found:?}");
    assert!(found[0].1.starts_with("warp divergence: threads 0 and 1 of warp 0 of block (0,0,0) take different directions"), "{found:?}");
    assert_clean(&run, &json);
}

#[test]
fn cuda_a_strided_read_needs_a_transaction_per_thread() {
    let (run, json) = run("copy_strided_cuda", &[]);
    assert_eq!(
        of_kind(&json, "uncoalesced-access"),
        vec![(
            7,
            "uncoalesced access: a warp's read of global buffer `in` needs 32 transactions of 32 bytes (16 lines of 128 bytes) where 4 \
             would do; threads 0 and 1 of warp 0 of block (0,0,0) access bytes 64 apart (warp size 32)"
                .to_string()
        )]
    );
    assert_clean(&run, &json);
}

#[test]
fn cuda_a_contiguous_copy_is_coalesced() {
    let (run, json) = run("copy_coalesced_cuda", &[]);
    assert_no_perf_findings(&json);
    assert_clean(&run, &json);
}

// --- cudatwins2 ---

#[test]
fn cuda_a_broadcast_read_is_no_conflict() {
    let (run, json) = run("broadcast_cuda", &[]);
    assert_no_perf_findings(&json);
    assert_clean(&run, &json);
}

#[test]
fn cuda_branches_past_the_interval_limit_are_named_not_dropped_silently() {
    let (run, json) = run("long_loop_cuda", &[]);
    assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
    let warnings = json["warnings"].as_array().expect("warnings");
    assert!(
        warnings.iter().any(|w| w["kind"] == "perf-incomplete"
            && w["message"] == "--perf: a barrier interval ran more than 262144 branches (work-items looping long between barriers); the 57888 past them were not measured for warp divergence"),
        "{warnings:?}"
    );
}

#[test]
fn cuda_the_worst_stride_of_an_input_is_found_with_its_witness() {
    let (run, json) = run("copy_stride_argument_cuda", &[]);
    let found = of_kind(&json, "uncoalesced-access");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1.contains("needs 32 transactions of 32 bytes"), "{found:?}");
    assert!(found[0].1.contains("threads 0 and 1 of warp 0 of block (0,0,0)"), "{found:?}");
    let f = json["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "uncoalesced-access").unwrap();
    let hex = f["witness"]["stride"].as_str().expect("a stride in the witness");
    let bytes: Vec<u8> = (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect();
    let stride = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as u64;
    assert!(stride < 32, "the kernel reads only when stride < 32, got {stride}");
    let segments: std::collections::BTreeSet<u64> = (0..32u64).map(|i| ((i * stride) % 1024) * 4 / 32).collect();
    assert_eq!(segments.len(), 32, "stride {stride}");
    assert_clean(&run, &json);
}

#[test]
fn cuda_sequential_reduction_stopped_at_a_warp_does_not_diverge() {
    let (run, json) = run("reduce_sequential_cuda", &[]);
    assert_no_perf_findings(&json);
    assert_clean(&run, &json);
}

#[test]
fn cuda_a_wavefront_of_64_splits_where_warps_of_32_do_not() {
    let (_, json) = run("reduce_sequential_cuda", &["--warp-size", "64"]);
    let found = of_kind(&json, "warp-divergence");
    let lines: Vec<u64> = found.iter().map(|c| c.0).collect();
    assert_eq!(lines, vec![13, 16], "{found:?}");
    assert!(found[0].1.contains("threads 0 and 32 of warp 0 of block (0,0,0)"), "{found:?}");
    assert!(found[0].1.contains("(warp size 64)"), "{found:?}");
    assert_eq!(of_kind(&json, "bank-conflict"), vec![]);
}
