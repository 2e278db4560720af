//! CUDA warp-level functions under `symcross race`: `__syncwarp`, the
//! shuffles and the votes as meetings of the threads of a warp with their
//! mask semantics. Each fixture in tests/fixtures/cuda_warp/ gives its
//! command line (`// args:`) and expected verdict (`// expect:`): known
//! answers of the shuffles and votes (`klee_assert` in the kernel) with a
//! wrong twin each, masks that leave out a caller or name a lane that
//! never calls, `__syncwarp` ordering one warp's lanes but not two warps,
//! and pair mode, which cannot model a meeting; warps in lockstep
//! (`--warp-sync`): warp-synchronous code race-free, the values it reads
//! those of lockstep, and the races lockstep leaves (two warps, one store
//! instruction, divergent paths). The tests below them check what the
//! reports say.

mod common;

fn fixture_path(name: &str) -> std::path::PathBuf {
    common::repo().join("tests/fixtures/cuda_warp").join(format!("{name}.cu"))
}

common::fixture_tests!(
    |name: &str| common::verify_race_fixture(&fixture_path(name));
    vote_known_answers,
    vote_wrong_answer,
    shuffle_known_answers,
    shuffle_wrong_answer,
    shuffle_wrong_mask,
    shuffle_lane_missing,
    shuffle_exited_lanes_ok,
    shuffle_uninitialized_use,
    shuffle_uninitialized_shared,
    shuffle_initialized_ok,
    syncwarp_misplaced,
    syncwarp_across_warps,
    syncwarp_within_warp_ok,
    shuffle_pair_mode,
    match_reduce_known_answers,
    match_reduce_wrong_answer,
    reduce_wrong_mask,
    lockstep_reduction_ok,
    lockstep_reduction_two_warps,
    lockstep_values_ok,
    lockstep_values_stale,
    lockstep_diverged_race,
    lockstep_one_store_race,
    lockstep_half_warps,
    lockstep_activemask_ok,
    lockstep_activemask_wrong_answer,
    activemask_every_set_ok,
    activemask_assumed_whole_warp,
    activemask_diverged_use,
    activemask_syncwarp_race,
    activemask_reduction_ok,
    activemask_ballot_of_every_lane,
    only_warp_between_blocks_ok,
    only_warp_one_store_race,
    no_warp_within_warp_ok,
    no_warp_between_warps_race,
    activemask_leader_election_ok,
    activemask_leader_plain_update,
    activemask_half_mask_ok,
    activemask_half_mask_race,
    activemask_computed_masks_apart_ok,
    activemask_computed_masks_overlap,
    grid_sync_then_warp_race,
    grid_sync_then_warp_ok,
    activemask_leader_signed_sum,
    activemask_leader_value_overflow,
);

#[test]
fn every_fixture_is_listed() {
    for entry in std::fs::read_dir(common::repo().join("tests/fixtures/cuda_warp")).expect("fixture dir") {
        let path = entry.expect("entry").path();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
        if path.extension().is_some_and(|e| e == "cu") {
            assert!(LISTED.contains(&stem.as_str()), "fixture {stem} is not listed");
        }
    }
}

/// The message of the first finding of `kind` in `symcross race` on a
/// fixture, run with the arguments of its `// args:` line.
fn message(name: &str, kind: &str) -> String {
    let path = fixture_path(name);
    let text = std::fs::read_to_string(&path).expect("read fixture");
    let args_line = text.lines().find_map(|l| l.strip_prefix("// args:")).expect("args line");
    let mut args = vec!["race", path.to_str().unwrap(), "--json", "-"];
    args.extend(args_line.split_whitespace());
    let run = common::symcross(&args);
    let json = run.json.unwrap_or_else(|| panic!("{name}: no JSON report: {}", run.stderr));
    let f = json["findings"].as_array().and_then(|f| f.iter().find(|f| f["kind"] == kind)).cloned();
    let f = f.unwrap_or_else(|| panic!("{name}: no {kind} finding: {json}"));
    assert_eq!(f["location"]["file"].as_str().map(|p| p.ends_with(&format!("{name}.cu"))), Some(true), "{name}: at the user's call: {f}");
    f["message"].as_str().unwrap_or("").to_string()
}

