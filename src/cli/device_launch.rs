//! A kernel launched from device code (`<<<...>>>` inside a `__global__` or
//! `__device__` function: CUDA's dynamic parallelism). clang 19 compiles no
//! device-side launch and rejects the reference to the kernel, and symcross
//! does not model one either: rather than a compile error (exit 2, as if
//! the input were bad), the run ends with a report whose `unsupported`
//! finding names the launch, so the verdict is inconclusive (exit 3).

use crate::driver::DriverError;
use crate::frontend::FrontendError;
use crate::report::{Finding, FindingKind, Location, Report, RunStats, Status};

/// clang's diagnostic for a kernel named in device code.
const KERNEL_IN_DEVICE_CODE: &str = "error: reference to __global__ function '";

/// A kernel named in device code, where clang's diagnostic puts it.
#[derive(Debug, PartialEq, Eq)]
pub struct DeviceSideLaunch {
    /// Where the kernel is named (the `<<<...>>>` launch).
    pub location: Location,
    /// The kernel launched.
    pub kernel: String,
    /// The kind of function launching it (`__global__` or `__device__`).
    pub from: String,
}

/// The device-side launches of clang's `stderr`, when every error it
/// reports is one (any other error is a bad input, reported as such).
pub fn device_side_launches(stderr: &str) -> Vec<DeviceSideLaunch> {
    let mut launches = Vec::new();
    for line in stderr.lines().filter(|l| l.contains("error: ")) {
        let Some(launch) = parse_launch(line) else { return Vec::new() };
        launches.push(launch);
    }
    launches
}

/// `FILE:LINE:COL: error: reference to __global__ function 'K' in __global__ function`.
fn parse_launch(line: &str) -> Option<DeviceSideLaunch> {
    let (place, rest) = line.split_once(KERNEL_IN_DEVICE_CODE)?;
    let (kernel, from) = rest.split_once("' in ")?;
    let from = from.strip_suffix(" function")?.to_string();
    let mut parts = place.trim_end().trim_end_matches(':').rsplitn(3, ':');
    let column = parts.next()?.trim().parse().ok()?;
    let line = parts.next()?.trim().parse().ok()?;
    let file = parts.next()?.to_string();
    Some(DeviceSideLaunch { location: Location { file, line, column }, kernel: kernel.to_string(), from })
}

/// The report of a run whose `.cu` input launches kernels from device
/// code; None for any other error.
pub fn report_instead_of(input: &str, err: &DriverError) -> Option<Report> {
    let DriverError::Frontend(FrontendError::Compile { stderr, .. }) = err else { return None };
    let launches = device_side_launches(stderr);
    if launches.is_empty() {
        return None;
    }
    let findings = launches
        .into_iter()
        .map(|l| {
            let message = format!(
                "dynamic parallelism: kernel `{}` is launched (or named) inside a {} function, which symcross does not model \
                 (clang 19 compiles no launch from device code); nothing in this input was checked",
                l.kernel, l.from
            );
            Finding::new(FindingKind::Unsupported, Status::Unconfirmed, message, l.location)
        })
        .collect();
    Some(Report::new(input.to_string(), Vec::new(), findings, RunStats::default(), None, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_launch_in_a_kernel_is_read_from_clangs_error() {
        let stderr = "/tmp/x/dp.cu:4:5: error: reference to __global__ function 'child' in __global__ function\n\
                      /tmp/x/dp.cu:1:17: note: 'child' declared here\n1 error generated when compiling for sm_70.\n";
        let l = device_side_launches(stderr);
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].kernel, "child");
        assert_eq!(l[0].from, "__global__");
        assert_eq!((l[0].location.file.as_str(), l[0].location.line, l[0].location.column), ("/tmp/x/dp.cu", 4, 5));
    }

    #[test]
    fn any_other_error_leaves_it_a_compile_error() {
        let stderr = "a.cu:4:5: error: reference to __global__ function 'child' in __device__ function\n\
                      a.cu:7:1: error: unknown type name 'foo'\n";
        assert!(device_side_launches(stderr).is_empty());
        assert!(device_side_launches("a.cu:7:1: error: unknown type name 'foo'\n").is_empty());
    }
}
