// expect: findings mismatch
// cflags: -msse3
// Broken: the final reduction uses the movehl/shuffle idiom, (a0 + a2) + (a1 + a3), while the reference pairs neighbours, (a0 + a1) + (a2 + a3); the lane order differs and float + is not associative.
#include <pmmintrin.h>
#include "symcross.h"

#define N 16

static float scalar_ref(const float *x) {
  float a[4];
  for (int j = 0; j < 4; j++)
    a[j] = x[j];
  for (int i = 4; i < N; i += 4)
    for (int j = 0; j < 4; j++)
      a[j] = a[j] + x[i + j];
  return (a[0] + a[1]) + (a[2] + a[3]);
}

static float simd(const float *x) {
  __m128 acc = _mm_loadu_ps(x);
  for (int i = 4; i < N; i += 4)
    acc = _mm_add_ps(acc, _mm_loadu_ps(x + i));
  acc = _mm_add_ps(acc, _mm_movehl_ps(acc, acc));                        /* (a0+a2, a1+a3, ..) */
  acc = _mm_add_ss(acc, _mm_shuffle_ps(acc, acc, _MM_SHUFFLE(1, 1, 1, 1))); /* broken order */
  return _mm_cvtss_f32(acc);
}

int main(void) {
  float x[N], ref, vec;
  symcross_make_symbolic(x, sizeof x, "x");
  ref = scalar_ref(x);
  vec = simd(x);
  symcross_check_equal(&ref, &vec, 4, 1, "horizontal sum");
  return 0;
}
