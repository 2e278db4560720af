//! `symcross bench`.
pub fn cli(_a: crate::cli::BenchArgs) -> Result<i32, crate::Error> {
    Err(crate::Error::Usage("bench: not available yet".into()))
}
