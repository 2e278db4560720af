/* CUDA's rounding-mode intrinsics (CUDA Math API, "Type Casting
 * Intrinsics" and "Single Precision Intrinsics"): _rn to nearest even,
 * _rz toward zero, _ru toward +infinity, _rd toward -infinity. Device
 * code has no rounding-mode register in the model, so each is the
 * nearest-even result (C's cast or operator, exact in the executor)
 * corrected by one step where the exact value lies on the other side of
 * it; which side is decided exactly (an error term computed without
 * rounding, or a comparison of integers).
 * Float to integer: in range, the exact rounding; out of the destination
 * range or NaN the Math API documents no result, so it is a fresh value
 * (a check resting on it is never confirmed). Double-precision arithmetic
 * in a directed mode (__dadd_rz, ...) and fused forms (__fmaf_rz, ...) are
 * not declared: they would need wider arithmetic than the model has. */
#ifndef SYMCROSS_CUDA_ROUNDING_H
#define SYMCROSS_CUDA_ROUNDING_H

/* A fresh integer of the call's width (the executor's approximate row). */
__device__ int __symcross_fresh_int(int) __asm__("_Z10native_expi");
__device__ long long __symcross_fresh_ll(long long) __asm__("_Z10native_expl");

/* Rounding modes, as the suffixes name them. */
#define __SYMCROSS_RN 0
#define __SYMCROSS_RZ 1
#define __SYMCROSS_RU 2
#define __SYMCROSS_RD 3

/* The next float above (up) or below r: one step of the bit pattern's
 * magnitude; from either zero to the smallest subnormal of that side,
 * from an infinity to the largest finite value. */
__SYMCROSS_DI float __symcross_step_f(float __sc_r, bool __sc_up) {
    if (__sc_r == 0.0f)
        return __builtin_bit_cast(float, __sc_up ? 0x00000001u : 0x80000001u);
    unsigned __sc_b = __builtin_bit_cast(unsigned, __sc_r);
    return __builtin_bit_cast(float, (__sc_r > 0.0f) == __sc_up ? __sc_b + 1u : __sc_b - 1u);
}
__SYMCROSS_DI double __symcross_step_d(double __sc_r, bool __sc_up) {
    if (__sc_r == 0.0)
        return __builtin_bit_cast(double, __sc_up ? 0x0000000000000001ull : 0x8000000000000001ull);
    unsigned long long __sc_b = __builtin_bit_cast(unsigned long long, __sc_r);
    return __builtin_bit_cast(double, (__sc_r > 0.0) == __sc_up ? __sc_b + 1ull : __sc_b - 1ull);
}

/* `r` (the nearest-even result) rounded in `mode`, where `cmp` is the sign
 * of (exact value - r): 0 when r is exact (its sign is then already the
 * one every mode gives). */
__SYMCROSS_DI float __symcross_directed_f(float __sc_r, int __sc_cmp, int __sc_mode) {
    if (__sc_cmp == 0 || __sc_mode == __SYMCROSS_RN)
        return __sc_r;
    if (__sc_mode == __SYMCROSS_RU)
        return __sc_cmp > 0 ? __symcross_step_f(__sc_r, true) : __sc_r;
    if (__sc_mode == __SYMCROSS_RD)
        return __sc_cmp < 0 ? __symcross_step_f(__sc_r, false) : __sc_r;
    /* toward zero: only when r is farther from zero than the exact value */
    if (__sc_cmp < 0 && __sc_r > 0.0f)
        return __symcross_step_f(__sc_r, false);
    if (__sc_cmp > 0 && __sc_r < 0.0f)
        return __symcross_step_f(__sc_r, true);
    return __sc_r;
}
__SYMCROSS_DI double __symcross_directed_d(double __sc_r, int __sc_cmp, int __sc_mode) {
    if (__sc_cmp == 0 || __sc_mode == __SYMCROSS_RN)
        return __sc_r;
    if (__sc_mode == __SYMCROSS_RU)
        return __sc_cmp > 0 ? __symcross_step_d(__sc_r, true) : __sc_r;
    if (__sc_mode == __SYMCROSS_RD)
        return __sc_cmp < 0 ? __symcross_step_d(__sc_r, false) : __sc_r;
    if (__sc_cmp < 0 && __sc_r > 0.0)
        return __symcross_step_d(__sc_r, false);
    if (__sc_cmp > 0 && __sc_r < 0.0)
        return __symcross_step_d(__sc_r, true);
    return __sc_r;
}
/* The sign of a difference computed in double (NaN: 0, nothing to step). */
__SYMCROSS_DI int __symcross_sign(double __sc_d) { return __sc_d > 0.0 ? 1 : __sc_d < 0.0 ? -1 : 0; }

