//! Step 2 of the decision ladder (README, How a check is decided): canonicalisation in an
//! e-graph.
//!
//! Both sides of a check go into one e-graph; rewrite rules read from
//! `rewrite-rules/*.rules` (data, validated when loaded) grow it until it
//! saturates or a limit is hit; the sides are proved equal when they share an
//! e-class. Rules declare the assumptions they need (`positive-zero`,
//! `finite`, `ordered`, `associativity`); only the rules whose assumptions
//! are enabled take part. This is the only module that uses egg.
//!
//! Files: `lang.rs` (the operators as text), `analysis.rs` (widths, constant
//! folding, outcome-set folding, categories), `category.rs` (KLEE-CL's
//! category analysis), `translate.rs` (DAG <-> e-graph), `rules/` (the rule
//! file format, loader, side conditions, typing), `instantiate.rs` (rule
//! sides as expressions for solver verification), `prove.rs` (saturation
//! with limits), `implied.rs` (KLEE-CL 6.3 implied integer queries),
//! `reassociate.rs` (the linear-time normal form of sums and products under
//! `associativity`, tried before the e-graph), `int_normal.rs` (the normal
//! form of integer sums, products, extensions and comparisons, which needs
//! no assumption), `clamp_spelling.rs` (a clamp written with a mask test
//! respelt with comparisons, and a byte clamp's two tests put in one
//! nesting, for that normal form), `packed_lanes.rs`
//! (lanes packed in one word rewritten lane by lane, with the byte
//! multiply and saturating add in their SIMD spelling, before that
//! normal form), `case_split.rs` (a check split on the input bytes a
//! select's condition fixes, for vector-wide tests against per-element
//! ones), `byte_tables.rs` (subterms of both sides that read at most two
//! input bytes merged when equal on every value of them).

mod analysis;
pub mod byte_tables;
pub mod case_split;
mod category;
mod clamp_spelling;
mod implied;
mod instantiate;
mod int_normal;
mod lang;
mod packed_lanes;
mod prove;
mod reassociate;
pub mod rules;
mod translate;

pub use crate::assumptions::{Assumption, Assumptions};
pub use analysis::{CanonAnalysis, ClassData};
pub use category::Categories;
pub use implied::implied_integer_query;
pub use instantiate::{instantiate, RuleInstance};
pub use int_normal::IntNormalizer;
pub use lang::{CanonLang, Literal, Op, SetOp};
pub use packed_lanes::PackedLanes;
pub use prove::{canonicalize, explain_assumptions, prove_equal, CanonResult, Limits, StopReason};
pub use reassociate::Reassociator;
pub use rules::{Rule, RuleError, RuleProblem, RuleSet};
pub use translate::{from_recexpr, to_recexpr, TranslateError};

/// The e-graph type used throughout.
pub type CanonGraph = egg::EGraph<CanonLang, CanonAnalysis>;
