//! Known-answer kernels for `symcross race`: each fixture in
//! tests/fixtures/race/ gives its command-line arguments (`// args:`) and
//! expected verdict (`// expect:`) in its first lines.

mod common;

fn race_fixture(name: &str) {
    common::verify_race_fixture(&common::repo().join("tests/fixtures/race").join(format!("{name}.cl")));
}

common::fixture_tests!(
    race_fixture;
    neighbour_no_barrier,
    neighbour_with_barrier,
    inter_group_race,
    warp_synchronous_loop,
    tree_reduction_ok,
    barrier_divergence,
    barrier_uniform,
    symbolic_index_race,
    atomics_vs_plain,
    atomics_only,
    float4_lanes_ok,
    float4_same_lane_race,
    float4_components_ok,
    float4_same_component_race,
    float4_component_read_race,
    float4_components_pair_mode_ok,
    permutation_ok,
    benign_same_value,
    benign_allowed,
    neighbour_pair_mode,
    barrier_pair_mode_ok,
    inter_group_pair_mode,
    divergence_pair_mode,
    sized_buffer_oob,
    fixed_scalar_race,
    async_copy_ok,
    async_copy_no_wait,
    undefined_function,
    undefined_function_index_race,
    local_arg_unbounded,
    local_uninit_index,
    local_carryover,
    atomic_unsized_counter,
    unsized_consistent_reads,
    benign_pair_solver,
    benign_pair_differs,
    nonuniform_barrier_flags,
    symbolic_barrier_flags_pair,
    uniform_local_fence_pair,
    many_atomics_one_counter,
    many_barriers,
    many_barriers_missing_one,
    byval_struct_pointer,
    byval_struct_private,
    byval_struct_symbolic,
    constant_write_through_integer,
    pointer_select_race,
    pointer_select_ok,
    async_barrier_not_wait,
    async_two_events_one_waited,
    async_event_array,
    async_nonuniform_event,
    symbolic_offset_large_local,
    symbolic_offset_large_local_race,
    stop_at_first_race,
    two_races,
    symbolic_loop_bound_race,
    symbolic_loop_bound_ok,
    data_branch_merge_ok,
    data_branch_atomic_counter,
    data_branch_guarded_writes_ok,
    data_branch_guarded_writes_race,
    data_branch_local_race,
    nonterminating_spin,
    nonterminating_break,
    nonterminating_counter,
    counter_slots_many_groups,
    data_barrier_switches_to_pair,
    pair_havoc_values_not_benign,
    async_nonuniform_source,
    async_nonuniform_source_pair,
    async_reached_by_some,
    async_event_argument_differs,
    async_uniform_groups_ok,
    benign_one_int_many_groups,
    benign_float_values_pair,
    async_two_copies_one_destination,
    async_two_copies_one_source_ok,
    loop_invariant_store_summarised,
    loop_invariant_store_own_element,
    loop_varying_store_not_summarised,
    loop_invariant_store_race,
    counter_slots_neighbour_race,
    nonterminating_period,
    nonterminating_before_barrier,
    nonterminating_after_race,
    nonterminating_spin_wait,
    benign_read_write_allowed,
    benign_read_write_default,
    benign_read_write_differs,
    image_unsupported,
    image_copy_ok,
    image_write_same_pixel_race,
    image_clamp_to_edge_ok,
    image_out_of_bounds_write,
    image_get_width,
    image_normalised_coords_unsupported,
    image_sampler_argument_ok,
    heavy_private_loops_ok,
    heavy_private_loops_race,
    group_dependent_local_race,
    gid_bound_loop_summarised,
    gid_bound_loop_summarised_race,
    gid_bound_loop_counter_signed,
    gid_bound_loop_counter_in_memory,
    loop_counter_may_overflow,
    loop_counter_twice_per_trip,
    loop_break_not_summarised,
    unsized_alias_pair_ok,
    unsized_many_aliases_race,
    unsized_many_aliases_value_unconfirmed,
    async_wait_count_differs,
    async_wait_count_argument,
    unsized_alias_pair_race,
    unsized_write_read_back_pair_race,
    unsized_local_carryover,
    unsized_too_many_aliases,
    pair_havoc_flag_unconfirmed,
    pair_havoc_permutation_unconfirmed,
    pair_havoc_independent_race,
    barrier_loop_symbolic_trip_count,
    no_shared_access_limit_hit,
    pair_havoc_divergence_unconfirmed,
    pair_havoc_out_of_bounds_unconfirmed,
    pair_havoc_independent_out_of_bounds,
    pair_havoc_confirmed_by_groups,
    local_array_out_of_bounds,
    histogram_local_atomics_ok,
    histogram_plain_increment_race,
    fp_escape_loop_summarised,
    fp_escape_loop_race_unconfirmed,
    constant_parameter_write,
    image_write_past_unknown_width,
    image_int_coords_normalised_sampler,
    image_linear_filter_undefined,
    fp_loop_shared_store_race,
    fp_loop_own_store_ok,
    fp_loop_before_and_after_summary,
    fp_loop_summarised_write_read,
    struct_copy_same_slot_race,
    struct_copy_own_slot_ok,
    struct_copy_out_of_local_race,
    struct_copy_out_of_local_ok,
    memset_shared_row_race,
    memset_own_row_ok,
    race_query_budget,
    cmpxchg_never_succeeds_ok,
    cmpxchg_succeeds_race,
    cmpxchg_failed_vs_plain_write_race,
    compare_exchange_fails_ok,
    compare_exchange_succeeds_race,
    misaligned_int_load,
    aligned_int_load_ok,
    misaligned_symbolic_store,
    packed_struct_ok,
    local_never_written_branch,
    local_written_branch_ok,
    uninit_private_to_global,
    init_private_to_global_ok,
    local_struct_half_written_copied_out,
    local_struct_padding_copied_out_ok,
    array_member_past_end,
    array_member_within_ok,
    array_pointer_arithmetic_ok,
    private_array_into_next,
    undefined_function_writes_global,
    undefined_function_writes_private,
    undefined_function_program_variable,
    undefined_function_private_ok,
    undefined_function_local_fill_race,
    undefined_function_local_fill_ok,
    undefined_function_stored_pointer,
    race_confirmed_on_a_later_trip,
    race_unconfirmed_on_every_trip,
    local_never_written_after_barrier_pair,
    local_half_written_after_barrier_pair,
    local_half_written_read_written_pair_ok,
    local_written_after_barrier_pair_ok,
    unsized_local_half_written,
    unsized_local_all_written_ok,
    unsized_local_never_written,
    pair_whole_ndrange_recheck_ok,
    pair_single_work_item,
    vec3_store_ok,
    vec3_store_unset_component,
    local_half_unwritten_pair,
    local_own_slot_pair_ok,
    unsized_local_merged_one_side,
    unsized_negative_index,
    unsized_index_from_start_ok,
    pair_havoc_out_of_bounds_recheck_ok,
    pair_havoc_out_of_bounds_confirmed_by_group,
    local_unwritten_slot_pair,
    local_tile_neighbour_pair_ok,
    unsized_local_tile_neighbour_pair_ok,
    unsized_local_own_slot_pair_ok,
    local_even_items_write_pairs_pair,
    local_own_slot_branch_pair_ok,
    pair_havoc_written_flag_found,
    pair_havoc_stray_write_into_input,
);

