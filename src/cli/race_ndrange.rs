//! The NDRange of `symcross race`: `--local-size` with `--num-groups` or
//! `--global-size`. A global size the local size does not divide makes
//! non-uniform work-groups (the last group of a dimension is smaller),
//! which OpenCL C 2.0 and later allow and OpenCL 1.2 does not: on a
//! device, clEnqueueNDRangeKernel refuses such a launch of a program built
//! for 1.2 (or with `-cl-uniform-work-group-size`) with
//! CL_INVALID_WORK_GROUP_SIZE. The kernel is compiled for OpenCL C 1.2
//! unless `--cflags -cl-std=CL2.0` (or later) says otherwise, so the same
//! rule applies here, with an error that says how to ask for 2.0.
//! Errors speak the input's language: `--block`/`--grid` and threads for
//! a CUDA kernel, whose grid is always whole blocks.

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

/// How the size options and their units are named in errors.
pub struct SizeWords {
    pub local: &'static str,
    pub groups: &'static str,
    pub items: &'static str,
    pub cuda: bool,
}

impl SizeWords {
    pub const OPENCL: SizeWords = SizeWords { local: "--local-size", groups: "--num-groups", items: "work-items", cuda: false };
    pub const CUDA: SizeWords = SizeWords { local: "--block", groups: "--grid", items: "threads", cuda: true };

    /// CUDA's words for a `.cu` file, OpenCL's otherwise.
    pub fn for_input(path: &std::path::Path) -> &'static SizeWords {
        if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("cu")) {
            &Self::CUDA
        } else {
            &Self::OPENCL
        }
    }
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

/// The NDRange of `--local-size` and `--num-groups` or `--global-size`
/// (`--block` and `--grid` for CUDA, as `words` names them). A global size
/// that is not a multiple of the local one is refused when `uniform_only`
/// (see the module doc), always for CUDA, and so are ranges too large for
/// 64-bit ids.
pub fn ndrange(
    local: Option<&str>,
    groups: Option<&str>,
    global: Option<&str>,
    uniform_only: bool,
    words: &SizeWords,
) -> Result<NdRange, Error> {
    let Some(local) = local else {
        return Err(Error::Usage(if words.cuda {
            "give the block size: --block X[,Y,Z] (or --blockDim=[X,Y,Z])".into()
        } else {
            "give the work-group size: --local-size X[,Y,Z]".into()
        }));
    };
    let (dl, l) = dims(local, words.local)?;
    let nd = match (groups, global) {
        (Some(g), None) => {
            let (dg, g) = dims(g, words.groups)?;
            NdRange::of_groups(dl.max(dg), l, g)
        }
        (None, Some(gl)) => {
            let (dg, total) = dims(gl, "--global-size")?;
            if let Some(i) = (0..3).find(|&i| total[i] % l[i] != 0).filter(|_| uniform_only || words.cuda) {
                let why = if words.cuda {
                    "a CUDA grid is a whole number of blocks: give the number of blocks with --grid".to_string()
                } else {
                    "OpenCL C 1.2 (the default) requires uniform work-groups; for OpenCL 2.0's non-uniform work-groups (the last \
                     group smaller) compile the kernel with --cflags -cl-std=CL2.0 (without -cl-uniform-work-group-size)"
                        .to_string()
                };
                return Err(Error::Usage(format!(
                    "--global-size {} is not a multiple of {} {} in dimension {i}: {why}",
                    total[i], words.local, l[i]
                )));
            }
            NdRange::of_global(dl.max(dg), l, total)
        }
        _ if words.cuda => return Err(Error::Usage("give the number of blocks: --grid X[,Y,Z] (or --gridDim=[X,Y,Z])".into())),
        _ => return Err(Error::Usage("give --num-groups or --global-size".into())),
    };
    // Sizes, ids and the default size of __local buffers (16 bytes per
    // work-item) are all 64-bit numbers.
    let (group, groups_word) = if words.cuda { ("blocks", "grid") } else { ("work-groups", "NDRange") };
    match nd.checked_total() {
        Some(total) if nd.items_per_group().checked_mul(16).is_some() && total.checked_mul(16).is_some() => Ok(nd),
        _ => Err(Error::Usage(format!(
            "the {groups_word} ({group} of {}x{}x{}, {}x{}x{} of them) is too large: its number of {} must fit in 60 bits",
            l[0], l[1], l[2], nd.groups[0], nd.groups[1], nd.groups[2], words.items
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
        let cl = &SizeWords::OPENCL;
        let e = ndrange(Some("4"), None, Some("10"), true, cl).unwrap_err().to_string();
        assert!(e.contains("not a multiple") && e.contains("-cl-std=CL2.0"), "{e}");
        let nd = ndrange(Some("4"), None, Some("10"), false, cl).unwrap();
        assert_eq!((nd.groups[0], nd.global[0], nd.last_group_size(0)), (3, 10, 2));
        assert_eq!(ndrange(Some("[4,2]"), Some("3,5"), None, true, cl).unwrap(), NdRange::of_groups(2, [4, 2, 1], [3, 5, 1]));
    }

    #[test]
    fn cuda_size_errors_speak_of_blocks_and_grids() {
        let cuda = &SizeWords::CUDA;
        let e = ndrange(Some("0"), Some("2"), None, true, cuda).unwrap_err().to_string();
        assert!(e.starts_with("--block: `0`"), "{e}");
        let e = ndrange(Some("32"), Some("1,2,3,4"), None, true, cuda).unwrap_err().to_string();
        assert!(e.starts_with("--grid takes 1 to 3"), "{e}");
        let e = ndrange(Some("32"), None, None, true, cuda).unwrap_err().to_string();
        assert!(e.contains("--grid X[,Y,Z]") && !e.contains("--num-groups"), "{e}");
        let e = ndrange(None, Some("2"), None, true, cuda).unwrap_err().to_string();
        assert!(e.contains("--block X[,Y,Z]") && !e.contains("--local-size"), "{e}");
        // A CUDA grid is whole blocks, whatever the OpenCL version.
        let e = ndrange(Some("32"), None, Some("100"), false, cuda).unwrap_err().to_string();
        assert!(e.contains("not a multiple of --block 32") && e.contains("whole number of blocks"), "{e}");
        let e = ndrange(Some("1024,1024,1024"), Some("1048576,1048576,1048576"), None, true, cuda).unwrap_err().to_string();
        assert!(e.starts_with("the grid (blocks of") && e.contains("number of threads"), "{e}");
        let e = ndrange(None, Some("2"), None, true, &SizeWords::OPENCL).unwrap_err().to_string();
        assert!(e.contains("--local-size"), "{e}");
    }
}
