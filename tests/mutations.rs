//! Mutation tests against native runs: correct harnesses of harnesses/simd/
//! (and the guarded VPSLLVD reference of tests/fixtures/undefined/) are
//! mutated the way real mistakes look (an intrinsic swapped for a near
//! relative, a bound moved by one, a narrower type), and each mutant is
//! run natively on this CPU with clang-19 on edge and random inputs
//! (tests/fixtures/mutations/native_inputs.c). Every mutant differs
//! natively (else the mutation proves nothing), and symcross must never
//! call it "equivalent". The unmutated harnesses never differ natively, so
//! the native comparison is no noisier than symcross's.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// One mutation: the harness, the text replaced (which must occur in it)
/// and its replacement; every occurrence is replaced (comments may name
/// the intrinsic first).
struct Mutation {
    harness: &'static str,
    from: &'static str,
    to: &'static str,
}

const MUTATIONS: &[Mutation] = &[
    // Near relatives of the intrinsic.
    Mutation { harness: "harnesses/simd/threshold.c", from: "_mm_cmpgt_ps", to: "_mm_cmpge_ps" },
    Mutation { harness: "harnesses/simd/blend.c", from: "_mm_cmplt_ps", to: "_mm_cmple_ps" },
    Mutation { harness: "harnesses/simd/saturating_add.c", from: "_mm_adds_epu8", to: "_mm_adds_epi8" },
    Mutation { harness: "harnesses/simd/hadd_epi.c", from: "_mm_hadd_epi16", to: "_mm_hadds_epi16" },
    Mutation { harness: "harnesses/simd/saturating_packs.c", from: "_mm256_packus_epi32", to: "_mm256_packs_epi32" },
    Mutation { harness: "harnesses/simd/abs_negate.c", from: "_mm256_andnot_ps(sign, v)", to: "_mm256_and_ps(sign, v)" },
    // A bound moved by one.
    Mutation { harness: "harnesses/simd/saturating_add.c", from: "s > 255 ? 255", to: "s > 256 ? 255" },
    Mutation { harness: "harnesses/simd/clamp_min.c", from: "a[i] < b[i] ?", to: "a[i] <= b[i] ?" },
    Mutation { harness: "tests/fixtures/undefined/shift_sllv_bound_fixed.c", from: "> 31", to: "> 32" },
    // A width changed.
    Mutation { harness: "harnesses/simd/saturating_packs.c", from: "clamp_u16(int32_t x)", to: "clamp_u16(int16_t x)" },
    Mutation { harness: "harnesses/simd/hadd_epi.c", from: "(uint32_t)a[h + 2 * i]", to: "(uint16_t)a[h + 2 * i]" },
];

/// The `// cflags:` line of a harness, if any.
fn cflags(text: &str) -> Vec<String> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("// cflags:").map(|s| s.split_whitespace().map(String::from).collect()))
        .unwrap_or_default()
}

fn clang(args: &[&str]) {
    let out = Command::new("clang-19").args(args).output().expect("run clang-19");
    assert!(out.status.success(), "clang-19 {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Builds `source` with the native-inputs runtime and runs it: the number
/// of trials whose check differed is in its output, and its status is 1
/// when some did.
fn native_differs(dir: &Path, source: &Path, flags: &[String]) -> (bool, String) {
    let repo = common::repo();
    let include = format!("-I{}", repo.join("cl-runtime-model").display());
    let harness_o = dir.join("harness.o");
    let runtime_o = dir.join("runtime.o");
    let exe = dir.join("run");
    let mut args: Vec<&str> = vec!["-c", "-O0", "-g0", "-ffp-contract=off", "-Dmain=harness_main", &include];
    args.extend(flags.iter().map(String::as_str));
    args.extend(["-o", harness_o.to_str().unwrap(), source.to_str().unwrap()]);
    clang(&args);
    let runtime = repo.join("tests/fixtures/mutations/native_inputs.c");
    clang(&["-c", "-O0", "-o", runtime_o.to_str().unwrap(), runtime.to_str().unwrap()]);
    clang(&["-o", exe.to_str().unwrap(), harness_o.to_str().unwrap(), runtime_o.to_str().unwrap(), "-lm"]);
    let out = Command::new(&exe).output().expect("run the native build");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("differences "), "the native run ended early: {text}\n{}", String::from_utf8_lossy(&out.stderr));
    (out.status.code() == Some(1), text)
}

/// symcross's verdict on `source`.
fn verdict(source: &Path, flags: &[String]) -> (String, common::Run) {
    let joined = flags.join(" ");
    let mut args = vec!["check", source.to_str().unwrap(), "--json", "-"];
    if !joined.is_empty() {
        args.extend(["--cflags", &joined]);
    }
    let run = common::symcross(&args);
    let v = run.json.as_ref().and_then(|j| j["verdict"].as_str()).unwrap_or("no report").to_string();
    (v, run)
}

fn mutant(m: &Mutation, dir: &Path) -> (PathBuf, Vec<String>) {
    let text = std::fs::read_to_string(common::repo().join(m.harness)).expect("read harness");
    assert!(text.contains(m.from), "{}: the mutation point `{}` is gone; update the table", m.harness, m.from);
    let mutated = text.replace(m.from, m.to);
    let name = Path::new(m.harness).file_name().unwrap();
    let path = dir.join(name);
    std::fs::write(&path, mutated).expect("write mutant");
    (path, cflags(&text))
}

#[test]
fn no_mutant_that_the_cpu_tells_apart_is_equivalent() {
    let mut failures = Vec::new();
    for m in MUTATIONS {
        let dir = tempfile::tempdir().expect("temporary directory");
        let (path, flags) = mutant(m, dir.path());
        let (differs, native) = native_differs(dir.path(), &path, &flags);
        assert!(
            differs,
            "{} with `{}` -> `{}`: the native run finds no difference, so the mutant proves nothing:\n{native}",
            m.harness, m.from, m.to
        );
        let (v, run) = verdict(&path, &flags);
        if v == "equivalent" {
            failures.push(format!(
                "{} with `{}` -> `{}`: symcross says equivalent, the CPU differs:\n{native}\n{}",
                m.harness, m.from, m.to, run.stdout
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_unmutated_harnesses_never_differ_natively() {
    let mut seen = std::collections::BTreeSet::new();
    for m in MUTATIONS.iter().filter(|m| seen.insert(m.harness)) {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = common::repo().join(m.harness);
        let flags = cflags(&std::fs::read_to_string(&path).expect("read harness"));
        let (differs, native) = native_differs(dir.path(), &path, &flags);
        assert!(!differs, "{}: the correct harness differs natively:\n{native}", m.harness);
    }
}
