//! Known-answer CUDA host programs for `symcross check`: each fixture in
//! tests/fixtures/cuda_host/ is one `.cu` file with host code and
//! `__global__` kernels, launched with `<<<...>>>` through the modelled
//! CUDA runtime and compared with a C reference; the expected verdict is
//! its first `// expect:` line.

mod common;

fn fixture(name: &str) {
    common::check_fixture(&format!("tests/fixtures/cuda_host/{name}.cu"), &[]);
}

common::fixture_tests!(
    fixture;
    vector_add,
    vector_add_off_by_one,
    matmul_tiled,
    matmul_tiled_missing_sync,
    reduction_dynamic_shared,
    reduction_shared_too_small,
    runtime_error_codes,
    sum_atomic,
    sum_race,
    host_dereferences_device_pointer,
    launch_codes,
    launch_codes_kernel_fault,
    constant_symbols,
    constant_symbols_offset,
    managed_saxpy,
    managed_saxpy_short,
    managed_read_before_sync,
    streams_vector_add,
    streams_ordered_by_event,
    streams_chunks,
    streams_chunks_overlapping,
    streams_symbolic_offset,
    streams_symbolic_offset_meets,
    streams_unordered_without_wait,
    managed_host_touches_other_half,
    managed_host_touches_same_half,
    device_limits,
    big_launch,
    transpose_perf,
    kernel_fault_codes,
    kernel_fault_codes_assert,
    kernel_fault_codes_trap,
    kernel_fault_codes_misaligned,
    managed_variables,
    managed_variables_before_sync,
    managed_variables_wrong_scale,
    static_shared_limit,
    static_shared_limit_exceeded,
    symbol_address_copies,
    symbol_address_copies_shifted,
    pitched_copies,
    pitched_copies_assumed_pitch,
    managed_prefetch,
    managed_prefetch_no_sync,
    cooperative_launch,
    cooperative_launch_unknown_fit,
    device_queries,
    device_queries_free_assumed,
    func_attributes,
    func_attributes_regs_assumed,
    host_function_in_stream,
    host_register,
    streams_many_symbolic_writes_ok,
    streams_many_symbolic_writes_undecided,
    kernel_faults_past_limit,
    graph_capture,
    dynamic_parallelism,
    uninitialised_host_data_in_kernel,
    struct_argument,
    vector_add_float4,
    freed_before_launch,
    grid_rounded_up_no_guard,
    // --- cudatwins ---
    math_exact_known_answers,
    math_approximate_not_c,
    stream_callback_unsupported,
    math_fmin_zero_tie_open,
);

/// The report of a fixture, run with `--json -`.
fn report(name: &str) -> serde_json::Value {
    report_with(name, &[])
}

/// The report of a fixture, run with `--json -` and `extra` arguments.
fn report_with(name: &str, extra: &[&str]) -> serde_json::Value {
    let path = common::repo().join(format!("tests/fixtures/cuda_host/{name}.cu"));
    let mut args = vec!["check", path.to_str().unwrap(), "--json", "-"];
    args.extend_from_slice(extra);
    let run = common::symcross(&args);
    assert!(!run.stderr.contains("panicked"), "{name}: {}", run.stderr);
    run.json.unwrap_or_else(|| panic!("{name}: no report: {}", run.stderr))
}

/// The off-by-one kernel's mismatch names the element its bound leaves
/// out, with a witness; no GPU replays it, and the report says so.
#[test]
fn off_by_one_names_the_element_and_is_confirmed_by_the_model_only() {
    let json = report("vector_add_off_by_one");
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "mismatch");
    let message = f["message"].as_str().unwrap();
    assert!(message.contains("element 9 of 10"), "{message}");
    assert_eq!(f["status"], "confirmed-by-model", "{f}");
    assert!(f["witness"].is_array() || f["witness"].is_object(), "{f}");
    assert!(f["native"]["detail"].as_str().unwrap_or("").contains("NVIDIA GPU"), "{f}");
}