#[test]
fn every_fixture_is_listed() {
    let dir = common::repo().join("tests/fixtures/race");
    for entry in std::fs::read_dir(dir).expect("fixture dir") {
        let path = entry.expect("entry").path();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
        assert!(LISTED.contains(&stem.as_str()), "fixture {stem} is not listed in tests/race_fixtures.rs");
    }
}

/// The JSON report of a fixture's run.
fn fixture_report(name: &str) -> serde_json::Value {
    let path = common::repo().join("tests/fixtures/race").join(format!("{name}.cl"));
    let text = std::fs::read_to_string(&path).expect("read fixture");
    let args_line = text.lines().find_map(|l| l.strip_prefix("// args:")).expect("args line");
    race_with(name, &args_line.split_whitespace().collect::<Vec<_>>()).1
}

/// The wait-count fixture gives the same answer in pair mode at 128
/// groups, where the local id is symbolic (GPUVerify's async test8).
#[test]
fn async_wait_count_differs_in_pair_mode() {
    let path = common::repo().join("tests/fixtures/race/async_wait_count_differs.cl");
    let p = path.to_str().expect("utf-8 path");
    let run = common::symcross(&["race", p, "--json", "-", "--local-size", "64", "--num-groups", "128", "--mode", "pair"]);
    if let Err(e) = common::verify(&path, &run) {
        panic!("{e}");
    }
}

/// The message of every finding of a fixture's run.
fn fixture_messages(name: &str) -> Vec<String> {
    let findings = fixture_report(name)["findings"].as_array().cloned().unwrap_or_default();
    findings.iter().filter_map(|f| f["message"].as_str().map(str::to_string)).collect()
}

#[test]
fn unmodelled_image_constructs_are_named() {
    let normalised = fixture_messages("image_normalised_coords_unsupported");
    assert!(normalised.iter().any(|m| m.contains("normalised coordinates")), "{normalised:?}");
    let float = fixture_messages("image_unsupported");
    assert!(float.iter().any(|m| m.contains("float coordinates")), "{float:?}");
}

/// Integer coordinates with a sampler valid only for normalised ones read
/// undefined values: a warning names the line and the sampler.
#[test]
fn undefined_image_reads_are_named() {
    for (name, sampler) in
        [("image_int_coords_normalised_sampler", "normalised coordinates"), ("image_linear_filter_undefined", "CLK_FILTER_LINEAR")]
    {
        let report = fixture_report(name);
        let warnings = report["warnings"].as_array().cloned().unwrap_or_default();
        let undefined: Vec<&str> =
            warnings.iter().filter(|w| w["kind"] == "undefined-value").filter_map(|w| w["message"].as_str()).collect();
        assert!(
            undefined.len() == 1 && undefined[0].contains(sampler) && undefined[0].contains("undefined values"),
            "{name}: {warnings:?}"
        );
    }
}

#[test]
fn local_variables_are_called_local() {
    let oob = fixture_messages("local_array_out_of_bounds");
    assert!(oob.iter().any(|m| m.contains("outside local object `fill.A` of 40 bytes")), "{oob:?}");
}

#[test]
fn image_findings_name_the_image() {
    let race = fixture_messages("image_write_same_pixel_race");
    assert!(race.iter().any(|m| m.contains("`dest`")), "{race:?}");
    let oob = fixture_messages("image_out_of_bounds_write");
    assert!(oob.iter().any(|m| m.contains("outside image `dest` of 8x8 pixels")), "{oob:?}");
}

#[test]
fn pair_mode_is_reported() {
    let (run, json) = race_with("neighbour_pair_mode", &["--local-size", "1024", "--num-groups", "1024"]);
    let mode = json["mode"].as_str().unwrap_or_default();
    assert!(mode.starts_with("pair"), "mode was `{mode}`: {}", run.stdout);
}

#[test]
fn bad_local_size_is_a_usage_error() {
    let path = common::repo().join("tests/fixtures/race/atomics_only.cl");
    let run = common::symcross(&["race", path.to_str().unwrap(), "--local-size", "0", "--num-groups", "1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--local-size"), "{}", run.stderr);
}

#[test]
fn all_findings_goes_on_after_the_first() {
    let path = common::repo().join("tests/fixtures/race/two_races.cl");
    let p = path.to_str().unwrap();
    let count = |extra: &[&str]| {
        let mut args = vec!["race", p, "--local-size", "8", "--num-groups", "2", "--json", "-"];
        args.extend_from_slice(extra);
        let run = common::symcross(&args);
        let json = run.json.expect("JSON report");
        (json["findings"].as_array().map(|f| f.len()).unwrap_or(0), json["mode"].as_str().unwrap_or("").to_string())
    };
    let (first, mode) = count(&[]);
    assert!(first >= 1, "{mode}");
    assert!(mode.contains("stopped at the first confirmed finding"), "{mode}");
    let (all, mode) = count(&["--all-findings"]);
    assert!(all == 2 && !mode.contains("stopped"), "{all} findings: {mode}");
}

