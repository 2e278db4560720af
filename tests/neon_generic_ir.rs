//! NEON intrinsics that clang lowers to generic IR (vmlaq_f32 as FMUL then
//! FADD, vfmaq_f32 as llvm.fma, the vrnd family, conversions, vcnt, vclz,
//! immediate shifts, permutes, widening and narrowing moves): the program
//! tests/fixtures/neon_generic/generic_ir.c runs under qemu-aarch64 and with
//! `symcross run --target aarch64`, and prints the same lines. Float lines
//! (`f32 HEX`, `f64 HEX`) match when both are NaN, since symcross gives the
//! NaN of plain arithmetic the default NaN; every other line bit for bit.

mod common;

use std::process::Command;

fn is_nan(kind: &str, hex: &str) -> bool {
    let Ok(v) = u64::from_str_radix(hex, 16) else { return false };
    match kind {
        "f32" => (v & 0x7fff_ffff) > 0x7f80_0000,
        "f64" => (v & 0x7fff_ffff_ffff_ffff) > 0x7ff0_0000_0000_0000,
        _ => false,
    }
}

#[test]
fn generic_ir_of_neon_intrinsics_matches_the_machine() {
    let qemu = Command::new("qemu-aarch64").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    if !qemu || !std::path::Path::new("/usr/aarch64-linux-gnu/lib").is_dir() {
        common::skip_or_fail_under_ci(
            "generic_ir_of_neon_intrinsics_matches_the_machine",
            "qemu-aarch64 or the AArch64 C library missing (scripts/setup.sh installs them)",
        );
        return;
    }
    let src = common::repo().join("tests/fixtures/neon_generic/generic_ir.c");
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("generic_ir");
    let built = Command::new("clang-19")
        .args(["--target=aarch64-linux-gnu", "-O0", "-ffp-contract=off"])
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let machine = Command::new("qemu-aarch64").args(["-L", "/usr/aarch64-linux-gnu"]).arg(&exe).output().unwrap();
    assert!(machine.status.success(), "qemu: {machine:?}");
    let ours = common::symcross(&["run", src.to_str().unwrap(), "--target", "aarch64"]);
    assert_eq!(ours.code, 0, "{}\n{}", ours.stdout, ours.stderr);
    let want = String::from_utf8_lossy(&machine.stdout).into_owned();
    let want: Vec<&str> = want.lines().collect();
    let have: Vec<&str> = ours.stdout.lines().collect();
    assert_eq!(want.len(), have.len(), "line counts differ");
    let mut differ = Vec::new();
    for (k, (w, h)) in want.iter().zip(&have).enumerate() {
        if w == h {
            continue;
        }
        let (wk, wh) = w.split_once(' ').unwrap_or(("", w));
        let (hk, hh) = h.split_once(' ').unwrap_or(("", h));
        if wk == hk && is_nan(wk, wh) && is_nan(hk, hh) {
            continue;
        }
        differ.push(format!("line {}: machine `{w}`, symcross `{h}`", k + 1));
    }
    assert!(differ.is_empty(), "{} line(s) differ:\n{}", differ.len(), differ.iter().take(20).cloned().collect::<Vec<_>>().join("\n"));
}
