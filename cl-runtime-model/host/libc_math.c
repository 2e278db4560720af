/* C library math functions with exact results (C11 F.10), written with
 * bit operations so that symcross executes them bit-precisely like user
 * code: fdim, ldexp/scalbn, frexp, modf, nextafter, ilogb, lround, lrint
 * and their ll forms, for float and double. (sqrt, fma, fabs, floor, ceil, trunc, rint, round, copysign,
 * fmin, fmax and fmod are IEEE operations in the executor; functions
 * without exact results, such as sin or exp, are uninterpreted there.)
 * Compiled with -fno-builtin. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static uint64_t bits_of(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }
static double double_of(uint64_t u) { double x; memcpy(&x, &u, 8); return x; }
static uint32_t bits_of_f(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static float float_of(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }

/* 2^k as a double, for -1074 <= k <= 1023 (exact). */
static double pow2(int k) {
  if (k >= -1022)
    return double_of((uint64_t)(k + 1023) << 52);
  return double_of((uint64_t)1 << (k + 1074));
}

double fdim(double x, double y) { return isnan(x) || isnan(y) ? x + y : x > y ? x - y : 0.0; }
float fdimf(float x, float y) { return isnan(x) || isnan(y) ? x + y : x > y ? x - y : 0.0f; }

int ilogb(double x) {
  if (isnan(x))
    return FP_ILOGBNAN;
  if (x == 0)
    return FP_ILOGB0;
  if (isinf(x))
    return INT_MAX;
  uint64_t a = bits_of(x) & ~((uint64_t)1 << 63);
  int e = (int)(a >> 52);
  if (e)
    return e - 1023;
  return (63 - __builtin_clzll(a)) - 1074;
}

int ilogbf(float x) {
  if (isnan(x))
    return FP_ILOGBNAN;
  if (x == 0)
    return FP_ILOGB0;
  if (isinf(x))
    return INT_MAX;
  uint32_t a = bits_of_f(x) & 0x7fffffffu;
  int e = (int)(a >> 23);
  if (e)
    return e - 127;
  return (31 - __builtin_clz(a)) - 149;
}

/* x * 2^n rounded once: scale x to [1, 2) exactly, then apply the rest of
 * the exponent in one multiplication (by a representable power of two) or,
 * below the smallest subnormal, round by hand. */
double ldexp(double x, int n) {
  if (isnan(x) || isinf(x) || x == 0)
    return x;
  int e = ilogb(x);
  double y = x * pow2(-e > 1023 ? 1023 : -e);
  if (-e > 1023)
    y *= pow2(-e - 1023);
  long k = (long)n + e; /* the result is y * 2^k, |y| in [1, 2) */
  if (k > 1023)
    return y * 0x1p1023 * 0x1p1023; /* overflows to infinity */
  if (k >= -1074)
    return y * pow2((int)k);
  if (k == -1075) /* between 0 and the smallest subnormal: ties to even */
    return copysign(fabs(y) > 1 ? 0x1p-1074 : 0.0, x);
  return copysign(0.0, x);
}

double scalbn(double x, int n) { return ldexp(x, n); }

/* For float, x * 2^n is exact in double for |n| <= 400, so converting back
 * rounds once. */
float ldexpf(float x, int n) {
  int k = n < -400 ? -400 : n > 400 ? 400 : n;
  return (float)((double)x * pow2(k));
}

float scalbnf(float x, int n) { return ldexpf(x, n); }

double frexp(double x, int *e) {
  if (isnan(x) || isinf(x) || x == 0) {
    *e = 0;
    return x;
  }
  int k = ilogb(x) + 1;
  *e = k;
  uint64_t a = bits_of(x) & ~((uint64_t)1 << 63);
  int top = 63 - __builtin_clzll(a);
  uint64_t sig = (a >> 52) ? a : a << (52 - top);
  return copysign(double_of((sig & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1022 << 52)), x);
}

float frexpf(float x, int *e) {
  if (isnan(x) || isinf(x) || x == 0) {
    *e = 0;
    return x;
  }
  int k = ilogbf(x) + 1;
  *e = k;
  uint32_t a = bits_of_f(x) & 0x7fffffffu;
  int top = 31 - __builtin_clz(a);
  uint32_t sig = (a >> 23) ? a : a << (23 - top);
  return copysignf(float_of((sig & 0x7fffffu) | (126u << 23)), x);
}

double modf(double x, double *ip) {
  double t = trunc(x);
  *ip = t;
  return isinf(x) ? copysign(0.0, x) : copysign(x - t, x);
}

float modff(float x, float *ip) {
  float t = truncf(x);
  *ip = t;
  return isinf(x) ? copysignf(0.0f, x) : copysignf(x - t, x);
}

double nextafter(double x, double y) {
  if (isnan(x) || isnan(y))
    return x + y;
  if (x == y)
    return y;
  if (x == 0)
    return double_of(signbit(y) ? ((uint64_t)1 << 63) | 1 : 1);
  uint64_t b = bits_of(x);
  return double_of((x < y) == (x > 0) ? b + 1 : b - 1);
}

float nextafterf(float x, float y) {
  if (isnan(x) || isnan(y))
    return x + y;
  if (x == y)
    return y;
  if (x == 0)
    return float_of(signbit(y) ? 0x80000001u : 1u);
  uint32_t b = bits_of_f(x);
  return float_of((x < y) == (x > 0) ? b + 1 : b - 1);
}

/* Rounding to integers: round or rint, then the C conversion (an
 * out-of-range or NaN argument gives the x86 "integer indefinite", as the
 * C library on x86 does). */
long lround(double x) { return (long)round(x); }
long lroundf(float x) { return (long)roundf(x); }
long long llround(double x) { return (long long)round(x); }
long long llroundf(float x) { return (long long)roundf(x); }
long lrint(double x) { return (long)rint(x); }
long lrintf(float x) { return (long)rintf(x); }
long long llrint(double x) { return (long long)rint(x); }
long long llrintf(float x) { return (long long)rintf(x); }
