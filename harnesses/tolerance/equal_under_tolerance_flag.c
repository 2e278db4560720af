// expect: findings mismatch
/* A float sum in two groupings compared with symcross_check_equal: run
 * with --tolerance ulp:0 it exceeds (an ulp apart on some inputs); with
 * --tolerance abs:1 it is within the bound on every input tried.
 * Expected verdict: findings (bit-exact, and under --tolerance ulp:0). */
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

int main(void) {
  float v[3];
  symcross_make_symbolic(v, sizeof v, "abc");
  for (int i = 0; i < 3; i++) symcross_assume(v[i] >= 1.0f && v[i] < 2.0f);
  float left = (v[0] + v[1]) + v[2];
  float right = v[0] + (v[1] + v[2]);
  symcross_check_equal(&left, &right, sizeof left, 1, "regrouped sum");
  return 0;
}
