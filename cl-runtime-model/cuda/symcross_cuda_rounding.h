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
__SYMCROSS_DI float __symcross_step_f(float r, bool up) {
    if (r == 0.0f)
        return __builtin_bit_cast(float, up ? 0x00000001u : 0x80000001u);
    unsigned b = __builtin_bit_cast(unsigned, r);
    return __builtin_bit_cast(float, (r > 0.0f) == up ? b + 1u : b - 1u);
}
__SYMCROSS_DI double __symcross_step_d(double r, bool up) {
    if (r == 0.0)
        return __builtin_bit_cast(double, up ? 0x0000000000000001ull : 0x8000000000000001ull);
    unsigned long long b = __builtin_bit_cast(unsigned long long, r);
    return __builtin_bit_cast(double, (r > 0.0) == up ? b + 1ull : b - 1ull);
}

/* `r` (the nearest-even result) rounded in `mode`, where `cmp` is the sign
 * of (exact value - r): 0 when r is exact (its sign is then already the
 * one every mode gives). */
__SYMCROSS_DI float __symcross_directed_f(float r, int cmp, int mode) {
    if (cmp == 0 || mode == __SYMCROSS_RN)
        return r;
    if (mode == __SYMCROSS_RU)
        return cmp > 0 ? __symcross_step_f(r, true) : r;
    if (mode == __SYMCROSS_RD)
        return cmp < 0 ? __symcross_step_f(r, false) : r;
    /* toward zero: only when r is farther from zero than the exact value */
    if (cmp < 0 && r > 0.0f)
        return __symcross_step_f(r, false);
    if (cmp > 0 && r < 0.0f)
        return __symcross_step_f(r, true);
    return r;
}
__SYMCROSS_DI double __symcross_directed_d(double r, int cmp, int mode) {
    if (cmp == 0 || mode == __SYMCROSS_RN)
        return r;
    if (mode == __SYMCROSS_RU)
        return cmp > 0 ? __symcross_step_d(r, true) : r;
    if (mode == __SYMCROSS_RD)
        return cmp < 0 ? __symcross_step_d(r, false) : r;
    if (cmp < 0 && r > 0.0)
        return __symcross_step_d(r, false);
    if (cmp > 0 && r < 0.0)
        return __symcross_step_d(r, true);
    return r;
}
/* The sign of a difference computed in double (NaN: 0, nothing to step). */
__SYMCROSS_DI int __symcross_sign(double d) { return d > 0.0 ? 1 : d < 0.0 ? -1 : 0; }

/* ---- float arithmetic ---- */
/* a + b: the error of the nearest sum is exact as a float (two-sum) unless
 * the sum overflowed, where the exact value is finite and below it. */
__SYMCROSS_DI float __symcross_fadd(float a, float b, int mode) {
    float s = a + b;
    if (mode == __SYMCROSS_RN)
        return s;
    if (s == 0.0f && a == -b && mode == __SYMCROSS_RD)
        /* an exact zero sum of opposite operands is -0 rounding down; two
         * zeros of the same sign keep it */
        return (a == 0.0f && !__builtin_signbit(a) && !__builtin_signbit(b)) ? 0.0f : -0.0f;
    if (__builtin_isinf(s) && __builtin_isfinite(a) && __builtin_isfinite(b))
        return __symcross_directed_f(s, s > 0.0f ? -1 : 1, mode);
    float bb = s - a;
    float err = (a - (s - bb)) + (b - bb);
    return __symcross_directed_f(s, __symcross_sign(err), mode);
}
/* a * b: the exact product of two floats fits a double. */
__SYMCROSS_DI float __symcross_fmul(float a, float b, int mode) {
    float p = a * b;
    return __symcross_directed_f(p, __symcross_sign((double)a * (double)b - (double)p), mode);
}
/* a / b: the exact quotient is above q where a - q*b (exact in double) has
 * the sign of b. */
