//! LLVM 19 intrinsics without runtime semantics (hints, markers, debug
//! information, annotations) are accepted: one LLVM text file per
//! intrinsic in tests/fixtures/intrinsics/, each stating its verdict in its
//! first line (`; expect: ...`).

mod common;

common::fixture_tests!(
    |name: &str| common::check_fixture(&format!("tests/fixtures/intrinsics/{name}.ll"), &[]);
    noalias_scope_decl,
    assume,
    assume_too_weak,
    assume_operand_bundle,
    lifetime,
    invariant_start_end,
    launder_invariant_group,
    strip_invariant_group,
    var_annotation,
    ptr_annotation,
    annotation,
    codeview_annotation,
    expect,
    expect_with_probability,
    sideeffect,
    donothing,
    pseudoprobe,
    threadlocal_address,
    ssa_copy,
    arithmetic_fence,
    prefetch,
    instrprof_increment,
    objectsize,
    is_constant,
    ptrmask,
    widenable_condition,
    allow_runtime_check,
    get_rounding,
    canonicalize,
    fptosi_sat,
    fptoui_sat,
    clear_cache,
    pcmarker,
    objc_arc_annotation,
    dbg,
);

fn fixture_texts() -> Vec<String> {
    let dir = common::repo().join("tests/fixtures/intrinsics");
    std::fs::read_dir(dir).expect("fixture dir").map(|e| std::fs::read_to_string(e.expect("entry").path()).expect("read")).collect()
}

#[test]
fn every_fixture_is_listed() {
    let dir = common::repo().join("tests/fixtures/intrinsics");
    for entry in std::fs::read_dir(dir).expect("fixture dir") {
        let path = entry.expect("entry").path();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
        assert!(LISTED.contains(&stem.as_str()), "fixture {stem} is not listed in tests/llvm_intrinsics.rs");
    }
}

/// Each intrinsic the translator drops is called by some fixture.
#[test]
fn every_dropped_intrinsic_has_a_fixture() {
    let texts = fixture_texts();
    for name in symcross::ir::NO_EFFECT_INTRINSICS {
        assert!(texts.iter().any(|t| t.contains(&format!("call void @{name}"))), "no fixture calls {name}");
    }
}

#[test]
fn dropped_names_match_exactly_or_by_prefix() {
    use symcross::ir::is_no_effect_intrinsic;
    assert!(is_no_effect_intrinsic("llvm.experimental.noalias.scope.decl"));
    assert!(is_no_effect_intrinsic("llvm.lifetime.start.p0"));
    assert!(is_no_effect_intrinsic("llvm.prefetch.p0"));
    assert!(is_no_effect_intrinsic("llvm.dbg.value"));
    assert!(!is_no_effect_intrinsic("llvm.assume"));
    assert!(!is_no_effect_intrinsic("llvm.donothingelse"));
    assert!(!is_no_effect_intrinsic("llvm.invariant.start.p0"), "returns a value: executed, not dropped");
}
