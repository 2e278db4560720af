//! Findings and the text/JSON reports built from them.

mod finding;
mod json;
mod ktest;
pub mod text;
pub use ktest::write_ktests;
pub use finding::*;
pub use json::*;
