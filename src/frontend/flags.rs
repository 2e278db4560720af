//! Which clang flags apply to what. The user's code is compiled with the
//! defaults below unless `--cflags` says otherwise: `-O2` or
//! `-ffp-contract=fast` given there win (clang takes the last of each), so
//! what is checked is what the user's build computes. The runtime model is
//! the implementation's library: it is always compiled with its own fixed
//! flags, and of the user's flags only those that change OpenCL semantics
//! (`-cl-*`, such as -cl-fp32-correctly-rounded-divide-sqrt) reach it; a
//! `-std=c11` or `-O2` meant for the harness must not change or break it.

/// Defaults for the user's code, overridable by `--cflags`: no
/// optimisation, and no contraction of `a*b+c` into a fused multiply-add
/// (arithmetic exactly as written).
pub const USER_DEFAULTS: &[&str] = &["-O0", "-ffp-contract=off"];

/// Always given, to user and runtime code alike: optnone off so that
/// mem2reg can run later, debug info for source locations, value names
/// for readable messages, bitcode out.
pub const FIXED: &[&str] = &["-Xclang", "-disable-O0-optnone", "-g", "-fno-discard-value-names", "-emit-llvm", "-c"];

/// C's rule for `<<` on signed values (no negative value, no set bit
/// shifted into or past the sign bit) leaves no trace in the IR: clang's
/// own test of it, as a trap symcross reports (README, "Undefined
/// behaviour"), is compiled into the user's C and C++ code. It adds a test
/// before each signed `<<` and changes nothing else; `--cflags
/// -fno-sanitize=shift-base` (given later) turns it off.
pub const C_RULE_CHECKS: &[&str] = &["-fsanitize=shift-base", "-fsanitize-trap=shift-base"];

/// The runtime model's own flags (in place of `USER_DEFAULTS`).
pub const RUNTIME: &[&str] = &["-O0", "-ffp-contract=off"];

/// The user's flags that also reach the runtime model.
pub fn reaches_runtime(flag: &str) -> bool {
    flag.starts_with("-cl-")
}

/// The optimisation level and contraction the user's code is compiled
/// with, each with where it came from: `-O0 (default)`,
/// `-ffp-contract=fast (--cflags)`.
pub fn describe(cflags: &[String]) -> Vec<String> {
    let opt = cflags.iter().rev().find(|f| f.starts_with("-O"));
    // -ffast-math (and -ffp-model=fast) imply contraction, unless a later
    // -ffp-contract says otherwise; clang reads them in order.
    let contract = cflags.iter().rev().find_map(|f| match f.as_str() {
        f if f.starts_with("-ffp-contract=") => Some(f.to_string()),
        "-ffast-math" | "-ffp-model=fast" => Some(format!("-ffp-contract=fast (by {f})")),
        _ => None,
    });
    let mut out = vec![match opt {
        Some(o) => format!("{o} (--cflags)"),
        None => format!("{} (default)", USER_DEFAULTS[0]),
    }];
    out.push(match contract {
        Some(c) if c.contains("(by") => c.replace("(by ", "(--cflags ").to_string(),
        Some(c) => format!("{c} (--cflags)"),
        None => format!("{} (default)", USER_DEFAULTS[1]),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_last_flag_of_each_kind_wins_and_says_where_it_came_from() {
        assert_eq!(describe(&[]), ["-O0 (default)", "-ffp-contract=off (default)"]);
        assert_eq!(describe(&strings(&["-O1", "-ffp-contract=fast", "-O2"])), ["-O2 (--cflags)", "-ffp-contract=fast (--cflags)"]);
        assert_eq!(describe(&strings(&["-ffast-math"])), ["-O0 (default)", "-ffp-contract=fast (--cflags -ffast-math)"]);
        assert_eq!(describe(&strings(&["-ffast-math", "-ffp-contract=off"]))[1], "-ffp-contract=off (--cflags)");
    }

    #[test]
    fn only_opencl_semantics_flags_reach_the_runtime() {
        assert!(reaches_runtime("-cl-fp32-correctly-rounded-divide-sqrt"));
        assert!(!reaches_runtime("-std=c11") && !reaches_runtime("-O2") && !reaches_runtime("-ffp-contract=fast"));
    }
}
