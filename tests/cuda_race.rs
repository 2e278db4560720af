//! CUDA kernels under `symcross race`: each fixture in tests/fixtures/cuda/
//! gives its command line (`// args:`) and expected verdict (`// expect:`)
//! in its first lines, a racy kernel and its race-free twin for each class
//! of the OpenCL fixtures. The tests below them check what the reports
//! say: threads and blocks named as CUDA names them, shared memory, the
//! kernel found by its plain name.

mod common;

fn fixture_path(name: &str) -> std::path::PathBuf {
    common::repo().join("tests/fixtures/cuda").join(format!("{name}.cu"))
}

common::fixture_tests!(
    |name: &str| common::verify_race_fixture(&fixture_path(name));
    neighbour_no_sync,
    neighbour_synced_ok,
    inter_block_race,
    inter_block_ok,
    inter_block_same_elements_race,
    inter_block_same_elements_atomic_ok,
    transpose_tile_no_sync,
    transpose_tile_ok,
    reduction_missing_sync,
    reduction_ok,
    barrier_divergence,
    barrier_uniform_ok,
    symbolic_index_race,
    histogram_plain_increment,
    histogram_atomic_ok,
    atomics_vs_plain,
    out_of_bounds,
    shared_uninitialised,
    pair_mode_race,
    pair_mode_ok,
    warp_synchronous_no_syncwarp,
    warp_shared_counter,
    warp_synchronous_syncwarp,
    warp_shuffle_reduction,
    constant_memory_write,
    align_and_fast_math_ok,
    declared_function_ok,
    declared_function_race,
    declared_function_pointer_argument,
    declared_function_pointer_to_pointers,
    declared_function_private_ok,
    constant_memory_set_by_host,
    constant_memory_any_contents_ok,
    call_through_integer,
    call_through_function_pointer_ok,
    pointer_choice_through_memory_ok,
    pointer_choice_through_memory_race,
    cooperative_groups_block_sync_ok,
    cooperative_groups_divergent_sync,
    cooperative_groups_grid_sync,
    cooperative_groups_block_sync_between_blocks,
    cooperative_groups_grid_sync_known_answers,
    cooperative_groups_grid_sync_wrong_answer,
    cooperative_groups_grid_sync_second_phase_race,
    cooperative_groups_grid_sync_block_exits,
    cooperative_groups_grid_sync_pair_mode,
    mul24_known_answers,
    mul24_wrong_answer,
    struct_pointer_fields_ok,
    struct_pointer_fields_race,
    struct_pointer_field_method_ok,
    curand_own_state_ok,
    curand_shared_state_race,
    curand_mtgp32_block_ok,
    curand_mtgp32_block_too_large,
    curand_own_state_many_threads_ok,
    cooperative_groups_two_sync_sites,
    syncthreads_count_divergent,
    effect_free_loop_nest_ok,
    effect_free_loop_nest_pair_ok,
    effect_free_loop_nest_race,
    effect_free_loop_value_ok,
    effect_free_loop_value_race,
    effect_free_loop_race_after,
    effect_free_loop_late_store,
    effect_free_loop_signed_overflow,
    effect_free_loop_barrier_divergence,
    copy_length_argument_race,
    copy_length_argument_ok,
    fill_length_only_huge,
    dynamic_parallelism,
    texture_fetch_ok,
    texture_fetch_race,
    texture_normalized_float,
    struct_copy_uninitialised_member_unused_ok,
    struct_copy_uninitialised_member_branch,
    struct_copy_uninitialised_to_global,
    struct_copy_padding_to_global_ok,
    benign_same_value_race,
    benign_same_value_allowed_ok,
    atomic_cas_succeeds_race,
    atomic_cas_never_succeeds_ok,
    atomic_counter_slots_ok,
    atomic_counter_slots_neighbour_race,
    float4_components_ok,
    float4_same_component_race,
    int3_store_unset_component,
    loop_invariant_store_summarised_ok,
    barrier_loop_symbolic_trip_count,
    nonterminating_spin_ok,
    misaligned_int_load,
    byval_struct_index_out_of_bounds,
    private_array_past_end,
    block_dependent_shared_race,
    shared_carryover_between_blocks,
    shared_half_unwritten_pair,
    memset_shared_row_race,
    memset_own_row_ok,
    two_races_all_findings,
    struct_assign_same_slot_race,
    struct_assign_own_slot_ok,
    data_dependent_sync_switches_to_pair,
    read_only_input_written,
    null_argument_dereferenced,
    null_argument_checked_ok,
    barrier_divergence_large_grid,
    dynamic_shared_written_ok,
    dynamic_shared_never_written,
    scatter_given_indices_race,
    scatter_given_indices_ok,
    // --- cudatwins ---
    benign_read_write_allowed_ok,
    benign_read_write_default_race,
    benign_read_write_differs_race,
    benign_pair_differs_race,
    benign_pair_solver_ok,
    benign_float_values_pair_ok,
    float4_components_pair_mode_ok,
    float4_components_pair_mode_race,
    float4_component_read_race,
    float4_lanes_ok,
    float4_same_lane_race,
    gid_bound_loop_summarised_ok,
    gid_bound_loop_summarised_race,
    gid_bound_loop_counter_signed_ok,
    gid_bound_loop_counter_in_memory_ok,
    loop_break_not_summarised,
    loop_varying_store_not_summarised,
    array_member_past_end,
    array_member_within_ok,
    write_only_output_read,
    write_only_component_ok,
    // --- cudamodel ---
    device_memset_shared_row_race,
    device_memset_own_row_ok,
    device_memset_past_end,
    device_memcpy_struct_ok,
    device_memcpy_overlapping_race,
    memcpy_async_tile_ok,
    memcpy_async_read_before_wait,
    memcpy_async_source_written_before_wait,
    memcpy_async_past_end,
    memcpy_async_wait_prior_ok,
    memcpy_async_wait_prior_race,
    memcpy_async_guide_loop_ok,
    memcpy_async_guide_loop_no_sync,
    memcpy_async_divergent_wait,
    texture_object_fetch_ok,
    texture_object_index_race,
    texture_object_2d_ok,
    surface_write_not_modelled,
    pipeline_copy_not_modelled,
    // --- cudatwins2 ---
    arg_element_of_the_kernel_parameter_race,
    loop_counter_may_overflow,
    loop_counter_twice_per_trip,
    slot_range_ok,
    slot_range_race,
    float_range_ok,
    float_range_race,
    scatter_file_ok,
    scatter_file_race,
    data_branch_atomic_counter_ok,
    data_branch_guarded_writes_ok,
    data_branch_guarded_writes_race,
    data_branch_shared_race,
    data_branch_merge_ok,
    float_range_through_intrinsics_race,
);

