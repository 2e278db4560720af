//! Findings and the reports built from them: text, JSON, SARIF, JUnit.

mod colour;
mod diagnostic;
pub mod dwarf_witness;
pub mod error_plot;
mod finding;
pub mod html;
mod json;
pub mod junit;
mod ktest;
mod limit;
mod ndrange_site;
mod race_mode;
pub mod sarif;
pub mod shard_merge;
pub mod text;
mod tolerance;
pub use colour::{ColourChoice, TextStyle};
pub use finding::*;
pub use json::*;
pub use ktest::write_ktests;
pub use limit::Limit;
pub use ndrange_site::{NdrangeSite, SiteAccess};
pub use race_mode::{RaceMode, RaceModeRecord};
pub use tolerance::{ErrorSample, ToleranceResult, ToleranceVerdict, WorstInput};
