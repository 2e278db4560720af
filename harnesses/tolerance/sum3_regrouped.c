// expect: inconclusive
/* (a + b) + c against a + (b + c) for a, b, c in [1, 2): the sums lie in
 * [3, 6), where each grouping rounds twice; they are at most 1 ulp apart.
 * The solver does not decide the bound within its time: expected verdict
 * inconclusive (within bound on every input tried, largest error 1 ulp). */
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

int main(void) {
  float v[3];
  symcross_make_symbolic(v, sizeof v, "abc");
  for (int i = 0; i < 3; i++) symcross_assume(v[i] >= 1.0f && v[i] < 2.0f);
  float left = (v[0] + v[1]) + v[2];
  float right = v[0] + (v[1] + v[2]);
  symcross_check_close(&left, &right, sizeof left, 1, SYMCROSS_ULP(1), "regrouped sum");
  return 0;
}
