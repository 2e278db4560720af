//! The native side: for each intrinsic row, the core::arch function that
//! executes the same instruction. Immediate forms get one case per tested
//! immediate (the immediate is the intrinsic's last operand).

use std::arch::x86_64::*;

type Native = Box<dyn Fn(&[[u8; 32]]) -> [u8; 32]>;

pub struct Case {
    pub name: String,
    pub imm: Option<u32>,
    pub native: Native,
}

/// A register or scalar moved to and from raw little-endian bytes.
pub trait Reg: Copy + 'static {
    fn load(b: &[u8; 32]) -> Self {
        // SAFETY: every implementor is plain data no larger than 32 bytes.
        unsafe { std::ptr::read_unaligned(b.as_ptr() as *const Self) }
    }
    fn store(self) -> [u8; 32] {
        let mut out = [0u8; 32];
        // SAFETY: as above.
        unsafe { std::ptr::write_unaligned(out.as_mut_ptr() as *mut Self, self) };
        out
    }
}
impl Reg for __m128 {}
impl Reg for __m128d {}
impl Reg for __m128i {}
impl Reg for __m256 {}
impl Reg for __m256d {}
impl Reg for __m256i {}
impl Reg for i32 {}
impl Reg for i64 {}
impl Reg for u8 {}
impl Reg for u16 {}
impl Reg for u32 {}
impl Reg for u64 {}

fn c1<A: Reg, R: Reg>(name: &str, imm: Option<u32>, f: fn(A) -> R) -> Case {
    Case { name: format!("llvm.x86.{name}"), imm, native: Box::new(move |a| f(A::load(&a[0])).store()) }
}
fn c2<A: Reg, B: Reg, R: Reg>(name: &str, imm: Option<u32>, f: fn(A, B) -> R) -> Case {
    Case { name: format!("llvm.x86.{name}"), imm, native: Box::new(move |a| f(A::load(&a[0]), B::load(&a[1])).store()) }
}
fn c3<A: Reg, B: Reg, C: Reg, R: Reg>(name: &str, f: fn(A, B, C) -> R) -> Case {
    Case {
        name: format!("llvm.x86.{name}"),
        imm: None,
        native: Box::new(move |a| f(A::load(&a[0]), B::load(&a[1]), C::load(&a[2])).store()),
    }
}

/// Unary and binary rows without immediates.
macro_rules! u {
    ($name:literal, $f:ident, $a:ty) => {
        c1($name, None, |a: $a| unsafe { $f(a) })
    };
}
macro_rules! b {
    ($name:literal, $f:ident, $a:ty) => {
        b!($name, $f, $a, $a)
    };
    ($name:literal, $f:ident, $a:ty, $b:ty) => {
        c2($name, None, |a: $a, b: $b| unsafe { $f(a, b) })
    };
}
macro_rules! t {
    ($name:literal, $f:ident, $a:ty) => {
        c3($name, |a: $a, b: $a, c: $a| unsafe { $f(a, b, c) })
    };
}
/// One case per immediate; `1` or `2` register operands before it.
macro_rules! imm {
    (1, $name:literal, $f:ident, $a:ty, [$($i:literal),*]) => {
        vec![$(c1($name, Some($i), |a: $a| unsafe { $f::<$i>(a) })),*]
    };
    (2, $name:literal, $f:ident, $a:ty, [$($i:literal),*]) => {
        vec![$(c2($name, Some($i), |a: $a, b: $a| unsafe { $f::<$i>(a, b) })),*]
    };
}

pub fn all_cases() -> Vec<Case> {
    let mut v = float_cases();
    v.extend(integer_cases());
    v.extend(flag_cases());
    v.extend(imm_cases());
    v
}

