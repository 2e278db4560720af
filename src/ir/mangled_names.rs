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

/// The name a C++ function-local static was declared with:
/// `_ZZ9transposePfPKfiiE4tile` (a CUDA `__shared__` array declared in a
/// kernel) -> `tile`. None for any other name.
pub fn local_static_name(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("_ZZ")?;
    // The enclosing function's encoding ends at an `E` followed by the
    // variable's length and name, which end the symbol (or precede a
    // `_N` discriminator): the last such split is the variable's.
    let bytes = rest.as_bytes();
    (0..bytes.len()).rev().filter(|&i| bytes[i] == b'E').find_map(|i| {
        let tail = &rest[i + 1..];
        let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
        let len: usize = tail[..digits].parse().ok()?;
        let after = tail.get(digits..digits + len)?;
        let end = &tail[digits + len..];
        (end.is_empty() || end.strip_prefix('_').is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))).then_some(after)
    })
}

#[cfg(test)]
mod tests {
    use super::demangle;

    #[test]
    fn names_of_function_local_statics() {
        assert_eq!(super::local_static_name("_ZZ9transposePfPKfiiE4tile"), Some("tile"));
        assert_eq!(super::local_static_name("_ZZL19__syncthreads_countiE16__symcross_votes"), Some("__symcross_votes"));
        assert_eq!(super::local_static_name("_ZZ1fvE1x_0"), Some("x"));
        assert_eq!(super::local_static_name("tile"), None);
    }

    #[test]
    fn splits_the_name_from_the_parameters() {
        assert_eq!(demangle("_Z13get_global_idj"), Some(("get_global_id", "j")));
        assert_eq!(demangle("_Z7barrierj"), Some(("barrier", "j")));
        assert_eq!(demangle("main"), None);
        assert_eq!(demangle("_Z99short"), None);
    }
}
