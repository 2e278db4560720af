//! Itanium-mangled function names, as OpenCL C built-ins arrive in the
//! module (`_Z13get_global_idj`): the plain name is what messages show and
//! what the models and analyses match on.

/// The plain name of a mangled function and the mangled parameter list:
/// `_Z13get_global_idj` -> (`get_global_id`, `j`). None for a name that is
/// not mangled.
pub fn demangle(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("_Z")?;
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    let len: usize = rest[..digits].parse().ok()?;
    let body = &rest[digits..];
    (body.len() >= len).then(|| (&body[..len], &body[len..]))
}

#[cfg(test)]
mod tests {
    use super::demangle;

    #[test]
    fn splits_the_name_from_the_parameters() {
        assert_eq!(demangle("_Z13get_global_idj"), Some(("get_global_id", "j")));
        assert_eq!(demangle("_Z7barrierj"), Some(("barrier", "j")));
        assert_eq!(demangle("main"), None);
        assert_eq!(demangle("_Z99short"), None);
    }
}
