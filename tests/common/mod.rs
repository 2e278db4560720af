//! Helpers shared by the integration tests: run the `symcross` binary and
//! read the expectation written at the top of a fixture.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// One `#[test]` per fixture name, each calling `run` with the name, and
/// `LISTED`, the names, for the test that every fixture file is listed:
/// `common::fixture_tests!(race_fixture; neighbour_race, strided_ok);`.
#[allow(unused_macros)]
macro_rules! fixture_tests {
    ($run:expr; $($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                ($run)(stringify!($name));
            }
        )*
        #[allow(dead_code)]
        const LISTED: &[&str] = &[$(stringify!($name)),*];
    };
}
#[allow(unused_imports)]
pub(crate) use fixture_tests;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub json: Option<serde_json::Value>,
}

/// Runs `symcross ARGS`; with `--json -` in ARGS the report is parsed.
pub fn symcross(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_symcross")).args(args).output().expect("run symcross");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = if args.windows(2).any(|w| w == ["--json", "-"]) { serde_json::from_str(&stdout).ok() } else { None };
    Run { code: out.status.code().unwrap_or(-1), stdout, stderr: String::from_utf8_lossy(&out.stderr).into_owned(), json }
}

/// As `symcross`, run in directory `dir` with extra environment variables.
pub fn symcross_in(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Run {
    let out =
        Command::new(env!("CARGO_BIN_EXE_symcross")).current_dir(dir).envs(env.iter().copied()).args(args).output().expect("run symcross");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = if args.windows(2).any(|w| w == ["--json", "-"]) { serde_json::from_str(&stdout).ok() } else { None };
    Run { code: out.status.code().unwrap_or(-1), stdout, stderr: String::from_utf8_lossy(&out.stderr).into_owned(), json }
}

/// The expectation line of a fixture: `// expect: equivalent`,
/// `// expect: findings KIND...`, `// expect: exit 2` (`; expect:` in LLVM
/// text files).
pub fn expectation(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("read fixture");
    text.lines()
        .find_map(|l| {
            let l = l.trim();
            l.strip_prefix("// expect:").or_else(|| l.strip_prefix("; expect:")).map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| panic!("{} has no `// expect:` line", path.display()))
}

/// Checks a run against an expectation and returns a description of any
/// disagreement.
pub fn verify(path: &Path, run: &Run) -> Result<(), String> {
    let want = expectation(path);
    let ctx = || format!("{}\nstdout:\n{}\nstderr:\n{}", path.display(), run.stdout, run.stderr);
    if let Some(code) = want.strip_prefix("exit ") {
        let code: i32 = code.parse().expect("exit code");
        return if run.code == code { Ok(()) } else { Err(format!("expected exit {code}, got {}: {}", run.code, ctx())) };
    }
    let json = run.json.as_ref().ok_or_else(|| format!("no JSON report: {}", ctx()))?;
    let verdict = json["verdict"].as_str().unwrap_or("");
    let mut words = want.split_whitespace();
    let want_verdict = words.next().unwrap_or("");
    if verdict != want_verdict {
        return Err(format!("expected verdict {want_verdict}, got {verdict}: {}", ctx()));
    }
    let kinds: Vec<String> =
        json["findings"].as_array().map(|f| f.iter().map(|x| x["kind"].as_str().unwrap_or("").to_string()).collect()).unwrap_or_default();
    for k in words {
        if !kinds.iter().any(|x| x == k) {
            return Err(format!("expected a `{k}` finding, got {kinds:?}: {}", ctx()));
        }
    }
    let expected_code = match want_verdict {
        "equivalent" | "no-findings" => 0,
        "findings" => 1,
        _ => 3,
    };
    if run.code != expected_code {
        return Err(format!("expected exit {expected_code}, got {}: {}", run.code, ctx()));
    }
    Ok(())
}

pub fn check_fixture(rel: &str, extra: &[&str]) {
    let path = repo().join(rel);
    let p = path.to_str().expect("utf-8 path");
    let mut args = vec!["check", p, "--json", "-"];
    args.extend_from_slice(extra);
    let run = symcross(&args);
    if let Err(e) = verify(&path, &run) {
        panic!("{e}");
    }
}

pub mod edge_values;
/// Runs `symcross race` on a kernel fixture with the arguments of its
/// `// args:` line and checks the answer against its `// expect:` line.
pub fn verify_race_fixture(path: &Path) {
    let text = std::fs::read_to_string(path).expect("read fixture");
    let args_line = text.lines().find_map(|l| l.strip_prefix("// args:")).expect("fixture has an `// args:` line");
    let p = path.to_str().expect("utf-8 path");
    let mut args = vec!["race", p, "--json", "-"];
    args.extend(args_line.split_whitespace());
    let run = symcross(&args);
    if let Err(e) = verify(path, &run) {
        panic!("{e}");
    }
}

/// Called by a test that cannot run because a tool, a package or a CPU
/// feature is missing. Under CI (`CI` set to `true` or `1`) set-up has
/// installed everything, so a missing piece is a broken install and the
/// test fails. Elsewhere the skip is printed and appended to
/// `target/skipped-tests.log`, which `scripts/test.sh` counts at the end,
/// so a local run that skipped something says so. The caller returns after.
pub fn skip_or_fail_under_ci(test: &str, reason: &str) {
    let under_ci = std::env::var("CI").map(|v| v == "true" || v == "1").unwrap_or(false);
    assert!(!under_ci, "{test}: {reason}; under CI set-up installs everything, so this is a broken install (scripts/setup.sh)");
    eprintln!("SKIPPED {test}: {reason}");
    use std::io::Write;
    let log = repo().join("target/skipped-tests.log");
    if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(log) {
        let _ = writeln!(f, "{test}: {reason}");
    }
}

pub mod neonsig;
pub mod x86sig;

/// Compares a coverage table (`listed`, one `name<TAB>signature` per
/// intrinsic) with what `interpreter script` prints for clang 19 in the
/// same form: the two sets must be equal and hold more than `at_least`
/// entries. Skipped (failed under CI) when clang-19 is not installed.
pub fn assert_table_matches_clang(interpreter: &str, script: &str, listed: std::collections::BTreeSet<String>, at_least: usize) {
    if Command::new("clang-19").arg("--version").output().is_err() {
        skip_or_fail_under_ci(script, "clang-19 not found, cannot regenerate the intrinsic set");
        return;
    }
    let out = Command::new(interpreter).arg(script).output().unwrap_or_else(|e| panic!("run {script}: {e}"));
    assert!(out.status.success(), "{script} failed: {}", String::from_utf8_lossy(&out.stderr));
    let found: std::collections::BTreeSet<String> = String::from_utf8(out.stdout).unwrap().lines().map(String::from).collect();
    let missing: Vec<_> = found.difference(&listed).collect();
    let stale: Vec<_> = listed.difference(&found).collect();
    assert!(missing.is_empty() && stale.is_empty(), "not in coverage.tsv: {missing:#?}\nno longer emitted: {stale:#?}");
    assert!(found.len() > at_least, "suspiciously few intrinsics: {}", found.len());
}

/// Runs `symcross ARGS --json -`; returns the report, the exit code and the
/// peak resident set of the run in MB.
// The child is reaped by `wait4` below (for its resource usage), which
// clippy does not recognise as a wait.
#[allow(clippy::zombie_processes)]
pub fn run_measured(args: &[&str]) -> (serde_json::Value, i32, u64, String) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_symcross"))
        .args(args)
        .args(["--json", "-"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run symcross");
    let mut stdout = String::new();
    child.stdout.take().unwrap().read_to_string(&mut stdout).expect("read stdout");
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).expect("read stderr");
    // Reaped here rather than by `Child::wait`, to get its resource usage.
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4");
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("no JSON report ({e}): exit {code}\n{stdout}\n{stderr}"));
    (json, code, usage.ru_maxrss as u64 / 1024, stderr)
}
