// expect: equivalent
// cflags: -mavx2 -mfma
/* Horizontal sum of 64 int32 with AVX2: eight-lane accumulation, then
 * _mm256_hadd_epi32 twice and the two 128-bit halves added, against a
 * serial scalar sum. Integer addition wraps, so every order gives the same
 * bits. Expected verdict: equivalent. */
#include <immintrin.h>
#include <stdint.h>
#include "symcross.h"

#define N 64

static uint32_t scalar_ref(const uint32_t *x) {
  uint32_t s = 0;
  for (int i = 0; i < N; i++)
    s += x[i];
  return s;
}

static uint32_t simd(const uint32_t *x) {
  __m256i acc = _mm256_loadu_si256((const __m256i *)x);
  for (int i = 8; i < N; i += 8)
    acc = _mm256_add_epi32(acc, _mm256_loadu_si256((const __m256i *)(x + i)));
  acc = _mm256_hadd_epi32(acc, acc);
  acc = _mm256_hadd_epi32(acc, acc);
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
  return (uint32_t)_mm_cvtsi128_si32(s);
}

int main(void) {
  uint32_t x[N], ref, vec;
  symcross_make_symbolic(x, sizeof x, "x");
  ref = scalar_ref(x);
  vec = simd(x);
  symcross_check_equal(&ref, &vec, 4, 1, "horizontal sum");
  return 0;
}
