/* OpenCL C built-ins, common and integer functions (OpenCL 1.2 sections
 * 6.12.3, 6.12.4), defined with their exact semantics. Linked with every
 * kernel; only the functions a kernel calls stay in its module. */
#include "vectorize.h"

#define CLAMP(T)                                                                                      \
  OVL T clamp(T x, T lo, T hi) { return x < lo ? lo : (x > hi ? hi : x); }                            \
  VEC3(T, clamp, T)                                                                                   \
  VEC3_SS(T, clamp, T)
CLAMP(char) CLAMP(uchar) CLAMP(short) CLAMP(ushort) CLAMP(int) CLAMP(uint) CLAMP(long) CLAMP(ulong)

/* fmin(fmax(x, lo), hi), as the specification defines clamp for floats. */
#define FCLAMP(T)                                                                                     \
  OVL T clamp(T x, T lo, T hi) { return fmin(fmax(x, lo), hi); }                                      \
  VEC3(T, clamp, T)                                                                                   \
  VEC3_SS(T, clamp, T)
FCLAMP(float) FCLAMP(double)

#define FCOMMON(T)                                                                                    \
  OVL T mix(T x, T y, T a) { return x + (y - x) * a; }                                                \
  VEC3(T, mix, T)                                                                                     \
  VEC3_SS(T, mix, T)                                                                                  \
  OVL T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }                                          \
  VEC2(T, step, T)                                                                                    \
  OVL T smoothstep(T e0, T e1, T x) {                                                                 \
    T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1);                                                    \
    return t * t * ((T)3 - (T)2 * t);                                                                 \
  }                                                                                                   \
  VEC3(T, smoothstep, T)                                                                              \
  OVL T sign(T x) { return isnan(x) ? (T)0 : x > (T)0 ? (T)1 : x < (T)0 ? (T)-1 : x; }                \
  VEC1(T, sign, T)                                                                                    \
  OVL T degrees(T r) { return r * (T)(180.0 / M_PI); }                                                \
  VEC1(T, degrees, T)                                                                                 \
  OVL T radians(T d) { return d * (T)(M_PI / 180.0); }                                                \
  VEC1(T, radians, T)
FCOMMON(float) FCOMMON(double)

/* Integer functions. */
#define IABS(T, U)                                                                                    \
  OVL U abs(T x) { return x < 0 ? (U)(-x) : (U)x; }                                                   \
  VEC1(U, abs, T)                                                                                     \
  OVL U abs_diff(T x, T y) { return x > y ? (U)((U)x - (U)y) : (U)((U)y - (U)x); }                    \
  VEC2(U, abs_diff, T)
IABS(char, uchar) IABS(short, ushort) IABS(int, uint) IABS(long, ulong)

#define UABS(T)                                                                                       \
  OVL T abs(T x) { return x; }                                                                        \
  VEC1(T, abs, T)                                                                                     \
  OVL T abs_diff(T x, T y) { return x > y ? x - y : y - x; }                                          \
  VEC2(T, abs_diff, T)
UABS(uchar) UABS(ushort) UABS(uint) UABS(ulong)

/* Halving adds without overflow: (x + y) >> 1 and (x + y + 1) >> 1. */
#define HADD(T)                                                                                       \
  OVL T hadd(T x, T y) { return (x >> 1) + (y >> 1) + (x & y & 1); }                                  \
  VEC2(T, hadd, T)                                                                                    \
  OVL T rhadd(T x, T y) { return (x >> 1) + (y >> 1) + ((x | y) & 1); }                               \
  VEC2(T, rhadd, T)                                                                                   \
  OVL T rotate(T v, T i) {                                                                            \
    const int bits = sizeof(T) * 8;                                                                   \
    int n = (int)(i & (T)(bits - 1));                                                                 \
    return n == 0 ? v : (T)(((v << n)) | (T)(((v >> (bits - n)) & (T)(((T)1 << n) - 1))));            \
  }                                                                                                   \
  VEC2(T, rotate, T)                                                                                  \
  OVL T popcount(T x) {                                                                               \
    T n = 0;                                                                                          \
    for (int k = 0; k < (int)sizeof(T) * 8; k++)                                                      \
      n += (x >> k) & 1;                                                                              \
    return n;                                                                                         \
  }                                                                                                   \
  VEC1(T, popcount, T)                                                                                \
  OVL T clz(T x) {                                                                                    \
    T n = 0;                                                                                          \
    for (int k = (int)sizeof(T) * 8 - 1; k >= 0 && !((x >> k) & 1); k--)                              \
      n++;                                                                                            \
    return n;                                                                                         \
  }                                                                                                   \
  VEC1(T, clz, T)
HADD(char) HADD(uchar) HADD(short) HADD(ushort) HADD(int) HADD(uint) HADD(long) HADD(ulong)

/* Saturating add/sub through a wider type (64-bit types: by overflow test). */
#define SAT_NARROW(T, W, MIN, MAX)                                                                    \
  OVL T add_sat(T x, T y) { W s = (W)x + (W)y; return s < (W)MIN ? MIN : s > (W)MAX ? MAX : (T)s; }   \
  VEC2(T, add_sat, T)                                                                                 \
  OVL T sub_sat(T x, T y) { W s = (W)x - (W)y; return s < (W)MIN ? MIN : s > (W)MAX ? MAX : (T)s; }   \
  VEC2(T, sub_sat, T)                                                                                 \
  OVL T mul_hi(T x, T y) { return (T)(((W)x * (W)y) >> (sizeof(T) * 8)); }                            \
  VEC2(T, mul_hi, T)
SAT_NARROW(char, int, CHAR_MIN, CHAR_MAX) SAT_NARROW(uchar, int, 0, UCHAR_MAX)
SAT_NARROW(short, int, SHRT_MIN, SHRT_MAX) SAT_NARROW(ushort, int, 0, USHRT_MAX)
SAT_NARROW(int, long, INT_MIN, INT_MAX) SAT_NARROW(uint, long, 0, UINT_MAX)

OVL long add_sat(long x, long y) {
  long s = (long)((ulong)x + (ulong)y);
  return (x >= 0) == (y >= 0) && (s >= 0) != (x >= 0) ? (x < 0 ? LONG_MIN : LONG_MAX) : s;
}
VEC2(long, add_sat, long)
OVL long sub_sat(long x, long y) {
  long s = (long)((ulong)x - (ulong)y);
  return (x >= 0) != (y >= 0) && (s >= 0) != (x >= 0) ? (x < 0 ? LONG_MIN : LONG_MAX) : s;
}
VEC2(long, sub_sat, long)
OVL ulong add_sat(ulong x, ulong y) { return x + y < x ? ULONG_MAX : x + y; }
VEC2(ulong, add_sat, ulong)
OVL ulong sub_sat(ulong x, ulong y) { return x < y ? 0 : x - y; }
VEC2(ulong, sub_sat, ulong)

/* 24-bit multiplies: exact when the operands fit in 24 bits (otherwise the
 * result is implementation-defined; this is the full product). */
OVL int mul24(int x, int y) { return x * y; }
VEC2(int, mul24, int)
OVL uint mul24(uint x, uint y) { return x * y; }
VEC2(uint, mul24, uint)
OVL int mad24(int x, int y, int z) { return x * y + z; }
VEC3(int, mad24, int)
OVL uint mad24(uint x, uint y, uint z) { return x * y + z; }
VEC3(uint, mad24, uint)
