//! The constant operands each intrinsic is tested with: shift amounts,
//! lane numbers and fractional bits must be immediates in the machine
//! code, so each tested value becomes a function of its own.

use symcross::ir::Type;
use symcross::neon::base_name;

/// A constant operand: its position and value (splat over every lane of
/// a vector operand).
#[derive(Copy, Clone, Debug)]
pub struct Constant {
    pub arg: usize,
    pub value: u128,
}

/// The cases of one intrinsic: `[None]` when every operand is data.
pub fn constant_cases(name: &str, ret: &Type, args: &[Type]) -> Vec<Option<Constant>> {
    let base = base_name(name.trim_start_matches("llvm.aarch64.neon."));
    let rw = ret.scalar_bits() as u128;
    let aw = args.first().map(|a| a.scalar_bits() as u128).unwrap_or(0);
    let (arg, values): (usize, Vec<u128>) = match base {
        "rshrn" | "sqshrn" | "sqrshrn" | "uqshrn" | "uqrshrn" | "sqshrun" | "sqrshrun" => (1, vec![1, rw / 2, rw]),
        "vsli" => (2, vec![0, 1, rw - 1]),
        "vsri" => (2, vec![1, rw / 2, rw]),
        "sqshlu" => (1, vec![0, 1, rw - 1]),
        "sqdmulh.lane" | "sqdmulh.laneq" | "sqrdmulh.lane" | "sqrdmulh.laneq" => (2, vec![0, args[1].lanes() as u128 - 1]),
        "vcvtfxs2fp" | "vcvtfxu2fp" => (1, vec![1, 7, aw]),
        "vcvtfp2fxs" | "vcvtfp2fxu" => (1, vec![1, 7, rw]),
        _ => return vec![None],
    };
    values.into_iter().map(|value| Some(Constant { arg, value })).collect()
}
