/* `#include <cuda_fp16.h>`: half precision (CUDA Math API, "Half
 * Precision Intrinsics"), on the device. A __half is its IEEE binary16 bit
 * pattern. Conversions are exact: a half is a float exactly, and a float
 * rounds to half by its bits in the mode named (_rn nearest even, _rz
 * toward zero, _ru up, _rd down; __float2half is _rn). Arithmetic
 * (__hadd, __hsub, __hmul, __hdiv, all round to nearest) is the float
 * operation rounded to half: float has 24 >= 2*11 + 2 bits, so rounding
 * twice gives the half result of the exact value (double rounding is
 * innocuous at that width). A NaN converted to half keeps no documented
 * payload: its bits are a fresh value. Vector forms (__half2), fused
 * __hfma and the rest are not declared. */
#ifndef SYMCROSS_CUDA_FP16_H
#define SYMCROSS_CUDA_FP16_H
#include "symcross_cuda.h"

struct __half;
__SYMCROSS_DI __half __float2half_rn(float f);
__SYMCROSS_DI float __half2float(__half h);

struct __align__(2) __half {
    unsigned short __x;
    __half() = default;
    __device__ __half(float f) { *this = __float2half_rn(f); }
    __device__ operator float() const { return __half2float(*this); }
};
typedef struct __half half;

__SYMCROSS_DI __half __ushort_as_half(unsigned short x) {
    __half h;
    h.__x = x;
    return h;
}
__SYMCROSS_DI unsigned short __half_as_ushort(__half h) { return h.__x; }

__SYMCROSS_DI float __half2float(__half h) {
    unsigned s = (unsigned)(h.__x & 0x8000u) << 16, e = (h.__x >> 10) & 0x1fu, m = h.__x & 0x3ffu;
    if (e == 0x1fu) /* infinity, or NaN with the payload kept */
        return __builtin_bit_cast(float, s | 0x7f800000u | (m << 13));
    if (e == 0u) { /* zero or subnormal: m * 2^-24, exact */
        float v = (float)m * 0x1p-24f;
        return s ? -v : v;
    }
    return __builtin_bit_cast(float, s | ((e + 112u) << 23) | (m << 13));
}

/* f rounded to half in `mode` (__SYMCROSS_RN/RZ/RU/RD): the half's bits
 * are the float's shifted right, rounded by the bits shifted out (`rem`
 * against the halfway point); an increment carries into the exponent, up
 * to infinity. */
