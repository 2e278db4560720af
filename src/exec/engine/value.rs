//! Register values. A scalar is one lane; a vector holds one expression per
//! lane (lane 0 first); structs and arrays hold their leaves flattened in
//! order. Keeping lanes apart (rather than one wide bit-vector) makes
//! elementwise operations direct and keeps every expression <= 128 bits.

use crate::expr::ExprId;
use smallvec::SmallVec;

/// A register's value: one expression per lane or leaf, as the module
/// docs say. Four lanes fit without a heap allocation.
pub type Value = SmallVec<[ExprId; 4]>;

/// A one-lane value.
pub fn scalar(e: ExprId) -> Value {
    smallvec::smallvec![e]
}

/// Applies `f` to each lane. Scalars (one lane) take a direct path: this
/// runs for nearly every instruction of concrete code.
pub fn map1(v: &Value, mut f: impl FnMut(ExprId) -> ExprId) -> Value {
    if v.len() == 1 {
        return smallvec::smallvec![f(v[0])];
    }
    let mut out = Value::with_capacity(v.len());
    for x in v {
        out.push(f(*x));
    }
    out
}
