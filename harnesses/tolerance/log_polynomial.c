// expect: equivalent
/* log(x) for x in [1, 2) (the range left once the exponent is split off)
 * by the series 2s(1 + s^2/3 + s^4/5 + ... + s^12/13), s = (x-1)/(x+1),
 * in float, against libm's logf, modelled as any value within glibc's
 * documented bound (1 ulp for logf on x86_64) of the correctly rounded
 * log(x); the replay calls this machine's logf.
 * One float input over 2^23 values: every one is evaluated, with every
 * result a conforming logf may give.
 * Expected verdict: equivalent (within 4 ulps of logf, proved; 3 ulps
 * from this machine's logf at worst). */
#include <math.h>
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

#ifndef LOG_ULPS
#define LOG_ULPS 4
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

int main(void) {
  float x;
  symcross_make_symbolic(&x, sizeof x, "x");
  symcross_assume(x >= 1.0f && x < 2.0f);
  float got = log_approx(x);
  float want = logf(x);
  symcross_check_close(&got, &want, sizeof got, 1, SYMCROSS_ULP(LOG_ULPS), "log(x)");
  return 0;
}
