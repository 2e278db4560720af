//! Ranges narrowed by the facts of one path (`symcross_assume(x >= -2048
//! && x < 2048)` bounds `x` from there on), for questions asked while the
//! path is being explored. A path's constraints only grow as it goes on, so
//! the facts of the constraints added since the last question are added to
//! those already read; a different path (another state, or a rewritten
//! condition) starts again from nothing. Every fact used is a constraint
//! of the path asked about, so what these ranges say holds on that path.

use super::{path_facts, RangeAnalysis};
use crate::expr::{ExprId, ExprPool};

/// The ranges of the last path asked about, and that path's constraints.
#[derive(Default)]
pub struct PathRanges {
    path: Vec<ExprId>,
    ranges: RangeAnalysis,
}

impl PathRanges {
    /// The ranges on `path` (a conjunction of constraints that hold).
    pub fn on(&mut self, pool: &mut ExprPool, path: &[ExprId]) -> &mut RangeAnalysis {
        if !path.starts_with(&self.path) {
            *self = PathRanges::default();
        }
        if path.len() > self.path.len() {
            for (e, r) in path_facts(pool, &path[self.path.len()..]) {
                self.ranges.add_fact(e, r);
            }
            self.path.extend_from_slice(&path[self.path.len()..]);
        }
        &mut self.ranges
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::CmpOp;
    use crate::ranges::Interval;

    /// A bound read on one path is not used on another that lacks it, and
    /// bounds added later on the same path narrow the earlier ones.
    #[test]
    fn facts_follow_the_path_asked_about() {
        let mut p = ExprPool::new();
        let a = p.new_array("x", 4);
        let x = p.input_word(a, 0, 32);
        let lo = p.constant(32, (-2048i128) as u128);
        let hi = p.constant(32, 2048);
        let hundred = p.constant(32, 100);
        let below = p.cmp(CmpOp::Slt, x, lo);
        let ge = p.not(below);
        let lt = p.cmp(CmpOp::Slt, x, hi);
        let lt100 = p.cmp(CmpOp::Slt, x, hundred);
        let mut ranges = PathRanges::default();
        assert_eq!(ranges.on(&mut p, &[ge, lt]).range(&p, x).signed, Interval::new(-2048, 2047));
        assert_eq!(ranges.on(&mut p, &[ge, lt, lt100]).range(&p, x).signed, Interval::new(-2048, 99));
        assert_eq!(ranges.on(&mut p, &[lt]).range(&p, x).signed, Interval::new(i32::MIN as i128, 2047));
        assert_eq!(ranges.on(&mut p, &[]).range(&p, x).signed, Interval::signed_full(32));
    }
}
