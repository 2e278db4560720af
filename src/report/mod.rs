//! Findings and the text/JSON reports built from them.

mod finding;
pub use finding::*;
