//! If-conversion (static path merging): small C functions go through the
//! front end and `passes::if_convert`, and the tests assert on the IR
//! that comes out; the end-to-end tests run `symcross check` on harnesses
//! with one branch per element.

mod common;

use symcross::frontend::{compile_inputs, CompileOptions};
use symcross::ir::*;
use symcross::passes::{if_convert, verify_function, Cfg, IfConvertStats};

fn build_c(src: &str) -> Module {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("harness.c");
    std::fs::write(&path, src).unwrap();
    let compiled = compile_inputs(&[path], &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    load_module(compiled.path()).unwrap_or_else(|e| panic!("{e}"))
}

/// Compiles `src`, if-converts it and checks every function is still well
/// formed (the linked runtime model included).
fn convert(src: &str, threshold: u32) -> (Module, IfConvertStats) {
    let mut m = build_c(src);
    for f in m.functions.iter().filter(|f| !f.is_declaration()) {
        verify_function(f).unwrap_or_else(|e| panic!("before the pass: {e}"));
    }
    let stats = if_convert(&mut m, threshold);
    for f in m.functions.iter().filter(|f| !f.is_declaration()) {
        verify_function(f).unwrap_or_else(|e| panic!("after the pass: {e}"));
    }
    (m, stats)
}

fn func<'m>(m: &'m Module, name: &str) -> &'m Function {
    m.function(m.find_function(name).unwrap_or_else(|| panic!("no function {name}")))
}

/// The blocks that can still run.
fn live_blocks(f: &Function) -> Vec<&Block> {
    let cfg = Cfg::new(f);
    f.blocks.iter().enumerate().filter(|(i, _)| cfg.is_reachable(BlockId(*i as u32))).map(|(_, b)| b).collect()
}

fn cond_branches(f: &Function) -> usize {
    live_blocks(f).iter().filter(|b| matches!(b.term, Terminator::CondBr { .. })).count()
}

fn live_insts(f: &Function) -> Vec<&Inst> {
    live_blocks(f).into_iter().flat_map(|b| b.insts.iter()).collect()
}

fn selects(f: &Function) -> usize {
    live_insts(f).iter().filter(|i| matches!(i.kind, InstKind::Select { .. })).count()
}

#[test]
fn ternary_over_registers_becomes_one_block_with_a_select() {
    let src = "int relu(int x, int t) {\n  int r;\n  if (x > t)\n    r = x;\n  else\n    r = 0;\n  return r;\n}\n";
    let (m, stats) = convert(src, 1000);
    let f = func(&m, "relu");
    assert_eq!(live_blocks(f).len(), 1, "everything merged into the entry block");
    assert_eq!(cond_branches(f), 0);
    assert_eq!(selects(f), 1);
    assert!(!live_insts(f).iter().any(|i| matches!(i.kind, InstKind::Phi { .. })));
    assert!(stats.diamonds >= 1);
    // The select stands where the branch was: the `if` on line 3.
    let sel = live_insts(f).into_iter().find(|i| matches!(i.kind, InstKind::Select { .. })).unwrap();
    assert_eq!(sel.loc.line, 3);
}

/// The only select of a function.
fn the_select(f: &Function) -> (Operand, Operand) {
    let sels: Vec<&Inst> = live_insts(f).into_iter().filter(|i| matches!(i.kind, InstKind::Select { .. })).collect();
    assert_eq!(sels.len(), 1, "{:#?}", f.blocks);
    let InstKind::Select { then, otherwise, .. } = &sels[0].kind else { unreachable!() };
    (then.clone(), otherwise.clone())
}

