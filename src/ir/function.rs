//! Translation of one LLVM function: numbering of registers (parameters
//! first, then every value-producing instruction in block order) and
//! blocks, then block-by-block translation of instructions and
//! terminators. Intrinsics without any effect (debug, lifetime, noalias
//! scope markers, ...) are dropped here because they are not executed.

use super::constants::{constant, int_value};
use super::context::{ModuleCx, SPIR_KERNEL_CC};
use super::insts::translate_inst;
use super::llvm::{self, Bb, Value};
use super::types::*;
use llvm_sys::LLVMOpcode as Op;
use llvm_sys::LLVMTypeKind as K;
use llvm_sys::LLVMValueKind as V;
use std::collections::HashMap;

/// Per-function translation state: the register and block numbering.
pub struct FnCx<'a> {
    pub cx: &'a mut ModuleCx,
    regs: HashMap<Value, RegId>,
    blocks: HashMap<Bb, BlockId>,
}

impl FnCx<'_> {
    /// An operand: a register for arguments and instructions, else a constant.
    pub fn operand(&mut self, v: Value) -> Result<Operand, String> {
        match llvm::value_kind(v) {
            V::LLVMArgumentValueKind | V::LLVMInstructionValueKind => match self.regs.get(&v) {
                Some(&r) => Ok(Operand::Reg(r)),
                None => Err(format!("use of an untranslated value `{}`", llvm::print_value(v))),
            },
            V::LLVMMetadataAsValueValueKind => {
                Err(format!("metadata operand `{}` (only intrinsics take metadata, and this one is not modelled)", llvm::print_value(v)))
            }
            _ => constant(self.cx, v).map(Operand::Const),
        }
    }

    pub fn operand_at(&mut self, inst: Value, i: u32) -> Result<Operand, String> {
        self.operand(llvm::operand(inst, i))
    }

    pub fn block(&self, bb: Bb) -> Result<BlockId, String> {
        self.blocks.get(&bb).copied().ok_or_else(|| "branch to an unknown block".to_string())
    }
}

/// LLVM 19 intrinsics that return nothing and have no effect a program can
/// observe (hints to optimisers, debug information, profiling counters):
/// calls to them are not translated. Entries ending in `.` are prefixes.
/// Those that return a value (`llvm.expect`, `llvm.launder.invariant.group`,
/// ...) and `llvm.assume` are executed (exec/ops/intrinsics.rs).
pub const NO_EFFECT_INTRINSICS: &[&str] = &[
    "llvm.dbg.",
    "llvm.lifetime.",
    "llvm.experimental.noalias.scope.decl",
    "llvm.invariant.end",
    "llvm.sideeffect",
    "llvm.donothing",
    "llvm.pseudoprobe",
    "llvm.var.annotation",
    "llvm.codeview.annotation",
    "llvm.instrprof.",
    "llvm.prefetch",
    "llvm.pcmarker",
    "llvm.clear_cache",
    "llvm.objc.arc.annotation.",
];

/// Whether `name` is one of `NO_EFFECT_INTRINSICS`.
pub fn is_no_effect_intrinsic(name: &str) -> bool {
    NO_EFFECT_INTRINSICS
        .iter()
        .any(|n| if n.ends_with('.') { name.starts_with(n) } else { name == *n || name.starts_with(&format!("{n}.")) })
}

/// Calls that are not executed: the intrinsics of `NO_EFFECT_INTRINSICS`.
pub fn is_dropped(inst: Value) -> bool {
    if llvm::opcode(inst) != Op::LLVMCall {
        return false;
    }
    let callee = llvm::called_value(inst);
    if llvm::value_kind(callee) != V::LLVMFunctionValueKind {
        return false;
    }
    let name = llvm::name(callee);
    name.starts_with("llvm.") && is_no_effect_intrinsic(&name)
}

pub fn translate_function(cx: &mut ModuleCx, f: Value) -> Function {
    let fn_ty = llvm::function_type(f);
    let mut func = Function {
        name: llvm::name(f),
        params: Vec::new(),
        ret: cx.layout.convert(llvm::return_type(fn_ty)),
        varargs: llvm::is_vararg(fn_ty),
        blocks: Vec::new(),
        num_regs: 0,
        reg_types: Vec::new(),
        reg_names: Vec::new(),
        loc: cx.files.global_loc(f),
        is_kernel: llvm::call_conv(f) == SPIR_KERNEL_CC || llvm::global_has_metadata(f, cx.kernel_md_kind) || cx.cuda_kernels.contains(&f),
    };
    let cl_types = llvm::metadata_strings(cx.llcx, f, cx.kernel_arg_type_kind).unwrap_or_default();
    let mut fcx = FnCx { cx, regs: HashMap::new(), blocks: HashMap::new() };
    for (i, p) in llvm::params(f).into_iter().enumerate() {
        let reg = new_reg(&mut fcx, &mut func, p);
        let byval_ty = llvm::byval_type(f, i as u32);
        let byval = byval_ty.map(|t| (fcx.cx.layout.alloc_size(t), fcx.cx.layout.abi_align(t)));
        let cuda_kernel = func.is_kernel && fcx.cx.layout.is_cuda();
        let byval_pointers = match byval_ty {
            Some(t) => fcx.cx.layout.convert(t).pointer_offsets(),
            None => Vec::new(),
        };
        // The host fills a CUDA kernel's struct with cudaMalloc'd pointers.
        let byval_pointers = byval_pointers
            .into_iter()
            .map(|(at, space)| (at, if cuda_kernel && space == 0 { super::GLOBAL_SPACE } else { space }))
            .collect();
        let image_dims = super::types_from_llvm::image_dims(&llvm::print_type(llvm::type_of(p)));
        let cl_type = cl_types.get(i).filter(|t| !t.is_empty()).cloned();
        let mut ty = func.reg_types[reg.0 as usize].clone();
        // A CUDA kernel's pointer arguments come from the host
        // (cudaMalloc): they point to global memory, though clang types
        // them generic.
        if cuda_kernel && byval.is_none() && ty == (Type::Ptr { addr_space: 0 }) {
            ty = Type::Ptr { addr_space: super::GLOBAL_SPACE };
        }
        func.params.push(Param { reg, ty, name: llvm::name(p), byval, byval_pointers, image_dims, cl_type });
    }
    if llvm::is_declaration(f) {
        return func;
    }
    number_body(&mut fcx, &mut func, f);
    for bb in llvm::blocks(f) {
        let block = translate_block(&mut fcx, bb);
        func.blocks.push(block);
    }
    if func.loc.line == 0 {
        let first = func.blocks.iter().flat_map(|b| b.insts.iter()).map(|i| i.loc).find(|l| l.line != 0);
        func.loc = first.unwrap_or_default();
    }
    func
}

