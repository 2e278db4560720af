//! The reciprocal and reciprocal square root estimates (FRECPE, FRSQRTE,
//! URECPE, URSQRTE). The Arm ARM defines them exactly: the operand is
//! scaled to a fixed-point value, its top bits index a table (computed by
//! RecipEstimate / RecipSqrtEstimate), and the result's exponent is derived
//! from the operand's. Both tables are built here from those definitions
//! and looked up with a select tree, so symbolic operands work too.

use super::nan::{default_nan, quieted};
use super::rows::Op;
use super::Lowering;
use crate::expr::value::Value;
use crate::expr::{mask, BinOp, CmpOp, Estimate, EstimateKind, ExprId, ExprPool, FpFormat};
use crate::simd::lanes::select_lane;

/// RecipEstimate: `a` in 256..511 is a fixed-point value in [0.5, 1);
/// the result in 256..511 is 1/a in [1, 2), rounded to nearest.
fn recip_estimate(a: u32) -> u32 {
    let a = a * 2 + 1;
    let b = (1u32 << 19) / a;
    b.div_ceil(2)
}

/// RecipSqrtEstimate: `a` in 128..511 is a fixed-point value in
/// [0.25, 1); the result in 256..511 is 1/sqrt(a) in [1, 2).
fn recip_sqrt_estimate(a: u32) -> u32 {
    // In units of 1/1024: below 0.5 the lowest bit is kept and rounded
    // (a*2+1); from 0.5 up the lowest bit is dropped, then rounded.
    let a = if a < 256 { a * 2 + 1 } else { ((a & !1) + 1) * 2 };
    recip_sqrt_search(a as u64)
}

/// The largest b with a * (b+1)^2 < 2^28 (starting at 512), halved with
/// rounding.
fn recip_sqrt_search(a: u64) -> u32 {
    let mut b: u64 = 512;
    while a * (b + 1) * (b + 1) < (1u64 << 28) {
        b += 1;
    }
    b.div_ceil(2) as u32
}

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value]) -> Lowering {
    let mut out = Value::new();
    for &x in a[0].iter() {
        let w = p.width(x);
        out.push(match op {
            Op::FRecpE => noted(p, EstimateKind::ArmReciprocal, x, |p| Ok(frecpe(p, float_of(w)?, x)))?,
            Op::FRsqrtE => noted(p, EstimateKind::ArmReciprocalSqrt, x, |p| Ok(frsqrte(p, float_of(w)?, x)))?,
            Op::URecpE | Op::URsqrtE if w == 32 => unsigned_estimate(p, op == Op::URsqrtE, x),
            Op::URecpE | Op::URsqrtE => return Err(format!("{w}-bit lanes (URECPE/URSQRTE take 32-bit lanes)")),
            _ => return Err("not an estimate row".into()),
        });
    }
    Ok(out)
}

/// A float estimate, recorded (single precision) with its operand so that
/// an analysis can use the table's bound on the relative error instead of
/// the table itself (expr/estimate.rs).
fn noted(
    p: &mut ExprPool,
    kind: EstimateKind,
    x: ExprId,
    lane: impl FnOnce(&mut ExprPool) -> Result<ExprId, String>,
) -> Result<ExprId, String> {
    let r = lane(p)?;
    if p.width(x) == 32 && p.as_const(r).is_none() {
        p.note_estimate(r, Estimate { kind, input: x, fresh: None });
    }
    Ok(r)
}

fn float_of(w: u32) -> Result<FpFormat, String> {
    FpFormat::from_width(w).filter(|f| *f != FpFormat::Half).ok_or_else(|| format!("{w}-bit float lanes not modelled"))
}

/// A table of constants of `width` bits, indexed from 0.
fn table(p: &mut ExprPool, len: usize, width: u32, entry: impl Fn(u32) -> u32) -> Vec<ExprId> {
    (0..len as u32).map(|i| p.constant(width, entry(i) as u128)).collect()
}

/// Bit fields of a float: (sign, biased exponent, fraction), and the
/// fraction width.
fn fields(p: &mut ExprPool, f: FpFormat, x: ExprId) -> (ExprId, ExprId, ExprId, u32) {
    let w = f.width();
    let fb = f.significand_bits() - 1;
    let sign = p.extract(x, w - 1, 1);
    let exp = p.extract(x, fb, f.exponent_bits());
    let frac = p.extract(x, 0, fb);
    (sign, exp, frac, fb)
}

