//! No recursion on expression depth (issue 14): the printer, the SMT-LIB
//! translation, evaluation, the e-graph translation and the implied-query
//! rewriting handle a chain of a million dependent operations, and the rule
//! parser a pattern nested a million deep, on a test thread's small stack.

mod common;

use std::path::Path;
use symcross::canon::{implied_integer_query, to_recexpr, RuleSet};
use symcross::expr::{evaluate, Assignment, BinOp, ExprId, ExprPool, FBinOp, FpFormat, Outcomes};
use symcross::solver::{print_query, Query};

const DEPTH: usize = 1_000_000;

/// ((x * y) + y) * y + y ... : every step uses the one before, nothing
/// folds, and no subterm is shared (so the printer names none).
fn integer_chain(pool: &mut ExprPool, depth: usize) -> (ExprId, ExprId) {
    let a = pool.new_array("x", 8);
    let x = pool.input_word(a, 0, 32);
    let y = pool.input_word(a, 4, 32);
    let mut e = x;
    for i in 0..depth {
        e = if i % 2 == 0 { pool.bin(BinOp::Mul, e, y) } else { pool.bin(BinOp::Add, e, y) };
    }
    (e, y)
}

/// x +. y +. y ... in single precision.
fn float_chain(pool: &mut ExprPool, depth: usize) -> ExprId {
    let a = pool.new_array("f", 8);
    let x = pool.input_word(a, 0, 32);
    let y = pool.input_word(a, 4, 32);
    let mut e = x;
    for _ in 0..depth {
        e = pool.fbin(FBinOp::Add, FpFormat::Single, e, y);
    }
    e
}

#[test]
fn the_printer_prints_a_million_deep_chain() {
    let mut pool = ExprPool::new();
    let (e, _) = integer_chain(&mut pool, DEPTH);
    let text = symcross::expr::print_expr(&pool, e);
    assert!(text.len() > 4 * DEPTH, "{} characters", text.len());
    assert!(text.starts_with("(x[4..7] + (x[4..7] * (") && text.ends_with("))))"), "{}", &text[..80]);
    assert_eq!(text.matches("x[4..7]").count(), DEPTH);
    let other = pool.bin(BinOp::Xor, e, e);
    let (_, left, right) = symcross::expr::print_pair(&pool, e, other);
    assert!(left.contains('⟪') && right.contains('⟪'));
}

#[test]
fn smtlib_translation_of_a_million_deep_chain_and_conjunction() {
    let mut pool = ExprPool::new();
    let f = float_chain(&mut pool, DEPTH);
    let zero = pool.constant(32, 0);
    let goal = pool.fcmp(Outcomes(Outcomes::EQ), FpFormat::Single, f, zero);
    let script = print_query(&pool, &Query::new(vec![], Some(goal)));
    assert!(script.text.matches("define-fun").count() >= DEPTH, "{} bytes", script.text.len());
    // A path condition that is one conjunction a million deep.
    let (e, y) = integer_chain(&mut pool, 1000);
    let mut all = pool.bool_const(true);
    for k in 0..DEPTH as u128 {
        let c = pool.constant(32, k);
        let ne = pool.cmp(symcross::expr::CmpOp::Ult, c, y);
        all = pool.bin(BinOp::And, ne, all);
    }
    let nz = pool.cmp(symcross::expr::CmpOp::Ult, zero, e);
    let script = print_query(&pool, &Query::new(vec![all], Some(nz)));
    assert!(script.text.matches("(and ").count() >= DEPTH - 1);
}

#[test]
fn evaluation_and_egraph_translation_of_a_million_deep_chain() {
    let mut pool = ExprPool::new();
    let (e, _) = integer_chain(&mut pool, DEPTH);
    let mut asg = Assignment::default();
    asg.arrays.insert(0, vec![1, 0, 0, 0, 1, 0, 0, 0]);
    // x = 1, y = 1: each pair of steps adds one.
    assert_eq!(evaluate(&pool, e, &asg), 1 + (DEPTH as u128) / 2);
    let rec = to_recexpr(&pool, e);
    assert!(rec.as_ref().len() > DEPTH);
}

#[test]
fn the_implied_query_of_a_million_deep_float_chain_is_built() {
    let mut pool = ExprPool::new();
    let f = float_chain(&mut pool, DEPTH);
    let g = float_chain(&mut pool, DEPTH);
    let ne = pool.fcmp(Outcomes(Outcomes::EQ), FpFormat::Single, f, g);
    let failure = pool.not(ne);
    // Sound either way: a weaker condition or none; what matters is no overflow.
    let _ = implied_integer_query(&mut pool, failure);
}

fn nested_rule(depth: usize) -> String {
    let mut lhs = String::with_capacity(depth * 12);
    for _ in 0..depth {
        lhs.push_str("(fsqrt.f32 ");
    }
    lhs.push_str("?x");
    for _ in 0..depth {
        lhs.push(')');
    }
    format!("; law: negation nested {depth} times\nrule deep: {lhs} => {lhs} [assume: none]\n")
}

