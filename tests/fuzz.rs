//! Fuzzing in bounded time (issue 14): a seeded generator of command lines,
//! rule files, small LLVM IR modules and small C harnesses. Whatever the
//! input, symcross must exit with 0 to 3, never panic, abort or crash on a
//! signal, never hang past its limits, and leave no temporary directory.
//!
//! About 3,000 cases by default; `SYMCROSS_FUZZ_SEED` picks another seed
//! and `SYMCROSS_FUZZ_SCALE` multiplies the number of cases (for a longer
//! run by hand). A failure prints the seed and everything needed to rerun
//! the case.

mod common;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn seed() -> u64 {
    std::env::var("SYMCROSS_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(14)
}

fn scaled(n: usize) -> usize {
    let scale: usize = std::env::var("SYMCROSS_FUZZ_SCALE").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    n * scale.max(1)
}

/// A run past this is a hang: every run that gets as far as exploring has
/// `--max-time 5` and a short query timeout; the rest is slack for a
/// loaded machine and the compiler.
const HANG: Duration = Duration::from_secs(180);

struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Sandbox {
        let s = Sandbox { dir: tempfile::tempdir().unwrap() };
        std::fs::create_dir(s.tmp()).unwrap();
        std::fs::create_dir(s.path("adir.c")).unwrap();
        std::fs::write(s.path("empty.c"), "").unwrap();
        std::fs::write(s.path("garbage.c"), "int main( { return }}} @@@\n").unwrap();
        std::fs::write(s.path("garbage.bc"), b"BC\xc0\xde\x35\x14\x00\x00\x05\x00\x00\x00garbage").unwrap();
        std::fs::write(s.path("garbage.ll"), "define i32 @main( {\n").unwrap();
        std::fs::write(s.path("garbage.cl"), "__kernel void k(__global int *p { p[0] = }\n").unwrap();
        std::fs::write(s.path("odd.xyz"), "int main(void) { return 0; }\n").unwrap();
        std::fs::write(s.path("report.json"), "{\"findings\": [{\"witness\": {\"x\": \"zz\"}}]}").unwrap();
        s
    }
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    fn tmp(&self) -> PathBuf {
        self.path("tmp")
    }
    fn leftovers(&self) -> Vec<String> {
        std::fs::read_dir(self.tmp())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("symcross-"))
            .collect()
    }

    /// Runs symcross and checks the contract; returns the exit status.
    fn run(&self, args: &[String], what: &dyn Fn() -> String) -> i32 {
        let out = self.path("out");
        let err = self.path("err");
        let mut child = Command::new(env!("CARGO_BIN_EXE_symcross"))
            .args(args)
            .env("TMPDIR", self.tmp())
            .stdin(Stdio::null())
            .stdout(Stdio::from(std::fs::File::create(&out).unwrap()))
            .stderr(Stdio::from(std::fs::File::create(&err).unwrap()))
            .spawn()
            .expect("start symcross");
        let start = Instant::now();
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if start.elapsed() > HANG {
                let _ = child.kill();
                let _ = child.wait();
                panic!("hang past {HANG:?}: symcross {args:?}\n{}", what());
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let stderr = std::fs::read_to_string(&err).unwrap_or_default();
        let context = || format!("seed {}: symcross {:?}\n{}\nstderr:\n{}", seed(), args, what(), tail(&stderr));
        let Some(code) = status.code() else {
            panic!("killed by a signal ({status}): {}", context());
        };
        assert!((0..=3).contains(&code), "exit {code}: {}", context());
        for bad in ["panicked", "RUST_BACKTRACE", "memory allocation of", "overflowed its stack"] {
            assert!(!stderr.contains(bad), "`{bad}`: {}", context());
        }
        let left = self.leftovers();
        assert!(left.is_empty(), "left {left:?}: {}", context());
        code
    }
}

