//! The NEON routines of harnesses/neon/, checked with `--target aarch64`:
//! each equal harness is proved, each deliberately broken one
//! (`*_broken.c`) is refuted, and the witness of every broken one
//! reproduces the difference on the machine (built for AArch64 and run
//! under qemu-aarch64 by `symcross replay`).
//!
//! A harness states its verdict in `// expect: ...`.

mod common;

use std::path::PathBuf;

fn harness(name: &str) -> PathBuf {
    common::repo().join("harnesses/neon").join(name)
}

fn check(name: &str) {
    let path = harness(name);
    let p = path.to_str().expect("utf-8 path");
    let run = common::symcross(&["check", p, "--target", "aarch64", "--json", "-", "--max-time", "300"]);
    if let Err(e) = common::verify(&path, &run) {
        panic!("{e}");
    }
}

macro_rules! harnesses {
    ($($test:ident => $file:literal,)*) => {
        /// Every harness this file tests.
        const LISTED: &[&str] = &[$($file),*];
        $(
            #[test]
            fn $test() {
                check($file);
            }
        )*
    };
}

harnesses! {
    saturating_add => "saturating_add.c",
    saturating_add_broken => "saturating_add_broken.c",
    rgb_to_grey => "rgb_to_grey.c",
    rgb_to_grey_broken => "rgb_to_grey_broken.c",
    float_to_int => "float_to_int.c",
    float_to_int_broken => "float_to_int_broken.c",
    horizontal_sum => "horizontal_sum.c",
    horizontal_sum_broken => "horizontal_sum_broken.c",
    min_nan_zero => "min_nan_zero.c",
    min_nan_zero_broken => "min_nan_zero_broken.c",
    fused_multiply_add => "fused_multiply_add.c",
    fused_multiply_add_broken => "fused_multiply_add_broken.c",
}

fn harness_files() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(common::repo().join("harnesses/neon"))
        .expect("read harnesses/neon")
        .map(|e| e.expect("dir entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".c"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_harness_is_listed_and_has_a_twin() {
    let mut listed: Vec<String> = LISTED.iter().map(|s| s.to_string()).collect();
    listed.sort();
    let files = harness_files();
    assert_eq!(files, listed, "harnesses/neon/*.c and the list of this file disagree");
    for f in &files {
        let twin = if f.ends_with("_broken.c") { f.replace("_broken.c", ".c") } else { f.replace(".c", "_broken.c") };
        assert!(files.contains(&twin), "{f} has no twin {twin}");
    }
}

fn qemu_present() -> bool {
    std::process::Command::new("qemu-aarch64").arg("--version").output().map(|o| o.status.success()).unwrap_or(false)
        && std::path::Path::new("/usr/aarch64-linux-gnu/lib").is_dir()
}

#[test]
fn broken_witnesses_replay_under_qemu() {
    if !qemu_present() {
        common::skip_or_fail_under_ci(
            "broken_witnesses_replay_under_qemu",
            "qemu-aarch64 or the AArch64 C library missing (scripts/setup.sh installs them)",
        );
        return;
    }
    for name in harness_files().into_iter().filter(|f| f.ends_with("_broken.c")) {
        let path = harness(&name);
        let p = path.to_str().unwrap();
        let report = tempfile::NamedTempFile::new().unwrap();
        let rp = report.path().to_str().unwrap();
        let run = common::symcross(&["check", p, "--target", "aarch64", "--json", rp, "--max-time", "300"]);
        assert_eq!(run.code, 1, "{name}: {}\n{}", run.stdout, run.stderr);
        // The report records the target: replay needs no --target.
        let replay = common::symcross(&["replay", rp]);
        assert_eq!(replay.code, 1, "{name}: the witness did not reproduce under qemu:\n{}\n{}", replay.stdout, replay.stderr);
        assert!(replay.stdout.contains("qemu-aarch64") && replay.stdout.contains("differ"), "{name}: {}", replay.stdout);
    }
}

/// An SSE routine and its NEON port, each compiled to bitcode for its own
/// target, checked against each other in one run (README "Checking an SSE
/// routine against its NEON port").
#[test]
fn sse_routine_and_neon_port_in_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = common::repo().join("tests/fixtures/neon_port");
    let flags = ["-O0", "-Xclang", "-disable-O0-optnone", "-g", "-ffp-contract=off", "-emit-llvm", "-c"];
    let compile = |src: &str, target: Option<&str>| {
        let out = dir.path().join(src.replace(".c", ".bc"));
        let mut cmd = std::process::Command::new("clang-19");
        cmd.args(flags);
        if let Some(t) = target {
            cmd.arg(format!("--target={t}"));
        }
        let done = cmd.arg(fixtures.join(src)).arg("-o").arg(&out).output().expect("run clang-19");
        assert!(done.status.success(), "{src}: {}", String::from_utf8_lossy(&done.stderr));
        out.to_str().unwrap().to_string()
    };
    let sse = compile("port_sse.c", None);
    let neon = compile("port_neon.c", Some("aarch64-linux-gnu"));
    for (compare, want) in [("compare_add.c", 0), ("compare_min.c", 1)] {
        let c = fixtures.join(compare);
        let run = common::symcross(&["check", c.to_str().unwrap(), &sse, &neon, "--max-time", "120"]);
        assert_eq!(run.code, want, "{compare}: {}\n{}", run.stdout, run.stderr);
    }
}

/// A target symcross does not model is a usage error (exit 2) that says
/// what is accepted; big-endian AArch64 is refused before compiling.
#[test]
fn unmodelled_targets_are_usage_errors() {
    let h = harness("saturating_add.c");
    for (target, says) in [("riscv64", "not modelled"), ("aarch64_be-linux-gnu", "big-endian")] {
        let run = common::symcross(&["check", h.to_str().unwrap(), "--target", target]);
        assert_eq!(run.code, 2, "{target}: {}\n{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(says), "{target}: {}", run.stderr);
    }
}
