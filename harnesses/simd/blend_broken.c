// expect: findings mismatch
// cflags: -msse4.1
// Broken: the mask comes from the wrong comparison, _mm_cmpge_ps(a, b) with the blend operands swapped, on the belief that !(a < b) is a >= b; with a NaN both are false, so c is taken where the reference takes d.
#include <smmintrin.h>
#include "symcross.h"

#define N 16

static void scalar_ref(const float *a, const float *b, const float *c, const float *d, float *out) {
  for (int i = 0; i < N; i++)
    out[i] = a[i] < b[i] ? c[i] : d[i];
}

static void simd(const float *a, const float *b, const float *c, const float *d, float *out) {
  for (int i = 0; i < N; i += 4) {
    __m128 m = _mm_cmpge_ps(_mm_loadu_ps(a + i), _mm_loadu_ps(b + i)); /* broken: not the negation of < */
    _mm_storeu_ps(out + i, _mm_blendv_ps(_mm_loadu_ps(c + i), _mm_loadu_ps(d + i), m));
  }
}

int main(void) {
  float a[N], b[N], c[N], d[N], ref[N], vec[N];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  symcross_make_symbolic(c, sizeof c, "c");
  symcross_make_symbolic(d, sizeof d, "d");
  scalar_ref(a, b, c, d, ref);
  simd(a, b, c, d, vec);
  symcross_check_equal(ref, vec, 4, N, "blend");
  return 0;
}
