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
__SYMCROSS_DI __half __float2half_rn(float __sc_f);
__SYMCROSS_DI float __half2float(__half __sc_h);

struct __align__(2) __half {
    unsigned short __x;
    __half() = default;
    __device__ __half(float __sc_f) { *this = __float2half_rn(__sc_f); }
    __device__ operator float() const { return __half2float(*this); }
};
typedef struct __half half;

__SYMCROSS_DI __half __ushort_as_half(unsigned short __sc_x) {
    __half __sc_h;
    __sc_h.__x = __sc_x;
    return __sc_h;
}
__SYMCROSS_DI unsigned short __half_as_ushort(__half __sc_h) { return __sc_h.__x; }

__SYMCROSS_DI float __half2float(__half __sc_h) {
    unsigned __sc_s = (unsigned)(__sc_h.__x & 0x8000u) << 16, __sc_e = (__sc_h.__x >> 10) & 0x1fu, __sc_m = __sc_h.__x & 0x3ffu;
    if (__sc_e == 0x1fu) /* infinity, or NaN with the payload kept */
        return __builtin_bit_cast(float, __sc_s | 0x7f800000u | (__sc_m << 13));
    if (__sc_e == 0u) { /* zero or subnormal: m * 2^-24, exact */
        float __sc_v = (float)__sc_m * 0x1p-24f;
        return __sc_s ? -__sc_v : __sc_v;
    }
    return __builtin_bit_cast(float, __sc_s | ((__sc_e + 112u) << 23) | (__sc_m << 13));
}

/* f rounded to half in `mode` (__SYMCROSS_RN/RZ/RU/RD): the half's bits
 * are the float's shifted right, rounded by the bits shifted out (`rem`
 * against the halfway point); an increment carries into the exponent, up
 * to infinity. */
__SYMCROSS_DI __half __symcross_float2half(float __sc_f, int __sc_mode) {
    unsigned __sc_u = __builtin_bit_cast(unsigned, __sc_f);
    unsigned short __sc_s = (unsigned short)((__sc_u >> 16) & 0x8000u);
    unsigned __sc_a = __sc_u & 0x7fffffffu;
    if (__sc_a > 0x7f800000u)
        return __ushort_as_half((unsigned short)__symcross_fresh_int(0));
    if (__sc_a == 0x7f800000u)
        return __ushort_as_half(__sc_s | 0x7c00u);
    bool __sc_neg = __sc_s != 0;
    if (__sc_a >= 0x47800000u) { /* |f| >= 2^16: past the largest half whatever the mode */
        bool __sc_to_inf = __sc_mode == __SYMCROSS_RN || (__sc_mode == __SYMCROSS_RU && !__sc_neg) || (__sc_mode == __SYMCROSS_RD && __sc_neg);
        return __ushort_as_half(__sc_s | (__sc_to_inf ? 0x7c00u : 0x7bffu));
    }
    unsigned __sc_e = __sc_a >> 23;
    unsigned __sc_m = __sc_e == 0u ? (__sc_a & 0x7fffffu) : ((__sc_a & 0x7fffffu) | 0x800000u);
    unsigned __sc_ee = __sc_e == 0u ? 1u : __sc_e;
    unsigned __sc_h, __sc_rem, __sc_halfway;
    if (__sc_ee >= 113u) { /* a normal half: 10 of the 23 fraction bits stay */
        __sc_h = ((__sc_ee - 112u) << 10) | ((__sc_m >> 13) & 0x3ffu);
        __sc_rem = __sc_m & 0x1fffu;
        __sc_halfway = 0x1000u;
    } else { /* a subnormal half (or below its smallest): m * 2^(ee-150) in units of 2^-24 */
        unsigned __sc_shift = 13u + (113u - __sc_ee);
        if (__sc_shift >= 25u) { /* below half the smallest subnormal; not zero unless m is */
            __sc_h = 0u;
            __sc_rem = __sc_m != 0u ? 1u : 0u;
            __sc_halfway = 2u;
        } else {
            __sc_h = __sc_m >> __sc_shift;
            __sc_rem = __sc_m & ((1u << __sc_shift) - 1u);
            __sc_halfway = 1u << (__sc_shift - 1u);
        }
    }
    bool __sc_up = __sc_mode == __SYMCROSS_RN   ? (__sc_rem > __sc_halfway || (__sc_rem == __sc_halfway && (__sc_h & 1u)))
              : __sc_mode == __SYMCROSS_RU ? (__sc_rem != 0u && !__sc_neg)
              : __sc_mode == __SYMCROSS_RD ? (__sc_rem != 0u && __sc_neg)
                                      : false;
    return __ushort_as_half((unsigned short)(__sc_s | (__sc_h + (__sc_up ? 1u : 0u))));
}
__SYMCROSS_DI __half __float2half_rn(float __sc_f) { return __symcross_float2half(__sc_f, __SYMCROSS_RN); }
__SYMCROSS_DI __half __float2half(float __sc_f) { return __symcross_float2half(__sc_f, __SYMCROSS_RN); }
__SYMCROSS_DI __half __float2half_rz(float __sc_f) { return __symcross_float2half(__sc_f, __SYMCROSS_RZ); }
__SYMCROSS_DI __half __float2half_ru(float __sc_f) { return __symcross_float2half(__sc_f, __SYMCROSS_RU); }
__SYMCROSS_DI __half __float2half_rd(float __sc_f) { return __symcross_float2half(__sc_f, __SYMCROSS_RD); }
__SYMCROSS_DI __half __int2half_rn(int __sc_i) {
    /* every int below 2^24 is a float exactly; the rest are past 65520,
     * infinity to nearest either way */
    return __float2half_rn((float)__sc_i);
}
__SYMCROSS_DI int __half2int_rn(__half __sc_h) { return __float2int_rn(__half2float(__sc_h)); }
__SYMCROSS_DI int __half2int_rz(__half __sc_h) { return __float2int_rz(__half2float(__sc_h)); }
__SYMCROSS_DI int __half2int_ru(__half __sc_h) { return __float2int_ru(__half2float(__sc_h)); }
__SYMCROSS_DI int __half2int_rd(__half __sc_h) { return __float2int_rd(__half2float(__sc_h)); }