#[test]
fn a_caller_left_out_of_its_mask_is_named_with_its_lane() {
    let msg = message("shuffle_wrong_mask", "invalid-warp-mask");
    assert!(
        msg.contains(
            "thread (16,0,0) of block (0,0,0) calls __shfl_down_sync at line 9 with mask 0x0000ffff, which leaves out its own lane 16"
        ),
        "{msg}"
    );
}

#[test]
fn a_lane_of_the_mask_that_never_calls_is_named_with_where_it_waits() {
    let msg = message("shuffle_lane_missing", "invalid-warp-mask");
    assert!(msg.contains("calls __shfl_sync at line 9 with mask 0xffffffff"), "{msg}");
    assert!(msg.contains("thread (16,0,0) of block (0,0,0) (lane 16) waits at the barrier at line 10"), "{msg}");
}

#[test]
fn syncwarp_does_not_order_two_warps() {
    let msg = message("syncwarp_across_warps", "race");
    assert!(msg.contains("write by thread (0,0,0) of block (0,0,0) and read by thread (32,0,0) of block (0,0,0)"), "{msg}");
    assert!(!msg.contains("lockstep"), "threads of two warps race in lockstep too: {msg}");
}

#[test]
fn pair_mode_says_why_a_warp_cannot_meet() {
    let msg = message("shuffle_pair_mode", "unsupported");
    assert!(msg.contains("__shfl_down_sync: pair mode runs two threads"), "{msg}");
}

#[test]
fn the_new_kind_is_a_sarif_rule() {
    assert!(symcross::report::FindingKind::ALL.iter().any(|k| k.name() == "invalid-warp-mask"));
}

/// `symcross race` on a fixture with its `// args:` line changed by
/// `edit`; the JSON report.
fn run_with(name: &str, edit: impl Fn(Vec<String>) -> Vec<String>) -> serde_json::Value {
    let path = fixture_path(name);
    let text = std::fs::read_to_string(&path).expect("read fixture");
    let args_line = text.lines().find_map(|l| l.strip_prefix("// args:")).expect("args line");
    let args = edit(args_line.split_whitespace().map(String::from).collect());
    let mut all = vec!["race".to_string(), path.to_str().unwrap().to_string(), "--json".into(), "-".into()];
    all.extend(args);
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let run = common::symcross(&refs);
    run.json.unwrap_or_else(|| panic!("{name}: no JSON report: {}", run.stderr))
}

fn without_warp_sync(args: Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
        } else if a == "--warp-sync" {
            skip = true;
        } else {
            out.push(a);
        }
    }
    out
}

#[test]
fn warp_synchronous_code_races_without_warp_sync_and_says_why() {
    let json = run_with("lockstep_half_warps", without_warp_sync);
    assert_eq!(json["verdict"], "findings", "{json}");
    assert_eq!(json["findings"][0]["kind"], "race", "{json}");
    let msg = json["findings"][0]["message"].as_str().unwrap_or("");
    assert!(msg.contains("races only when the threads of a warp do not run in lockstep"), "{msg}");
}

#[test]
fn a_race_that_lockstep_leaves_says_so() {
    for name in ["lockstep_diverged_race", "lockstep_one_store_race"] {
        let msg = message(name, "race");
        assert!(msg.contains("assumed to run in lockstep (--warp-sync)"), "{name}: {msg}");
    }
    let msg = message("lockstep_reduction_two_warps", "race");
    assert!(!msg.contains("lockstep"), "threads of two warps: {msg}");
}

