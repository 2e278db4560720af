//! Known-answer OpenCL host programs for `symcross check`: each fixture in
//! tests/fixtures/opencl/ is a real host program (Khronos <CL/cl.h>, kernel
//! as a string literal) linked against the modelled runtime, with its
//! expected verdict in its first `// expect:` line.

mod common;

fn fixture(name: &str, extra: &[&str]) {
    common::check_fixture(&format!("tests/fixtures/opencl/{name}.c"), extra);
}

common::fixture_tests!(
    |name: &str| fixture(name, &[]);
    vector_add_float4,
    tree_reduction,
    global_size_rounded_up,
    released_before_read,
    division_inexact,
    division_correctly_rounded,
    api_misuse_error_codes,
    unmodelled_function,
    out_of_order_queue,
    device_builtins,
    struct_argument,
    struct_argument_sizes,
    large_ndrange,
    kernel_from_file,
    buffer_rect,
    build_options_and_headers,
    callbacks,
    separate_compilation,
    uninitialized_host_data_in_kernel,
    wrong_arity_get_global_id,
    wrong_arity_fmin,
    wrong_arity_barrier,
);

/// A kernel that declares a built-in itself with another parameter list:
/// the `unsupported` finding names the built-in and both counts.
#[test]
fn wrong_arity_in_a_kernel_names_the_builtin() {
    let cases = [
        ("wrong_arity_get_global_id", "`get_global_id` with 0 arguments", "takes 1 argument"),
        ("wrong_arity_fmin", "`fmin` with 1 argument", "takes 2 arguments"),
        ("wrong_arity_barrier", "`barrier` with 0 arguments", "takes 1 argument"),
    ];
    for (name, given, takes) in cases {
        let path = common::repo().join(format!("tests/fixtures/opencl/{name}.c"));
        let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
        assert!(!run.stderr.contains("panicked"), "{name}: {}", run.stderr);
        let json = run.json.unwrap_or_else(|| panic!("{name}: no report: {}", run.stderr));
        let findings = json["findings"].as_array().expect("findings");
        let f = findings
            .iter()
            .find(|f| f["kind"] == "unsupported" && f["message"].as_str().is_some_and(|m| m.contains(given)))
            .unwrap_or_else(|| panic!("{name}: no unsupported finding for {given}: {findings:#?}"));
        assert!(f["message"].as_str().unwrap().contains(takes), "{name}: {f:#?}");
    }
}

/// The tree reduction equals the serial sum once + may reassociate, -0
/// is excluded (the serial sum starts from +0.0) and NaN is excluded; the
/// e-graph proves it (the bit-precise solver alone cannot).
#[test]
fn reduction_associative() {
    fixture("reduction_associative", &["--assume", "associativity,positive-zero,ordered"]);
}

/// The use-after-free names both lines: the kernel's read and the host's
/// clReleaseMemObject.
#[test]
fn use_after_free_names_both_lines() {
    let path = common::repo().join("tests/fixtures/opencl/released_before_read.c");
    let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
    let json = run.json.expect("json report");
    let f = json["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "use-after-free").expect("finding");
    // The kernel's line inside the string literal of the host file.
    assert_eq!(f["location"]["line"], 11, "kernel line: {f}");
    assert_eq!(f["location"]["column"], 33, "the read of buf1: {f}");
    assert!(f["location"]["file"].as_str().unwrap().ends_with("released_before_read.c"), "{f}");
    let related = f["related"].as_array().unwrap();
    let freed = related.iter().find(|r| r["message"] == "freed here").expect("freed here");
    assert!(freed["location"]["file"].as_str().unwrap().ends_with("released_before_read.c"), "{freed}");
    assert_eq!(freed["location"]["line"], 28);
}

#[test]
fn every_fixture_is_listed() {
    let listed = [
        "vector_add_float4",
        "tree_reduction",
        "global_size_rounded_up",
        "released_before_read",
        "division_inexact",
        "division_correctly_rounded",
        "api_misuse_error_codes",
        "unmodelled_function",
        "out_of_order_queue",
        "reduction_associative",
        "device_builtins",
        "struct_argument",
        "struct_argument_sizes",
        "large_ndrange",
        "kernel_from_file",
        "buffer_rect",
        "build_options_and_headers",
        "callbacks",
        "separate_compilation",
        "uninitialized_host_data_in_kernel",
        "wrong_arity_get_global_id",
        "wrong_arity_fmin",
        "wrong_arity_barrier",
    ];
    for entry in std::fs::read_dir(common::repo().join("tests/fixtures/opencl")).expect("fixture dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "c") {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            assert!(listed.contains(&stem.as_str()), "fixture {stem} is not listed in tests/opencl_fixtures.rs");
        }
    }
}

