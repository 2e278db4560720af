//! The padding lane of a three-component vector. Clang gives a vector of
//! three elements (OpenCL C's `int3`, `float3`; `ext_vector_type(3)`) the
//! size and alignment of four (OpenCL C 6.1.5) and stores one by widening
//! it to four lanes with a shuffle whose fourth mask entry is undefined.
//! That lane is the vector's padding: it holds no value the program
//! computed, as a struct's padding does not, so storing it is not an
//! uninitialised store.

use crate::ir::{Function, InstKind, Operand, Type};

/// The lane of the stored `value` that is the padding of a widened
/// three-component vector: `shufflevector <3 x T> %v, ..., <0, 1, 2, undef>`.
pub(in crate::exec) fn widened_vec3_padding(func: &Function, value: &Operand) -> Option<usize> {
    let Operand::Reg(r) = value else { return None };
    let inst = func.blocks.iter().flat_map(|b| &b.insts).find(|i| i.dest == Some(*r))?;
    let InstKind::ShuffleVector { a, mask, .. } = &inst.kind else { return None };
    let three = match a {
        Operand::Reg(s) => matches!(func.reg_types.get(s.0 as usize), Some(Type::Vector { len: 3, .. })),
        Operand::Const(_) => false,
    };
    (three && mask.len() == 4 && mask[..3].iter().all(|&m| (0..3).contains(&m)) && mask[3] < 0).then_some(3)
}
