//! LLVM constants to `Const`: integers up to 128 bits, half/float/double
//! (bit-exact, via an LLVM-folded bitcast to an integer), null, undef and
//! poison, global and function addresses, constant vectors and aggregates,
//! and the constant expressions clang emits (GEP, casts of addresses).
//! Anything else is an `Err` describing it, which the caller turns into an
//! `Unsupported` instruction rather than a panic.

use super::context::ModuleCx;
use super::gep;
use super::llvm::{self, Value};
use super::types::Const;
use llvm_sys::LLVMOpcode as Op;
use llvm_sys::LLVMTypeKind as K;
use llvm_sys::LLVMValueKind as V;

/// Aggregate constants larger than this are not expanded into operands.
const MAX_AGGREGATE_OPERAND: u64 = 1 << 16;
/// Alias chains longer than this are treated as cycles.
const MAX_ALIAS_DEPTH: u32 = 16;

pub fn constant(cx: &mut ModuleCx, v: Value) -> Result<Const, String> {
    constant_at_depth(cx, v, 0)
}

fn constant_at_depth(cx: &mut ModuleCx, v: Value, depth: u32) -> Result<Const, String> {
    match llvm::value_kind(v) {
        V::LLVMConstantIntValueKind => const_int(v),
        V::LLVMConstantFPValueKind => const_float(cx, v),
        // `null` pointers, and the "none" value of target types (a null
        // OpenCL event_t), which symcross models as pointer-sized handles.
        V::LLVMConstantPointerNullValueKind | V::LLVMConstantTargetNoneValueKind => Ok(Const::Null),
        V::LLVMUndefValueValueKind | V::LLVMPoisonValueKind => Ok(Const::Undef(cx.layout.convert(llvm::type_of(v)))),
        V::LLVMGlobalVariableValueKind => match cx.globals.get(&v) {
            Some(&global) => Ok(Const::GlobalAddr { global, offset: 0 }),
            None => Err(format!("unknown global {}", llvm::name(v))),
        },
        V::LLVMFunctionValueKind => match cx.functions.get(&v) {
            Some(&f) => Ok(Const::FuncAddr(f)),
            None => Err(format!("unknown function {}", llvm::name(v))),
        },
        V::LLVMGlobalAliasValueKind if depth < MAX_ALIAS_DEPTH => constant_at_depth(cx, llvm::aliasee(v), depth + 1),
        V::LLVMConstantAggregateZeroValueKind
        | V::LLVMConstantDataArrayValueKind
        | V::LLVMConstantDataVectorValueKind
        | V::LLVMConstantArrayValueKind
        | V::LLVMConstantStructValueKind
        | V::LLVMConstantVectorValueKind => aggregate(cx, v, depth),
        V::LLVMConstantExprValueKind => const_expr(cx, v, depth),
        _ => Err(format!("a constant of kind `{}` is not modelled", llvm::kind_name(v))),
    }
}

/// An integer constant as (width, zero-extended value).
pub fn int_value(v: Value) -> Result<(u32, u128), String> {
    let width = llvm::int_width(llvm::type_of(v));
    if width <= 64 {
        return Ok((width, llvm::const_zext_value(v) as u128));
    }
    if width > 128 {
        return Err(format!("integer constant of {width} bits (more than 128)"));
    }
    // The C API reads at most 64 bits; the printed form ("i128 -5") is exact.
    let text = llvm::print_value(v);
    let digits = text.split_whitespace().last().unwrap_or("");
    let value: i128 = digits.parse().map_err(|_| format!("cannot read integer constant `{text}`"))?;
    let mask = if width == 128 { u128::MAX } else { (1u128 << width) - 1 };
    Ok((width, value as u128 & mask))
}

fn const_int(v: Value) -> Result<Const, String> {
    let (width, value) = int_value(v)?;
    Ok(Const::Int { width, value })
}

