//! Cheap soundness check of every rule: both sides, instantiated over fresh
//! variables, are evaluated bit-exactly (`expr::evaluate`, i.e. fold.rs) on
//! edge and random inputs, skipping inputs that violate the rule's side
//! conditions or assumptions (an assumption restricts every operand and
//! result of every FP operation of either side). Any difference is a wrong
//! rule. Unary half-precision rules are checked on all 65536 inputs.
//! Rules needing `associativity` are permissions, not laws: not sampled.

use rand::{Rng, SeedableRng};
use symcross::canon::*;
use symcross::expr::*;

fn fp_edges(pool: &mut ExprPool, f: FpFormat) -> Vec<u128> {
    let w = f.width();
    let sign = 1u128 << (w - 1);
    let exp_mask = mask(f.exponent_bits()) << (f.significand_bits() - 1);
    let mut v = vec![0, sign, 1, sign | 1, exp_mask, sign | exp_mask, canonical_nan(f), canonical_nan(f) | 1, canonical_nan(f) | sign];
    v.push(mask(f.significand_bits() - 1)); // largest denormal
    v.push(1u128 << (f.significand_bits() - 1)); // smallest normal
    v.push(exp_mask - 1); // largest finite
    v.push((exp_mask - 1) | sign);
    let reals = [
        1.0,
        -1.0,
        2.0,
        -2.0,
        0.5,
        -0.5,
        3.0,
        -3.0,
        7.0,
        100.0,
        -100.0,
        255.0,
        256.0,
        -128.0,
        2047.0,
        2048.0,
        2049.0,
        -2048.0,
        65504.0,
        65520.0,
        65536.0,
        1.5,
        2.5,
        -2.5,
        16777216.0,
        16777217.0,
        4294967296.0,
        1e30,
        -1e-30,
    ];
    for r in reals {
        let d = pool.constant(64, f64::to_bits(r) as u128);
        let c = pool.fp_convert(FpFormat::Double, f, d);
        v.push(pool.as_const(c).unwrap());
    }
    v
}

fn int_edges(w: u32) -> Vec<u128> {
    let ints: [i128; 22] =
        [0, 1, 2, 3, -1, -2, 100, -128, 127, 255, 2047, 2048, 2049, 2050, -2048, -2049, 65504, 65520, 65535, 16777216, 16777217, 16777219];
    let mut v: Vec<u128> = ints.iter().map(|i| (*i as u128) & mask(w)).collect();
    v.extend([mask(w), 1u128 << (w - 1), mask(w - 1).max(1)]);
    v
}

struct Sampler {
    rng: rand::rngs::StdRng,
    edges: std::collections::HashMap<u32, Vec<u128>>,
}

impl Sampler {
    fn value(&mut self, pool: &mut ExprPool, w: u32) -> u128 {
        let edges = self.edges.entry(w).or_insert_with(|| {
            let mut e = int_edges(w);
            if let Some(f) = FpFormat::from_width(w) {
                e.extend(fp_edges(pool, f));
            }
            e
        });
        if self.rng.gen_bool(0.5) {
            edges[self.rng.gen_range(0..edges.len())]
        } else {
            self.rng.gen::<u128>() & mask(w)
        }
    }
}

/// Every FP value (operand or result of an FP operation) below the roots,
/// with its format.
fn fp_values(pool: &ExprPool, roots: &[ExprId]) -> Vec<(ExprId, FpFormat)> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = roots.to_vec();
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        match pool.get(e).into_owned() {
            Expr::FBin(_, f, a, b) => out.extend([(a, f), (b, f), (e, f)]),
            Expr::FUn(_, f, a) => out.extend([(a, f), (e, f)]),
            Expr::Fma(f, a, b, c) => out.extend([(a, f), (b, f), (c, f), (e, f)]),
            Expr::FCmp(_, f, a, b) => out.extend([(a, f), (b, f)]),
            Expr::FpToInt { from, value, .. } => out.push((value, from)),
            Expr::IntToFp { to, .. } => out.push((e, to)),
            Expr::FpConvert { from, to, value } => out.extend([(value, from), (e, to)]),
            _ => {}
        }
        stack.extend(pool.children(e));
    }
    out
}