/// Regression: an index past a struct's array member in CUDA device code
/// named OpenCL C as the language that leaves it undefined.
#[test]
fn an_index_past_an_array_member_names_cuda_cpp() {
    let (message, status) = finding_message("array_member_past_end", "out-of-bounds");
    assert_eq!(status, "confirmed", "{message}");
    assert!(message.contains("index 3 of array `vals` of 3 elements by thread (3,0,0) of block (0,0,0)"), "{message}");
    assert!(message.contains("(undefined in CUDA C++ even inside the enclosing object)"), "{message}");
}

// --- cudamodel ---

#[test]
fn a_read_before_the_wait_races_with_the_block_copy() {
    let (message, status) = finding_message("memcpy_async_read_before_wait", "race");
    assert_eq!(status, "confirmed", "{message}");
    assert!(message.contains("the asynchronous copy (not yet waited for) of thread ("), "{message}");
    assert!(message.contains("`tile`"), "{message}");
}

#[test]
fn a_write_of_the_source_before_the_wait_races_with_the_block_copy() {
    let (message, status) = finding_message("memcpy_async_source_written_before_wait", "race");
    assert_eq!(status, "confirmed", "{message}");
    assert!(message.contains("the asynchronous copy (not yet waited for) of thread ("), "{message}");
    assert!(message.contains("`data`"), "{message}");
}

