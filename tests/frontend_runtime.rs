//! The front end finds the runtime model: symcross.h without -I flags, and
//! every cl-runtime-model/host/*.c linked into host programs (but not into
//! kernels compiled alone). Kept in its own test binary because it sets
//! SYMCROSS_RUNTIME, which is process-wide.

use symcross::frontend::{compile_inputs, CompileOptions};
use symcross::ir::*;

#[test]
fn host_runtime_sources_are_compiled_and_linked() {
    let rt = tempfile::tempdir().unwrap();
    std::fs::create_dir(rt.path().join("host")).unwrap();
    std::fs::write(rt.path().join("symcross.h"), "int rt_helper(int);\n").unwrap();
    std::fs::write(rt.path().join("host/model.c"), "int rt_helper(int x) { return x + 1; }\n").unwrap();
    std::env::set_var("SYMCROSS_RUNTIME", rt.path());

    let work = tempfile::tempdir().unwrap();
    let harness = work.path().join("h.c");
    std::fs::write(&harness, "#include <symcross.h>\nint main(void) { return rt_helper(41); }\n").unwrap();
    let compiled = compile_inputs(&[harness], &CompileOptions::default()).unwrap();
    let m = load_module(compiled.path()).unwrap();
    let helper = m.find_function("rt_helper").expect("runtime function linked in");
    assert!(!m.function(helper).is_declaration());
    let main = m.function(m.find_function("main").unwrap());
    let calls_helper = main
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .any(|i| matches!(&i.kind, InstKind::Call { callee: Callee::Direct(f), .. } if *f == helper));
    assert!(calls_helper);

    // A kernel compiled alone does not get the host runtime.
    let kernel = work.path().join("k.cl");
    std::fs::write(&kernel, "__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }\n").unwrap();
    let compiled = compile_inputs(&[kernel], &CompileOptions::default()).unwrap();
    let m = load_module(compiled.path()).unwrap();
    assert!(m.find_function("rt_helper").is_none());
    let k = m.function(m.find_function("k").unwrap());
    assert!(k.is_kernel);
    assert!(k.blocks.iter().flat_map(|b| &b.insts).any(|i| matches!(
        &i.kind,
        InstKind::Call { callee: Callee::External(n), .. } if n.contains("get_global_id")
    )));
    std::env::remove_var("SYMCROSS_RUNTIME");
}
