// expect: findings mismatch
/* The 16-term serial and 4-lane sums of sum16_serial_vs_lanes.c, for terms
 * in [1, 2), relative to the sum of magnitudes, with a bound of 2^-24 (one
 * rounding's worth): exceeded, the orders round differently by more.
 * Expected verdict: findings (exceeds, reproduced). */
#define SUM_BOUND 0x1p-24
#include "sum16_serial_vs_lanes.c"
