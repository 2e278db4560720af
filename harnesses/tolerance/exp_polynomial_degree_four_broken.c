// expect: findings mismatch
/* The exp approximation of exp_polynomial.c cut to a degree-4
 * polynomial: thousands of ulps from expf near the ends of the range,
 * beyond the 5-ulp bound for every expf within its documented bound.
 * Expected verdict: findings (exceeds, reproduced against this machine's expf). */
#define EXP_DEGREE 4
#include "exp_polynomial.c"