#[test]
fn a_race_resting_on_a_texture_object_fetch_is_unconfirmed() {
    let (message, status) = finding_message("texture_object_index_race", "race");
    assert_eq!(status, "unconfirmed", "{message}");
    assert!(message.contains("value read from a texture"), "{message}");
}

#[test]
fn surfaces_and_pipelines_are_named_where_the_kernel_uses_them() {
    for (name, construct, line) in
        [("surface_write_not_modelled", "surf2Dwrite (surface memory)", 7), ("pipeline_copy_not_modelled", "__pipeline_memcpy_async", 10)]
    {
        let report = report(name, &[]);
        let f = &report["findings"][0];
        assert_eq!(f["kind"], "unsupported", "{report}");
        let message = f["message"].as_str().unwrap_or("");
        assert!(message.contains(&format!("CUDA device construct not modelled: {construct}")), "{message}");
        assert_eq!(f["location"]["line"], line, "{name}: at the user's call: {report}");
    }
}

/// Host programs using texture objects, CUDA arrays and surfaces (`check`).
#[test]
fn host_texture_objects_read_their_linear_memory() {
    common::check_fixture("tests/fixtures/cuda_host/texture_object_linear.cu", &[]);
    common::check_fixture("tests/fixtures/cuda_host/texture_object_linear_assumed_clamp.cu", &[]);
    common::check_fixture("tests/fixtures/cuda_host/texture_object_cuda_array.cu", &[]);
}

#[test]
fn a_race_resting_on_a_texture_read_says_so() {
    let (message, status) = finding_message("texture_fetch_race", "race");
    assert_eq!(status, "unconfirmed", "{message}");
    assert!(message.contains("a value read from a texture"), "{message}");
}

#[test]
fn a_race_after_a_loop_without_effects_says_the_loop_may_never_end() {
    let (message, status) = finding_message("effect_free_loop_race_after", "race");
    assert_eq!(status, "unconfirmed", "{message}");
    assert!(message.contains("having no effect, at its first test") && message.contains("it may never end"), "{message}");
}

#[test]
fn a_race_through_a_struct_fields_pointer_names_the_field() {
    let (message, status) = finding_message("struct_pointer_fields_race", "race");
    assert_eq!(status, "confirmed", "{message}");
    assert!(message.contains("global buffer `p.dst.out`"), "{message}");
}

#[test]
fn a_race_inside_a_curand_draw_is_reported_at_the_users_call() {
    let report = report("curand_shared_state_race", &[]);
    let f = &report["findings"][0];
    assert_eq!(f["kind"], "race", "{report}");
    let message = f["message"].as_str().unwrap_or("");
    assert!(message.contains("race on global buffer `states`"), "{message}");
    assert_eq!(f["location"]["line"], 8, "{report}");
    assert!(f["location"]["file"].as_str().unwrap_or("").ends_with("curand_shared_state_race.cu"), "{report}");
}

/// The message of the first finding of `kind` in a fixture's report.
fn finding_message(name: &str, kind: &str) -> (String, String) {
    let report = report(name, &[]);
    let f = report["findings"]
        .as_array()
        .and_then(|fs| fs.iter().find(|f| f["kind"] == kind))
        .unwrap_or_else(|| panic!("{name}: no {kind} finding: {report}"));
    (f["message"].as_str().unwrap_or("").to_string(), f["status"].as_str().unwrap_or("").to_string())
}