/// Floating-point lanes, conversions.
fn float_cases() -> Vec<Case> {
    vec![
        b!("sse.min.ps", _mm_min_ps, __m128),
        b!("sse.max.ps", _mm_max_ps, __m128),
        b!("sse.min.ss", _mm_min_ss, __m128),
        b!("sse.max.ss", _mm_max_ss, __m128),
        b!("sse2.min.pd", _mm_min_pd, __m128d),
        b!("sse2.max.pd", _mm_max_pd, __m128d),
        b!("sse2.min.sd", _mm_min_sd, __m128d),
        b!("sse2.max.sd", _mm_max_sd, __m128d),
        b!("avx.min.ps.256", _mm256_min_ps, __m256),
        b!("avx.max.ps.256", _mm256_max_ps, __m256),
        b!("avx.min.pd.256", _mm256_min_pd, __m256d),
        b!("avx.max.pd.256", _mm256_max_pd, __m256d),
        u!("sse.rcp.ps", _mm_rcp_ps, __m128),
        u!("sse.rsqrt.ps", _mm_rsqrt_ps, __m128),
        u!("sse.rcp.ss", _mm_rcp_ss, __m128),
        u!("sse.rsqrt.ss", _mm_rsqrt_ss, __m128),
        u!("avx.rcp.ps.256", _mm256_rcp_ps, __m256),
        u!("avx.rsqrt.ps.256", _mm256_rsqrt_ps, __m256),
        b!("sse3.addsub.ps", _mm_addsub_ps, __m128),
        b!("sse3.addsub.pd", _mm_addsub_pd, __m128d),
        b!("avx.addsub.ps.256", _mm256_addsub_ps, __m256),
        b!("avx.addsub.pd.256", _mm256_addsub_pd, __m256d),
        t!("fma.vfmaddsub.ps", _mm_fmaddsub_ps, __m128),
        t!("fma.vfmaddsub.pd", _mm_fmaddsub_pd, __m128d),
        t!("fma.vfmaddsub.ps.256", _mm256_fmaddsub_ps, __m256),
        t!("fma.vfmaddsub.pd.256", _mm256_fmaddsub_pd, __m256d),
        u!("sse2.cvtps2dq", _mm_cvtps_epi32, __m128),
        u!("sse2.cvttps2dq", _mm_cvttps_epi32, __m128),
        u!("sse2.cvtpd2dq", _mm_cvtpd_epi32, __m128d),
        u!("sse2.cvttpd2dq", _mm_cvttpd_epi32, __m128d),
        u!("avx.cvt.ps2dq.256", _mm256_cvtps_epi32, __m256),
        u!("avx.cvtt.ps2dq.256", _mm256_cvttps_epi32, __m256),
        u!("avx.cvt.pd2dq.256", _mm256_cvtpd_epi32, __m256d),
        u!("avx.cvtt.pd2dq.256", _mm256_cvttpd_epi32, __m256d),
        u!("sse.cvtss2si", _mm_cvtss_si32, __m128),
        u!("sse.cvttss2si", _mm_cvttss_si32, __m128),
        u!("sse.cvtss2si64", _mm_cvtss_si64, __m128),
        u!("sse.cvttss2si64", _mm_cvttss_si64, __m128),
        u!("sse2.cvtsd2si", _mm_cvtsd_si32, __m128d),
        u!("sse2.cvttsd2si", _mm_cvttsd_si32, __m128d),
        u!("sse2.cvtsd2si64", _mm_cvtsd_si64, __m128d),
        u!("sse2.cvttsd2si64", _mm_cvttsd_si64, __m128d),
        u!("sse2.cvtpd2ps", _mm_cvtpd_ps, __m128d),
        u!("avx.cvt.pd2.ps.256", _mm256_cvtpd_ps, __m256d),
        b!("sse2.cvtsd2ss", _mm_cvtsd_ss, __m128, __m128d),
    ]
}

