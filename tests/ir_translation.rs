//! Translation from LLVM to the internal IR, end to end: small C, OpenCL C
//! and LLVM-text snippets go through `compile_inputs` + `load_module`, and
//! the tests assert on the IR that comes out.

use std::path::PathBuf;
use symcross::expr::{BinOp, FBinOp, Outcomes};
use symcross::frontend::{compile_inputs, CompileOptions, FrontendError};
use symcross::ir::*;

/// Compiles one source file named `name` with `opts` and loads the module.
fn build_with(name: &str, src: &str, opts: &CompileOptions) -> Module {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, src).unwrap();
    let compiled = compile_inputs(&[path], opts).unwrap_or_else(|e| panic!("{e}"));
    load_module(compiled.path()).unwrap_or_else(|e| panic!("{e}"))
}

fn build_c(src: &str) -> Module {
    build_with("harness.c", src, &CompileOptions::default())
}

/// Loads LLVM text IR directly.
fn load_ll(text: &str) -> Module {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.ll");
    std::fs::write(&path, text).unwrap();
    load_module(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn func<'m>(m: &'m Module, name: &str) -> &'m Function {
    m.function(m.find_function(name).unwrap_or_else(|| panic!("no function {name}")))
}

fn insts(f: &Function) -> impl Iterator<Item = &Inst> {
    f.blocks.iter().flat_map(|b| b.insts.iter())
}

#[test]
fn loop_gets_phi_nodes_after_mem2reg() {
    let m = build_c("int sum(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }\n");
    let f = func(&m, "sum");
    assert!(insts(f).any(|i| matches!(i.kind, InstKind::Phi { .. })));
    assert!(!insts(f).any(|i| matches!(i.kind, InstKind::Alloca { .. })), "mem2reg removed the stack slots");
    assert!(f.blocks.len() >= 3);
    assert_eq!(f.params.len(), 1);
    assert_eq!(f.params[0].name, "n");
    assert_eq!(f.params[0].ty, Type::Int(32));
    assert_eq!(f.reg_types.len() as u32, f.num_regs);
    assert_eq!(f.reg_names.len() as u32, f.num_regs);
    // Every phi's incoming blocks exist, every dest register is in range.
    for i in insts(f) {
        if let InstKind::Phi { incoming } = &i.kind {
            assert!(incoming.iter().all(|(b, _)| (b.0 as usize) < f.blocks.len()));
        }
        if let Some(r) = i.dest {
            assert_eq!(f.reg_types[r.0 as usize], i.ty);
        }
    }
}

#[test]
fn all_fcmp_predicates_map_to_outcome_sets() {
    const LT: u8 = Outcomes::LT;
    const EQ: u8 = Outcomes::EQ;
    const GT: u8 = Outcomes::GT;
    const UNO: u8 = Outcomes::UNO;
    let expected: [(&str, u8); 16] = [
        ("false", 0),
        ("oeq", EQ),
        ("ogt", GT),
        ("oge", GT | EQ),
        ("olt", LT),
        ("ole", LT | EQ),
        ("one", LT | GT),
        ("ord", LT | EQ | GT),
        ("uno", UNO),
        ("ueq", UNO | EQ),
        ("ugt", UNO | GT),
        ("uge", UNO | GT | EQ),
        ("ult", UNO | LT),
        ("ule", UNO | LT | EQ),
        ("une", UNO | LT | GT),
        ("true", LT | EQ | GT | UNO),
    ];
    let mut body = String::new();
    for (i, (p, _)) in expected.iter().enumerate() {
        body += &format!("  %c{i} = fcmp {p} float %a, %b\n");
    }
    let m = load_ll(&format!("define void @f(float %a, float %b) {{\n{body}  ret void\n}}\n"));
    let got: Vec<Outcomes> = insts(func(&m, "f"))
        .map(|i| match &i.kind {
            InstKind::FCmp { outcomes, lhs, rhs } => {
                assert_eq!(*lhs, Operand::Reg(RegId(0)));
                assert_eq!(*rhs, Operand::Reg(RegId(1)));
                *outcomes
            }
            k => panic!("unexpected {k:?}"),
        })
        .collect();
    let want: Vec<Outcomes> = expected.iter().map(|(_, b)| Outcomes(*b)).collect();
    assert_eq!(got, want);
}