/* ---- float arithmetic ---- */
/* a + b: the error of the nearest sum is exact as a float (two-sum) unless
 * the sum overflowed, where the exact value is finite and below it. */
__SYMCROSS_DI float __symcross_fadd(float __sc_a, float __sc_b, int __sc_mode) {
    float __sc_s = __sc_a + __sc_b;
    if (__sc_mode == __SYMCROSS_RN)
        return __sc_s;
    if (__sc_s == 0.0f && __sc_a == -__sc_b && __sc_mode == __SYMCROSS_RD)
        /* an exact zero sum of opposite operands is -0 rounding down; two
         * zeros of the same sign keep it */
        return (__sc_a == 0.0f && !__builtin_signbit(__sc_a) && !__builtin_signbit(__sc_b)) ? 0.0f : -0.0f;
    if (__builtin_isinf(__sc_s) && __builtin_isfinite(__sc_a) && __builtin_isfinite(__sc_b))
        return __symcross_directed_f(__sc_s, __sc_s > 0.0f ? -1 : 1, __sc_mode);
    float __sc_bb = __sc_s - __sc_a;
    float __sc_err = (__sc_a - (__sc_s - __sc_bb)) + (__sc_b - __sc_bb);
    return __symcross_directed_f(__sc_s, __symcross_sign(__sc_err), __sc_mode);
}
/* a * b: the exact product of two floats fits a double. */
__SYMCROSS_DI float __symcross_fmul(float __sc_a, float __sc_b, int __sc_mode) {
    float __sc_p = __sc_a * __sc_b;
    return __symcross_directed_f(__sc_p, __symcross_sign((double)__sc_a * (double)__sc_b - (double)__sc_p), __sc_mode);
}
/* a / b: the exact quotient is above q where a - q*b (exact in double) has
 * the sign of b. */
__SYMCROSS_DI float __symcross_fdiv(float __sc_a, float __sc_b, int __sc_mode) {
    float __sc_q = __sc_a / __sc_b;
    int __sc_s = __symcross_sign((double)__sc_a - (double)__sc_q * (double)__sc_b);
    return __symcross_directed_f(__sc_q, __sc_b < 0.0f ? -__sc_s : __sc_s, __sc_mode);
}
/* sqrt(a) is above r where a - r*r (exact in double) is positive. */
__SYMCROSS_DI float __symcross_fsqrt(float __sc_a, int __sc_mode) {
    float __sc_r = sqrtf(__sc_a);
    return __symcross_directed_f(__sc_r, __symcross_sign((double)__sc_a - (double)__sc_r * (double)__sc_r), __sc_mode);
}
#define __SYMCROSS_FARITH(S, M)                                                                        \
    __SYMCROSS_DI float __fadd_##S(float __sc_a, float __sc_b) { return __symcross_fadd(__sc_a, __sc_b, M); }            \
    __SYMCROSS_DI float __fsub_##S(float __sc_a, float __sc_b) { return __symcross_fadd(__sc_a, -__sc_b, M); }           \
    __SYMCROSS_DI float __fmul_##S(float __sc_a, float __sc_b) { return __symcross_fmul(__sc_a, __sc_b, M); }            \
    __SYMCROSS_DI float __fdiv_##S(float __sc_a, float __sc_b) { return __symcross_fdiv(__sc_a, __sc_b, M); }            \
    __SYMCROSS_DI float __frcp_##S(float __sc_a) { return __symcross_fdiv(1.0f, __sc_a, M); }                  \
    __SYMCROSS_DI float __fsqrt_##S(float __sc_a) { return __symcross_fsqrt(__sc_a, M); }
