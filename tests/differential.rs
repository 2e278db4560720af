//! Differential tests of the executor against native execution: small C
//! programs (tests/fixtures/differential/) and csmith-generated programs are
//! compiled natively with clang-19 and run, then run by `symcross run`; the
//! outputs must be identical.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Native output of a C program. Every program here finishes natively in
/// milliseconds; the limit only stops a hung run, and fails the test rather
/// than skipping the comparison.
fn native(src: &Path, extra: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("a.out");
    let st = Command::new("clang-19")
        .args(["-O0", "-w", "-ffp-contract=off"])
        .args(extra)
        .arg(src)
        .arg("-lm")
        .arg("-o")
        .arg(&exe)
        .status()
        .unwrap();
    assert!(st.success(), "native build of {} failed", src.display());
    run_with_timeout(Command::new(&exe), Duration::from_secs(120))
        .unwrap_or_else(|| panic!("{}: the native run did not finish in 120 s", src.display()))
}

fn run_with_timeout(mut cmd: Command, limit: Duration) -> Option<String> {
    let mut child = cmd.stdout(std::process::Stdio::piped()).spawn().ok()?;
    let start = std::time::Instant::now();
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            let out = child.wait_with_output().ok()?;
            return Some(String::from_utf8_lossy(&out.stdout).into_owned());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn compare(src: &Path, extra: &[&str]) {
    let want = native(src, extra);
    let mut args = vec!["run", src.to_str().unwrap()];
    args.extend_from_slice(extra);
    let got = common::symcross(&args);
    assert_eq!(got.stdout, want, "{}: symcross output differs from native\nstderr:\n{}", src.display(), got.stderr);
}

#[test]
fn small_programs_match_native() {
    let dir = common::repo().join("tests/fixtures/differential");
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "c") {
            compare(&p, &[]);
            n += 1;
        }
    }
    assert!(n >= 3);
}

#[test]
fn csmith_programs_match_native() {
    if Command::new("csmith").arg("--version").output().is_err() || !Path::new("/usr/include/csmith/csmith.h").exists() {
        panic!("csmith and libcsmith-dev are required (scripts/setup.sh installs them)");
    }
    let dir = tempfile::tempdir().unwrap();
    for seed in 1..=12 {
        let src = dir.path().join(format!("csmith{seed}.c"));
        let st = Command::new("csmith")
            .args(["--seed", &seed.to_string(), "--max-funcs", "4", "--max-block-depth", "3", "--no-packed-struct", "--no-bitfields", "-o"])
            .arg(&src)
            .status()
            .unwrap();
        assert!(st.success());
        compare(&src, &["-I", "/usr/include/csmith"]);
    }
}

/// csmith with its default options (packed structs, bit-fields). Seed 112
/// accesses packed bit-fields as an i48: a regression test for loads that
/// read the 8 bytes an i48 occupies instead of the 6 it touches.
#[test]
fn csmith_programs_with_bitfields_match_native() {
    let dir = tempfile::tempdir().unwrap();
    for seed in [101, 102, 103, 104, 112] {
        let src = dir.path().join(format!("csmith_bf{seed}.c"));
        let st = Command::new("csmith").args(["--seed", &seed.to_string(), "--max-funcs", "5", "-o"]).arg(&src).status().unwrap();
        assert!(st.success());
        compare(&src, &["-I", "/usr/include/csmith"]);
    }
}
