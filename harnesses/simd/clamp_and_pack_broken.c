// expect: findings mismatch
// Broken: the last step packs with _mm_packs_epi16 (signed saturation) instead of _mm_packus_epi16, so 128..255 become 127: the signed/unsigned pack names differ by two letters.
#include <emmintrin.h>
#include <math.h>
#include <stdint.h>
#include "symcross.h"

#define N 16

static void scalar_ref(const float *x, uint8_t *out) {
  for (int i = 0; i < N; i++) {
    float v = x[i] > 0.0f ? x[i] : 0.0f;
    v = v < 255.0f ? v : 255.0f;
    out[i] = (uint8_t)(int)rintf(v);
  }
}

static void simd(const float *x, uint8_t *out) {
  const __m128 lo = _mm_setzero_ps(), hi = _mm_set1_ps(255.0f);
  __m128i q[4];
  for (int j = 0; j < 4; j++) {
    __m128 v = _mm_min_ps(_mm_max_ps(_mm_loadu_ps(x + 4 * j), lo), hi);
    q[j] = _mm_cvtps_epi32(v);
  }
  __m128i w0 = _mm_packs_epi32(q[0], q[1]);
  __m128i w1 = _mm_packs_epi32(q[2], q[3]);
  _mm_storeu_si128((__m128i *)out, _mm_packs_epi16(w0, w1) /* broken: signed pack */);
}

int main(void) {
  float x[N];
  uint8_t ref[N], vec[N];
  symcross_make_symbolic(x, sizeof x, "x");
  scalar_ref(x, ref);
  simd(x, vec);
  symcross_check_equal(ref, vec, 1, N, "clamp and pack");
  return 0;
}
