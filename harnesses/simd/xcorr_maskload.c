// expect: equivalent
// cflags: -mavx2
/* Cross-correlation of 13 floats, eight lanes at a time (AVX2), the last
 * five lanes read with _mm256_maskload_ps: lanes past the end are masked
 * off, read as zero and never touch memory (the arrays hold exactly 13
 * floats, so an unmasked read there would be out of bounds). The
 * reference keeps eight lane accumulators and reduces them in the same
 * order, so the two are equal bit for bit. */
#include <immintrin.h>
#include "symcross.h"

#define N 13

static float xcorr_ref(const float *x, const float *y) {
  float acc[8] = {0};
  for (int i = 0; i < N; i += 8)
    for (int l = 0; l < 8; l++) {
      float a = i + l < N ? x[i + l] : 0.0f;
      float b = i + l < N ? y[i + l] : 0.0f;
      acc[l] = acc[l] + a * b;
    }
  return ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]));
}

static float xcorr_avx2(const float *x, const float *y) {
  __m256 acc = _mm256_setzero_ps();
  int i = 0;
  for (; i + 8 <= N; i += 8)
    acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i)));
  if (i < N) {
    __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i tail = _mm256_cmpgt_epi32(_mm256_set1_epi32(N - i), lane);
    acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_maskload_ps(x + i, tail), _mm256_maskload_ps(y + i, tail)));
  }
  float l[8];
  _mm256_storeu_ps(l, acc);
  return ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]));
}

int main(void) {
  float x[N], y[N];
  symcross_make_symbolic(x, sizeof x, "x");
  symcross_make_symbolic(y, sizeof y, "y");
  float r = xcorr_ref(x, y), v = xcorr_avx2(x, y);
  symcross_check_equal(&r, &v, sizeof r, 1, "cross-correlation");
  return 0;
}
