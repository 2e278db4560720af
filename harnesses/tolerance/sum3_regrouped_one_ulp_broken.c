// expect: findings mismatch
/* sum3_regrouped.c held to 1 ulp: the two groupings can be 2 ulps apart,
 * exceeded, with the worst input.
 * Expected verdict: findings (exceeds, reproduced). */
#define SUM3_ULPS 1
#include "sum3_regrouped.c"