__SYMCROSS_FARITH(rn, __SYMCROSS_RN)
__SYMCROSS_FARITH(rz, __SYMCROSS_RZ)
__SYMCROSS_FARITH(ru, __SYMCROSS_RU)
__SYMCROSS_FARITH(rd, __SYMCROSS_RD)
/* Double precision to nearest is the operator itself. */
__SYMCROSS_DI double __dadd_rn(double __sc_a, double __sc_b) { return __sc_a + __sc_b; }
__SYMCROSS_DI double __dsub_rn(double __sc_a, double __sc_b) { return __sc_a - __sc_b; }
__SYMCROSS_DI double __dmul_rn(double __sc_a, double __sc_b) { return __sc_a * __sc_b; }
__SYMCROSS_DI double __ddiv_rn(double __sc_a, double __sc_b) { return __sc_a / __sc_b; }
__SYMCROSS_DI double __dsqrt_rn(double __sc_a) { return sqrt(__sc_a); }

/* ---- floating point to integer ---- */
__SYMCROSS_DI float __symcross_round_f(float __sc_x, int __sc_mode) {
    return __sc_mode == __SYMCROSS_RN ? rintf(__sc_x) : __sc_mode == __SYMCROSS_RZ ? truncf(__sc_x) : __sc_mode == __SYMCROSS_RU ? ceilf(__sc_x) : floorf(__sc_x);
}
__SYMCROSS_DI double __symcross_round_d(double __sc_x, int __sc_mode) {
    return __sc_mode == __SYMCROSS_RN ? rint(__sc_x) : __sc_mode == __SYMCROSS_RZ ? trunc(__sc_x) : __sc_mode == __SYMCROSS_RU ? ceil(__sc_x) : floor(__sc_x);
}
/* r is integral (or NaN, which fails both comparisons); LO and HI bound the
 * destination range as exact powers of two: LO <= r < HI. */
#define __SYMCROSS_F2I(NAME, F, T, ROUND, LO, HI, FRESH, S, M)                                        \
    __SYMCROSS_DI T NAME##_##S(F __sc_x) {                                                                \
        F __sc_r = ROUND(__sc_x, M);                                                                           \
        return __sc_r >= (F)(LO) && __sc_r < (F)(HI) ? (T)__sc_r : (T)FRESH(0);                                     \
    }
#define __SYMCROSS_F2I_MODES(NAME, F, T, ROUND, LO, HI, FRESH)                                         \
    __SYMCROSS_F2I(NAME, F, T, ROUND, LO, HI, FRESH, rn, __SYMCROSS_RN)                              \
    __SYMCROSS_F2I(NAME, F, T, ROUND, LO, HI, FRESH, rz, __SYMCROSS_RZ)                              \
    __SYMCROSS_F2I(NAME, F, T, ROUND, LO, HI, FRESH, ru, __SYMCROSS_RU)                              \
    __SYMCROSS_F2I(NAME, F, T, ROUND, LO, HI, FRESH, rd, __SYMCROSS_RD)