/// A race inside the launched kernel names the buffer by its cudaMalloc
/// line and the two threads as CUDA does.
#[test]
fn race_in_a_launched_kernel_names_buffer_and_threads() {
    let json = report("sum_race");
    let f = json["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "race").expect("a race");
    let message = f["message"].as_str().unwrap();
    assert!(message.contains("global buffer `device memory allocated at sum_atomic.cu:28`"), "{message}");
    assert!(message.contains("thread (0,0,0) of block (0,0,0)"), "{message}");
}

/// A missing __syncthreads in the tiled multiply races on a static
/// `__shared__` tile, named as declared.
#[test]
fn missing_sync_races_on_the_shared_tile() {
    let json = report("matmul_tiled_missing_sync");
    let f = json["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "race").expect("a race");
    let message = f["message"].as_str().unwrap();
    assert!(message.contains("shared buffer `ta`") || message.contains("shared buffer `tb`"), "{message}");
}

/// Dynamic shared memory is exactly the launch's third argument: half of
/// it is overrun by the fifth thread of the block.
#[test]
fn dynamic_shared_memory_has_the_launched_size() {
    let json = report("reduction_shared_too_small");
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "out-of-bounds");
    let message = f["message"].as_str().unwrap();
    assert!(message.contains("`partial` of 16 bytes"), "{message}");
}

/// Host code writing through a cudaMalloc pointer: the finding says so
/// and points at the line.
#[test]
fn host_dereference_of_device_memory_is_named() {
    let json = report("host_dereferences_device_pointer");
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "out-of-bounds");
    let message = f["message"].as_str().unwrap();
    assert!(message.starts_with("host code writes device memory allocated at host_dereferences_device_pointer.cu:13"), "{message}");
    assert!(message.contains("not dereferenceable on the host"), "{message}");
    assert_eq!(f["location"]["line"], 15, "{f}");
}

/// `symcross race` on a `.cu` file words size errors as CUDA does: blocks
/// and grids, not work-groups (exit 2).
#[test]
fn race_size_errors_speak_cuda() {
    let path = common::repo().join("tests/fixtures/cuda_host/vector_add.cu");
    let p = path.to_str().unwrap();
    let cases: [(&[&str], &str); 3] = [
        (&["--block", "4"], "give the number of blocks: --grid X[,Y,Z]"),
        (&["--grid", "4"], "give the block size: --block X[,Y,Z]"),
        (&["--block", "4", "--global-size", "10"], "--global-size 10 is not a multiple of --block 4 in dimension 0"),
    ];
    for (sizes, want) in cases {
        let mut args = vec!["race", p];
        args.extend_from_slice(sizes);
        let run = common::symcross(&args);
        assert_eq!(run.code, 2, "{sizes:?}: {}", run.stderr);
        assert!(run.stderr.contains(want), "{sizes:?}: {}", run.stderr);
        assert!(!run.stderr.contains("--local-size") && !run.stderr.contains("--num-groups"), "{sizes:?}: {}", run.stderr);
    }
}

/// The host side of the same file, run as a kernel alone by `race`: the
/// device compile reads the host code too, and the kernel is race-free.
#[test]
fn race_reads_a_host_program_cu_as_its_kernels() {
    let path = common::repo().join("tests/fixtures/cuda_host/matmul_tiled.cu");
    let run = common::symcross(&["race", path.to_str().unwrap(), "--block", "2,2", "--grid", "2,2", "--arg", "n=4", "--json", "-"]);
    let json = run.json.unwrap_or_else(|| panic!("no report: {}", run.stderr));
    assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
}

/// The kinds of a report's findings, in order.
fn kinds(json: &serde_json::Value) -> Vec<String> {
    json["findings"].as_array().unwrap().iter().map(|f| f["kind"].as_str().unwrap().to_string()).collect()
}

