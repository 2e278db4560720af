// expect: equivalent
/* A reciprocal square root by the bit-trick estimate refined with three
 * Newton steps, against the correctly rounded 1/sqrtf(x), for x in [1, 4)
 * (two binades: the range an exponent-halving reduction leaves): within
 * 2 ulps. One float input over 2^24 values: every one is evaluated, so the
 * bound is proved and the worst input is exact.
 * Expected verdict: equivalent (within bound, proved by exhaustive evaluation). */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "symcross.h"

#pragma STDC FP_CONTRACT OFF

#ifndef RSQRT_ULPS
#define RSQRT_ULPS 2
#endif

static float rsqrt(float x) {
  uint32_t bits;
  memcpy(&bits, &x, 4);
  bits = 0x5f3759dfu - (bits >> 1);
  float y;
  memcpy(&y, &bits, 4);
  for (int i = 0; i < 3; i++) y = y * (1.5f - 0.5f * x * y * y);
  return y;
}

int main(void) {
  float x;
  symcross_make_symbolic(&x, sizeof x, "x");
  symcross_assume(x >= 1.0f && x < 4.0f);
  float got = rsqrt(x), want = 1.0f / sqrtf(x);
  symcross_check_close(&got, &want, sizeof got, 1, SYMCROSS_ULP(RSQRT_ULPS), "1/sqrt(x)");
  return 0;
}
