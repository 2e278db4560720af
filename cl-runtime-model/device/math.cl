/* OpenCL C built-ins, math functions with exact results (OpenCL 1.2
 * section 6.12.2) that are not plain IEEE operations, written with bit
 * operations and exact arithmetic. Math functions with error bounds
 * (pown, rsqrt, sinpi, ...) are uninterpreted functions in the executor;
 * sqrt, fmin, fmax, floor, ... are IEEE operations there. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "vectorize.h"

/* The floating-point type T with same-width integer types I (signed) and
 * U (unsigned), MANT mantissa bits, EMAX the all-ones biased exponent. */
#define EXACT_MATH(T, I, U, MANT, EMAX, AS_T, AS_I)                                                    \
  OVL T fdim(T x, T y) { return isnan(x) || isnan(y) ? x + y : x > y ? x - y : (T)0; }                 \
  VEC2(T, fdim, T)                                                                                    \
  OVL T maxmag(T x, T y) { return fabs(x) > fabs(y) ? x : fabs(y) > fabs(x) ? y : fmax(x, y); }        \
  VEC2(T, maxmag, T)                                                                                  \
  OVL T minmag(T x, T y) { return fabs(x) < fabs(y) ? x : fabs(y) < fabs(x) ? y : fmin(x, y); }        \
  VEC2(T, minmag, T)                                                                                  \
  /* One step of the bit pattern toward y; from zero, the smallest       \
   * subnormal of y's sign. */                                                                        \
  OVL T nextafter(T x, T y) {                                                                         \
    if (isnan(x) || isnan(y))                                                                         \
      return x + y;                                                                                   \
    if (x == y)                                                                                       \
      return y;                                                                                       \
    if (x == (T)0)                                                                                    \
      return AS_T(signbit(y) ? (I)1 << (sizeof(T) * 8 - 1) | 1 : (I)1);                               \
    I b = AS_I(x);                                                                                    \
    return AS_T((x < y) == (x > (T)0) ? b + 1 : b - 1);                                               \
  }                                                                                                   \
  VEC2(T, nextafter, T)                                                                               \
  OVL int ilogb(T x) {                                                                                \
    if (isnan(x))                                                                                     \
      return FP_ILOGBNAN;                                                                             \
    if (x == (T)0)                                                                                    \
      return FP_ILOGB0;                                                                               \
    if (isinf(x))                                                                                     \
      return INT_MAX;                                                                                 \
    U a = (U)AS_I(fabs(x));                                                                           \
    int e = (int)(a >> MANT);                                                                         \
    if (e != 0)                                                                                       \
      return e - (EMAX >> 1);                                                                         \
    /* Subnormal: a * 2^(1 - bias - MANT), led by its highest one bit. */ \
    int top = (int)(sizeof(T) * 8 - 1) - (int)clz(a);                                                 \
    return top + 1 - (EMAX >> 1) - MANT;                                                              \
  }                                                                                                   \
  static OVL T symcl_frexp(T x, int *e) {                                                                   \
    if (isnan(x) || isinf(x) || x == (T)0) {                                                          \
      *e = 0;                                                                                         \
      return x;                                                                                       \
    }                                                                                                 \
    int k = ilogb(x) + 1;                                                                             \
    *e = k;                                                                                           \
    /* x * 2^-k is exact (the result is in [0.5, 1)): build it from the   \
     * bits, keeping the sign and the significand. */                                                 \
    U a = (U)AS_I(fabs(x));                                                                           \
    int top = (int)(sizeof(T) * 8 - 1) - (int)clz(a);                                                 \
    U sig = (a >> MANT) != 0 ? a : a << (MANT - top);                                                 \
    sig &= ((U)1 << MANT) - 1;                                                                        \
    U r = sig | ((U)((EMAX >> 1) - 1) << MANT);                                                       \
    return copysign(AS_T((I)r), x);                                                                   \
  }                                                                                                   \
  OVL T nan(U code) { return AS_T((I)(((U)EMAX << MANT) | ((U)1 << (MANT - 1)) | (code & (((U)1 << (MANT - 1)) - 1)))); }
EXACT_MATH(float, int, uint, 23, 0xff, as_float, as_int)
EXACT_MATH(double, long, ulong, 52, 0x7ff, as_double, as_long)

/* ldexp for float: x * 2^n is exact in double (the product of a float and
 * a power of two within +-400 stays a normal double), so converting it back
 * rounds once, as the specification requires. */
OVL float ldexp(float x, int n) {
  int k = clamp(n, -400, 400);
  return (float)((double)x * as_double((long)(k + 1023) << 52));
}
OVL float2 ldexp(float2 x, int2 n) { return (float2)(ldexp(x.s0, n.s0), ldexp(x.s1, n.s1)); }
OVL float4 ldexp(float4 x, int4 n) { return (float4)(ldexp(x.lo, n.lo), ldexp(x.hi, n.hi)); }
OVL float2 ldexp(float2 x, int n) { return ldexp(x, (int2)(n)); }
OVL float4 ldexp(float4 x, int n) { return ldexp(x, (int4)(n)); }

