//! Program output: printf, puts, putchar. Output is collected by the
//! executor (shown by `symcross run`, compared by the differential tests).
//! Symbolic arguments print as `<symbolic>` and do not constrain the path.

use crate::exec::engine::calls::CallCtx;
use crate::exec::engine::executor::{Executor, Step};
use crate::exec::engine::state::State;
use crate::expr::value::{scalar, Value};
use crate::expr::ExprId;

impl<'m> Executor<'m> {
    pub(in crate::exec) fn builtin_printf(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        self.print_formatted(state, c, 0)
    }

    /// `fprintf(stream, fmt, ...)`, `vprintf(fmt, ap)`, `vfprintf(stream,
    /// fmt, ap)`: streams that can be written are stdout and stderr (files
    /// are read-only), and both go to the program's output.
    pub(in crate::exec) fn builtin_fprintf(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let fmt_at = if c.name == "vprintf" { 0 } else { 1 };
        self.print_formatted(state, c, fmt_at)
    }

    /// Formats with the format string in argument `fmt_at` and the values
    /// after it (or in the va_list after it, for the v- forms), appends the
    /// text to the output, returns its length.
    fn print_formatted(&mut self, state: &mut State, c: &CallCtx, fmt_at: usize) -> Result<Option<Value>, Step> {
        let (fmt, args) = self.format_arguments(state, c, fmt_at)?;
        let text = self.format(state, &fmt, &args, c)?;
        let n = text.len();
        self.log.output.extend_from_slice(text.as_bytes());
        Ok(Some(scalar(self.cx.pool.constant(32, n as u128))))
    }

    /// The format string in argument `fmt_at` and its values: the call's
    /// arguments after it, or, for vprintf and friends (`v` prefix), the
    /// 8-byte slots of the va_list argument after it, one per conversion.
    fn format_arguments(&mut self, state: &mut State, c: &CallCtx, fmt_at: usize) -> Result<(String, Vec<ExprId>), Step> {
        let loc = c.inst.loc;
        let fmt = self.read_c_string(state, c.args[fmt_at][0], loc)?;
        if !c.name.starts_with('v') {
            return Ok((fmt, c.args[fmt_at + 1..].iter().map(|v| v[0]).collect()));
        }
        // The va_list (see va_start): every value is in the overflow area,
        // whose address is at offset 8.
        let eight = self.cx.pool.constant(64, 8);
        let area_field = self.cx.pool.add(c.args[fmt_at + 1][0], eight);
        let access = self.resolve(state, area_field, 8, loc, false)?;
        let bytes = self.read_bytes(state, &access, 8, loc);
        let area = crate::memory::layout::bytes_to_value(&mut self.cx.pool, &crate::ir::Type::Int(64), &bytes)[0];
        let mut args = Vec::new();
        for k in 0..count_conversions(&fmt) {
            let offset = self.cx.pool.constant(64, 8 * k as u128);
            let slot = self.cx.pool.add(area, offset);
            let access = self.resolve(state, slot, 8, loc, false)?;
            let bytes = self.read_bytes(state, &access, 8, loc);
            args.push(crate::memory::layout::bytes_to_value(&mut self.cx.pool, &crate::ir::Type::Int(64), &bytes)[0]);
        }
        Ok((fmt, args))
    }

    /// `sprintf(buf, fmt, ...)`, `snprintf(buf, size, fmt, ...)` and their
    /// va_list forms: the formatted text goes into the buffer (for the
    /// bounded forms, what fits in size bytes with the NUL); the result is
    /// the full length.
    pub(in crate::exec) fn builtin_sprintf(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let bounded = c.name.ends_with("snprintf");
        let fmt_at = if bounded { 2 } else { 1 };
        let (fmt, args) = self.format_arguments(state, c, fmt_at)?;
        let text = self.format(state, &fmt, &args, c)?;
        let mut bytes = text.into_bytes();
        let n = bytes.len();
        if bounded {
            let size = self.concrete_arg(state, c.args[1][0])? as usize;
            if size == 0 {
                return Ok(Some(scalar(self.cx.pool.constant(32, n as u128))));
            }
            bytes.truncate(size - 1);
        }
        bytes.push(0);
        let exprs: Vec<Option<ExprId>> = bytes.iter().map(|b| Some(self.cx.pool.constant(8, *b as u128))).collect();
        let access = self.resolve(state, c.args[0][0], exprs.len() as u64, c.inst.loc, true)?;
        self.write_bytes(state, &access, &exprs);
        Ok(Some(scalar(self.cx.pool.constant(32, n as u128))))
    }

