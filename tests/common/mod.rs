pub mod x86sig;
