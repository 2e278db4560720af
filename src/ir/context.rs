//! State shared by the translation of one LLVM module: the data layout,
//! the maps from LLVM globals/functions to our ids, the interned source
//! files and the metadata kind ids we look for. Kept in one value so the
//! per-family translators take a single context argument.

use super::debug_loc::FileTable;
use super::llvm::{self, Value};
use super::types::{FuncId, GlobalId};
use super::types_from_llvm::Layout;
use llvm_sys::prelude::LLVMModuleRef;
use std::collections::HashMap;

/// SPIR_KERNEL calling convention number in LLVM.
pub const SPIR_KERNEL_CC: u32 = 76;

pub struct ModuleCx {
    pub layout: Layout,
    pub globals: HashMap<Value, GlobalId>,
    pub functions: HashMap<Value, FuncId>,
    pub files: FileTable,
    /// Kind id of `!fpmath` (approximate FP operations).
    pub fpmath_kind: u32,
    /// Kind id of `!kernel_arg_addr_space` (OpenCL kernels).
    pub kernel_md_kind: u32,
    /// Kind id of `!kernel_arg_base_type` (OpenCL kernels: each
    /// parameter's type as written, typedefs resolved).
    pub kernel_arg_type_kind: u32,
    /// CUDA `__global__` functions (`!nvvm.annotations` "kernel").
    pub cuda_kernels: std::collections::HashSet<Value>,
    pub llcx: llvm_sys::prelude::LLVMContextRef,
}

impl ModuleCx {
    pub fn new(module: LLVMModuleRef) -> ModuleCx {
        // SAFETY: module is a live module handed in by load_module.
        let llcx = unsafe { llvm_sys::core::LLVMGetModuleContext(module) };
        let mut globals = HashMap::new();
        for (i, g) in llvm::globals(module).enumerate() {
            globals.insert(g, GlobalId(i as u32));
        }
        let mut functions = HashMap::new();
        for (i, f) in llvm::functions(module).enumerate() {
            functions.insert(f, FuncId(i as u32));
        }
        ModuleCx {
            layout: Layout::new(module),
            globals,
            functions,
            files: FileTable::new(),
            fpmath_kind: llvm::md_kind(llcx, "fpmath"),
            kernel_md_kind: llvm::md_kind(llcx, "kernel_arg_addr_space"),
            kernel_arg_type_kind: llvm::md_kind(llcx, "kernel_arg_base_type"),
            cuda_kernels: llvm::nvvm_annotated(module, "kernel").into_iter().collect(),
            llcx,
        }
    }
}