    /// `fwrite(ptr, size, n, stream)` and `fputc(ch, stream)`: writable
    /// streams are stdout and stderr, so the bytes go to the output.
    pub(in crate::exec) fn builtin_fwrite(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let size = self.concrete_arg(state, c.args[1][0])?;
        let n = self.concrete_arg(state, c.args[2][0])?;
        let total = size.saturating_mul(n);
        if total > 0 {
            let access = self.resolve(state, c.args[0][0], total, c.inst.loc, false)?;
            let bytes = self.read_bytes(state, &access, total, c.inst.loc);
            for b in bytes.iter() {
                match self.cx.pool.as_const(*b) {
                    Some(v) => self.log.output.push(v as u8),
                    None => self.log.output.extend_from_slice(b"<symbolic>"),
                }
            }
        }
        Ok(Some(scalar(self.cx.pool.constant(64, n as u128))))
    }

    /// `fputs(s, stream)`, to the program's output like `fprintf`.
    pub(in crate::exec) fn builtin_fputs(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let s = self.read_c_string(state, c.args[0][0], c.inst.loc)?;
        self.log.output.extend_from_slice(s.as_bytes());
        Ok(Some(scalar(self.cx.pool.constant(32, 1))))
    }

    /// `void *__symcross_read_file(const char *path, size_t *size)`: the
    /// whole file, read from disk into a new heap object (NULL if it cannot
    /// be read). The C model of fopen/fread in cl-runtime-model/host reads
    /// from that copy.
    pub(in crate::exec) fn builtin_read_file(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let loc = c.inst.loc;
        let path = self.read_c_string(state, c.args[0][0], loc)?;
        let Ok(data) = std::fs::read(&path) else {
            return Ok(Some(scalar(self.cx.pool.constant(64, 0))));
        };
        let p = self.heap_allocate(state, data.len().max(1) as u64, 16, loc)?;
        let base = self.cx.pool.as_const(p).unwrap_or(0) as u64;
        if let Some(id) = state.memory.object_near(base) {
            state.memory.object_mut(id).name = format!("contents of {path}");
        }
        if !data.is_empty() {
            let bytes: Vec<Option<ExprId>> = data.iter().map(|b| Some(self.cx.pool.constant(8, *b as u128))).collect();
            let access = self.resolve(state, p, data.len() as u64, loc, true)?;
            self.write_bytes(state, &access, &bytes);
        }
        self.write_int(state, c.args[1][0], 64, data.len() as u128, loc)?;
        Ok(Some(scalar(p)))
    }

    pub(in crate::exec) fn builtin_puts(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let s = self.read_c_string(state, c.args[0][0], c.inst.loc)?;
        self.log.output.extend_from_slice(s.as_bytes());
        self.log.output.push(b'\n');
        Ok(Some(scalar(self.cx.pool.constant(32, 1))))
    }

    pub(in crate::exec) fn builtin_putchar(&mut self, _state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let v = c.args[0][0];
        match self.cx.pool.as_const(v) {
            Some(ch) => self.log.output.push(ch as u8),
            None => self.log.output.extend_from_slice(b"<symbolic>"),
        }
        Ok(Some(scalar(v)))
    }

