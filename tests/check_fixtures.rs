//! Known-answer harnesses for `symcross check`: each fixture in
//! tests/fixtures/check/ states its expected verdict and finding kinds in
//! its first line.

mod common;

common::fixture_tests!(
    |name: &str| common::check_fixture(&format!("tests/fixtures/check/{name}.c"), &[]);
    int_double_shift_refuted,
    int_add_self_proved,
    branchy_abs_proved,
    division_by_zero,
    stack_overflow_index,
    masked_load_tail_in_bounds,
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
    const_global_write,
    const_global_memset,
    string_literal_write,
    const_cast_to_mutable_write_ok,
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
    wrong_arity_libm_unsupported,
    wrong_arity_libm_too_few_unsupported,
    wrong_arity_make_symbolic_unsupported,
    wrong_arity_check_equal_unsupported,
    fmin_swapped_operands_refuted,
    fmax_first_on_tie_proved,
    fmin_glibc_second_on_tie_proved,
    wrong_types_libm_unsupported,
    reduce_fmin_ties_lane_order,
);

/// A built-in declared with another parameter list than the one symcross
/// implements: the `unsupported` finding is at the call and names the
/// function, the arguments given and the arguments it takes; nothing
/// panics.
#[test]
fn wrong_arity_names_the_function_and_both_counts() {
    let cases = [
        ("wrong_arity_libm_unsupported", "`sqrtf` with 2 arguments", "takes 1 argument", 12),
        ("wrong_arity_libm_too_few_unsupported", "`fmaf` with 1 argument", "takes 3 arguments", 11),
        ("wrong_arity_make_symbolic_unsupported", "`symcross_make_symbolic` with 1 argument", "takes 2 or 3 arguments", 8),
        ("wrong_arity_check_equal_unsupported", "`symcross_check_equal` with 2 arguments", "takes 4 or 5 arguments", 11),
        (
            "wrong_types_libm_unsupported",
            "`sqrtf` declared with other types",
            "called with (64-bit) returning float, but it takes (float)",
            16,
        ),
    ];
    for (name, given, takes, line) in cases {
        let path = common::repo().join(format!("tests/fixtures/check/{name}.c"));
        let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
        assert!(!run.stderr.contains("panicked"), "{name}: {}", run.stderr);
        let json = run.json.unwrap_or_else(|| panic!("{name}: no report: {}", run.stderr));
        let findings = json["findings"].as_array().expect("findings");
        let f = findings
            .iter()
            .find(|f| f["kind"] == "unsupported" && f["message"].as_str().is_some_and(|m| m.contains(given)))
            .unwrap_or_else(|| panic!("{name}: no unsupported finding for {given}: {findings:#?}"));
        let message = f["message"].as_str().unwrap();
        assert!(message.contains(takes), "{name}: {message}");
        assert_eq!(f["location"]["line"], line, "{name}: {f:#?}");
    }
}

/// A write into a read-only object is reported at the write, naming the
/// object, with the witness that takes the path to it.
#[test]
fn write_to_read_only_names_the_object_at_the_write() {
    let cases = [
        ("const_global_write", "write of 4 bytes into constant global `table`", 15, Some(("i", "02000000"))),
        ("const_global_memset", "write of 8 bytes into constant global `message`", 9, None),
        ("string_literal_write", "write of 1 bytes into a string literal", 12, Some(("i", "02000000"))),
    ];
    for (name, message, line, witness) in cases {
        let path = common::repo().join(format!("tests/fixtures/check/{name}.c"));
        let run = common::symcross(&["check", path.to_str().unwrap(), "--json", "-"]);
        let json = run.json.unwrap_or_else(|| panic!("{name}: no report: {}", run.stderr));
        let findings = json["findings"].as_array().expect("findings");
        assert_eq!(findings.len(), 1, "{name}: {findings:#?}");
        let f = &findings[0];
        assert_eq!((f["kind"].as_str(), f["status"].as_str()), (Some("write-to-read-only"), Some("confirmed")), "{name}: {f:#?}");
        assert!(f["message"].as_str().is_some_and(|m| m.starts_with(message)), "{name}: {f:#?}");
        assert_eq!(f["location"]["line"], line, "{name}: {f:#?}");
        if let Some((input, hex)) = witness {
            assert_eq!(f["witness"][input], hex, "{name}: {f:#?}");
        }
    }
}

/// A masked store with an enabled lane past the end of its buffer. The
/// sanitizer of the native replay does not see what the masked-store
/// instruction writes, so the finding stands on the model alone.
#[test]
fn a_masked_store_past_the_end_is_found() {
    common::check_fixture("tests/fixtures/masked/masked_store_past_end.c", &["--no-replay"]);
}

#[test]
fn every_fixture_is_listed() {
    let dir = common::repo().join("tests/fixtures/check");
    for entry in std::fs::read_dir(dir).expect("fixture dir") {
        let path = entry.expect("entry").path();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
        assert!(LISTED.contains(&stem.as_str()), "fixture {stem} is not listed in tests/check_fixtures.rs");
    }
}
