// expect: equivalent
/* (a + b) + c against a + (b + c) for a, b, c in [1, 2): the sums lie in
 * [3, 6), where each grouping rounds twice. The inner sums lie in [2, 4),
 * one binade, so each errs by at most 2^-23; the two values before the
 * last rounding are at most 2^-22 apart, one ulp at 3 and above, so the
 * results are at most 2 ulps apart. They can be 2 ulps apart
 * (a = 0x3f8f1b7b, b = 0x3f919dd2, c = 0x3f9747d1, found by the local
 * search from the worst sample), so 1 ulp is exceeded.
 * Proved by rounding-error bounds (one binade, last rounding counted once).
 * Expected verdict: equivalent (within 2 ulps, proved). */
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

#ifndef SUM3_ULPS
#define SUM3_ULPS 2
#endif

int main(void) {
  float v[3];
  symcross_make_symbolic(v, sizeof v, "abc");
  for (int i = 0; i < 3; i++) symcross_assume(v[i] >= 1.0f && v[i] < 2.0f);
  float left = (v[0] + v[1]) + v[2];
  float right = v[0] + (v[1] + v[2]);
  symcross_check_close(&left, &right, sizeof left, 1, SYMCROSS_ULP(SUM3_ULPS), "regrouped sum");
  return 0;
}