__SYMCROSS_DI float __symcross_fdiv(float a, float b, int mode) {
    float q = a / b;
    int s = __symcross_sign((double)a - (double)q * (double)b);
    return __symcross_directed_f(q, b < 0.0f ? -s : s, mode);
}
/* sqrt(a) is above r where a - r*r (exact in double) is positive. */
__SYMCROSS_DI float __symcross_fsqrt(float a, int mode) {
    float r = sqrtf(a);
    return __symcross_directed_f(r, __symcross_sign((double)a - (double)r * (double)r), mode);
}
#define __SYMCROSS_FARITH(S, M)                                                                        \
    __SYMCROSS_DI float __fadd_##S(float a, float b) { return __symcross_fadd(a, b, M); }            \
    __SYMCROSS_DI float __fsub_##S(float a, float b) { return __symcross_fadd(a, -b, M); }           \
    __SYMCROSS_DI float __fmul_##S(float a, float b) { return __symcross_fmul(a, b, M); }            \
    __SYMCROSS_DI float __fdiv_##S(float a, float b) { return __symcross_fdiv(a, b, M); }            \
    __SYMCROSS_DI float __frcp_##S(float a) { return __symcross_fdiv(1.0f, a, M); }                  \
    __SYMCROSS_DI float __fsqrt_##S(float a) { return __symcross_fsqrt(a, M); }
__SYMCROSS_FARITH(rn, __SYMCROSS_RN)
__SYMCROSS_FARITH(rz, __SYMCROSS_RZ)
__SYMCROSS_FARITH(ru, __SYMCROSS_RU)
__SYMCROSS_FARITH(rd, __SYMCROSS_RD)
/* Double precision to nearest is the operator itself. */
__SYMCROSS_DI double __dadd_rn(double a, double b) { return a + b; }
__SYMCROSS_DI double __dsub_rn(double a, double b) { return a - b; }
__SYMCROSS_DI double __dmul_rn(double a, double b) { return a * b; }
__SYMCROSS_DI double __ddiv_rn(double a, double b) { return a / b; }
__SYMCROSS_DI double __dsqrt_rn(double a) { return sqrt(a); }

/* ---- floating point to integer ---- */
__SYMCROSS_DI float __symcross_round_f(float x, int mode) {
    return mode == __SYMCROSS_RN ? rintf(x) : mode == __SYMCROSS_RZ ? truncf(x) : mode == __SYMCROSS_RU ? ceilf(x) : floorf(x);
}
__SYMCROSS_DI double __symcross_round_d(double x, int mode) {
    return mode == __SYMCROSS_RN ? rint(x) : mode == __SYMCROSS_RZ ? trunc(x) : mode == __SYMCROSS_RU ? ceil(x) : floor(x);
}
/* r is integral (or NaN, which fails both comparisons); LO and HI bound the
 * destination range as exact powers of two: LO <= r < HI. */
#define __SYMCROSS_F2I(NAME, F, T, ROUND, LO, HI, FRESH, S, M)                                        \
    __SYMCROSS_DI T NAME##_##S(F x) {                                                                \
        F r = ROUND(x, M);                                                                           \
        return r >= (F)(LO) && r < (F)(HI) ? (T)r : (T)FRESH(0);                                     \
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
    __SYMCROSS_DI F NAME##_##S(I x) {                                                                \
        F r = (F)x;                                                                                  \
        int cmp = r >= (F)(HI) ? -1 : (I)r < x ? 1 : (I)r > x ? -1 : 0;                              \
        return DIRECTED(r, cmp, M);                                                                  \
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
__SYMCROSS_DI double __int2double_rn(int x) { return (double)x; }
__SYMCROSS_DI double __uint2double_rn(unsigned x) { return (double)x; }

/* ---- double to float ---- */
#define __SYMCROSS_D2F(S, M)                                                                           \
    __SYMCROSS_DI float __double2float_##S(double x) {                                               \
        float r = (float)x;                                                                          \
        return __symcross_directed_f(r, __symcross_sign(x - (double)r), M);                          \
    }
__SYMCROSS_D2F(rn, __SYMCROSS_RN)
__SYMCROSS_D2F(rz, __SYMCROSS_RZ)
__SYMCROSS_D2F(ru, __SYMCROSS_RU)
__SYMCROSS_D2F(rd, __SYMCROSS_RD)

#endif