fn assemble(p: &mut ExprPool, sign: ExprId, exp: ExprId, frac: ExprId) -> ExprId {
    let body = p.concat(exp, frac);
    p.concat(sign, body)
}

/// Infinity or zero of the given sign.
fn special(p: &mut ExprPool, f: FpFormat, sign: ExprId, infinite: bool) -> ExprId {
    let eb = f.exponent_bits();
    let exp = p.constant(eb, if infinite { mask(eb) } else { 0 });
    let frac = p.constant(f.significand_bits() - 1, 0);
    assemble(p, sign, exp, frac)
}

fn frecpe(p: &mut ExprPool, f: FpFormat, x: ExprId) -> ExprId {
    let (sign, exp, frac, fb) = fields(p, f, x);
    let eb = f.exponent_bits();
    let ew = eb + 2; // signed room for exponents -1 .. 2^eb
    let zero_e = p.constant(eb, 0);
    let denormal = p.eq(exp, zero_e);
    let top1 = p.extract(frac, fb - 1, 1);
    let top2 = p.extract(frac, fb - 2, 1);
    // The 8 bits after the leading one, and the exponent of the scaled value.
    let idx_normal = p.extract(frac, fb - 8, 8);
    let idx_d1 = p.extract(frac, fb - 9, 8);
    let idx_d2 = p.extract(frac, fb - 10, 8);
    let idx_d = p.ite(top1, idx_d1, idx_d2);
    let idx = p.ite(denormal, idx_d, idx_normal);
    let e_normal = p.zext(exp, ew);
    let e0 = p.constant(ew, 0);
    let em1 = p.constant(ew, mask(ew));
    let e_d = p.ite(top1, e0, em1);
    let e = p.ite(denormal, e_d, e_normal);
    let tab = table(p, 256, 8, |i| recip_estimate(256 + i) & 0xff);
    let est = select_lane(p, &tab, idx);
    // result_exp = 2*bias - 1 - e (253 for single, 2045 for double).
    let bias2 = p.constant(ew, 2 * mask(eb - 1) - 1);
    let rexp = p.sub(bias2, e);
    let est_f = p.zext(est, fb);
    let sh = |p: &mut ExprPool, k: u32| {
        let c = p.constant(fb, k as u128);
        p.bin(BinOp::Shl, est_f, c)
    };
    let frac_n = sh(p, fb - 8);
    let frac_0 = sh(p, fb - 9);
    let one_hi = p.constant(fb, 1u128 << (fb - 1));
    let frac_0 = p.or(frac_0, one_hi);
    let frac_m1 = sh(p, fb - 10);
    let one_hi2 = p.constant(fb, 1u128 << (fb - 2));
    let frac_m1 = p.or(frac_m1, one_hi2);
    let rexp_zero = p.eq(rexp, e0);
    let rexp_m1 = p.eq(rexp, em1);
    let frac_r = p.ite(rexp_zero, frac_0, frac_n);
    let frac_r = p.ite(rexp_m1, frac_m1, frac_r);
    let rexp_e = p.trunc(rexp, eb);
    let rexp_e = p.ite(rexp_m1, zero_e, rexp_e);
    let normal_result = assemble(p, sign, rexp_e, frac_r);
    // Special cases, in the ARM's order of tests.
    let fzero = p.constant(fb, 0);
    let frac_zero = p.eq(frac, fzero);
    let ones_e = p.constant(eb, mask(eb));
    let max_e = p.eq(exp, ones_e);
    let nan = p.is_nan(f, x);
    let inf = p.bool_and(max_e, frac_zero);
    let either_top = p.bool_or(top1, top2);
    let tiny = p.not(either_top);
    let tiny = p.bool_and(denormal, tiny); // zeros included: both give infinity
    let inf_r = special(p, f, sign, true);
    let zero_r = special(p, f, sign, false);
    let q = quieted(p, f, x);
    let r = p.ite(tiny, inf_r, normal_result);
    let r = p.ite(inf, zero_r, r);
    p.ite(nan, q, r)
}

