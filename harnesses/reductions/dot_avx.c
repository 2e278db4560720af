// cflags: -mavx
/* Dot product: a serial loop against eight AVX partial sums of products
 * (compile with --cflags -mavx). Equal under --assume
 * associativity,positive-zero,ordered; -D DROP leaves out the last product. */
#include <immintrin.h>
#include "symcross.h"

#ifndef N
#define N 16
#endif

int main(void) {
  float a[N], b[N];
  symcross_make_symbolic(a, sizeof a, "a");
  symcross_make_symbolic(b, sizeof b, "b");
  float serial = 0.0f;
  for (int i = 0; i < N; i++)
    serial += a[i] * b[i];

  __m256 acc = _mm256_setzero_ps();
  for (int i = 0; i < N; i += 8)
    acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)));
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
  float vector = _mm_cvtss_f32(s);
#ifdef DROP
  vector -= a[N - 1] * b[N - 1];
#endif
  symcross_check_equal(&serial, &vector, sizeof(float), 1, "dot");
  return 0;
}