__SYMCROSS_F2I_MODES(__float2int, float, int, __symcross_round_f, -2147483648.0, 2147483648.0, __symcross_fresh_int)
__SYMCROSS_F2I_MODES(__float2uint, float, unsigned, __symcross_round_f, 0.0, 4294967296.0, __symcross_fresh_int)
__SYMCROSS_F2I_MODES(__float2ll, float, long long, __symcross_round_f, -9223372036854775808.0, 9223372036854775808.0, __symcross_fresh_ll)
__SYMCROSS_F2I_MODES(__float2ull, float, unsigned long long, __symcross_round_f, 0.0, 18446744073709551616.0, __symcross_fresh_ll)
__SYMCROSS_F2I_MODES(__double2int, double, int, __symcross_round_d, -2147483648.0, 2147483648.0, __symcross_fresh_int)
__SYMCROSS_F2I_MODES(__double2uint, double, unsigned, __symcross_round_d, 0.0, 4294967296.0, __symcross_fresh_int)
__SYMCROSS_F2I_MODES(__double2ll, double, long long, __symcross_round_d, -9223372036854775808.0, 9223372036854775808.0, __symcross_fresh_ll)
__SYMCROSS_F2I_MODES(__double2ull, double, unsigned long long, __symcross_round_d, 0.0, 18446744073709551616.0, __symcross_fresh_ll)

/* ---- integer to floating point ---- */
/* The side of the exact integer x on which the nearest float r lies,
 * compared as integers: r converts back exactly unless it rounded up to
 * 2^N, just past the source type (HI), above every x. */
#define __SYMCROSS_I2F(NAME, I, F, DIRECTED, HI, S, M)                                                \
    __SYMCROSS_DI F NAME##_##S(I __sc_x) {                                                                \
        F __sc_r = (F)__sc_x;                                                                                  \
        int __sc_cmp = __sc_r >= (F)(HI) ? -1 : (I)__sc_r < __sc_x ? 1 : (I)__sc_r > __sc_x ? -1 : 0;                              \
        return DIRECTED(__sc_r, __sc_cmp, M);                                                                  \
    }
#define __SYMCROSS_I2F_MODES(NAME, I, F, DIRECTED, HI)                                                 \
    __SYMCROSS_I2F(NAME, I, F, DIRECTED, HI, rn, __SYMCROSS_RN)                                      \
    __SYMCROSS_I2F(NAME, I, F, DIRECTED, HI, rz, __SYMCROSS_RZ)                                      \
    __SYMCROSS_I2F(NAME, I, F, DIRECTED, HI, ru, __SYMCROSS_RU)                                      \
    __SYMCROSS_I2F(NAME, I, F, DIRECTED, HI, rd, __SYMCROSS_RD)
__SYMCROSS_I2F_MODES(__int2float, int, float, __symcross_directed_f, 2147483648.0)
__SYMCROSS_I2F_MODES(__uint2float, unsigned, float, __symcross_directed_f, 4294967296.0)
__SYMCROSS_I2F_MODES(__ll2float, long long, float, __symcross_directed_f, 9223372036854775808.0)
__SYMCROSS_I2F_MODES(__ull2float, unsigned long long, float, __symcross_directed_f, 18446744073709551616.0)
__SYMCROSS_I2F_MODES(__ll2double, long long, double, __symcross_directed_d, 9223372036854775808.0)
__SYMCROSS_I2F_MODES(__ull2double, unsigned long long, double, __symcross_directed_d, 18446744073709551616.0)
/* Every int is a double exactly. */
__SYMCROSS_DI double __int2double_rn(int __sc_x) { return (double)__sc_x; }
__SYMCROSS_DI double __uint2double_rn(unsigned __sc_x) { return (double)__sc_x; }

/* ---- double to float ---- */
#define __SYMCROSS_D2F(S, M)                                                                           \
    __SYMCROSS_DI float __double2float_##S(double __sc_x) {                                               \
        float __sc_r = (float)__sc_x;                                                                          \
        return __symcross_directed_f(__sc_r, __symcross_sign(__sc_x - (double)__sc_r), M);                          \
    }
__SYMCROSS_D2F(rn, __SYMCROSS_RN)
__SYMCROSS_D2F(rz, __SYMCROSS_RZ)
__SYMCROSS_D2F(ru, __SYMCROSS_RU)
__SYMCROSS_D2F(rd, __SYMCROSS_RD)

#endif
