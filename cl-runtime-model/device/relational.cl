/* OpenCL C built-ins: relational and geometric functions (OpenCL 1.2
 * sections 6.12.5, 6.12.6). Scalar tests return 0 or 1, vector tests 0 or
 * -1 per lane; geometric functions are the plain formulas (dot products
 * summed left to right, length as sqrt of the dot product). */
#include "vectorize.h"

/* Vector form of a test: -1 where the scalar test is true. */
#define TEST_VEC1(NAME, A, R)                                                                         \
  OVL R##2 NAME(A##2 x) { return (R##2)(-NAME(x.s0), -NAME(x.s1)); }                                  \
  OVL R##3 NAME(A##3 x) { return (R##3)(-NAME(x.s0), -NAME(x.s1), -NAME(x.s2)); }                     \
  OVL R##4 NAME(A##4 x) { return (R##4)(-NAME(x.s0), -NAME(x.s1), -NAME(x.s2), -NAME(x.s3)); }         \
  OVL R##8 NAME(A##8 x) { R##4 a = NAME(x.lo), b = NAME(x.hi); return (R##8)(a, b); }                 \
  OVL R##16 NAME(A##16 x) { R##8 a = NAME(x.lo), b = NAME(x.hi); return (R##16)(a, b); }
#define TEST_VEC2(NAME, A, R)                                                                         \
  OVL R##2 NAME(A##2 x, A##2 y) { return (R##2)(-NAME(x.s0, y.s0), -NAME(x.s1, y.s1)); }              \
  OVL R##3 NAME(A##3 x, A##3 y) { return (R##3)(-NAME(x.s0, y.s0), -NAME(x.s1, y.s1), -NAME(x.s2, y.s2)); } \
  OVL R##4 NAME(A##4 x, A##4 y) {                                                                     \
    return (R##4)(-NAME(x.s0, y.s0), -NAME(x.s1, y.s1), -NAME(x.s2, y.s2), -NAME(x.s3, y.s3));        \
  }                                                                                                   \
  OVL R##8 NAME(A##8 x, A##8 y) { R##4 a = NAME(x.lo, y.lo), b = NAME(x.hi, y.hi); return (R##8)(a, b); } \
  OVL R##16 NAME(A##16 x, A##16 y) { R##8 a = NAME(x.lo, y.lo), b = NAME(x.hi, y.hi); return (R##16)(a, b); }