fn tail(s: &str) -> &str {
    let n = s.len();
    let mut start = n.saturating_sub(3000);
    while !s.is_char_boundary(start) {
        start += 1;
    }
    &s[start..]
}

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "3",
    "64",
    "1e100",
    "1e30",
    "1e9",
    "1e-300",
    "NaN",
    "inf",
    "-inf",
    "0.001",
    "",
    "18446744073709551615",
    "18446744073709551616",
    "4294967296",
    "99999999999999999999999",
    "abc",
    "0x10",
    "1,2,3",
];
const DIMS: &[&str] = &[
    "1",
    "0",
    "4",
    "64",
    "4,4",
    "2,2,2",
    "1,2,3,4",
    "4294967296",
    "18446744073709551615",
    "a,b",
    "",
    "4,0",
    "65536,65536,65536",
    "-4",
    "4,,4",
];
const WORDS: &[&str] = &[
    "",
    "x",
    "main",
    "all",
    "none",
    "positive-zero,finite",
    "ordered,",
    "dfs",
    "bfs",
    "random-path",
    "cvc5",
    "z3",
    "nope",
    "-",
    "=",
    "--",
    "\u{1f600}",
    "a b c",
];

struct Inputs {
    check: Vec<String>,
    kernels: Vec<String>,
    real_check: Vec<String>,
    real_kernels: Vec<String>,
}

fn inputs(sb: &Sandbox) -> Inputs {
    let p = |n: &str| sb.path(n).to_str().unwrap().to_string();
    let repo = common::repo();
    let r = |n: &str| repo.join(n).to_str().unwrap().to_string();
    Inputs {
        check: vec![
            "/nonexistent/h.c".into(),
            p("adir.c"),
            "/dev/null".into(),
            p("empty.c"),
            p("garbage.c"),
            p("garbage.bc"),
            p("garbage.ll"),
            p("odd.xyz"),
            p("report.json"),
        ],
        kernels: vec!["/nonexistent/k.cl".into(), p("garbage.cl"), p("adir.c"), p("empty.c")],
        real_check: vec![
            r("tests/fixtures/check/int_add_self_proved.c"),
            r("tests/fixtures/check/heap_double_free.c"),
            r("harnesses/zlimit_broken.c"),
        ],
        real_kernels: vec![r("tests/fixtures/race/async_copy_ok.cl")],
    }
}

fn pick<'a>(rng: &mut StdRng, xs: &[&'a str]) -> &'a str {
    xs.choose(rng).copied().unwrap_or("")
}

