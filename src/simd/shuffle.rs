//! Data-dependent selections: PSHUFB, BLENDV, VPERMILPS/PD (variable),
//! VPERMD/VPERMPS and INSERTPS. Selections move bits unchanged, NaN
//! payloads included.

use super::lanes::{imm, per_128, select_lane, sign_bit};
use super::rows::Op;
use super::Lowering;
use crate::expr::value::Value;
use crate::expr::{ExprId, ExprPool, FpFormat};

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value]) -> Lowering {
    let x = &a[0];
    let out: Value = match op {
        Op::Pshufb => pshufb(p, x, &a[1]),
        // The mask lane's sign bit picks the second operand.
        Op::Blendv => (0..x.len())
            .map(|i| {
                let s = sign_bit(p, a[2][i]);
                p.ite(s, a[1][i], x[i])
            })
            .collect(),
        Op::PermilVar { f } => permil(p, f, x, &a[1]),
        Op::Perm8 => (0..x.len()).map(|i| select_lane(p, x, a[1][i])).collect(),
        Op::InsertPs => insertps(p, x, &a[1], imm(p, &a[2])),
        _ => return Err("not a shuffle row".into()),
    };
    Ok(out)
}

/// Per 128-bit half: byte i is 0 if control bit 7 is set, else the byte of
/// the same half indexed by the control's low 4 bits.
fn pshufb(p: &mut ExprPool, x: &[ExprId], ctl: &[ExprId]) -> Value {
    let zero = p.constant(8, 0);
    let mut out = Value::new();
    for base in (0..x.len()).step_by(16) {
        let table = &x[base..base + 16];
        for &c in &ctl[base..base + 16] {
            let picked = select_lane(p, table, c);
            let off = p.extract(c, 7, 1);
            out.push(p.ite(off, zero, picked));
        }
    }
    out
}

/// VPERMILPS uses selector bits 1:0, VPERMILPD bit 1, within each half.
fn permil(p: &mut ExprPool, f: FpFormat, x: &[ExprId], ctl: &[ExprId]) -> Value {
    let per = per_128(p, x);
    let mut out = Value::new();
    for base in (0..x.len()).step_by(per) {
        for &c in &ctl[base..base + per] {
            let index = if f == FpFormat::Double { p.extract(c, 1, 1) } else { c };
            out.push(select_lane(p, &x[base..base + per], index));
        }
    }
    out
}

/// INSERTPS: lane imm[5:4] takes b[imm[7:6]], then lanes in imm[3:0] are zeroed.
fn insertps(p: &mut ExprPool, a: &[ExprId], b: &[ExprId], m: u32) -> Value {
    let mut out: Value = a.iter().copied().collect();
    out[((m >> 4) & 3) as usize] = b[((m >> 6) & 3) as usize];
    let zero = p.constant(32, 0);
    for (i, lane) in out.iter_mut().enumerate() {
        if m & (1 << i) != 0 {
            *lane = zero;
        }
    }
    out
}
