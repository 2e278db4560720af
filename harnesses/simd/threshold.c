// expect: equivalent
/* Threshold: out = x > t ? x : 0 with a compare mask and AND, against the
 * scalar select, over 16 floats. Equal bit for bit: a NaN (in x or t)
 * compares false both ways, and -0 > t is false whenever 0 > t is.
 * Expected verdict: equivalent. */
#include <xmmintrin.h>
#include "symcross.h"

#define N 16

static void scalar_ref(const float *x, float t, float *out) {
  for (int i = 0; i < N; i++)
    out[i] = x[i] > t ? x[i] : 0.0f;
}

static void simd(const float *x, float t, float *out) {
  __m128 tv = _mm_set1_ps(t);
  for (int i = 0; i < N; i += 4) {
    __m128 v = _mm_loadu_ps(x + i);
    __m128 m = _mm_cmpgt_ps(v, tv);
    _mm_storeu_ps(out + i, _mm_and_ps(m, v));
  }
}

int main(void) {
  float x[N], t, ref[N], vec[N];
  symcross_make_symbolic(x, sizeof x, "x");
  symcross_make_symbolic(&t, sizeof t, "t");
  scalar_ref(x, t, ref);
  simd(x, t, vec);
  symcross_check_equal(ref, vec, 4, N, "threshold");
  return 0;
}
