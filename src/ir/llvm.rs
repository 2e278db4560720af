//! Thin wrappers over the llvm-sys C API used by the translation. All raw
//! LLVM calls of the translator go through here so that the `unsafe` surface
//! is small and uniform. Invariant: every `LLVMValueRef`/`LLVMTypeRef` passed
//! in comes from the module currently being translated, which outlives the
//! translation; under that invariant these calls are sound.

use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::{LLVMOpcode, LLVMTypeKind, LLVMValueKind};
use std::ffi::{c_char, CStr};

pub type Value = LLVMValueRef;
pub type Ty = LLVMTypeRef;
pub type Bb = LLVMBasicBlockRef;

fn copy_str(ptr: *const c_char, len: usize) -> String {
    if ptr.is_null() || len == 0 {
        return String::new();
    }
    // SAFETY: LLVM returned a pointer to `len` bytes it owns.
    let bytes = unsafe { std::slice::from_raw_parts(ptr as *const u8, len) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Takes ownership of an LLVM-allocated message and frees it.
fn take_message(ptr: *mut c_char) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: ptr is a NUL-terminated string allocated by LLVM.
    let s = unsafe { CStr::from_ptr(ptr) }.to_string_lossy().into_owned();
    unsafe { LLVMDisposeMessage(ptr) };
    s
}

pub fn name(v: Value) -> String {
    let mut len = 0usize;
    let p = unsafe { LLVMGetValueName2(v, &mut len) };
    copy_str(p, len)
}
pub fn print_value(v: Value) -> String {
    take_message(unsafe { LLVMPrintValueToString(v) }).trim().to_string()
}
/// An instruction's opcode as LLVM's textual form spells it (`fpext`,
/// `getelementptr`), for messages that must not quote IR.
pub fn opcode_name(op: LLVMOpcode) -> String {
    format!("{op:?}").trim_start_matches("LLVM").to_lowercase()
}
/// What kind of value `v` is (`constant expression`, `block address`), for messages.
pub fn kind_name(v: Value) -> String {
    let raw = format!("{:?}", value_kind(v));
    let core = raw.trim_start_matches("LLVM").trim_end_matches("ValueKind");
    let mut out = String::new();
    for (i, c) in core.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push(' ');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}
pub fn print_type(t: Ty) -> String {
    take_message(unsafe { LLVMPrintTypeToString(t) })
}
pub fn value_kind(v: Value) -> LLVMValueKind {
    unsafe { LLVMGetValueKind(v) }
}
pub fn opcode(inst: Value) -> LLVMOpcode {
    unsafe { LLVMGetInstructionOpcode(inst) }
}
pub fn const_opcode(c: Value) -> LLVMOpcode {
    unsafe { LLVMGetConstOpcode(c) }
}
pub fn type_of(v: Value) -> Ty {
    unsafe { LLVMTypeOf(v) }
}
pub fn type_kind(t: Ty) -> LLVMTypeKind {
    unsafe { LLVMGetTypeKind(t) }
}
pub fn int_width(t: Ty) -> u32 {
    unsafe { LLVMGetIntTypeWidth(t) }
}
pub fn num_operands(v: Value) -> u32 {
    let n = unsafe { LLVMGetNumOperands(v) };
    n.max(0) as u32
}
pub fn operand(v: Value, i: u32) -> Value {
    unsafe { LLVMGetOperand(v, i) }
}
pub fn is_null(v: Value) -> bool {
    v.is_null()
}
pub fn md_kind(ctx: LLVMContextRef, name: &str) -> u32 {
    unsafe { LLVMGetMDKindIDInContext(ctx, name.as_ptr() as *const c_char, name.len() as u32) }
}
/// Whether an FP instruction carries the `contract` fast-math flag
/// (clang's -ffp-contract=fast): the back end may fuse it with a multiply.
pub fn allows_contraction(inst: Value) -> bool {
    // SAFETY: the flags are read only after LLVM says the value has them.
    unsafe { LLVMCanValueUseFastMathFlags(inst) != 0 && LLVMGetFastMathFlags(inst) & llvm_sys::LLVMFastMathAllowContract != 0 }
}
/// Whether an integer `add`, `sub`, `mul` or `shl` carries `nsw` (signed
/// overflow gives poison).
pub fn has_no_signed_wrap(inst: Value) -> bool {
    // SAFETY: asked of opcodes that have the flag only.
    unsafe { llvm_sys::core::LLVMGetNSW(inst) != 0 }
}
/// Whether an integer `add`, `sub`, `mul` or `shl` carries `nuw`
/// (unsigned wrap gives poison).
pub fn has_no_unsigned_wrap(inst: Value) -> bool {
    // SAFETY: asked of opcodes that have the flag only.
    unsafe { llvm_sys::core::LLVMGetNUW(inst) != 0 }
}
/// Whether a `udiv`, `sdiv`, `lshr` or `ashr` carries `exact` (a
/// remainder or a set bit shifted out gives poison).
pub fn is_exact(inst: Value) -> bool {
    // SAFETY: asked of opcodes that have the flag only.
    unsafe { llvm_sys::core::LLVMGetExact(inst) != 0 }
}
/// Whether a `zext` or `uitofp` carries `nneg` (a negative operand gives
/// poison).
pub fn is_non_negative(inst: Value) -> bool {
    // SAFETY: asked of `zext` and `uitofp` instructions only.
    unsafe { llvm_sys::core::LLVMGetNNeg(inst) != 0 }
}
/// Whether a `getelementptr` carries `inbounds` and `nuw`.
pub fn gep_no_wrap_flags(inst: Value) -> (bool, bool) {
    // SAFETY: asked of `getelementptr` instructions only.
    let f = unsafe { llvm_sys::core::LLVMGEPGetNoWrapFlags(inst) };
    (f & llvm_sys::LLVMGEPFlagInBounds != 0, f & llvm_sys::LLVMGEPFlagNUW != 0)
}
/// Whether an `or` carries `disjoint` (a bit set in both operands gives
/// poison).
pub fn is_disjoint(inst: Value) -> bool {
    // SAFETY: asked of `or` instructions only.
    unsafe { llvm_sys::core::LLVMGetIsDisjoint(inst) != 0 }
}
/// Whether `v` is an instruction (not a constant or argument).
pub fn is_instruction(v: Value) -> bool {
    !unsafe { LLVMIsAInstruction(v) }.is_null()
}
pub fn has_metadata(inst: Value, kind: u32) -> bool {
    !unsafe { LLVMGetMetadata(inst, kind) }.is_null()
}
/// Whether a global object (function, variable) carries metadata `kind`.
pub fn global_has_metadata(g: Value, kind: u32) -> bool {
    let mut n = 0usize;
    let entries = unsafe { llvm_sys::core::LLVMGlobalCopyAllMetadata(g, &mut n) };
    if entries.is_null() {
        return false;
    }
    let found = (0..n).any(|i| unsafe { LLVMValueMetadataEntriesGetKind(entries, i as u32) } == kind);
    unsafe { LLVMDisposeValueMetadataEntries(entries) };
    found
}

/// The strings of a global object's metadata node `kind` (an OpenCL
/// kernel's `!kernel_arg_base_type`: one string per parameter); None when
/// it has no such node. An operand that is not a string reads as "".
pub fn metadata_strings(ctx: LLVMContextRef, g: Value, kind: u32) -> Option<Vec<String>> {
    let mut n = 0usize;
    // SAFETY: the entries are read before they are disposed of, and each
    // operand is asked for its string only through LLVMGetMDString, which
    // answers null for one that is not a string.
    unsafe {
        let entries = llvm_sys::core::LLVMGlobalCopyAllMetadata(g, &mut n);
        if entries.is_null() {
            return None;
        }
        let found = (0..n as u32).find(|&i| LLVMValueMetadataEntriesGetKind(entries, i) == kind);
        let out = found.map(|i| {
            let node = LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(entries, i));
            let count = LLVMGetMDNodeNumOperands(node) as usize;
            let mut ops: Vec<Value> = vec![std::ptr::null_mut(); count];
            LLVMGetMDNodeOperands(node, ops.as_mut_ptr());
            ops.into_iter()
                .map(|op| {
                    let mut len = 0u32;
                    let s = if op.is_null() { std::ptr::null() } else { LLVMGetMDString(op, &mut len) };
                    copy_str(s, len as usize)
                })
                .collect()
        });
        LLVMDisposeValueMetadataEntries(entries);
        out
    }
}

