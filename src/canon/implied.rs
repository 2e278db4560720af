//! KLEE-CL section 6.3 placeholder (filled in below when implemented).
use crate::expr::{ExprId, ExprPool};

/// Maps a failure condition to an integer-only query implied by it.
pub fn implied_integer_query(_pool: &mut ExprPool, _failure: ExprId) -> Option<ExprId> {
    None
}
