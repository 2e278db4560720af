/* OpenCL C built-ins: explicit conversions convert_T[_sat][_rte|_rtz|_rtp|_rtn]
 * (OpenCL 1.2 section 6.2.3). Default rounding: toward zero to integers,
 * nearest-even to floating point. Saturation clamps to the destination
 * range, NaN becoming 0. Every rounding mode is supported: to integers by
 * rounding first, to floating point by correcting the nearest-even result
 * by one step where it lies on the wrong side of the exact value; integer to
 * integer conversions are exact, so their rounding suffix changes nothing.
 * Vector forms convert lane by lane. */
#include "vectorize.h"

/* Vector forms convert_<D><N><SUF> from source S, from the scalar
 * convert_<D><SUF>. */
#define CONV_VEC(D, S, SUF)                                                                           \
  OVL D##2 convert_##D##2##SUF(S##2 x) { return (D##2)(convert_##D##SUF(x.s0), convert_##D##SUF(x.s1)); } \
  OVL D##3 convert_##D##3##SUF(S##3 x) {                                                              \
    return (D##3)(convert_##D##SUF(x.s0), convert_##D##SUF(x.s1), convert_##D##SUF(x.s2));             \
  }                                                                                                   \
  OVL D##4 convert_##D##4##SUF(S##4 x) { return (D##4)(convert_##D##2##SUF(x.lo), convert_##D##2##SUF(x.hi)); } \
  OVL D##8 convert_##D##8##SUF(S##8 x) { return (D##8)(convert_##D##4##SUF(x.lo), convert_##D##4##SUF(x.hi)); } \
  OVL D##16 convert_##D##16##SUF(S##16 x) { return (D##16)(convert_##D##8##SUF(x.lo), convert_##D##8##SUF(x.hi)); }

/* Plain conversions are C casts (toward zero / nearest-even). */
#define CONV_PLAIN(D, S)                                                                              \
  OVL D convert_##D(S x) { return (D)x; }                                                             \
  CONV_VEC(D, S, )
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
  CONV_VEC(D, S, SUF)                                                                    \
  OVL D convert_##D##_sat##SUF(S x) {                                                                 \
    S r = R(x);                                                                                       \
    return isnan(x) ? (D)0 : r <= (S)DMIN ? (D)DMIN : r >= (S)DMAX ? (D)DMAX : (D)r;                 \
  }                                                                                                   \
  CONV_VEC(D, S, _sat##SUF)
#define CONV_F2I_MODES(D, S, DMIN, DMAX)                                                              \
  CONV_F2I(D, S, DMIN, DMAX, _rtz, trunc) CONV_F2I(D, S, DMIN, DMAX, _rte, rint)                     \
  CONV_F2I(D, S, DMIN, DMAX, _rtp, ceil) CONV_F2I(D, S, DMIN, DMAX, _rtn, floor)                     \
  OVL D convert_##D##_sat(S x) { return convert_##D##_sat_rtz(x); }                                   \
  CONV_VEC(D, S, _sat)
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
  CONV_VEC(D, S, _sat)
#define SAT_FROM_UNSIGNED(D, S, DMAX)                                                                 \
  OVL D convert_##D##_sat(S x) {                                                                      \
    ulong v = (ulong)x;                                                                               \
    return v > (ulong)(DMAX) ? (D)(DMAX) : (D)v;                                                      \
  }                                                                                                   \
  CONV_VEC(D, S, _sat)
#define SAT_TO(D, DMIN, HI, DMAX)                                                                     \
  SAT_FROM_SIGNED(D, char, DMIN, HI, DMAX) SAT_FROM_SIGNED(D, short, DMIN, HI, DMAX)                  \
  SAT_FROM_SIGNED(D, int, DMIN, HI, DMAX) SAT_FROM_SIGNED(D, long, DMIN, HI, DMAX)                    \
  SAT_FROM_UNSIGNED(D, uchar, DMAX) SAT_FROM_UNSIGNED(D, ushort, DMAX)                                \
  SAT_FROM_UNSIGNED(D, uint, DMAX) SAT_FROM_UNSIGNED(D, ulong, DMAX)
SAT_TO(char, CHAR_MIN, CHAR_MAX, CHAR_MAX) SAT_TO(uchar, 0, UCHAR_MAX, UCHAR_MAX)
SAT_TO(short, SHRT_MIN, SHRT_MAX, SHRT_MAX) SAT_TO(ushort, 0, USHRT_MAX, USHRT_MAX)
SAT_TO(int, INT_MIN, INT_MAX, INT_MAX) SAT_TO(uint, 0, UINT_MAX, UINT_MAX)
SAT_TO(long, LONG_MIN, LONG_MAX, LONG_MAX) SAT_TO(ulong, 0, LONG_MAX, ULONG_MAX)

/* Integer to integer conversions with a rounding suffix equal the plain
 * and saturating ones. */
