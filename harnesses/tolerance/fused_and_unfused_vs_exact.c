// expect: equivalent
/* a*b+c for a, b, c in [1, 2), against the exact result (in double, where
 * a*b+c is exact for these ranges: 48 product bits and c's 24 fit in 53).
 * The fused multiply-add rounds once: within half an ulp, a relative
 * error of at most 2^-24. The unfused form rounds twice: within 2^-23 (one
 * ulp), but not 2^-24 (fused_vs_exact_unfused_broken.c).
 * Three inputs: proved by rounding-error bounds, not by evaluation.
 * Expected verdict: equivalent (both within bound, proved). */
#include <math.h>
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

int main(void) {
  float v[3];
  symcross_make_symbolic(v, sizeof v, "abc");
  for (int i = 0; i < 3; i++) symcross_assume(v[i] >= 1.0f && v[i] < 2.0f);
  double exact = (double)v[0] * (double)v[1] + (double)v[2];
  double fused = fmaf(v[0], v[1], v[2]);
  double unfused = v[0] * v[1] + v[2];
  symcross_check_close(&fused, &exact, sizeof exact, 1, SYMCROSS_REL(0x1p-24), "fused a*b+c");
  symcross_check_close(&unfused, &exact, sizeof exact, 1, SYMCROSS_REL(0x1p-23), "unfused a*b+c");
  return 0;
}