/// Integer arithmetic, packing, shuffles and horizontal operations.
fn integer_cases() -> Vec<Case> {
    vec![
        b!("sse2.packsswb.128", _mm_packs_epi16, __m128i),
        b!("sse2.packssdw.128", _mm_packs_epi32, __m128i),
        b!("sse2.packuswb.128", _mm_packus_epi16, __m128i),
        b!("sse41.packusdw", _mm_packus_epi32, __m128i),
        b!("avx2.packsswb", _mm256_packs_epi16, __m256i),
        b!("avx2.packssdw", _mm256_packs_epi32, __m256i),
        b!("avx2.packuswb", _mm256_packus_epi16, __m256i),
        b!("avx2.packusdw", _mm256_packus_epi32, __m256i),
        b!("sse2.pavg.b", _mm_avg_epu8, __m128i),
        b!("sse2.pavg.w", _mm_avg_epu16, __m128i),
        b!("avx2.pavg.b", _mm256_avg_epu8, __m256i),
        b!("avx2.pavg.w", _mm256_avg_epu16, __m256i),
        b!("sse2.pmadd.wd", _mm_madd_epi16, __m128i),
        b!("avx2.pmadd.wd", _mm256_madd_epi16, __m256i),
        b!("ssse3.pmadd.ub.sw.128", _mm_maddubs_epi16, __m128i),
        b!("avx2.pmadd.ub.sw", _mm256_maddubs_epi16, __m256i),
        b!("sse2.pmulh.w", _mm_mulhi_epi16, __m128i),
        b!("sse2.pmulhu.w", _mm_mulhi_epu16, __m128i),
        b!("avx2.pmulh.w", _mm256_mulhi_epi16, __m256i),
        b!("avx2.pmulhu.w", _mm256_mulhi_epu16, __m256i),
        b!("ssse3.pmul.hr.sw.128", _mm_mulhrs_epi16, __m128i),
        b!("avx2.pmul.hr.sw", _mm256_mulhrs_epi16, __m256i),
        b!("sse2.psad.bw", _mm_sad_epu8, __m128i),
        b!("avx2.psad.bw", _mm256_sad_epu8, __m256i),
        b!("ssse3.psign.b.128", _mm_sign_epi8, __m128i),
        b!("ssse3.psign.w.128", _mm_sign_epi16, __m128i),
        b!("ssse3.psign.d.128", _mm_sign_epi32, __m128i),
        b!("avx2.psign.b", _mm256_sign_epi8, __m256i),
        b!("avx2.psign.w", _mm256_sign_epi16, __m256i),
        b!("avx2.psign.d", _mm256_sign_epi32, __m256i),
        b!("ssse3.pshuf.b.128", _mm_shuffle_epi8, __m128i),
        b!("avx2.pshuf.b", _mm256_shuffle_epi8, __m256i),
        t!("sse41.blendvps", _mm_blendv_ps, __m128),
        t!("sse41.blendvpd", _mm_blendv_pd, __m128d),
        t!("sse41.pblendvb", _mm_blendv_epi8, __m128i),
        t!("avx.blendv.ps.256", _mm256_blendv_ps, __m256),
        t!("avx.blendv.pd.256", _mm256_blendv_pd, __m256d),
        t!("avx2.pblendvb", _mm256_blendv_epi8, __m256i),
        b!("avx.vpermilvar.ps", _mm_permutevar_ps, __m128, __m128i),
        b!("avx.vpermilvar.pd", _mm_permutevar_pd, __m128d, __m128i),
        b!("avx.vpermilvar.ps.256", _mm256_permutevar_ps, __m256, __m256i),
        b!("avx.vpermilvar.pd.256", _mm256_permutevar_pd, __m256d, __m256i),
        b!("avx2.permd", _mm256_permutevar8x32_epi32, __m256i),
        b!("avx2.permps", _mm256_permutevar8x32_ps, __m256, __m256i),
        b!("sse3.hadd.ps", _mm_hadd_ps, __m128),
        b!("sse3.hadd.pd", _mm_hadd_pd, __m128d),
        b!("sse3.hsub.ps", _mm_hsub_ps, __m128),
        b!("sse3.hsub.pd", _mm_hsub_pd, __m128d),
        b!("avx.hadd.ps.256", _mm256_hadd_ps, __m256),
        b!("avx.hadd.pd.256", _mm256_hadd_pd, __m256d),
        b!("avx.hsub.ps.256", _mm256_hsub_ps, __m256),
        b!("avx.hsub.pd.256", _mm256_hsub_pd, __m256d),
        b!("ssse3.phadd.w.128", _mm_hadd_epi16, __m128i),
        b!("ssse3.phadd.d.128", _mm_hadd_epi32, __m128i),
        b!("ssse3.phadd.sw.128", _mm_hadds_epi16, __m128i),
        b!("ssse3.phsub.w.128", _mm_hsub_epi16, __m128i),
        b!("ssse3.phsub.d.128", _mm_hsub_epi32, __m128i),
        b!("ssse3.phsub.sw.128", _mm_hsubs_epi16, __m128i),
        b!("avx2.phadd.w", _mm256_hadd_epi16, __m256i),
        b!("avx2.phadd.d", _mm256_hadd_epi32, __m256i),
        b!("avx2.phadd.sw", _mm256_hadds_epi16, __m256i),
        b!("avx2.phsub.w", _mm256_hsub_epi16, __m256i),
        b!("avx2.phsub.d", _mm256_hsub_epi32, __m256i),
        b!("avx2.phsub.sw", _mm256_hsubs_epi16, __m256i),
        u!("sse41.phminposuw", _mm_minpos_epu16, __m128i),
    ]
}