#[test]
fn a_kernel_race_free_with_one_warp_races_with_two() {
    let json = run_with("lockstep_half_warps", |a| a.into_iter().map(|x| if x == "16" { "32".into() } else { x }).collect());
    assert_eq!(json["verdict"], "equivalent", "{json}");
}

#[test]
fn pair_mode_does_not_apply_warp_sync_and_says_so() {
    let json = run_with("lockstep_half_warps", |a| {
        let mut a: Vec<String> = a.into_iter().map(|x| if x == "16" { "32".into() } else { x }).collect();
        a.extend(["--mode".to_string(), "pair".to_string()]);
        a
    });
    assert_eq!(json["verdict"], "findings", "{json}");
    assert_eq!(json["findings"][0]["kind"], "race", "{json}");
    let warned = json["warnings"].as_array().is_some_and(|w| w.iter().any(|w| w["kind"] == "warp-sync-not-applied"));
    assert!(warned, "{json}");
}

#[test]
fn warp_sync_takes_a_warp_width() {
    let run = common::symcross(&[
        "race",
        fixture_path("lockstep_values_ok").to_str().unwrap(),
        "--block",
        "32",
        "--grid",
        "1",
        "--warp-sync",
        "64",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--warp-sync takes the lanes of a warp, 1 to 32, not 64"), "{}", run.stderr);
}

/// Without --warp-sync a shuffle with `__activemask()`'s mask may find the
/// caller alone, whose neighbour's value is then undefined: a confirmed
/// finding. A finding that needs lanes grouped as the model does not
/// follow (a ballot over the mask's lanes) is not confirmed, saying why.
#[test]
fn a_finding_resting_on_an_active_mask_is_not_confirmed() {
    let json = run_with("activemask_assumed_whole_warp", |a| a);
    assert_eq!(json["findings"][0]["status"], "confirmed", "{json}");
    let json = run_with("activemask_ballot_of_every_lane", |a| a);
    let f = json["findings"].as_array().and_then(|f| f.iter().find(|f| f["kind"] == "mismatch")).cloned().expect("a mismatch");
    assert_eq!(f["status"], "unconfirmed", "{f}");
    let msg = f["message"].as_str().unwrap_or("");
    assert!(msg.contains("rests on a mask __activemask() returned"), "{msg}");
}

/// Two lanes that may share one `__activemask()` mask, one shuffling with
/// it and the other waiting at a barrier: named with both lanes and lines.
#[test]
fn a_lane_leaving_a_shared_active_mask_is_named() {
    let msg = message("activemask_diverged_use", "invalid-warp-mask");
    assert!(msg.contains("call __activemask() at line 9"), "{msg}");
    assert!(msg.contains("calls __shfl_xor_sync with that mask"), "{msg}");
    assert!(msg.contains("waits at the barrier at line 12"), "{msg}");
}

/// `__syncwarp(__activemask())` orders nothing without --warp-sync, and
/// the whole warp in lockstep.
#[test]
fn syncwarp_with_the_active_mask_orders_the_warp_only_in_lockstep() {
    let json = run_with("activemask_syncwarp_race", |mut a| {
        a.extend(["--warp-sync".to_string(), "32".to_string()]);
        a
    });
    assert_eq!(json["verdict"], "equivalent", "{json}");
}

/// A mask computed from `__activemask()`'s result is not modelled, and the
/// finding says why.
#[test]
fn a_mask_computed_from_the_active_mask_is_named() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("half_mask.cu");
    std::fs::write(
        &src,
        "__global__ void half(int *out) {\n  unsigned m = __activemask() & 0xffffu;\n  out[threadIdx.x] = __shfl_sync(m, 1, 0);\n}\n",
    )
    .unwrap();
    let run = common::symcross(&["race", src.to_str().unwrap(), "--block", "32", "--grid", "1", "--json", "-"]);
    let json = run.json.unwrap_or_else(|| panic!("no JSON report: {}", run.stderr));
    assert_eq!(json["verdict"], "inconclusive", "{json}");
    let msg = json["findings"][0]["message"].as_str().unwrap_or("");
    assert!(msg.contains("__shfl_sync with a mask computed from what __activemask() returned"), "{msg}");
}

/// --only-warp: races between blocks are not looked for, and the report
/// says so; without it the same kernel races between blocks.
#[test]
fn only_warp_leaves_out_races_between_warps_and_says_so() {
    let json = run_with("only_warp_between_blocks_ok", |a| a);
    let warned = json["warnings"].as_array().is_some_and(|w| w.iter().any(|w| w["kind"] == "only-warp"));
    assert!(warned, "{json}");
    let json = run_with("only_warp_between_blocks_ok", |a| a.into_iter().filter(|x| x != "--only-warp").collect());
    assert_eq!(json["verdict"], "findings", "{json}");
    assert_eq!(json["findings"][0]["kind"], "race", "{json}");
}

/// --no-warp: races inside a warp are not looked for, and the report says
/// so; without it the same kernel races.
#[test]
fn no_warp_leaves_out_races_within_a_warp_and_says_so() {
    let json = run_with("no_warp_within_warp_ok", |a| a);
    let warned = json["warnings"].as_array().is_some_and(|w| w.iter().any(|w| w["kind"] == "no-warp"));
    assert!(warned, "{json}");
    let json = run_with("no_warp_within_warp_ok", |a| a.into_iter().filter(|x| x != "--no-warp").collect());
    assert_eq!(json["verdict"], "findings", "{json}");
    let run = common::symcross(&[
        "race",
        fixture_path("no_warp_within_warp_ok").to_str().unwrap(),
        "--block",
        "64",
        "--grid",
        "1",
        "--no-warp",
        "--only-warp",
    ]);
    assert_eq!(run.code, 2, "the two flags exclude each other: {}", run.stderr);
}

/// In pair mode "one warp" is a condition on the two symbolic threads:
/// the witness of `--only-warp` names two threads of one warp of one
/// block, that of `--no-warp` threads of two warps.
#[test]
fn only_warp_and_no_warp_hold_in_pair_mode() {
    let json = run_with("only_warp_between_blocks_ok", |mut a| {
        a.extend(["--mode".to_string(), "pair".to_string()]);
        a
    });
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "race", "{json}");
    let threads = |f: &serde_json::Value| -> Vec<(u64, u64)> {
        f["race"]["accesses"]
            .as_array()
            .map(|a| a.iter().map(|x| (x["local_id"][0].as_u64().unwrap(), x["group_id"][0].as_u64().unwrap())).collect())
            .unwrap_or_default()
    };
    let t = threads(f);
    assert_eq!(t.len(), 2, "{f}");
    assert!(t[0].1 == t[1].1 && t[0].0 / 32 == t[1].0 / 32, "one warp of one block: {t:?}");
    let json = run_with("no_warp_between_warps_race", |mut a| {
        a.extend(["--mode".to_string(), "pair".to_string()]);
        a
    });
    let t = threads(&json["findings"][0]);
    assert_eq!(t.len(), 2, "{json}");
    assert!(t[0].1 != t[1].1 || t[0].0 / 32 != t[1].0 / 32, "two warps: {t:?}");
}

#[test]
fn a_shuffled_value_carries_its_source_lanes_indeterminate_bits() {
    // Lane 5 never sets `v`; lane 4 reads it with __shfl_down_sync by 1
    // and is the one whose branch uses it.
    let msg = message("shuffle_uninitialized_use", "uninitialized-read");
    assert!(msg.contains("a branch condition depends on uninitialised bits"), "{msg}");
    assert!(msg.contains("by thread (4,0,0) of block (0,0,0)"), "{msg}");
    // Broadcast from a lane the input picks: shared memory no thread wrote.
    let msg = message("shuffle_uninitialized_shared", "uninitialized-read");
    assert!(msg.contains("uninitialised bits of local `s`"), "{msg}");
}
