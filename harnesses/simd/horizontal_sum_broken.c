// expect: findings mismatch
// cflags: -mavx2 -mfma
// Broken: the int16 reduction uses _mm256_hadds_epi16 (saturating) where the wrapping scalar sum needs _mm256_hadd_epi16; the extra "s" clamps partial sums at 32767.
#include <immintrin.h>
#include <stdint.h>
#include "symcross.h"

#define N 64

static uint16_t scalar_ref(const uint16_t *x) {
  uint16_t s = 0;
  for (int i = 0; i < N; i++)
    s = (uint16_t)(s + x[i]);
  return s;
}

static uint16_t simd(const uint16_t *x) {
  __m256i acc = _mm256_loadu_si256((const __m256i *)x);
  for (int i = 16; i < N; i += 16)
    acc = _mm256_add_epi16(acc, _mm256_loadu_si256((const __m256i *)(x + i)));
  acc = _mm256_hadds_epi16(acc, acc); /* broken: saturating */
  acc = _mm256_hadds_epi16(acc, acc);
  acc = _mm256_hadds_epi16(acc, acc);
  __m128i s = _mm_add_epi16(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
  return (uint16_t)_mm_extract_epi16(s, 0);
}

int main(void) {
  uint16_t x[N], ref, vec;
  symcross_make_symbolic(x, sizeof x, "x");
  ref = scalar_ref(x);
  vec = simd(x);
  symcross_check_equal(&ref, &vec, 2, 1, "horizontal sum");
  return 0;
}
