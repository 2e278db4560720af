//! The hand-vectorised routines of harnesses/simd/: each equal harness is
//! proved, each deliberately broken one (`*_broken.c`) is refuted, and the
//! witness of every broken one reproduces the difference on the CPU.
//!
//! A harness states its verdict in `// expect: ...` and the extra clang
//! flags it needs (AVX2, SSE3, SSE4.1) in `// cflags: ...`.

mod common;

use std::path::{Path, PathBuf};

fn harness(name: &str) -> PathBuf {
    common::repo().join("harnesses/simd").join(name)
}

/// The `// cflags:` line of a harness, if any.
fn cflags(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).expect("read harness");
    text.lines().find_map(|l| l.trim().strip_prefix("// cflags:").map(|s| s.trim().to_string()))
}

fn check(name: &str) {
    let path = harness(name);
    let p = path.to_str().expect("utf-8 path");
    let flags = cflags(&path);
    let mut args = vec!["check", p, "--json", "-", "--max-time", "300"];
    if let Some(f) = flags.as_deref() {
        args.extend(["--cflags", f]);
    }
    let run = common::symcross(&args);
    if let Err(e) = common::verify(&path, &run) {
        panic!("{e}");
    }
}

macro_rules! harnesses {
    ($($(#[$attr:meta])* $test:ident => $file:literal,)*) => {
        /// Every harness this file tests.
        const LISTED: &[&str] = &[$($file),*];
        $(
            #[test]
            $(#[$attr])*
            fn $test() {
                check($file);
            }
        )*
    };
}

harnesses! {
    threshold => "threshold.c",
    threshold_broken => "threshold_broken.c",
    clamp_min => "clamp_min.c",
    clamp_min_broken => "clamp_min_broken.c",
    clamp_and_pack => "clamp_and_pack.c",
    clamp_and_pack_broken => "clamp_and_pack_broken.c",
    saturating_add => "saturating_add.c",
    saturating_add_broken => "saturating_add_broken.c",
    horizontal_sum => "horizontal_sum.c",
    horizontal_sum_broken => "horizontal_sum_broken.c",
    horizontal_sum_float => "horizontal_sum_float.c",
    horizontal_sum_float_broken => "horizontal_sum_float_broken.c",
    abs_negate => "abs_negate.c",
    abs_negate_broken => "abs_negate_broken.c",
    blend => "blend.c",
    blend_broken => "blend_broken.c",
    madd16 => "madd16.c",
    madd16_broken => "madd16_broken.c",
    sad_epu8 => "sad_epu8.c",
    sad_epu8_broken => "sad_epu8_broken.c",
    hadd_epi => "hadd_epi.c",
    hadd_epi_broken => "hadd_epi_broken.c",
    maddubs_epi16 => "maddubs_epi16.c",
    maddubs_epi16_broken => "maddubs_epi16_broken.c",
    saturating_packs => "saturating_packs.c",
    saturating_packs_broken => "saturating_packs_broken.c",
    xcorr_maskload => "xcorr_maskload.c",
    xcorr_maskload_broken => "xcorr_maskload_broken.c",
    alpha_blend => "alpha_blend.c",
    alpha_blend_broken => "alpha_blend_broken.c",
}

fn harness_files() -> Vec<String> {
    let dir = common::repo().join("harnesses/simd");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("read harnesses/simd")
        .map(|e| e.expect("dir entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".c"))
        .collect();
    names.sort();
    names
}

#[test]
fn every_harness_is_listed() {
    let mut listed: Vec<String> = LISTED.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(harness_files(), listed, "harnesses/simd/*.c and the list of this file disagree");
}

#[test]
fn every_routine_has_an_equal_and_a_broken_harness() {
    let files = harness_files();
    for f in files.iter().filter(|f| f.ends_with("_broken.c")) {
        let equal = f.replace("_broken.c", ".c");
        assert!(files.contains(&equal), "{f} has no equal counterpart {equal}");
        assert!(common::expectation(&harness(f)).starts_with("findings"), "{f} should expect findings");
    }
    for f in files.iter().filter(|f| !f.ends_with("_broken.c")) {
        let broken = f.replace(".c", "_broken.c");
        assert!(files.contains(&broken), "{f} has no broken variant {broken}");
        assert_eq!(common::expectation(&harness(f)), "equivalent", "{f}");
    }
}

#[test]
fn broken_witnesses_replay_on_the_cpu() {
    for name in harness_files().into_iter().filter(|f| f.ends_with("_broken.c")) {
        let path = harness(&name);
        let p = path.to_str().unwrap();
        let flags = cflags(&path);
        let report = tempfile::NamedTempFile::new().unwrap();
        let rp = report.path().to_str().unwrap();
        let mut args = vec!["check", p, "--json", rp, "--max-time", "300"];
        let mut replay_args = vec!["replay", p, rp];
        if let Some(f) = flags.as_deref() {
            args.extend(["--cflags", f]);
            replay_args.extend(["--cflags", f]);
        }
        let run = common::symcross(&args);
        assert_eq!(run.code, 1, "{name}: {}\n{}", run.stdout, run.stderr);
        let report_json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(rp).unwrap()).unwrap();
        assert!(
            report_json["findings"].as_array().is_some_and(|f| f.iter().any(|x| x["status"] == "confirmed")),
            "{name}: no confirmed finding: {report_json:#}"
        );
        let replay = common::symcross(&replay_args);
        assert_eq!(replay.code, 1, "{name}: the witness did not reproduce on the CPU:\n{}\n{}", replay.stdout, replay.stderr);
        assert!(replay.stdout.contains("differ"), "{name}: {}", replay.stdout);
    }
}

/// Sweeping asks the solver with work budgets counted by Z3 (`rlimit`),
/// not times: the same harness takes the same route, with the same number
/// of queries and the same steps deciding, on a quiet and on a loaded
/// machine.
#[test]
fn integer_sweeping_does_not_depend_on_load() {
    let path = harness("sad_epu8.c");
    let p = path.to_str().unwrap();
    let route = || {
        let run = common::symcross(&["check", p, "--json", "-", "--cflags", "-mavx2"]);
        let json = run.json.unwrap_or_else(|| panic!("no report: {}\n{}", run.stdout, run.stderr));
        (json["verdict"].clone(), json["stats"]["queries"].clone(), json["stats"]["decided"].clone())
    };
    let quiet = route();
    assert_eq!(quiet.0, "equivalent");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get()) * 2;
    let busy: Vec<_> = (0..cores)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    let loaded = route();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for t in busy {
        t.join().unwrap();
    }
    assert_eq!(loaded, quiet, "(verdict, queries, decided) under load and quiet");
}
