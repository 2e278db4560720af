// expect: inconclusive
/* (a + b) + c against a + (b + c) for a, b, c in [1, 2): the sums lie in
 * [3, 6), where each grouping rounds twice, each by up to half an ulp of
 * its result: they can be 2 ulps apart (a = 0x3f8f1b7b, b = 0x3f919dd2,
 * c = 0x3f9747d1, found by the local search from the worst sample), so
 * 1 ulp is exceeded and 2 ulps is the bound asked here.
 * The solver does not decide the bound within its time: expected verdict
 * inconclusive (within bound on every input tried, largest error 2 ulps). */
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

int main(void) {
  float v[3];
  symcross_make_symbolic(v, sizeof v, "abc");
  for (int i = 0; i < 3; i++) symcross_assume(v[i] >= 1.0f && v[i] < 2.0f);
  float left = (v[0] + v[1]) + v[2];
  float right = v[0] + (v[1] + v[2]);
  symcross_check_close(&left, &right, sizeof left, 1, SYMCROSS_ULP(2), "regrouped sum");
  return 0;
}
