//! `symcross suite`, `--shard` and `symcross merge`: the bundled manifest
//! (symcross.toml) meets every expectation and a second run takes every
//! report from the cache; a small manifest with an unmet expectation, a race
//! kernel and an entry that cannot run shows that one bad entry does not
//! stop the others; shards merge into the unsharded result; a bad manifest
//! is refused with its file and line. Each test has its own cache directory.

mod common;

use serde_json::Value;
use std::path::Path;
use std::process::Command;

struct Suite {
    code: i32,
    report: Value,
    stdout: String,
    stderr: String,
}

fn suite(dir: &Path, cache: &Path, args: &[&str], env: &[(&str, &str)]) -> Suite {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_symcross"));
    cmd.current_dir(dir).env("SYMCROSS_CACHE_DIR", cache).args(args);
    for v in ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX", "SYMCROSS_SHARDS", "CI_NODE_INDEX", "CI_NODE_TOTAL"]
    {
        cmd.env_remove(v);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let report =
        if args.windows(2).any(|w| w == ["--json", "-"]) { serde_json::from_str(&stdout).unwrap_or(Value::Null) } else { Value::Null };
    Suite { code: out.status.code().unwrap_or(-1), report, stdout, stderr: String::from_utf8_lossy(&out.stderr).into_owned() }
}

/// (name, outcome, cached) of each entry.
fn outcomes(r: &Value) -> Vec<(String, String, bool)> {
    r["entries"]
        .as_array()
        .unwrap_or(&Vec::new())
        .iter()
        .map(|e| (e["name"].as_str().unwrap().to_string(), e["outcome"].as_str().unwrap().to_string(), e["cached"].as_bool().unwrap()))
        .collect()
}

/// Reads a report with a consumer of tests/ci/consumers.py (None: not installed, which fails under CI).
fn consume(kind: &str, file: &Path) -> Option<Value> {
    let out = Command::new("python3").arg(common::repo().join("tests/ci/consumers.py")).arg(kind).arg(file).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if out.status.code() == Some(77) {
        common::skip_or_fail_under_ci(&format!("the {kind} consumer"), stdout.trim());
        return None;
    }
    assert!(out.status.success(), "{kind} consumer rejected {}: {stdout}{}", file.display(), String::from_utf8_lossy(&out.stderr));
    Some(serde_json::from_str(&stdout).unwrap())
}

#[test]
fn the_bundled_manifest_meets_every_expectation_then_comes_from_the_cache() {
    let cache = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let (sarif, junit) = (out.path().join("s.sarif"), out.path().join("s.xml"));
    let repo = common::repo();
    let first = suite(
        &repo,
        cache.path(),
        &["suite", "-j", "2", "--json", "-", "--sarif", sarif.to_str().unwrap(), "--junit", junit.to_str().unwrap()],
        &[],
    );
    assert_eq!(first.code, 0, "{:#}\n{}", first.report, first.stderr);
    let entries = outcomes(&first.report);
    assert!(entries.len() >= 30, "{entries:?}");
    assert!(entries.iter().all(|(_, o, c)| o == "met" && !c), "{entries:?}");
    // Plain progress lines: stderr is not a terminal here.
    assert!(first.stderr.contains(&format!("[{n}/{n}] ok", n = entries.len())), "{}", first.stderr);
    if let Some(seen) = consume("junit", &junit) {
        assert_eq!(seen["tests"].as_u64(), Some(entries.len() as u64));
        assert_eq!((seen["failures"].as_u64(), seen["errors"].as_u64()), (Some(0), Some(0)));
    }
    if let Some(seen) = consume("sarif", &sarif) {
        // One result per finding of the `mismatch` entries.
        let mismatches = entries.iter().filter(|(n, _, _)| n.contains("broken") || n.contains("DROP")).count();
        assert!(seen["records"].as_array().unwrap().len() >= mismatches, "{seen}");
    }
    let second = suite(&repo, cache.path(), &["suite", "-j", "2", "--json", "-"], &[]);
    assert_eq!(second.code, 0, "{}", second.stderr);
    let again = outcomes(&second.report);
    assert_eq!(again.len(), entries.len());
    assert!(again.iter().all(|(_, o, c)| o == "met" && *c), "every entry should come from the cache: {again:?}");
    // The cached reports are the reports.
    for (a, b) in first.report["entries"].as_array().unwrap().iter().zip(second.report["entries"].as_array().unwrap()) {
        assert_eq!(a["report"]["verdict"], b["report"]["verdict"]);
        assert_eq!(a["report"]["findings"], b["report"]["findings"]);
    }
}

/// A scratch project: two harnesses, a race kernel and a manifest.
fn project(manifest: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let repo = common::repo();
    for (from, to) in [
        ("harnesses/zlimit.c", "zlimit.c"),
        ("harnesses/zlimit_broken.c", "zlimit_broken.c"),
        ("tests/fixtures/race/inter_group_race.cl", "shift.cl"),
    ] {
        std::fs::copy(repo.join(from), dir.path().join(to)).unwrap();
    }
    std::fs::write(dir.path().join("symcross.toml"), manifest).unwrap();
    dir
}

const SMALL: &str = r#"
[defaults]
expect = "equivalent"
max-time = 120

[[check]]
files = ["zlimit.c"]

[[check]]
files = ["zlimit_broken.c"]
expect = "mismatch"

[[check]]
name = "wrongly expected equivalent"
files = ["zlimit_broken.c"]

[[check]]
name = "cannot compile"
files = ["zlimit.c"]
cflags = "-fno-such-flag-at-all"

[[race]]
files = ["shift.cl"]
local-size = "8"
num-groups = "4"
expect = "race"
"#;

#[test]
fn one_bad_entry_does_not_stop_the_others() {
    let dir = project(SMALL);
    let cache = tempfile::tempdir().unwrap();
    let junit = dir.path().join("r.xml");
    let r = suite(dir.path(), cache.path(), &["suite", "-j", "2", "--json", "-", "--junit", "r.xml", "--sarif", "r.sarif"], &[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let got = outcomes(&r.report);
    let names: Vec<(&str, &str)> = got.iter().map(|(n, o, _)| (n.as_str(), o.as_str())).collect();
    assert_eq!(
        names,
        [
            ("zlimit.c", "met"),
            ("zlimit_broken.c", "met"),
            ("wrongly expected equivalent", "unmet"),
            ("cannot compile", "error"),
            ("shift.cl", "met")
        ]
    );
    let err = r.report["entries"][3]["error"].as_str().unwrap();
    assert!(err.contains("no-such-flag"), "{err}");
    assert_eq!(r.report["summary"]["unmet"], 1);
    assert_eq!(r.report["summary"]["errors"], 1);
    if let Some(seen) = consume("junit", &junit) {
        assert_eq!((seen["tests"].as_u64(), seen["failures"].as_u64(), seen["errors"].as_u64()), (Some(5), Some(1), Some(1)));
        assert_eq!(seen["cases"][4]["classname"], "symcross.race");
    }
    // Suite SARIF levels come from the expectations, each result naming its entry.
    let log: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.sarif")).unwrap()).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap();
    let of = |entry: &str| results.iter().filter(|r| r["properties"]["entry"] == entry).collect::<Vec<_>>();
    assert!(results.iter().all(|r| r["properties"]["entry"].is_string()), "every result names its entry: {log:#}");
    let expected = of("zlimit_broken.c");
    assert!(!expected.is_empty() && expected.iter().all(|r| r["level"] == "note" && r["ruleId"] == "mismatch"), "{expected:#?}");
    assert!(expected[0]["message"]["text"].as_str().unwrap().contains("expected by suite entry `zlimit_broken.c`"), "{expected:#?}");
    let wrong = of("wrongly expected equivalent");
    assert!(wrong.iter().any(|r| r["ruleId"] == "mismatch" && r["level"] == "error"), "{wrong:#?}");
    assert!(wrong.iter().any(|r| r["ruleId"] == "unmet-expectation" && r["level"] == "error"), "{wrong:#?}");
    let broken = of("cannot compile");
    assert_eq!(broken.len(), 1, "{broken:#?}");
    assert_eq!((broken[0]["ruleId"].as_str(), broken[0]["level"].as_str()), (Some("unmet-expectation"), Some("error")));
    assert!(of("shift.cl").iter().all(|r| r["level"] == "note"), "{:#?}", of("shift.cl"));
    consume("sarif", &dir.path().join("r.sarif"));
    // The summary table is printed when --json does not take stdout, and
    // below it each failing entry's first finding, compiler style, with
    // its source line and witness.
    let table = suite(dir.path(), cache.path(), &["suite", "-q"], &[]);
    assert!(table.stdout.contains("FAIL   wrongly expected equivalent"), "{}", table.stdout);
    assert!(table.stdout.contains("failed: 3 of 5 entries met their expectation"), "{}", table.stdout);
    let failure = table.stdout.split("wrongly expected equivalent: expected equivalent, got findings mismatch\n").nth(1).unwrap_or("");
    assert!(failure.starts_with("zlimit_broken.c:38:3: error: mismatch (confirmed): dst:"), "{}", table.stdout);
    assert!(failure.contains(" 38 |   symcross_check_equal(dstv, dsts, sizeof(float), N, \"dst\");"), "{}", table.stdout);
    assert!(failure.contains("witness src: float[64]"), "{}", table.stdout);
    // An entry that gave no report shows its error once, not its first
    // line twice (in the summary and again above the rest).
    let compile_error = table.stdout.split("cannot compile: expected").nth(1).unwrap_or("");
    assert_eq!(compile_error.matches("exit status 2: ").count(), 1, "{}", table.stdout);
    assert!(compile_error.contains("no-such-flag"), "{}", table.stdout);
    assert!(table.stderr.is_empty(), "-q prints no progress: {}", table.stderr);
    // From another directory the paths lead to the files.
    let parent = dir.path().parent().unwrap();
    let sub = dir.path().file_name().unwrap().to_str().unwrap();
    let manifest = format!("{sub}/symcross.toml");
    let outside = suite(parent, cache.path(), &["suite", "-q", &manifest], &[]);
    assert!(outside.stdout.contains(&format!("{sub}/zlimit_broken.c:38:3: error: mismatch")), "{}", outside.stdout);
    assert!(outside.stdout.contains(" 38 |   symcross_check_equal"), "{}", outside.stdout);
}

#[test]
fn an_edited_input_is_run_again() {
    let dir = project(
        "[[check]]\nfiles = [\"zlimit.c\"]\nexpect = \"equivalent\"\n[[check]]\nfiles = [\"zlimit_broken.c\"]\nexpect = \"mismatch\"\n",
    );
    let cache = tempfile::tempdir().unwrap();
    let args = ["suite", "--json", "-"];
    suite(dir.path(), cache.path(), &args, &[]);
    let text = std::fs::read_to_string(dir.path().join("zlimit.c")).unwrap();
    std::fs::write(dir.path().join("zlimit.c"), format!("{text}\n/* edited */\n")).unwrap();
    let r = suite(dir.path(), cache.path(), &args, &[]);
    assert_eq!(
        outcomes(&r.report),
        [("zlimit.c".to_string(), "met".to_string(), false), ("zlimit_broken.c".to_string(), "met".to_string(), true)]
    );
    let r = suite(dir.path(), cache.path(), &["suite", "--json", "-", "--no-cache"], &[]);
    assert!(outcomes(&r.report).iter().all(|(_, _, c)| !c));
}

#[test]
fn shards_merge_into_the_unsharded_result() {
    let dir = project(SMALL);
    let cache = tempfile::tempdir().unwrap();
    let whole = suite(dir.path(), cache.path(), &["suite", "--json", "-"], &[]);
    let a = suite(dir.path(), cache.path(), &["suite", "--shard", "1/2", "--json", "a.json"], &[]);
    // The second shard from GitLab's variables.
    let b = suite(dir.path(), cache.path(), &["suite", "--json", "b.json"], &[("CI_NODE_INDEX", "2"), ("CI_NODE_TOTAL", "2")]);
    assert!(b.stderr.contains("shard 2/2 (from CI_NODE_INDEX/CI_NODE_TOTAL)"), "{}", b.stderr);
    assert_eq!((a.code, b.code), (1, 1));
    let merged =
        suite(dir.path(), cache.path(), &["merge", "a.json", "b.json", "--json", "-", "--junit", "m.xml", "--sarif", "m.sarif"], &[]);
    assert_eq!(merged.code, 1, "{}", merged.stderr);
    let strip = |v: &Value| -> Vec<(String, String)> { outcomes(v).into_iter().map(|(n, o, _)| (n, o)).collect() };
    assert_eq!(strip(&merged.report), strip(&whole.report));
    for k in ["total", "met", "unmet", "errors"] {
        assert_eq!(merged.report["summary"][k], whole.report["summary"][k], "{k}");
    }
    consume("junit", &dir.path().join("m.xml"));
    consume("sarif", &dir.path().join("m.sarif"));
    // The same shard twice overlaps.
    let twice = suite(dir.path(), cache.path(), &["merge", "a.json", "a.json"], &[]);
    assert_eq!(twice.code, 2);
    assert!(twice.stderr.contains("shards overlap"), "{}", twice.stderr);
    // A lost shard does not pass: the merge is refused, as `check` merge refuses one.
    let lost = suite(dir.path(), cache.path(), &["merge", "a.json", "--json", "-"], &[]);
    assert_eq!(lost.code, 2, "{}", lost.stdout);
    assert!(lost.stderr.contains("shard(s) 2/2 missing"), "{}", lost.stderr);
    // A shard of another manifest is foreign, even under the same file name.
    let other = project(&SMALL.replace("max-time = 120", "max-time = 119"));
    let c = suite(other.path(), cache.path(), &["suite", "--shard", "2/2", "--json", "c.json"], &[]);
    assert_eq!(c.code, 1, "{}", c.stderr);
    let c_json = other.path().join("c.json");
    let foreign = suite(dir.path(), cache.path(), &["merge", "a.json", c_json.to_str().unwrap()], &[]);
    assert_eq!(foreign.code, 2, "{}", foreign.stdout);
    assert!(foreign.stderr.contains("a report of another suite"), "{}", foreign.stderr);
    // A whole (unsharded) run is no shard.
    std::fs::write(dir.path().join("whole.json"), whole.report.to_string()).unwrap();
    let unsharded = suite(dir.path(), cache.path(), &["merge", "whole.json"], &[]);
    assert_eq!(unsharded.code, 2);
    assert!(unsharded.stderr.contains("not a `suite --shard` report"), "{}", unsharded.stderr);
}

#[test]
fn a_bad_manifest_is_refused_with_its_line() {
    let dir = project("[defaults]\nexpect = \"equivalent\"\n\n[[check]]\nfiles = [\"zlimit.c\"]\nexpect = \"proved\"\n");
    let cache = tempfile::tempdir().unwrap();
    let r = suite(dir.path(), cache.path(), &["suite"], &[]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("symcross.toml:6: `expect = \"proved\"` is not an outcome"), "{}", r.stderr);
    std::fs::write(dir.path().join("bad.toml"), "[[check]]\nfiles = [\"zlimit.c\"\nexpect = 1\n").unwrap();
    let r = suite(dir.path(), cache.path(), &["suite", "bad.toml"], &[]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("bad.toml:"), "{}", r.stderr);
    std::fs::write(dir.path().join("race.toml"), "[[race]]\nfiles = [\"shift.cl\"]\nexpect = \"race\"\n").unwrap();
    let r = suite(dir.path(), cache.path(), &["suite", "race.toml"], &[]);
    assert!(r.stderr.contains("race.toml:1: a [[race]] entry needs `local-size`"), "{}", r.stderr);
}
