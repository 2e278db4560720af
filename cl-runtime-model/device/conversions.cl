/* OpenCL C built-ins: explicit conversions convert_T[_sat][_rte|_rtz|_rtp|_rtn]
 * (OpenCL 1.2 section 6.2.3). Default rounding: toward zero to integers,
 * nearest-even to floating point. Saturation clamps to the destination
 * range, NaN becoming 0. Rounding modes are supported for floating-point
 * to integer conversions (those kernels use); vector forms convert lane by
 * lane. */
#include "vectorize.h"

/* Vector forms of convert_<D><SUF> from source S. */
#define CONV_VEC(D, S, NAME)                                                                          \
  OVL D##2 NAME(S##2 x) { return (D##2)(NAME(x.s0), NAME(x.s1)); }                                    \
  OVL D##3 NAME(S##3 x) { return (D##3)(NAME(x.s0), NAME(x.s1), NAME(x.s2)); }                        \
  OVL D##4 NAME(S##4 x) { return (D##4)(NAME(x.lo), NAME(x.hi)); }                                    \
  OVL D##8 NAME(S##8 x) { return (D##8)(NAME(x.lo), NAME(x.hi)); }                                    \
  OVL D##16 NAME(S##16 x) { return (D##16)(NAME(x.lo), NAME(x.hi)); }

/* Plain conversions are C casts (toward zero / nearest-even). */
#define CONV_PLAIN(D, S)                                                                              \
  OVL D convert_##D(S x) { return (D)x; }                                                             \
  CONV_VEC(D, S, convert_##D)
#define CONV_PLAIN_ALL(D)                                                                             \
  CONV_PLAIN(D, char) CONV_PLAIN(D, uchar) CONV_PLAIN(D, short) CONV_PLAIN(D, ushort)                 \
  CONV_PLAIN(D, int) CONV_PLAIN(D, uint) CONV_PLAIN(D, long) CONV_PLAIN(D, ulong)                     \
  CONV_PLAIN(D, float) CONV_PLAIN(D, double)
CONV_PLAIN_ALL(char) CONV_PLAIN_ALL(uchar) CONV_PLAIN_ALL(short) CONV_PLAIN_ALL(ushort)
CONV_PLAIN_ALL(int) CONV_PLAIN_ALL(uint) CONV_PLAIN_ALL(long) CONV_PLAIN_ALL(ulong)
CONV_PLAIN_ALL(float) CONV_PLAIN_ALL(double)

/* Floating point to integer with a rounding function R and saturation:
 * the bounds as floating-point values are exact powers of two or zero, so
 * the comparisons are exact. */
#define CONV_F2I(D, S, DMIN, DMAX, SUF, R)                                                            \
  OVL D convert_##D##SUF(S x) { return (D)R(x); }                                                     \
  CONV_VEC(D, S, convert_##D##SUF)                                                                    \
  OVL D convert_##D##_sat##SUF(S x) {                                                                 \
    S r = R(x);                                                                                       \
    return isnan(x) ? (D)0 : r <= (S)DMIN ? (D)DMIN : r >= (S)DMAX ? (D)DMAX : (D)r;                 \
  }                                                                                                   \
  CONV_VEC(D, S, convert_##D##_sat##SUF)
#define CONV_F2I_MODES(D, S, DMIN, DMAX)                                                              \
  CONV_F2I(D, S, DMIN, DMAX, _rtz, trunc) CONV_F2I(D, S, DMIN, DMAX, _rte, rint)                     \
  CONV_F2I(D, S, DMIN, DMAX, _rtp, ceil) CONV_F2I(D, S, DMIN, DMAX, _rtn, floor)                     \
  OVL D convert_##D##_sat(S x) { return convert_##D##_sat_rtz(x); }                                   \
  CONV_VEC(D, S, convert_##D##_sat)
#define CONV_F2I_ALL(S)                                                                               \
  CONV_F2I_MODES(char, S, CHAR_MIN, CHAR_MAX) CONV_F2I_MODES(uchar, S, 0, UCHAR_MAX)                 \
  CONV_F2I_MODES(short, S, SHRT_MIN, SHRT_MAX) CONV_F2I_MODES(ushort, S, 0, USHRT_MAX)               \
  CONV_F2I_MODES(int, S, INT_MIN, INT_MAX) CONV_F2I_MODES(uint, S, 0, UINT_MAX)                      \
  CONV_F2I_MODES(long, S, LONG_MIN, LONG_MAX) CONV_F2I_MODES(ulong, S, 0, ULONG_MAX)
CONV_F2I_ALL(float) CONV_F2I_ALL(double)

/* Integer to integer with saturation: through long (signed sources) or
 * ulong (unsigned sources); HI is the upper bound as a long (for ulong,
 * every long fits). */
#define SAT_FROM_SIGNED(D, S, DMIN, HI, DMAX)                                                         \
  OVL D convert_##D##_sat(S x) {                                                                      \
    long v = (long)x;                                                                                 \
    return v < (long)(DMIN) ? (D)(DMIN) : v > (long)(HI) ? (D)(DMAX) : (D)v;                          \
  }                                                                                                   \
  CONV_VEC(D, S, convert_##D##_sat)
#define SAT_FROM_UNSIGNED(D, S, DMAX)                                                                 \
  OVL D convert_##D##_sat(S x) {                                                                      \
    ulong v = (ulong)x;                                                                               \
    return v > (ulong)(DMAX) ? (D)(DMAX) : (D)v;                                                      \
  }                                                                                                   \
  CONV_VEC(D, S, convert_##D##_sat)
#define SAT_TO(D, DMIN, HI, DMAX)                                                                     \
  SAT_FROM_SIGNED(D, char, DMIN, HI, DMAX) SAT_FROM_SIGNED(D, short, DMIN, HI, DMAX)                  \
  SAT_FROM_SIGNED(D, int, DMIN, HI, DMAX) SAT_FROM_SIGNED(D, long, DMIN, HI, DMAX)                    \
  SAT_FROM_UNSIGNED(D, uchar, DMAX) SAT_FROM_UNSIGNED(D, ushort, DMAX)                                \
  SAT_FROM_UNSIGNED(D, uint, DMAX) SAT_FROM_UNSIGNED(D, ulong, DMAX)
SAT_TO(char, CHAR_MIN, CHAR_MAX, CHAR_MAX) SAT_TO(uchar, 0, UCHAR_MAX, UCHAR_MAX)
SAT_TO(short, SHRT_MIN, SHRT_MAX, SHRT_MAX) SAT_TO(ushort, 0, USHRT_MAX, USHRT_MAX)
SAT_TO(int, INT_MIN, INT_MAX, INT_MAX) SAT_TO(uint, 0, UINT_MAX, UINT_MAX)
SAT_TO(long, LONG_MIN, LONG_MAX, LONG_MAX) SAT_TO(ulong, 0, LONG_MAX, ULONG_MAX)
