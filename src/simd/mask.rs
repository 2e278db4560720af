//! Sign-bit and flag results: MOVMSKPS/PD, PMOVMSKB, PTEST/VTEST, and the
//! CRC32C instruction of SSE4.2.

use super::lanes::sign_bit;
use super::rows::{Op, TestKind};
use super::Lowering;
use crate::expr::value::{scalar, Value};
use crate::expr::{ExprId, ExprPool};

/// CRC32C polynomial, bit-reflected (the instruction processes LSB first).
const CRC32C_REFLECTED: u128 = 0x82F6_3B78;

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value]) -> Lowering {
    match op {
        Op::Movmsk => {
            let mut bits = Vec::new();
            for &lane in a[0].iter().rev() {
                bits.push(sign_bit(p, lane));
            }
            let mut acc = bits[0];
            for &b in &bits[1..] {
                acc = p.concat(acc, b);
            }
            Ok(scalar(p.zext(acc, 32)))
        }
        Op::Test { kind, sign_only } => Ok(scalar(test(p, kind, sign_only, &a[0], &a[1]))),
        Op::Crc32 => Ok(scalar(crc32(p, a[0][0], a[1][0]))),
        _ => Err("not a mask row".into()),
    }
}

/// ZF = (a & b) == 0, CF = (!a & b) == 0, over all bits or sign bits only.
fn test(p: &mut ExprPool, kind: TestKind, sign_only: bool, a: &[ExprId], b: &[ExprId]) -> ExprId {
    let mut zf = p.bool_const(true);
    let mut cf = p.bool_const(true);
    for i in 0..a.len() {
        let (x, y) = if sign_only { (sign_bit(p, a[i]), sign_bit(p, b[i])) } else { (a[i], b[i]) };
        let zero = p.constant(p.width(x), 0);
        let and = p.and(x, y);
        let nx = p.not(x);
        let andn = p.and(nx, y);
        let z = p.eq(and, zero);
        let c = p.eq(andn, zero);
        zf = p.bool_and(zf, z);
        cf = p.bool_and(cf, c);
    }
    let flag = match kind {
        TestKind::Z => zf,
        TestKind::C => cf,
        TestKind::Nzc => {
            let (nz, nc) = (p.not(zf), p.not(cf));
            p.bool_and(nz, nc)
        }
    };
    p.zext(flag, 32)
}

/// CRC32C of `data` (8..64 bits) onto the low 32 bits of `crc`; the 64-bit
/// form zero-extends its 32-bit result.
fn crc32(p: &mut ExprPool, crc: ExprId, data: ExprId) -> ExprId {
    let out_w = p.width(crc);
    let dw = p.width(data);
    let c32 = p.trunc(crc, 32);
    let d = p.zext(data, 64.max(dw));
    let d = p.zext(d, 64);
    let c = p.zext(c32, 64);
    let mut r = p.xor(c, d);
    let poly = p.constant(64, CRC32C_REFLECTED);
    let one = p.constant(64, 1);
    for _ in 0..dw {
        let low = p.extract(r, 0, 1);
        let shifted = p.bin(crate::expr::BinOp::LShr, r, one);
        let xored = p.xor(shifted, poly);
        r = p.ite(low, xored, shifted);
    }
    let r = p.trunc(r, 32);
    p.zext(r, out_w)
}
