// expect: equivalent
// cflags: -msse4.1
/* Blend by compare mask over 16 floats: out = a < b ? c : d as
 * _mm_blendv_ps(d, c, _mm_cmplt_ps(a, b)) (BLENDVPS takes its second
 * operand where the mask's sign bit is set), against the scalar ternary.
 * A NaN in a or b compares false both ways and selects d.
 * Expected verdict: equivalent. */
#include <smmintrin.h>
#include "symcross.h"

#define N 16

static void scalar_ref(const float *a, const float *b, const float *c, const float *d, float *out) {
  for (int i = 0; i < N; i++)
    out[i] = a[i] < b[i] ? c[i] : d[i];
}

static void simd(const float *a, const float *b, const float *c, const float *d, float *out) {
  for (int i = 0; i < N; i += 4) {
    __m128 m = _mm_cmplt_ps(_mm_loadu_ps(a + i), _mm_loadu_ps(b + i));
    _mm_storeu_ps(out + i, _mm_blendv_ps(_mm_loadu_ps(d + i), _mm_loadu_ps(c + i), m));
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