#[test]
fn a_declared_function_given_a_pointer_may_touch_all_it_reaches() {
    let (message, status) = finding_message("declared_function_pointer_argument", "race");
    assert_eq!(status, "unconfirmed", "{message}");
    assert!(message.contains("read or write of any byte (a call to a function without a body)"), "{message}");
    assert!(message.contains("not confirmed: a function declared without a body is taken to read and write"), "{message}");
    let (message, _) = finding_message("declared_function_pointer_to_pointers", "unsupported");
    assert!(message.contains("call to `clear_row`, a __device__ function declared without a body"), "{message}");
    assert!(message.contains("points into `rows`, whose elements may hold pointers"), "{message}");
}

#[test]
fn a_race_through_a_declared_functions_result_is_not_confirmed() {
    let (message, status) = finding_message("declared_function_race", "race");
    assert_eq!(status, "unconfirmed", "{message}");
    assert!(message.contains("depends on the result of `choose`"), "{message}");
}

#[test]
fn a_call_through_an_integer_is_an_invalid_call() {
    let (message, status) = finding_message("call_through_integer", "out-of-bounds");
    assert_eq!(status, "confirmed");
    assert!(message.contains("call through invalid function pointer 0x5"), "{message}");
}

#[test]
fn constant_memory_contents_are_the_hosts_choice_in_the_witness() {
    let report = report("constant_memory_set_by_host", &[]);
    let witness = &report["findings"][0]["witness"];
    assert!(witness.get("table").is_some(), "the witness gives the table's contents: {report}");
}

#[test]
fn every_fixture_is_listed() {
    for entry in std::fs::read_dir(common::repo().join("tests/fixtures/cuda")).expect("fixture dir") {
        let path = entry.expect("entry").path();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
        if path.extension().is_some_and(|e| e == "cu") {
            assert!(LISTED.contains(&stem.as_str()) || HOST_FIXTURES.contains(&stem.as_str()), "fixture {stem} is not listed");
        }
    }
}

/// Host programs (`check host.cu`), listed by tests/cuda_host.rs.
const HOST_FIXTURES: &[&str] = &[];

/// The JSON report of `symcross race` on a fixture, with `extra` arguments
/// after those of its `// args:` line.
fn report(name: &str, extra: &[&str]) -> serde_json::Value {
    let path = fixture_path(name);
    let text = std::fs::read_to_string(&path).expect("read fixture");
    let args_line = text.lines().find_map(|l| l.strip_prefix("// args:")).expect("args line");
    let mut args = vec!["race", path.to_str().unwrap(), "--json", "-"];
    args.extend(args_line.split_whitespace());
    args.extend_from_slice(extra);
    let run = common::symcross(&args);
    run.json.unwrap_or_else(|| panic!("{name}: no JSON report: {}", run.stderr))
}

#[test]
fn races_name_threads_blocks_and_shared_memory_as_cuda_does() {
    let json = report("transpose_tile_no_sync", &[]);
    let msg = json["findings"][0]["message"].as_str().unwrap_or("");
    assert!(msg.contains("race on shared buffer `tile`"), "{msg}");
    assert!(msg.contains("write by thread (1,0,0) of block (0,0,0) and read by thread (0,1,0) of block (0,0,0)"), "{msg}");
}

#[test]
fn a_race_inside_one_warp_says_it_needs_threads_out_of_lockstep() {
    let json = report("warp_synchronous_no_syncwarp", &[]);
    let msg = json["findings"][0]["message"].as_str().unwrap_or("");
    assert!(msg.contains("thread (1,0,0) of block (0,0,0) and read by thread (0,0,0) of block (0,0,0)"), "{msg}");
    assert!(msg.contains("in one warp: this pair races only when the threads of a warp do not run in lockstep"), "{msg}");
    // Threads of two blocks race whatever the warps do.
    let json = report("inter_block_race", &[]);
    let msg = json["findings"][0]["message"].as_str().unwrap_or("");
    assert!(!msg.contains("lockstep"), "{msg}");
    // A plain `*sum += x` of one warp loses updates in lockstep too.
    let json = report("warp_shared_counter", &[]);
    let msg = json["findings"][0]["message"].as_str().unwrap_or("");
    assert!(msg.contains("race on global buffer `sum`"), "{msg}");
    assert!(!msg.contains("lockstep"), "{msg}");
}