/// One random command line; `real` when it names a real input (and then
/// carries limits that bound its run).
fn command_line(rng: &mut StdRng, inp: &Inputs, sb: &Sandbox) -> Vec<String> {
    let mut a: Vec<String> = Vec::new();
    let real = rng.gen_bool(0.03);
    let sub = pick(rng, &["check", "check", "check", "race", "race", "run", "rules", "replay", "frobnicate", "--help", "--version", ""]);
    a.push(sub.into());
    let s = |x: &str| x.to_string();
    match sub {
        "check" | "run" => {
            let files = if real { &inp.real_check } else { &inp.check };
            for _ in 0..rng.gen_range(0..=2) {
                a.push(files.choose(rng).unwrap().clone());
            }
        }
        "race" => {
            let files = if real { &inp.real_kernels } else { &inp.kernels };
            if rng.gen_bool(0.9) {
                a.push(files.choose(rng).unwrap().clone());
            }
            if rng.gen_bool(0.9) {
                a.extend([s("--local-size"), s(pick(rng, DIMS))]);
            }
            match rng.gen_range(0..3) {
                0 => a.extend([s("--num-groups"), s(pick(rng, DIMS))]),
                1 => a.extend([s("--global-size"), s(pick(rng, DIMS))]),
                _ => {}
            }
            for _ in 0..rng.gen_range(0..=2) {
                let arg = pick(rng, &["out=18446744073709551615", "out=4096", "in=-1", "n=0x", "x=1", "=", "noeq", "n=3.5", "out=0"]);
                a.extend([s("--arg"), s(arg)]);
            }
            if rng.gen_bool(0.3) {
                a.extend([s("--mode"), s(pick(rng, &["enumerate", "pair", "both", ""]))]);
            }
        }
        "rules" => {
            a.push(s(pick(rng, &["list", "verify", "frob", ""])));
            if rng.gen_bool(0.5) {
                a.extend([s("--rules"), sb.path(pick(rng, &["adir.c", "nothing", "empty.c"])).to_str().unwrap().to_string()]);
            }
            if rng.gen_bool(0.5) {
                a.extend([s("--timeout"), s(pick(rng, NUMBERS))]);
            }
            // verify of every rule takes minutes: keep it to a filter
            // that matches few or none.
            a.extend([s("--filter"), s(pick(rng, &["fadd-commute[f16]", "no-such-rule"]))]);
        }
        "replay" => {
            a.push(inp.check.choose(rng).unwrap().clone());
            a.push(sb.path(pick(rng, &["report.json", "empty.c", "nothing.json"])).to_str().unwrap().to_string());
        }
        _ => {}
    }
    let flags: &[(&str, Option<&[&str]>)] = &[
        ("--max-time", Some(NUMBERS)),
        ("--max-paths", Some(NUMBERS)),
        ("--max-memory", Some(NUMBERS)),
        ("--query-timeout", Some(NUMBERS)),
        ("--assume", Some(WORDS)),
        ("--searcher", Some(WORDS)),
        ("--seed", Some(NUMBERS)),
        ("--fp-solver", Some(WORDS)),
        ("--fold-threshold", Some(NUMBERS)),
        ("--entry", Some(WORDS)),
        ("--json", Some(&["-", "/nonexistent/dir/r.json", ""])),
        ("--log", Some(&["error", "trace", "bogus", ""])),
        ("-D", Some(WORDS)),
        ("-I", Some(&["/nonexistent", "/dev/null", ""])),
        ("--cflags", Some(&["-O2", "-mavx2 -mfma", "-std=c11", "--bogus-flag", "", "-DX=\"unterminated"])),
        ("--no-merge", None),
        ("--no-egraph", None),
        ("--progress", None),
        ("--allow-benign-races", None),
        ("--kernel", Some(WORDS)),
        ("--bogus", None),
    ];
    for _ in 0..rng.gen_range(0..=4) {
        let (flag, values) = flags.choose(rng).unwrap();
        a.push(flag.to_string());
        if let Some(v) = values {
            a.push(pick(rng, v).to_string());
        }
    }
    if real {
        // Bound what a real run may take; a random flag above may make
        // these duplicates, which is a usage error (also fine).
        a.extend([s("--max-time"), s("5"), s("--query-timeout"), s("2")]);
    }
    a
}

#[test]
fn fuzz_command_lines() {
    let sb = Sandbox::new();
    let inp = inputs(&sb);
    let mut rng = StdRng::seed_from_u64(seed());
    let mut codes = [0usize; 4];
    for _ in 0..scaled(800) {
        let args = command_line(&mut rng, &inp, &sb);
        let code = sb.run(&args, &String::new);
        codes[code as usize] += 1;
    }
    // The generator reaches past argument parsing sometimes.
    assert!(codes[2] > 0 && codes[0] + codes[1] + codes[3] > 0, "exit statuses {codes:?}");
}

/// Rule-file text: a real rule file mutated at random.
fn mutate_text(rng: &mut StdRng, text: &str) -> String {
    let mut s: Vec<char> = text.chars().collect();
    for _ in 0..rng.gen_range(1..=6) {
        if s.is_empty() {
            break;
        }
        let at = rng.gen_range(0..s.len());
        match rng.gen_range(0..7) {
            0 => {
                s.remove(at);
            }
            1 => s.insert(at, *['(', ')', ' ', '?', ':', '\n', ';', '[', ']', '=', '>', ','].choose(rng).unwrap()),
            2 => s.truncate(at),
            3 => {
                let end = (at + rng.gen_range(1..40)).min(s.len());
                let piece: Vec<char> = s[at..end].to_vec();
                let to = rng.gen_range(0..=s.len());
                s.splice(to..to, piece);
            }
            4 => {
                let depth = rng.gen_range(1..3000);
                let nest: String = "(fsqrt.F ".repeat(depth) + "?x" + &")".repeat(depth);
                s.splice(at..at, nest.chars());
            }
            5 => s.insert(at, char::from_u32(rng.gen_range(0..0x3000)).unwrap_or('x')),
            _ => {
                let word = pick(
                    rng,
                    &["fadd.F", "0x1:999", "-0.0:F", "?", "??x", "[assume: all]", "if never-nan(?x)", "<=>", "=>", "W", "F.G", "1e400:F"],
                );
                s.splice(at..at, word.chars());
            }
        }
    }
    s.into_iter().collect()
}

