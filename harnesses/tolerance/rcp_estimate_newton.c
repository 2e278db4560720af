// expect: equivalent
/* _mm_rcp_ps refined by Newton steps, x1 = x0 * (2 - x * x0), against the
 * correctly rounded 1.0f / x, for |x| in [2^-100, 2^100] of either sign.
 * The estimate is any value within Intel's documented 1.5 * 2^-12 of 1/x,
 * x0 = (1/x)(1 + e); one step gives (1/x)(1 - e^2) exactly, so its error
 * is the square of the estimate's (2.25 * 2^-24) plus the roundings of the
 * three operations and of the division: within 2^-21 relative of the
 * division for every conforming CPU. Two steps (-DSTEPS=2) meet Intel's
 * own bound for the estimate, 1.5 * 2^-12, with room to spare.
 * Expected verdict: equivalent (within bound, proved by estimate bound). */
#include <xmmintrin.h>
#include <math.h>
#include "symcross.h"

#ifndef STEPS
#define STEPS 1
#endif
#ifndef TOLERANCE
#define TOLERANCE 0x1p-21
#endif

static __m128 reciprocal(__m128 x) {
  __m128 r = _mm_rcp_ps(x);
  const __m128 two = _mm_set1_ps(2.0f);
  for (int i = 0; i < STEPS; i++) r = _mm_mul_ps(r, _mm_sub_ps(two, _mm_mul_ps(x, r)));
  return r;
}

int main(void) {
  float x[4], got[4], want[4];
  symcross_make_symbolic(x, sizeof x, "x");
  for (int i = 0; i < 4; i++) symcross_assume(fabsf(x[i]) >= 0x1p-100f && fabsf(x[i]) <= 0x1p100f);
  _mm_storeu_ps(got, reciprocal(_mm_loadu_ps(x)));
  for (int i = 0; i < 4; i++) want[i] = 1.0f / x[i];
  symcross_check_close(got, want, sizeof(float), 4, SYMCROSS_REL(TOLERANCE), "rcp_ps + Newton");
  return 0;
}
