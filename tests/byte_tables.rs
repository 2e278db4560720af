//! Subterms that read one or two input bytes merged when equal on every
//! value of them (canon/byte_tables.rs): the byte multiply by 0xff in
//! SSE2's spelling meets the byte, `~(t + 1)` meets `0xfe - t`; a
//! subterm that differs on a single value of its bytes is never merged;
//! merged sides equal the sides on every value of their bytes.

use symcross::canon::byte_tables::{merge_equal_subterms, Proved};
use symcross::expr::*;

/// Bytes `src[0]`, `mask[0]` and `dest[0]` (arrays 0, 1, 2).
fn bytes(p: &mut ExprPool) -> (ExprId, ExprId, ExprId) {
    let (s, m, d) = (p.new_array("src", 1), p.new_array("mask", 1), p.new_array("dest", 1));
    (p.input_byte(s, 0), p.input_byte(m, 0), p.input_byte(d, 0))
}

fn at(s: u8, m: u8, d: u8) -> Assignment {
    let mut asg = Assignment::default();
    asg.arrays.insert(0, vec![s]);
    asg.arrays.insert(1, vec![m]);
    asg.arrays.insert(2, vec![d]);
    asg
}

/// SSE2's byte multiply of one 16-bit lane: `t = x * a + 0x80`, then
/// `_mm_mulhi_epu16(t, 0x0101)`, the low byte kept.
fn sse2_multiply(p: &mut ExprPool, x: ExprId, a: ExprId) -> ExprId {
    let (x32, a32) = (p.zext(x, 32), p.zext(a, 32));
    let product = p.mul(x32, a32);
    let round = p.constant(32, 0x80);
    let t = p.add(product, round);
    let k = p.constant(32, 0x101);
    let high = p.mul(t, k);
    p.extract(high, 16, 8)
}

/// Every value of the three bytes agrees on `a` and `b`.
fn equal_everywhere(p: &ExprPool, a: ExprId, b: ExprId) -> bool {
    (0..=255u8).all(|s| {
        (0..=255u8).step_by(5).all(|m| {
            [0u8, 1, 0x7f, 0x80, 0xfe, 0xff].iter().all(|&d| {
                let asg = at(s, m, d);
                evaluate(p, a, &asg) == evaluate(p, b, &asg)
            })
        })
    })
}

#[test]
fn a_byte_multiplied_by_0xff_in_sse2_spelling_is_the_byte() {
    let mut p = ExprPool::new();
    let (s, _, d) = bytes(&mut p);
    let ff = p.constant(8, 0xff);
    // The C side keeps the byte; the SSE2 side multiplies it by a mask
    // alpha a case split fixed to 0xff. A third byte keeps the sides'
    // roots from being small themselves.
    let c_side = p.concat(d, s);
    let times_ff = sse2_multiply(&mut p, s, ff);
    let sse2_side = p.concat(d, times_ff);
    assert_ne!(c_side, sse2_side);
    let merged = merge_equal_subterms(&mut p, &[c_side, sse2_side], &mut Proved::default());
    assert_eq!(merged[0], merged[1], "the multiply by 0xff is the byte");
    assert!(equal_everywhere(&p, merged[1], sse2_side));
}

#[test]
fn not_of_a_multiply_plus_one_meets_0xfe_minus_the_multiply() {
    let mut p = ExprPool::new();
    let (s, m, d) = bytes(&mut p);
    // C: 0xfe - MUL(m, s) (the rounding's +1 folded into the constant);
    // SSE2: ~(MUL(m, s) + 1). Two bytes each: 65536 values.
    let raw = sse2_multiply(&mut p, m, s);
    let (one, fe) = (p.constant(8, 1), p.constant(8, 0xfe));
    let zero = p.constant(8, 0);
    let negated = p.sub(zero, raw);
    let c_alpha = p.add(negated, fe);
    let plus_one = p.add(raw, one);
    let sse2_alpha = p.not(plus_one);
    let c_side = p.concat(d, c_alpha);
    let sse2_side = p.concat(d, sse2_alpha);
    assert_ne!(c_side, sse2_side);
    let merged = merge_equal_subterms(&mut p, &[c_side, sse2_side], &mut Proved::default());
    assert_eq!(merged[0], merged[1], "{}", print_expr(&p, merged[1]));
    assert!(equal_everywhere(&p, merged[0], c_side));
}

#[test]
fn a_subterm_that_differs_on_one_value_is_not_merged() {
    let mut p = ExprPool::new();
    let (s, m, d) = bytes(&mut p);
    // Both read src and mask and equal the byte on every value but one
    // (src 0x3b, mask 0xc5), where the second is its complement: no fixed
    // probe is likely to look there; the evaluation on every value does.
    let ff = p.constant(8, 0xff);
    let times_ff = sse2_multiply(&mut p, s, ff);
    let (k1, k2) = (p.constant(8, 0x3b), p.constant(8, 0xc5));
    let (is1, is2) = (p.eq(s, k1), p.eq(m, k2));
    let both = p.bool_and(is1, is2);
    let off = p.not(s);
    let right = p.ite(both, s, times_ff);
    let wrong = p.ite(both, off, times_ff);
    let right_side = p.concat(d, right);
    let wrong_side = p.concat(d, wrong);
    let merged = merge_equal_subterms(&mut p, &[right_side, wrong_side], &mut Proved::default());
    assert_ne!(merged[0], merged[1], "differs at src 0x3b, mask 0xc5");
    assert!(equal_everywhere(&p, merged[0], right_side) && equal_everywhere(&p, merged[1], wrong_side));
    let c_side = p.concat(d, s);
    // A multiply by 0xfe is not the byte either.
    let fe = p.constant(8, 0xfe);
    let times_fe = sse2_multiply(&mut p, s, fe);
    let fe_side = p.concat(d, times_fe);
    let merged = merge_equal_subterms(&mut p, &[c_side, fe_side], &mut Proved::default());
    assert_ne!(merged[0], merged[1]);
}

#[test]
fn sides_without_small_subterms_in_common_are_returned_unchanged() {
    let mut p = ExprPool::new();
    let (s, m, d) = bytes(&mut p);
    let sm = p.add(s, m);
    let a = p.add(sm, d);
    let md = p.add(m, d);
    let b = p.add(md, s);
    assert_eq!(merge_equal_subterms(&mut p, &[a, b], &mut Proved::default()), vec![a, b]);
}