#[test]
fn select_operands_follow_the_branch_edges() {
    let src = "int dia(int x) { int r; if (x > 0) r = x; else r = 7; return r; }\n\
               int tri(int x) { int r = 5; if (x > 0) r = x; return r; }\n\
               int orr(int a, int b) { return a || b; }\n";
    let (m, stats) = convert(src, 1000);
    let x = |f: &Function| Operand::Reg(f.params[0].reg);
    let int = |width, value| Operand::Const(Const::Int { width, value });
    let f = func(&m, "dia");
    assert_eq!(the_select(f), (x(f), int(32, 7)));
    let f = func(&m, "tri");
    assert_eq!(the_select(f), (x(f), int(32, 5)));
    // `a || b`: the then edge goes straight to the join with `true`.
    let f = func(&m, "orr");
    let (then, otherwise) = the_select(f);
    assert_eq!(then, int(1, 1));
    assert!(matches!(otherwise, Operand::Reg(_)));
    assert!(stats.triangles >= 2 && stats.diamonds >= 1);
}

#[test]
fn per_element_branch_in_a_loop_keeps_only_the_loop_branch() {
    let src = "void f(const int *a, int *out, int t) {\n  for (int i = 0; i < 16; i++) {\n    int x = a[i];\n    int r;\n    if (x > t) r = x; else r = 0;\n    out[i] = r;\n  }\n}\n";
    let (m, _) = convert(src, 1000);
    let f = func(&m, "f");
    assert_eq!(cond_branches(f), 1, "only the loop condition branches");
    assert_eq!(selects(f), 1);
}

#[test]
fn nested_diamonds_fold_bottom_up() {
    let src = "int g(int x, int y) {\n  int r;\n  if (x > 0) {\n    if (y > 0) r = 1; else r = 2;\n  } else {\n    r = x + y;\n  }\n  return r;\n}\n";
    let (m, stats) = convert(src, 1000);
    let f = func(&m, "g");
    assert_eq!(cond_branches(f), 0);
    assert_eq!(live_blocks(f).len(), 1);
    assert_eq!(selects(f), 2);
    assert!(stats.diamonds >= 2);
}

#[test]
fn chained_triangles_and_ternaries_fold() {
    let src =
        "int h(int x, int y) {\n  int r = 0;\n  if (x > 0) r = 1;\n  if (y > 0) r += 2;\n  return r + (x < y ? x : y) + (x && y);\n}\n";
    let (m, stats) = convert(src, 1000);
    let f = func(&m, "h");
    assert_eq!(cond_branches(f), 0, "if, if, ?: and && all folded");
    assert!(stats.triangles >= 2);
}

#[test]
fn floating_point_sides_are_speculated() {
    let src = "float fp(float x) {\n  float r = 0.0f;\n  if (x > 1.0f)\n    r = x * 2.0f + 1.0f;\n  return r;\n}\n";
    let (m, _) = convert(src, 1000);
    let f = func(&m, "fp");
    assert_eq!(cond_branches(f), 0);
    // The moved instructions keep their own line (4), the select gets the
    // branch's (3).
    let mul = live_insts(f).into_iter().find(|i| matches!(i.kind, InstKind::Float { .. })).unwrap();
    assert_eq!(mul.loc.line, 4);
}

#[test]
fn a_side_with_a_store_keeps_its_branch() {
    let (m, stats) = convert("void s(int *p, int x) {\n  if (x > 0)\n    *p = x;\n}\n", 1000);
    assert_eq!(cond_branches(func(&m, "s")), 1);
    let _ = stats;
}

#[test]
fn division_by_a_variable_is_not_speculated() {
    let src = "int d(int x, int y) { int r = 0; if (y != 0) r = x / y; return r; }\n\
               int c3(int x) { int r = 0; if (x > 0) r = x / 3; return r; }\n\
               int cm1(int x) { int r = 0; if (x > 0) r = x % -1; return r; }\n\
               unsigned um1(unsigned x) { unsigned r = 0; if (x > 5) r = x / 0xffffffffu; return r; }\n";
    let (m, _) = convert(src, 1000);
    assert_eq!(cond_branches(func(&m, "d")), 1, "x / y with y possibly zero");
    assert_eq!(cond_branches(func(&m, "c3")), 0, "x / 3 cannot trap");
    assert_eq!(cond_branches(func(&m, "cm1")), 1, "signed % -1 overflows for INT_MIN");
    assert_eq!(cond_branches(func(&m, "um1")), 0, "unsigned division by all-ones is fine");
}

