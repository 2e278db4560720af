//! The memory limit (issue 14): a host allocation that cannot succeed is
//! the memory limit, reported (inconclusive, limit `memory`, exit 3), never
//! an abort; `--max-memory` has a documented default and holds for large
//! objects and the memset/memcpy over them (how large objects scale:
//! memory_scale.rs).

mod common;

fn fixture(name: &str) -> String {
    common::repo().join("tests/fixtures/memory").join(name).to_str().unwrap().to_string()
}

fn assert_memory_limit(run: &common::Run) {
    assert_eq!(run.code, 3, "stdout:\n{}\nstderr:\n{}", run.stdout, run.stderr);
    let j = run.json.as_ref().expect("a JSON report");
    assert_eq!(j["verdict"], "inconclusive");
    assert_eq!(j["limit"], "memory");
}

#[test]
fn a_16_gib_memset_completes_or_is_the_memory_limit_under_the_default_limit() {
    // Its pages share one page (memory_scale.rs): it completes unless the
    // machine cannot hold its 32 MB page table.
    let run = common::symcross(&["check", &fixture("memset_16gib.c"), "--json", "-"]);
    if run.code != 0 {
        assert_memory_limit(&run);
    } else {
        assert_eq!(run.json.as_ref().expect("a JSON report")["verdict"], "equivalent");
    }
}

#[test]
fn a_1_gib_memset_completes_under_max_memory_500() {
    let run = common::symcross(&["check", &fixture("memset_1gib.c"), "--max-memory", "500", "--json", "-"]);
    assert_eq!(run.code, 0, "stdout:\n{}\nstderr:\n{}", run.stdout, run.stderr);
    assert_eq!(run.json.as_ref().expect("a JSON report")["verdict"], "equivalent");
}

#[test]
fn a_1_tib_buffer_is_the_memory_limit_under_max_memory_500() {
    // Its page table alone (2 GiB) is past the limit.
    let run = common::symcross(&["check", &fixture("malloc_1tib.c"), "--max-memory", "500", "--json", "-"]);
    assert_memory_limit(&run);
}

#[test]
fn overflowing_calloc_and_a_2_tib_alloca_are_the_memory_limit() {
    let run = common::symcross(&["check", &fixture("calloc_overflow.c"), "--no-merge", "--json", "-"]);
    assert_memory_limit(&run);
    let run = common::symcross(&["check", &fixture("calloc_overflow.c"), "--no-merge", "--searcher", "bfs", "--json", "-"]);
    assert_memory_limit(&run);
}

#[test]
fn ordinary_allocations_are_unaffected() {
    let run = common::symcross(&["check", &fixture("small_alloc.c"), "--max-memory", "2000", "--json", "-"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
}

#[test]
fn the_default_memory_limit_is_documented() {
    let run = common::symcross(&["check", "--help"]);
    assert!(run.stdout.contains("half the machine's memory"), "{}", run.stdout);
    let readme = std::fs::read_to_string(common::repo().join("README.md")).unwrap();
    assert!(readme.contains("half the machine's memory"));
}