__SYMCROSS_DI __half __symcross_float2half(float f, int mode) {
    unsigned u = __builtin_bit_cast(unsigned, f);
    unsigned short s = (unsigned short)((u >> 16) & 0x8000u);
    unsigned a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return __ushort_as_half((unsigned short)__symcross_fresh_int(0));
    if (a == 0x7f800000u)
        return __ushort_as_half(s | 0x7c00u);
    bool neg = s != 0;
    if (a >= 0x47800000u) { /* |f| >= 2^16: past the largest half whatever the mode */
        bool to_inf = mode == __SYMCROSS_RN || (mode == __SYMCROSS_RU && !neg) || (mode == __SYMCROSS_RD && neg);
        return __ushort_as_half(s | (to_inf ? 0x7c00u : 0x7bffu));
    }
    unsigned e = a >> 23;
    unsigned m = e == 0u ? (a & 0x7fffffu) : ((a & 0x7fffffu) | 0x800000u);
    unsigned ee = e == 0u ? 1u : e;
    unsigned h, rem, halfway;
    if (ee >= 113u) { /* a normal half: 10 of the 23 fraction bits stay */
        h = ((ee - 112u) << 10) | ((m >> 13) & 0x3ffu);
        rem = m & 0x1fffu;
        halfway = 0x1000u;
    } else { /* a subnormal half (or below its smallest): m * 2^(ee-150) in units of 2^-24 */
        unsigned shift = 13u + (113u - ee);
        if (shift >= 25u) { /* below half the smallest subnormal; not zero unless m is */
            h = 0u;
            rem = m != 0u ? 1u : 0u;
            halfway = 2u;
        } else {
            h = m >> shift;
            rem = m & ((1u << shift) - 1u);
            halfway = 1u << (shift - 1u);
        }
    }
    bool up = mode == __SYMCROSS_RN   ? (rem > halfway || (rem == halfway && (h & 1u)))
              : mode == __SYMCROSS_RU ? (rem != 0u && !neg)
              : mode == __SYMCROSS_RD ? (rem != 0u && neg)
                                      : false;
    return __ushort_as_half((unsigned short)(s | (h + (up ? 1u : 0u))));
}
__SYMCROSS_DI __half __float2half_rn(float f) { return __symcross_float2half(f, __SYMCROSS_RN); }
__SYMCROSS_DI __half __float2half(float f) { return __symcross_float2half(f, __SYMCROSS_RN); }
__SYMCROSS_DI __half __float2half_rz(float f) { return __symcross_float2half(f, __SYMCROSS_RZ); }
__SYMCROSS_DI __half __float2half_ru(float f) { return __symcross_float2half(f, __SYMCROSS_RU); }
__SYMCROSS_DI __half __float2half_rd(float f) { return __symcross_float2half(f, __SYMCROSS_RD); }
__SYMCROSS_DI __half __int2half_rn(int i) {
    /* every int below 2^24 is a float exactly; the rest are past 65520,
     * infinity to nearest either way */
    return __float2half_rn((float)i);
}
__SYMCROSS_DI int __half2int_rn(__half h) { return __float2int_rn(__half2float(h)); }
__SYMCROSS_DI int __half2int_rz(__half h) { return __float2int_rz(__half2float(h)); }
__SYMCROSS_DI int __half2int_ru(__half h) { return __float2int_ru(__half2float(h)); }
__SYMCROSS_DI int __half2int_rd(__half h) { return __float2int_rd(__half2float(h)); }

__SYMCROSS_DI __half __hadd(__half a, __half b) { return __float2half_rn(__half2float(a) + __half2float(b)); }
__SYMCROSS_DI __half __hsub(__half a, __half b) { return __float2half_rn(__half2float(a) - __half2float(b)); }
__SYMCROSS_DI __half __hmul(__half a, __half b) { return __float2half_rn(__half2float(a) * __half2float(b)); }
__SYMCROSS_DI __half __hdiv(__half a, __half b) { return __float2half_rn(__half2float(a) / __half2float(b)); }
__SYMCROSS_DI __half __hneg(__half a) { return __ushort_as_half((unsigned short)(a.__x ^ 0x8000u)); }
__SYMCROSS_DI __half __habs(__half a) { return __ushort_as_half((unsigned short)(a.__x & 0x7fffu)); }
__SYMCROSS_DI bool __heq(__half a, __half b) { return __half2float(a) == __half2float(b); }
__SYMCROSS_DI bool __hne(__half a, __half b) { return __half2float(a) != __half2float(b); }
__SYMCROSS_DI bool __hlt(__half a, __half b) { return __half2float(a) < __half2float(b); }
__SYMCROSS_DI bool __hle(__half a, __half b) { return __half2float(a) <= __half2float(b); }
__SYMCROSS_DI bool __hgt(__half a, __half b) { return __half2float(a) > __half2float(b); }
__SYMCROSS_DI bool __hge(__half a, __half b) { return __half2float(a) >= __half2float(b); }
__SYMCROSS_DI bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
__SYMCROSS_DI int __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u ? (a.__x & 0x8000u ? -1 : 1) : 0; }
__SYMCROSS_DI __half operator+(__half a, __half b) { return __hadd(a, b); }
__SYMCROSS_DI __half operator-(__half a, __half b) { return __hsub(a, b); }
__SYMCROSS_DI __half operator*(__half a, __half b) { return __hmul(a, b); }
__SYMCROSS_DI __half operator/(__half a, __half b) { return __hdiv(a, b); }
__SYMCROSS_DI __half operator-(__half a) { return __hneg(a); }

#endif
