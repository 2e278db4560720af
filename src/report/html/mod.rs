//! The HTML report: one self-contained page per run (inline CSS and SVG,
//! no script, no external resource; a Content-Security-Policy forbids
//! both), read in any browser without a server. A page shows the verdict
//! and what limits it, each finding with its witness as a table, the two
//! sides of a mismatch folded, a picture of a race's NDRange, and the
//! source with the findings under their lines. `suite --html` writes one
//! page per entry and an index linking them.

mod escape;
mod expressions;
mod finding_block;
mod ndrange_grid;
mod page;
mod source_listing;
mod suite_index;
mod tolerance_plot;
mod witness_table;

pub use escape::escape;
pub use page::report_page;
pub use suite_index::{entry_page_name, error_page, suite_index, IndexRow};
