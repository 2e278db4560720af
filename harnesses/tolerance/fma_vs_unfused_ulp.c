// expect: findings
/* a*b+c rounded twice (product, then sum) against the fused multiply-add
 * rounded once: within 1 ulp of each other? No: when the sum cancels, the
 * product's rounding error is all that is left, many ulps of the result.
 * Expected verdict: findings (exceeds, with the worst input found). */
#include <math.h>
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

int main(void) {
  float v[3];
  symcross_make_symbolic(v, sizeof v, "abc");
  for (int i = 0; i < 3; i++) symcross_assume(fabsf(v[i]) >= 0x1p-20f && fabsf(v[i]) <= 0x1p20f);
  float unfused = v[0] * v[1] + v[2];
  float fused = fmaf(v[0], v[1], v[2]);
  symcross_check_close(&unfused, &fused, sizeof fused, 1, SYMCROSS_ULP(1), "a*b+c");
  return 0;
}
