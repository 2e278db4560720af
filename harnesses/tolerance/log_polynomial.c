// expect: equivalent
/* log(x) for x in [1, 2) (the range left once the exponent is split off)
 * by the series 2s(1 + s^2/3 + s^4/5 + ... + s^12/13), s = (x-1)/(x+1),
 * in float, against a reference the model computes exactly: the same
 * series to s^25 in double (truncation below 1e-13 relative), rounded to
 * float.
 * (libm's logf is not modelled: the model treats it as an uninterpreted
 * function, so a check against logf itself cannot be proved.)
 * One float input over 2^23 values: every one is evaluated.
 * Expected verdict: equivalent (within 3 ulps, its worst error, proved). */
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

#ifndef LOG_ULPS
#define LOG_ULPS 3
#endif

static float log_approx(float x) {
  float s = (x - 1.0f) / (x + 1.0f);
  float z = s * s;
  float p = 1.0f / 13.0f;
  p = p * z + 1.0f / 11.0f;
  p = p * z + 1.0f / 9.0f;
  p = p * z + 1.0f / 7.0f;
  p = p * z + 1.0f / 5.0f;
  p = p * z + 1.0f / 3.0f;
  p = p * z + 1.0f;
  return 2.0f * s * p;
}

static double log_reference(double x) {
  double s = (x - 1.0) / (x + 1.0);
  double z = s * s;
  double p = 1.0 / 25.0;
  for (int k = 11; k >= 0; k--) p = p * z + 1.0 / (2 * k + 1);
  return 2.0 * s * p;
}

int main(void) {
  float x;
  symcross_make_symbolic(&x, sizeof x, "x");
  symcross_assume(x >= 1.0f && x < 2.0f);
  float got = log_approx(x);
  float want = (float)log_reference(x);
  symcross_check_close(&got, &want, sizeof got, 1, SYMCROSS_ULP(LOG_ULPS), "log(x)");
  return 0;
}
