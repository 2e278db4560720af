//! Warp divergence: work-items of one warp that take different directions
//! at a branch make the warp run both sides one after the other.

use super::Lane;
use crate::expr::{ExprId, ExprPool};

/// Two work-items of the warp whose concrete directions differ: the
/// first taking the branch and the first not taking it, in thread order.
pub fn split(directions: &[(u32, bool)]) -> Option<(u32, u32)> {
    let taken = directions.iter().find(|d| d.1)?.0;
    let not_taken = directions.iter().find(|d| !d.1)?.0;
    Some((taken, not_taken))
}

/// That some work-item of the warp takes another direction than the first.
pub fn diverges(pool: &mut ExprPool, lanes: &[Lane]) -> ExprId {
    let Some(first) = lanes.first() else { return pool.bool_const(false) };
    let mut any = pool.bool_const(false);
    for l in &lanes[1..] {
        let other = pool.xor(first.value, l.value);
        any = pool.or(any, other);
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_names_one_thread_of_each_side() {
        assert_eq!(split(&[(0, true), (1, false), (2, true), (3, false)]), Some((0, 1)));
        assert_eq!(split(&[(0, false), (1, false), (5, true)]), Some((5, 0)));
        assert_eq!(split(&[(0, true), (1, true)]), None);
    }
}