fn frsqrte(p: &mut ExprPool, f: FpFormat, x: ExprId) -> ExprId {
    let (sign, exp, frac, fb) = fields(p, f, x);
    let eb = f.exponent_bits();
    let ew = eb + 2;
    let zero_e = p.constant(eb, 0);
    let denormal = p.eq(exp, zero_e);
    // Normalise a subnormal: shift the fraction left past its leading one,
    // lowering the exponent by the number of leading zeros.
    let mut e = p.zext(exp, ew);
    let mut fr = frac;
    let mut denormal_e = p.constant(ew, 0);
    let mut denormal_f = p.constant(fb, 0);
    for z in (0..fb).rev() {
        let bit = p.extract(frac, fb - 1 - z, 1);
        let ez = p.constant(ew, (z as u128).wrapping_neg() & mask(ew));
        let amount = p.constant(fb, (z + 1) as u128);
        let fz = p.bin(BinOp::Shl, frac, amount);
        denormal_e = p.ite(bit, ez, denormal_e);
        denormal_f = p.ite(bit, fz, denormal_f);
    }
    e = p.ite(denormal, denormal_e, e);
    fr = p.ite(denormal, denormal_f, fr);
    let odd = p.extract(e, 0, 1);
    // Even exponent: '1':frac<top 8> (256..511); odd: '01':frac<top 7> (128..255).
    let top8 = p.extract(fr, fb - 8, 8);
    let top7 = p.extract(fr, fb - 7, 7);
    let even_idx = p.zext(top8, 9);
    let c256 = p.constant(9, 256);
    let even_idx = p.or(even_idx, c256);
    let odd_idx = p.zext(top7, 9);
    let c128 = p.constant(9, 128);
    let odd_idx = p.or(odd_idx, c128);
    let idx = p.ite(odd, odd_idx, even_idx);
    let tab = table(p, 512, 8, |i| if i < 128 { 0 } else { recip_sqrt_estimate(i) & 0xff });
    let est = select_lane(p, &tab, idx);
    // result_exp = (3*bias - 1 - e) DIV 2: 380 for single, 3068 for double.
    let c = p.constant(ew, 3 * mask(eb - 1) - 1);
    let num = p.sub(c, e);
    let one = p.constant(ew, 1);
    let rexp = p.bin(BinOp::LShr, num, one);
    let rexp = p.trunc(rexp, eb);
    let est_f = p.zext(est, fb);
    let shift = p.constant(fb, (fb - 8) as u128);
    let frac_r = p.bin(BinOp::Shl, est_f, shift);
    let plus = p.constant(1, 0);
    let normal_result = assemble(p, plus, rexp, frac_r);
    let fzero = p.constant(fb, 0);
    let frac_zero = p.eq(frac, fzero);
    let zero = p.bool_and(denormal, frac_zero);
    let ones_e = p.constant(eb, mask(eb));
    let max_e = p.eq(exp, ones_e);
    let inf = p.bool_and(max_e, frac_zero);
    let nan = p.is_nan(f, x);
    let negative = p.extract(x, f.width() - 1, 1);
    let inf_r = special(p, f, sign, true);
    let plus_zero = special(p, f, plus, false);
    let dnan = default_nan(p, f);
    let q = quieted(p, f, x);
    let r = p.ite(inf, plus_zero, normal_result);
    let r = p.ite(negative, dnan, r);
    let r = p.ite(zero, inf_r, r);
    p.ite(nan, q, r)
}

/// URECPE: 0xFFFFFFFF below 0.5 (top bit clear), else '1':estimate<7:0>
/// followed by zeros; URSQRTE: 0xFFFFFFFF below 0.25, else estimate<8:0>
/// followed by zeros. The operand is a fixed-point fraction.
fn unsigned_estimate(p: &mut ExprPool, sqrt: bool, x: ExprId) -> ExprId {
    let idx = p.extract(x, 23, 9);
    let (tab, low) = if sqrt {
        (table(p, 512, 9, |i| if i < 128 { 0 } else { recip_sqrt_estimate(i) & 0x1ff }), 0x4000_0000u128)
    } else {
        (table(p, 512, 9, |i| if i < 256 { 0 } else { (recip_estimate(i) & 0xff) | 0x100 }), 0x8000_0000u128)
    };
    let est = select_lane(p, &tab, idx);
    let zeros = p.constant(23, 0);
    let r = p.concat(est, zeros);
    let limit = p.constant(32, low);
    let below = p.cmp(CmpOp::Ult, x, limit);
    let all = p.constant(32, mask(32));
    p.ite(below, all, r)
}