#[test]
fn fuzz_rules_files() {
    use symcross::canon::RuleSet;
    let dir = common::repo().join("rewrite-rules");
    let mut sources: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "rules"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    sources.sort();
    let mut rng = StdRng::seed_from_u64(seed() ^ 0x5eed);
    // In process: the parser must return, not panic.
    for case in 0..scaled(2000) {
        let base = sources.choose(&mut rng).unwrap();
        // A window of the file keeps cases small and fast.
        let lines: Vec<&str> = base.lines().collect();
        let from = rng.gen_range(0..lines.len());
        let to = (from + rng.gen_range(1..12)).min(lines.len());
        let text = mutate_text(&mut rng, &lines[from..to].join("\n"));
        let r = std::panic::catch_unwind(|| RuleSet::parse(&text, Path::new("fuzz.rules")).map(|_| ()).map_err(|e| e.to_string()));
        assert!(r.is_ok(), "seed {} case {case}: the rule parser panicked on:\n{text}", seed());
    }
    // Through the command line: `rules list --rules DIR`.
    let sb = Sandbox::new();
    let rules_dir = sb.path("rules");
    std::fs::create_dir(&rules_dir).unwrap();
    for _ in 0..scaled(20) {
        let base = sources.choose(&mut rng).unwrap();
        let text = mutate_text(&mut rng, base);
        std::fs::write(rules_dir.join("f.rules"), &text).unwrap();
        let args = vec!["rules".to_string(), "list".into(), "--rules".into(), rules_dir.to_str().unwrap().into()];
        sb.run(&args, &|| format!("f.rules:\n{}", tail(&text)));
    }
}

/// A small valid module: a symbolic input, arithmetic, a branch, a check.
const IR_TEMPLATE: &str = r#"target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @symcross_make_symbolic(ptr, i64, ptr)
declare void @symcross_check_equal(ptr, ptr, i64, i64, ptr)
@name = private constant [2 x i8] c"x\00"

define i32 @main() {
entry:
  %x = alloca i32, align 4
  %y = alloca i32, align 4
  call void @symcross_make_symbolic(ptr %x, i64 4, ptr @name)
  %v = load i32, ptr %x, align 4
  %a = add i32 %v, 7
  %b = mul i32 %a, 3
  %c = icmp ult i32 %b, 100
  br i1 %c, label %small, label %big
small:
  %d = shl i32 %b, 1
  br label %join
big:
  %e = udiv i32 %b, 3
  br label %join
join:
  %r = phi i32 [ %d, %small ], [ %e, %big ]
  %f = sitofp i32 %r to float
  %g = fadd float %f, 1.0
  %h = fptosi float %g to i32
  store i32 %h, ptr %y, align 4
  call void @symcross_check_equal(ptr %x, ptr %y, i64 4, i64 1, ptr @name)
  ret i32 0
}
"#;