#[test]
fn barrier_divergence_names_the_threads() {
    let json = report("barrier_divergence", &[]);
    let msg = json["findings"][0]["message"].as_str().unwrap_or("");
    assert!(
        msg.contains("thread (0,0,0) of block (0,0,0) waits at the barrier at line 8 while thread (16,0,0) of block (0,0,0) finished"),
        "{msg}"
    );
}

#[test]
fn inter_block_race_is_between_two_blocks() {
    let json = report("inter_block_race", &[]);
    let msg = json["findings"][0]["message"].as_str().unwrap_or("");
    assert!(msg.contains("race on global buffer `data`"), "{msg}");
    assert!(msg.contains("thread (0,0,0) of block (1,0,0)") && msg.contains("thread (7,0,0) of block (0,0,0)"), "{msg}");
}

#[test]
fn a_kernel_is_found_by_its_plain_name_and_sizes_take_every_spelling() {
    let path = fixture_path("neighbour_synced_ok");
    let p = path.to_str().unwrap();
    for sizes in [["--block", "16", "--grid", "2"], ["--blockDim=[16]", "--gridDim=2", "", ""], ["--local-size", "16", "--num-groups", "2"]]
    {
        let mut args = vec!["race", p, "--json", "-", "--kernel", "smooth"];
        args.extend(sizes.iter().filter(|s| !s.is_empty()));
        let run = common::symcross(&args);
        let json = run.json.unwrap_or_else(|| panic!("no JSON report: {}", run.stderr));
        assert_eq!(json["verdict"], "equivalent", "{sizes:?}: {json}");
        assert_eq!(json["mode"], "enumerate (32 work-items)", "{sizes:?}: {json}");
    }
    let run = common::symcross(&["race", p, "--kernel", "smoothe", "--block", "16", "--grid", "2"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("smooth"), "the kernels are listed by their plain names: {}", run.stderr);
}

#[test]
fn a_cuda_compile_error_names_file_and_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("broken.cu");
    std::fs::write(&src, "__global__ void k(int *a) {\n  a[threadIdx.x] = undeclared;\n}\n").unwrap();
    let run = common::symcross(&["race", src.to_str().unwrap(), "--block", "4", "--grid", "1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("broken.cu:2:") && run.stderr.contains("undeclared"), "{}", run.stderr);
}

#[test]
fn a_block_that_ends_before_the_grid_barrier_is_named() {
    let (message, _) = finding_message("cooperative_groups_grid_sync_block_exits", "barrier-divergence");
    assert!(message.contains("waits at the grid barrier at line 13"), "{message}");
    assert!(message.contains("of block (1,0,0) finished the kernel"), "{message}");
}

/// A divergence at a sync the shipped headers implement (a cooperative
/// group's `sync()`, `__syncthreads_count`) is reported at the user's call,
/// not inside the header.
#[test]
fn a_divergent_group_sync_is_reported_at_the_users_line() {
    let cases = [("cooperative_groups_divergent_sync", 12), ("syncthreads_count_divergent", 8), ("cooperative_groups_two_sync_sites", 14)];
    // At -O2 the header's functions are inlined into the kernel: their
    // code still names the user's line (and two sync sites stay two).
    for ((name, line), optimise) in cases.iter().flat_map(|&c| [(c, "-O0"), (c, "-O2")]) {
        let report = report(name, &["--cflags", optimise]);
        let f = report["findings"]
            .as_array()
            .and_then(|fs| fs.iter().find(|f| f["kind"] == "barrier-divergence"))
            .unwrap_or_else(|| panic!("{name}: no divergence: {report}"));
        assert_eq!(f["location"]["line"], line, "{name}: {f}");
        assert!(f["location"]["file"].as_str().unwrap_or("").ends_with(&format!("{name}.cu")), "{name}: {f}");
        let message = f["message"].as_str().unwrap_or("");
        assert!(message.contains(&format!("waits at the barrier at line {line}")), "{name}: {message}");
    }
}

/// A copy whose length is a kernel argument: the small lengths, where a
/// copy first steps past its own record, are tried first (the solver's
/// own first value is huge and would only exhaust memory).
#[test]
fn a_copy_of_an_argument_given_length_races_at_a_small_length() {
    let report = report("copy_length_argument_race", &[]);
    let f = &report["findings"][0];
    assert_eq!(f["kind"], "race", "{report}");
    assert_eq!(f["status"], "confirmed", "{report}");
    let len = u64::from_str_radix(f["witness"]["len"].as_str().unwrap_or("zz"), 16).map(u64::swap_bytes);
    assert!(matches!(len, Ok(7..=15)), "the witness's length is small and past the record: {f}");
    assert!(report["stats"]["paths"].as_u64().unwrap_or(99) <= 16, "{report}");
}

/// A length that is huge on every path is named, not run out of memory.
#[test]
fn a_fill_whose_length_can_only_be_huge_is_named() {
    let report = report("fill_length_only_huge", &[]);
    assert_eq!(report["verdict"], "inconclusive", "{report}");
    assert_eq!(report["limit"], serde_json::Value::Null, "{report}");
    let f = &report["findings"][0];
    assert_eq!(f["kind"], "unsupported", "{report}");
    assert_eq!(f["location"]["line"], 8, "{f}");
    let message = f["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with("the size of a memset depends on the input and no value below 16777216 bytes was found for it on this path"),
        "{message}"
    );
}

/// A launch from device code is named where it is, as not modelled,
/// instead of clang's compile error.
#[test]
fn a_launch_from_device_code_is_named_as_not_modelled() {
    let (message, _) = finding_message("dynamic_parallelism", "unsupported");
    assert!(message.starts_with("dynamic parallelism: kernel `child` is launched (or named) inside a __global__ function"), "{message}");
    let report = report("dynamic_parallelism", &[]);
    assert_eq!(report["findings"][0]["location"]["line"], 9, "{report}");
    assert_eq!(report["verdict"], "inconclusive", "{report}");
}

/// Neighbouring threads' two-element block copies share one element: the
/// race names that element (dst[1], byte 16 of the copies of threads 0
/// and 1), not the first element of the earlier copy, which only thread 0
/// writes (it named dst[0]).
#[test]
fn an_overlapping_block_copy_race_names_the_shared_element() {
    let (message, status) = finding_message("device_memcpy_overlapping_race", "race");
    assert_eq!(status, "confirmed", "{message}");
    assert!(message.starts_with("write-write race on global buffer `dst` at dst[1]"), "{message}");
    assert!(message.contains("(byte offset 16)"), "{message}");
}

/// An out-of-bounds write inside the header's memcpy_async loop is the
/// user's call's: reported at the call (line 11 of the fixture), not at
/// the header's line, with no "called from" note naming the call again.
#[test]
fn an_out_of_bounds_inside_memcpy_async_is_reported_at_the_users_call() {
    let report = report("memcpy_async_past_end", &[]);
    let f = report["findings"]
        .as_array()
        .and_then(|fs| fs.iter().find(|f| f["kind"] == "out-of-bounds"))
        .unwrap_or_else(|| panic!("no out-of-bounds finding: {report}"));
    assert_eq!(f["status"], "confirmed", "{f}");
    assert!(f["location"]["file"].as_str().unwrap_or("").ends_with("memcpy_async_past_end.cu"), "{f}");
    assert_eq!(f["location"]["line"], 11, "{f}");
    assert!(f["message"].as_str().unwrap_or("").contains("outside local object `tile` of 128 bytes"), "{f}");
    let related = f["related"].as_array().cloned().unwrap_or_default();
    assert!(related.iter().all(|r| r["location"]["line"] != 11), "{f}");
}
