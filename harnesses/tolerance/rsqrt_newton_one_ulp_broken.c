// expect: findings mismatch
/* The Newton-refined reciprocal square root of rsqrt_newton.c with a
 * bound of 1 ulp: exceeded (its worst error over [1, 4) is 2 ulps).
 * Expected verdict: findings (exceeds, reproduced). */
#define RSQRT_ULPS 1
#include "rsqrt_newton.c"
