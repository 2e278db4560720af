//! Uninitialised memory judged on use (MemorySanitizer's rule): the
//! fixtures tests/fixtures/check/uninit_*.c give the verdicts (see
//! check_fixtures.rs); these tests pin where each finding is reported, what
//! it names, and that nothing is reported where bits are only moved.

mod common;

/// (line, message, related messages) of each `uninitialized-read` finding.
fn uninit_findings(fixture: &str, extra: &[&str]) -> Vec<(u64, String, Vec<String>)> {
    let path = common::repo().join("tests/fixtures/check").join(fixture);
    let mut args = vec!["check", path.to_str().unwrap(), "--json", "-"];
    args.extend_from_slice(extra);
    let run = common::symcross(&args);
    let json = run.json.unwrap_or_else(|| panic!("no report: {}\n{}", run.stdout, run.stderr));
    json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "uninitialized-read")
        .map(|f| {
            let related = f["related"]
                .as_array()
                .map(|r| r.iter().map(|x| x["message"].as_str().unwrap_or("").to_string()).collect())
                .unwrap_or_default();
            (f["location"]["line"].as_u64().unwrap_or(0), f["message"].as_str().unwrap_or("").to_string(), related)
        })
        .collect()
}

#[test]
fn branch_on_an_unwritten_lane_names_the_use_and_the_allocation() {
    let found = uninit_findings("uninit_branch_on_lane.c", &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    let (line, msg, related) = &found[0];
    assert_eq!(*line, 20, "the branch, not the copy: {found:?}");
    assert!(msg.contains("branch condition") && msg.contains("stack `r`"), "{msg}");
    assert!(related.iter().any(|r| r.contains("allocated here")), "{related:?}");
}

#[test]
fn lanes_filled_one_at_a_time_are_silent() {
    assert!(uninit_findings("uninit_union_lane_fill_ok.c", &[]).is_empty());
    assert!(uninit_findings("uninit_union_lane_fill_ok.c", &["--no-merge"]).is_empty());
}

#[test]
fn padding_compared_by_check_equal_is_a_use() {
    let found = uninit_findings("uninit_struct_padding_compared.c", &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1.contains("the comparison `pair`") && found[0].1.contains("stack `a`"), "{found:?}");
}

#[test]
fn padding_compared_by_memcmp_is_reported_at_the_memcmp_call() {
    // memcmp is built in (src/exec/checks/compare.rs): the use is the call itself.
    let found = uninit_findings("uninit_memcmp_padding.c", &[]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, 19, "the line of the memcmp call: {found:?}");
    assert!(found[0].1.contains("memcmp"), "{found:?}");
}

#[test]
fn a_read_back_at_the_symbolic_index_written_is_defined() {
    let found = uninit_findings("uninit_symbolic_index.c", &[]);
    let lines: Vec<u64> = found.iter().map(|f| f.0).collect();
    assert_eq!(lines, vec![14], "{found:?}");
}

#[test]
fn divisor_and_address_are_uses() {
    let found = uninit_findings("uninit_divisor_and_address.c", &[]);
    assert!(found.iter().any(|f| f.0 == 11 && f.1.starts_with("a divisor")), "{found:?}");
    assert!(found.iter().any(|f| f.0 == 13 && f.1.starts_with("the address of a load")), "{found:?}");
}

#[test]
fn never_assigned_local_is_found_with_and_without_merging() {
    for extra in [&[][..], &["--no-merge"][..]] {
        let found = uninit_findings("uninit_scalar_branch.c", extra);
        assert_eq!(found.len(), 1, "{extra:?}: {found:?}");
        assert!(found[0].1.contains("an undefined value in `main`"), "{found:?}");
    }
}

#[test]
fn use_guarded_by_the_writing_condition_is_defined_after_merging() {
    assert!(uninit_findings("uninit_guarded_use_ok.c", &[]).is_empty());
    assert!(uninit_findings("uninit_guarded_use_ok.c", &["--no-merge"]).is_empty());
}

#[test]
fn exit_status_and_printf_arguments_are_uses() {
    let found = uninit_findings("uninitialized_read.c", &[]);
    assert!(found.iter().any(|f| f.1.contains("exit status")), "{found:?}");
    let found = uninit_findings("uninit_printf_argument.c", &[]);
    assert!(found.iter().any(|f| f.1.contains("argument 3 of `printf`")), "{found:?}");
}

/// Lane-level rules on LLVM text (tests/fixtures/uninit/*.ll, each with its
/// `; expect:` line): splats and blends of partly undefined vectors are
/// silent; a poison shuffle lane and an x86 intrinsic over an undefined lane
/// decide a branch.
#[test]
fn lane_rules_on_llvm_text() {
    let dir = common::repo().join("tests/fixtures/uninit");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).expect("fixture dir") {
        let path = entry.expect("entry").path();
        let rel = path.strip_prefix(common::repo()).unwrap().to_str().unwrap().to_string();
        common::check_fixture(&rel, &[]);
        seen += 1;
    }
    assert!(seen >= 4, "fixtures in {}", dir.display());
}

/// Host memory never written, copied into an OpenCL buffer and decided on
/// by a kernel run from the host program: the finding is at the kernel's
/// line and names the host's array (the origins travel into the nested run).
#[test]
fn kernel_use_of_host_bytes_never_written_names_the_host_array() {
    let path = common::repo().join("tests/fixtures/opencl/uninitialized_host_data_in_kernel.c");
    let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
    let json = run.json.unwrap_or_else(|| panic!("no report: {}\n{}", run.stdout, run.stderr));
    let f = json["findings"].as_array().unwrap().iter().find(|f| f["kind"] == "uninitialized-read").expect("a finding");
    assert!(f["message"].as_str().unwrap().contains("stack `a`"), "{f}");
    assert_eq!(f["location"]["line"], 15, "{f}");
}
