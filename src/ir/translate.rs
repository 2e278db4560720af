//! Entry point of the LLVM side: `load_module` reads a .bc or .ll file with
//! inkwell, verifies it, and translates it into the internal IR (globals
//! with their initial images, functions with numbered registers, source
//! locations). LLVM objects never escape this module: the result owns
//! everything and the LLVM context is dropped on return.

use super::context::ModuleCx;
use super::error::IrError;
use super::function::translate_function;
use super::global_init::serialize;
use super::llvm::{self, Value};
use super::types::{Global, GlobalId, Module};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use llvm_sys::prelude::LLVMModuleRef;
use std::path::Path;

/// Reads and translates an LLVM module (bitcode or textual IR).
pub fn load_module(path: &Path) -> Result<Module, IrError> {
    let read_err = |message: String| IrError::Read { path: path.to_path_buf(), message };
    let len = std::fs::metadata(path).map_err(|e| read_err(e.to_string()))?.len();
    if len == 0 {
        return Err(IrError::Parse { path: path.to_path_buf(), message: "the file is empty".into() });
    }
    let buffer = MemoryBuffer::create_from_file(path).map_err(|e| read_err(e.to_string()))?;
    let context = Context::create();
    // LLVM detects bitcode by its magic number and parses text otherwise.
    let module = context.create_module_from_ir(buffer).map_err(|e| IrError::Parse { path: path.to_path_buf(), message: e.to_string() })?;
    module.verify().map_err(|e| IrError::Invalid { path: path.to_path_buf(), message: e.to_string() })?;
    check_layout(path, module.as_mut_ptr())?;
    Ok(translate_module(module.as_mut_ptr()))
}

/// Refuses modules whose data layout the executor does not model: memory
/// is little-endian and pointers are 64 bits (x86-64, AArch64, spir64). A
/// big-endian module would otherwise be checked as if little-endian.
fn check_layout(path: &Path, m: LLVMModuleRef) -> Result<(), IrError> {
    use llvm_sys::target::{LLVMByteOrder, LLVMByteOrdering, LLVMGetModuleDataLayout, LLVMPointerSize};
    // SAFETY: the module is alive; the strings and the layout it owns are
    // only read here.
    let (big_endian, pointer_bytes, layout, triple) = unsafe {
        let td = LLVMGetModuleDataLayout(m);
        let text = |p: *const std::os::raw::c_char| {
            if p.is_null() {
                String::new()
            } else {
                std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned()
            }
        };
        (
            LLVMByteOrder(td) == LLVMByteOrdering::LLVMBigEndian,
            LLVMPointerSize(td),
            text(llvm_sys::core::LLVMGetDataLayoutStr(m)),
            text(llvm_sys::core::LLVMGetTarget(m)),
        )
    };
    let why = if big_endian {
        "it is big-endian"
    } else if pointer_bytes != 8 {
        "its pointers are not 64 bits"
    } else {
        return Ok(());
    };
    Err(IrError::UnsupportedLayout { path: path.to_path_buf(), layout, triple, why: why.to_string() })
}

/// The C types of the module's variables, from its debug metadata
/// (`debug_types.rs` reads the printed form).
fn read_debug_types(m: LLVMModuleRef) -> super::debug_types::DebugTypes {
    // SAFETY: the module is alive; the string it prints is ours to free.
    let text = unsafe {
        let p = llvm_sys::core::LLVMPrintModuleToString(m);
        if p.is_null() {
            return Default::default();
        }
        let text = std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned();
        llvm_sys::core::LLVMDisposeMessage(p);
        text
    };
    super::debug_types::DebugTypes::parse(&text)
}

fn translate_module(m: LLVMModuleRef) -> Module {
    let mut cx = ModuleCx::new(m);
    let mut out = Module::default();
    for (i, g) in llvm::globals(m).enumerate() {
        let global = translate_global(&mut cx, g, &mut out.diagnostics);
        out.global_index.insert(global.name.clone(), GlobalId(i as u32));
        out.globals.push(global);
    }
    for f in llvm::functions(m) {
        let func = translate_function(&mut cx, f);
        out.function_index.insert(func.name.clone(), cx.functions[&f]);
        out.functions.push(func);
    }
    out.files = cx.files.files;
    out.debug_types = read_debug_types(m);
    // SAFETY: the module is alive; the string it owns is copied here.
    out.triple = unsafe {
        let p = llvm_sys::core::LLVMGetTarget(m);
        if p.is_null() {
            String::new()
        } else {
            std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned()
        }
    };
    out
}

fn translate_global(cx: &mut ModuleCx, g: Value, diagnostics: &mut Vec<String>) -> Global {
    let ty = llvm::global_value_type(g);
    let name = llvm::name(g);
    let align = match llvm::alignment(g) {
        0 => cx.layout.abi_align(ty),
        a => a,
    };
    let mut global = Global {
        name: name.clone(),
        size: cx.layout.alloc_size(ty),
        align,
        init: None,
        relocs: Vec::new(),
        constant: llvm::is_global_constant(g),
        addr_space: cx.layout.addr_space(llvm::type_of(g)),
        loc: cx.files.global_loc(g),
        element: super::element_of::element_of(ty),
    };
    let init = llvm::initializer(g);
    if llvm::is_declaration(g) || llvm::is_null(init) {
        return global;
    }
    match serialize(cx, init, ty) {
        Ok(image) => {
            global.init = Some(image.bytes);
            global.relocs = image.relocs;
        }
        Err(why) => diagnostics.push(format!("global @{name}: initializer not modelled: {why}")),
    }
    global
}
