//! What a user gives `symcross race` about a launch: the buffers' contents
//! and access flags and NULL pointers (`--arg`), the NDRange (OpenCL 2.0
//! non-uniform work-groups, the work-item functions that go with them),
//! and the events of asynchronous copies. Known-answer kernels in
//! tests/fixtures/race_inputs/, each with its `// args:` and `// expect:`
//! lines, in pairs (the bug and its fixed twin); bad launches exit 2 with a
//! message naming the problem.

mod common;

fn fixture_path(name: &str, ext: &str) -> std::path::PathBuf {
    common::repo().join("tests/fixtures/race_inputs").join(format!("{name}.{ext}"))
}

fn race_fixture(name: &str) {
    common::verify_race_fixture(&fixture_path(name, "cl"));
}

common::fixture_tests!(
    race_fixture;
    read_only_written,
    read_only_read_ok,
    write_only_read,
    write_only_component_ok,
    null_dereferenced,
    null_checked_ok,
    scatter_permutation_ok,
    scatter_fill_race,
    scatter_partly_symbolic_race,
    scatter_file_ok,
    scatter_file_race,
    slot_range_ok,
    slot_range_race,
    float_range_ok,
    float_range_race,
    event_not_returned,
    event_returned_ok,
    event_waited_twice,
    event_joined_ok,
    event_chosen_by_input,
    nonuniform_enqueued_size_oob,
    nonuniform_local_size_ok,
    nonuniform_enqueued_size_oob_pair,
    nonuniform_local_size_ok_pair,
    nonuniform_group_base_race,
    nonuniform_group_base_ok,
    nonuniform_group_base_race_pair,
    nonuniform_group_base_ok_pair,
    nonuniform_linear_ids_ok,
    nonuniform_linear_ids_ok_pair,
    vector_arg_stride_ok,
    vector_arg_stride_race,
);

#[test]
fn every_fixture_is_listed() {
    for entry in std::fs::read_dir(common::repo().join("tests/fixtures/race_inputs")).expect("fixture dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "cl") {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            assert!(LISTED.contains(&stem.as_str()), "fixture {stem} is not listed in tests/race_inputs.rs");
        }
    }
}

/// Runs `symcross race` on a fixture with `args` and returns the run.
fn race(name: &str, args: &[&str]) -> common::Run {
    let path = fixture_path(name, "cl");
    let mut all = vec!["race", path.to_str().unwrap()];
    all.extend_from_slice(args);
    common::symcross(&all)
}

/// OpenCL C 1.2 (the default) requires the local size to divide the
/// global size, as a device's clEnqueueNDRangeKernel does: the error says
/// so and how to ask for OpenCL 2.0; `-cl-uniform-work-group-size` keeps
/// the requirement under 2.0.
#[test]
fn non_uniform_groups_need_opencl_2() {
    for cflags in [None, Some("-cl-std=CL1.2"), Some("-cl-std=CL2.0 -cl-uniform-work-group-size")] {
        let mut args = vec!["--local-size", "32", "--global-size", "100"];
        if let Some(f) = cflags {
            args.extend(["--cflags", f]);
        }
        let run = race("nonuniform_local_size_ok", &args);
        assert_eq!(run.code, 2, "{cflags:?}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains("--global-size 100 is not a multiple of --local-size 32 in dimension 0"), "{}", run.stderr);
        assert!(run.stderr.contains("-cl-std=CL2.0"), "{}", run.stderr);
    }
}

/// The mode line counts the NDRange's real work-items (100, not 4 full
/// groups of 32).
#[test]
fn non_uniform_ndrange_counts_its_work_items() {
    let run = race("nonuniform_local_size_ok", &["--local-size", "32", "--global-size", "100", "--cflags", "-cl-std=CL2.0", "--json", "-"]);
    let json = run.json.expect("json report");
    assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
    assert!(run.stdout.contains("\"mode\"") && json["mode"].to_string().contains("100"), "{}", json["mode"]);
}

/// Pair mode's two work-items may come from the smaller last group: the
/// out-of-bounds write its slice makes is found with the witness naming a
/// work-item of group 3 (the one of 4 work-items).
#[test]
fn pair_mode_reaches_the_last_group() {
    let run = race(
        "nonuniform_enqueued_size_oob_pair",
        &["--local-size", "32", "--global-size", "100", "--cflags", "-cl-std=CL2.0", "--arg", "out=400", "--mode", "pair", "--json", "-"],
    );
    let json = run.json.expect("json report");
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "out-of-bounds", "{json}");
    // work_item_k holds 3 local ids then 3 group ids, 8 bytes each.
    let witness = f["witness"].as_object().expect("witness");
    let group_of = |k: &str| witness[k].as_str().map(|h| u64::from_str_radix(&h[48..50], 16).unwrap());
    assert!(group_of("work_item_1") == Some(3) || group_of("work_item_2") == Some(3), "{f}");
}

