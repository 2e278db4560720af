//! The C environment a harness runs in: libc, printf, the floating-point
//! environment and the KLEE-compatible harness API.

pub(in crate::exec) mod fenv;
pub(in crate::exec) mod klee_api;
pub(in crate::exec) mod libc_env;
pub(in crate::exec) mod printf;

use crate::exec::engine::arity::Arity;
use crate::exec::engine::calls::Handler;
use crate::exec::engine::executor::Executor;

impl<'m> Executor<'m> {
    /// The environment's built-in functions by exact name, with the
    /// arguments their C declarations take (the rows of calls.rs's table
    /// that model the C environment rather than the harness).
    pub(in crate::exec) fn env_row(name: &str) -> Option<(Handler<'m>, Arity)> {
        use Arity::{AtLeast, Exact};
        Some(match name {
            "klee_int" => (Self::builtin_klee_int, Exact(1)),
            "klee_range" => (Self::builtin_klee_range, Exact(3)),
            "klee_silent_exit" => (Self::builtin_klee_silent_exit, Exact(1)),
            "klee_is_symbolic" => (Self::builtin_klee_is_symbolic, Exact(1)),
            "printf" => (Self::builtin_printf, AtLeast(1)),
            "puts" => (Self::builtin_puts, Exact(1)),
            "putchar" => (Self::builtin_putchar, Exact(1)),
            "fprintf" => (Self::builtin_fprintf, AtLeast(2)),
            "vprintf" => (Self::builtin_fprintf, Exact(2)),
            "vfprintf" => (Self::builtin_fprintf, Exact(3)),
            "fputs" => (Self::builtin_fputs, Exact(2)),
            "sprintf" => (Self::builtin_sprintf, AtLeast(2)),
            "snprintf" => (Self::builtin_sprintf, AtLeast(3)),
            "vsprintf" => (Self::builtin_sprintf, Exact(3)),
            "vsnprintf" => (Self::builtin_sprintf, Exact(4)),
            "fwrite" => (Self::builtin_fwrite, Exact(4)),
            "fputc" | "putc" | "_IO_putc" => (Self::builtin_putchar, Exact(2)),
            "strtod" | "strtof" => (Self::builtin_strtod, Exact(2)),
            "getenv" => (Self::builtin_getenv, Exact(1)),
            "feholdexcept" | "fesetenv" | "feupdateenv" | "fegetenv" | "feclearexcept" => (Self::builtin_fenv_unchanged, Exact(1)),
            "fegetround" => (Self::builtin_fenv_unchanged, Exact(0)),
            "fesetround" => (Self::builtin_fesetround, Exact(1)),
            "__symcross_read_file" => (Self::builtin_read_file, Exact(2)),
            _ => return None,
        })
    }
}