/// Masks, flags, CRC32, comparisons and shifts.
fn flag_cases() -> Vec<Case> {
    vec![
        u!("sse.movmsk.ps", _mm_movemask_ps, __m128),
        u!("sse2.movmsk.pd", _mm_movemask_pd, __m128d),
        u!("sse2.pmovmskb.128", _mm_movemask_epi8, __m128i),
        u!("avx.movmsk.ps.256", _mm256_movemask_ps, __m256),
        u!("avx.movmsk.pd.256", _mm256_movemask_pd, __m256d),
        u!("avx2.pmovmskb", _mm256_movemask_epi8, __m256i),
        b!("sse42.crc32.32.8", _mm_crc32_u8, u32, u8),
        b!("sse42.crc32.32.16", _mm_crc32_u16, u32, u16),
        b!("sse42.crc32.32.32", _mm_crc32_u32, u32, u32),
        b!("sse42.crc32.64.64", _mm_crc32_u64, u64, u64),
        b!("sse41.ptestz", _mm_testz_si128, __m128i),
        b!("sse41.ptestc", _mm_testc_si128, __m128i),
        b!("sse41.ptestnzc", _mm_testnzc_si128, __m128i),
        b!("avx.ptestz.256", _mm256_testz_si256, __m256i),
        b!("avx.ptestc.256", _mm256_testc_si256, __m256i),
        b!("avx.ptestnzc.256", _mm256_testnzc_si256, __m256i),
        b!("avx.vtestz.ps", _mm_testz_ps, __m128),
        b!("avx.vtestc.ps", _mm_testc_ps, __m128),
        b!("avx.vtestnzc.ps", _mm_testnzc_ps, __m128),
        b!("avx.vtestz.pd", _mm_testz_pd, __m128d),
        b!("avx.vtestc.pd", _mm_testc_pd, __m128d),
        b!("avx.vtestnzc.pd", _mm_testnzc_pd, __m128d),
        b!("avx.vtestz.ps.256", _mm256_testz_ps, __m256),
        b!("avx.vtestc.ps.256", _mm256_testc_ps, __m256),
        b!("avx.vtestnzc.ps.256", _mm256_testnzc_ps, __m256),
        b!("avx.vtestz.pd.256", _mm256_testz_pd, __m256d),
        b!("avx.vtestc.pd.256", _mm256_testc_pd, __m256d),
        b!("avx.vtestnzc.pd.256", _mm256_testnzc_pd, __m256d),
        b!("sse.comieq.ss", _mm_comieq_ss, __m128),
        b!("sse.comilt.ss", _mm_comilt_ss, __m128),
        b!("sse.comile.ss", _mm_comile_ss, __m128),
        b!("sse.comigt.ss", _mm_comigt_ss, __m128),
        b!("sse.comige.ss", _mm_comige_ss, __m128),
        b!("sse.comineq.ss", _mm_comineq_ss, __m128),
        b!("sse.ucomieq.ss", _mm_ucomieq_ss, __m128),
        b!("sse.ucomilt.ss", _mm_ucomilt_ss, __m128),
        b!("sse.ucomile.ss", _mm_ucomile_ss, __m128),
        b!("sse.ucomigt.ss", _mm_ucomigt_ss, __m128),
        b!("sse.ucomige.ss", _mm_ucomige_ss, __m128),
        b!("sse.ucomineq.ss", _mm_ucomineq_ss, __m128),
        b!("sse2.comieq.sd", _mm_comieq_sd, __m128d),
        b!("sse2.comilt.sd", _mm_comilt_sd, __m128d),
        b!("sse2.comile.sd", _mm_comile_sd, __m128d),
        b!("sse2.comigt.sd", _mm_comigt_sd, __m128d),
        b!("sse2.comige.sd", _mm_comige_sd, __m128d),
        b!("sse2.comineq.sd", _mm_comineq_sd, __m128d),
        b!("sse2.ucomieq.sd", _mm_ucomieq_sd, __m128d),
        b!("sse2.ucomilt.sd", _mm_ucomilt_sd, __m128d),
        b!("sse2.ucomile.sd", _mm_ucomile_sd, __m128d),
        b!("sse2.ucomigt.sd", _mm_ucomigt_sd, __m128d),
        b!("sse2.ucomige.sd", _mm_ucomige_sd, __m128d),
        b!("sse2.ucomineq.sd", _mm_ucomineq_sd, __m128d),
        b!("sse2.psll.w", _mm_sll_epi16, __m128i),
        b!("sse2.psll.d", _mm_sll_epi32, __m128i),
        b!("sse2.psll.q", _mm_sll_epi64, __m128i),
        b!("sse2.psrl.w", _mm_srl_epi16, __m128i),
        b!("sse2.psrl.d", _mm_srl_epi32, __m128i),
        b!("sse2.psrl.q", _mm_srl_epi64, __m128i),
        b!("sse2.psra.w", _mm_sra_epi16, __m128i),
        b!("sse2.psra.d", _mm_sra_epi32, __m128i),
        b!("avx2.psll.w", _mm256_sll_epi16, __m256i, __m128i),
        b!("avx2.psll.d", _mm256_sll_epi32, __m256i, __m128i),
        b!("avx2.psll.q", _mm256_sll_epi64, __m256i, __m128i),
        b!("avx2.psrl.w", _mm256_srl_epi16, __m256i, __m128i),
        b!("avx2.psrl.d", _mm256_srl_epi32, __m256i, __m128i),
        b!("avx2.psrl.q", _mm256_srl_epi64, __m256i, __m128i),
        b!("avx2.psra.w", _mm256_sra_epi16, __m256i, __m128i),
        b!("avx2.psra.d", _mm256_sra_epi32, __m256i, __m128i),
        b!("avx2.psllv.d", _mm_sllv_epi32, __m128i),
        b!("avx2.psllv.d.256", _mm256_sllv_epi32, __m256i),
        b!("avx2.psllv.q", _mm_sllv_epi64, __m128i),
        b!("avx2.psllv.q.256", _mm256_sllv_epi64, __m256i),
        b!("avx2.psrlv.d", _mm_srlv_epi32, __m128i),
        b!("avx2.psrlv.d.256", _mm256_srlv_epi32, __m256i),
        b!("avx2.psrlv.q", _mm_srlv_epi64, __m128i),
        b!("avx2.psrlv.q.256", _mm256_srlv_epi64, __m256i),
        b!("avx2.psrav.d", _mm_srav_epi32, __m128i),
        b!("avx2.psrav.d.256", _mm256_srav_epi32, __m256i),
    ]
}