fn new_reg(fcx: &mut FnCx, func: &mut Function, v: Value) -> RegId {
    let reg = RegId(func.num_regs);
    func.num_regs += 1;
    func.reg_types.push(fcx.cx.layout.convert(llvm::type_of(v)));
    func.reg_names.push(llvm::name(v));
    fcx.regs.insert(v, reg);
    reg
}

/// Numbers blocks and value-producing instructions before translation, so
/// that phi nodes can refer forward.
fn number_body(fcx: &mut FnCx, func: &mut Function, f: Value) {
    for (i, bb) in llvm::blocks(f).enumerate() {
        fcx.blocks.insert(bb, BlockId(i as u32));
        for inst in llvm::instructions(bb) {
            if !is_dropped(inst) && llvm::type_kind(llvm::type_of(inst)) != K::LLVMVoidTypeKind {
                new_reg(fcx, func, inst);
            }
        }
    }
}

fn translate_block(fcx: &mut FnCx, bb: Bb) -> Block {
    let term_inst = llvm::terminator(bb);
    let mut insts = Vec::new();
    for inst in llvm::instructions(bb) {
        if inst == term_inst || is_dropped(inst) {
            continue;
        }
        let dest = fcx.regs.get(&inst).copied();
        let ty = fcx.cx.layout.convert(llvm::type_of(inst));
        let kind = match &ty {
            Type::Unsupported(why) => Err(why.clone()),
            _ => translate_inst(fcx, inst),
        };
        let kind = kind.unwrap_or_else(|msg| unsupported(msg, inst));
        insts.push(Inst { kind, dest, ty, loc: fcx.cx.files.inst_loc(inst) });
    }
    let (term, term_loc) = if llvm::is_null(term_inst) {
        (Terminator::Unsupported("block without terminator".into()), Loc::default())
    } else {
        let term = translate_terminator(fcx, term_inst)
            .unwrap_or_else(|msg| Terminator::Unsupported(format!("{msg} (`{}` instruction)", llvm::opcode_name(llvm::opcode(term_inst)))));
        (term, fcx.cx.files.inst_loc(term_inst))
    };
    Block { name: llvm::block_name(bb), insts, term, term_loc }
}

fn unsupported(msg: String, inst: Value) -> InstKind {
    // The opcode, not the printed instruction: messages name what the user
    // wrote (the source line is the finding's location), never IR text.
    InstKind::Unsupported(format!("{msg} (`{}` instruction)", llvm::opcode_name(llvm::opcode(inst))))
}

fn translate_terminator(fcx: &mut FnCx, t: Value) -> Result<Terminator, String> {
    match llvm::opcode(t) {
        Op::LLVMRet if llvm::num_operands(t) == 0 => Ok(Terminator::Ret(None)),
        Op::LLVMRet => Ok(Terminator::Ret(Some(fcx.operand_at(t, 0)?))),
        Op::LLVMBr if llvm::is_conditional(t) => Ok(Terminator::CondBr {
            cond: fcx.operand(llvm::condition(t))?,
            then: fcx.block(llvm::successor(t, 0))?,
            otherwise: fcx.block(llvm::successor(t, 1))?,
        }),
        Op::LLVMBr => Ok(Terminator::Br(fcx.block(llvm::successor(t, 0))?)),
        Op::LLVMSwitch => {
            let value = fcx.operand_at(t, 0)?;
            let default = fcx.block(llvm::successor(t, 0))?;
            let mut cases = Vec::new();
            // Operands are [cond, default, value0, dest0, value1, dest1, ...].
            for i in 1..llvm::num_successors(t) {
                let (_, case) = int_value(llvm::operand(t, 2 * i))?;
                cases.push((case, fcx.block(llvm::successor(t, i))?));
            }
            Ok(Terminator::Switch { value, default, cases })
        }
        Op::LLVMUnreachable => Ok(Terminator::Unreachable),
        op => Err(format!("unsupported terminator {op:?}")),
    }
}
