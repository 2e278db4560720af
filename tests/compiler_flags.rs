//! The compiler's choices are honoured and stated: the user's
//! optimisation and contraction flags reach the user's code (and only it:
//! the runtime model keeps its own), the report says which were used, and
//! a multiply-add the compiler may fuse is checked both ways.

mod common;

fn harness(name: &str) -> String {
    common::repo().join("tests/fixtures/habits").join(name).to_str().unwrap().to_string()
}

#[test]
fn contraction_is_off_by_default_and_said_so() {
    let run = common::symcross(&["check", &harness("mul_add_contracted.c"), "--json", "-"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let json = run.json.expect("report");
    assert_eq!(json["verdict"], "equivalent");
    assert_eq!(json["build"]["compiled_with"], serde_json::json!(["-O0 (default)", "-ffp-contract=off (default)"]));
    let text = common::symcross(&["check", &harness("mul_add_contracted.c")]);
    assert!(text.stdout.contains("compiled with: -O0 (default) -ffp-contract=off (default)"), "{}", text.stdout);
}

#[test]
fn a_contracting_build_may_differ_and_is_not_proved() {
    for flag in ["-ffp-contract=on", "-ffp-contract=fast"] {
        let run = common::symcross(&["check", &harness("mul_add_contracted.c"), "--cflags", flag, "--json", "-"]);
        // Fused or not is the code generator's choice: a difference that
        // needs one of them is real for some build, but not confirmed.
        assert_eq!(run.code, 3, "{flag}: {}\n{}", run.stdout, run.stderr);
        let json = run.json.expect("report");
        let f = &json["findings"][0];
        assert_eq!((f["kind"].as_str(), f["status"].as_str()), (Some("mismatch"), Some("unconfirmed")), "{flag}: {f}");
        assert!(f["message"].as_str().unwrap().contains("fuses a*b+c"), "{flag}: {f}");
        assert_eq!(json["build"]["compiled_with"][1], format!("{flag} (--cflags)"));
    }
}

#[test]
fn an_explicit_fma_is_exact_under_every_flag() {
    // llvm.fma is always fused: a harness comparing fmaf with itself is
    // proved whatever the contraction flag.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("fma_self.c");
    std::fs::write(
        &f,
        "#include <math.h>\n#include \"symcross.h\"\nint main(void){float a,b,c;symcross_make_symbolic(&a,4,\"a\");symcross_make_symbolic(&b,4,\"b\");\
         symcross_make_symbolic(&c,4,\"c\");float x=fmaf(a,b,c),y=fmaf(a,b,c);symcross_check_equal(&x,&y,4,1,\"fma\");return 0;}\n",
    )
    .unwrap();
    let run = common::symcross(&["check", f.to_str().unwrap(), "--cflags", "-ffp-contract=fast"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
}

#[test]
fn user_flags_do_not_reach_the_runtime_model() {
    // -std=c11 hides POSIX declarations the host runtime uses, and -O2
    // changes it; neither may break or change it.
    let zlimit = common::repo().join("harnesses/zlimit.c");
    for flags in ["-std=c11", "-O2", "-O1 -ffp-contract=fast"] {
        let run = common::symcross(&["check", zlimit.to_str().unwrap(), "--cflags", flags, "--json", "-"]);
        assert_eq!(run.code, 0, "{flags}: {}\n{}", run.stdout, run.stderr);
        let json = run.json.expect("report");
        assert_eq!(json["build"]["runtime_flags"], serde_json::json!(["-O0", "-ffp-contract=off"]));
    }
}

#[test]
fn the_first_build_of_the_runtime_model_is_announced_once() {
    let cache = tempfile::tempdir().unwrap();
    let zlimit = common::repo().join("harnesses/zlimit.c");
    let env = [("SYMCROSS_CACHE_DIR", cache.path().to_str().unwrap())];
    let first = common::symcross_in(&common::repo(), &env, &["check", zlimit.to_str().unwrap()]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(first.stderr.contains("symcross: compiling the runtime model (host-runtime) for these flags, once"), "{}", first.stderr);
    // The user's flags are not the runtime's: no rebuild for them.
    let second = common::symcross_in(&common::repo(), &env, &["check", zlimit.to_str().unwrap(), "--cflags", "-O1"]);
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert!(!second.stderr.contains("compiling the runtime model"), "{}", second.stderr);
}