/// The same host harness built natively against the installed OpenCL
/// implementation (pocl through the ICD loader) shows the mismatch with the
/// witness's inputs.
#[test]
fn replay_on_real_opencl_shows_the_mismatch() {
    if !std::path::Path::new("/etc/OpenCL/vendors").is_dir() {
        common::skip_or_fail_under_ci("replay_on_real_opencl_shows_the_mismatch", "no OpenCL implementation installed (pocl-opencl-icd)");
        return;
    }
    let harness = common::repo().join("tests/fixtures/opencl/tree_reduction.c");
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report.json");
    let check = common::symcross(&["check", harness.to_str().unwrap(), "--json", report.to_str().unwrap()]);
    assert_eq!(check.code, 1, "{}", check.stdout);
    let run = common::symcross(&["replay", harness.to_str().unwrap(), report.to_str().unwrap()]);
    assert_eq!(run.code, 1, "stdout:\n{}\nstderr:\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("sum: element 0 differs"), "{}", run.stdout);
}

/// Builds `dir/reference.c` natively and runs `dir/kernel.c` with `symcross
/// run`; both must print the same `lines` lines.
fn kernel_matches_the_cpu(dir: &str, extra_cflags: &[&str], lines: usize) {
    let dir = common::repo().join(dir);
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join("reference");
    let built = std::process::Command::new("clang-19")
        .arg("-O0")
        .args(extra_cflags)
        .arg(dir.join("reference.c"))
        .args(["-lm", "-o"])
        .arg(&exe)
        .status()
        .expect("clang-19");
    assert!(built.success(), "native build of reference.c failed");
    let native = std::process::Command::new(&exe).output().expect("run reference");
    let want = String::from_utf8(native.stdout).unwrap();
    assert_eq!(want.lines().count(), lines, "{want}");
    let got = common::symcross(&["run", dir.join("kernel.c").to_str().unwrap()]);
    assert_eq!(got.code, 0, "stderr:\n{}", got.stderr);
    for (w, g) in want.lines().zip(got.stdout.lines()) {
        assert_eq!(g, w, "symcross (left) differs from the CPU (right)");
    }
    assert_eq!(got.stdout, want);
}

/// convert_<T>_rte/_rtz/_rtp/_rtn (scalar and vector forms) from every
/// integer width and from double give what the CPU gives under each
/// rounding mode set with fesetround, over values at the precision limits
/// of float and double, the ends of every range and float's overflow and
/// underflow thresholds.
#[test]
fn rounding_mode_conversions_match_the_cpu() {
    kernel_matches_the_cpu("tests/fixtures/opencl/rounding", &["-frounding-math"], 24);
}

/// fdim, maxmag, minmag, nextafter, ilogb, frexp, modf and ldexp give the
/// C library's bits, and min/max (signed and unsigned), mad_hi, mad_sat and
/// upsample what C arithmetic gives, on zeros, subnormals, infinities, NaN
/// and the ends of the integer ranges.
#[test]
fn exact_math_builtins_match_the_cpu() {
    kernel_matches_the_cpu("tests/fixtures/opencl/math", &[], 20);
}

/// A kernel the host read from a .cl file with fopen/fread: its findings
/// are located in that file.
#[test]
fn findings_in_a_kernel_file_name_that_file() {
    let path = common::repo().join("tests/fixtures/opencl/kernel_from_file.c");
    let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
    let json = run.json.expect("json report");
    let f = json["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "out-of-bounds").expect("finding");
    assert!(f["location"]["file"].as_str().unwrap().ends_with("tests/fixtures/opencl/kernel_from_file.cl"), "{f}");
    assert_eq!(f["location"]["line"], 4, "{f}");
}

/// The host programs whose assertions encode the model's answers (error
/// codes of misuse, rectangle transfers, built-in results, a large NDRange)
/// are also built natively against the installed OpenCL implementation
/// (pocl through the ICD loader), where every assertion must hold too: the
/// model answers as a real implementation does.
#[test]
fn fixtures_hold_on_real_opencl() {
    if !std::path::Path::new("/etc/OpenCL/vendors").is_dir() {
        common::skip_or_fail_under_ci("fixtures_hold_on_real_opencl", "no OpenCL implementation installed (pocl-opencl-icd)");
        return;
    }
    let repo = common::repo();
    let tmp = tempfile::tempdir().unwrap();
    for name in [
        "api_misuse_error_codes",
        "buffer_rect",
        "device_builtins",
        "large_ndrange",
        "build_options_and_headers",
        "separate_compilation",
        "struct_argument_sizes",
    ] {
        let exe = tmp.path().join(name);
        let built = std::process::Command::new("clang-19")
            .args(["-w", "-DNATIVE_POCL", "-I"])
            .arg(repo.join("cl-runtime-model"))
            .arg(repo.join(format!("tests/fixtures/opencl/{name}.c")))
            .arg(repo.join("cl-runtime-model/replay/replay_runtime.c"))
            .args(["-lOpenCL", "-lm", "-o"])
            .arg(&exe)
            .status()
            .expect("clang-19");
        assert!(built.success(), "native build of {name} failed");
        let run = std::process::Command::new(&exe).current_dir(tmp.path()).output().expect("run");
        assert!(
            run.status.success(),
            "{name} fails on real OpenCL:\n{}\n{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
    }
}

/// vstore_half with every rounding mode, from float (checked against the
/// CPU's F16C conversion with an explicit rounding mode) and from double
/// (checked against _Float16 conversions under fesetround: one rounding,
/// where going through float would round twice).
#[test]
fn half_stores_match_the_cpu() {
    let cpu = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    if !cpu.split_whitespace().any(|w| w == "f16c") {
        common::skip_or_fail_under_ci("half_stores_match_the_cpu", "this CPU has no F16C instructions");
        return;
    }
    kernel_matches_the_cpu("tests/fixtures/opencl/half_store", &["-mf16c", "-frounding-math"], 24);
}