/// A kernel writing past its buffer fails the launch: besides the
/// finding, the host goes on and sees cudaErrorIllegalAddress from every
/// later call (its 8 checks of the codes run and hold: no mismatch).
#[test]
fn kernel_fault_fails_the_launch_and_the_host_goes_on() {
    let json = report("launch_codes_kernel_fault");
    assert_eq!(kinds(&json), ["out-of-bounds"], "{json}");
    assert_eq!(json["coverage"]["checks"], 8, "the host's checks after the failed launch: {json}");
    let message = json["findings"][0]["message"].as_str().unwrap();
    assert!(message.contains("thread (7,0,0) of block (0,0,0)"), "{message}");
}

/// The chunks of two streams overlap by one element: the second stream's
/// copy in writes what the first one's wrote, with nothing ordering them.
/// The race names both operations, their lines and streams, the buffer
/// and the bytes.
#[test]
fn overlapping_chunks_are_a_race_between_streams() {
    let json = report("streams_chunks_overlapping");
    let f = json["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "race").expect("a race");
    let message = f["message"].as_str().unwrap();
    assert!(
        message.starts_with(
            "race between CUDA streams: cudaMemcpyAsync at line 48 on stream 2 (created at line 41) writes bytes 32 to 35 of \
             device memory allocated at streams_chunks.cu:36 that cudaMemcpyAsync at line 48 on stream 1 (created at line 41) writes"
        ),
        "{message}"
    );
    assert_eq!(f["location"]["line"], 48, "{f}");
    assert_eq!(f["status"], "confirmed-by-model", "{f}");
    let other = f["related"].as_array().unwrap().iter().find(|r| r["message"] == "cudaMemcpyAsync on stream 1 (created at line 41)");
    assert_eq!(other.expect("the other operation")["location"]["line"], 48, "{f}");
}

/// Without its cudaStreamWaitEvent the second stream's launch reads what
/// the first stream's copy writes: a race at the launch's `<<<...>>>`
/// line, naming the copy.
#[test]
fn unordered_launch_is_a_race_at_its_launch_line() {
    let json = report("streams_unordered_without_wait");
    let f = json["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "race").expect("a race");
    assert_eq!(f["location"]["line"], 32, "{f}");
    assert!(f["location"]["file"].as_str().unwrap().ends_with("streams_ordered_by_event.cu"), "{f}");
    let message = f["message"].as_str().unwrap();
    assert!(message.contains("the kernel launch at line 32 on stream 2 (created at line 23) reads bytes 0 to 31"), "{message}");
    assert!(message.contains("that cudaMemcpyAsync at line 26 on stream 1 (created at line 22) writes"), "{message}");
}

/// Two streams writing at an index the input chooses: the solver finds
/// the one index where they meet, and it is the witness.
#[test]
fn streams_meeting_at_a_symbolic_index_have_the_index_as_witness() {
    let json = report("streams_symbolic_offset_meets");
    let f = json["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "race").expect("a race");
    assert_eq!(f["witness_values"]["at"]["elements"][0], "8", "{f}");
    assert!(f["message"].as_str().unwrap().contains("writes bytes 32 to 35 of device memory"), "{f}");
}

/// A launch above the enumeration limit is reported in CUDA's words:
/// threads, a grid of blocks.
#[test]
fn big_launch_speaks_cuda() {
    let json = report("big_launch");
    let f = json["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "unsupported").expect("unsupported");
    let message = f["message"].as_str().unwrap();
    assert!(message.starts_with("launch of 2097152 threads (a grid of (8192,1,1) blocks of (256,1,1) threads)"), "{message}");
    assert!(!message.contains("work-item") && !message.contains("NDRange"), "{message}");
    assert_eq!(f["location"]["line"], 20, "{f}");
}

/// `check --perf`: the launched kernels' performance warnings come with
/// the line of their launch, and leave the verdict a proof.
#[test]
fn perf_warnings_of_launched_kernels_name_the_launch() {
    let json = report_with("transpose_perf", &["--perf"]);
    assert_eq!(json["verdict"], "equivalent", "{json}");
    let findings = json["findings"].as_array().unwrap();
    let f = findings.iter().find(|f| f["kind"] == "uncoalesced-access").expect("the naive store is uncoalesced");
    assert_eq!(f["location"]["line"], 14, "{f}");
    let message = f["message"].as_str().unwrap();
    assert!(message.ends_with("(kernel launched at line 39)"), "{message}");
    assert!(f["related"].as_array().unwrap().iter().any(|r| r["location"]["line"] == 39), "{f}");
    assert!(!findings.iter().any(|f| f["kind"] == "bank-conflict"), "the padded tile has no bank conflict: {json}");
}

/// Host code reading managed memory while the kernel it launched may
/// still run (no cudaDeviceSynchronize) reads bytes the kernel writes: a
/// race at the read, naming the memory by its allocation line and the
/// launch.
#[test]
fn host_read_of_managed_memory_before_sync_is_a_race() {
    let json = report("managed_read_before_sync");
    assert_eq!(json["verdict"], "findings", "{json}");
    let f = json["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "race").expect("a race");
    let message = f["message"].as_str().unwrap();
    assert!(
        message.starts_with(
            "race between host code and CUDA stream work: host code reads bytes 0 to 3 of managed memory allocated at \
             managed_saxpy.cu:28 that the kernel launch at line 34 on the default stream writes"
        ),
        "{message}"
    );
    assert_eq!(f["location"]["line"], 44, "{f}");
}

/// The findings of `kind` in a report.
fn findings_of<'a>(json: &'a serde_json::Value, kind: &str) -> Vec<&'a serde_json::Value> {
    json["findings"].as_array().unwrap().iter().filter(|f| f["kind"] == kind).collect()
}

/// A kernel's failing assert() is a mismatch at its line naming the
/// assertion and the thread; the host goes on with the launch failed
/// (cudaErrorAssert) and all its checks of the codes hold: the one
/// mismatch is the kernel's.
#[test]
fn failing_device_assert_fails_the_launch_with_cuda_error_assert() {
    let json = report("kernel_fault_codes_assert");
    let mismatches = findings_of(&json, "mismatch");
    assert_eq!(kinds(&json), ["mismatch"], "{json}");
    let f = mismatches[0];
    assert_eq!(f["location"]["line"], 22, "{f}");
    let message = f["message"].as_str().unwrap();
    assert!(message.starts_with("assertion `v[i] < 1000u` can fail"), "{message}");
    assert!(message.contains(", by thread (") && message.ends_with(",0,0) of block (0,0,0)"), "{message}");
    assert!(json["coverage"]["checks"].as_u64().unwrap() > 8, "the host's checks ran after the failed launch: {json}");
}

/// `__trap()` reached: a mismatch at its line, the launch fails with
/// cudaErrorLaunchFailure and the host's checks of that hold.
#[test]
fn trap_fails_the_launch_with_launch_failure() {
    let json = report("kernel_fault_codes_trap");
    assert_eq!(kinds(&json), ["mismatch"], "{json}");
    let f = &json["findings"][0];
    assert_eq!(f["location"]["line"], 24, "{f}");
    assert!(f["message"].as_str().unwrap().starts_with("__trap() can be called"), "{f}");
}

/// A misaligned load in a launched kernel fails the launch with
/// cudaErrorMisalignedAddress for the offsets that misalign it; the
/// aligned ones go on to the results (all the host's checks hold).
#[test]
fn misaligned_load_fails_the_launch_with_misaligned_address() {
    let json = report("kernel_fault_codes_misaligned");
    assert_eq!(kinds(&json), ["misaligned"], "{json}");
    let f = &json["findings"][0];
    assert_eq!(f["location"]["line"], 25, "{f}");
    assert!(f["message"].as_str().unwrap().starts_with("misaligned 4-byte load"), "{f}");
}

/// `symcross race` on the kernel alone: the failing assert, the reachable
/// `__trap()` and the misaligned load are each a finding of their kind.
#[test]
fn race_reports_device_assert_trap_and_misalignment() {
    let path = common::repo().join("tests/fixtures/cuda_host/kernel_fault_codes.cu");
    let run = common::symcross(&["race", path.to_str().unwrap(), "--block", "2", "--grid", "1", "--all-findings", "--json", "-"]);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let json = run.json.unwrap_or_else(|| panic!("no report: {}", run.stderr));
    assert_eq!(json["verdict"], "findings", "{json}");
    let lines: Vec<(String, u64)> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["kind"].as_str().unwrap().to_string(), f["location"]["line"].as_u64().unwrap()))
        .collect();
    for want in [("mismatch", 22), ("mismatch", 24), ("misaligned", 25)] {
        assert!(lines.contains(&(want.0.to_string(), want.1)), "{want:?} in {lines:?}");
    }
}

/// The host reading a `__managed__` variable before it waited for the
/// kernel that adds to it: a race naming the variable and the launch.
#[test]
fn host_read_of_managed_variable_before_sync_is_a_race() {
    let json = report("managed_variables_before_sync");
    let races = findings_of(&json, "race");
    let f = races.first().expect("a race");
    let message = f["message"].as_str().unwrap();
    assert!(
        message.starts_with("race between host code and CUDA stream work: host code reads bytes 0 to 3 of managed variable `total`"),
        "{message}"
    );
    assert!(message.contains("the kernel launch at line 32"), "{message}");
    assert_eq!(f["location"]["line"], 43, "{f}");
}

/// A cooperative launch of more blocks than one per multiprocessor but
/// fewer than the occupancy's upper bound: whether they are all resident
/// at once is named as not checked, at the launch's line, and the launch
/// runs (its results are checked all the same).
#[test]
fn cooperative_launch_of_unknown_fit_is_named_as_not_checked() {
    let json = report("cooperative_launch_unknown_fit");
    assert_eq!(json["verdict"], "inconclusive", "{json}");
    assert_eq!(kinds(&json), ["unsupported"], "{json}");
    let f = &json["findings"][0];
    assert!(
        f["message"].as_str().unwrap().starts_with("not checked: whether all blocks of a cooperative launch are resident at once"),
        "{f}"
    );
    assert_eq!(f["location"]["line"], 36, "{f}");
    assert_eq!(json["coverage"]["checks"].as_u64(), Some(3200 + 3), "{json}");
}

/// Stream host functions and registered host memory compile and are
/// named as not modelled, at the user's call.
#[test]
fn runtime_uses_the_model_does_not_follow_are_named() {
    for (name, line, start) in [
        ("host_function_in_stream", 18, "CUDA runtime use not modelled: cudaLaunchHostFunc: the host function runs on another CPU thread"),
        ("host_register", 10, "CUDA runtime use not modelled: cudaHostRegister: registered host memory is reachable from kernels"),
        ("graph_capture", 20, "CUDA runtime use not modelled: cudaStreamBeginCapture: CUDA graphs (stream capture, cudaGraph*) are not"),
        ("dynamic_parallelism", 12, "dynamic parallelism: kernel `child` is launched (or named) inside a __global__ function"),
    ] {
        let json = report(name);
        assert_eq!(json["verdict"], "inconclusive", "{name}: {json}");
        let f = &json["findings"][0];
        assert_eq!(f["kind"], "unsupported", "{name}: {f}");
        assert!(f["message"].as_str().unwrap().starts_with(start), "{name}: {f}");
        assert_eq!(f["location"]["line"], line, "{name}: {f}");
    }
}

/// Two streams' kernels whose comparison needs more solver questions than
/// one pair of operations gets: undecided, named with both launches.
#[test]
fn an_undecided_stream_comparison_names_both_operations() {
    let json = report("streams_many_symbolic_writes_undecided");
    let f = &json["findings"][0];
    let message = f["message"].as_str().unwrap();
    assert!(
        message.starts_with(
            "not checked: whether the kernel launch on stream 2 (created at line 29) and the kernel launch (line 30) on stream 1"
        ),
        "{message}"
    );
    assert!(
        message.ends_with("more than 256 pairs of accesses at offsets that depend on the input, too many to ask the solver about"),
        "{message}"
    );
}

/// More faulting kernel paths of one launch than the host is followed
/// from: every fault is reported, and the limit is named.
#[test]
fn faulting_paths_past_the_limit_are_named() {
    let json = report("kernel_faults_past_limit");
    assert_eq!(json["verdict"], "findings", "{json}");
    assert_eq!(json["limit"], "faulted-launch-paths", "{json}");
    let cut = json["warnings"].as_array().and_then(|w| w.iter().find(|w| w["kind"] == "path-cut")).expect("a path-cut warning");
    assert!(cut["message"].as_str().unwrap().starts_with("more than 16 kernel paths of the launch at line 23 faulted"), "{cut}");
}

/// A device math function with an error bound is free within it: the
/// mismatch with C's libm is not confirmed, and says which function.
#[test]
fn an_approximate_math_function_is_an_unconfirmed_mismatch() {
    let report = report("math_approximate_not_c");
    let f = &report["findings"][0];
    assert_eq!(f["kind"], "mismatch", "{report}");
    assert_eq!(f["status"], "unconfirmed", "{report}");
    let message = f["message"].as_str().unwrap_or("");
    assert!(message.contains("approximate math functions: element 0 of 5 can differ"), "{message}");
    assert!(message.contains("the uninterpreted function `sin.float`"), "{message}");
}

/// cudaStreamAddCallback is named as not modelled (its callback runs on
/// another CPU thread), as cudaLaunchHostFunc is.
#[test]
fn a_stream_callback_is_named_unsupported() {
    let report = report("stream_callback_unsupported");
    let f = &report["findings"][0];
    assert_eq!(f["kind"], "unsupported", "{report}");
    let message = f["message"].as_str().unwrap_or("");
    assert!(message.contains("cudaStreamAddCallback: the callback runs on another CPU thread"), "{message}");
}

// --- cudatwins2 ---
/// The CUDA twins of OpenCL's rounding/ and half_store/ known answers:
/// the rounding-mode intrinsics and half precision (cuda_fp16.h).
mod rounding_and_half {
    crate::common::fixture_tests!(
        super::fixture;
        rounding_intrinsics_known_answers,
        rounding_intrinsics_nearest_symbolic,
        rounding_intrinsics_wrong_mode,
        half_known_answers,
        half_nearest_symbolic,
        half_wrong_rounding,
    );
}

/// Converting toward zero where C rounds to nearest: a mismatch with the
/// float that shows it, confirmed by running it in the model.
#[test]
fn a_wrong_rounding_mode_is_a_confirmed_mismatch_with_a_witness() {
    let json = report("rounding_intrinsics_wrong_mode");
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "mismatch", "{json}");
    assert_eq!(f["status"], "confirmed-by-model", "{f}");
    assert!(f["message"].as_str().unwrap().starts_with("float to int: element 0 of 4 can differ"), "{f}");
    assert!(f["witness"]["x"].is_string(), "{f}");
}

