//! PACKSS/PACKUS: each 128-bit half of the result is the saturated lanes of
//! the first operand's half followed by those of the second's.

use super::lanes::{per_128, sat_signed, sat_unsigned};
use super::rows::Op;
use super::Lowering;
use crate::expr::value::Value;
use crate::expr::ExprPool;

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value]) -> Lowering {
    let Op::Pack { unsigned } = op else {
        return Err("not a pack row".into());
    };
    let to = p.width(a[0][0]) / 2;
    let per = per_128(p, &a[0]);
    let mut out = Value::new();
    for base in (0..a[0].len()).step_by(per) {
        for src in [&a[0], &a[1]] {
            for &x in &src[base..base + per] {
                // Sources are signed in both forms; PACKUS clamps to [0, 2^n-1].
                out.push(if unsigned { sat_unsigned(p, x, to) } else { sat_signed(p, x, to) });
            }
        }
    }
    Ok(out)
}
