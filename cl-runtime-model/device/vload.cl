/* OpenCL C built-ins: vloadn/vstoren and vload_half/vstore_half (OpenCL
 * 1.2 sections 6.12.7, 6.12.7.1), for every address space. Half values are
 * converted to float exactly, bit by bit; storing halves is in
 * vstore_half.cl. */
#include "vectorize.h"
#include "half_bits.h"

#define VLOAD_N(T, N, AS)                                                                             \
  OVL T##N vload##N(size_t i, const AS T *p) {                                                        \
    T##N v;                                                                                           \
    for (int k = 0; k < N; k++)                                                                       \
      ((T *)&v)[k] = p[i * N + k];                                                                    \
    return v;                                                                                         \
  }                                                                                                   \
  OVL void vstore##N(T##N v, size_t i, AS T *p) {                                                     \
    for (int k = 0; k < N; k++)                                                                       \
      p[i * N + k] = ((T *)&v)[k];                                                                    \
  }
#define VLOAD_AS(T, N) VLOAD_N(T, N, __global) VLOAD_N(T, N, __local) VLOAD_N(T, N, __private)
#define VLOAD_CONST(T, N)                                                                             \
  OVL T##N vload##N(size_t i, const __constant T *p) {                                                \
    T##N v;                                                                                           \
    for (int k = 0; k < N; k++)                                                                       \
      ((T *)&v)[k] = p[i * N + k];                                                                    \
    return v;                                                                                         \
  }
#define VLOAD_ALL(T)                                                                                  \
  VLOAD_AS(T, 2) VLOAD_AS(T, 3) VLOAD_AS(T, 4) VLOAD_AS(T, 8) VLOAD_AS(T, 16)                         \
  VLOAD_CONST(T, 2) VLOAD_CONST(T, 3) VLOAD_CONST(T, 4) VLOAD_CONST(T, 8) VLOAD_CONST(T, 16)
VLOAD_ALL(char) VLOAD_ALL(uchar) VLOAD_ALL(short) VLOAD_ALL(ushort) VLOAD_ALL(int) VLOAD_ALL(uint)
VLOAD_ALL(long) VLOAD_ALL(ulong) VLOAD_ALL(float) VLOAD_ALL(double)


#define VHALF(AS)                                                                                     \
  OVL float vload_half(size_t i, const AS half *p) { return symcl_half_to_float(((const AS ushort *)p)[i]); } \
  OVL float2 vload_half2(size_t i, const AS half *p) { return (float2)(vload_half(2 * i, p), vload_half(2 * i + 1, p)); } \
  OVL float4 vload_half4(size_t i, const AS half *p) {                                               \
    return (float4)(vload_half2(2 * i, p), vload_half2(2 * i + 1, p));                               \
  }                                                                                                   \
  OVL float8 vload_half8(size_t i, const AS half *p) {                                               \
    return (float8)(vload_half4(2 * i, p), vload_half4(2 * i + 1, p));                               \
  }                                                                                                   \
  OVL float16 vload_half16(size_t i, const AS half *p) {                                             \
    return (float16)(vload_half8(2 * i, p), vload_half8(2 * i + 1, p));                              \
  }                                                                                                   \
  OVL float3 vload_half3(size_t i, const AS half *p) {                                               \
    return (float3)(vload_half(3 * i, p), vload_half(3 * i + 1, p), vload_half(3 * i + 2, p));        \
  }                                                                                                   \
  /* vloada_halfN: N-aligned, except that 3 lanes step by 4. */                                       \
  OVL float vloada_half(size_t i, const AS half *p) { return vload_half(i, p); }                       \
  OVL float2 vloada_half2(size_t i, const AS half *p) { return vload_half2(i, p); }                    \
  OVL float4 vloada_half4(size_t i, const AS half *p) { return vload_half4(i, p); }                    \
  OVL float8 vloada_half8(size_t i, const AS half *p) { return vload_half8(i, p); }                    \
  OVL float16 vloada_half16(size_t i, const AS half *p) { return vload_half16(i, p); }                 \
  OVL float3 vloada_half3(size_t i, const AS half *p) {                                              \
    return (float3)(vload_half(4 * i, p), vload_half(4 * i + 1, p), vload_half(4 * i + 2, p));        \
  }
VHALF(__global) VHALF(__local) VHALF(__private) VHALF(__constant)
/* The vstore_half family is in vstore_half.cl. */
