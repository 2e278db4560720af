//! The packed-lanes rewrite (canon/packed_lanes.rs) is sound bit for bit
//! and makes pixman's C spellings meet its SSE2 ones. Its two identities
//! are checked on every value their range conditions allow; each rewrite
//! is checked against its expression by evaluation on edge and random
//! inputs, and by the solver (Z3) or on every input of a lane; known answers: the C word-packed byte
//! multiply and saturating add meet their lane-per-element SSE2 spellings
//! in the integer normal form; a side where a condition fails is left as
//! it is.

use rand::{Rng, SeedableRng};
use symcross::canon::{IntNormalizer, PackedLanes};
use symcross::expr::*;
use symcross::solver::{Query, Solver, SolverResult, Z3Solver};

#[test]
fn byte_multiply_identity_holds_wherever_the_sum_does_not_wrap() {
    // (t + (t >> 8)) >> 8 = (t * 0x101) >> 16 for t < 2^16 with
    // t + (t >> 8) < 2^16: the rewrite's condition at 16 bits.
    let mut checked = 0;
    for t in 0u32..=0xffff {
        if t + (t >> 8) > 0xffff {
            continue;
        }
        assert_eq!((t + (t >> 8)) >> 8, (t * 0x101) >> 16, "t = {t:#x}");
        checked += 1;
    }
    assert_eq!(checked, 0xff01, "every t up to 0xff00");
}

#[test]
fn saturating_add_identity_holds_for_sums_of_nine_bits() {
    // The low byte of t | (c - (t >> 8)) is min(t, 255) for t <= 0x1ff and
    // any c whose low byte is zero (0 in ADD_UN8, 0x100 per lane in
    // UN8_rb_ADD_UN8_rb).
    for c in [0u32, 0x100, 0x1000100, 0xffffff00] {
        for t in 0u32..=0x1ff {
            let got = (t | c.wrapping_sub(t >> 8)) & 0xff;
            assert_eq!(got, t.min(255), "t = {t:#x}, c = {c:#x}");
        }
    }
}

fn z3_proves_equal(p: &mut ExprPool, x: ExprId, y: ExprId) -> Result<(), String> {
    let eq = p.eq(x, y);
    let differ = p.not(eq);
    let q = Query::new(vec![], Some(differ)).with_resource_limit(50_000_000);
    match Z3Solver::new().check(p, &q) {
        SolverResult::Unsat => Ok(()),
        SolverResult::Sat(asg) => Err(format!("differ on {:?}: {:#x} vs {:#x}", asg.arrays, evaluate(p, x, &asg), evaluate(p, y, &asg))),
        SolverResult::Unknown(u) => Err(format!("undecided: {u:?}")),
    }
}

/// Equal on edge and random bytes of arrays 0 and 1 (8 bytes each).
fn agree_on_samples(p: &ExprPool, x: ExprId, y: ExprId) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(29);
    let edges = [0u8, 1, 0x7f, 0x80, 0xfe, 0xff];
    for trial in 0..4000 {
        let mut asg = Assignment::default();
        for a in 0..2 {
            let bytes: Vec<u8> = (0..8).map(|_| if trial < 1000 { edges[rng.gen_range(0..edges.len())] } else { rng.gen() }).collect();
            asg.arrays.insert(a, bytes);
        }
        assert_eq!(
            evaluate(p, x, &asg),
            evaluate(p, y, &asg),
            "inputs {:?}: {} against {}",
            asg.arrays,
            print_expr(p, x),
            print_expr(p, y)
        );
    }
}

fn c32(p: &mut ExprPool, v: u128) -> ExprId {
    p.constant(32, v)
}

/// pixman's UN8_rb_MUL_UN8: the two lanes of `x & 0xff00ff` times `a`
/// divided by 255: `t = (x & RB_MASK) * a + 0x800080;
/// x = ((t + ((t >> 8) & RB_MASK)) >> 8) & RB_MASK`.
fn rb_mul(p: &mut ExprPool, x: ExprId, a: ExprId) -> ExprId {
    let rb = c32(p, 0xff00ff);
    let half = c32(p, 0x800080);
    let eight = c32(p, 8);
    let xm = p.and(x, rb);
    let prod = p.mul(xm, a);
    let t = p.add(prod, half);
    let sh = p.bin(BinOp::LShr, t, eight);
    let hi = p.and(sh, rb);
    let s = p.add(t, hi);
    let r = p.bin(BinOp::LShr, s, eight);
    p.and(r, rb)
}

