//! Findings and the text/JSON reports built from them.

mod finding;
mod json;
pub mod text;
pub use finding::*;
pub use json::*;
