//! The `--target` option: which instruction set a harness is compiled for.
//! The host (x86-64) is the default; AArch64 (NEON) is the other target
//! symcross models. A short name is completed to the Linux triple whose
//! C library, headers and ABI the cross tools and qemu-aarch64 provide.

/// The triple for a `--target` value, or why it is refused. Full triples
/// of a modelled architecture pass through unchanged (clang normalises
/// them); big-endian AArch64 is refused here rather than after compiling,
/// since every model assumes little-endian lanes.
pub fn normalize(value: &str) -> Result<String, String> {
    let v = value.trim();
    match v {
        "aarch64" | "arm64" | "neon" => return Ok(AARCH64_LINUX.to_string()),
        "x86_64" | "x86-64" | "amd64" | "host" => return Ok(X86_64_LINUX.to_string()),
        _ => {}
    }
    let arch = v.split('-').next().unwrap_or("");
    match arch {
        "aarch64" | "arm64" if v.contains('-') => Ok(v.to_string()),
        "x86_64" if v.contains('-') => Ok(v.to_string()),
        "aarch64_be" | "arm64_be" => Err(format!("target `{v}` is big-endian; symcross models little-endian AArch64 only (use aarch64)")),
        _ => Err(format!("target `{v}` is not modelled: use aarch64 (or a triple such as aarch64-linux-gnu) or x86_64")),
    }
}

/// The AArch64 Linux triple of Debian's cross tools.
pub const AARCH64_LINUX: &str = "aarch64-linux-gnu";
/// The host triple.
pub const X86_64_LINUX: &str = "x86_64-linux-gnu";

/// Whether `triple` names AArch64 (so code runs under qemu-aarch64).
pub fn is_aarch64(triple: &str) -> bool {
    triple.starts_with("aarch64") || triple.starts_with("arm64")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_become_linux_triples() {
        assert_eq!(normalize("aarch64").unwrap(), "aarch64-linux-gnu");
        assert_eq!(normalize("aarch64-unknown-linux-gnu").unwrap(), "aarch64-unknown-linux-gnu");
        assert!(normalize("aarch64_be-linux-gnu").unwrap_err().contains("big-endian"));
        assert!(normalize("riscv64").is_err());
    }
}