/// A path cut by a budget names the limit in the report, and a warning says
/// where and how to raise it.
#[test]
fn budget_cuts_name_their_limit() {
    let cases = [
        (
            "nonterminating_counter",
            &["--local-size", "4", "--num-groups", "1", "--max-item-steps", "1000000"][..],
            "work-item-steps",
            "--max-item-steps 1000000",
        ),
        ("symbolic_loop_bound_ok", &["--local-size", "4", "--num-groups", "1", "--loop-bound", "4"][..], "loop-bound", "--loop-bound 4"),
        // A barrier in the loop body: the default bound still applies.
        ("barrier_loop_symbolic_trip_count", &["--local-size", "4", "--num-groups", "1"][..], "loop-bound", "--loop-bound 16"),
        (
            "no_shared_access_limit_hit",
            &["--local-size", "4", "--num-groups", "1", "--loop-bound", "2"][..],
            "loop-bound",
            "--loop-bound 2",
        ),
    ];
    for (name, extra, limit, flag) in cases {
        let path = common::repo().join("tests/fixtures/race").join(format!("{name}.cl"));
        let mut args = vec!["race", path.to_str().unwrap(), "--json", "-"];
        args.extend_from_slice(extra);
        let run = common::symcross(&args);
        let json = run.json.expect("JSON report");
        assert_eq!(json["verdict"], "inconclusive", "{name}: {}", run.stdout);
        assert_eq!(json["limit"], limit, "{name}: {}", run.stdout);
        let warnings = json["warnings"].to_string();
        assert!(warnings.contains(flag), "{name}: {warnings}");
        // A bounded path is cut at once, not after another limit: counted
        // in instructions (the four work-items' budgets at most, and a
        // little more), never in seconds, so a busy machine cannot fail it.
        let instructions = json["stats"]["instructions"].as_u64().unwrap_or(u64::MAX);
        assert!(instructions < 5_000_000, "{name} ran {instructions} instructions: {}", run.stdout);
    }
}

/// Kernel paths merge: a branch on every work-item's own data is one path.
#[test]
fn data_branches_merge_into_one_path() {
    let (run, json) = race_with("data_branch_atomic_counter", &["--local-size", "16", "--num-groups", "1"]);
    assert_eq!(json["stats"]["paths"], 1, "{}", run.stdout);
    assert!(json["stats"]["merged"].as_u64().unwrap_or(0) >= 16, "{}", run.stdout);
}

/// Races on paths that read unsized buffers at symbolic and concrete
/// offsets are real races: the reads are related exactly, so their
/// witnesses are confirmed (not merely found).
#[test]
fn unsized_alias_races_are_confirmed() {
    for name in ["unsized_alias_pair_race", "unsized_write_read_back_pair_race"] {
        let (run, json) = race_with(name, &["--local-size", "64", "--num-groups", "1", "--mode", "pair"]);
        let findings = json["findings"].as_array().cloned().unwrap_or_default();
        assert!(!findings.is_empty() && findings.iter().all(|f| f["status"] == "confirmed"), "{name}: {}", run.stdout);
    }
}

/// Runs a race fixture with 64 work-items in one group in `mode`; the JSON
/// report.
fn run_in_mode(name: &str, mode: &str) -> serde_json::Value {
    race_with(name, &["--local-size", "64", "--num-groups", "1", "--mode", mode]).1
}

/// Runs `symcross race` on fixture `name` with `flags` (sizes, mode,
/// budgets) instead of its `// args:` line: the run and its JSON report.
fn race_with(name: &str, flags: &[&str]) -> (common::Run, serde_json::Value) {
    let path = common::repo().join("tests/fixtures/race").join(format!("{name}.cl"));
    let mut args = vec!["race", path.to_str().expect("utf-8 path"), "--json", "-"];
    args.extend_from_slice(flags);
    let run = common::symcross(&args);
    let json = run.json.clone().unwrap_or_else(|| panic!("{name} {flags:?}: no JSON report: {}", run.stderr));
    (run, json)
}

/// The messages of the warnings of `kind` in a report.
fn warnings_of(json: &serde_json::Value, kind: &str) -> Vec<String> {
    let warnings = json["warnings"].as_array().cloned().unwrap_or_default();
    warnings.iter().filter(|w| w["kind"] == kind).filter_map(|w| w["message"].as_str().map(String::from)).collect()
}

/// Pair mode makes shared memory arbitrary at a barrier: a race (or barrier
/// divergence) that needs values no device holds there is not confirmed,
/// and says why; enumerate mode, which runs every work-item, finds the
/// kernel race-free.
#[test]
fn pair_mode_races_through_havocked_memory_are_unconfirmed() {
    for name in ["pair_havoc_flag_unconfirmed", "pair_havoc_permutation_unconfirmed", "pair_havoc_divergence_unconfirmed"] {
        // 64 work-items: pair mode's re-check enumerates the one group,
        // the whole NDRange, and that answer stands.
        let json = run_in_mode(name, "pair");
        assert_eq!(json["verdict"], "equivalent", "{name}: {json}");
        assert!(json["warnings"].to_string().contains("havocked at a barrier"), "{name}: {json}");
        let json = run_in_mode(name, "enumerate");
        assert_eq!(json["verdict"], "equivalent", "{name} in enumerate mode: {json}");
    }
    // A group past the re-check's bound, or a re-check of one group of
    // many that finds nothing: the havoc's findings stay unconfirmed,
    // naming it.
    for name in ["pair_havoc_flag_unconfirmed", "pair_havoc_divergence_unconfirmed", "pair_havoc_out_of_bounds_unconfirmed"] {
        let json = fixture_report(name);
        let findings = json["findings"].as_array().cloned().unwrap_or_default();
        assert!(!findings.is_empty(), "{name}: {json}");
        for f in &findings {
            assert_eq!(f["status"], "unconfirmed", "{name}: {json}");
            let message = f["message"].as_str().unwrap_or("");
            assert!(message.contains("assumed arbitrary at a barrier (pair mode"), "{name}: {message}");
        }
    }
}

