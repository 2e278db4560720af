// expect: findings mismatch
/* The unfused a*b+c (two roundings) against the exact result, for a, b, c
 * in [1, 2), with the fused form's bound of half an ulp (2^-24 relative):
 * exceeded, the second rounding adds to the first.
 * Expected verdict: findings (exceeds, reproduced). */
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

int main(void) {
  float v[3];
  symcross_make_symbolic(v, sizeof v, "abc");
  for (int i = 0; i < 3; i++) symcross_assume(v[i] >= 1.0f && v[i] < 2.0f);
  double exact = (double)v[0] * (double)v[1] + (double)v[2];
  double unfused = v[0] * v[1] + v[2];
  symcross_check_close(&unfused, &exact, sizeof exact, 1, SYMCROSS_REL(0x1p-24), "unfused a*b+c");
  return 0;
}
