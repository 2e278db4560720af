//! Every option and input is validated: out-of-range, overflowing or
//! meaningless values and inputs that are not regular files get a clear
//! error and exit 2, never a panic (issue 14).

mod common;

fn fixture(name: &str) -> String {
    common::repo().join("tests/fixtures/check").join(name).to_str().unwrap().to_string()
}

fn kernel() -> String {
    common::repo().join("tests/fixtures/race/async_copy_ok.cl").to_str().unwrap().to_string()
}

/// Exit 2, no panic, and a message naming `what`.
fn assert_usage_error(run: &common::Run, what: &str) {
    assert_eq!(run.code, 2, "stdout:\n{}\nstderr:\n{}", run.stdout, run.stderr);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(run.stderr.contains(what), "expected `{what}` in:\n{}", run.stderr);
}

#[test]
fn huge_time_limits_are_refused_not_a_panic() {
    let f = fixture("int_add_self_proved.c");
    for (flag, value) in [("--max-time", "1e100"), ("--query-timeout", "1e30"), ("--max-time", "inf"), ("--query-timeout", "NaN")] {
        let run = common::symcross(&["check", &f, flag, value]);
        assert_usage_error(&run, flag);
    }
    let run = common::symcross(&["race", &kernel(), "--local-size", "4", "--num-groups", "1", "--max-time", "1e100"]);
    assert_usage_error(&run, "--max-time");
    let run = common::symcross(&["rules", "verify", "--timeout", "1e30"]);
    assert_usage_error(&run, "--timeout");
}

#[test]
fn zero_path_and_memory_limits_are_refused() {
    let f = fixture("int_add_self_proved.c");
    assert_usage_error(&common::symcross(&["check", &f, "--max-paths", "0"]), "--max-paths");
    assert_usage_error(&common::symcross(&["check", &f, "--max-memory", "0"]), "--max-memory");
    assert_usage_error(&common::symcross(&["check", &f, "--max-memory", "18446744073709551615"]), "--max-memory");
}

#[test]
fn a_buffer_size_beyond_32_bits_is_refused_not_a_panic() {
    let run = common::symcross(&["race", &kernel(), "--local-size", "4", "--num-groups", "1", "--arg", "out=18446744073709551615"]);
    assert_usage_error(&run, "--arg out=");
}

#[test]
fn an_ndrange_overflowing_64_bits_is_refused() {
    let run = common::symcross(&["race", &kernel(), "--local-size", "4294967296", "--num-groups", "4294967296"]);
    assert_usage_error(&run, "too large");
    let run = common::symcross(&["race", &kernel(), "--local-size", "65536,65536,65536", "--num-groups", "65536,65536,65536"]);
    assert_usage_error(&run, "too large");
}

#[test]
fn inputs_that_are_not_regular_files_are_named_precisely() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("dir.c");
    std::fs::create_dir(&d).unwrap();
    let fifo = dir.path().join("fifo.c");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let (l1, l2) = (dir.path().join("loop1.c"), dir.path().join("loop2.c"));
    std::os::unix::fs::symlink(&l2, &l1).unwrap();
    std::os::unix::fs::symlink(&l1, &l2).unwrap();
    let dangling = dir.path().join("dangling.c");
    std::os::unix::fs::symlink(dir.path().join("nothing.c"), &dangling).unwrap();
    for (path, what) in [
        (d.to_str().unwrap(), "is a directory"),
        (fifo.to_str().unwrap(), "is a FIFO"),
        ("/dev/null", "is a device"),
        (l1.to_str().unwrap(), "symbolic link loop"),
        (dangling.to_str().unwrap(), "does not exist"),
    ] {
        let run = common::symcross(&["check", path]);
        assert_usage_error(&run, what);
        assert!(run.stderr.contains(path), "{}", run.stderr);
    }
}

#[test]
fn a_big_endian_module_is_refused_naming_its_layout() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("be.ll");
    std::fs::write(
        &ll,
        "target datalayout = \"E-m:e-i64:64-n32:64-S128\"\ntarget triple = \"powerpc64-unknown-linux-gnu\"\n\
         define i32 @main() {\n  ret i32 0\n}\n",
    )
    .unwrap();
    let run = common::symcross(&["check", ll.to_str().unwrap()]);
    assert_usage_error(&run, "E-m:e-i64:64-n32:64-S128");
    assert!(run.stderr.contains("big-endian") && run.stderr.contains("be.ll"), "{}", run.stderr);
}

#[test]
fn a_32_bit_module_is_refused_naming_its_layout() {
    let dir = tempfile::tempdir().unwrap();
    let ll = dir.path().join("i386.ll");
    std::fs::write(
        &ll,
        "target datalayout = \"e-m:e-p:32:32-i64:64-n8:16:32-S128\"\ntarget triple = \"i386-unknown-linux-gnu\"\n\
         define i32 @main() {\n  ret i32 0\n}\n",
    )
    .unwrap();
    let run = common::symcross(&["check", ll.to_str().unwrap()]);
    assert_usage_error(&run, "e-m:e-p:32:32");
    assert!(run.stderr.contains("64-bit pointers"), "{}", run.stderr);
}