/// The functions a CUDA module's `!nvvm.annotations` mark with `tag`
/// (`!{ptr @f, !"kernel", i32 1}`: `f` is a `__global__` function).
pub fn nvvm_annotated(m: LLVMModuleRef, tag: &str) -> Vec<Value> {
    let name = c"nvvm.annotations";
    // SAFETY: the named metadata and its nodes belong to the live module;
    // each operand is checked for null and for being a string before use.
    unsafe {
        let count = LLVMGetNamedMetadataNumOperands(m, name.as_ptr()) as usize;
        if count == 0 {
            return Vec::new();
        }
        let mut nodes: Vec<Value> = vec![std::ptr::null_mut(); count];
        LLVMGetNamedMetadataOperands(m, name.as_ptr(), nodes.as_mut_ptr());
        let mut out = Vec::new();
        for node in nodes.into_iter().filter(|n| !n.is_null()) {
            let n = LLVMGetMDNodeNumOperands(node) as usize;
            if n < 2 {
                continue;
            }
            let mut ops: Vec<Value> = vec![std::ptr::null_mut(); n];
            LLVMGetMDNodeOperands(node, ops.as_mut_ptr());
            let mut len = 0u32;
            let s = if ops[1].is_null() { std::ptr::null() } else { LLVMGetMDString(ops[1], &mut len) };
            if copy_str(s, len as usize) == tag && !ops[0].is_null() && !LLVMIsAFunction(ops[0]).is_null() {
                out.push(ops[0]);
            }
        }
        out
    }
}

