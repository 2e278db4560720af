//! `symcross rules`.
pub fn rules(_a: crate::cli::RulesArgs) -> Result<i32, crate::Error> {
    Err(crate::Error::Usage("rules: not available yet".into()))
}
