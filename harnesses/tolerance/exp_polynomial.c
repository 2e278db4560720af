// expect: equivalent
/* exp(x) for x in [1, 2) as a user would write it: e^1.5 times a
 * degree-7 Taylor polynomial of exp(r), r = x - 1.5 (exact), in float,
 * against libm's expf. expf is modelled as any value within glibc's
 * documented bound (1 ulp for expf on x86_64) of the correctly rounded
 * exp(x); the replay calls this machine's expf.
 * One float input over 2^23 values: every one is evaluated, with every
 * result a conforming expf may give.
 * Expected verdict: equivalent (within 5 ulps of expf, proved). */
#include <math.h>
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

#ifndef EXP_ULPS
#define EXP_ULPS 5
#endif

#ifndef EXP_DEGREE
#define EXP_DEGREE 7
#endif

static float exp_approx(float x) {
  float r = x - 1.5f;
  float p = 1.0f;
#if EXP_DEGREE >= 7
  p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
#else
  p = 1.0f / 24.0f;
#endif
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  return 4.4816890703380645f * p; /* e^1.5 */
}

int main(void) {
  float x;
  symcross_make_symbolic(&x, sizeof x, "x");
  symcross_assume(x >= 1.0f && x < 2.0f);
  float got = exp_approx(x);
  float want = expf(x);
  symcross_check_close(&got, &want, sizeof got, 1, SYMCROSS_ULP(EXP_ULPS), "exp(x)");
  return 0;
}
