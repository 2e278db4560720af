// expect: findings mismatch
/* The Newton-refined RCPPS of rcp_estimate_newton.c against a relative
 * bound of 2^-24 (half an ulp): the step's result differs from the
 * division by an ulp on many inputs, with this CPU's estimates too.
 * Expected verdict: findings (exceeds, reproduced). */
#define TOLERANCE 0x1p-24
#include "rcp_estimate_newton.c"
