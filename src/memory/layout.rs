//! How register values are laid out in memory (little-endian, LLVM's x86-64
//! and spir64 data layouts): values to bytes and back. Padding bytes of
//! structs are `None` so a store leaves them untouched.

use crate::expr::value::Value;
use crate::expr::value::{bit_range, relane};
use crate::expr::{ExprId, ExprPool};
use crate::ir::Type;

/// The bytes of `v` (of type `t`), `None` for padding.
pub fn value_to_bytes(p: &mut ExprPool, t: &Type, v: &[ExprId]) -> smallvec::SmallVec<[Option<ExprId>; 32]> {
    let mut out = smallvec::smallvec![None; t.store_size() as usize];
    write_into(p, t, v, &mut out, 0);
    out
}

fn write_into(p: &mut ExprPool, t: &Type, v: &[ExprId], out: &mut [Option<ExprId>], at: usize) {
    match t {
        Type::Struct { fields, offsets, .. } => {
            let mut leaf = 0;
            for (f, off) in fields.iter().zip(offsets) {
                let n = f.lanes() as usize;
                write_into(p, f, &v[leaf..leaf + n], out, at + *off as usize);
                leaf += n;
            }
        }
        Type::Array { elem, len } => {
            let n = elem.lanes() as usize;
            for k in 0..*len as usize {
                write_into(p, elem, &v[k * n..(k + 1) * n], out, at + k * elem.size() as usize);
            }
        }
        Type::Vector { elem, .. } if elem.scalar_bits() % 8 != 0 => {
            // Packed bits (vectors of i1): lane 0 in the lowest bit.
            let mut lanes: Vec<ExprId> = v.to_vec();
            let total: u32 = lanes.iter().map(|l| p.width(*l)).sum();
            let padded = total.div_ceil(8) * 8;
            if padded > total {
                lanes.push(p.constant(padded - total, 0));
            }
            for (k, b) in relane(p, &lanes, 8).into_iter().enumerate() {
                out[at + k] = Some(b);
            }
        }
        Type::Vector { elem, .. } => {
            let step = elem.size() as usize;
            for (k, lane) in v.iter().enumerate() {
                write_scalar(p, *lane, out, at + k * step);
            }
        }
        _ => write_scalar(p, v[0], out, at),
    }
}

fn write_scalar(p: &mut ExprPool, x: ExprId, out: &mut [Option<ExprId>], at: usize) {
    let w = p.width(x);
    let bytes = w.div_ceil(8);
    if let Some(v) = p.as_const(x) {
        for k in 0..bytes {
            out[at + k as usize] = Some(p.constant(8, (v >> (8 * k)) & 0xff));
        }
        return;
    }
    let x = if !w.is_multiple_of(8) { p.zext(x, bytes * 8) } else { x };
    for k in 0..bytes {
        out[at + k as usize] = Some(p.extract(x, k * 8, 8));
    }
}

/// The value of type `t` held in `bytes`.
pub fn bytes_to_value(p: &mut ExprPool, t: &Type, bytes: &[ExprId]) -> Value {
    let mut out = Value::new();
    read_from(p, t, bytes, 0, &mut out);
    out
}

fn read_from(p: &mut ExprPool, t: &Type, bytes: &[ExprId], at: usize, out: &mut Value) {
    match t {
        Type::Struct { fields, offsets, .. } => {
            for (f, off) in fields.iter().zip(offsets) {
                read_from(p, f, bytes, at + *off as usize, out);
            }
        }
        Type::Array { elem, len } => {
            for k in 0..*len as usize {
                read_from(p, elem, bytes, at + k * elem.size() as usize, out);
            }
        }
        Type::Vector { elem, len } if elem.scalar_bits() % 8 != 0 => {
            let w = elem.scalar_bits();
            let nbytes = (w * len).div_ceil(8) as usize;
            let src: Vec<ExprId> = bytes[at..at + nbytes].to_vec();
            for k in 0..*len {
                out.push(bit_range(p, &src, k * w, w));
            }
        }
        Type::Vector { elem, len } => {
            let step = elem.size() as usize;
            for k in 0..*len as usize {
                out.push(read_scalar(p, elem.scalar_bits(), bytes, at + k * step));
            }
        }
        t => out.push(read_scalar(p, t.scalar_bits().max(1), bytes, at)),
    }
}

fn read_scalar(p: &mut ExprPool, w: u32, bytes: &[ExprId], at: usize) -> ExprId {
    let n = w.div_ceil(8) as usize;
    // Concrete bytes: assemble the number directly (the common case).
    let mut value: u128 = 0;
    let mut concrete = true;
    for k in (0..n).rev() {
        match p.as_const(bytes[at + k]) {
            Some(b) => value = (value << 8) | b,
            None => {
                concrete = false;
                break;
            }
        }
    }
    if concrete {
        return p.constant(w, value);
    }
    let mut acc = bytes[at + n - 1];
    for k in (0..n - 1).rev() {
        acc = p.concat(acc, bytes[at + k]);
    }
    if !w.is_multiple_of(8) {
        p.trunc(acc, w)
    } else {
        acc
    }
}
