//! A host program's buffer flags reach its kernels (`symcross check` of
//! OpenCL host programs): a kernel's store into a buffer the host created
//! CL_MEM_READ_ONLY is a `write-to-read-only` finding and its load from
//! one created CL_MEM_WRITE_ONLY a `read-from-write-only` finding, as
//! `race --arg NAME=...:ro` / `:wo` report them for a kernel run alone;
//! sub-buffers take their buffer's flags unless given their own; the host's
//! own transfers stay allowed, and CL_MEM_HOST_* flags restrict the host
//! only (a refused transfer is CL_INVALID_OPERATION). Known-answer host
//! programs in tests/fixtures/host_flags/, written as tutorials write them,
//! each with its `// expect:` line.

mod common;

fn fixture(name: &str) {
    common::check_fixture(&format!("tests/fixtures/host_flags/{name}.c"), &[]);
}

common::fixture_tests!(
    fixture;
    readonly_input_written,
    readonly_input_ok,
    sub_buffer_written,
    sub_buffer_ok,
    sub_buffer_inherits_read_only,
    writeonly_output_read,
    host_access_flags,
    host_ptr_halves_written,
);

#[test]
fn every_fixture_is_listed() {
    for entry in std::fs::read_dir(common::repo().join("tests/fixtures/host_flags")).expect("fixture dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "c") {
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            assert!(LISTED.contains(&stem.as_str()), "fixture {stem} is not listed in tests/host_buffer_flags.rs");
        }
    }
}

/// The one finding of `kind` that `symcross check` gives the fixture.
fn finding(name: &str, kind: &str) -> serde_json::Value {
    let path = common::repo().join(format!("tests/fixtures/host_flags/{name}.c"));
    let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
    assert!(!run.stderr.contains("panicked"), "{name}: {}", run.stderr);
    let json = run.json.unwrap_or_else(|| panic!("{name}: no report: {}", run.stderr));
    let all = json["findings"].as_array().cloned().unwrap_or_default();
    let of_kind: Vec<_> = all.iter().filter(|f| f["kind"] == kind).cloned().collect();
    assert_eq!(of_kind.len(), 1, "{name}: {all:#?}");
    of_kind[0].clone()
}

/// The related location whose message starts with `what`: its line.
fn related_line(f: &serde_json::Value, what: &str) -> Option<u64> {
    f["related"].as_array()?.iter().find(|r| r["message"].as_str().is_some_and(|m| m.starts_with(what)))?["location"]["line"].as_u64()
}

/// The kernel's store into its read-only input: the finding is at the
/// store (the kernel's line inside the host file's string literal), names
/// the kernel's parameter, the flag and the host's clCreateBuffer line,
/// and the work-item; the same kind and status as `:ro` gives.
#[test]
fn a_store_into_a_read_only_buffer_names_the_buffer_and_both_sites() {
    let f = finding("readonly_input_written", "write-to-read-only");
    let msg = f["message"].as_str().unwrap();
    assert!(
        msg.starts_with(
            "write of 4 bytes into buffer `input` (created CL_MEM_READ_ONLY by the host at readonly_input_written.c:42), which is read-only"
        ),
        "{f:#?}"
    );
    assert!(msg.contains("by work-item"), "{f:#?}");
    // Confirmed by the model: a native run (the kernel on the OpenCL
    // implementation) has no detector for it.
    assert_eq!(f["status"], "confirmed-by-model", "{f:#?}");
    assert!(f["location"]["file"].as_str().unwrap().ends_with("readonly_input_written.c"), "{f:#?}");
    assert_eq!(f["location"]["line"], 16, "the kernel's store: {f:#?}");
    assert_eq!(related_line(&f, "buffer created here"), Some(42), "{f:#?}");

    // `race --arg in=...:ro` on a kernel alone: the same kind, worded alike.
    let kernel = common::repo().join("tests/fixtures/race_inputs/read_only_written.cl");
    let args = ["race", kernel.to_str().unwrap(), "--local-size", "16", "--num-groups", "2", "--arg", "in=128:ro", "--arg", "out=128"];
    let race = common::symcross(&[&args[..], &["--json", "-"]].concat()).json.expect("race report");
    let ro = &race["findings"][0];
    assert_eq!(ro["kind"], f["kind"], "{race:#}");
    assert!(
        ro["message"].as_str().unwrap().starts_with("write of 4 bytes into buffer `in` (created CL_MEM_READ_ONLY by the host"),
        "{race:#}"
    );
}

