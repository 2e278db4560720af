/* OpenCL C built-ins: vstore_halfN and vstorea_halfN with every rounding
 * mode (OpenCL 1.2 section 6.12.7.1), from float and double, for every
 * writable address space. The conversion rounds to nearest-even on the
 * bits (from double directly, never through float, which would round
 * twice); a directed mode then moves the result one step when it lies on
 * the wrong side of the exact value. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "vectorize.h"
#include "half_bits.h"


static ushort symcl_rne_half(float f) {
  uint x = as_uint(f), s = (x >> 16) & 0x8000, a = x & 0x7fffffffu;
  if (a > 0x7f800000u) /* NaN: keep it quiet */
    return (ushort)(s | 0x7e00 | ((a >> 13) & 0x3ff));
  if (a >= 0x477ff000u) /* from 65520 up: rounds to infinity */
    return (ushort)(s | 0x7c00);
  if (a < 0x38800000u) /* below 2^-14: a subnormal half, in units of 2^-24 */
    return (ushort)(s | (uint)rint(as_float(a) * 0x1p24f));
  uint h = (((a >> 23) - 112) << 10) | ((a >> 13) & 0x3ff), rest = a & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    h++;
  return (ushort)(s | h);
}

static ushort symcl_rne_half_d(double d) {
  ulong x = as_ulong(d), a = x & 0x7fffffffffffffffUL;
  uint s = (uint)(x >> 48) & 0x8000;
  if (a > 0x7ff0000000000000UL)
    return (ushort)(s | 0x7e00 | (uint)((a >> 42) & 0x3ff));
  if (a >= 0x40effe0000000000UL) /* from 65520 up */
    return (ushort)(s | 0x7c00);
  if (a < 0x3f10000000000000UL) /* below 2^-14: units of 2^-24, exact in double */
    return (ushort)(s | (uint)rint(as_double(a) * 0x1p24));
  uint h = (uint)((((a >> 52) - 1008) << 10) | ((a >> 42) & 0x3ff));
  ulong rest = a & ((1UL << 42) - 1), tie = 1UL << 41;
  if (rest > tie || (rest == tie && (h & 1)))
    h++;
  return (ushort)(s | h);
}

/* One step of the bit pattern toward +inf or -inf (h is never the zero on
 * the far side: nearest-even keeps the sign of the exact value). */
static ushort symcl_half_up(ushort h) { return h == 0x8000 ? 1 : (h & 0x8000) ? h - 1 : h + 1; }
static ushort symcl_half_down(ushort h) { return h == 0 ? 0x8001 : (h & 0x8000) ? h + 1 : h - 1; }

/* The half of x (float or double, exactly comparable with a half's value)
 * rounded per mode. */
#define TO_HALF(T, RNE)                                                                               \
  static OVL ushort symcl_half_rte(T x) { return RNE(x); }                                            \
  static OVL ushort symcl_half_rtp(T x) {                                                             \
    ushort h = RNE(x);                                                                                \
    return (T)symcl_half_to_float(h) < x ? symcl_half_up(h) : h;                                         \
  }                                                                                                   \
  static OVL ushort symcl_half_rtn(T x) {                                                             \
    ushort h = RNE(x);                                                                                \
    return (T)symcl_half_to_float(h) > x ? symcl_half_down(h) : h;                                       \
  }                                                                                                   \
  static OVL ushort symcl_half_rtz(T x) {                                                             \
    ushort h = RNE(x);                                                                                \
    T v = (T)symcl_half_to_float(h);                                                                     \
    return v > x && v > (T)0 ? symcl_half_down(h) : v < x && v < (T)0 ? symcl_half_up(h) : h;          \
  }
TO_HALF(float, symcl_rne_half)
TO_HALF(double, symcl_rne_half_d)

/* vstore_halfN<SUF> and vstorea_halfN<SUF> for source type T; M is the
 * rounding mode the suffix means (plain vstore_half rounds to nearest). */
#define VSTORE_HALF(T, AS, SUF, M)                                                                    \
  OVL void vstore_half##SUF(T v, size_t i, AS half *p) { ((AS ushort *)p)[i] = symcl_half_##M(v); }    \
  OVL void vstore_half2##SUF(T##2 v, size_t i, AS half *p) {                                         \
    vstore_half##SUF(v.s0, 2 * i, p);                                                                 \
    vstore_half##SUF(v.s1, 2 * i + 1, p);                                                             \
  }                                                                                                   \
  OVL void vstore_half3##SUF(T##3 v, size_t i, AS half *p) {                                         \
    vstore_half##SUF(v.s0, 3 * i, p);                                                                 \
    vstore_half##SUF(v.s1, 3 * i + 1, p);                                                             \
    vstore_half##SUF(v.s2, 3 * i + 2, p);                                                             \
  }                                                                                                   \
  OVL void vstore_half4##SUF(T##4 v, size_t i, AS half *p) {                                         \
    vstore_half2##SUF(v.lo, 2 * i, p);                                                                \
    vstore_half2##SUF(v.hi, 2 * i + 1, p);                                                            \
  }                                                                                                   \
  OVL void vstore_half8##SUF(T##8 v, size_t i, AS half *p) {                                         \
    vstore_half4##SUF(v.lo, 2 * i, p);                                                                \
    vstore_half4##SUF(v.hi, 2 * i + 1, p);                                                            \
  }                                                                                                   \
  OVL void vstore_half16##SUF(T##16 v, size_t i, AS half *p) {                                       \
    vstore_half8##SUF(v.lo, 2 * i, p);                                                                \
    vstore_half8##SUF(v.hi, 2 * i + 1, p);                                                            \
  }                                                                                                   \
  OVL void vstorea_half##SUF(T v, size_t i, AS half *p) { vstore_half##SUF(v, i, p); }                \
  OVL void vstorea_half2##SUF(T##2 v, size_t i, AS half *p) { vstore_half2##SUF(v, i, p); }           \
  OVL void vstorea_half4##SUF(T##4 v, size_t i, AS half *p) { vstore_half4##SUF(v, i, p); }           \
  OVL void vstorea_half8##SUF(T##8 v, size_t i, AS half *p) { vstore_half8##SUF(v, i, p); }           \
  OVL void vstorea_half16##SUF(T##16 v, size_t i, AS half *p) { vstore_half16##SUF(v, i, p); }        \
  OVL void vstorea_half3##SUF(T##3 v, size_t i, AS half *p) {                                        \
    vstore_half##SUF(v.s0, 4 * i, p);                                                                 \
    vstore_half##SUF(v.s1, 4 * i + 1, p);                                                             \
    vstore_half##SUF(v.s2, 4 * i + 2, p);                                                             \
  }
#define VSTORE_HALF_MODES(T, AS)                                                                      \
  VSTORE_HALF(T, AS, , rte) VSTORE_HALF(T, AS, _rte, rte) VSTORE_HALF(T, AS, _rtz, rtz)               \
  VSTORE_HALF(T, AS, _rtp, rtp) VSTORE_HALF(T, AS, _rtn, rtn)
VSTORE_HALF_MODES(float, __global) VSTORE_HALF_MODES(float, __local) VSTORE_HALF_MODES(float, __private)
VSTORE_HALF_MODES(double, __global) VSTORE_HALF_MODES(double, __local) VSTORE_HALF_MODES(double, __private)
