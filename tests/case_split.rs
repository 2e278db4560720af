//! Case splits on the input bytes a select's condition fixes
//! (canon/case_split.rs) are sound, and decide SIMD code whose vector-wide
//! fast paths (all four alpha bytes 0xff, the whole vector zero) stand
//! against a C reference that tests each pixel.
//!
//! Soundness by evaluation on every value of two input bytes: whenever a
//! condition takes a value, the bytes `fixed_bytes` reads off it for that
//! value have exactly those values, a value it calls impossible is never
//! taken, and a side specialised to a case equals the side on every input
//! of the case. Known answers on pixman's own condition shapes, and on
//! harnesses: equal code proved, a fast path that tests three of the four
//! pixels refuted with a witness that reproduces on the CPU.

mod common;

use symcross::canon::case_split::{fixed_bytes, specialize, split_condition};
use symcross::expr::*;

/// Two byte inputs `x` (array 0) and `y` (array 1).
fn two_bytes(p: &mut ExprPool) -> (ExprId, ExprId) {
    let ax = p.new_array("x", 1);
    let ay = p.new_array("y", 1);
    (p.input_byte(ax, 0), p.input_byte(ay, 0))
}

fn at(x: u8, y: u8) -> Assignment {
    let mut asg = Assignment::default();
    asg.arrays.insert(0, vec![x]);
    asg.arrays.insert(1, vec![y]);
    asg
}

/// Conditions of the shapes `fixed_bytes` reads, over the bytes `x`, `y`.
fn conditions(p: &mut ExprPool, x: ExprId, y: ExprId) -> Vec<ExprId> {
    let c8 = |p: &mut ExprPool, v| p.constant(8, v);
    let (ff, zero, k5) = (c8(p, 0xff), c8(p, 0), c8(p, 5));
    let mut out = Vec::new();
    // (x & y) == 0xff: both all ones.
    let and = p.and(x, y);
    out.push(p.eq(and, ff));
    // (x | y) == 0: both zero.
    let or = p.or(x, y);
    out.push(p.eq(or, zero));
    // A movemask of two compares, bits tested with a mask.
    let ex = p.eq(x, ff);
    let ez = p.eq(y, zero);
    let bits = p.concat(ex, ez);
    let wide = p.zext(bits, 32);
    let two = p.constant(32, 2);
    let three = p.constant(32, 3);
    let masked = p.and(wide, two);
    out.push(p.eq(masked, two));
    out.push(p.eq(wide, three));
    let one = p.constant(32, 1);
    out.push(p.eq(wide, one));
    // A 16-bit word of both bytes against a constant.
    let word = p.concat(y, x);
    let k = p.constant(16, 0x12ff);
    out.push(p.eq(word, k));
    // x + 5 == 0, x ^ 0xff == 5, ~x == 0, x & 0xf0 == 0x0f (impossible).
    let sum = p.add(x, k5);
    out.push(p.eq(sum, zero));
    let flipped = p.xor(x, ff);
    out.push(p.eq(flipped, k5));
    let inverted = p.not(x);
    out.push(p.eq(inverted, zero));
    let high = p.constant(8, 0xf0);
    let low = p.constant(8, 0x0f);
    let hx = p.and(x, high);
    out.push(p.eq(hx, low));
    // Conjunction and disjunction of one-bit tests.
    let both = p.bool_and(ex, ez);
    out.push(both);
    let either = p.bool_or(ex, ez);
    out.push(either);
    // Partial bits only: nothing fixed, nothing wrong.
    let bit = p.extract(x, 7, 1);
    out.push(bit);
    out
}

#[test]
fn fixed_bytes_hold_on_every_input_of_their_case() {
    let mut p = ExprPool::new();
    let (x, y) = two_bytes(&mut p);
    let conds = conditions(&mut p, x, y);
    let mut fixed_some = 0;
    for &c in &conds {
        for holds in [true, false] {
            let fixed = fixed_bytes(&p, c, holds);
            let mut taken = 0u32;
            for vx in 0..=255u8 {
                for vy in 0..=255u8 {
                    let asg = at(vx, vy);
                    if (evaluate(&p, c, &asg) == 1) != holds {
                        continue;
                    }
                    taken += 1;
                    let f = fixed
                        .as_ref()
                        .unwrap_or_else(|| panic!("{} = {holds} called impossible, taken at x={vx} y={vy}", print_expr(&p, c)));
                    for (&(array, _), &v) in f {
                        let got = if array == 0 { vx } else { vy };
                        assert_eq!(got, v, "{} = {holds} at x={vx} y={vy}: fixed {v:#x}", print_expr(&p, c));
                    }
                }
            }
            if let Some(f) = &fixed {
                fixed_some += usize::from(!f.is_empty());
            } else {
                assert_eq!(taken, 0);
            }
        }
    }
    assert!(fixed_some >= 10, "most shapes fix a byte: {fixed_some}");
}

