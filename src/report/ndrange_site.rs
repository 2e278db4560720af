//! Where in an NDRange a kernel finding happened, as values rather than
//! words: the NDRange the kernel ran in and, for each work-item involved,
//! its ids and what it did (the bytes it touched, or where it stopped).
//! The text report says the same in its message; the HTML report's
//! NDRange picture is drawn from this. A race carries it as its `race`
//! field (two accesses); an out-of-bounds access in a kernel and a
//! barrier divergence carry it as `kernel_site` (one access past the
//! buffer's end; two work-items and where each stopped).

use serde::{Deserialize, Serialize};

/// The NDRange and the work-items a kernel finding involves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NdrangeSite {
    /// Dimensions in use, 1 to 3.
    pub dims: u32,
    /// Work-items per group in each dimension (the local size).
    pub local_size: [u64; 3],
    /// Work-groups in each dimension.
    pub num_groups: [u64; 3],
    /// The buffer the accesses touch, by its name in the kernel (none
    /// for a barrier divergence).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub buffer: String,
    /// `global`, `local`, ... (the buffer's memory).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub space: String,
    /// The buffer's size, for an access past its end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer_bytes: Option<u64>,
    /// The first work-item (where the finding is) and, for a race or a
    /// divergence, the second.
    pub accesses: Vec<SiteAccess>,
}

/// One work-item of a kernel finding and what it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteAccess {
    /// `read`, `write` or `atomic write`; for a divergence, where the
    /// work-item stopped (`waits at the barrier at line 9`).
    pub access: String,
    /// The work-item's local id, when known (a symbolic id of pair mode
    /// is read in the witness; absent without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_id: Option<[u64; 3]>,
    /// The work-item's group id, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_id: Option<[u64; 3]>,
    /// Offset of the first byte touched from the buffer's start, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub byte_offset: Option<i64>,
    /// Bytes touched (none for a divergence).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub bytes: u64,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}
