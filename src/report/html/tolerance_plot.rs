//! Where a tolerance check's error plot joins the page: the SVG of the
//! error over the inputs, drawn by the report's plot renderer, embedded
//! in the finding's block. No finding carries a plot yet, so none is
//! drawn; this is the one place that changes when one does.

use crate::report::Finding;

/// The inline SVG of the finding's error plot, if it has one.
pub(super) fn for_finding(_finding: &Finding) -> Option<String> {
    None
}