#[test]
fn loads_are_speculated_only_when_provably_in_bounds() {
    let src = "#include <stdlib.h>\n\
        int g[4] = {1, 2, 3, 4};\n\
        int fresh(int *p, int c) { int r = 0; if (c) r = *p; return r; }\n\
        int again(int *p, int c) { int v = *p; int r = 0; if (c) r = *p + 1; return r + v; }\n\
        int elem(int *a, int i, int c) { int v = a[i]; int r = 0; if (c) r = a[i]; return r + v; }\n\
        int wider(int *a, int c) { char v = *(char *)a; int r = 0; if (c) r = *a; return r + v; }\n\
        int freed(int *p, int c) { int v = *p; free(p); int r = 0; if (c) r = *p; return r + v; }\n\
        int stored(int *p, int c) { *p = 5; int r = 0; if (c) r = *p; return r; }\n\
        int global_const(int c) { int r = 0; if (c) r = g[2]; return r; }\n\
        int global_var(int c, int i) { int r = 0; if (c) r = g[i]; return r; }\n\
        int global_past_end(int c) { int r = 0; if (c) r = *(long *)&g[3]; return r; }\n\
        int local_written(int c) { int a[4] = {0}; int r = 0; if (c) r = a[3]; return r; }\n\
        int local_unwritten(int c) { int a[4]; int r = 0; if (c) r = a[1]; return r; }\n";
    let (m, _) = convert(src, 1000);
    let branches = |n: &str| cond_branches(func(&m, n));
    assert_eq!(branches("fresh"), 1, "a pointer never accessed before");
    assert_eq!(branches("again"), 0, "the same pointer was loaded in a dominating block");
    assert_eq!(branches("elem"), 0, "the same GEP expression, recomputed in the side");
    assert_eq!(branches("wider"), 1, "the earlier access was smaller");
    assert_eq!(branches("freed"), 1, "a call between the accesses may free");
    assert_eq!(branches("stored"), 0, "a dominating store covers it");
    assert_eq!(branches("global_const"), 0, "constant offset inside a global");
    assert_eq!(branches("global_var"), 1, "variable index into a global");
    assert_eq!(branches("global_past_end"), 1, "8 bytes at offset 12 of a 16-byte global");
    assert_eq!(branches("local_written"), 0, "constant offset inside an initialised local array");
    assert_eq!(branches("local_unwritten"), 1, "an uninitialised read would be a new finding");
}

#[test]
fn calls_other_than_pure_intrinsics_keep_their_branch() {
    let src = "#include <math.h>\n\
        int ext(int);\n\
        float pure(float x) { float r = 0; if (x > 0) r = fabsf(x) + copysignf(x, -1.0f); return r; }\n\
        float libm(float x) { float r = 0; if (x > 0) r = sqrtf(x); return r; }\n\
        int impure(int x) { int r = 0; if (x > 0) r = ext(x); return r; }\n";
    let (m, _) = convert(src, 1000);
    assert_eq!(cond_branches(func(&m, "pure")), 0, "llvm.fabs and llvm.copysign");
    assert_eq!(cond_branches(func(&m, "libm")), 1, "sqrtf is a call to a function, not an intrinsic");
    assert_eq!(cond_branches(func(&m, "impure")), 1);
}

#[test]
fn threshold_limits_folding() {
    // The side computes x * 3, + 1, ^ 7: three instructions.
    let src = "int th(int x) {\n  int r = 0;\n  if (x > 0)\n    r = ((x * 3) + 1) ^ 7;\n  return r;\n}\n";
    let (m, _) = convert(src, 2);
    assert_eq!(cond_branches(func(&m, "th")), 1);
    let (m, _) = convert(src, 3);
    assert_eq!(cond_branches(func(&m, "th")), 0);
    let (m, _) = convert("int e(int x) { return x > 0 ? 1 : 2; }\n", 0);
    assert_eq!(cond_branches(func(&m, "e")), 0, "empty sides fold at threshold 0");
}

