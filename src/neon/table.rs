//! TBL/TBX: byte lookup in one to four 16-byte table registers. An index
//! at or beyond the table's size gives 0 (TBL) or leaves the destination
//! byte as it was (TBX); indices may be symbolic.

use super::rows::Op;
use super::Lowering;
use crate::expr::value::Value;
use crate::expr::{CmpOp, ExprId, ExprPool};
use crate::simd::lanes::select_lane;

pub fn lower(p: &mut ExprPool, op: Op, a: &[Value]) -> Lowering {
    let Op::Tbl { tables, extend } = op else { return Err("not a table row".into()) };
    let first_table = usize::from(extend);
    let mut table: Vec<ExprId> = Vec::with_capacity(64);
    for t in &a[first_table..first_table + tables] {
        if t.len() != 16 || t.iter().any(|&b| p.width(b) != 8) {
            return Err("table registers must be 16 bytes".into());
        }
        table.extend(t.iter().copied());
    }
    let size = table.len();
    // Padded to a power of two for the select tree; padding is never read
    // (those indices are out of range).
    let zero = p.constant(8, 0);
    table.resize(size.next_power_of_two(), zero);
    let indices = &a[first_table + tables];
    let mut out = Value::new();
    for (i, &idx) in indices.iter().enumerate() {
        let fallback = if extend { *a[0].get(i).ok_or("destination has fewer lanes")? } else { zero };
        let picked = select_lane(p, &table, idx);
        let limit = p.constant(8, size as u128);
        let inside = p.cmp(CmpOp::Ult, idx, limit);
        out.push(p.ite(inside, picked, fallback));
    }
    Ok(out)
}