#[test]
fn known_facts_of_the_shapes() {
    let mut p = ExprPool::new();
    let (x, y) = two_bytes(&mut p);
    let conds = conditions(&mut p, x, y);
    let facts = |p: &ExprPool, i: usize, holds: bool| -> Option<Vec<((u32, u32), u8)>> {
        fixed_bytes(p, conds[i], holds).map(|f| {
            let mut v: Vec<_> = f.into_iter().collect();
            v.sort();
            v
        })
    };
    assert_eq!(facts(&p, 0, true), Some(vec![((0, 0), 0xff), ((1, 0), 0xff)]));
    assert_eq!(facts(&p, 0, false), Some(vec![]));
    assert_eq!(facts(&p, 1, true), Some(vec![((0, 0), 0), ((1, 0), 0)]));
    assert_eq!(facts(&p, 2, true), Some(vec![((0, 0), 0xff)]));
    assert_eq!(facts(&p, 3, true), Some(vec![((0, 0), 0xff), ((1, 0), 0)]));
    // Movemask 0b01: y is zero, and x is not 0xff (a failed equality
    // fixes nothing on a byte).
    assert_eq!(facts(&p, 4, true), Some(vec![((1, 0), 0)]));
    assert_eq!(facts(&p, 5, true), Some(vec![((0, 0), 0xff), ((1, 0), 0x12)]));
    assert_eq!(facts(&p, 6, true), Some(vec![((0, 0), 0xfb)]));
    assert_eq!(facts(&p, 7, true), Some(vec![((0, 0), 0xfa)]));
    assert_eq!(facts(&p, 8, true), Some(vec![((0, 0), 0xff)]));
    assert_eq!(facts(&p, 9, true), None, "x & 0xf0 is never 0x0f");
    assert_eq!(facts(&p, 10, true), Some(vec![((0, 0), 0xff), ((1, 0), 0)]));
    assert_eq!(facts(&p, 11, false), Some(vec![]), "a failed 8-bit equality fixes nothing");
    assert_eq!(facts(&p, 12, true), Some(vec![]));
}

#[test]
fn specialised_sides_equal_their_sides_on_every_input_of_the_case() {
    let mut p = ExprPool::new();
    let (x, y) = two_bytes(&mut p);
    let conds = conditions(&mut p, x, y);
    // A side that branches on each condition and computes with the bytes.
    let (wx, wy) = (p.zext(x, 16), p.zext(y, 16));
    let prod = p.mul(wx, wy);
    let sum = p.add(wx, wy);
    let mut side = p.bin(BinOp::Sub, prod, sum);
    for (i, &c) in conds.iter().enumerate() {
        let k = p.constant(16, i as u128 * 0x101);
        let other = p.xor(side, k);
        side = p.ite(c, other, side);
    }
    for &c in &conds {
        for holds in [true, false] {
            let Some(fixed) = fixed_bytes(&p, c, holds) else { continue };
            let s = specialize(&mut p, &[side], c, holds, &fixed)[0];
            for vx in 0..=255u8 {
                for vy in 0..=255u8 {
                    let asg = at(vx, vy);
                    if (evaluate(&p, c, &asg) == 1) != holds {
                        continue;
                    }
                    assert_eq!(evaluate(&p, s, &asg), evaluate(&p, side, &asg), "{} = {holds} at x={vx} y={vy}", print_expr(&p, c));
                }
            }
        }
    }
}

