// expect: findings mismatch
/* The Newton-refined reciprocal of reciprocal_newton.c with a bound of
 * 1 ulp: exceeded (its worst error over [1, 2) is 2 ulps).
 * Expected verdict: findings (exceeds, reproduced). */
#define RECIPROCAL_ULPS 1
#include "reciprocal_newton.c"
