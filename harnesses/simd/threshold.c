/* Threshold: out = x > t ? x : 0 with a compare mask and AND, against the
 * scalar select. Expected verdict: equal (a NaN compares false both ways). */
#include <xmmintrin.h>
#include "symcross.h"

static void scalar_ref(const float *x, float t, float *out) {
  for (int i = 0; i < 4; i++)
    out[i] = x[i] > t ? x[i] : 0.0f;
}

int main(void) {
  float x[4], t, ref[4], vec[4];
  symcross_make_symbolic(x, sizeof x, "x");
  symcross_make_symbolic(&t, sizeof t, "t");
  scalar_ref(x, t, ref);
  __m128 v = _mm_loadu_ps(x);
  __m128 m = _mm_cmpgt_ps(v, _mm_set1_ps(t));
  _mm_storeu_ps(vec, _mm_and_ps(m, v));
  symcross_check_equal(ref, vec, 4, 4, "threshold");
  return 0;
}