/// An out-of-bounds read that pair mode found only through havocked
/// memory is re-checked like a race: enumerating the witness's group
/// confirms it, naming the group.
#[test]
fn pair_mode_out_of_bounds_through_havoc_is_rechecked() {
    let json = fixture_report("pair_havoc_out_of_bounds_confirmed_by_group");
    let findings = json["findings"].as_array().cloned().unwrap_or_default();
    assert!(
        findings.iter().any(|f| f["kind"] == "out-of-bounds"
            && f["status"] == "confirmed"
            && f["message"].as_str().unwrap_or("").contains("confirmed by enumerating every work-item of work-group")),
        "{json}"
    );
    assert!(json["mode"].as_str().unwrap_or("").starts_with("pair"), "{json}");
    let whole = fixture_report("pair_havoc_out_of_bounds_recheck_ok");
    assert_eq!(whole["mode"].as_str().map(|m| m.starts_with("enumerate")), Some(true), "{whole}");
    assert_eq!(warnings_of(&whole, "mode-switch").len(), 1, "{whole}");
}

/// A pair-mode race left unconfirmed by the havoc is confirmed by
/// enumerating every work-item of the witness's two groups, and says so.
#[test]
fn pair_mode_havoc_doubts_are_rechecked_in_their_groups() {
    let json = fixture_report("pair_havoc_confirmed_by_groups");
    let findings = json["findings"].as_array().cloned().unwrap_or_default();
    assert_eq!(findings.len(), 1, "{json}");
    assert_eq!(findings[0]["status"], "confirmed", "{json}");
    let message = findings[0]["message"].as_str().unwrap_or("");
    assert!(message.contains("confirmed by enumerating every work-item of work-groups"), "{message}");
    assert!(json["mode"].as_str().unwrap_or("").starts_with("pair"), "{json}");
}

/// A race or out-of-bounds read after a havocking barrier whose condition
/// and path depend only on the work-item ids stays confirmed in pair mode,
/// and in enumerate mode.
#[test]
fn pair_mode_findings_independent_of_havoc_stay_confirmed() {
    for name in ["pair_havoc_independent_race", "pair_havoc_independent_out_of_bounds"] {
        for mode in ["pair", "enumerate"] {
            let json = run_in_mode(name, mode);
            let findings = json["findings"].as_array().cloned().unwrap_or_default();
            assert!(!findings.is_empty() && findings.iter().all(|f| f["status"] == "confirmed"), "{name}, {mode}: {json}");
            assert_eq!(json["verdict"], "findings", "{name}, {mode}: {json}");
        }
    }
}

/// A kernel whose only path ends at a finding (a write into `__constant`
/// memory) was not explored to its end: no warning calls it race-free for
/// sharing nothing.
#[test]
fn a_path_cut_by_a_finding_does_not_make_the_kernel_share_nothing() {
    let (_, json) = race_with("constant_write_through_integer", &["--local-size", "4", "--num-groups", "1"]);
    let warnings = json["warnings"].as_array().cloned().unwrap_or_default();
    assert!(warnings.iter().all(|w| w["kind"] != "no-shared-access"), "{json}");
    assert_eq!(json["findings"][0]["kind"], "write-to-read-only", "{json}");
}

/// A `__constant` pointer parameter given a size with `--arg` is read-only
/// too: the write through a rebuilt pointer is the same finding.
#[test]
fn a_sized_constant_parameter_is_read_only() {
    let (_, json) = race_with("constant_parameter_write", &["--local-size", "4", "--num-groups", "1", "--arg", "table=64"]);
    assert_eq!(json["findings"][0]["kind"], "write-to-read-only", "{json}");
    assert_eq!(json["findings"][0]["status"], "confirmed", "{json}");
}

/// A work-item whose state repeats at a loop is reported as looping for
/// ever, at the loop's line, and the run is not cut by the step budget.
#[test]
fn nonterminating_work_items_are_named() {
    let (run, json) = race_with("nonterminating_break", &["--local-size", "64", "--num-groups", "1"]);
    assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
    assert!(json["limit"].is_null(), "{}", run.stdout);
    let warnings = json["warnings"].as_array().expect("warnings");
    let spins: Vec<&str> = warnings.iter().filter(|w| w["kind"] == "non-terminating").filter_map(|w| w["message"].as_str()).collect();
    assert!(!spins.is_empty(), "{}", run.stdout);
    assert!(spins.iter().all(|m| m.contains("never terminates") && m.contains("line 8")), "{spins:?}");
    // Work-items 0-4 leave the loop: only 5 and up are named.
    assert!(spins[0].contains("work-item (5,0,0)"), "{spins:?}");
}

/// Counter slots are told apart without the solver: a deterministic count
/// (solver queries), not a time.
#[test]
fn counter_slots_need_no_solver_query() {
    let (run, json) = race_with("counter_slots_many_groups", &["--local-size", "64", "--num-groups", "12"]);
    assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
    assert_eq!(json["stats"]["queries"], 0, "{}", run.stdout);
}