/* Functions with a result through a pointer, for each address space. */
#define PTR_MATH(T, AS)                                                                               \
  OVL T fract(T x, AS T *iptr) {                                                                      \
    T f = floor(x);                                                                                   \
    *iptr = f;                                                                                        \
    if (isnan(x))                                                                                     \
      return x;                                                                                       \
    if (isinf(x))                                                                                     \
      return copysign((T)0, x);                                                                       \
    return fmin(x - f, nextafter((T)1, (T)0));                                                        \
  }                                                                                                   \
  OVL T modf(T x, AS T *iptr) {                                                                       \
    T t = trunc(x);                                                                                   \
    *iptr = t;                                                                                        \
    return isinf(x) ? copysign((T)0, x) : copysign(x - t, x);                                         \
  }                                                                                                   \
  OVL T frexp(T x, AS int *e) {                                                                       \
    int k;                                                                                            \
    T r = symcl_frexp(x, &k);                                                                        \
    *e = k;                                                                                           \
    return r;                                                                                         \
  }                                                                                                   \
  OVL T sincos(T x, AS T *c) {                                                                        \
    *c = cos(x);                                                                                      \
    return sin(x);                                                                                    \
  }
PTR_MATH(float, __global) PTR_MATH(float, __local) PTR_MATH(float, __private)
PTR_MATH(double, __global) PTR_MATH(double, __local) PTR_MATH(double, __private)

/* fast_* geometric functions: reduced accuracy, so computed with the
 * approximate native_sqrt (an unconstrained value, not a guess). */
#define FAST_GEOMETRIC(V)                                                                             \
  OVL float fast_length(V p) { return native_sqrt(dot(p, p)); }                                       \
  OVL float fast_distance(V p, V q) { return fast_length(p - q); }                                    \
  OVL V fast_normalize(V p) { return p * native_rsqrt(dot(p, p)); }
FAST_GEOMETRIC(float) FAST_GEOMETRIC(float2) FAST_GEOMETRIC(float3) FAST_GEOMETRIC(float4)

/* Integer functions built on mul_hi and wider arithmetic. */
#define MAD_HI(T)                                                                                     \
  OVL T mad_hi(T a, T b, T c) { return mul_hi(a, b) + c; }                                            \
  VEC3(T, mad_hi, T)
MAD_HI(char) MAD_HI(uchar) MAD_HI(short) MAD_HI(ushort) MAD_HI(int) MAD_HI(uint) MAD_HI(long) MAD_HI(ulong)

#define MAD_SAT_VIA(T, W)                                                                             \
  OVL T mad_sat(T a, T b, T c) { return convert_##T##_sat((W)a * (W)b + (W)c); }                     \
  VEC3(T, mad_sat, T)
MAD_SAT_VIA(char, int) MAD_SAT_VIA(uchar, uint) MAD_SAT_VIA(short, int) MAD_SAT_VIA(ushort, uint)
MAD_SAT_VIA(int, long)
/* uint: the product can reach 2^64 - 2^33 + 1, which fits in ulong, but
 * adding c may wrap: check the sum against the product. */
OVL uint mad_sat(uint a, uint b, uint c) {
  ulong p = (ulong)a * (ulong)b, s = p + c;
  return s > 0xffffffffUL ? 0xffffffffu : (uint)s;
}
VEC3(uint, mad_sat, uint)

#define UPSAMPLE(H, L, R, BITS)                                                                       \
  OVL R upsample(H hi, L lo) { return ((R)hi << BITS) | (R)lo; }                                      \
  VEC2_MIXED(R, upsample, H, L)
#define VEC2_MIXED(R, NAME, A, B)                                                                     \
  OVL R##2 NAME(A##2 x, B##2 y) { return (R##2)(NAME(x.s0, y.s0), NAME(x.s1, y.s1)); }                \
  OVL R##3 NAME(A##3 x, B##3 y) { return (R##3)(NAME(x.s0, y.s0), NAME(x.s1, y.s1), NAME(x.s2, y.s2)); } \
  OVL R##4 NAME(A##4 x, B##4 y) { return (R##4)(NAME(x.lo, y.lo), NAME(x.hi, y.hi)); }                \
  OVL R##8 NAME(A##8 x, B##8 y) { return (R##8)(NAME(x.lo, y.lo), NAME(x.hi, y.hi)); }                \
  OVL R##16 NAME(A##16 x, B##16 y) { return (R##16)(NAME(x.lo, y.lo), NAME(x.hi, y.hi)); }
UPSAMPLE(char, uchar, short, 8) UPSAMPLE(uchar, uchar, ushort, 8)
UPSAMPLE(short, ushort, int, 16) UPSAMPLE(ushort, ushort, uint, 16)
UPSAMPLE(int, uint, long, 32) UPSAMPLE(uint, uint, ulong, 32)