#[test]
fn fcmp_from_c_comparisons() {
    let m = build_c("int lt(float a, float b) { return a < b; }\nint ne(double a, double b) { return a != b; }\n");
    let find = |name: &str| {
        insts(func(&m, name))
            .find_map(|i| match i.kind {
                InstKind::FCmp { outcomes, .. } => Some(outcomes),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(find("lt"), Outcomes(Outcomes::LT));
    assert_eq!(find("ne"), Outcomes(Outcomes::LT | Outcomes::GT | Outcomes::UNO));
}

#[test]
fn struct_field_gep_folds_to_byte_offset() {
    let m = build_c(
        "struct S { char c; double d; int x[4]; };\n\
         double *fd(struct S *s) { return &s->d; }\n\
         int *fx(struct S *s) { return &s->x[0]; }\n",
    );
    let offsets = |name: &str| -> Vec<i64> {
        insts(func(&m, name))
            .filter_map(|i| match &i.kind {
                InstKind::Gep { offset, terms, .. } if terms.is_empty() => Some(*offset),
                _ => None,
            })
            .collect()
    };
    assert!(offsets("fd").contains(&8), "{:?}", offsets("fd"));
    assert!(offsets("fx").contains(&16), "{:?}", offsets("fx"));
}

#[test]
fn gep_into_an_array_keeps_its_length() {
    let m = load_ll(
        "define i8 @f(ptr %b, i64 %i, i64 %j) {\n\
         \x20 %e = getelementptr inbounds [2 x i8], ptr %b, i64 0, i64 %i\n\
         \x20 %v = load i8, ptr %e\n\
         \x20 %end = getelementptr inbounds [5 x i32], ptr %b, i64 0, i64 %j\n\
         \x20 %flex = getelementptr inbounds [0 x i32], ptr %end, i64 0, i64 %j\n\
         \x20 ret i8 %v\n}\n",
    );
    let geps: Vec<&InstKind> = insts(func(&m, "f")).map(|i| &i.kind).filter(|k| matches!(k, InstKind::Gep { .. })).collect();
    let bounds = |k: &InstKind| match k {
        InstKind::Gep { bounds, .. } => bounds.clone(),
        _ => unreachable!(),
    };
    // Loaded through: the element must exist.
    assert_eq!(bounds(geps[0]), vec![ArrayBound { term: 0, len: 2, dereferenced: true }]);
    // Used as an address only: one past the end is allowed.
    assert_eq!(bounds(geps[1]), vec![ArrayBound { term: 0, len: 5, dereferenced: false }]);
    // A flexible array member has no length to check.
    assert_eq!(bounds(geps[2]), vec![]);
}

#[test]
fn gep_with_mixed_indices_folds_constants_and_keeps_variables() {
    let m = load_ll(
        "%S = type { i8, double, [4 x i32] }\n\
         define ptr @f(ptr %p, i64 %i) {\n\
         \x20 %a = getelementptr %S, ptr %p, i64 1, i32 2, i64 3\n\
         \x20 %b = getelementptr %S, ptr %p, i64 %i, i32 2, i64 -1\n\
         \x20 ret ptr %a\n}\n",
    );
    let f = func(&m, "f");
    let geps: Vec<&InstKind> = insts(f).map(|i| &i.kind).collect();
    assert_eq!(
        geps[0],
        &InstKind::Gep { base: Operand::Reg(RegId(0)), offset: 32 + 16 + 12, terms: vec![], bounds: vec![], flags: Default::default() }
    );
    assert_eq!(
        geps[1],
        &InstKind::Gep {
            base: Operand::Reg(RegId(0)),
            offset: 16 - 4,
            terms: vec![(Operand::Reg(RegId(1)), 32)],
            bounds: vec![],
            flags: Default::default()
        }
    );
    assert_eq!(f.reg_names[2], "a");
}

#[test]
fn global_initializers_have_bytes_and_relocations() {
    let m = build_c(
        "const char msg[] = \"hi!\";\n\
         const char *tail = msg + 1;\n\
         int seven(void) { return 7; }\n\
         int (*fp)(void) = seven;\n\
         struct P { short a; int b; } pt = { -2, 0x01020304 };\n\
         double zeros[1000];\n",
    );
    let g = |name: &str| m.global(m.global_index[name]);
    let msg = g("msg");
    assert_eq!(msg.init.as_deref(), Some(&b"hi!\0"[..]));
    assert!(msg.constant);
    assert_eq!(msg.size, 4);
    let tail = g("tail");
    assert_eq!(tail.relocs, vec![(0, Reloc::Global { global: m.global_index["msg"], offset: 1 })]);
    assert_eq!(g("fp").relocs, vec![(0, Reloc::Function(m.find_function("seven").unwrap()))]);
    assert_eq!(g("pt").init.as_deref(), Some(&[0xfe, 0xff, 0, 0, 4, 3, 2, 1][..]));
    let zeros = g("zeros");
    assert_eq!(zeros.size, 8000);
    assert_eq!(zeros.align, 16);
    assert!(zeros.init.as_ref().unwrap().iter().all(|&b| b == 0));
    assert!(m.diagnostics.is_empty(), "{:?}", m.diagnostics);
}

#[test]
fn debug_locations_point_at_the_statement() {
    let src = "float div(float a, float b) {\n\
               \x20 float s = a + b;\n\
               \x20 float r = a / s;\n\
               \x20 return r;\n}\n";
    let m = build_c(src);
    let f = func(&m, "div");
    assert_eq!(f.loc.line, 1);
    let fdiv = insts(f).find(|i| matches!(i.kind, InstKind::Float { op: FBinOp::Div, .. })).unwrap();
    assert_eq!(fdiv.loc.line, 3);
    assert_eq!(fdiv.loc.column, 15);
    assert!(m.file_name(fdiv.loc).ends_with("harness.c"), "{}", m.file_name(fdiv.loc));
    assert_eq!(m.files[0], "<unknown>");
    let ret = f.blocks.last().unwrap();
    assert_eq!(ret.term_loc.line, 4);
}

const KERNEL: &str = "__kernel void k(__global float *a) { a[0] = a[1] / a[2]; }\n";

fn kernel_fdiv_approximate(opts: &CompileOptions) -> bool {
    let m = build_with("k.cl", KERNEL, opts);
    let k = func(&m, "k");
    assert!(k.is_kernel);
    assert_eq!(k.params[0].ty, Type::Ptr { addr_space: 1 });
    let approximate = insts(k)
        .find_map(|i| match i.kind {
            InstKind::Float { op: FBinOp::Div, approximate, .. } => Some(approximate),
            _ => None,
        })
        .expect("an fdiv");
    approximate
}

#[test]
fn opencl_float_division_is_approximate_by_default() {
    assert!(kernel_fdiv_approximate(&CompileOptions::default()));
    let exact = CompileOptions { cflags: vec!["-cl-fp32-correctly-rounded-divide-sqrt".into()], ..Default::default() };
    assert!(!kernel_fdiv_approximate(&exact));
}

#[test]
fn garbage_bitcode_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("junk.bc");
    std::fs::write(&path, [0x42u8, 0x43, 0xc0, 0xde, 1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    let err = load_module(&path).unwrap_err();
    assert!(matches!(err, IrError::Parse { .. }), "{err:?}");
    assert!(err.to_string().contains("junk.bc"));
    std::fs::write(&path, "this is not llvm\n").unwrap();
    assert!(matches!(load_module(&path), Err(IrError::Parse { .. })));
    std::fs::write(&path, "").unwrap();
    assert!(matches!(load_module(&path), Err(IrError::Parse { .. })));
}

#[test]
fn missing_files_are_named_in_errors() {
    let missing = PathBuf::from("/nonexistent/dir/harness.c");
    match compile_inputs(std::slice::from_ref(&missing), &CompileOptions::default()) {
        Err(FrontendError::MissingInput(p)) => assert_eq!(p, missing),
        other => panic!("unexpected {other:?}"),
    }
    let err = load_module(&PathBuf::from("/nonexistent/m.bc")).unwrap_err();
    assert!(matches!(err, IrError::Read { .. }));
    assert!(err.to_string().contains("/nonexistent/m.bc"));
}

#[test]
fn clang_errors_are_carried_verbatim() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.c");
    std::fs::write(&path, "int f(void) { return 1 +; }\n").unwrap();
    match compile_inputs(std::slice::from_ref(&path), &CompileOptions::default()) {
        Err(FrontendError::Compile { file, stderr, hint }) => {
            assert_eq!(file, path);
            assert_eq!(hint, "", "no target feature is missing");
            assert!(stderr.contains("bad.c:1:"), "{stderr}");
            assert!(stderr.contains("error: expected expression"), "{stderr}");
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn long_double_is_unsupported_not_a_panic() {
    let m = build_c("long double add(long double a, long double b) { return a + b; }\n");
    let f = func(&m, "add");
    assert!(matches!(f.ret, Type::Unsupported(_)));
    let msg = insts(f)
        .find_map(|i| match &i.kind {
            InstKind::Unsupported(msg) => Some(msg.clone()),
            _ => None,
        })
        .expect("an unsupported instruction");
    assert!(msg.contains("x86_fp80"), "{msg}");
}

#[test]
fn shufflevector_masks_are_read() {
    let m = build_c(
        "typedef float v4 __attribute__((vector_size(16)));\n\
         v4 mix(v4 a, v4 b) { return __builtin_shufflevector(a, b, 0, 5, 2, 7); }\n\
         v4 rev(v4 a) { return __builtin_shufflevector(a, a, 3, -1, 1, 0); }\n",
    );
    let mask = |name: &str| {
        insts(func(&m, name))
            .find_map(|i| match &i.kind {
                InstKind::ShuffleVector { mask, .. } => Some(mask.clone()),
                _ => None,
            })
            .unwrap()
    };
    assert_eq!(mask("mix"), vec![0, 5, 2, 7]);
    assert_eq!(mask("rev"), vec![3, -1, 1, 0]);
    let v4 = Type::Vector { elem: Box::new(Type::Float(symcross::expr::FpFormat::Single)), len: 4 };
    assert_eq!(func(&m, "mix").ret, v4);
}

#[test]
fn calls_are_classified_and_debug_intrinsics_dropped() {
    let m = build_c(
        "#include <symcross.h>\n\
         extern int ext(int);\n\
         static int helper(int x) { return x * 2; }\n\
         int top(int (*fp)(int), float f, int x) {\n\
         \x20 symcross_assume(x > 0);\n\
         \x20 float g = __builtin_fabsf(f);\n\
         \x20 return helper(x) + ext(x) + fp(x) + (int)g;\n}\n",
    );
    let callees: Vec<Callee> = insts(func(&m, "top"))
        .filter_map(|i| match &i.kind {
            InstKind::Call { callee, .. } => Some(callee.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(callees.len(), 5, "{callees:?}");
    assert_eq!(callees[0], Callee::External("symcross_assume".into()));
    assert_eq!(callees[1], Callee::Intrinsic("llvm.fabs.f32".into()));
    assert_eq!(callees[2], Callee::Direct(m.find_function("helper").unwrap()));
    assert_eq!(callees[3], Callee::External("ext".into()));
    assert_eq!(callees[4], Callee::Indirect(Operand::Reg(RegId(0))));
    assert!(!m.functions.iter().flat_map(|f| f.blocks.iter()).flat_map(|b| b.insts.iter()).any(|i| matches!(
        &i.kind,
        InstKind::Call { callee: Callee::Intrinsic(n), .. } if n.starts_with("llvm.dbg")
    )));
}

#[test]
fn switch_constants_atomics_and_aggregates() {
    let m = load_ll(
        "@g = global i32 0\n\
         define i32 @f(i32 %x, ptr %p, { i32, float } %s) {\n\
         entry:\n\
         \x20 switch i32 %x, label %d [ i32 1, label %a\n\
         \x20                           i32 -1, label %a ]\n\
         a:\n\
         \x20 %old = atomicrmw add ptr %p, i32 3 seq_cst\n\
         \x20 %pair = cmpxchg ptr @g, i32 0, i32 1 seq_cst seq_cst\n\
         \x20 %fl = extractvalue { i32, float } %s, 1\n\
         \x20 %big = zext i32 %x to i128\n\
         \x20 %w = add i128 %big, 170141183460469231731687303715884105727\n\
         \x20 %v = insertelement <4 x i32> <i32 1, i32 2, i32 poison, i32 4>, i32 %x, i32 2\n\
         \x20 fence seq_cst\n\
         \x20 ret i32 %old\n\
         d:\n\
         \x20 unreachable\n}\n",
    );
    let f = func(&m, "f");
    match &f.blocks[0].term {
        Terminator::Switch { default, cases, .. } => {
            assert_eq!(*default, BlockId(2));
            assert_eq!(cases, &vec![(1, BlockId(1)), (0xffff_ffff, BlockId(1))]);
        }
        t => panic!("unexpected {t:?}"),
    }
    assert_eq!(f.blocks[2].term, Terminator::Unreachable);
    let kinds: Vec<&InstKind> = f.blocks[1].insts.iter().map(|i| &i.kind).collect();
    assert!(matches!(kinds[0], InstKind::AtomicRmw { op: AtomicOp::Add, .. }));
    assert!(matches!(kinds[1], InstKind::CmpXchg { ptr: Operand::Const(Const::GlobalAddr { offset: 0, .. }), .. }));
    assert_eq!(kinds[2], &InstKind::ExtractValue { aggregate: Operand::Reg(RegId(2)), indices: vec![1] });
    assert!(matches!(kinds[3], InstKind::Cast { op: CastOp::ZExt, .. }));
    match kinds[4] {
        InstKind::Int { rhs: Operand::Const(Const::Int { width: 128, value }), .. } => {
            assert_eq!(*value, i128::MAX as u128)
        }
        k => panic!("unexpected {k:?}"),
    }
    match kinds[5] {
        InstKind::InsertElement { vector: Operand::Const(Const::Vector(lanes)), .. } => {
            assert_eq!(lanes[0], Const::Int { width: 32, value: 1 });
            assert_eq!(lanes[2], Const::Undef(Type::Int(32)));
        }
        k => panic!("unexpected {k:?}"),
    }
    assert_eq!(kinds[6], &InstKind::Fence);
}

#[test]
fn float_constants_are_bit_exact() {
    let m = load_ll(
        "define double @f(float %a, half %h) {\n\
         \x20 %x = fadd float %a, 0x36A0000000000000\n\
         \x20 %y = fmul half %h, 0xH3C00\n\
         \x20 %z = fsub double 0.1, 0x7FF8000000000001\n\
         \x20 ret double %z\n}\n",
    );
    let rhs: Vec<Const> = insts(func(&m, "f"))
        .map(|i| match &i.kind {
            InstKind::Float { lhs, rhs, .. } => match (lhs, rhs) {
                (Operand::Const(c), _) | (_, Operand::Const(c)) => c.clone(),
                _ => panic!(),
            },
            k => panic!("unexpected {k:?}"),
        })
        .collect();
    use symcross::expr::FpFormat::*;
    assert_eq!(rhs[0], Const::Float { format: Single, bits: 1 }); // smallest subnormal
    assert_eq!(rhs[1], Const::Float { format: Half, bits: 0x3c00 });
    assert_eq!(rhs[2], Const::Float { format: Double, bits: 0.1f64.to_bits() as u128 });
}

/// No instruction or terminator of `f` is `Unsupported`.
fn assert_fully_supported(m: &Module, name: &str) {
    let f = func(m, name);
    for b in &f.blocks {
        for i in &b.insts {
            assert!(!matches!(i.kind, InstKind::Unsupported(_)), "{name}: {:?}", i.kind);
        }
        assert!(!matches!(b.term, Terminator::Unsupported(_)), "{name}: {:?}", b.term);
    }
}

#[test]
fn sse_harness_translates_completely() {
    let m = build_c(
        "#include <immintrin.h>\n#include <symcross.h>\n\
         void scale(float *out, const float *in, int n) {\n\
         \x20 for (int i = 0; i < n; i += 4) {\n\
         \x20   __m128 v = _mm_loadu_ps(in + i);\n\
         \x20   v = _mm_mul_ps(_mm_max_ps(v, _mm_setzero_ps()), _mm_set1_ps(2.0f));\n\
         \x20   _mm_storeu_ps(out + i, _mm_andnot_ps(_mm_set1_ps(-0.0f), v));\n  }\n}\n\
         int main(void) {\n\
         \x20 float in[8], a[8], b[8];\n\
         \x20 symcross_make_symbolic(in, sizeof in, \"in\");\n\
         \x20 scale(a, in, 8);\n\
         \x20 for (int i = 0; i < 8; i++) b[i] = __builtin_fabsf(in[i] > 0 ? in[i] * 2.0f : 0.0f);\n\
         \x20 symcross_check_equal(a, b, 4, 8, \"scale\");\n  return 0;\n}\n",
    );
    assert_fully_supported(&m, "scale");
    assert_fully_supported(&m, "main");
    let main = func(&m, "main");
    assert!(insts(main).any(|i| matches!(&i.kind, InstKind::Alloca { elem_size: 32, .. })));
}

#[test]
fn opencl_kernel_with_local_memory_and_barrier() {
    let m = build_with(
        "r.cl",
        "__kernel void rev(__global int *g, __local int *tmp) {\n\
         \x20 size_t l = get_local_id(0), n = get_local_size(0);\n\
         \x20 tmp[l] = g[get_global_id(0)];\n\
         \x20 barrier(CLK_LOCAL_MEM_FENCE);\n\
         \x20 g[get_global_id(0)] = tmp[n - 1 - l];\n}\n",
        &CompileOptions::default(),
    );
    assert_fully_supported(&m, "rev");
    let k = func(&m, "rev");
    assert!(k.is_kernel);
    assert_eq!(k.params[1].ty, Type::Ptr { addr_space: 3 });
    let externals: Vec<String> = insts(k)
        .filter_map(|i| match &i.kind {
            InstKind::Call { callee: Callee::External(n), .. } => Some(n.clone()),
            _ => None,
        })
        .collect();
    assert!(externals.iter().any(|n| n.contains("barrier")), "{externals:?}");
}

#[test]
fn unmodelled_global_initializer_is_a_diagnostic() {
    let m = build_c("long double half_ld = 0.5L;\nint used(void) { return 1; }\n");
    let g = m.global(m.global_index["half_ld"]);
    assert_eq!(g.init, None);
    assert_eq!(g.size, 16);
    assert!(m.diagnostics.iter().any(|d| d.contains("half_ld") && d.contains("x86_fp80")), "{:?}", m.diagnostics);
}

#[test]
fn inline_asm_and_vector_constants() {
    let m = build_c(
        "typedef int v4i __attribute__((vector_size(16)));\n\
         v4i add1(v4i a) { v4i one = {1, 2, 3, 4}; return a + one; }\n\
         int nop(int x) { __asm__ volatile(\"nop\"); return x; }\n",
    );
    assert!(insts(func(&m, "nop")).any(|i| matches!(&i.kind, InstKind::Call { callee: Callee::InlineAsm, .. })));
    let lanes = insts(func(&m, "add1")).find_map(|i| match &i.kind {
        InstKind::Int { op: BinOp::Add, rhs: Operand::Const(Const::Vector(l)), .. } => Some(l.clone()),
        InstKind::Int { op: BinOp::Add, lhs: Operand::Const(Const::Vector(l)), .. } => Some(l.clone()),
        _ => None,
    });
    // At -O0 the constant may go through memory; accept either, but if it is
    // an operand its lanes must be in order.
    if let Some(lanes) = lanes {
        let want: Vec<Const> = (1..=4).map(|v| Const::Int { width: 32, value: v }).collect();
        assert_eq!(lanes, want);
    }
}

#[test]
fn constant_expressions_fold_to_global_addresses() {
    let m = load_ll(
        "@arr = global [8 x i32] zeroinitializer\n\
         @p = global ptr getelementptr ([8 x i32], ptr @arr, i64 0, i64 5)\n\
         @q = global i64 ptrtoint (ptr getelementptr (i8, ptr @arr, i64 3) to i64)\n\
         define ptr @f() {\n\
         \x20 %x = getelementptr i32, ptr getelementptr ([8 x i32], ptr @arr, i64 0, i64 2), i64 1\n\
         \x20 ret ptr %x\n}\n\
         define i32 @g() {\n\
         \x20 %v = call i32 @f_undeclared_in_c(ptr addrspace(1) addrspacecast (ptr @arr to ptr addrspace(1)))\n\
         \x20 ret i32 %v\n}\n\
         declare i32 @f_undeclared_in_c(ptr addrspace(1))\n",
    );
    let arr = m.global_index["arr"];
    assert_eq!(m.global(m.global_index["p"]).relocs, vec![(0, Reloc::Global { global: arr, offset: 20 })]);
    assert_eq!(m.global(m.global_index["q"]).relocs, vec![(0, Reloc::Global { global: arr, offset: 3 })]);
    let gep = insts(func(&m, "f")).next().unwrap();
    assert_eq!(
        gep.kind,
        InstKind::Gep {
            base: Operand::Const(Const::GlobalAddr { global: arr, offset: 8 }),
            offset: 4,
            terms: vec![],
            bounds: vec![],
            flags: Default::default()
        }
    );
    match &insts(func(&m, "g")).next().unwrap().kind {
        InstKind::Call { callee: Callee::External(n), args } => {
            assert_eq!(n, "f_undeclared_in_c");
            assert_eq!(args, &vec![Operand::Const(Const::GlobalAddr { global: arr, offset: 0 })]);
        }
        k => panic!("unexpected {k:?}"),
    }
    assert!(func(&m, "f_undeclared_in_c").is_declaration());
}