#define RELATIONAL(T, U, R, EXPMASK, SIGNSHIFT)                                                       \
  OVL int isnan(T x) { return x != x; }                                                               \
  OVL int isinf(T x) { return (as_##U(x) & ~((U)1 << SIGNSHIFT)) == EXPMASK; }                        \
  OVL int isfinite(T x) { return (as_##U(x) & EXPMASK) != EXPMASK; }                                  \
  OVL int isnormal(T x) { U e = as_##U(x) & EXPMASK; return e != 0 && e != EXPMASK; }                 \
  OVL int signbit(T x) { return (int)(as_##U(x) >> SIGNSHIFT); }                                      \
  OVL int isequal(T x, T y) { return x == y; }                                                        \
  OVL int isnotequal(T x, T y) { return !(x == y); }                                                  \
  OVL int isgreater(T x, T y) { return x > y; }                                                       \
  OVL int isgreaterequal(T x, T y) { return x >= y; }                                                 \
  OVL int isless(T x, T y) { return x < y; }                                                          \
  OVL int islessequal(T x, T y) { return x <= y; }                                                    \
  OVL int islessgreater(T x, T y) { return x < y || x > y; }                                          \
  OVL int isordered(T x, T y) { return x == x && y == y; }                                            \
  OVL int isunordered(T x, T y) { return x != x || y != y; }                                          \
  TEST_VEC1(isnan, T, R) TEST_VEC1(isinf, T, R) TEST_VEC1(isfinite, T, R) TEST_VEC1(isnormal, T, R)    \
  TEST_VEC1(signbit, T, R) TEST_VEC2(isequal, T, R) TEST_VEC2(isnotequal, T, R)                       \
  TEST_VEC2(isgreater, T, R) TEST_VEC2(isgreaterequal, T, R) TEST_VEC2(isless, T, R)                  \
  TEST_VEC2(islessequal, T, R) TEST_VEC2(islessgreater, T, R) TEST_VEC2(isordered, T, R)              \
  TEST_VEC2(isunordered, T, R)
RELATIONAL(float, uint, int, 0x7f800000u, 31)
RELATIONAL(double, ulong, long, 0x7ff0000000000000ul, 63)

/* any/all look at the most significant bit of each lane. */
#define ANYALL(T)                                                                                     \
  OVL int any(T x) { return x < 0; }                                                                  \
  OVL int all(T x) { return x < 0; }                                                                  \
  OVL int any(T##2 x) { return any(x.s0) | any(x.s1); }                                               \
  OVL int all(T##2 x) { return all(x.s0) & all(x.s1); }                                               \
  OVL int any(T##3 x) { return any(x.s0) | any(x.s1) | any(x.s2); }                                   \
  OVL int all(T##3 x) { return all(x.s0) & all(x.s1) & all(x.s2); }                                   \
  OVL int any(T##4 x) { return any(x.lo) | any(x.hi); }                                               \
  OVL int all(T##4 x) { return all(x.lo) & all(x.hi); }                                               \
  OVL int any(T##8 x) { return any(x.lo) | any(x.hi); }                                               \
  OVL int all(T##8 x) { return all(x.lo) & all(x.hi); }                                               \
  OVL int any(T##16 x) { return any(x.lo) | any(x.hi); }                                              \
  OVL int all(T##16 x) { return all(x.lo) & all(x.hi); }
ANYALL(char) ANYALL(short) ANYALL(int) ANYALL(long)

/* select: scalar c chooses when nonzero; vector lanes when the MSB is set. */
#define SELECT(T, C)                                                                                  \
  OVL T select(T a, T b, C c) { return c ? b : a; }                                                   \
  OVL T##2 select(T##2 a, T##2 b, C##2 c) { return (T##2)(c.s0 < 0 ? b.s0 : a.s0, c.s1 < 0 ? b.s1 : a.s1); } \
  OVL T##3 select(T##3 a, T##3 b, C##3 c) {                                                           \
    return (T##3)(c.s0 < 0 ? b.s0 : a.s0, c.s1 < 0 ? b.s1 : a.s1, c.s2 < 0 ? b.s2 : a.s2);            \
  }                                                                                                   \
  OVL T##4 select(T##4 a, T##4 b, C##4 c) { return (T##4)(select(a.lo, b.lo, c.lo), select(a.hi, b.hi, c.hi)); } \
  OVL T##8 select(T##8 a, T##8 b, C##8 c) { return (T##8)(select(a.lo, b.lo, c.lo), select(a.hi, b.hi, c.hi)); } \
  OVL T##16 select(T##16 a, T##16 b, C##16 c) { return (T##16)(select(a.lo, b.lo, c.lo), select(a.hi, b.hi, c.hi)); }
SELECT(float, int) SELECT(float, uint) SELECT(double, long) SELECT(double, ulong)
SELECT(int, int) SELECT(int, uint) SELECT(uint, int) SELECT(uint, uint)
SELECT(char, char) SELECT(uchar, char) SELECT(short, short) SELECT(ushort, short)
SELECT(long, long) SELECT(ulong, long)

/* bitselect: bits of b where c is 1, of a elsewhere. */
#define BITSELECT_F(T, U)                                                                             \
  OVL T bitselect(T a, T b, T c) { return as_##T((as_##U(a) & ~as_##U(c)) | (as_##U(b) & as_##U(c))); } \
  VEC3(T, bitselect, T)
BITSELECT_F(float, uint) BITSELECT_F(double, ulong)
#define BITSELECT_I(T)                                                                                \
  OVL T bitselect(T a, T b, T c) { return (a & ~c) | (b & c); }                                       \
  VEC3(T, bitselect, T)
BITSELECT_I(char) BITSELECT_I(uchar) BITSELECT_I(short) BITSELECT_I(ushort)
BITSELECT_I(int) BITSELECT_I(uint) BITSELECT_I(long) BITSELECT_I(ulong)

#define GEOMETRIC(T)                                                                                  \
  OVL T dot(T x, T y) { return x * y; }                                                               \
  OVL T dot(T##2 x, T##2 y) { return x.s0 * y.s0 + x.s1 * y.s1; }                                     \
  OVL T dot(T##3 x, T##3 y) { return x.s0 * y.s0 + x.s1 * y.s1 + x.s2 * y.s2; }                       \
  OVL T dot(T##4 x, T##4 y) { return x.s0 * y.s0 + x.s1 * y.s1 + x.s2 * y.s2 + x.s3 * y.s3; }         \
  OVL T##3 cross(T##3 a, T##3 b) {                                                                    \
    return (T##3)(a.s1 * b.s2 - a.s2 * b.s1, a.s2 * b.s0 - a.s0 * b.s2, a.s0 * b.s1 - a.s1 * b.s0);   \
  }                                                                                                   \
  OVL T##4 cross(T##4 a, T##4 b) {                                                                    \
    return (T##4)(a.s1 * b.s2 - a.s2 * b.s1, a.s2 * b.s0 - a.s0 * b.s2, a.s0 * b.s1 - a.s1 * b.s0, 0); \
  }                                                                                                   \
  OVL T length(T x) { return fabs(x); }                                                               \
  OVL T length(T##2 x) { return sqrt(dot(x, x)); }                                                    \
  OVL T length(T##3 x) { return sqrt(dot(x, x)); }                                                    \
  OVL T length(T##4 x) { return sqrt(dot(x, x)); }                                                    \
  OVL T distance(T x, T y) { return length(x - y); }                                                  \
  OVL T distance(T##2 x, T##2 y) { return length(x - y); }                                            \
  OVL T distance(T##3 x, T##3 y) { return length(x - y); }                                            \
  OVL T distance(T##4 x, T##4 y) { return length(x - y); }                                            \
  OVL T normalize(T x) { return x / length(x); }                                                      \
  OVL T##2 normalize(T##2 x) { return x / length(x); }                                                \
  OVL T##3 normalize(T##3 x) { return x / length(x); }                                                \
  OVL T##4 normalize(T##4 x) { return x / length(x); }
GEOMETRIC(float) GEOMETRIC(double)
