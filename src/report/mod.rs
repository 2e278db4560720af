//! Findings and the reports built from them: text, JSON, SARIF, JUnit.

mod finding;
mod json;
pub mod junit;
pub mod sarif;
pub mod text;
pub use finding::*;
pub use json::*;