fn violates(a: Assumptions, f: FpFormat, v: u128) -> bool {
    let w = f.width();
    let exp_all_ones = (v >> (f.significand_bits() - 1)) & mask(f.exponent_bits()) == mask(f.exponent_bits());
    (a.has(Assumption::PositiveZero) && v == 1u128 << (w - 1))
        || (a.has(Assumption::Ordered) && fp_is_nan(f, v))
        || (a.has(Assumption::Finite) && exp_all_ones)
}

/// Checks one rule; returns the number of inputs that satisfied its
/// conditions and assumptions.
fn check_rule(rule: &Rule, samples: usize, rng: &mut Sampler) -> usize {
    let mut pool = ExprPool::new();
    let insts = instantiate(rule, &mut pool).unwrap_or_else(|e| panic!("{}: {e}", rule.name));
    let per = (samples / insts.len()).max(40);
    let assume = rule.assumptions.closure();
    let mut valid = 0;
    for inst in &insts {
        let values = fp_values(&pool, &[inst.lhs, inst.rhs]);
        let fresh_ids: Vec<(u32, u32)> = inst
            .vars
            .iter()
            .map(|(_, e)| match &*pool.get(*e) {
                Expr::Fresh { id, width } => (*id, *width),
                _ => unreachable!(),
            })
            .collect();
        let exhaustive = fresh_ids.len() == 1 && fresh_ids[0].1 == 16;
        let n = if exhaustive { 65536 } else { per };
        for k in 0..n {
            let mut asg = Assignment::default();
            for (id, w) in &fresh_ids {
                let v = if exhaustive { k as u128 } else { rng.value(&mut pool, *w) };
                asg.fresh.insert(*id, v);
            }
            if evaluate(&pool, inst.condition, &asg) == 0 {
                continue;
            }
            if values.iter().any(|(e, f)| violates(assume, *f, evaluate(&pool, *e, &asg))) {
                continue;
            }
            valid += 1;
            let (l, r) = (evaluate(&pool, inst.lhs, &asg), evaluate(&pool, inst.rhs, &asg));
            assert_eq!(
                l,
                r,
                "rule {} ({}:{}) is unsound: sets {:?}, inputs {:?}: lhs {:#x} rhs {:#x}",
                rule.name,
                rule.file.display(),
                rule.line,
                inst.sets,
                asg.fresh,
                l,
                r
            );
        }
    }
    valid
}

#[test]
fn every_rule_is_sound_on_samples() {
    let rules = RuleSet::builtin().unwrap();
    let mut s = Sampler { rng: rand::rngs::StdRng::seed_from_u64(7), edges: Default::default() };
    let mut checked = 0;
    for rule in rules.rules() {
        if rule.assumptions.has(Assumption::Associativity) {
            continue;
        }
        let valid = check_rule(rule, 3000, &mut s);
        assert!(valid >= 20, "rule {}: only {valid} inputs met its conditions and assumptions", rule.name);
        checked += 1;
    }
    assert!(checked > 100);
}

#[test]
fn an_unsound_rule_fails_the_check() {
    let law = "; law: wrong on purpose\n";
    let mut s = Sampler { rng: rand::rngs::StdRng::seed_from_u64(1), edges: Default::default() };
    for bad in [
        "rule bad: (fadd.f16 ?x 0.0:f16) => ?x [assume: ordered]",
        "rule bad: (fmul.f16 ?x 1.0:f16) => ?x [assume: none]",
        "rule bad: (ite (folt.f32 ?a ?b) ?a ?b) => (fmin.f32 ?a ?b) [assume: ordered]",
        "rule bad: (ite (folt.f32 ?a ?b) ?a ?b) => (ite (folt.f32 ?b ?a) ?b ?a) [assume: positive-zero]",
        "rule bad: (fmul.f16 ?x 0.0:f16) => 0.0:f16 [assume: finite]",
        "rule bad: (foeq.f32 (sitofp.32.f32 ?x) ?c) => (eq ?x (fptosi.f32.32 ?c)) if const(?c) [assume: none]",
    ] {
        let set = RuleSet::parse(&format!("{law}{bad}"), std::path::Path::new("bad.rules")).unwrap();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_rule(&set.rules()[0], 20000, &mut s)));
        assert!(r.is_err(), "not caught: {bad}");
    }
}