fn mutate_ir(rng: &mut StdRng) -> String {
    let mut lines: Vec<String> = IR_TEMPLATE.lines().map(str::to_string).collect();
    let tokens = [
        "i32",
        "i64",
        "i8",
        "i1",
        "i128",
        "float",
        "double",
        "half",
        "<4 x i32>",
        "ptr",
        "add",
        "sub",
        "mul",
        "sdiv",
        "udiv",
        "urem",
        "shl",
        "lshr",
        "ashr",
        "fadd",
        "fdiv",
        "frem",
        "0",
        "-1",
        "4294967296",
        "340282366920938463463374607431768211455",
        "1.0e300",
        "undef",
        "poison",
        "null",
        "%v",
        "%a",
        "%x",
        "%y",
        "@name",
        "@main",
        "E-m:e",
        "e-p:32:32",
        "i686-pc-linux-gnu",
        "x86_fp80",
        "align 4096",
        "addrspace(3)",
    ];
    for _ in 0..rng.gen_range(1..=4) {
        let i = rng.gen_range(0..lines.len());
        match rng.gen_range(0..5) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 | 3 => {
                let words: Vec<&str> = lines[i].split(' ').collect();
                if !words.is_empty() {
                    let w = rng.gen_range(0..words.len());
                    let mut new: Vec<String> = words.iter().map(|s| s.to_string()).collect();
                    new[w] = tokens.choose(rng).unwrap().to_string();
                    lines[i] = new.join(" ");
                }
            }
            _ => {
                let l = &lines[i];
                let cut = rng.gen_range(0..=l.len());
                let cut = (0..=cut).rev().find(|c| l.is_char_boundary(*c)).unwrap_or(0);
                lines[i] = l[..cut].to_string();
            }
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn fuzz_ir_inputs() {
    let sb = Sandbox::new();
    let mut rng = StdRng::seed_from_u64(seed() ^ 0x11);
    let file = sb.path("m.ll");
    let mut accepted = 0;
    for _ in 0..scaled(150) {
        let text = mutate_ir(&mut rng);
        std::fs::write(&file, &text).unwrap();
        let args: Vec<String> =
            ["check", file.to_str().unwrap(), "--max-time", "5", "--query-timeout", "2"].iter().map(|s| s.to_string()).collect();
        if sb.run(&args, &|| format!("m.ll:\n{text}")) != 2 {
            accepted += 1;
        }
    }
    assert!(accepted > 0, "no mutated module got past the front end");
}

/// A random expression over the symbolic `x` (unsigned) and `f` (float).
fn c_expr(rng: &mut StdRng, depth: u32) -> String {
    if depth == 0 || rng.gen_bool(0.25) {
        return pick(rng, &["x", "y", "1u", "0u", "3u", "0xffffffffu", "(unsigned)f", "(unsigned)(f * 2.0f)"]).to_string();
    }
    let a = c_expr(rng, depth - 1);
    let b = c_expr(rng, depth - 1);
    match rng.gen_range(0..4) {
        0 => format!("({a} {} {b})", pick(rng, &["+", "-", "*", "&", "|", "^"])),
        1 => format!("({a} {} ({b} | 1u))", pick(rng, &["/", "%"])),
        2 => format!("({a} {} ({b} & 31u))", pick(rng, &["<<", ">>"])),
        _ => format!("({a} {} {b} ? {a} : {b})", pick(rng, &["<", "==", ">="])),
    }
}

#[test]
fn fuzz_c_inputs() {
    let sb = Sandbox::new();
    let mut rng = StdRng::seed_from_u64(seed() ^ 0xc);
    let file = sb.path("h.c");
    for _ in 0..scaled(12) {
        let (e1, e2) = (c_expr(&mut rng, 3), c_expr(&mut rng, 3));
        let text = format!(
            "#include \"symcross.h\"\nint main(void) {{\n  unsigned x, y; float f;\n  symcross_make_symbolic(&x, sizeof x, \"x\");\n  \
             symcross_make_symbolic(&y, sizeof y, \"y\");\n  symcross_make_symbolic(&f, sizeof f, \"f\");\n  \
             unsigned a = {e1};\n  unsigned b = {e2};\n  symcross_check_equal(&a, &b, 4, 1, \"a\");\n  return 0;\n}}\n"
        );
        std::fs::write(&file, &text).unwrap();
        let args: Vec<String> =
            ["check", file.to_str().unwrap(), "--max-time", "5", "--query-timeout", "2"].iter().map(|s| s.to_string()).collect();
        sb.run(&args, &|| format!("h.c:\n{text}"));
    }
}
