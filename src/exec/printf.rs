//! Program output: printf, puts, putchar. Output is collected by the
//! executor (shown by `symcross run`, compared by the differential tests).
//! Symbolic arguments print as `<symbolic>` and do not constrain the path.

use super::calls::CallCtx;
use super::executor::{Executor, Step};
use super::state::State;
use super::value::{scalar, Value};
use crate::expr::ExprId;

impl<'m> Executor<'m> {
    pub(super) fn builtin_printf(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let fmt = self.read_c_string(state, c.args[0][0], c.inst.loc)?;
        let args: Vec<ExprId> = c.args[1..].iter().map(|v| v[0]).collect();
        let text = self.format(state, &fmt, &args, c)?;
        let n = text.len();
        self.output.extend_from_slice(text.as_bytes());
        Ok(Some(scalar(self.pool.constant(32, n as u128))))
    }

    pub(super) fn builtin_puts(&mut self, state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let s = self.read_c_string(state, c.args[0][0], c.inst.loc)?;
        self.output.extend_from_slice(s.as_bytes());
        self.output.push(b'\n');
        Ok(Some(scalar(self.pool.constant(32, 1))))
    }

    pub(super) fn builtin_putchar(&mut self, _state: &mut State, c: &CallCtx) -> Result<Option<Value>, Step> {
        let v = c.args[0][0];
        match self.pool.as_const(v) {
            Some(ch) => self.output.push(ch as u8),
            None => self.output.extend_from_slice(b"<symbolic>"),
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
                out.push_str(&self.read_c_string(state, arg, c.inst.loc)?);
                continue;
            }
            let Some(v) = self.pool.as_const(arg) else {
                out.push_str("<symbolic>");
                continue;
            };
            out.push_str(&format_one(&spec, conv, v, self.pool.width(arg)));
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
        'f' | 'F' | 'e' | 'g' | 'E' | 'G' => {
            let x = if width == 32 { f32::from_bits(v as u32) as f64 } else { f64::from_bits(v as u64) };
            match conv {
                'e' | 'E' => format!("{:.*e}", precision.unwrap_or(6), x),
                'g' | 'G' => format!("{x}"),
                _ => format!("{:.*}", precision.unwrap_or(6), x),
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