/// Rounding to half toward zero where C rounds to nearest: a mismatch
/// with the float that shows it, confirmed by running it in the model.
#[test]
fn a_wrong_half_rounding_is_a_confirmed_mismatch_with_a_witness() {
    let json = report("half_wrong_rounding");
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "mismatch", "{json}");
    assert_eq!(f["status"], "confirmed-by-model", "{f}");
    assert!(f["message"].as_str().unwrap().starts_with("float through half: element 0 of 4 can differ"), "{f}");
    assert!(f["witness"]["x"].is_string(), "{f}");
}

// --- cuda ---
/// CUDA arrays, surface objects and texture objects read with tex1D/tex2D
/// (nearest-point sampling and the address modes).
mod arrays_and_surfaces {
    crate::common::fixture_tests!(
        super::fixture;
        surface_array_copy,
        surface_write_race,
        surface_write_trap,
        surface_write_zero_mode_ok,
        texture_array_address_modes,
        texture_array_address_modes_wrong_wrap,
        texture_pitched_unnormalized,
        texture_pitched_linear_filter,
        texture_array_symbolic_coordinate,
        array_3d_surface_and_texture,
    );
}

/// Two threads writing one pixel through surf2Dwrite race, at the user's
/// call, confirmed: the surface is the array's device memory.
#[test]
fn surface_writes_to_one_pixel_are_a_confirmed_race_at_the_users_line() {
    let json = report("surface_write_race");
    let race = json["findings"].as_array().and_then(|f| f.iter().find(|x| x["kind"] == "race")).cloned().unwrap_or_default();
    assert_ne!(race["status"], "unconfirmed", "{json}");
    assert_eq!(race["location"]["line"], 12, "{race}");
}

