// expect: findings mismatch
/* fma_vs_unfused_rel_to.c held to 2^-24 of |a*b| + |c|: the two roundings
 * of the unfused form together err by more than that (1 ulp of the result
 * where the result is about the magnitude): exceeded, with the worst input.
 * Expected verdict: findings (exceeds, reproduced). */
#define REL_TO_BOUND 0x1p-24
#include "fma_vs_unfused_rel_to.c"
