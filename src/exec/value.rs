//! Register values. A scalar is one lane; a vector holds one expression per
//! lane (lane 0 first); structs and arrays hold their leaves flattened in
//! order. Keeping lanes apart (rather than one wide bit-vector) makes
//! elementwise operations direct and keeps every expression <= 128 bits.

use crate::expr::ExprId;
use smallvec::SmallVec;

pub type Value = SmallVec<[ExprId; 4]>;

pub fn scalar(e: ExprId) -> Value {
    smallvec::smallvec![e]
}