/// A surface write past the end in the trap mode is an out-of-bounds
/// naming the call and the mode, and the launch fails (the host's check
/// of cudaDeviceSynchronize's code is a second finding).
#[test]
fn a_surface_write_outside_in_the_trap_mode_traps() {
    let json = report("surface_write_trap");
    let findings = json["findings"].as_array().cloned().unwrap_or_default();
    let oob = findings.iter().find(|x| x["kind"] == "out-of-bounds").cloned().unwrap_or_default();
    let message = oob["message"].as_str().unwrap_or("");
    assert!(message.starts_with("surf1Dwrite (surface memory) outside the surface (boundary mode trap)"), "{message}");
    assert_eq!(oob["location"]["line"], 18, "{oob}");
    assert!(findings.iter().any(|x| x["kind"] == "mismatch" && x["message"].as_str().unwrap_or("").contains("launch")), "{json}");
}

/// Expecting the wrap object to clamp: a mismatch confirmed in the model,
/// since the texel read is the array's memory, not any value.
#[test]
fn a_wrong_address_mode_is_a_confirmed_mismatch() {
    let json = report("texture_array_address_modes_wrong_wrap");
    let f = json["findings"].as_array().and_then(|f| f.iter().find(|x| x["kind"] == "mismatch")).cloned().unwrap_or_default();
    assert_ne!(f["status"], "unconfirmed", "{json}");
    assert!(f["message"].as_str().unwrap_or("").contains("texels"), "{f}");
}

/// A mismatch resting on a texture read with linear filtering, which the
/// model lets be any value, says so as its not-confirmed reason (it said
/// "the result of an approximate operation (an estimate such as
/// RCPPS/RSQRTPS ...)", which no such read is).
#[test]
fn a_mismatch_through_linear_filtering_names_the_texture_read() {
    let json = report("texture_pitched_linear_filter");
    assert_eq!(json["verdict"], "inconclusive", "{json}");
    let f = json["findings"].as_array().and_then(|f| f.iter().find(|x| x["kind"] == "mismatch")).cloned().unwrap_or_default();
    assert_eq!(f["status"], "unconfirmed", "{f}");
    let message = f["message"].as_str().unwrap_or("");
    assert!(
        message.contains(
            "; not confirmed: it depends on a texture read with linear filtering (the hardware's 9-bit fixed-point interpolation \
             weights are not modelled), which symcross models as any value of its type"
        ),
        "{message}"
    );
    assert!(!message.contains("approximate operation"), "{message}");
}