/// pixman's `is_opaque(src & mask)` on four pixels:
/// `(movemask(cmpeq(src & mask, ones)) & 0x8888) == 0x8888`.
fn is_opaque_of_and(p: &mut ExprPool, src: u32, mask: u32) -> ExprId {
    let ff = p.constant(8, 0xff);
    let mut bits: Option<ExprId> = None;
    for i in 0..16 {
        let (s, m) = (p.input_byte(src, i), p.input_byte(mask, i));
        let both = p.and(m, s);
        let bit = p.eq(both, ff);
        bits = Some(match bits {
            None => bit,
            Some(low) => p.concat(bit, low),
        });
    }
    let wide = p.zext(bits.expect("16 bits"), 32);
    let k = p.constant(32, 0x8888);
    let tested = p.and(wide, k);
    p.eq(tested, k)
}

#[test]
fn pixman_opaque_test_fixes_the_four_alpha_bytes() {
    let mut p = ExprPool::new();
    let src = p.new_array("src", 16);
    let mask = p.new_array("mask", 16);
    let opaque = is_opaque_of_and(&mut p, src, mask);
    let mut f: Vec<_> = fixed_bytes(&p, opaque, true).expect("possible").into_iter().collect();
    f.sort();
    let want: Vec<_> = [src, mask].iter().flat_map(|&a| [3, 7, 11, 15].map(|i| ((a, i), 0xffu8))).collect();
    assert_eq!(f, want);
    assert_eq!(fixed_bytes(&p, opaque, false).map(|f| f.len()), Some(0));
    // pixel 0's C test `mask alpha == 0xff`, under the SSE2 test, folds.
    let m3 = p.input_byte(mask, 3);
    let ff = p.constant(8, 0xff);
    let c_test = p.eq(m3, ff);
    let s0 = p.input_word(src, 0, 32);
    let d0 = p.constant(32, 0x1234);
    let c_side = p.ite(c_test, s0, d0);
    let simd = p.ite(opaque, s0, d0);
    assert_eq!(split_condition(&p, &[simd, c_side]), Some(opaque), "nearest the roots, SIMD side first");
    let fixed = fixed_bytes(&p, opaque, true).unwrap();
    let sides = specialize(&mut p, &[simd, c_side], opaque, true, &fixed);
    assert_eq!(sides[0], sides[1], "both are src[0] under the opaque test");
    let mut leaves = Default::default();
    p.leaves_of(sides[0], &mut leaves);
    assert!(!leaves.contains(&Leaf::Input { array: src, index: 3 }), "src[3] folded to 0xff");
}

/// Whole harnesses: the SSE2 code's vector-wide fast paths against the C
/// per-pixel ones.
fn harness(name: &str) -> std::path::PathBuf {
    common::repo().join("harnesses/compositing").join(name)
}

fn check_json(name: &str, report: &std::path::Path) -> serde_json::Value {
    let path = harness(name);
    let (p, rp) = (path.to_str().unwrap(), report.to_str().unwrap());
    let mut run = common::symcross(&["check", p, "--json", rp, "--max-time", "300"]);
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(rp).expect("report written")).expect("JSON report");
    run.json = Some(json.clone());
    if let Err(e) = common::verify(&path, &run) {
        panic!("{e}");
    }
    json
}

#[test]
fn vector_wide_fast_paths_meet_per_pixel_tests() {
    let report = tempfile::NamedTempFile::new().unwrap();
    let json = check_json("over_fast_paths.c", report.path());
    assert_eq!(json["findings"].as_array().map_or(0, |f| f.len()), 0, "{json:#}");
    // Each pixel's check split into its cases: far fewer queries than
    // the whole nested selects needed (64 before the split).
    let queries = json["stats"]["queries"].as_u64().unwrap();
    assert!(queries <= 200, "{queries} queries: {json:#}");
}

#[test]
fn a_fast_path_testing_three_pixels_is_refuted_and_reproduces() {
    let path = harness("over_fast_paths_broken.c");
    let report = tempfile::NamedTempFile::new().unwrap();
    let json = check_json("over_fast_paths_broken.c", report.path());
    let finding = json["findings"].as_array().and_then(|f| f.iter().find(|x| x["kind"] == "mismatch")).cloned().expect("a mismatch");
    assert_eq!(finding["status"], "confirmed", "{json:#}");
    let replay = common::symcross(&["replay", path.to_str().unwrap(), report.path().to_str().unwrap()]);
    assert_eq!(replay.code, 1, "the witness did not reproduce:\n{}\n{}", replay.stdout, replay.stderr);
}
