/* CUDA's device math functions, by the accuracy the CUDA C++ Programming
 * Guide documents for them (appendix "Mathematical Functions"):
 * - those it documents as exact (0 ulp: sqrt with the default
 *   -prec-sqrt=true, fabs, fmin, fmax, fmod, copysign, fma, floor, ceil,
 *   trunc, round, rint) are the executor's exact libm rows;
 * - those with an error bound (sinf 2 ulp, expf 2 ulp, __expf and the other
 *   fast intrinsics, rsqrtf, ...) return a fresh value on every call (the
 *   row of OpenCL's native_* functions), so a check never rests on one
 *   library's rounding of them.
 * Functions not declared here do not compile. */
#ifndef SYMCROSS_CUDA_MATH_H
#define SYMCROSS_CUDA_MATH_H

extern "C" {
#define __SYMCROSS_EXACT1(F) __device__ float F##f(float); __device__ double F(double);
#define __SYMCROSS_EXACT2(F) __device__ float F##f(float, float); __device__ double F(double, double);
__SYMCROSS_EXACT1(sqrt)
__SYMCROSS_EXACT1(fabs)
__SYMCROSS_EXACT1(floor)
__SYMCROSS_EXACT1(ceil)
__SYMCROSS_EXACT1(trunc)
__SYMCROSS_EXACT1(round)
__SYMCROSS_EXACT1(rint)
__SYMCROSS_EXACT2(fmin)
__SYMCROSS_EXACT2(fmax)
__SYMCROSS_EXACT2(fmod)
__SYMCROSS_EXACT2(copysign)
__device__ float fmaf(float, float, float);
__device__ double fma(double, double, double);
}

/* The rounding-mode intrinsics (__float2int_rn, __fadd_rz, ...). */
#include "symcross_cuda_rounding.h"

/* A fresh value of the call's type (the executor's approximate rows). */
__device__ float __symcross_fresh1(float) __asm__("_Z10native_expf");
__device__ double __symcross_fresh1(double) __asm__("_Z10native_expd");
__device__ float __symcross_fresh2(float, float) __asm__("_Z11native_powrff");
__device__ double __symcross_fresh2(double, double) __asm__("_Z11native_powrdd");

#define __SYMCROSS_INEXACT1(F) \
    static __device__ __forceinline__ float F##f(float x) { return __symcross_fresh1(x); } \
    static __device__ __forceinline__ double F(double x) { return __symcross_fresh1(x); }
#define __SYMCROSS_INEXACT2(F) \
    static __device__ __forceinline__ float F##f(float x, float y) { return __symcross_fresh2(x, y); } \
    static __device__ __forceinline__ double F(double x, double y) { return __symcross_fresh2(x, y); }
__SYMCROSS_INEXACT1(sin)
__SYMCROSS_INEXACT1(cos)
__SYMCROSS_INEXACT1(tan)
__SYMCROSS_INEXACT1(asin)
__SYMCROSS_INEXACT1(acos)
__SYMCROSS_INEXACT1(atan)
__SYMCROSS_INEXACT1(sinh)
__SYMCROSS_INEXACT1(cosh)
__SYMCROSS_INEXACT1(tanh)
__SYMCROSS_INEXACT1(exp)
__SYMCROSS_INEXACT1(exp2)
__SYMCROSS_INEXACT1(exp10)
__SYMCROSS_INEXACT1(expm1)
__SYMCROSS_INEXACT1(log)
__SYMCROSS_INEXACT1(log2)
__SYMCROSS_INEXACT1(log10)
__SYMCROSS_INEXACT1(log1p)
__SYMCROSS_INEXACT1(cbrt)
__SYMCROSS_INEXACT1(rsqrt)
__SYMCROSS_INEXACT1(erf)
__SYMCROSS_INEXACT1(erfc)
__SYMCROSS_INEXACT2(pow)
__SYMCROSS_INEXACT2(atan2)
__SYMCROSS_INEXACT2(hypot)
/* The fast intrinsics (-use_fast_math), single precision only. */
static __device__ __forceinline__ float __expf(float x) { return __symcross_fresh1(x); }
static __device__ __forceinline__ float __exp10f(float x) { return __symcross_fresh1(x); }
static __device__ __forceinline__ float __logf(float x) { return __symcross_fresh1(x); }
static __device__ __forceinline__ float __log2f(float x) { return __symcross_fresh1(x); }
static __device__ __forceinline__ float __log10f(float x) { return __symcross_fresh1(x); }
static __device__ __forceinline__ float __tanf(float x) { return __symcross_fresh1(x); }
static __device__ __forceinline__ float __sinf(float x) { return __symcross_fresh1(x); }
static __device__ __forceinline__ float __cosf(float x) { return __symcross_fresh1(x); }
static __device__ __forceinline__ float __powf(float x, float y) { return __symcross_fresh2(x, y); }
static __device__ __forceinline__ float __fdividef(float x, float y) { return __symcross_fresh2(x, y); }
/* __saturatef is exact: x clamped to [+0.0, 1.0], +0.0 for NaN (written
 * so that every comparison with a NaN or -0.0 falls to +0.0). */
static __device__ __forceinline__ float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

#endif
