//! Fitting the habits of symcross's users: GPUVerify's option spellings,
//! race verdicts worded as GPUVerify users read them, and output piped into
//! `head` ending quietly.

mod common;

fn kernel(name: &str) -> String {
    common::repo().join("tests/fixtures/race").join(name).to_str().unwrap().to_string()
}

#[test]
fn gpuverify_spellings_are_accepted() {
    let k = kernel("float4_components_ok.cl");
    let ours = common::symcross(&["race", &k, "--local-size", "4", "--num-groups", "1", "--json", "-"]);
    let theirs = common::symcross(&["race", &k, "--local_size=[4]", "--num_groups=[1]", "--json", "-"]);
    assert_eq!(ours.code, 0, "{}\n{}", ours.stdout, ours.stderr);
    assert_eq!(theirs.code, 0, "{}\n{}", theirs.stdout, theirs.stderr);
    let (a, b) = (ours.json.expect("report"), theirs.json.expect("report"));
    assert_eq!(a["verdict"], b["verdict"]);
    assert_eq!(a["stats"]["paths"], b["stats"]["paths"]);
    let global = common::symcross(&["race", &k, "--local_size=[4]", "--global_size=[4]", "--json", "-"]);
    assert_eq!(global.json.expect("report")["stats"]["paths"], a["stats"]["paths"]);
}

#[test]
fn a_race_free_kernel_is_worded_as_such() {
    let run = common::symcross(&["race", &kernel("float4_components_ok.cl"), "--local-size", "4", "--num-groups", "1"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(run.stdout.contains("no data race, barrier divergence or memory error found"), "{}", run.stdout);
    assert!(!run.stdout.contains("equivalent"), "{}", run.stdout);
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_symcross"))
        .args(["rules", "list"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run symcross");
    // Read one line, then close the pipe as `head -1` does.
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    let n = stdout.read(&mut first).unwrap();
    assert!(n > 0);
    drop(stdout);
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(status.code().is_none_or(|c| c == 0), "exit {status:?}: {stderr}");
}

#[test]
fn an_unwritable_report_path_fails_before_the_run() {
    let harness = common::repo().join("harnesses/reductions/sum_sse.c");
    for flag in ["--json", "--sarif", "--junit"] {
        let run = common::symcross(&["check", harness.to_str().unwrap(), flag, "/nonexistent-symcross-dir/report"]);
        assert_eq!(run.code, 2, "{flag}: {}\n{}", run.stdout, run.stderr);
        assert!(run.stderr.contains("/nonexistent-symcross-dir/report"), "{flag}: {}", run.stderr);
        // Nothing was checked: no verdict line.
        assert!(!run.stdout.contains("equivalent"), "{flag}: {}", run.stdout);
    }
    let run =
        common::symcross(&["race", &kernel("float4_components_ok.cl"), "--local-size", "4", "--json", "/nonexistent-symcross-dir/r.json"]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
}
