//! SplitMix64's finaliser, the one mixing function behind every seeded or
//! hashed choice symcross makes: sampled inputs (check/sampling.rs), sweep
//! patterns (check/sweep.rs) and the owners of path shards
//! (config/path_shard.rs). It spreads nearby inputs over all 64 bits, so
//! that consecutive seeds, indices or choices give unrelated outputs.

/// The increment of SplitMix64 (2^64 divided by the golden ratio).
pub const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64 of `x`: `x` plus the golden gamma, mixed.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A small, fast, seedable generator: the SplitMix64 sequence from a seed.
/// Sampling must be reproducible for a seed.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next value of the sequence.
    pub fn next_u64(&mut self) -> u64 {
        let out = splitmix64(self.0);
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference outputs of SplitMix64 seeded with 1234567 (from the
    /// algorithm's published C code).
    #[test]
    fn the_sequence_is_splitmix64() {
        let mut rng = SplitMix(1234567);
        let got: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(got, [6457827717110365317, 3203168211198807973, 9817491932198370423]);
    }
}
