//! C library functions that need the host side: decimal-to-binary
//! conversion (`strtod`, `strtof`, `atof`), which must round correctly and
//! is done with Rust's correctly rounded parser on the concrete text, and
//! `getenv`, which reads the real environment.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::{scalar, Value};
use crate::expr::ExprId;

/// The longest prefix of `s` that C's strtod accepts (after leading white
/// space): its length in bytes and its value, or None for no number.
/// Hexadecimal floating constants are `Err`: not modelled.
pub fn parse_c_double(s: &[u8], single: bool) -> Result<Option<(usize, f64)>, ()> {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
        i += 1;
    }
    let mut negative = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        negative = s[i] == b'-';
        i += 1;
    }
    let rest = &s[i..];
    let lower: Vec<u8> = rest.iter().take(8).map(|c| c.to_ascii_lowercase()).collect();
    let sign = if negative { -1.0 } else { 1.0 };
    if lower.starts_with(b"infinity") {
        return Ok(Some((i + 8, sign * f64::INFINITY)));
    }
    if lower.starts_with(b"inf") {
        return Ok(Some((i + 3, sign * f64::INFINITY)));
    }
    if lower.starts_with(b"nan") {
        let mut end = i + 3;
        // nan(n-char-sequence)
        if end < s.len() && s[end] == b'(' {
            let close = s[end..].iter().position(|&c| c == b')');
            if let Some(k) = close {
                if s[end + 1..end + k].iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_') {
                    end += k + 1;
                }
            }
        }
        return Ok(Some((end, if negative { -f64::NAN } else { f64::NAN })));
    }
    if lower.starts_with(b"0x") {
        return Err(());
    }
    let digits_from = i;
    let mut j = i;
    let mut mantissa_digits = 0;
    while j < s.len() && s[j].is_ascii_digit() {
        j += 1;
        mantissa_digits += 1;
    }
    if j < s.len() && s[j] == b'.' {
        j += 1;
        while j < s.len() && s[j].is_ascii_digit() {
            j += 1;
            mantissa_digits += 1;
        }
    }
    if mantissa_digits == 0 {
        return Ok(None);
    }
    let mut end = j;
    if j < s.len() && (s[j] == b'e' || s[j] == b'E') {
        let mut k = j + 1;
        if k < s.len() && (s[k] == b'+' || s[k] == b'-') {
            k += 1;
        }
        let exp_digits = s[k..].iter().take_while(|c| c.is_ascii_digit()).count();
        if exp_digits > 0 {
            end = k + exp_digits;
        }
    }
    // Rust's parser takes the same text (".5", "7.", "1.e5"), correctly rounded.
    let text = std::str::from_utf8(&s[digits_from..end]).map_err(|_| ())?;
    let magnitude = if single { text.parse::<f32>().map_err(|_| ())? as f64 } else { text.parse::<f64>().map_err(|_| ())? };
    Ok(Some((end, sign * magnitude)))
}

impl<'m> Executor<'m> {
    /// `double strtod(const char *s, char **end)`, `float strtof(...)`.
    pub(in crate::exec) fn builtin_strtod(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let single = c.name == "strtof";
        let text = self.read_c_string(state, c.args[0][0], loc)?;
        let (used, value) = match parse_c_double(text.as_bytes(), single) {
            Ok(Some(r)) => r,
            Ok(None) => (0, 0.0),
            Err(()) => return Err(self.unsupported(state, loc, format!("{} of a hexadecimal floating constant", c.name))),
        };
        // The row's arity (2) guarantees `end`; it may be NULL.
        if self.cx.pool.as_const(c.args[1][0]) != Some(0) {
            let base = self.cx.pool.as_const(c.args[0][0]).unwrap_or(0);
            let end = self.cx.pool.constant(64, base + used as u128);
            let bytes = crate::memory::layout::value_to_bytes(&mut self.cx.pool, &crate::ir::Type::Ptr { addr_space: 0 }, &[end]);
            let access = self.resolve(state, c.args[1][0], 8, loc, true)?;
            self.write_bytes(state, &access, &bytes);
        }
        let bits: ExprId = if single {
            // A NaN keeps its sign (a cast need not).
            let b = if value.is_nan() { 0x7fc0_0000 | ((value.is_sign_negative() as u32) << 31) } else { (value as f32).to_bits() };
            self.cx.pool.constant(32, b as u128)
        } else {
            self.cx.pool.constant(64, value.to_bits() as u128)
        };
        Ok(Some(scalar(bits)))
    }

    /// `char *getenv(const char *name)`: the value in the environment
    /// symcross runs in (a new heap copy), or NULL.
    pub(in crate::exec) fn builtin_getenv(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let name = self.read_c_string(state, c.args[0][0], loc)?;
        let Some(value) = std::env::var_os(&name) else {
            return Ok(Some(scalar(self.cx.pool.constant(64, 0))));
        };
        let mut bytes = value.into_encoded_bytes();
        bytes.push(0);
        let p = self.heap_allocate(state, bytes.len() as u64, 16, loc)?;
        let exprs: Vec<Option<ExprId>> = bytes.iter().map(|b| Some(self.cx.pool.constant(8, *b as u128))).collect();
        let access = self.resolve(state, p, bytes.len() as u64, loc, true)?;
        self.write_bytes(state, &access, &exprs);
        Ok(Some(scalar(p)))
    }
}

#[cfg(test)]
mod tests {
    use super::parse_c_double;

    fn p(s: &str) -> Option<(usize, f64)> {
        parse_c_double(s.as_bytes(), false).unwrap()
    }

    #[test]
    fn prefixes_as_strtod_reads_them() {
        assert_eq!(p("  1.5e1xyz"), Some((7, 15.0)));
        assert_eq!(p("-.5"), Some((3, -0.5)));
        assert_eq!(p("7."), Some((2, 7.0)));
        assert_eq!(p("3e"), Some((1, 3.0)));
        assert_eq!(p("3e+"), Some((1, 3.0)));
        assert_eq!(p("0.1"), Some((3, 0.1)));
        assert_eq!(p("abc"), None);
        assert_eq!(p("-"), None);
        assert_eq!(p("INFINITY!"), Some((8, f64::INFINITY)));
        assert_eq!(p("-inf"), Some((4, f64::NEG_INFINITY)));
        assert!(p("nan(123)z").is_some_and(|(n, v)| n == 8 && v.is_nan()));
        assert!(parse_c_double(b"0x1p3", false).is_err());
        // Correct rounding, from the decimal text directly for float.
        assert_eq!(parse_c_double(b"0.1", true).unwrap(), Some((3, 0.1f32 as f64)));
        // Just below the smallest normal: the largest subnormal.
        assert_eq!(p("2.2250738585072011e-308"), Some((23, f64::from_bits(0x000f_ffff_ffff_ffff))));
    }
}
