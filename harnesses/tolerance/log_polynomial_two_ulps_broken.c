// expect: findings mismatch
/* The float log series of log_polynomial.c with a bound of 2 ulps, one
 * less than its worst error: exceeded, with the worst input.
 * Expected verdict: findings (exceeds, reproduced). */
#define LOG_ULPS 2
#include "log_polynomial.c"
