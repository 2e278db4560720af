// expect: equivalent
/* a*b+c rounded twice against the fused multiply-add, relative to
 * |a*b| + |c|, for |a|, |b|, |c| in [2^-20, 2^20] of either sign: the
 * product errs by at most u|a*b| (u = 2^-24), each sum by at most u times
 * its result, which is at most |a*b| + |c| however much the terms cancel:
 * together at most 3u of the magnitude, within 2^-22.
 * Proved by rounding-error bounds with a magnitude term for the sum of
 * mixed signs, on the 8 sign combinations of the inputs.
 * Expected verdict: equivalent (within bound, proved). */
#include <math.h>
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

#ifndef REL_TO_BOUND
#define REL_TO_BOUND 0x1p-22
#endif

int main(void) {
  float v[3];
  symcross_make_symbolic(v, sizeof v, "abc");
  for (int i = 0; i < 3; i++) symcross_assume(fabsf(v[i]) >= 0x1p-20f && fabsf(v[i]) <= 0x1p20f);
  float unfused = v[0] * v[1] + v[2];
  float fused = fmaf(v[0], v[1], v[2]);
  float magnitude = fabsf(v[0] * v[1]) + fabsf(v[2]);
  symcross_check_close(&unfused, &fused, sizeof fused, 1, SYMCROSS_REL_TO(REL_TO_BOUND, &magnitude), "a*b+c");
  return 0;
}
