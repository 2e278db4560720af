// expect: equivalent
/* RCPPS against the correctly rounded 1/x, for x in [2^-10, 2^10]: Intel
 * documents the estimate as within 1.5 * 2^-12 of the exact reciprocal, and
 * the division rounds by at most 2^-24, so they are within 0x1.81p-12
 * relative of the division for every conforming CPU. The estimate is any
 * value within the bound in the model, so no input can be evaluated: the
 * rounding-error bounds take it as (1/x)(1 + d), |d| <= 1.5 * 2^-12.
 * Expected verdict: equivalent (within bound, proved by error analysis). */
#include <immintrin.h>
#include "symcross.h"

int main(void) {
  float x;
  symcross_make_symbolic(&x, sizeof x, "x");
  symcross_assume(x >= 0x1p-10f && x <= 0x1p10f);
  float got = _mm_cvtss_f32(_mm_rcp_ps(_mm_set1_ps(x)));
  float want = 1.0f / x;
  symcross_check_close(&got, &want, sizeof got, 1, SYMCROSS_REL(0x1.81p-12), "rcp(x)");
  return 0;
}