#[test]
fn a_phi_with_an_edge_from_outside_the_region_is_not_folded() {
    // `r` at the join has three incoming values (the switch reaches it
    // directly too), so the inner if/else is not a closed diamond.
    let src = "int sw(int k, int x) {\n  int r = 7;\n  switch (k) {\n  case 0: if (x) r = 1; else r = 2; break;\n  case 1: r = 3; break;\n  }\n  return r;\n}\n";
    let (m, _) = convert(src, 1000);
    let f = func(&m, "sw");
    assert!(live_blocks(f).iter().any(|b| matches!(b.term, Terminator::Switch { .. })));
}

// ---------------------------------------------------------------------
// End to end: one branch per element, against a branch-free version.

fn relu_harness(dir: &std::path::Path, broken: bool) -> std::path::PathBuf {
    let threshold = if broken { 1 } else { 0 };
    let src = format!(
        "#include \"symcross.h\"\n\
#ifndef N\n#define N 64\n#endif\n\
int main(void) {{\n\
  int in[N], a[N], b[N];\n\
  symcross_make_symbolic(in, sizeof in, \"in\");\n\
  for (int i = 0; i < N; i++) {{\n\
    int x = in[i];\n\
    int r;\n\
    if (x > {threshold})\n\
      r = x;\n\
    else\n\
      r = 0;\n\
    a[i] = r;\n\
  }}\n\
  for (int i = 0; i < N; i++) {{\n\
    int x = in[i];\n\
    b[i] = x & ~(x >> 31);\n\
  }}\n\
  symcross_check_equal(a, b, sizeof(int), N, \"relu\");\n\
  return 0;\n\
}}\n"
    );
    let path = dir.join(if broken { "relu_broken.c" } else { "relu.c" });
    std::fs::write(&path, src).unwrap();
    path
}

const CHECK_LINE: u64 = 21;

fn stat(run: &common::Run, key: &str) -> u64 {
    let json = run.json.as_ref().unwrap_or_else(|| panic!("no JSON: {}\n{}", run.stdout, run.stderr));
    json["stats"][key].as_u64().unwrap_or_else(|| panic!("no stats.{key}"))
}

#[test]
fn per_element_branches_over_64_elements_are_one_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = relu_harness(dir.path(), false);
    let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
    let json = run.json.as_ref().unwrap_or_else(|| panic!("{}\n{}", run.stdout, run.stderr));
    assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
    assert_eq!(stat(&run, "paths"), 1);
    assert!(stat(&run, "merged") >= 1, "folded regions are counted as merged");
    assert_eq!(run.code, 0);
}

#[test]
fn without_merging_the_same_harness_forks_per_element() {
    let dir = tempfile::tempdir().unwrap();
    let path = relu_harness(dir.path(), false);
    let p = path.to_str().unwrap();
    let merged = common::symcross(&["check", p, "-D", "N=8", "--json", "-"]);
    let forked = common::symcross(&["check", p, "-D", "N=8", "--no-merge", "--json", "-"]);
    for run in [&merged, &forked] {
        let json = run.json.as_ref().unwrap_or_else(|| panic!("{}\n{}", run.stdout, run.stderr));
        assert_eq!(json["verdict"], "equivalent", "{}", run.stdout);
    }
    assert_eq!(stat(&merged, "paths"), 1);
    assert_eq!(stat(&forked, "paths"), 256, "2^8 paths without if-conversion");
}

#[test]
fn a_broken_variant_is_still_refuted_at_the_right_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = relu_harness(dir.path(), true);
    let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
    let json = run.json.as_ref().unwrap_or_else(|| panic!("{}\n{}", run.stdout, run.stderr));
    assert_eq!(json["verdict"], "findings", "{}", run.stdout);
    let f = &json["findings"][0];
    assert_eq!(f["kind"], "mismatch");
    assert_eq!(f["status"], "confirmed");
    assert_eq!(f["location"]["line"].as_u64(), Some(CHECK_LINE), "{}", run.stdout);
    assert_eq!(stat(&run, "paths"), 1);
}
