//! Objects written at symbolic offsets keep a store log that reads resolve
//! (src/memory/store_log.rs): a read after symbolic writes sees exactly
//! the writes that may be at its position, and a large object touched at
//! a few places costs those places, not its size. Budgets are peak
//! resident memory, never seconds.

mod common;

use std::io::Read;
use std::process::{Command, Stdio};

fn fixture(name: &str) -> String {
    common::repo().join("tests/fixtures/symbolic_arrays").join(name).to_str().unwrap().to_string()
}

/// Runs `symcross ARGS --json -`: the report, the exit code and the peak
/// resident set in MB (clang included).
// The child is reaped by `wait4` (for its resource usage).
#[allow(clippy::zombie_processes)]
fn run_measured(args: &[&str]) -> (serde_json::Value, i32, u64, String) {
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
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4");
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("no JSON report ({e}): exit {code}\n{stdout}\n{stderr}"));
    (json, code, usage.ru_maxrss as u64 / 1024, stderr)
}

#[test]
fn a_read_at_the_slot_just_written_sees_the_write() {
    common::check_fixture("tests/fixtures/symbolic_arrays/read_sees_symbolic_write.c", &[]);
}

#[test]
fn a_read_at_another_slot_does_not_see_the_write() {
    common::check_fixture("tests/fixtures/symbolic_arrays/read_elsewhere_misses_write.c", &[]);
}

#[test]
fn a_read_that_may_be_at_the_written_slot_is_a_mismatch_where_the_slots_meet() {
    let path = fixture("read_elsewhere_may_hit_write_broken.c");
    let run = common::symcross(&["check", &path, "--json", "-"]);
    common::verify(std::path::Path::new(&path), &run).unwrap_or_else(|e| panic!("{e}"));
    // The witness puts both slots at one place.
    let j = run.json.as_ref().expect("a JSON report");
    let witness = &j["findings"][0]["witness"];
    assert!(witness["i"].is_string(), "a witness naming i and j: {witness}");
    assert_eq!(witness["i"], witness["j"], "i equals j in {witness}");
}

#[test]
fn a_byte_written_at_a_symbolic_position_shows_in_the_word_holding_it() {
    common::check_fixture("tests/fixtures/symbolic_arrays/unaligned_byte_over_word.c", &[]);
}

#[test]
fn sixty_four_symbolic_writes_into_64_mib_stay_under_150_mb() {
    // Each rewrite of the 64 MiB as selects stopped at the memory limit.
    let (json, code, peak, stderr) = run_measured(&["check", &fixture("many_symbolic_writes_64mib.c"), "--max-memory", "500"]);
    eprintln!("many_symbolic_writes_64mib.c: peak {peak} MB");
    assert_eq!((code, json["verdict"].as_str()), (0, Some("equivalent")), "{json}\n{stderr}");
    assert!(peak < 150, "peak {peak} MB");
}

#[test]
fn a_transpose_with_4_mib_buffers_is_race_free_under_200_mb() {
    // Listing each 4 MiB buffer as selects took 6 GB.
    let f = fixture("transpose_sized.cl");
    let mut args = vec!["race", f.as_str()];
    let text = std::fs::read_to_string(&f).unwrap();
    let line = text.lines().find_map(|l| l.strip_prefix("// args:")).unwrap().to_string();
    args.extend(line.split_whitespace());
    let (json, code, peak, stderr) = run_measured(&args);
    eprintln!("transpose_sized.cl: peak {peak} MB");
    assert_eq!((code, json["verdict"].as_str()), (0, Some("equivalent")), "{json}\n{stderr}");
    assert!(peak < 200, "peak {peak} MB");
}

#[test]
fn the_memory_limit_names_the_buffer_it_would_list_and_a_way_out() {
    let (json, code, peak, stderr) = run_measured(&[
        "race",
        &fixture("lookup_in_listed_table.cl"),
        "--local-size",
        "64",
        "--num-groups",
        "1",
        "--arg",
        "table=4194304:values:1",
        "--max-memory",
        "200",
    ]);
    assert_eq!((code, json["limit"].as_str()), (3, Some("memory")), "{json}\n{stderr}");
    assert!(peak < 400, "peak {peak} MB");
    let warnings = json["warnings"].to_string();
    assert!(warnings.contains("`table`") && warnings.contains("4194304 bytes"), "names the table: {warnings}");
    assert!(warnings.contains("--arg table=") && warnings.contains("leave the buffer unsized"), "a way out: {warnings}");
}
