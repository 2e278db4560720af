//! The flag a clang error about a missing target feature asks for. An
//! intrinsic such as `_mm256_add_epi32` is an always-inline function that
//! requires a feature (`avx2`): compiled without the matching `-m` flag,
//! clang refuses it with an error that names the feature but not the flag
//! symcross would pass it.

/// `hint: ...` naming the `--cflags` that enable every target feature
/// clang's `stderr` says is required; empty when it names none.
pub fn missing_feature_hint(stderr: &str) -> String {
    let mut flags: Vec<String> = Vec::new();
    for line in stderr.lines() {
        let Some(rest) = line.split("requires target feature '").nth(1) else { continue };
        let Some(feature) = rest.split('\'').next() else { continue };
        // `avx512f,evex512` and similar name several features.
        for f in feature.split(',').map(str::trim).filter(|f| !f.is_empty()) {
            let flag = format!("-m{f}");
            if !flags.contains(&flag) {
                flags.push(flag);
            }
        }
    }
    if flags.is_empty() {
        return String::new();
    }
    let features: Vec<&str> = flags.iter().map(|f| &f[2..]).collect();
    format!(
        "hint: the intrinsics used need the target feature{} {}: compile with --cflags \"{}\" (or -march=native for this CPU's)\n",
        if flags.len() > 1 { "s" } else { "" },
        features.join(", "),
        flags.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_of_each_named_feature() {
        let clang = "a.c:2:42: error: always_inline function '_mm256_add_epi32' requires target feature 'avx2', but would be inlined into function 'f' that is compiled without support for 'avx2'\n\
                     a.c:3:9: error: always_inline function '_mm256_fmadd_ps' requires target feature 'fma', but would be inlined into function 'g' that is compiled without support for 'fma'\n\
                     a.c:4:9: error: always_inline function '_mm256_sub_epi32' requires target feature 'avx2', but would be inlined\n";
        let hint = missing_feature_hint(clang);
        assert!(hint.contains("--cflags \"-mavx2 -mfma\""), "{hint}");
        assert!(hint.contains("target features avx2, fma"), "{hint}");
        assert_eq!(missing_feature_hint("a.c:1:1: error: unknown type name 'foo'\n"), "");
    }
}