#define I2I_MODE(D, S, SUF)                                                                           \
  OVL D convert_##D##SUF(S x) { return convert_##D(x); }                                              \
  CONV_VEC(D, S, SUF)                                                                    \
  OVL D convert_##D##_sat##SUF(S x) { return convert_##D##_sat(x); }                                  \
  CONV_VEC(D, S, _sat##SUF)
#define I2I_MODES(D, S) I2I_MODE(D, S, _rte) I2I_MODE(D, S, _rtz) I2I_MODE(D, S, _rtp) I2I_MODE(D, S, _rtn)
#define I2I_FROM_ALL(D)                                                                               \
  I2I_MODES(D, char) I2I_MODES(D, uchar) I2I_MODES(D, short) I2I_MODES(D, ushort)                     \
  I2I_MODES(D, int) I2I_MODES(D, uint) I2I_MODES(D, long) I2I_MODES(D, ulong)
I2I_FROM_ALL(char) I2I_FROM_ALL(uchar) I2I_FROM_ALL(short) I2I_FROM_ALL(ushort)
I2I_FROM_ALL(int) I2I_FROM_ALL(uint) I2I_FROM_ALL(long) I2I_FROM_ALL(ulong)

/* The neighbours of a non-zero float or double (infinities included):
 * one step of the bit pattern away from or toward zero. */
static OVL float step_down(float f) { return as_float(f < 0.0f || signbit(f) ? as_int(f) + 1 : as_int(f) - 1); }
static OVL float step_up(float f) { return as_float(f < 0.0f || signbit(f) ? as_int(f) - 1 : as_int(f) + 1); }
static OVL double step_down(double f) { return as_double(f < 0.0 || signbit(f) ? as_long(f) + 1 : as_long(f) - 1); }
static OVL double step_up(double f) { return as_double(f < 0.0 || signbit(f) ? as_long(f) - 1 : as_long(f) + 1); }

/* Sign of (f - x), exactly, for f the nearest-even conversion of integer x:
 * f is integral and within one step of x, so it converts back exactly
 * unless it is the power of two just past the source range. */
#define CMP_SIGNED(D)                                                                                 \
  static OVL int rounding_error(D f, long x) {                                                        \
    if (f >= (D)0x1p63) return 1;                                                                     \
    long v = (long)f;                                                                                 \
    return v > x ? 1 : v < x ? -1 : 0;                                                                \
  }                                                                                                   \
  static OVL int rounding_error(D f, ulong x) {                                                       \
    if (f >= (D)0x1p64) return 1;                                                                     \
    ulong v = (ulong)f;                                                                               \
    return v > x ? 1 : v < x ? -1 : 0;                                                                \
  }
CMP_SIGNED(float) CMP_SIGNED(double)
static OVL int rounding_error(float f, double x) { return (double)f > x ? 1 : (double)f < x ? -1 : 0; }

/* The result rounded toward +inf, -inf or zero, from nearest-even f whose
 * error against the exact value is e (sign of f - exact). */
#define ROUND_DIRECTED(D)                                                                             \
  static OVL D round_rtp(D f, int e) { return e < 0 ? step_up(f) : f; }                               \
  static OVL D round_rtn(D f, int e) { return e > 0 ? step_down(f) : f; }                             \
  static OVL D round_rtz(D f, int e) {                                                                \
    return e > 0 && f > (D)0 ? step_down(f) : e < 0 && f < (D)0 ? step_up(f) : f;                      \
  }                                                                                                   \
  static OVL D round_rte(D f, int e) { return f; }
ROUND_DIRECTED(float) ROUND_DIRECTED(double)

/* To floating point with a rounding mode: W is the type the source widens
 * to exactly for the comparison (long, ulong or double). */
#define TO_FP_MODE(D, S, W, M)                                                                        \
  OVL D convert_##D##_##M(S x) { D f = (D)x; return round_##M(f, rounding_error(f, (W)x)); }          \
  CONV_VEC(D, S, _##M)
#define TO_FP_MODES(D, S, W) TO_FP_MODE(D, S, W, rte) TO_FP_MODE(D, S, W, rtz) TO_FP_MODE(D, S, W, rtp) TO_FP_MODE(D, S, W, rtn)
#define TO_FP_FROM_INTS(D)                                                                            \
  TO_FP_MODES(D, char, long) TO_FP_MODES(D, short, long) TO_FP_MODES(D, int, long)                    \
  TO_FP_MODES(D, long, long) TO_FP_MODES(D, uchar, ulong) TO_FP_MODES(D, ushort, ulong)               \
  TO_FP_MODES(D, uint, ulong) TO_FP_MODES(D, ulong, ulong)
TO_FP_FROM_INTS(float) TO_FP_FROM_INTS(double)
TO_FP_MODES(float, double, double)

/* Conversions that are always exact: the suffix changes nothing. */
#define FP_EXACT_MODES(D, S)                                                                          \
  OVL D convert_##D##_rte(S x) { return (D)x; }                                                       \
  OVL D convert_##D##_rtz(S x) { return (D)x; }                                                       \
  OVL D convert_##D##_rtp(S x) { return (D)x; }                                                       \
  OVL D convert_##D##_rtn(S x) { return (D)x; }                                                       \
  CONV_VEC(D, S, _rte) CONV_VEC(D, S, _rtz)                                 \
  CONV_VEC(D, S, _rtp) CONV_VEC(D, S, _rtn)
FP_EXACT_MODES(float, float) FP_EXACT_MODES(double, float) FP_EXACT_MODES(double, double)
