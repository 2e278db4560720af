//! The build cache (README, "Build cache"): a second run of the same inputs
//! with the same flags starts no clang, a changed header or flag compiles
//! again, and the answers are the same either way.

mod common;

use std::path::Path;

/// Clang invocations a run made, from its `--log debug` lines.
fn clang_runs(stderr: &str) -> usize {
    stderr.lines().filter(|l| l.contains("DEBUG") && l.contains(" clang -")).count()
}

/// A kernel whose race depends on a header: `SYNC()` is a barrier or nothing.
fn write_kernel(dir: &Path, barrier: bool) {
    std::fs::write(
        dir.join("kernel.cl"),
        "#include \"sync.h\"\n\
         __kernel void avg(__global const float *in, __global float *out, __local float *tile) {\n\
         \x20 size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);\n\
         \x20 tile[l] = in[g];\n\
         \x20 SYNC();\n\
         \x20 float right = l + 1 < n ? tile[l + 1] : 0.0f;\n\
         \x20 out[g] = (tile[l] + right) * 0.5f;\n\
         }\n",
    )
    .unwrap();
    let sync = if barrier { "#define SYNC() barrier(CLK_LOCAL_MEM_FENCE)\n" } else { "#define SYNC()\n" };
    std::fs::write(dir.join("sync.h"), sync).unwrap();
}

fn race(dir: &Path, cache: &Path, extra_env: &[(&str, &str)], extra: &[&str]) -> common::Run {
    let mut env = vec![("SYMCROSS_CACHE_DIR", cache.to_str().unwrap())];
    env.extend_from_slice(extra_env);
    let mut args = vec!["race", "kernel.cl", "--local-size", "8", "--num-groups", "2", "--log", "debug", "--json", "-"];
    args.extend_from_slice(extra);
    common::symcross_in(dir, &env, &args)
}

fn verdict(run: &common::Run) -> String {
    let json = run.json.as_ref().unwrap_or_else(|| panic!("no report: {}", run.stderr));
    json["verdict"].as_str().unwrap().to_string()
}

#[test]
fn a_warm_race_runs_no_clang_and_a_header_change_compiles_again() {
    let work = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    write_kernel(work.path(), false);

    let cold = race(work.path(), cache.path(), &[], &[]);
    assert_eq!(verdict(&cold), "findings");
    assert!(clang_runs(&cold.stderr) >= 1, "{}", cold.stderr);

    let warm = race(work.path(), cache.path(), &[], &[]);
    assert_eq!(verdict(&warm), "findings");
    assert_eq!(clang_runs(&warm.stderr), 0, "{}", warm.stderr);
    assert!(warm.stderr.contains("comes from the build cache"), "{}", warm.stderr);
    // The finding still names the kernel's line, read from the cached debug info.
    assert_eq!(warm.json.as_ref().unwrap()["findings"][0]["location"], cold.json.as_ref().unwrap()["findings"][0]["location"]);

    // The header, not the kernel, changes: the cached module must not be used.
    write_kernel(work.path(), true);
    let fixed = race(work.path(), cache.path(), &[], &[]);
    assert!(clang_runs(&fixed.stderr) >= 1, "{}", fixed.stderr);
    assert_eq!(verdict(&fixed), "equivalent", "{}", fixed.stdout);
    let fixed_warm = race(work.path(), cache.path(), &[], &[]);
    assert_eq!(clang_runs(&fixed_warm.stderr), 0, "{}", fixed_warm.stderr);
    assert_eq!(verdict(&fixed_warm), "equivalent");
}

#[test]
fn other_flags_are_another_entry_and_the_cache_can_be_turned_off() {
    let work = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    write_kernel(work.path(), false);
    let first = race(work.path(), cache.path(), &[], &[]);
    assert!(clang_runs(&first.stderr) >= 1);
    // A -D the kernel ignores still changes what clang is asked: compile.
    let defined = race(work.path(), cache.path(), &[], &["-D", "UNUSED=1"]);
    assert!(clang_runs(&defined.stderr) >= 1, "{}", defined.stderr);
    assert_eq!(verdict(&defined), "findings");
    let off = race(work.path(), cache.path(), &[("SYMCROSS_BUILD_CACHE", "off")], &[]);
    assert!(clang_runs(&off.stderr) >= 1, "{}", off.stderr);
    assert!(!off.stderr.contains("comes from the build cache"));
    assert_eq!(verdict(&off), "findings");
}

#[test]
fn a_host_program_and_the_kernel_it_builds_come_from_the_cache() {
    let cache = tempfile::tempdir().unwrap();
    let env = [("SYMCROSS_CACHE_DIR", cache.path().to_str().unwrap())];
    let program = common::repo().join("tests/fixtures/opencl/vector_add_float4.c");
    let args = ["check", program.to_str().unwrap(), "--log", "debug", "--json", "-"];
    let cold = common::symcross_in(&common::repo(), &env, &args);
    assert_eq!(verdict(&cold), "equivalent", "{}", cold.stderr);
    // The host program and the program it builds with clBuildProgram.
    assert!(clang_runs(&cold.stderr) >= 2, "{}", cold.stderr);
    let warm = common::symcross_in(&common::repo(), &env, &args);
    assert_eq!(verdict(&warm), "equivalent", "{}", warm.stderr);
    assert_eq!(clang_runs(&warm.stderr), 0, "{}", warm.stderr);
    assert_eq!(warm.stderr.matches("comes from the build cache").count(), 2, "{}", warm.stderr);
}