fn imm_cases() -> Vec<Case> {
    let mut v = Vec::new();
    v.extend(imm!(1, "sse41.round.ps", _mm_round_ps, __m128, [0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 15]));
    v.extend(imm!(1, "sse41.round.pd", _mm_round_pd, __m128d, [0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 15]));
    v.extend(imm!(1, "avx.round.ps.256", _mm256_round_ps, __m256, [0, 1, 2, 3, 4, 9, 14]));
    v.extend(imm!(1, "avx.round.pd.256", _mm256_round_pd, __m256d, [0, 1, 2, 3, 4, 9, 14]));
    v.extend(imm!(2, "sse41.round.ss", _mm_round_ss, __m128, [0, 1, 2, 3, 4, 8, 11]));
    v.extend(imm!(2, "sse41.round.sd", _mm_round_sd, __m128d, [0, 1, 2, 3, 4, 8, 11]));
    v.extend(imm!(
        2,
        "sse.cmp.ss",
        _mm_cmp_ss,
        __m128,
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
    ));
    v.extend(imm!(
        2,
        "sse2.cmp.sd",
        _mm_cmp_sd,
        __m128d,
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
    ));
    v.extend(imm!(2, "sse41.dpps", _mm_dp_ps, __m128, [0xff, 0xf1, 0x31, 0x7e, 0x00, 0xa5, 0x5a, 0x1f]));
    v.extend(imm!(2, "sse41.dppd", _mm_dp_pd, __m128d, [0x33, 0x31, 0x12, 0x20, 0x00, 0xff]));
    v.extend(imm!(2, "avx.dp.ps.256", _mm256_dp_ps, __m256, [0xff, 0xf1, 0x5a, 0x13]));
    v.extend(imm!(2, "sse41.insertps", _mm_insert_ps, __m128, [0x00, 0x10, 0x20, 0x30, 0x40, 0x80, 0xc0, 0xd5, 0x0f, 0x3a, 0x66]));
    v.extend(imm!(2, "sse41.mpsadbw", _mm_mpsadbw_epu8, __m128i, [0, 1, 2, 3, 4, 5, 6, 7]));
    v.extend(imm!(2, "avx2.mpsadbw", _mm256_mpsadbw_epu8, __m256i, [0, 5, 0x2d, 0x3f, 0x12, 0x38]));
    v.extend(shift_imm_cases());
    v
}

