//! Range knowledge: interval facts about integer expressions, from the
//! widths of their inputs (a byte is below 256) and from the path
//! condition (`symcross_assume(x >= -2048 & x < 2048)`), so that the
//! integer normal form (`canon::IntNormalizer`) can tell when a 16-bit sum
//! cannot overflow, a saturation never clamps, or a sign extension is a
//! zero extension.
//!
//! Files: `interval.rs` (the two readings of a value, and interval
//! arithmetic), `analysis.rs` (ranges from structure and facts),
//! `facts.rs` (facts read from a path), `path_ranges.rs` (the ranges on
//! the path being explored, kept as it grows).

mod analysis;
mod facts;
mod interval;
mod path_ranges;

pub use analysis::{decided_comparison, RangeAnalysis};
pub use facts::path_facts;
pub use interval::{Interval, Range, TRACKED_WIDTH};
pub use path_ranges::PathRanges;
