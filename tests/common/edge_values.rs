//! Operands for the tests that run intrinsics against the CPU: random bits
//! mixed, lane by lane, with edge values. Each test brings its own tables
//! (x86's and NEON's edges differ); the mixing is one piece of code.

use rand::{rngs::StdRng, Rng};
use symcross::ir::Type;

/// The edge values of one test and how often they are drawn.
pub struct EdgeValues {
    /// Bit patterns of binary32 edges (zeros, infinities, NaNs, ...).
    pub f32: &'static [u32],
    /// Bit patterns of binary64 edges.
    pub f64: &'static [u64],
    /// Integer edges, truncated to the lane width.
    pub int: &'static [i64],
    /// Of ten draws, how many are random bits (the first picks); picks up
    /// to 6 are edges, the rest small values.
    pub random_picks: u32,
    /// Small integers are drawn from `-small_int..small_int`.
    pub small_int: i64,
}

impl EdgeValues {
    /// One lane of type `ty`'s element: random bits, an edge, or a small
    /// value (floats in quarters, to exercise rounding ties).
    pub fn lane(&self, rng: &mut StdRng, ty: &Type) -> u128 {
        let w = ty.scalar_bits();
        let m = if w >= 128 { u128::MAX } else { (1u128 << w) - 1 };
        let pick = rng.gen_range(0..10);
        let random = pick < self.random_picks;
        let edge = !random && pick <= 6;
        let v: u128 = match (ty.is_float(), random, edge) {
            (_, true, _) => rng.gen(),
            (Some(_), _, true) if w == 32 => self.f32[rng.gen_range(0..self.f32.len())] as u128,
            (Some(_), _, true) => self.f64[rng.gen_range(0..self.f64.len())] as u128,
            (Some(_), _, _) if w == 32 => ((rng.gen_range(-4000..4000) as f32) / 4.0).to_bits() as u128,
            (Some(_), _, _) => ((rng.gen_range(-4000..4000) as f64) / 4.0).to_bits() as u128,
            (None, _, true) => self.int[rng.gen_range(0..self.int.len())] as u128,
            (None, _, _) => rng.gen_range(-self.small_int..self.small_int) as u128,
        };
        v & m
    }

    /// The little-endian bytes of one operand of type `ty`, in an `N`-byte
    /// register (lanes past the type's are zero).
    pub fn operand<const N: usize>(&self, rng: &mut StdRng, ty: &Type) -> [u8; N] {
        let mut out = [0u8; N];
        let nb = (ty.scalar_bits() / 8) as usize;
        for i in 0..ty.lanes() as usize {
            let v = self.lane(rng, ty);
            out[i * nb..(i + 1) * nb].copy_from_slice(&v.to_le_bytes()[..nb]);
        }
        out
    }
}
