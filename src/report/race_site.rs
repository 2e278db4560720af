//! Where a race happened, as values rather than words: the NDRange the
//! kernel ran in and, for each of the two accesses, the work-item, its
//! group and the bytes it touched. The text report says the same in its
//! message; pictures of the race (the HTML report's NDRange grid) are
//! drawn from this. Serialised as the `race` field of a finding.

use serde::{Deserialize, Serialize};

/// The NDRange and the two racing accesses of a `race` finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceSite {
    /// Dimensions in use, 1 to 3.
    pub dims: u32,
    /// Work-items per group in each dimension (the local size).
    pub local_size: [u64; 3],
    /// Work-groups in each dimension.
    pub num_groups: [u64; 3],
    /// The buffer both accesses touch, by its name in the kernel.
    pub buffer: String,
    /// `global` or `local`.
    pub space: String,
    /// The first access (where the finding is) and the second (its related location).
    pub accesses: [RaceAccess; 2],
}

/// One of the two accesses of a race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceAccess {
    /// `read`, `write` or `atomic write`.
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
    /// Bytes touched.
    pub bytes: u64,
}