/// A default enumeration that explodes in paths switches to pair mode and
/// says so; a small one that does not explode stays enumerated.
#[test]
fn exploding_enumeration_switches_to_pair_mode() {
    let path = common::repo().join("tests/fixtures/race/data_barrier_switches_to_pair.cl");
    let p = path.to_str().unwrap();
    for (items, mode, switched) in [("256", "pair", true), ("4", "enumerate", false)] {
        let run = common::symcross(&["race", p, "--local-size", items, "--num-groups", "1", "--json", "-"]);
        let json = run.json.expect("JSON report");
        assert_eq!(json["verdict"], "findings", "{}", run.stdout);
        assert!(json["mode"].as_str().unwrap_or("").starts_with(mode), "{}", run.stdout);
        let kinds: Vec<&str> =
            json["warnings"].as_array().map(|w| w.iter().filter_map(|w| w["kind"].as_str()).collect()).unwrap_or_default();
        assert_eq!(kinds.contains(&"mode-switch"), switched, "{kinds:?}");
    }
}

/// A loop summarised at a floating-point test stands only for trips whose
/// shared store was logged: the race on the one slot is found in both
/// modes, and the twin storing to each work-item's own slot is clean.
#[test]
fn fp_loop_summary_logs_its_store_in_both_modes() {
    for mode in ["enumerate", "pair"] {
        let json = run_in_mode("fp_loop_shared_store_race", mode);
        let findings = json["findings"].as_array().cloned().unwrap_or_default();
        assert!(
            findings.iter().any(|f| f["kind"] == "race"
                && f["status"] == "confirmed"
                && f["message"].as_str().unwrap_or("").contains("write-write race on global buffer `last` at element 0")),
            "{mode}: {json}"
        );
        let json = run_in_mode("fp_loop_own_store_ok", mode);
        assert_eq!(json["verdict"], "equivalent", "{mode}: {json}");
    }
}

/// Abstraction is weighed per work-item and value: on one path through
/// summarised loops, the race between stores made before each work-item's
/// summary is confirmed, and the race between stores that a summarised
/// value guards is not, in both modes.
#[test]
fn a_race_apart_from_the_summaries_is_confirmed() {
    for mode in ["enumerate", "pair"] {
        let path = common::repo().join("tests/fixtures/race/fp_loop_before_and_after_summary.cl");
        let args =
            ["race", path.to_str().unwrap(), "--local-size", "4", "--num-groups", "1", "--all-findings", "--mode", mode, "--json", "-"];
        let json = common::symcross(&args).json.unwrap_or_else(|| panic!("{mode}: no JSON report"));
        let findings = json["findings"].as_array().cloned().unwrap_or_default();
        let status_of = |buffer: &str| {
            findings
                .iter()
                .find(|f| f["message"].as_str().unwrap_or("").contains(&format!("race on global buffer `{buffer}`")))
                .map(|f| (f["status"].as_str().unwrap_or("").to_string(), f["message"].as_str().unwrap_or("").to_string()))
        };
        let first = status_of("first").unwrap_or_else(|| panic!("{mode}: no race on `first`: {json}"));
        assert_eq!(first.0, "confirmed", "{mode}: {}", first.1);
        let after = status_of("after").unwrap_or_else(|| panic!("{mode}: no race on `after`: {json}"));
        assert_eq!(after.0, "unconfirmed", "{mode}: {}", after.1);
        assert!(after.1.contains("loop summarised"), "{mode}: {}", after.1);
        assert_eq!(json["verdict"], "findings", "{mode}: {json}");
    }
}

/// What a summarised work-item writes after its summary may be what no
/// device writes: a race between work-items that read it (and the write's
/// own race) stays unconfirmed, though the stored values name no
/// summarised value.
#[test]
fn a_race_behind_a_summarised_write_stays_unconfirmed() {
    let path = common::repo().join("tests/fixtures/race/fp_loop_summarised_write_read.cl");
    let args = [
        "race",
        path.to_str().unwrap(),
        "--local-size",
        "4",
        "--num-groups",
        "1",
        "--arg",
        "flag=4:fill:0",
        "--all-findings",
        "--json",
        "-",
    ];
    let json = common::symcross(&args).json.expect("no JSON report");
    let findings = json["findings"].as_array().cloned().unwrap_or_default();
    for buffer in ["flag", "out"] {
        let f = findings
            .iter()
            .find(|f| f["message"].as_str().unwrap_or("").contains(&format!("race on global buffer `{buffer}`")))
            .unwrap_or_else(|| panic!("no race on `{buffer}`: {json}"));
        assert_eq!(f["status"], "unconfirmed", "{buffer}: {f}");
        assert!(f["message"].as_str().unwrap_or("").contains("loop summarised"), "{buffer}: {f}");
    }
    assert_eq!(json["verdict"], "inconclusive", "{json}");
}

/// A struct assignment is a block copy at -O0: its bytes are accesses, and
/// copies of different values race for real (not benign), as the scalar
/// stores of -O1 do.
#[test]
fn struct_copies_race_at_o0_as_at_o1() {
    let path = common::repo().join("tests/fixtures/race/struct_copy_same_slot_race.cl");
    for flags in ["-O0", "-O1"] {
        let run =
            common::symcross(&["race", path.to_str().unwrap(), "--local-size", "4", "--num-groups", "1", "--cflags", flags, "--json", "-"]);
        let json = run.json.expect("JSON report");
        let findings = json["findings"].as_array().cloned().unwrap_or_default();
        assert!(
            findings.iter().any(|f| f["kind"] == "race" && f["message"].as_str().unwrap_or("").contains("race on global buffer `slot`")),
            "{flags}: {json}"
        );
    }
    let messages = fixture_messages("struct_copy_same_slot_race");
    assert!(messages.iter().all(|m| !m.contains("benign")), "{messages:?}");
}

/// A race check that runs out of solver queries leaves pairs undecided:
/// the report names the limit, a warning says how many and how to raise
/// it, and the verdict is inconclusive, never race-free. The budget is
/// counted in queries.
#[test]
fn race_query_budget_is_a_named_limit() {
    let flags = ["--local-size", "8", "--num-groups", "1", "--max-race-queries", "10", "--mode", "enumerate"];
    let (run, json) = race_with("race_query_budget", &flags);
    assert_eq!(json["verdict"], "inconclusive", "{}", run.stdout);
    assert_eq!(json["limit"], "race-queries", "{}", run.stdout);
    let warnings = json["warnings"].to_string();
    assert!(warnings.contains("asked 10 solver queries") && warnings.contains("--max-race-queries 10"), "{warnings}");
    assert_eq!(run.code, 3, "{}", run.stdout);
}

