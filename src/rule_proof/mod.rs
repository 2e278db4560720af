//! Proving rewrite rules sound with the bit-precise solver. `prove`
//! proves one rule (or every rule, for `symcross rules verify`) under the
//! assumptions it declares; `user_rules` proves the rules of `check
//! --rules DIR` before a run may use them, and remembers each proof in the
//! cache. The rules themselves, and the e-graph that applies them, are
//! canon/.

mod error;
pub mod prove;
pub mod user_rules;

pub use error::RuleProofError;
