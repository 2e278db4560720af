//! `--dump-queries DIR`: each query that reached a solver is a file of
//! SMT-LIB 2 that another solver answers the same way.

mod common;

use std::process::Command;

/// A check that holds (an unsatisfiable query) and a branch that can be
/// taken (a satisfiable one: the multiplier is odd, so invertible).
const HARNESS: &str = r#"
#include <stdint.h>
#include "symcross.h"
int main(void) {
  uint32_t x;
  symcross_make_symbolic(&x, sizeof x, "x");
  uint32_t times3 = x * 3, shifted = (x << 1) + x, wrong = (x < 0xfffff000u) ? shifted : shifted + 1;
  symcross_check_equal(&times3, &shifted, sizeof x, 1, "x*3");
  symcross_check_equal(&times3, &wrong, sizeof x, 1, "x*3 wrong");
  if (x * 0x9e3779b1u == 0x12345678u)
    return 1;
  return 0;
}
"#;

#[test]
fn every_dumped_query_is_answered_alike_by_the_z3_program() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("dumped.c");
    std::fs::write(&src, HARNESS).unwrap();
    let dump = dir.path().join("queries");
    // --no-merge: the branch stays a branch, whose taken side is a query.
    let run = common::symcross(&["check", src.to_str().unwrap(), "--no-merge", "--dump-queries", dump.to_str().unwrap(), "--json", "-"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let mut files: Vec<_> = std::fs::read_dir(&dump).unwrap().flatten().map(|e| e.path()).collect();
    files.sort();
    assert!(!files.is_empty(), "no query dumped");
    assert_eq!(files[0].file_name().unwrap(), "query-00001.smt2");
    let mut verdicts = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        assert!(text.starts_with("; backend: z3 (in process, bit-vectors)\n; verdict: "), "{text}");
        assert!(text.contains("\n; time: ") && text.contains("(check-sat)"), "{text}");
        let verdict = text.lines().nth(1).unwrap().trim_start_matches("; verdict: ").to_string();
        let out = Command::new("z3").arg("-T:60").arg(f).output().expect("run z3");
        let answer = String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or("").to_string();
        if verdict == "sat" || verdict == "unsat" {
            assert_eq!(answer, verdict, "{}", f.display());
        }
        verdicts.push(verdict);
    }
    assert!(verdicts.iter().any(|v| v == "sat") && verdicts.iter().any(|v| v == "unsat"), "{verdicts:?}");
}

#[test]
fn an_unusable_dump_directory_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let src = common::repo().join("harnesses/zlimit.c");
    let run = common::symcross(&["check", src.to_str().unwrap(), "--dump-queries", file.join("sub").to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("--dump-queries") && run.stderr.contains("cannot create the directory"), "{}", run.stderr);
}
