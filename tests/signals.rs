//! SIGINT and SIGTERM end a run with a report (exit 3, limit
//! `interrupted`), kill the solver process, and leave no temporary
//! directory; a second signal exits at once and the next run removes what
//! it left (issue 14). Each test waits for a "started" condition (a
//! progress line, a file the fake solver or compiler touches), never for a
//! fixed time, so a loaded machine only makes it slower.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Generous: the machine may be busy compiling other things.
const PATIENCE: Duration = Duration::from_secs(300);

struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Sandbox {
        let s = Sandbox { dir: tempfile::tempdir().unwrap() };
        std::fs::create_dir(s.tmp()).unwrap();
        std::fs::create_dir(s.bin()).unwrap();
        s
    }
    /// TMPDIR of the run: private, so leftovers are visible.
    fn tmp(&self) -> PathBuf {
        self.dir.path().join("tmp")
    }
    /// Put first on PATH: fake solvers.
    fn bin(&self) -> PathBuf {
        self.dir.path().join("bin")
    }
    fn file(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    /// A fake tool that records its pid, says it started, and never ends.
    fn fake_tool(&self, name: &str) -> PathBuf {
        let path = self.bin().join(name);
        let script = format!(
            "#!/bin/sh\necho $$ > '{d}/{name}.pid'\ntouch '{d}/{name}.started'\nexec sleep 100000\n",
            d = self.dir.path().display()
        );
        std::fs::write(&path, script).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }
    fn symcross(&self, args: &[&str], envs: &[(&str, &Path)]) -> Child {
        let path = format!("{}:{}", self.bin().display(), std::env::var("PATH").unwrap_or_default());
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_symcross"));
        cmd.args(args)
            .env("TMPDIR", self.tmp())
            .env("PATH", path)
            .stdout(Stdio::from(std::fs::File::create(self.file("stdout")).unwrap()))
            .stderr(Stdio::from(std::fs::File::create(self.file("stderr")).unwrap()));
        for (k, v) in envs {
            cmd.env(k, v);
        }
        cmd.spawn().expect("start symcross")
    }
    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.file(name)).unwrap_or_default()
    }
    /// symcross-* directories left in TMPDIR.
    fn leftovers(&self) -> Vec<String> {
        std::fs::read_dir(self.tmp())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("symcross-"))
            .collect()
    }
}

fn wait_for(what: &str, child: &mut Child, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("symcross ended ({status}) before {what}");
        }
        assert!(start.elapsed() < PATIENCE, "no {what} after {PATIENCE:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn exit_code(child: &mut Child) -> i32 {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("symcross did not end after the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(child: &Child, sig: i32) {
    // SAFETY: kill(2) on the pid of a child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
}

fn alive(pid: i32) -> bool {
    // A zombie is not alive: it only waits for its parent to collect it.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'),
        Err(_) => false,
    }
}

fn fixture(name: &str) -> String {
    common::repo().join("tests/fixtures/signals").join(name).to_str().unwrap().to_string()
}

#[test]
fn sigint_in_a_long_path_ends_with_a_report_and_no_temp_dir() {
    let sb = Sandbox::new();
    let json = sb.file("report.json");
    let mut child = sb.symcross(&["check", &fixture("long_loop.c"), "--progress", "--json", json.to_str().unwrap()], &[]);
    // Exploration has started once a progress line is printed.
    wait_for("progress line", &mut child, || sb.read("stderr").contains("paths done"));
    signal(&child, libc::SIGINT);
    assert_eq!(exit_code(&mut child), 3, "{}", sb.read("stderr"));
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["verdict"], "inconclusive");
    assert_eq!(report["limit"], "interrupted");
    assert!(sb.read("stdout").contains("interrupted by a signal"), "{}", sb.read("stdout"));
    assert!(sb.leftovers().is_empty(), "left behind: {:?}", sb.leftovers());
}

#[test]
fn sigterm_during_a_solver_query_kills_the_solver() {
    let sb = Sandbox::new();
    sb.fake_tool("cvc5");
    let mut child =
        sb.symcross(&["check", &fixture("fp_query.c"), "--query-timeout", "100000", "--sample-trials", "0", "--json", "-"], &[]);
    wait_for("solver start", &mut child, || sb.file("cvc5.started").exists());
    let solver: i32 = sb.read("cvc5.pid").trim().parse().unwrap();
    signal(&child, libc::SIGTERM);
    assert_eq!(exit_code(&mut child), 3, "{}\n{}", sb.read("stdout"), sb.read("stderr"));
    let report: serde_json::Value = serde_json::from_str(&sb.read("stdout")).expect("JSON report");
    assert_eq!(report["verdict"], "inconclusive");
    assert_eq!(report["limit"], "interrupted");
    // The query cut short is not reported as an unconfirmed mismatch.
    assert_eq!(report["findings"].as_array().map(Vec::len), Some(0), "{report}");
    assert!(!alive(solver), "the solver process {solver} is still running");
    assert!(sb.leftovers().is_empty(), "left behind: {:?}", sb.leftovers());
}