/// A read-only sub-buffer of a read-write buffer: the finding names the
/// sub-buffer and its clCreateSubBuffer line; the write-only half next to
/// it is written without a finding.
#[test]
fn a_store_into_a_read_only_sub_buffer_names_the_sub_buffer() {
    let f = finding("sub_buffer_written", "write-to-read-only");
    let msg = f["message"].as_str().unwrap();
    assert!(
        msg.starts_with("write of 4 bytes into sub-buffer `in` (created CL_MEM_READ_ONLY by the host at sub_buffer_written.c:40)"),
        "{f:#?}"
    );
    assert_eq!(f["location"]["line"], 17, "{f:#?}");
    assert_eq!(related_line(&f, "sub-buffer created here (clCreateSubBuffer)"), Some(40), "{f:#?}");
}

/// A sub-buffer created with flags 0 is read-only when its buffer is.
#[test]
fn a_sub_buffer_inherits_read_only() {
    let f = finding("sub_buffer_inherits_read_only", "write-to-read-only");
    let msg = f["message"].as_str().unwrap();
    assert!(msg.contains("sub-buffer `chunk` (created CL_MEM_READ_ONLY by the host at sub_buffer_inherits_read_only.c:49)"), "{f:#?}");
    assert_eq!(f["location"]["line"], 18, "{f:#?}");
}

/// SAXPY reading its write-only `y`: the load is the finding (named as
/// `:wo` names it), and the run goes on, as on a device.
#[test]
fn a_load_from_a_write_only_buffer_names_the_buffer_and_both_sites() {
    let f = finding("writeonly_output_read", "read-from-write-only");
    let msg = f["message"].as_str().unwrap();
    assert!(
        msg.starts_with(
            "read of 4 bytes of buffer `y`, which the host created write-only (CL_MEM_WRITE_ONLY at writeonly_output_read.c:35): a \
             kernel may only write it"
        ),
        "{f:#?}"
    );
    assert!(msg.contains("by work-item"), "{f:#?}");
    assert_eq!(f["status"], "confirmed-by-model", "{f:#?}");
    assert_eq!(f["location"]["line"], 14, "{f:#?}");
    assert_eq!(related_line(&f, "buffer created here"), Some(35), "{f:#?}");
}

/// Part of an object read-only: a write at an index the input chooses
/// splits the path; the part that reaches the read-only half is the
/// finding (its witness an index below 0), the rest goes on.
#[test]
fn a_partly_read_only_allocation_splits_the_path() {
    let f = finding("host_ptr_halves_written", "write-to-read-only");
    let msg = f["message"].as_str().unwrap();
    assert!(
        msg.starts_with("write of 4 bytes into buffer `table` (created CL_MEM_READ_ONLY by the host at host_ptr_halves_written.c:39)"),
        "{f:#?}"
    );
    assert_eq!(f["location"]["line"], 19, "{f:#?}");
    // The witness's `at`: negative.
    let at = f["witness"]["at"].as_str().expect("witness of at");
    let bytes: Vec<u8> = (0..at.len()).step_by(2).map(|k| u8::from_str_radix(&at[k..k + 2], 16).unwrap()).collect();
    assert!(i32::from_le_bytes(bytes[..4].try_into().unwrap()) < 0, "{f:#?}");
}
