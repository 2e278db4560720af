//! The crosscheck built-ins: `symcross_check_equal` and `memcmp`, and the
//! NaN rules under which their elements are compared.

pub mod check_close;
pub(in crate::exec) mod check_differences;
pub mod check_equal;
pub(in crate::exec) mod compare;
pub(in crate::exec) mod condition_values;
pub mod nan_bits_read;
pub(in crate::exec) mod nan_equality;
