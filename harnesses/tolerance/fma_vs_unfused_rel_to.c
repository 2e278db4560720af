// expect: inconclusive
/* a*b+c rounded twice against the fused multiply-add, relative to
 * |a*b| + |c|: the two roundings of the unfused form and the one of the
 * fused form each err by at most half an ulp of their result, so the two
 * are within 2^-22 of the magnitude whatever the cancellation.
 * The solver does not decide the bound within its time: expected verdict
 * inconclusive (within bound on every input tried, largest error found). */
#include <math.h>
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

int main(void) {
  float v[3];
  symcross_make_symbolic(v, sizeof v, "abc");
  for (int i = 0; i < 3; i++) symcross_assume(fabsf(v[i]) >= 0x1p-20f && fabsf(v[i]) <= 0x1p20f);
  float unfused = v[0] * v[1] + v[2];
  float fused = fmaf(v[0], v[1], v[2]);
  float magnitude = fabsf(v[0] * v[1]) + fabsf(v[2]);
  symcross_check_close(&unfused, &fused, sizeof fused, 1, SYMCROSS_REL_TO(0x1p-22, &magnitude), "a*b+c");
  return 0;
}