/// A default enumeration that stops at the race-query limit is checked in
/// pair mode instead, which asks a query per pair of accesses rather than
/// per pair of work-items, and says so; `--mode enumerate` keeps the limit.
#[test]
fn race_query_limit_switches_enumeration_to_pair_mode() {
    let (run, json) = race_with("race_query_budget", &["--local-size", "8", "--num-groups", "1", "--max-race-queries", "10"]);
    assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
    assert!(json["mode"].as_str().unwrap_or("").starts_with("pair"), "{}", run.stdout);
    let switch = warnings_of(&json, "mode-switch");
    assert!(
        switch.len() == 1 && switch[0].contains("asked --max-race-queries 10 solver queries") && switch[0].contains("pair mode instead"),
        "{switch:?}"
    );
}

/// Barrier flags that differ between work-items of a group are a barrier
/// divergence naming both flags (OpenCL C requires the same), in both
/// modes; not a race a device would never show.
#[test]
fn barrier_flags_differing_per_work_item_diverge() {
    for (name, flags) in [
        ("nonuniform_barrier_flags", "(0 and CLK_LOCAL_MEM_FENCE)"),
        ("symbolic_barrier_flags_pair", "pass different flags to the barrier at line 9 (CLK_LOCAL_MEM_FENCE and 0)"),
    ] {
        let messages = fixture_messages(name);
        assert!(
            messages.iter().any(|m| m.starts_with("barrier divergence: work-items (0,0,0) of group (0,0,0) and")
                && m.contains(flags)
                && m.ends_with("every work-item of a group must pass the same")),
            "{name}: {messages:?}"
        );
    }
}

/// An unsized `__local` argument is indeterminate until written, in
/// enumerate mode and, before a barrier, in pair mode; under
/// `--local-memory arbitrary` it is arbitrary but defined.
#[test]
fn unsized_local_arguments_start_indeterminate() {
    for mode in ["enumerate", "pair"] {
        let json = run_in_mode("unsized_local_never_written", mode);
        let findings = json["findings"].as_array().cloned().unwrap_or_default();
        assert!(
            findings.iter().any(|f| f["kind"] == "uninitialized-read"
                && f["status"] == "confirmed"
                && f["message"].as_str().unwrap_or("").contains("depends on uninitialised bits of local buffer `limit`")),
            "{mode}: {json}"
        );
    }
    let messages = fixture_messages("unsized_local_half_written");
    assert!(messages.iter().any(|m| m.contains("depends on uninitialised bits of local buffer `tmp`")), "{messages:?}");
    let (run, json) = race_with("unsized_local_never_written", &["--local-size", "4", "--num-groups", "1", "--local-memory", "arbitrary"]);
    assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
}

/// Pair mode cannot tell, after a barrier, whether a work-item it does not
/// run wrote a `__local` byte that was indeterminate before: a use of such
/// a byte is named in a `local-read-unchecked` warning (never a silent
/// gap), and the witness's work-group is enumerated: an uninitialised read
/// there is a confirmed finding and the warning goes; a clean enumeration
/// leaves the warning, which says so. Bytes the modelled work-items wrote
/// themselves, and bytes every work-item writes at an offset set by its
/// local id, stay checked and quiet; `--local-memory arbitrary` has no gap
/// to name.
#[test]
fn pair_mode_names_unchecked_local_reads() {
    // Four work-items, one group: the re-check enumerates the NDRange.
    let half = fixture_report("local_half_unwritten_pair");
    assert_eq!(half["verdict"], "findings", "{half}");
    let findings = half["findings"].as_array().cloned().unwrap_or_default();
    assert!(
        findings.iter().any(|f| f["kind"] == "uninitialized-read"
            && f["status"] == "confirmed"
            && f["message"].as_str().unwrap_or("").contains("uninitialised bits of local `upper_half.tile`")),
        "{half}"
    );
    assert!(warnings_of(&half, "local-read-unchecked").is_empty(), "{half}");
    // 128 groups of 64: the witness's group is enumerated.
    let gap = fixture_report("local_unwritten_slot_pair");
    let findings = gap["findings"].as_array().cloned().unwrap_or_default();
    assert!(
        findings.iter().any(|f| f["kind"] == "uninitialized-read"
            && f["status"] == "confirmed"
            && f["message"].as_str().unwrap_or("").contains("uninitialised bits of local `gap.tile`")
            && f["message"].as_str().unwrap_or("").contains("confirmed by enumerating every work-item of work-group")
            && f["witness"].is_object()),
        "{gap}"
    );
    assert!(warnings_of(&gap, "local-read-unchecked").is_empty(), "{gap}");
    // Every slot written, by stores pair mode cannot attribute: named, and
    // the clean enumeration of the witness's group is in the warning; the
    // check was not made for the other groups, so nothing found is
    // inconclusive, not equivalent.
    let even = fixture_report("local_even_items_write_pairs_pair");
    assert_eq!(even["verdict"], "inconclusive", "{even}");
    let unchecked = warnings_of(&even, "local-read-unchecked");
    assert!(
        unchecked.len() == 1
            && unchecked[0].starts_with("line 16: a branch condition depends on bytes of `__local` variable `pairs.tile` after a barrier")
            && unchecked[0].contains("--mode enumerate checks it")
            && unchecked[0].contains("; enumerating every work-item of work-group (")
            && unchecked[0].ends_with("found no uninitialised read there"),
        "{unchecked:?}"
    );
    for quiet in
        ["local_own_slot_pair_ok", "local_tile_neighbour_pair_ok", "unsized_local_tile_neighbour_pair_ok", "unsized_local_own_slot_pair_ok"]
    {
        let json = fixture_report(quiet);
        assert!(warnings_of(&json, "local-read-unchecked").is_empty(), "{quiet}: {json}");
    }
    // Every work-item stores `l + 1` (whose overflow poison cannot be set)
    // into its slot of an unsized argument: every slot read is written.
    let (_, all) = race_with("unsized_local_all_written_ok", &["--local-size", "64", "--num-groups", "2", "--mode", "pair"]);
    assert!(all["verdict"] == "equivalent" && warnings_of(&all, "local-read-unchecked").is_empty(), "{all}");
    // An unsized `__local` argument read after a barrier: work-items 2
    // and 3 read slots no work-item wrote.
    let pair = ["--local-size", "4", "--num-groups", "1", "--mode", "pair"];
    let (_, unsized_arg) = race_with("unsized_local_half_written", &pair);
    let findings = unsized_arg["findings"].as_array().cloned().unwrap_or_default();
    assert!(
        findings.iter().any(|f| f["kind"] == "uninitialized-read"
            && f["status"] == "confirmed"
            && f["message"].as_str().unwrap_or("").contains("local buffer `tmp`")),
        "{unsized_arg}"
    );
    // The same in 128 groups of 64, where work-items 0 and 1 of each group
    // write: named, and confirmed in the witness's group.
    let (_, many) = race_with("unsized_local_half_written", &["--local-size", "64", "--num-groups", "128", "--mode", "pair"]);
    assert_eq!(many["verdict"], "findings", "{many}");
    let (_, arbitrary) = race_with("unsized_local_half_written", &[&pair[..], &["--local-memory", "arbitrary"]].concat());
    assert!(warnings_of(&arbitrary, "local-read-unchecked").is_empty(), "{arbitrary}");
    assert_eq!(arbitrary["verdict"], "equivalent", "{arbitrary}");
}

