//! The NDRange of `symcross race`: `--local-size` with `--num-groups` or
//! `--global-size`. A global size the local size does not divide makes
//! non-uniform work-groups (the last group of a dimension is smaller),
//! which OpenCL C 2.0 and later allow and OpenCL 1.2 does not: on a
//! device, clEnqueueNDRangeKernel refuses such a launch of a program built
//! for 1.2 (or with `-cl-uniform-work-group-size`) with
//! CL_INVALID_WORK_GROUP_SIZE. The kernel is compiled for OpenCL C 1.2
//! unless `--cflags -cl-std=CL2.0` (or later) says otherwise, so the same
//! rule applies here, with an error that says how to ask for 2.0.

use crate::config::NdRange;
use crate::Error;

/// Whether the kernel, compiled with `cflags` after symcross's own
/// `-cl-std=CL1.2`, must run in uniform work-groups: its OpenCL C version
/// (the last `-cl-std=` wins, as in clang) is below 2.0, or
/// `-cl-uniform-work-group-size` asks for them.
pub fn uniform_groups_required(cflags: &[String]) -> bool {
    let version = cflags.iter().rev().find_map(|f| f.strip_prefix("-cl-std=")).unwrap_or("CL1.2").to_ascii_lowercase();
    // C++ for OpenCL builds on OpenCL C 2.0 (clc++, clc++1.0) or 3.0.
    let at_least_2 = version.starts_with("clc++")
        || version.strip_prefix("cl").and_then(|v| v.split('.').next()?.parse::<u32>().ok()).is_some_and(|major| major >= 2);
    !at_least_2 || cflags.iter().any(|f| f == "-cl-uniform-work-group-size")
}

/// Parses `X[,Y,Z]` into three sizes (missing dimensions are 1).
fn dims(s: &str, what: &str) -> Result<(u32, [u64; 3]), Error> {
    // GPUVerify writes sizes as `[16,16]`.
    let s = s.trim();
    let s = s.strip_prefix('[').and_then(|t| t.strip_suffix(']')).unwrap_or(s);
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(Error::Usage(format!("{what} takes 1 to 3 comma-separated sizes, not `{s}`")));
    }
    let mut out = [1u64; 3];
    for (i, p) in parts.iter().enumerate() {
        out[i] =
            p.parse::<u64>().ok().filter(|v| *v > 0).ok_or_else(|| Error::Usage(format!("{what}: `{p}` is not a positive integer")))?;
    }
    Ok((parts.len() as u32, out))
}

/// The NDRange of `--local-size` and `--num-groups` or `--global-size`.
/// A global size that is not a multiple of the local one is refused when
/// `uniform_only` (see the module doc), and so are ranges too large for
/// 64-bit ids.
pub fn ndrange(local: &str, groups: Option<&str>, global: Option<&str>, uniform_only: bool) -> Result<NdRange, Error> {
    let (dl, l) = dims(local, "--local-size")?;
    let nd = match (groups, global) {
        (Some(g), None) => {
            let (dg, g) = dims(g, "--num-groups")?;
            NdRange::of_groups(dl.max(dg), l, g)
        }
        (None, Some(gl)) => {
            let (dg, total) = dims(gl, "--global-size")?;
            if let Some(i) = (0..3).find(|&i| total[i] % l[i] != 0).filter(|_| uniform_only) {
                return Err(Error::Usage(format!(
                    "--global-size {} is not a multiple of --local-size {} in dimension {i}: OpenCL C 1.2 (the default) requires \
                     uniform work-groups; for OpenCL 2.0's non-uniform work-groups (the last group smaller) compile the kernel \
                     with --cflags -cl-std=CL2.0 (without -cl-uniform-work-group-size)",
                    total[i], l[i]
                )));
            }
            NdRange::of_global(dl.max(dg), l, total)
        }
        _ => return Err(Error::Usage("give --num-groups or --global-size".into())),
    };
    // Sizes, ids and the default size of __local buffers (16 bytes per
    // work-item) are all 64-bit numbers.
    match nd.checked_total() {
        Some(total) if nd.items_per_group().checked_mul(16).is_some() && total.checked_mul(16).is_some() => Ok(nd),
        _ => Err(Error::Usage(format!(
            "the NDRange (work-groups of {}x{}x{}, {}x{}x{} of them) is too large: its number of work-items must fit in 60 bits",
            l[0], l[1], l[2], nd.groups[0], nd.groups[1], nd.groups[2]
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn opencl_c_2_and_later_allow_non_uniform_groups() {
        assert!(uniform_groups_required(&flags("")));
        assert!(uniform_groups_required(&flags("-O1 -cl-std=CL1.2")));
        assert!(!uniform_groups_required(&flags("-cl-std=CL2.0")));
        assert!(!uniform_groups_required(&flags("-cl-std=cl3.0")));
        assert!(!uniform_groups_required(&flags("-cl-std=clc++2021")));
        assert!(uniform_groups_required(&flags("-cl-std=CL2.0 -cl-std=CL1.1")));
        assert!(uniform_groups_required(&flags("-cl-std=CL2.0 -cl-uniform-work-group-size")));
    }

    #[test]
    fn a_global_size_not_a_multiple_needs_opencl_2() {
        let e = ndrange("4", None, Some("10"), true).unwrap_err().to_string();
        assert!(e.contains("not a multiple") && e.contains("-cl-std=CL2.0"), "{e}");
        let nd = ndrange("4", None, Some("10"), false).unwrap();
        assert_eq!((nd.groups[0], nd.global[0], nd.last_group_size(0)), (3, 10, 2));
        assert_eq!(ndrange("[4,2]", Some("3,5"), None, true).unwrap(), NdRange::of_groups(2, [4, 2, 1], [3, 5, 1]));
    }
}
