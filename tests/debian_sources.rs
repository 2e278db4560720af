//! SIMD code of Debian source packages (libwebp's SSE2 paths, Opus's
//! SSE and SSE4.1 pitch-search kernels, libvpx's vpx_dsp SSE2 metrics,
//! speexdsp's resampler inner products, pixman's SSE2 combiners, SIMDe's
//! portable intrinsics, Highway's bit packing against its portable target)
//! checked against the package's own C references: `suites/debian/symcross.toml`,
//! over the sources that `suites/debian/fetch-sources.sh` fetched at set-up.
//! The known answers: which functions are proved equal, that a reference
//! with a weight, a multiplier, a neighbour, a stride or an operator wrong
//! gives a mismatch the CPU reproduces, and that libvpx's SSE2 paths differ
//! from their references where the library's own contract lets them (any
//! 16-bit input to the sum of squares, the Hadamard coefficients' order).

mod common;

use serde_json::Value;
use std::process::Command;

#[test]
fn debian_simd_paths_against_their_c_references() {
    let dir = common::repo().join("suites/debian");
    let fetched = [
        "sources/libwebp/src/dsp/enc_sse2.c",
        "sources/opus/celt/x86/pitch_sse4_1.c",
        "sources/libvpx/vpx_dsp/x86/avg_intrin_sse2.c",
        "sources/speexdsp/libspeexdsp/resample_sse.h",
        "sources/pixman/pixman/pixman-sse2.c",
        "/usr/include/simde/x86/ssse3.h",
        "sources/highway/hwy/contrib/bit_pack/bit_pack-inl.h",
    ];
    if let Some(missing) = fetched.iter().find(|f| !dir.join(f).exists()) {
        common::skip_or_fail_under_ci(
            "debian_simd_paths_against_their_c_references",
            &format!("{missing} is missing (suites/debian/fetch-sources.sh and libsimde-dev, both from scripts/setup.sh)"),
        );
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_symcross"))
        .current_dir(&dir)
        .env("SYMCROSS_CACHE_DIR", cache.path())
        .args(["suite", "-j", "2", "--json", "-"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let entries = report["entries"].as_array().expect("entries");
    let verdict_of = |prefix: &str| -> String {
        let e = entries.iter().find(|e| e["name"].as_str().unwrap_or("").contains(prefix)).unwrap_or_else(|| panic!("no entry {prefix}"));
        e["report"]["verdict"].as_str().unwrap_or("no report").to_string()
    };
    for proved in [
        "(SSE4x4)",
        "(ITransform)",
        "(FTransform)",
        "(Disto4x4)",
        "add green",
        "(MultARGBRow)",
        "(Predictor11)",
        "(TransformColorInverse)",
        "(celt_inner_prod_sse4_1)",
        "(xcorr_kernel_sse)",
        "(vpx_avg_4x4_sse2)",
        "(vpx_avg_8x8_sse2)",
        "(vpx_int_pro_col_sse2)",
        "(vpx_satd_sse2)",
        "(vpx_variance4x4_sse2)",
        "(vpx_sum_squares_2d_i16_sse2)",
        "(vpx_hadamard_8x8_sse2)",
        "(vpx_minmax_8x8_sse2)",
        "(vpx_sad32x16_avx2)",
        "(vpx_idct4x4_16_add_sse2)",
        "(vpx_fdct4x4_sse2)",
        "(vpx_vector_var_sse2)",
        "(inner_product_single)",
        "(inner_product_double)",
        "(sse2_combine_add_u)",
        // --- pixman rows ---
        "combine over_u with a mask",
        "combine atop_u with a mask",
        "combine xor_ca with a mask",
        "(simde_mm_addsub_ps)",
        "(simde_mm_addsub_ps, vtrn2q_f32)",
        "(simde_mm_cvtps_epi32)",
        "(simde_mm_round_ps, vrndnq_f32)",
        "(simde_mm_round_ps, vrndmq_f32)",
    ] {
        assert_eq!(verdict_of(proved), "equivalent", "{proved}: {stdout}");
    }
    for twin in [
        "one weight wrong",
        "neighbours swapped",
        "multipliers swapped",
        "given the wrong stride",
        "operands swapped",
        // under associativity: a difference as real numbers, reproduced
        "input one sample later",
        "signed multiply-high against the unsigned",
        // libvpx's SSE2 sum of squares sums in 32 bits: any 16-bit block
        // of squares over 2^31 tells the two apart.
        "any 16-bit 4x4 block",
        // libvpx's SSE2 Hadamard leaves its coefficients transposed, which
        // the library allows (their order is free).
        "compared in place",
        // Opus's PVQ search: the SSE2 path's estimates choose another
        // pulse on tied scores (x all 1.0), found sampling with this CPU's
        // estimates and reproduced.
        "2 pulses (op_pvq_search_sse2)",
    ] {
        let broken = entries.iter().find(|e| e["name"].as_str().unwrap_or("").contains(twin)).unwrap();
        let finding = &broken["report"]["findings"][0];
        assert_eq!(finding["kind"], "mismatch", "{broken:#}");
        assert_eq!(finding["status"], "confirmed", "{broken:#}");
        assert_eq!(finding["native"]["outcome"], "reproduced", "{broken:#}");
    }
    // The C path's sign restore `(iy ^ -signx) + signx` (vq.c:324) is known
    // by its operands' ranges not to overflow: no undefined-behaviour
    // finding beside the mismatch.
    let pvq = entries.iter().find(|e| e["name"].as_str().unwrap_or("").contains("(op_pvq_search_sse2)")).unwrap();
    assert_eq!(pvq["report"]["findings"].as_array().map(|f| f.len()), Some(1), "{pvq:#}");
    // Opus's C reference on any 16-bit samples: its int sum overflows,
    // found where UBSan finds it.
    let any = entries.iter().find(|e| e["name"].as_str().unwrap_or("").contains("any 16-bit samples")).unwrap();
    let finding = &any["report"]["findings"][0];
    assert_eq!(finding["kind"], "undefined-behaviour", "{any:#}");
    assert_eq!(finding["undefined_behaviour"], "signed-overflow", "{any:#}");
    assert_eq!(finding["location"]["line"], 165, "{any:#}");
    assert_eq!(finding["native"]["outcome"], "reproduced", "{any:#}");
    // --- solver rows ---
    // libvpx's quantizer decided element by element; Highway's bit packing,
    // its SSSE3 code against its EMU128 code.
    for proved in ["(vpx_quantize_b_sse2)", "SSSE3 against EMU128"] {
        assert_eq!(verdict_of(proved), "equivalent", "{proved}: {stdout}");
    }
    for twin in ["(the SSE2 path drops it)", "does not round-trip"] {
        let broken = entries.iter().find(|e| e["name"].as_str().unwrap_or("").contains(twin)).unwrap();
        let finding = &broken["report"]["findings"][0];
        assert_eq!((&finding["kind"], &finding["status"]), (&"mismatch".into(), &"confirmed".into()), "{broken:#}");
        assert_eq!(finding["native"]["outcome"], "reproduced", "{broken:#}");
    }
    assert_eq!(out.status.code(), Some(0), "every entry meets its expectation: {stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(report["summary"]["met"], report["summary"]["total"], "{stdout}");
}
