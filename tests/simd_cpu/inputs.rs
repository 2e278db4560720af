//! Operand generation: random bits mixed, lane by lane, with edge values
//! (signed zeros, infinities, quiet and signalling NaNs, denormals, values
//! at the int conversion bounds, INT_MIN, saturation bounds, shift counts).

use super::common::x86sig::Row;
use rand::{rngs::StdRng, Rng};
use symcross::ir::Type;

const F32_EDGES: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0xffc0_0000,
    0x7f80_0001,
    0x7fa0_1234,
    0xffc1_2345,
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x3f80_0000,
    0xbf80_0000,
    0x3f00_0000,
    0xbf00_0000,
    0x3fc0_0000,
    0x4020_0000,
    0xc020_0000,
    0x7f7f_ffff,
    0x4f00_0000,
    0xcf00_0000,
    0x4eff_ffff,
    0x5f00_0000,
    0xdf00_0000,
    0x3eff_ffff,
    0x4b80_0000,
];
const F64_EDGES: &[u64] = &[
    0,
    0x8000_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0xfff8_0000_0000_0000,
    0x7ff0_0000_0000_0001,
    0x7ff4_0000_dead_beef,
    0x0000_0000_0000_0001,
    0x800f_ffff_ffff_ffff,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x3fe0_0000_0000_0000,
    0x4004_0000_0000_0000,
    0xc004_0000_0000_0000,
    0x41e0_0000_0000_0000,
    0xc1e0_0000_0000_0000,
    0x41df_ffff_ffc0_0000,
    0xc1e0_0000_0020_0000,
    0x43e0_0000_0000_0000,
    0x7fef_ffff_ffff_ffff,
    0x47ef_ffff_e000_0000,
    0x3690_0000_0000_0000,
];
const INT_EDGES: &[i64] = &[
    0,
    1,
    -1,
    2,
    0x7f,
    0x80,
    -128,
    0xff,
    0x100,
    0x7fff,
    0x8000,
    -32768,
    0xffff,
    0x1_0000,
    0x7fff_ffff,
    -0x8000_0000,
    0xffff_ffff,
    i64::MAX,
    i64::MIN,
];

fn lane(rng: &mut StdRng, ty: &Type) -> u128 {
    let w = ty.scalar_bits();
    let m = if w >= 128 { u128::MAX } else { (1u128 << w) - 1 };
    let pick = rng.gen_range(0..10);
    let v: u128 = match (ty.is_float(), pick) {
        (_, 0..=3) => rng.gen(),
        (Some(_), 4..=6) if w == 32 => F32_EDGES[rng.gen_range(0..F32_EDGES.len())] as u128,
        (Some(_), 4..=6) => F64_EDGES[rng.gen_range(0..F64_EDGES.len())] as u128,
        // Small values with halves, to exercise rounding ties.
        (Some(_), _) if w == 32 => ((rng.gen_range(-4000..4000) as f32) / 4.0).to_bits() as u128,
        (Some(_), _) => ((rng.gen_range(-4000..4000) as f64) / 4.0).to_bits() as u128,
        (None, 4..=6) => INT_EDGES[rng.gen_range(0..INT_EDGES.len())] as u128,
        (None, _) => rng.gen_range(-70i64..70) as u128,
    };
    v & m
}

fn operand(rng: &mut StdRng, ty: &Type) -> [u8; 32] {
    let mut out = [0u8; 32];
    let nb = (ty.scalar_bits() / 8) as usize;
    for i in 0..ty.lanes() as usize {
        let v = lane(rng, ty);
        out[i * nb..(i + 1) * nb].copy_from_slice(&v.to_le_bytes()[..nb]);
    }
    out
}

/// One input per operand. A uniform shift count (the low 64 bits of an xmm
/// operand) is usually small, so that in-range shifts are exercised too.
pub fn generate(rng: &mut StdRng, row: &Row) -> Vec<[u8; 32]> {
    let uniform_shift = [".psll.", ".psrl.", ".psra."].iter().any(|s| row.name.contains(s));
    row.args
        .iter()
        .enumerate()
        .map(|(k, (ty, _))| {
            let mut b = operand(rng, ty);
            if uniform_shift && k == 1 && rng.gen_bool(0.7) {
                b[..8].copy_from_slice(&rng.gen_range(0u64..70).to_le_bytes());
            }
            b
        })
        .collect()
}
