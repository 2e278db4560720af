//! Known-answer harnesses for `symcross check`: each fixture in
//! tests/fixtures/check/ states its expected verdict and finding kinds in
//! its first line.

mod common;

macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                common::check_fixture(concat!("tests/fixtures/check/", stringify!($name), ".c"), &[]);
            }
        )*
        const LISTED: &[&str] = &[$(stringify!($name)),*];
    };
}

fixtures!(
    int_double_shift_refuted,
    int_add_self_proved,
    branchy_abs_proved,
    division_by_zero,
    stack_overflow_index,
    stack_index_in_bounds,
    heap_use_after_free,
    heap_double_free,
    heap_overflow,
    uninitialized_read,
    float_associativity_refuted,
    float_commutativity_proved,
    float_branch_paths,
    switch_recursion_fptr,
    structs_globals_memcpy,
    vector_extension_proved,
    intrinsics_bits_proved,
    inline_asm_unsupported,
    syntax_error,
    merged_region_oob,
    struct_by_value_is_a_copy,
    float_classification_proved,
    float_classification_refuted,
    time_is_deterministic,
    stdin_is_empty,
    uninit_union_lane_fill_ok,
    uninit_branch_on_lane,
    uninit_struct_padding_compared,
    uninit_memcmp_padding,
    uninit_copy_is_silent,
    uninit_printf_argument,
    uninit_guarded_use_ok,
    uninit_scalar_branch,
    uninit_defined_bits_ok,
    uninit_high_bits_branch,
    uninit_symbolic_index,
    uninit_divisor_and_address,
    simde_style_restrict_inline,
    fenv_save_restore_proved,
    fenv_other_rounding_unsupported,
);

#[test]
fn every_fixture_is_listed() {
    let dir = common::repo().join("tests/fixtures/check");
    for entry in std::fs::read_dir(dir).expect("fixture dir") {
        let path = entry.expect("entry").path();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
        assert!(LISTED.contains(&stem.as_str()), "fixture {stem} is not listed in tests/check_fixtures.rs");
    }
}
