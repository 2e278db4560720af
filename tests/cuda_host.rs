//! Known-answer CUDA host programs for `symcross check`: each fixture in
//! tests/fixtures/cuda_host/ is one `.cu` file with host code and
//! `__global__` kernels, launched with `<<<...>>>` through the modelled
//! CUDA runtime and compared with a C reference; the expected verdict is
//! its first `// expect:` line.

mod common;

fn fixture(name: &str) {
    common::check_fixture(&format!("tests/fixtures/cuda_host/{name}.cu"), &[]);
}

macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                fixture(stringify!($name));
            }
        )*
    };
}

fixtures!(
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
);

/// The report of a fixture, run with `--json -`.
fn report(name: &str) -> serde_json::Value {
    let path = common::repo().join(format!("tests/fixtures/cuda_host/{name}.cu"));
    let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
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