fn const_float(cx: &mut ModuleCx, v: Value) -> Result<Const, String> {
    let ty = llvm::type_of(v);
    let format = match cx.layout.convert(ty) {
        crate::ir::Type::Float(f) => f,
        crate::ir::Type::Unsupported(why) => return Err(why),
        other => return Err(format!("float constant of type {other:?}")),
    };
    let as_int = llvm::const_bitcast(v, llvm::int_type(cx.llcx, format.width()));
    if llvm::value_kind(as_int) != V::LLVMConstantIntValueKind {
        return Err("a floating-point constant could not be read".to_string());
    }
    Ok(Const::Float { format, bits: llvm::const_zext_value(as_int) as u128 })
}

fn is_i64(t: llvm::Ty) -> bool {
    llvm::type_kind(t) == K::LLVMIntegerTypeKind && llvm::int_width(t) == 64
}

/// Number of elements of an aggregate or vector type, and whether it is a vector.
fn element_count(ty: llvm::Ty) -> Result<(u64, bool), String> {
    match llvm::type_kind(ty) {
        K::LLVMVectorTypeKind => Ok((llvm::vector_len(ty) as u64, true)),
        K::LLVMArrayTypeKind => Ok((llvm::array_len(ty), false)),
        K::LLVMStructTypeKind => Ok((llvm::struct_fields(ty).len() as u64, false)),
        _ => Err(format!("aggregate constant of type {}", llvm::print_type(ty))),
    }
}

fn aggregate(cx: &mut ModuleCx, v: Value, depth: u32) -> Result<Const, String> {
    let (count, is_vector) = element_count(llvm::type_of(v))?;
    if count > MAX_AGGREGATE_OPERAND {
        return Err(format!("aggregate constant with {count} elements used as an operand"));
    }
    let mut elems = Vec::with_capacity(count as usize);
    for i in 0..count as u32 {
        let e = llvm::aggregate_element(v, i);
        if llvm::is_null(e) {
            return Err(format!("element {i} of a constant aggregate could not be read"));
        }
        elems.push(constant_at_depth(cx, e, depth)?);
    }
    Ok(if is_vector { Const::Vector(elems) } else { Const::Aggregate(elems) })
}

fn const_expr(cx: &mut ModuleCx, v: Value, depth: u32) -> Result<Const, String> {
    let op0 = llvm::operand(v, 0);
    match llvm::const_opcode(v) {
        Op::LLVMGetElementPtr => {
            let base = constant_at_depth(cx, op0, depth)?;
            let indices: Vec<Value> = (1..llvm::num_operands(v)).map(|i| llvm::operand(v, i)).collect();
            let folded = gep::fold(&cx.layout, llvm::gep_source_type(v), &indices)?;
            if !folded.terms.is_empty() {
                return Err("constant GEP with a non-constant index".into());
            }
            match base {
                Const::GlobalAddr { global, offset } => Ok(Const::GlobalAddr { global, offset: offset.wrapping_add(folded.offset) }),
                _ => Err("a constant address computation on a base that is not a global is not modelled".to_string()),
            }
        }
        Op::LLVMBitCast | Op::LLVMAddrSpaceCast => constant_at_depth(cx, op0, depth),
        Op::LLVMPtrToInt if is_i64(llvm::type_of(v)) => {
            match constant_at_depth(cx, op0, depth)? {
                Const::Null => Ok(Const::Int { width: 64, value: 0 }),
                // Pointers are 64-bit values, so ptrtoint to i64 is the address itself.
                addr @ (Const::GlobalAddr { .. } | Const::FuncAddr(_)) => Ok(addr),
                _ => Err("a constant pointer-to-integer conversion of this operand is not modelled".to_string()),
            }
        }
        Op::LLVMIntToPtr => match constant_at_depth(cx, op0, depth)? {
            Const::Int { value: 0, .. } => Ok(Const::Null),
            // A pointer is its 64-bit address; inttoptr zero-extends (the
            // integer's bits are kept zero-extended) or truncates. Such an
            // address lies in no object, so using it is a finding.
            Const::Int { value, .. } => Ok(Const::Int { width: 64, value: value & u128::from(u64::MAX) }),
            _ => Err("a constant integer-to-pointer conversion of this operand is not modelled".to_string()),
        },
        op => Err(format!("a constant `{}` expression is not modelled", llvm::opcode_name(op))),
    }
}
