//! Known-answer CUDA host programs for `symcross check`: each fixture in
//! tests/fixtures/cuda_host/ is one `.cu` file with host code and
//! `__global__` kernels, launched with `<<<...>>>` through the modelled
//! CUDA runtime and compared with a C reference; the expected verdict is
//! its first `// expect:` line.

mod common;

fn fixture(name: &str) {
    common::check_fixture(&format!("tests/fixtures/cuda_host/{name}.cu"), &[]);
}

macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                fixture(stringify!($name));
            }
        )*
    };
}

fixtures!(vector_add, vector_add_off_by_one,);

/// The report of a fixture, run with `--json -`.
fn report(name: &str) -> serde_json::Value {
    let path = common::repo().join(format!("tests/fixtures/cuda_host/{name}.cu"));
    let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
    assert!(!run.stderr.contains("panicked"), "{name}: {}", run.stderr);
    run.json.unwrap_or_else(|| panic!("{name}: no report: {}", run.stderr))
}

/// The off-by-one kernel's mismatch names the element its bound leaves
/// out, with a witness; no GPU replays it, and the report says so.
#[test]
fn off_by_one_names_the_element_and_is_confirmed_by_the_model_only() {
    let json = report("vector_add_off_by_one");
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "mismatch");
    let message = f["message"].as_str().unwrap();
    assert!(message.contains("element 9 of 10"), "{message}");
    assert_eq!(f["status"], "confirmed-by-model", "{f}");
    assert!(f["witness"].is_array() || f["witness"].is_object(), "{f}");
    assert!(f["native"]["detail"].as_str().unwrap_or("").contains("NVIDIA GPU"), "{f}");
}