/// Follows an LLVM intrusive list from `first` using `next`.
pub fn chain<T>(first: *mut T, next: unsafe extern "C" fn(*mut T) -> *mut T) -> impl Iterator<Item = *mut T> {
    std::iter::successors(if first.is_null() { None } else { Some(first) }, move |&cur| {
        let n = unsafe { next(cur) };
        if n.is_null() {
            None
        } else {
            Some(n)
        }
    })
}
pub fn functions(m: LLVMModuleRef) -> impl Iterator<Item = Value> {
    chain(unsafe { LLVMGetFirstFunction(m) }, LLVMGetNextFunction)
}
pub fn globals(m: LLVMModuleRef) -> impl Iterator<Item = Value> {
    chain(unsafe { LLVMGetFirstGlobal(m) }, LLVMGetNextGlobal)
}
pub fn blocks(f: Value) -> impl Iterator<Item = Bb> {
    chain(unsafe { LLVMGetFirstBasicBlock(f) }, LLVMGetNextBasicBlock)
}
pub fn instructions(bb: Bb) -> impl Iterator<Item = Value> {
    chain(unsafe { LLVMGetFirstInstruction(bb) }, LLVMGetNextInstruction)
}
pub fn params(f: Value) -> Vec<Value> {
    let n = unsafe { LLVMCountParams(f) };
    (0..n).map(|i| unsafe { LLVMGetParam(f, i) }).collect()
}
pub fn block_name(bb: Bb) -> String {
    name(unsafe { LLVMBasicBlockAsValue(bb) })
}
pub fn terminator(bb: Bb) -> Value {
    unsafe { LLVMGetBasicBlockTerminator(bb) }
}
pub fn successor(term: Value, i: u32) -> Bb {
    unsafe { LLVMGetSuccessor(term, i) }
}
pub fn num_successors(term: Value) -> u32 {
    unsafe { LLVMGetNumSuccessors(term) }
}
pub fn is_conditional(br: Value) -> bool {
    unsafe { LLVMIsConditional(br) != 0 }
}
pub fn condition(br: Value) -> Value {
    unsafe { LLVMGetCondition(br) }
}
pub fn incoming(phi: Value) -> Vec<(Value, Bb)> {
    let n = unsafe { LLVMCountIncoming(phi) };
    (0..n).map(|i| unsafe { (LLVMGetIncomingValue(phi, i), LLVMGetIncomingBlock(phi, i)) }).collect()
}
pub fn alignment(v: Value) -> u64 {
    unsafe { LLVMGetAlignment(v) as u64 }
}
pub fn is_volatile(v: Value) -> bool {
    unsafe { LLVMGetVolatile(v) != 0 }
}
pub fn allocated_type(alloca: Value) -> Ty {
    unsafe { LLVMGetAllocatedType(alloca) }
}
/// Whether `v` has uses and each of them loads or stores through it (as
/// the address, not the value stored).
pub fn only_dereferenced(v: Value) -> bool {
    let mut u = unsafe { LLVMGetFirstUse(v) };
    if u.is_null() {
        return false;
    }
    while !u.is_null() {
        let user = unsafe { LLVMGetUser(u) };
        if unsafe { LLVMIsAInstruction(user) }.is_null() {
            return false;
        }
        let through = match opcode(user) {
            LLVMOpcode::LLVMLoad => true,
            LLVMOpcode::LLVMStore => operand(user, 1) == v && operand(user, 0) != v,
            _ => false,
        };
        if !through {
            return false;
        }
        u = unsafe { LLVMGetNextUse(u) };
    }
    true
}
pub fn gep_source_type(gep: Value) -> Ty {
    unsafe { LLVMGetGEPSourceElementType(gep) }
}
pub fn icmp_pred(v: Value) -> llvm_sys::LLVMIntPredicate {
    unsafe { LLVMGetICmpPredicate(v) }
}
pub fn fcmp_pred(v: Value) -> llvm_sys::LLVMRealPredicate {
    unsafe { LLVMGetFCmpPredicate(v) }
}
pub fn rmw_op(v: Value) -> llvm_sys::LLVMAtomicRMWBinOp {
    unsafe { LLVMGetAtomicRMWBinOp(v) }
}
pub fn shuffle_mask(v: Value) -> Vec<i32> {
    let n = unsafe { LLVMGetNumMaskElements(v) };
    let undef = unsafe { LLVMGetUndefMaskElem() };
    (0..n).map(|i| unsafe { LLVMGetMaskValue(v, i) }).map(|m| if m == undef || m < 0 { -1 } else { m }).collect()
}
pub fn aggregate_indices(v: Value) -> Vec<u32> {
    let n = unsafe { LLVMGetNumIndices(v) } as usize;
    let p = unsafe { LLVMGetIndices(v) };
    if p.is_null() || n == 0 {
        return Vec::new();
    }
    // SAFETY: LLVM owns `n` indices at p.
    unsafe { std::slice::from_raw_parts(p, n) }.to_vec()
}
pub fn called_value(call: Value) -> Value {
    unsafe { LLVMGetCalledValue(call) }
}
pub fn num_args(call: Value) -> u32 {
    unsafe { LLVMGetNumArgOperands(call) }
}
pub fn is_inline_asm(v: Value) -> bool {
    !unsafe { LLVMIsAInlineAsm(v) }.is_null()
}
pub fn is_declaration(g: Value) -> bool {
    unsafe { LLVMIsDeclaration(g) != 0 }
}
pub fn global_value_type(g: Value) -> Ty {
    unsafe { LLVMGlobalGetValueType(g) }
}
pub fn initializer(g: Value) -> Value {
    unsafe { LLVMGetInitializer(g) }
}
pub fn is_global_constant(g: Value) -> bool {
    unsafe { LLVMIsGlobalConstant(g) != 0 }
}
pub fn call_conv(f: Value) -> u32 {
    unsafe { LLVMGetFunctionCallConv(f) }
}
pub fn function_type(f: Value) -> Ty {
    global_value_type(f)
}
pub fn return_type(fn_ty: Ty) -> Ty {
    unsafe { LLVMGetReturnType(fn_ty) }
}
pub fn is_vararg(fn_ty: Ty) -> bool {
    unsafe { LLVMIsFunctionVarArg(fn_ty) != 0 }
}
pub fn aliasee(alias: Value) -> Value {
    unsafe { LLVMAliasGetAliasee(alias) }
}
pub fn aggregate_element(c: Value, i: u32) -> Value {
    unsafe { LLVMGetAggregateElement(c, i) }
}
pub fn const_zext_value(c: Value) -> u64 {
    unsafe { LLVMConstIntGetZExtValue(c) }
}
/// Reinterprets a floating-point constant as an integer constant of the
/// same width; LLVM folds the bitcast, so the payload bits are exact.
pub fn const_bitcast(c: Value, to: Ty) -> Value {
    unsafe { LLVMConstBitCast(c, to) }
}
pub fn int_type(ctx: LLVMContextRef, bits: u32) -> Ty {
    unsafe { LLVMIntTypeInContext(ctx, bits) }
}
/// The bytes of an `i8` ConstantDataSequential, if it is one.
pub fn const_bytes(c: Value) -> Option<Vec<u8>> {
    if unsafe { LLVMIsAConstantDataSequential(c) }.is_null() || unsafe { LLVMIsConstantString(c) } == 0 {
        return None;
    }
    let mut len = 0usize;
    let p = unsafe { LLVMGetAsString(c, &mut len) };
    if p.is_null() {
        return None;
    }
    // SAFETY: LLVM owns `len` bytes at p.
    Some(unsafe { std::slice::from_raw_parts(p as *const u8, len) }.to_vec())
}
pub fn element_type(t: Ty) -> Ty {
    unsafe { LLVMGetElementType(t) }
}
pub fn vector_len(t: Ty) -> u32 {
    unsafe { LLVMGetVectorSize(t) }
}
pub fn array_len(t: Ty) -> u64 {
    unsafe { LLVMGetArrayLength2(t) }
}
pub fn struct_fields(t: Ty) -> Vec<Ty> {
    let n = unsafe { LLVMCountStructElementTypes(t) };
    (0..n).map(|i| unsafe { LLVMStructGetTypeAtIndex(t, i) }).collect()
}
pub fn struct_is_opaque(t: Ty) -> bool {
    unsafe { LLVMIsOpaqueStruct(t) != 0 }
}
pub fn pointer_addr_space(t: Ty) -> u32 {
    unsafe { LLVMGetPointerAddressSpace(t) }
}

/// The type of parameter `index` of function `f` if it is passed `byval`
/// (the callee gets its own copy of the pointee).
pub fn byval_type(f: Value, index: u32) -> Option<Ty> {
    const NAME: &str = "byval";
    let kind = unsafe { LLVMGetEnumAttributeKindForName(NAME.as_ptr() as *const c_char, NAME.len()) };
    // Attribute index 0 is the return value; parameters start at 1.
    let attr = unsafe { LLVMGetEnumAttributeAtIndex(f, index + 1, kind) };
    if attr.is_null() {
        return None;
    }
    let t = unsafe { LLVMGetTypeAttributeValue(attr) };
    (!t.is_null()).then_some(t)
}