#[test]
fn the_rule_parser_reads_a_million_deep_pattern_without_recursion() {
    let e = match RuleSet::parse(&nested_rule(DEPTH), Path::new("deep.rules")) {
        Ok(_) => panic!("a pattern nested a million deep was accepted"),
        Err(e) => e.to_string(),
    };
    assert!(e.contains("deep.rules:2") && e.contains("nested deeper than"), "{e}");
    // Unbalanced and malformed text is an error at any depth too.
    let open_only = format!("; law: x\nrule bad: {} => ?x [assume: none]\n", "(fsqrt.f32 ".repeat(DEPTH));
    assert!(RuleSet::parse(&open_only, Path::new("bad.rules")).is_err());
    // A depth within the limit parses.
    RuleSet::parse(&nested_rule(500), Path::new("ok.rules")).expect("depth 500 parses");
}

#[test]
fn a_symbolic_load_from_a_large_local_array_does_not_overflow_the_stack() {
    // The bytes of the loaded value are chains of 65536 selects on the
    // same conditions; joining them used to recurse once per element.
    let k = common::repo().join("tests/fixtures/race_deep/local_symbolic_index.cl");
    // Only buf[0] is written: the arbitrary-but-defined mode keeps the
    // point (the deep select chain) apart from the uninitialised read.
    let run = common::symcross(&[
        "race",
        k.to_str().unwrap(),
        "--local-size",
        "1",
        "--num-groups",
        "1",
        "--local-memory",
        "arbitrary",
        "--json",
        "-",
    ]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.json.unwrap()["verdict"], "equivalent");
}

#[test]
fn joining_long_select_chains_is_not_recursion() {
    let mut pool = ExprPool::new();
    let a = pool.new_array("i", 4);
    let idx = pool.input_word(a, 0, 32);
    let (mut hi, mut lo) = (pool.constant(8, 0), pool.constant(8, 0));
    for k in 0..DEPTH as u128 {
        let at = pool.constant(32, k);
        let c = pool.cmp(symcross::expr::CmpOp::Eq, idx, at);
        let (x, y) = (pool.constant(8, k & 0xff), pool.constant(8, (k >> 8) & 0xff));
        hi = pool.ite(c, x, hi);
        lo = pool.ite(c, y, lo);
    }
    let joined = pool.concat(hi, lo);
    assert_eq!(pool.width(joined), 16);
}

/// The one bottom-up rebuild that `ExprPool::substitute` and the
/// implied-guard rewrite (check/guarded_elements.rs) share is iterative: a
/// million-deep chain is rebuilt under a substitution, and with the
/// identity step it is `substitute`. Its step sees each node rebuilt over
/// its children's images, so a rewrite of an inner node shows in the
/// outer one's (the guard rewrite drops nested guards one by one).
#[test]
fn the_shared_bottom_up_rewrite_of_a_million_deep_chain() {
    let mut pool = ExprPool::new();
    let (e, y) = integer_chain(&mut pool, DEPTH);
    let three = pool.constant(32, 3);
    let mut replace = rustc_hash::FxHashMap::default();
    replace.insert(y, three);
    let substituted = pool.substitute(&[e], &replace);
    let mut steps = 0usize;
    let rewritten = pool.rewrite_bottom_up(&[e], replace, |_, rebuilt| {
        steps += 1;
        rebuilt
    });
    assert_eq!(substituted, rewritten);
    assert_ne!(rewritten[0], e);
    assert!(steps > DEPTH, "{steps}");

    // ((x + y) * y) + y (as the builders shape it) with every sum
    // replaced by its first operand: the walk agrees with a plain
    // recursive rebuild that steps each node after rebuilding it, so an
    // inner rewrite shows in the outer node the step sees.
    let a = pool.new_array("s", 8);
    let x = pool.input_word(a, 0, 32);
    let y = pool.input_word(a, 4, 32);
    let inner = pool.bin(BinOp::Add, x, y);
    let product = pool.bin(BinOp::Mul, inner, y);
    let outer = pool.bin(BinOp::Add, product, y);
    fn first_of_sums(p: &mut ExprPool, id: ExprId) -> ExprId {
        match &*p.get(id) {
            symcross::expr::Expr::Bin(BinOp::Add, left, _) => *left,
            _ => id,
        }
    }
    fn reference(p: &mut ExprPool, id: ExprId) -> ExprId {
        let kids = p.children(id);
        let new_kids: Vec<ExprId> = kids.iter().map(|&k| reference(p, k)).collect();
        let rebuilt = if new_kids[..] == kids[..] { id } else { p.rebuild(id, &new_kids) };
        first_of_sums(p, rebuilt)
    }
    let want = reference(&mut pool, outer);
    let got = pool.rewrite_bottom_up(&[outer], Default::default(), first_of_sums);
    assert_eq!(got, vec![want]);
    assert_ne!(want, outer);
}
