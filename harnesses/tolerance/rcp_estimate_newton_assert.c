// expect: no-findings
/* A reciprocal from _mm_rcp_ps and two Newton steps, held to Intel's bound
 * for the estimate alone, written as a plain assertion per lane:
 * fabsf(got - 1/x) <= 1.5 * 2^-12 * fabsf(1/x), for |x| in [2^-100, 2^100].
 * The steps square the estimate's error twice, so the bound holds for
 * every conforming CPU with room to spare.
 * Expected verdict: no findings. */
#include <assert.h>
#include <math.h>
#include <xmmintrin.h>
#include "symcross.h"

int main(void) {
  float x[4], got[4];
  symcross_make_symbolic(x, sizeof x, "x");
  for (int i = 0; i < 4; i++) symcross_assume(fabsf(x[i]) >= 0x1p-100f && fabsf(x[i]) <= 0x1p100f);
  __m128 v = _mm_loadu_ps(x);
  __m128 r = _mm_rcp_ps(v);
  const __m128 two = _mm_set1_ps(2.0f);
  r = _mm_mul_ps(r, _mm_sub_ps(two, _mm_mul_ps(v, r)));
  r = _mm_mul_ps(r, _mm_sub_ps(two, _mm_mul_ps(v, r)));
  _mm_storeu_ps(got, r);
  for (int i = 0; i < 4; i++) {
    float want = 1.0f / x[i];
    assert(fabsf(got[i] - want) <= 0x1.8p-12f * fabsf(want));
  }
  return 0;
}
