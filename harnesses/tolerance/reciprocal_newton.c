// expect: equivalent
/* A reciprocal by a bit-trick estimate refined with three Newton steps,
 * against the correctly rounded 1/x, for x in [1, 2): within 2 ulps.
 * The solver does not decide a division against three Newton steps, but
 * the check reads one float input over 2^23 values: every one is
 * evaluated, so the bound is proved and the worst input is exact.
 * Expected verdict: equivalent (within bound, proved by exhaustive evaluation). */
#include <stdint.h>
#include <string.h>
#include "symcross.h"

#define STEPS 3

#ifndef RECIPROCAL_ULPS
#define RECIPROCAL_ULPS 2
#endif

static float estimate(float x) {
  uint32_t bits;
  memcpy(&bits, &x, 4);
  bits = 0x7ef311c3u - bits;
  float y;
  memcpy(&y, &bits, 4);
  return y;
}

static float reciprocal(float x) {
  float y = estimate(x);
  for (int i = 0; i < STEPS; i++) y = y * (2.0f - x * y);
  return y;
}

int main(void) {
  float x;
  symcross_make_symbolic(&x, sizeof x, "x");
  symcross_assume(x >= 1.0f && x < 2.0f);
  float got = reciprocal(x), want = 1.0f / x;
  symcross_check_close(&got, &want, sizeof got, 1, SYMCROSS_ULP(RECIPROCAL_ULPS), "1/x");
  return 0;
}
