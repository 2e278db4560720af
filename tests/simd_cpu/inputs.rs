//! Operand generation: random bits mixed, lane by lane, with edge values
//! (signed zeros, infinities, quiet and signalling NaNs, denormals, values
//! at the int conversion bounds, INT_MIN, saturation bounds, shift counts).

use super::common::edge_values::EdgeValues;
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

/// This test's edges and mix.
const EDGES: EdgeValues = EdgeValues { f32: F32_EDGES, f64: F64_EDGES, int: INT_EDGES, random_picks: 4, small_int: 70 };

/// The bytes of one operand of type `ty` (at most 32).
fn operand(rng: &mut StdRng, ty: &Type) -> [u8; 32] {
    EDGES.operand(rng, ty)
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