#[test]
fn a_second_signal_exits_at_once_and_the_next_run_cleans_up() {
    let sb = Sandbox::new();
    // A compiler that never finishes: the first signal cannot end the run
    // until it does, the second ends it at once.
    let clang = sb.fake_tool("clang");
    let empty = sb.file("empty");
    let mut child = sb.symcross(&["check", &fixture("fp_query.c")], &[("SYMCROSS_CLANG", &clang), ("SYMCROSS_CACHE_DIR", &empty)]);
    wait_for("compiler start", &mut child, || sb.file("clang.started").exists());
    let compiler: i32 = sb.read("clang.pid").trim().parse().unwrap();
    signal(&child, libc::SIGINT);
    signal(&child, libc::SIGTERM);
    let code = exit_code(&mut child);
    // SAFETY: the fake compiler was started for this test (its pid file).
    unsafe { libc::kill(compiler, libc::SIGKILL) };
    assert_eq!(code, 3, "{}", sb.read("stderr"));
    assert_eq!(sb.leftovers().len(), 1, "the killed run's directory: {:?}", sb.leftovers());
    // Any later command removes it: its run is gone.
    let mut next = sb.symcross(&["check", "/nonexistent/harness.c"], &[]);
    assert_eq!(exit_code(&mut next), 2);
    assert!(sb.leftovers().is_empty(), "left behind: {:?}", sb.leftovers());
}

#[test]
fn sigint_during_an_in_process_z3_query_interrupts_it() {
    let sb = Sandbox::new();
    let mut child = sb.symcross(&["check", &fixture("hard_z3_query.c"), "--query-timeout", "100000", "--log", "trace", "--json", "-"], &[]);
    // The first Z3 query is the branch that takes Z3 minutes (logged at trace).
    wait_for("a Z3 query", &mut child, || sb.read("stderr").contains("z3: checking"));
    signal(&child, libc::SIGINT);
    let sent = Instant::now();
    assert_eq!(exit_code(&mut child), 3, "{}", sb.read("stdout"));
    // Without the interruption Z3 would go on for minutes; 60 s is slack
    // for a loaded machine.
    assert!(sent.elapsed() < Duration::from_secs(60), "took {:?} after the signal", sent.elapsed());
    let report: serde_json::Value = serde_json::from_str(&sb.read("stdout")).expect("JSON report");
    assert_eq!(report["limit"], "interrupted");
    assert_eq!(report["findings"].as_array().map(Vec::len), Some(0), "{report}");
}

/// --max-time holds while a check is decided: between the solver queries
/// of a sweep and inside the query that would take Z3 minutes, and the
/// progress lines keep coming meanwhile. The run once went on for 412 s
/// past `--max-time 60`, silent, between two queries.
#[test]
fn the_time_limit_stops_a_check_being_decided_and_progress_keeps_coming() {
    let sb = Sandbox::new();
    let json = sb.file("report.json");
    let started = Instant::now();
    let mut child = sb.symcross(
        &[
            "check",
            &fixture("transform_histogram.c"),
            "--max-time",
            "20",
            "--query-timeout",
            "100000",
            "--progress",
            "--json",
            json.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(exit_code(&mut child), 3, "{}\n{}", sb.read("stdout"), sb.read("stderr"));
    // 20 s of run; the rest is slack for a loaded machine.
    assert!(started.elapsed() < Duration::from_secs(90), "took {:?} with --max-time 20", started.elapsed());
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["limit"], "time", "{report}");
    assert!(sb.read("stdout").contains("time limit"), "{}", sb.read("stdout"));
    let stderr = sb.read("stderr");
    assert!(
        stderr.contains("symcross: waiting on the solver") || stderr.contains("symcross: deciding a check"),
        "no progress line:\n{stderr}"
    );
}

/// SIGTERM while a check is decided (the run has said so on its progress
/// line) ends the run with a report naming the interruption, promptly.
#[test]
fn sigterm_while_a_check_is_decided_ends_the_run_promptly() {
    let sb = Sandbox::new();
    let tick = PathBuf::from("0");
    let mut child = sb.symcross(
        &["check", &fixture("transform_histogram.c"), "--query-timeout", "100000", "--progress", "--json", "-"],
        &[("SYMCROSS_PROGRESS_TICK_MS", &tick)],
    );
    // With a zero tick, a line is printed as each query starts.
    wait_for("a solver query", &mut child, || sb.read("stderr").contains("symcross: waiting on the solver"));
    signal(&child, libc::SIGTERM);
    let sent = Instant::now();
    assert_eq!(exit_code(&mut child), 3, "{}\n{}", sb.read("stdout"), sb.read("stderr"));
    assert!(sent.elapsed() < Duration::from_secs(60), "took {:?} after the signal", sent.elapsed());
    let report: serde_json::Value = serde_json::from_str(&sb.read("stdout")).expect("JSON report");
    assert_eq!(report["verdict"], "inconclusive");
    assert_eq!(report["limit"], "interrupted");
    assert!(sb.leftovers().is_empty(), "left behind: {:?}", sb.leftovers());
}