/// PSLLI & co. take their count as an i32 operand; the native forms need it
/// as a const generic, so each tested count is a case.
fn shift_imm_cases() -> Vec<Case> {
    let mut v = Vec::new();
    v.extend(imm!(1, "sse2.pslli.w", _mm_slli_epi16, __m128i, [0, 1, 7, 15, 16, 200]));
    v.extend(imm!(1, "sse2.pslli.d", _mm_slli_epi32, __m128i, [0, 1, 17, 31, 32, 255]));
    v.extend(imm!(1, "sse2.pslli.q", _mm_slli_epi64, __m128i, [0, 1, 33, 63, 64, 100]));
    v.extend(imm!(1, "sse2.psrli.w", _mm_srli_epi16, __m128i, [0, 1, 7, 15, 16, 200]));
    v.extend(imm!(1, "sse2.psrli.d", _mm_srli_epi32, __m128i, [0, 1, 17, 31, 32, 255]));
    v.extend(imm!(1, "sse2.psrli.q", _mm_srli_epi64, __m128i, [0, 1, 33, 63, 64, 100]));
    v.extend(imm!(1, "sse2.psrai.w", _mm_srai_epi16, __m128i, [0, 1, 7, 15, 16, 200]));
    v.extend(imm!(1, "sse2.psrai.d", _mm_srai_epi32, __m128i, [0, 1, 17, 31, 32, 255]));
    v.extend(imm!(1, "avx2.pslli.w", _mm256_slli_epi16, __m256i, [0, 3, 15, 16]));
    v.extend(imm!(1, "avx2.pslli.d", _mm256_slli_epi32, __m256i, [0, 5, 31, 32]));
    v.extend(imm!(1, "avx2.pslli.q", _mm256_slli_epi64, __m256i, [0, 9, 63, 64]));
    v.extend(imm!(1, "avx2.psrli.w", _mm256_srli_epi16, __m256i, [0, 3, 15, 16]));
    v.extend(imm!(1, "avx2.psrli.d", _mm256_srli_epi32, __m256i, [0, 5, 31, 32]));
    v.extend(imm!(1, "avx2.psrli.q", _mm256_srli_epi64, __m256i, [0, 9, 63, 64]));
    v.extend(imm!(1, "avx2.psrai.w", _mm256_srai_epi16, __m256i, [0, 3, 15, 16, 99]));
    v.extend(imm!(1, "avx2.psrai.d", _mm256_srai_epi32, __m256i, [0, 5, 31, 32, 99]));
    v
}