    fn format(&mut self, state: &mut State, fmt: &str, args: &[ExprId], c: &CallCtx) -> Result<String, Step> {
        let mut out = String::new();
        let mut next = args.iter();
        let mut chars = fmt.chars().peekable();
        while let Some(ch) = chars.next() {
            if ch != '%' {
                out.push(ch);
                continue;
            }
            let mut spec = String::new();
            while let Some(&d) = chars.peek() {
                if d.is_ascii_digit() || "-+ #.lhzjt".contains(d) {
                    spec.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            let Some(conv) = chars.next() else { break };
            if conv == '%' {
                out.push('%');
                continue;
            }
            let Some(&arg) = next.next() else { break };
            if conv == 's' {
                let text = self.read_c_string(state, arg, c.inst.loc)?;
                out.push_str(&format_string(&spec, &text));
                continue;
            }
            let Some(v) = self.cx.pool.as_const(arg) else {
                out.push_str("<symbolic>");
                continue;
            };
            out.push_str(&format_one(&spec, conv, v, self.cx.pool.width(arg)));
        }
        Ok(out)
    }
}

/// Formats one concrete argument per a C conversion (`%d`, `%08X`, `%.3f`...).
fn format_one(spec: &str, conv: char, v: u128, width: u32) -> String {
    let flags: String = spec.chars().filter(|c| !"lhzjt".contains(*c)).collect();
    let long = spec.contains('l') || spec.contains('z') || spec.contains('j');
    let zero_pad = flags.starts_with('0');
    let (min_width, precision) = match flags.trim_start_matches(['0', '-', '+', ' ', '#']).split_once('.') {
        Some((w, p)) => (w.parse::<usize>().unwrap_or(0), p.parse::<usize>().ok()),
        None => (flags.trim_start_matches(['0', '-', '+', ' ', '#']).parse::<usize>().unwrap_or(0), None),
    };
    let int_width = if long { 64 } else { 32.min(width) };
    let as_signed = crate::expr::to_signed(v & crate::expr::mask(int_width), int_width);
    let as_unsigned = v & crate::expr::mask(int_width);
    let body = match conv {
        'd' | 'i' => as_signed.to_string(),
        'u' => as_unsigned.to_string(),
        'x' => format!("{as_unsigned:x}"),
        'X' => format!("{as_unsigned:X}"),
        'o' => format!("{as_unsigned:o}"),
        'c' => ((v as u8) as char).to_string(),
        'p' => format!("{v:#x}"),
        'f' | 'F' | 'e' | 'g' | 'E' | 'G' | 'a' | 'A' => {
            let x = if width == 32 { f32::from_bits(v as u32) as f64 } else { f64::from_bits(v as u64) };
            let text = format_float(conv.to_ascii_lowercase(), x, precision, flags.contains('#'));
            if conv.is_ascii_uppercase() {
                text.to_uppercase()
            } else {
                text
            }
        }
        _ => format!("%{spec}{conv}"),
    };
    if body.len() >= min_width {
        body
    } else if flags.starts_with('-') {
        format!("{body:<min_width$}")
    } else if zero_pad {
        let (sign, digits) = body.strip_prefix('-').map(|d| ("-", d)).unwrap_or(("", &body));
        format!("{sign}{}{digits}", "0".repeat(min_width - body.len()))
    } else {
        format!("{body:>min_width$}")
    }
}

/// A C floating-point conversion (`f`, `e`, `g`, `a`, lower case) as glibc
/// prints it.
fn format_float(conv: char, x: f64, precision: Option<usize>, alternate: bool) -> String {
    if !x.is_finite() {
        let sign = if x.is_sign_negative() { "-" } else { "" };
        return format!("{sign}{}", if x.is_nan() { "nan" } else { "inf" });
    }
    match conv {
        'e' => exponent_form(x, precision.unwrap_or(6)),
        'g' => {
            let p = match precision {
                Some(0) => 1,
                Some(p) => p,
                None => 6,
            };
            // The exponent %e would print with p - 1 digits decides the form.
            let e = exponent_form(x, p - 1);
            let exp: i32 = e.rsplit_once('e').and_then(|(_, t)| t.parse().ok()).unwrap_or(0);
            let text = if (p as i32) > exp && exp >= -4 { format!("{:.*}", (p as i32 - 1 - exp) as usize, x) } else { e };
            if alternate {
                text
            } else {
                trim_fraction_zeros(&text)
            }
        }
        'a' => hex_form(x),
        _ => format!("{:.*}", precision.unwrap_or(6), x),
    }
}

/// `d.ddde+XX`: at least two exponent digits, with a sign.
fn exponent_form(x: f64, precision: usize) -> String {
    let text = format!("{:.*e}", precision, x);
    let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    format!("{mantissa}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

/// Drops trailing zeros of the fraction (and a bare point), before any
/// exponent, as %g does.
fn trim_fraction_zeros(text: &str) -> String {
    let (number, exp) = match text.find('e') {
        Some(i) => (&text[..i], &text[i..]),
        None => (text, ""),
    };
    if !number.contains('.') {
        return text.to_string();
    }
    let trimmed = number.trim_end_matches('0').trim_end_matches('.');
    format!("{trimmed}{exp}")
}

/// `%a`: `0x1.8p+1`, subnormals as `0x0.0008p-1022`, no trailing zeros.
fn hex_form(x: f64) -> String {
    let bits = x.to_bits();
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let exp_field = ((bits >> 52) & 0x7ff) as i32;
    let mantissa = bits & ((1u64 << 52) - 1);
    if exp_field == 0 && mantissa == 0 {
        return format!("{sign}0x0p+0");
    }
    let (lead, exp) = if exp_field == 0 { (0, -1022) } else { (1, exp_field - 1023) };
    let digits = format!("{mantissa:013x}");
    let digits = digits.trim_end_matches('0');
    let point = if digits.is_empty() { String::new() } else { format!(".{digits}") };
    format!("{sign}0x{lead}{point}p{}{}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

/// How many values a format string consumes (`%%` consumes none).
fn count_conversions(fmt: &str) -> usize {
    let mut n = 0;
    let mut chars = fmt.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '%' {
            continue;
        }
        while chars.peek().is_some_and(|d| d.is_ascii_digit() || "-+ #.lhzjt".contains(*d)) {
            chars.next();
        }
        match chars.next() {
            Some('%') | None => {}
            Some(_) => n += 1,
        }
    }
    n
}

/// `%s` with its flags: a precision keeps at most that many bytes, a width
/// pads with spaces (on the right with `-`).
fn format_string(spec: &str, text: &str) -> String {
    let (width, precision) = match spec.split_once('.') {
        Some((w, p)) => (w, p.parse::<usize>().ok()),
        None => (spec, None),
    };
    let left = width.contains('-');
    let min_width = width.trim_start_matches(['-', '+', ' ', '#', '0']).parse::<usize>().unwrap_or(0);
    let body: String = match precision {
        Some(p) => text.chars().take(p).collect(),
        None => text.to_string(),
    };
    if body.len() >= min_width {
        body
    } else if left {
        format!("{body:<min_width$}")
    } else {
        format!("{body:>min_width$}")
    }
}

#[cfg(test)]
mod tests {
    use super::format_one;

    fn f(spec: &str, conv: char, x: f64) -> String {
        format_one(spec, conv, x.to_bits() as u128, 64)
    }

    #[test]
    fn conversions_are_counted_as_printf_consumes_them() {
        assert_eq!(super::count_conversions("%d%% of %s: %5.2f %lu"), 4);
        assert_eq!(super::count_conversions("none"), 0);
        assert_eq!(super::count_conversions("100%%"), 0);
    }

    #[test]
    fn strings_pad_and_truncate() {
        assert_eq!(super::format_string("-4", "ab"), "ab  ");
        assert_eq!(super::format_string("4", "ab"), "  ab");
        assert_eq!(super::format_string(".1", "ab"), "a");
        assert_eq!(super::format_string("", "abc"), "abc");
    }

    #[test]
    fn floats_print_as_glibc_prints_them() {
        assert_eq!(f("", 'a', 3.0), "0x1.8p+1");
        assert_eq!(f("", 'a', 1.0), "0x1p+0");
        assert_eq!(f("", 'a', -0.1), "-0x1.999999999999ap-4");
        assert_eq!(f("", 'a', 5e-324), "0x0.0000000000001p-1022");
        assert_eq!(f("", 'a', 0.0), "0x0p+0");
        assert_eq!(f("", 'A', 3.0), "0X1.8P+1");
        assert_eq!(f("", 'e', 1234.5), "1.234500e+03");
        assert_eq!(f(".2", 'e', 0.000123), "1.23e-04");
        assert_eq!(f("", 'g', 0.0001), "0.0001");
        assert_eq!(f("", 'g', 100000.0), "100000");
        assert_eq!(f("", 'g', 1e6), "1e+06");
        assert_eq!(f("", 'g', 1.5), "1.5");
        assert_eq!(f("", 'g', 0.00001234), "1.234e-05");
        assert_eq!(f("", 'f', f64::NAN), "nan");
        assert_eq!(f("", 'f', f64::NEG_INFINITY), "-inf");
        assert_eq!(f("", 'F', f64::INFINITY), "INF");
        assert_eq!(f(".3", 'f', 2.0), "2.000");
    }
}