/// An unsized_arg buffer has no end but starts at offset 0: a negative index
/// is out of bounds, named with its element and work-item, in both modes.
#[test]
fn negative_index_into_unsized_buffer_is_out_of_bounds() {
    for mode in ["enumerate", "pair"] {
        let (_, json) = race_with("unsized_negative_index", &["--local-size", "4", "--num-groups", "1", "--mode", mode]);
        let findings = json["findings"].as_array().cloned().unwrap_or_default();
        assert!(
            findings.iter().any(|f| f["kind"] == "out-of-bounds"
                && f["status"] == "confirmed"
                && f["message"]
                    == "write of 4 bytes before the start of unsized buffer object `out` by work-item (0,0,0) of group (0,0,0), at \
                        element -1 (byte offset -4)"),
            "{mode}: {json}"
        );
    }
}

/// Misaligned accesses name their size, buffer, byte offset and work-item.
#[test]
fn misaligned_accesses_are_described() {
    let messages = fixture_messages("misaligned_int_load");
    assert!(
        messages.iter().any(|m| m
            == "misaligned 4-byte load at byte offset 1 of buffer `bytes`: the address must be a multiple of 4, by work-item (0,0,0) of \
                group (0,0,0)"),
        "{messages:?}"
    );
}

/// `__local` memory no work-item wrote is indeterminate by default: a
/// branch on it is an uninitialised read naming the variable; under
/// `--local-memory arbitrary` (GPUVerify's assumption) it is arbitrary but
/// defined, and the kernel is clean.
#[test]
fn local_memory_modes() {
    let messages = fixture_messages("local_never_written_branch");
    assert!(messages.iter().any(|m| m.contains("depends on uninitialised bits of local `gate.limit`")), "{messages:?}");
    let (run, json) = race_with("local_never_written_branch", &["--local-size", "4", "--num-groups", "1", "--local-memory", "arbitrary"]);
    assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
    let path = common::repo().join("tests/fixtures/race/local_never_written_branch.cl");
    let run = common::symcross(&["race", path.to_str().unwrap(), "--local-size", "4", "--num-groups", "1", "--local-memory", "zero"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// Indeterminate bytes stored into a `__global` buffer are a finding naming
/// the buffer, the element and the work-item.
#[test]
fn uninitialised_store_to_global_is_named() {
    let messages = fixture_messages("uninit_private_to_global");
    assert!(
        messages.iter().any(|m| m
            == "the value stored into buffer `out` at element 3 (byte offset 12) depends on uninitialised bits of stack `table`, \
                           by work-item (0,0,0) of group (0,0,0)"),
        "{messages:?}"
    );
}

/// A struct copied from `__local` memory into a `__global` buffer as one
/// block: its never-written member is a finding naming the destination.
#[test]
fn uninitialised_member_copied_to_global_is_named() {
    let messages = fixture_messages("local_struct_half_written_copied_out");
    assert!(
        messages
            .iter()
            .any(|m| m.contains("the data copied into buffer `out` at byte offset 0 depends on uninitialised bits of local `copy_out.s`")),
        "{messages:?}"
    );
}

/// An access past a buffer in a kernel names the work-item that made it
/// and the element it reached, not only the buffer.
#[test]
fn kernel_out_of_bounds_names_work_item_and_element() {
    let messages = fixture_messages("sized_buffer_oob");
    assert!(
        messages.iter().any(|m| m
            == "write of 4 bytes outside buffer object `out` of 200 bytes by work-item (10,0,0) of group (0,0,0), at element 53 (byte offset 212)"),
        "{messages:?}"
    );
    let messages = fixture_messages("local_array_out_of_bounds");
    assert!(
        messages.iter().any(|m| m
            == "an access at index 10 of an array of 10 elements by work-item (10,0,0) of group (0,0,0), outside local object `fill.A` of 40 bytes"),
        "{messages:?}"
    );
}

/// An index past an array member's length is named with the array and
/// its length, even where the address stays inside the struct.
#[test]
fn subobject_bounds_name_the_array() {
    let messages = fixture_messages("array_member_past_end");
    assert!(
        messages.iter().any(|m| m
            .starts_with("an access at index 3 of array `vals` of 3 elements by work-item (3,0,0) of group (0,0,0): outside the array")),
        "{messages:?}"
    );
    let messages = fixture_messages("private_array_into_next");
    assert!(
        messages.iter().any(|m| m.starts_with("an access at index 4 of an array of 4 elements by work-item ")
            && m.ends_with(", outside stack object `first` of 16 bytes")),
        "{messages:?}"
    );
}

/// An undefined function given a pointer may read and write all of the
/// object it points into: two work-items' calls reaching one buffer race,
/// unconfirmed and saying why; a value it may have written makes a race
/// unconfirmed; what it could reach through a stored pointer, or a
/// program-scope variable it could write, leaves the call unsupported,
/// named with the reason.
#[test]
fn undefined_functions_may_touch_every_object_they_reach() {
    let race_of = |name: &str| {
        let report = fixture_report(name);
        let race = report["findings"].as_array().and_then(|fs| fs.iter().find(|f| f["kind"] == "race")).cloned();
        race.unwrap_or_else(|| panic!("{name}: no race: {report}"))
    };
    let race = race_of("undefined_function_writes_global");
    assert_eq!(race["status"], "unconfirmed", "{race}");
    let message = race["message"].as_str().unwrap_or("");
    assert!(message.starts_with("write-write race on global buffer `out`"), "{message}");
    assert!(message.contains("read or write of any byte (a call to a function without a body) by work-item"), "{message}");
    assert!(message.contains("not confirmed: a function declared without a body is taken to read and write every byte"), "{message}");
    let race = race_of("undefined_function_local_fill_race");
    assert_eq!(race["status"], "unconfirmed", "{race}");
    assert!(race["message"].as_str().unwrap_or("").starts_with("read-write race on local buffer `use_tile.tile`"), "{race}");
    let race = race_of("undefined_function_writes_private");
    assert_eq!(race["status"], "unconfirmed", "{race}");
    assert!(race["message"].as_str().unwrap_or("").contains("depends on the result of `adjust`"), "{race}");
    let messages = fixture_messages("undefined_function_stored_pointer");
    assert!(
        messages.iter().any(|m| m.starts_with("call to `redirect`, a function declared without a body in this program: its argument 1")
            && m.contains("which holds a pointer, is passed on")),
        "{messages:?}"
    );
    let messages = fixture_messages("undefined_function_program_variable");
    assert!(messages.iter().any(|m| m.contains("call to `next_slot`") && m.contains("program-scope variable `last`")), "{messages:?}");
    let report = fixture_report("undefined_function_index_race");
    let race = report["findings"].as_array().and_then(|fs| fs.iter().find(|f| f["kind"] == "race")).cloned().unwrap_or_default();
    assert_eq!(race["status"], "unconfirmed", "{report}");
    assert!(race["message"].as_str().unwrap_or("").contains("depends on the result of `pick`"), "{report}");
}

/// A confirmed race at a line that already has an unconfirmed one takes
/// its place: one race finding at the line, confirmed, with the second
/// trip's witness.
#[test]
fn a_confirmed_race_replaces_an_unconfirmed_one_at_its_line() {
    let report = fixture_report("race_confirmed_on_a_later_trip");
    let races: Vec<_> = report["findings"].as_array().into_iter().flatten().filter(|f| f["kind"] == "race").collect();
    assert_eq!(races.len(), 1, "{report}");
    assert_eq!(races[0]["status"], "confirmed", "{report}");
    assert!(!races[0]["message"].as_str().unwrap_or("").contains("pick"), "{report}");
}

/// Pair mode's re-check of a havoc doubt that enumerates every group of
/// the NDRange gives enumerate mode's exact answer, saying so; a pair run
/// on one work-item is enumerated, saying so.
#[test]
fn pair_mode_falls_back_to_enumeration_where_it_is_the_whole_launch() {
    for (name, items, verdict) in [("pair_whole_ndrange_recheck_ok", "4", "equivalent"), ("pair_single_work_item", "1", "findings")] {
        let path = common::repo().join("tests/fixtures/race").join(format!("{name}.cl"));
        let run = common::symcross(&[
            "race",
            path.to_str().unwrap(),
            "--local-size",
            items,
            "--num-groups",
            "1",
            "--mode",
            "pair",
            "--json",
            "-",
        ]);
        let json = run.json.expect("JSON report");
        assert_eq!(json["verdict"], verdict, "{name}: {}", run.stdout);
        assert!(json["mode"].as_str().unwrap_or("").starts_with("enumerate"), "{name}: {}", run.stdout);
        let warnings = json["warnings"].to_string();
        assert!(warnings.contains("mode-switch"), "{name}: {warnings}");
        if verdict == "findings" {
            assert_eq!(json["findings"][0]["status"], "confirmed", "{name}: {}", run.stdout);
        }
    }
}

/// A race whose query the solver left undecided (here a work budget of 1
/// unit, the same on every machine) says so and why, and is labelled as an
/// undecided check is (`solver-unknown`), so the suite's result cache does
/// not keep a race resting on a timeout or Bitwuzla's CPU budget. It was
/// reported unconfirmed with no reason and no label.
#[test]
fn a_race_the_solver_left_undecided_says_why() {
    let (run, json) = race_with("data_branch_guarded_writes_race", &["--local-size", "8", "--num-groups", "1", "--query-budget", "1"]);
    assert_eq!(json["verdict"], "inconclusive", "{}", run.stdout);
    let races: Vec<&serde_json::Value> = json["findings"].as_array().expect("findings").iter().filter(|f| f["kind"] == "race").collect();
    assert!(!races.is_empty(), "{}", run.stdout);
    for f in races {
        assert_eq!((&f["status"], &f["decided_by"]), (&"unconfirmed".into(), &"solver-unknown".into()), "{f:#}");
        let msg = f["message"].as_str().unwrap();
        assert!(
            msg.contains("; not confirmed: the solver did not decide whether the two accesses can meet (")
                && msg.contains("the deciding budget of 1 work units (--query-budget) ran out"),
            "{msg}"
        );
    }
}