/// pixman's UN8x4_MUL_UN8: all four bytes of `x` times the byte `a`.
fn c_mul(p: &mut ExprPool, x: ExprId, a: ExprId) -> ExprId {
    let eight = c32(p, 8);
    let r1 = rb_mul(p, x, a);
    let xs = p.bin(BinOp::LShr, x, eight);
    let r2 = rb_mul(p, xs, a);
    let r2s = p.bin(BinOp::Shl, r2, eight);
    p.or(r1, r2s)
}

/// The SSE2 spelling per byte: `_mm_mulhi_epu16(_mm_adds_epu16(
/// _mm_mullo_epi16(x, a), 0x80), 0x0101)`, packed back to bytes.
fn sse2_mul(p: &mut ExprPool, bytes: &[ExprId], a: ExprId) -> ExprId {
    let lanes: Vec<ExprId> = bytes
        .iter()
        .map(|&b| {
            let (x16, a16) = (p.zext(b, 16), p.zext(a, 16));
            let prod = p.mul(x16, a16);
            let half = p.constant(16, 0x80);
            let t = p.add(prod, half);
            let wide = p.zext(t, 32);
            let k = c32(p, 0x101);
            let hi = p.mul(wide, k);
            p.extract(hi, 16, 8)
        })
        .collect();
    let upper = p.concat(lanes[3], lanes[2]);
    let lower = p.concat(lanes[1], lanes[0]);
    p.concat(upper, lower)
}

#[test]
fn packed_byte_multiply_is_rewritten_soundly_and_meets_sse2() {
    let mut p = ExprPool::new();
    let arr = p.new_array("x", 8);
    let alpha = p.new_array("a", 8);
    let x = p.input_word(arr, 0, 32);
    let a8 = p.input_byte(alpha, 3);
    let a = p.zext(a8, 32);
    let c = c_mul(&mut p, x, a);
    let mut lanes = PackedLanes::new();
    let r = lanes.rewrite(&mut p, c);
    assert_ne!(r, c, "the packed multiply is rewritten");
    agree_on_samples(&p, c, r);
    // Every byte value in every lane against every alpha (the 32-bit
    // products make this query too slow for the solver; the lanes are
    // independent, so this covers every input of each lane).
    for v in 0u32..=255 {
        for al in 0u32..=255 {
            let mut asg = Assignment::default();
            let word = [v, v ^ 0x5a, 255 - v, (v * 7) & 0xff].map(|b| b as u8);
            asg.arrays.insert(arr, word.to_vec());
            asg.arrays.insert(alpha, vec![0, 0, 0, al as u8]);
            assert_eq!(evaluate(&p, c, &asg), evaluate(&p, r, &asg), "x {word:?}, a {al}");
        }
    }
    let bytes: Vec<ExprId> = (0..4).map(|i| p.input_byte(arr, i)).collect();
    let s = sse2_mul(&mut p, &bytes, a8);
    let s2 = lanes.rewrite(&mut p, s);
    let mut n = IntNormalizer::new();
    let (nc, ns) = (n.normalize(&mut p, r), n.normalize(&mut p, s2));
    assert_eq!(nc, ns, "C {} against SSE2 {}", print_expr(&p, nc), print_expr(&p, ns));
}

#[test]
fn scalar_byte_multiply_meets_the_multiply_high() {
    // MUL_UN8 on 32-bit scalars: t = a * b + 0x80; ((t >> 8) + t) >> 8.
    let mut p = ExprPool::new();
    let arr = p.new_array("x", 8);
    let (a8, b8) = (p.input_byte(arr, 0), p.input_byte(arr, 1));
    let (a, b) = (p.zext(a8, 32), p.zext(b8, 32));
    let prod = p.mul(a, b);
    let half = c32(&mut p, 0x80);
    let t = p.add(prod, half);
    let eight = c32(&mut p, 8);
    let sh = p.bin(BinOp::LShr, t, eight);
    let s = p.add(sh, t);
    let c = p.bin(BinOp::LShr, s, eight);
    let mut lanes = PackedLanes::new();
    let r = lanes.rewrite(&mut p, c);
    assert_ne!(r, c);
    agree_on_samples(&p, c, r);
    z3_proves_equal(&mut p, c, r).expect("the rewrite is sound");
}

