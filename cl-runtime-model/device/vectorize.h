/* Helpers for the device built-ins: a scalar definition is extended to
 * vectors of 2, 3, 4, 8 and 16 lanes component by component (.lo/.hi
 * halves), which is exactly the OpenCL definition of the vector forms. */
#ifndef SYMCL_VECTORIZE_H
#define SYMCL_VECTORIZE_H
#define OVL __attribute__((overloadable))

/* R NAME(A x) for vectors, from the scalar NAME. */
#define VEC1(R, NAME, A)                                                                              \
  OVL R##2 NAME(A##2 x) { return (R##2)(NAME(x.s0), NAME(x.s1)); }                                    \
  OVL R##3 NAME(A##3 x) { return (R##3)(NAME(x.s0), NAME(x.s1), NAME(x.s2)); }                        \
  OVL R##4 NAME(A##4 x) { return (R##4)(NAME(x.lo), NAME(x.hi)); }                                    \
  OVL R##8 NAME(A##8 x) { return (R##8)(NAME(x.lo), NAME(x.hi)); }                                    \
  OVL R##16 NAME(A##16 x) { return (R##16)(NAME(x.lo), NAME(x.hi)); }

/* R NAME(A x, A y). */
#define VEC2(R, NAME, A)                                                                              \
  OVL R##2 NAME(A##2 x, A##2 y) { return (R##2)(NAME(x.s0, y.s0), NAME(x.s1, y.s1)); }                \
  OVL R##3 NAME(A##3 x, A##3 y) { return (R##3)(NAME(x.s0, y.s0), NAME(x.s1, y.s1), NAME(x.s2, y.s2)); } \
  OVL R##4 NAME(A##4 x, A##4 y) { return (R##4)(NAME(x.lo, y.lo), NAME(x.hi, y.hi)); }                \
  OVL R##8 NAME(A##8 x, A##8 y) { return (R##8)(NAME(x.lo, y.lo), NAME(x.hi, y.hi)); }                \
  OVL R##16 NAME(A##16 x, A##16 y) { return (R##16)(NAME(x.lo, y.lo), NAME(x.hi, y.hi)); }

/* R NAME(A x, A y, A z). */
#define VEC3(R, NAME, A)                                                                              \
  OVL R##2 NAME(A##2 x, A##2 y, A##2 z) { return (R##2)(NAME(x.s0, y.s0, z.s0), NAME(x.s1, y.s1, z.s1)); } \
  OVL R##3 NAME(A##3 x, A##3 y, A##3 z) {                                                            \
    return (R##3)(NAME(x.s0, y.s0, z.s0), NAME(x.s1, y.s1, z.s1), NAME(x.s2, y.s2, z.s2));           \
  }                                                                                                   \
  OVL R##4 NAME(A##4 x, A##4 y, A##4 z) { return (R##4)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi)); } \
  OVL R##8 NAME(A##8 x, A##8 y, A##8 z) { return (R##8)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi)); } \
  OVL R##16 NAME(A##16 x, A##16 y, A##16 z) { return (R##16)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi)); }

/* Vector x with scalar y and z (clamp(v, lo, hi), mix(v, w, a)). */
#define VEC3_SS(R, NAME, A)                                                                           \
  OVL R##2 NAME(A##2 x, A y, A z) { return NAME(x, (A##2)(y), (A##2)(z)); }                           \
  OVL R##3 NAME(A##3 x, A y, A z) { return NAME(x, (A##3)(y), (A##3)(z)); }                           \
  OVL R##4 NAME(A##4 x, A y, A z) { return NAME(x, (A##4)(y), (A##4)(z)); }                           \
  OVL R##8 NAME(A##8 x, A y, A z) { return NAME(x, (A##8)(y), (A##8)(z)); }                           \
  OVL R##16 NAME(A##16 x, A y, A z) { return NAME(x, (A##16)(y), (A##16)(z)); }

#endif
