//! Transformations of the internal IR run between translation and
//! execution (README, Layout). Each keeps the IR well formed (see
//! `verify`) and never changes what a path computes.
//!
//! - `if_convert`: static path merging, folding small `if`s into selects.

pub(crate) mod cfg;
mod if_convert;
mod load_safety;
mod speculation;
mod verify;

pub use cfg::Cfg;
pub use if_convert::{if_convert, IfConvertStats};
pub use speculation::{is_pure_intrinsic, is_speculatable};
pub use verify::verify_function;