/// get_global_linear_id, get_local_linear_id and get_enqueued_local_size
/// with a global offset give the same values under `symcross check` (the
/// modelled runtime) as on the installed OpenCL implementation. (PoCL here
/// reports no non-uniform work-group support, so the smaller last group is
/// checked against the specification's definitions in the fixtures above
/// and in `exec::opencl::work_item_ids`'s unit test.)
#[test]
fn work_item_ids_match_real_opencl() {
    let host = fixture_path("work_item_ids_host", "c");
    let run = common::symcross(&["check", host.to_str().unwrap(), "--json", "-"]);
    if let Err(e) = common::verify(&host, &run) {
        panic!("{e}");
    }
    if !std::path::Path::new("/etc/OpenCL/vendors").is_dir() {
        common::skip_or_fail_under_ci("work_item_ids_match_real_opencl", "no OpenCL implementation installed (pocl-opencl-icd)");
        return;
    }
    let repo = common::repo();
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join("work_item_ids");
    let built = std::process::Command::new("clang-19")
        .args(["-w", "-DNATIVE_POCL", "-I"])
        .arg(repo.join("cl-runtime-model"))
        .arg(&host)
        .arg(repo.join("cl-runtime-model/replay/replay_runtime.c"))
        .args(["-lOpenCL", "-lm", "-o"])
        .arg(&exe)
        .status()
        .expect("clang-19");
    assert!(built.success(), "native build of work_item_ids_host.c failed");
    let native = std::process::Command::new(&exe).current_dir(tmp.path()).output().expect("run");
    assert!(
        native.status.success(),
        "fails on real OpenCL:\n{}\n{}",
        String::from_utf8_lossy(&native.stdout),
        String::from_utf8_lossy(&native.stderr)
    );
}

/// A bad `--arg` exits 2 with a message naming the argument, what was
/// given and what is wrong.
#[test]
fn bad_buffer_specs_name_the_argument_and_the_problem() {
    let cases: &[(&str, &str, &str)] = &[
        ("scatter_fill_race", "idx=fill:0", "fill:V needs the buffer's size: BYTES:fill:V"),
        ("scatter_fill_race", "idx=6:fill:0", "6 bytes is not a whole number of uint elements (4 bytes each)"),
        ("scatter_fill_race", "idx=16:fill:-1", "`-1` is outside uint's range [0, 4294967295]"),
        ("scatter_fill_race", "idx=16:range:5:1", "range:5:1 is empty"),
        ("scatter_fill_race", "idx=8:values:1,2,3", "3 uint elements take 12 bytes, more than the buffer's 8"),
        ("scatter_fill_race", "idx=16:zeros", "`zeros` is none of @FILE, fill:V, range:A:B, values:E,E,..."),
        ("scatter_fill_race", "idx=@no/such/file.bin", "cannot read `no/such/file.bin`"),
        ("float_range_ok", "x=32:fill:one", "`one` is not a float value"),
        ("float_range_ok", "x=32:range:0:0.1", "the bounds must be float values"),
        ("scatter_fill_race", "nosuch=4", "kernel `scatter` has no parameter `nosuch`"),
        ("vector_arg_stride_ok", "shape=1,2,3", "vectors their components as A,B,...: one for each, or one for all"),
        ("vector_arg_stride_ok", "gain=1,2,x,4", "not a value of type float4"),
    ];
    for (fixture, arg, want) in cases {
        let run = race(fixture, &["--local-size", "4", "--num-groups", "1", "--arg", arg]);
        assert_eq!(run.code, 2, "--arg {arg}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(want), "--arg {arg}: want `{want}` in:\n{}", run.stderr);
        let name = arg.split('=').next().unwrap();
        assert!(run.stderr.contains(&format!("--arg {name}")), "--arg {arg}: the message names the argument:\n{}", run.stderr);
    }
}

/// NULL, contents and access flags on a `__local` pointer, and a
/// write-only `__constant` buffer, are refused with the reason.
#[test]
fn local_and_constant_pointers_refuse_what_the_host_cannot_give() {
    let dir = tempfile::tempdir().unwrap();
    let kernel = dir.path().join("k.cl");
    std::fs::write(&kernel, "__kernel void k(__local int *l, __constant int *c, __global int *g) { g[0] = l[0] + c[0]; }\n").unwrap();
    let k = kernel.to_str().unwrap();
    for (arg, want) in [
        ("l=null", "a __local pointer cannot be NULL"),
        ("l=64:ro", "__local memory has no host access flags"),
        ("l=64:fill:0", "__local memory has no host contents"),
        ("c=64:wo", "a __constant buffer cannot be write-only"),
    ] {
        let run = common::symcross(&["race", k, "--local-size", "4", "--num-groups", "1", "--arg", arg]);
        assert_eq!(run.code, 2, "--arg {arg}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(want), "--arg {arg}: want `{want}` in:\n{}", run.stderr);
    }
}

/// A partly given buffer's witness holds only its arbitrary bytes, in
/// order: for `values:2,sym,0` over four uints, elements 1 and 3.
#[test]
fn a_partly_given_buffer_witnesses_its_arbitrary_bytes_only() {
    let run = race(
        "scatter_partly_symbolic_race",
        &["--local-size", "4", "--num-groups", "1", "--arg", "idx=16:values:2,sym,0", "--arg", "out=16", "--json", "-"],
    );
    let json = run.json.expect("json report");
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "race", "{json}");
    let idx = f["witness"]["idx"].as_str().expect("idx in the witness");
    assert_eq!(idx.len(), 16, "two uints: {idx}");
    // One of the two arbitrary indices equals a given one (2 or 0) modulo 4.
    let element = |k: usize| u32::from_str_radix(&idx[8 * k..8 * k + 8], 16).unwrap().swap_bytes() % 4;
    assert!([element(0), element(1)].iter().any(|e| *e == 0 || *e == 2), "{idx}");
}