__SYMCROSS_DI __half __hadd(__half __sc_a, __half __sc_b) { return __float2half_rn(__half2float(__sc_a) + __half2float(__sc_b)); }
__SYMCROSS_DI __half __hsub(__half __sc_a, __half __sc_b) { return __float2half_rn(__half2float(__sc_a) - __half2float(__sc_b)); }
__SYMCROSS_DI __half __hmul(__half __sc_a, __half __sc_b) { return __float2half_rn(__half2float(__sc_a) * __half2float(__sc_b)); }
__SYMCROSS_DI __half __hdiv(__half __sc_a, __half __sc_b) { return __float2half_rn(__half2float(__sc_a) / __half2float(__sc_b)); }
__SYMCROSS_DI __half __hneg(__half __sc_a) { return __ushort_as_half((unsigned short)(__sc_a.__x ^ 0x8000u)); }
__SYMCROSS_DI __half __habs(__half __sc_a) { return __ushort_as_half((unsigned short)(__sc_a.__x & 0x7fffu)); }
__SYMCROSS_DI bool __heq(__half __sc_a, __half __sc_b) { return __half2float(__sc_a) == __half2float(__sc_b); }
__SYMCROSS_DI bool __hne(__half __sc_a, __half __sc_b) { return __half2float(__sc_a) != __half2float(__sc_b); }
__SYMCROSS_DI bool __hlt(__half __sc_a, __half __sc_b) { return __half2float(__sc_a) < __half2float(__sc_b); }
__SYMCROSS_DI bool __hle(__half __sc_a, __half __sc_b) { return __half2float(__sc_a) <= __half2float(__sc_b); }
__SYMCROSS_DI bool __hgt(__half __sc_a, __half __sc_b) { return __half2float(__sc_a) > __half2float(__sc_b); }
__SYMCROSS_DI bool __hge(__half __sc_a, __half __sc_b) { return __half2float(__sc_a) >= __half2float(__sc_b); }
__SYMCROSS_DI bool __hisnan(__half __sc_a) { return (__sc_a.__x & 0x7fffu) > 0x7c00u; }
__SYMCROSS_DI int __hisinf(__half __sc_a) { return (__sc_a.__x & 0x7fffu) == 0x7c00u ? (__sc_a.__x & 0x8000u ? -1 : 1) : 0; }
__SYMCROSS_DI __half operator+(__half __sc_a, __half __sc_b) { return __hadd(__sc_a, __sc_b); }
__SYMCROSS_DI __half operator-(__half __sc_a, __half __sc_b) { return __hsub(__sc_a, __sc_b); }
__SYMCROSS_DI __half operator*(__half __sc_a, __half __sc_b) { return __hmul(__sc_a, __sc_b); }
__SYMCROSS_DI __half operator/(__half __sc_a, __half __sc_b) { return __hdiv(__sc_a, __sc_b); }
__SYMCROSS_DI __half operator-(__half __sc_a) { return __hneg(__sc_a); }

#endif