/// pixman's UN8_rb_ADD_UN8_rb on `x & RB_MASK` and `y & RB_MASK`:
/// `t = x + y; t |= RB_MASK_PLUS_ONE - ((t >> 8) & RB_MASK); t & RB_MASK`.
fn rb_add(p: &mut ExprPool, x: ExprId, y: ExprId) -> ExprId {
    let rb = c32(p, 0xff00ff);
    let one = c32(p, 0x1000100);
    let eight = c32(p, 8);
    let (xm, ym) = (p.and(x, rb), p.and(y, rb));
    let t = p.add(xm, ym);
    let sh = p.bin(BinOp::LShr, t, eight);
    let carry = p.and(sh, rb);
    let fill = p.sub(one, carry);
    let t2 = p.or(t, fill);
    p.and(t2, rb)
}

#[test]
fn packed_saturating_add_is_rewritten_soundly_and_meets_adds_epu8() {
    let mut p = ExprPool::new();
    let (ax, ay) = (p.new_array("x", 8), p.new_array("y", 8));
    let (x, y) = (p.input_word(ax, 0, 32), p.input_word(ay, 0, 32));
    let c = rb_add(&mut p, x, y);
    let mut lanes = PackedLanes::new();
    let r = lanes.rewrite(&mut p, c);
    assert_ne!(r, c, "the packed saturating add is rewritten");
    agree_on_samples(&p, c, r);
    z3_proves_equal(&mut p, c, r).expect("the rewrite is sound");
    // _mm_adds_epu8 on bytes 0 and 2: a 9-bit sum clamped to 255.
    let sat = |p: &mut ExprPool, i: u32| {
        let (xb, yb) = (p.input_byte(ax, i), p.input_byte(ay, i));
        let (x9, y9) = (p.zext(xb, 9), p.zext(yb, 9));
        let sum = p.add(x9, y9);
        let max = p.constant(9, 0xff);
        let over = p.cmp(CmpOp::Ult, max, sum);
        let low = p.extract(sum, 0, 8);
        let full = p.constant(8, 0xff);
        p.ite(over, full, low)
    };
    let (b0, b2) = (sat(&mut p, 0), sat(&mut p, 2));
    let zero = p.constant(8, 0);
    let hi = p.concat(zero, b2);
    let lo = p.concat(zero, b0);
    let s = p.concat(hi, lo);
    let mut n = IntNormalizer::new();
    let (nc, ns) = (n.normalize(&mut p, r), n.normalize(&mut p, s));
    assert_eq!(nc, ns, "C {} against SSE2 {}", print_expr(&p, nc), print_expr(&p, ns));
    // One byte of the word read alone: the builder takes the byte of each
    // operand of the `|` apart (as pixman's atop_u ends), and the lane's
    // clamp is still found.
    let byte2 = p.extract(c, 16, 8);
    assert!(matches!(*p.get(byte2), Expr::Bin(BinOp::Or, ..)), "{}", print_expr(&p, byte2));
    let r2 = lanes.rewrite(&mut p, byte2);
    assert_ne!(r2, byte2, "the byte's clamp is rewritten");
    agree_on_samples(&p, byte2, r2);
    z3_proves_equal(&mut p, byte2, r2).expect("the rewrite is sound");
    let (nb, ns2) = (n.normalize(&mut p, r2), n.normalize(&mut p, b2));
    assert_eq!(nb, ns2, "C {} against SSE2 {}", print_expr(&p, nb), print_expr(&p, ns2));
}

#[test]
fn a_sum_that_may_wrap_is_left_as_it_is() {
    // t a full 16-bit word: t + (t >> 8) can wrap, so the multiply-high
    // spelling would differ (t = 0xffff: 0x00 against 0xff).
    let mut p = ExprPool::new();
    let arr = p.new_array("w", 8);
    let t = p.input_word(arr, 0, 16);
    let eight = p.constant(16, 8);
    let sh = p.bin(BinOp::LShr, t, eight);
    let s = p.add(t, sh);
    let c = p.bin(BinOp::LShr, s, eight);
    let mut lanes = PackedLanes::new();
    assert_eq!(lanes.rewrite(&mut p, c), c);
    // A sum of up to 0x3fe may set bit 9: not a saturating add.
    let (xb, yb, zb) = (p.input_byte(arr, 2), p.input_byte(arr, 3), p.input_byte(arr, 4));
    let (x, y, z) = (p.zext(xb, 32), p.zext(yb, 32), p.zext(zb, 32));
    let xy = p.add(x, y);
    let t = p.add(xy, z);
    let eight = c32(&mut p, 8);
    let sh = p.bin(BinOp::LShr, t, eight);
    let zero = c32(&mut p, 0);
    let fill = p.sub(zero, sh);
    let o = p.or(t, fill);
    let low = p.extract(o, 0, 8);
    assert_eq!(lanes.rewrite(&mut p, low), low);
}
